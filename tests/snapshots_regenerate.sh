#!/usr/bin/env bash
# Slow test (labels slow, lammps): pour and settle the snapshots of
# tests/data/snapshots anew with Debian's lmp (make_snapshots.sh, one serial
# lmp at a time, about 7 minutes on 2 cores) and run the accuracy checks of
# cli_snapshots.sh on the new files. The stored files are what this gave on
# the development machine; another LAMMPS build may pour other beds, which
# must pass the same checks.
set -euo pipefail
HG=${1:?binary}
SRC=${2:?source dir}
command -v lmp >/dev/null || { echo "snapshots_regenerate: lmp is required (Debian package lammps)" >&2; exit 1; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
bash "$SRC/tests/data/snapshots/make_snapshots.sh" "$W"
for f in "$W"/*.data; do
    size=$(stat -c %s "$f")
    [ "$size" -lt 1000000 ] || { echo "snapshots_regenerate: $f has $size bytes (over 1 MB)" >&2; exit 1; }
done
HG_SNAPSHOT_DIR="$W" bash "$SRC/tests/cli_snapshots.sh" "$HG" "$SRC"
