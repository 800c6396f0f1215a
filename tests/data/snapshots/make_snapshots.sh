#!/usr/bin/env bash
# Regenerate the settled-bed LAMMPS snapshots used as hgridopt test inputs.
#
# usage: make_snapshots.sh [OUTDIR] [NAME ...]
#   OUTDIR  where the NAME.data files are written (default: current folder)
#   NAME    which systems to build (default: all), e.g. bed3d_d1-4
# environment:
#   LMP     LAMMPS binary (default: lmp); built and tested with Debian's
#           lmp 29 Sep 2021 (update 2). Seeds are fixed in the .in files, so
#           the output is deterministic for a given LAMMPS build.
# Runs one serial LAMMPS process at a time (no MPI, one OpenMP thread).
# Exits non-zero if any run fails or does not produce its data file.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
outdir=${1:-.}
[ $# -gt 0 ] && shift
LMP=${LMP:-lmp}
export OMP_NUM_THREADS=1

if [ $# -gt 0 ]; then
  names=("$@")
else
  names=(bed3d_d1-4 bed3d_d1-8 bed2d_d1-6 bed3d_strat bed3d_walls)
fi

command -v "$LMP" >/dev/null 2>&1 || { echo "make_snapshots: LAMMPS binary '$LMP' not found" >&2; exit 2; }
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
logdir=$(mktemp -d)
trap 'rm -rf "$logdir"' EXIT

status=0
for name in "${names[@]}"; do
  input="$here/$name.in"
  data="$outdir/$name.data"
  if [ ! -f "$input" ]; then
    echo "make_snapshots: no input script $input" >&2
    status=1; continue
  fi
  rm -f "$data"
  t0=$(date +%s.%N)
  if (cd "$logdir" && "$LMP" -in "$input" -var out "$data" -log "$logdir/$name.log" -screen none) \
       && [ -s "$data" ]; then
    t1=$(date +%s.%N)
    printf '%-14s ok   %6.1f s  %s\n' "$name" "$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}')" "$data"
  else
    echo "make_snapshots: $name FAILED; end of its log:" >&2
    tail -n 25 "$logdir/$name.log" >&2 2>/dev/null || echo "(no log written)" >&2
    rm -f "$data"
    status=1
  fi
done
exit $status
