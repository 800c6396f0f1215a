#!/usr/bin/env bash
# LIGGGHTS integration (label liggghts, in the default run, ~20 s): installs
# Debian's liggghts package if it is missing (as root), packs a small
# polydisperse bed with hgridopt pack and runs tests/liggghts_integration.c
# on it: the emitted --format liggghts settings run in liggghts and find the
# neighbours of LIGGGHTS' default bin size; validate and tune through the
# engine's hooks.
set -u
HG=${1:?hgridopt binary}
PROG=${2:?liggghts_integration binary}
if ! command -v liggghts >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
        echo "installing Debian's liggghts package" >&2
        DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq liggghts >&2
    fi
    command -v liggghts >/dev/null 2>&1 || { echo "FAIL: liggghts not available" >&2; exit 1; }
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$HG" pack --psd powerlaw:alpha=-3,rmin=1,omega=6 --dim 3 --nu 0.3 --n 3000 \
    --generator rsa --seed 5 --output "$T/bed.data" 2> /dev/null ||
    { echo "FAIL: hgridopt pack" >&2; exit 1; }
cd "$T" && "$PROG" "$T/bed.data"
