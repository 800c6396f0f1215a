#!/usr/bin/env bash
# Benchmark (labels bench, lammps): the bundled HGrid against LAMMPS' own
# neighbour-list builds on the same packings. For every system an RSA
# packing of N spheres is written by `hgridopt pack --generator rsa`; then
#   - hgridopt bench times (one thread, CPU, median of --repeats) one full
#     detection = build + search, skin 0, of the HGrid (recommended sizes
#     for the packing's radii, K = BENCH_K), of `bin` and of `lc`;
#   - Debian's lmp runs the packing with pair_style gran/hooke, skin 0,
#     `neigh_modify every 1 delay 0 check no`, for `neighbor 0.0 bin` and
#     `neighbor 0.0 multi` with the collections of `hgridopt recommend
#     --format lammps` for K = 0.2 and K = 2 (the better multi is kept);
#     Neigh time per build = the Neigh row of the timing breakdown (`timer
#     full`: avg time x %CPU, i.e. CPU time, one rank) / the reported
#     builds, median of BENCH_LMP_RUNS.
# All times are CPU times of one thread (robust on a shared machine).
# Prints one row per system and the ratios LAMMPS / HGrid (> 1: the HGrid
# is faster). The work differs: LAMMPS also bins its ghost atoms and stores
# the list (half list, newton on); the HGrid stores the contact pairs only.
# The single grids are the point of the comparison, so `hgridopt bench`
# gets a budget above its default 2e8 work units per detection: at
# N = 50000, pl3-50 takes 3.1e8 (bin) and 4.8e8 (lc, ~2 s).
# Environment: BENCH_N (50000), BENCH_STEPS (20 builds per lmp run),
# BENCH_LMP_RUNS (3), BENCH_REPEAT (5), BENCH_K (0.2), BENCH_BUDGET (1e9
# work units per detection), BENCH_SYSTEMS (a subset of the names below),
# BENCH_KEEP (keep the work folder).
set -euo pipefail
HG=${1:?binary}
N=${BENCH_N:-50000}
STEPS=${BENCH_STEPS:-20}
RUNS=${BENCH_LMP_RUNS:-3}
REPEAT=${BENCH_REPEAT:-5}
K=${BENCH_K:-0.2}
BUDGET=${BENCH_BUDGET:-1e9}
command -v lmp >/dev/null || { echo "bench_lammps: lmp is required (Debian package lammps)" >&2; exit 1; }
command -v jq >/dev/null || { echo "bench_lammps: jq is required" >&2; exit 1; }
W=$(mktemp -d)
[ -n "${BENCH_KEEP:-}" ] && echo "bench_lammps: work folder $W" >&2 || trap 'rm -rf "$W"' EXIT

# name dim nu psd (the table of the LAMMPS multi issue)
ALL="pl3-20 3 0.4 powerlaw:alpha=-3,omega=20
pl3-50 3 0.3 powerlaw:alpha=-3,omega=50
lognormal 3 0.4 lognormal:median=1,sigma=0.5,qmin=0.001,qmax=0.999
bidisperse 3 0.4 discrete:r=1;5,frac=0.5;0.5,basis=volume
pl2-20 2 0.4 powerlaw:alpha=-3,omega=20"

. "$(dirname "$0")/lmp_neigh.sh"
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# lmp_neigh DIR DIM SETTINGS_FILE -> ms per build (median of RUNS runs)
lmp_neigh() {
    local d=$1 dim=$2 settings=$3 k
    for ((k = 0; k < RUNS; k++)); do
        {
            echo "units lj"
            [ "$dim" = 2 ] && echo "dimension 2"
            echo "atom_style sphere"
            echo "boundary p p p"
            echo "comm_modify vel yes"
            echo "read_data packing.data"
            echo "pair_style gran/hooke 2000.0 NULL 50.0 NULL 0.5 0"
            echo "pair_coeff * *"
            cat "$settings"
            echo "neigh_modify every 1 delay 0 check no"
            echo "timestep 1e-6"
            echo "fix 1 all nve/sphere"
            [ "$dim" = 2 ] && echo "fix 2d all enforce2d"
            echo "thermo 1000"
            echo "timer full"
            echo "run 2"
            echo "run $STEPS"
        } > "$d/in.bench"
        (cd "$d" && lmp -in in.bench -log none -screen out.txt > /dev/null 2>&1) ||
            { echo "bench_lammps: lmp failed in $d: $(grep -m1 ERROR "$d/out.txt")" >&2; exit 1; }
        lmp_neigh_ms "$d/out.txt" bench_lammps
    done | median
}

printf '%-11s %2s %5s %6s | %9s %9s %9s | %9s %9s %9s | %7s %7s %7s %7s\n' \
    system d nu N hgrid_ms bin_ms lc_ms lmp_bin lmp_multi multi_K \
    bin/hg lc/hg Lbin/hg Lmul/hg
printf '%s\n' "$ALL" | while read -r name dim nu psd; do
    if [ -n "${BENCH_SYSTEMS:-}" ] && ! [[ " $BENCH_SYSTEMS " == *" $name "* ]]; then
        continue
    fi
    d="$W/$name"
    mkdir -p "$d"
    "$HG" pack --psd "$psd" --dim "$dim" --nu "$nu" --n "$N" --generator rsa \
        --seed 1 --output "$d/packing.data" 2> "$d/pack.err" ||
        { echo "bench_lammps: pack failed: $(cat "$d/pack.err")" >&2; exit 1; }
    json=$("$HG" bench --packing "$d/packing.data" --K "$K" --methods hgrid,bin,lc \
           --repeats "$REPEAT" --budget "$BUDGET" --format json 2> "$d/bench.err") ||
        { echo "bench_lammps: bench failed: $(cat "$d/bench.err")" >&2; exit 1; }
    ms() { printf '%s\n' "$json" | jq -r --arg m "$1" '.methods[] | select(.name == $m) | .static.cpu_ms'; }
    hg=$(ms hgrid)
    bn=$(ms bin)
    lc=$(ms lc)
    echo "neighbor 0.0 bin" > "$d/bin.in"
    lbin=$(lmp_neigh "$d" "$dim" "$d/bin.in")
    best="" bestK=""
    for kk in 0.2 2; do
        "$HG" recommend --packing "$d/packing.data" --K "$kk" --format lammps \
            2> "$d/rec.err" | grep -v '^#' |
            sed -E 's/^neighbor +[^ ]+ +multi/neighbor 0.0 multi/' > "$d/multi.in"
        grep -q "^neighbor 0.0 multi" "$d/multi.in" || continue
        t=$(lmp_neigh "$d" "$dim" "$d/multi.in")
        if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN {exit !(a < b)}'; then
            best=$t bestK=$kk
        fi
    done
    [ -n "$best" ] || best=nan
    awk -v n="$name" -v d="$dim" -v nu="$nu" -v N="$N" -v hg="$hg" -v bn="$bn" \
        -v lc="$lc" -v lb="$lbin" -v lm="$best" -v k="$bestK" 'BEGIN {
        printf "%-11s %2d %5.2f %6d | %9.2f %9.2f %9.2f | %9.2f %9.2f %9s | %7.2f %7.2f %7.2f %7.2f\n",
            n, d, nu, N, hg, bn, lc, lb, lm, k, bn / hg, lc / hg, lb / hg, lm / hg }'
done
