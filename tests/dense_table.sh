#!/usr/bin/env bash
# The validation table of the hard-spheres structure
# (docs/measurements/model-accuracy.md):
# generates the packings (hgridopt pack, periodic, N = 10^5, seed 11; a
# packing already in WORKDIR is reused), runs `bench_dense file` on each
# with Top-Down and Bottom-Up, and prints one markdown row per packing:
# measured / predicted T_cd in total with structure poisson and
# hard-spheres, and T_ca (equal for both structures; bold: off by more than
# 5 % with hard-spheres). Per-level figures stay in WORKDIR/out/*.txt.
#
#   tests/dense_table.sh BUILD_DIR WORKDIR > table.md
#
# Generating all packings takes about 2-3 h of one core (the 2D ones at
# nu = 0.8 and 3D alpha = 0 at nu = 0.6 are the slow ones); memory stays
# below `hgridopt pack`'s estimate (~0.6 GB at 10^5 particles).
# Environment: DENSE_N (default 100000); DENSE_RSA=1 also generates RSA
# packings of every case (rows "rsa"; without it, RSA packings already in
# WORKDIR are tabulated, none generated).
set -euo pipefail
BUILD=$(cd "${1:?build dir}" && pwd)
WORK=${2:?work dir}
HG=$BUILD/hgridopt
BENCH=$BUILD/tests/bench_dense
N=${DENSE_N:-100000}
mkdir -p "$WORK/out"
cd "$WORK"

BI="discrete:r=1;5,frac=0.5;0.5,basis=volume"
LN="lognormal:median=1,sigma=0.5,qmin=0.001,qmax=0.999"
spec() {
    case $1 in
    *_bi5_*) echo "$BI" ;;
    *_logn_*) echo "$LN" ;;
    *) echo "$1" | sed -E 's/d[23]_pl(-?[0-9]+)_w([0-9]+)_.*/powerlaw:alpha=\1,omega=\2/' ;;
    esac
}
gen() { # name dim nu generator
    local f="$1.csv"
    [ -s "$f" ] && return 0
    [ "$4" = rsa ] && [ -z "${DENSE_RSA:-}" ] && return 0
    "$HG" pack --psd "$(spec "$1")" --dim "$2" --nu "$3" --n "$N" \
        --generator "$4" --seed 11 --output "$f.tmp.csv" 2>>gen.log &&
        mv "$f.tmp.csv" "$f" || echo "pack failed: $1" >&2
}
names=()
for g in dense rsa; do
    for nu in 0.3 0.45 0.6; do
        for a in -3 -2 0; do
            for w in 2 10 30 100; do
                names+=("d3_pl${a}_w${w}_nu${nu}_$g 3 $nu $g")
            done
        done
        names+=("d3_bi5_nu${nu}_$g 3 $nu $g" "d3_logn_nu${nu}_$g 3 $nu $g")
    done
done
for g in dense rsa; do
    for nu in 0.5 0.7 0.8; do
        for a in -3 -2 0; do
            for w in 2 10 30 100; do
                names+=("d2_pl${a}_w${w}_nu${nu}_$g 2 $nu $g")
            done
        done
    done
done
for n in "${names[@]}"; do
    # shellcheck disable=SC2086
    gen $n
done

echo "| d | distribution | nu | packing | TD L | TD T_cd poisson | TD T_cd hard-spheres | BU L | BU T_cd poisson | BU T_cd hard-spheres | T_ca TD, BU |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
flag() { awk -v x="$1" 'BEGIN { d = x - 1; if (d < 0) d = -d; printf(d > 0.05 ? "**%.3f**" : "%.3f", x) }'; }
for n in "${names[@]}"; do
    set -- $n
    b=$1 dim=$2 nu=$3 g=$4
    [ -s "$b.csv" ] || continue
    for a in td bu; do
        o=out/${b}_$a.txt
        [ -s "$o" ] || "$BENCH" file "$b.csv" "$(spec "$b")" $a >"$o"
    done
    t=$(grep ^TOTAL "out/${b}_td.txt") u=$(grep ^TOTAL "out/${b}_bu.txt")
    case $b in
    *bi5*) psd="bidisperse 1:5" ;;
    *logn*) psd="log-normal s=0.5" ;;
    *) psd=$(echo "$b" | sed -E 's/d[23]_pl(-?[0-9]+)_w([0-9]+)_.*/α=\1 ω=\2/') ;;
    esac
    set -- $t
    tl=$5 tp=$9 th=${11} tca=${17}
    set -- $u
    bl=$5 bp=$9 bh=${11} bca=${17}
    printf '| %s | %s | %s | %s | %s | %.3f | %s | %s | %.3f | %s | %.3f, %.3f |\n' \
        "$dim" "$psd" "$nu" "$g" "$tl" "$tp" "$(flag "$th")" "$bl" "$bp" \
        "$(flag "$bh")" "$tca" "$bca"
done
