#!/usr/bin/env bash
# Slow test (labels slow, lammps, liggghts): write the fixtures of
# tests/data/files anew with the codes themselves and read them with
# cli_files.sh: LAMMPS' own granular examples with dumps added (Debian's
# lmp and lammps-examples; about 4 minutes on 2 cores), the LIGGGHTS pour
# (Debian's liggghts, about a minute; LPP's VTK files too when LPP_DIR and
# LPP_PYTHON name an LPP checkout and its Python 2), and MercuryDPM's files
# when HG_MERCURYDPM_DIR names a MercuryDPM kernel build (else the stored
# ones are used). Another build of a code may write other numbers; the
# files must pass the same checks.
set -euo pipefail
HG=${1:?binary}
SRC=${2:?source dir}
for c in lmp liggghts; do
    command -v $c >/dev/null || { echo "files_regenerate: $c is required" >&2; exit 1; }
done
[ -d /usr/share/lammps/examples/granregion ] ||
    { echo "files_regenerate: LAMMPS' examples are required (Debian package lammps-examples)" >&2; exit 1; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
F=$SRC/tests/data/files
mkdir -p "$W/lammps" "$W/liggghts" "$W/mercurydpm"
bash "$F/lammps/make_fixtures.sh" "$W/lammps"
bash "$F/liggghts/make_fixtures.sh" "$W/liggghts"
# no LPP here: its stored VTK files stand in for the ones it would write
ls "$W"/liggghts/lpp_* >/dev/null 2>&1 || cp "$F"/liggghts/lpp_* "$W/liggghts/"
if [ -n "${HG_MERCURYDPM_DIR:-}" ]; then
    bash "$F/mercurydpm/make_fixtures.sh" "$HG_MERCURYDPM_DIR" "$W/mercurydpm"
else
    echo "files_regenerate: HG_MERCURYDPM_DIR not set: the stored MercuryDPM files are read" >&2
    cp "$F"/mercurydpm/mdpm_* "$W/mercurydpm/"
fi
for f in "$W"/*/*; do
    size=$(stat -c %s "$f")
    [ "$size" -lt 1000000 ] || { echo "files_regenerate: $f has $size bytes (over 1 MB)" >&2; exit 1; }
done
HG_FILES_DIR="$W" bash "$SRC/tests/cli_files.sh" "$HG" "$SRC"
