#!/usr/bin/env bash
# Benchmark (labels bench, lammps): `hgridopt recommend --format lammps` on
# the LAMMPS-poured snapshots of tests/data/snapshots, run in Debian's lmp
# as the user would paste it, against `neighbor SKIN bin` and `neighbor
# SKIN multi` with 2 and 3 collections of exponential cutoffs
# (c_h = d_min (d_max/d_min)^(h/L)). Every setting runs the snapshot with its
# own boundary (as in its input script), pair_style gran/hooke/history,
# `neigh_modify every 1 delay 0 check no`, `timer full`; Neigh time per
# build = Neigh CPU seconds (avg x %CPU) / builds. The settings are run in
# BENCH_ROUNDS rounds (default 5), each round every setting once in a
# rotated order; the medians and every round are printed with the ratio of
# the recommendation to the fastest. A recommendation identical to bin or
# an exponential setting is timed once, as that setting. Environment: BENCH_STEPS (200 builds per
# run), BENCH_ROUNDS (5), BENCH_KEEP (keep the work folder).
set -euo pipefail
HG=${1:?binary}
SRC=${2:?source dir}
STEPS=${BENCH_STEPS:-200}
ROUNDS=${BENCH_ROUNDS:-5}
command -v lmp >/dev/null || { echo "bench_lammps_snapshots: lmp is required (Debian package lammps)" >&2; exit 1; }
W=$(mktemp -d)
[ -n "${BENCH_KEEP:-}" ] && echo "bench_lammps_snapshots: work folder $W" >&2 || trap 'rm -rf "$W"' EXIT
D="$SRC/tests/data/snapshots"

. "$(dirname "$0")/lmp_neigh.sh"
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# run NAME DIM BOUNDARY SETTINGS_FILE -> ms per build
run() {
    local d=$W/$1 dim=$2 b=$3 settings=$4
    {
        echo "units lj"
        echo "atom_style sphere"
        echo "dimension $dim"
        echo "boundary $b"
        echo "newton off"
        echo "comm_modify vel yes"
        echo "read_data snapshot.data"
        echo "pair_style gran/hooke/history 20000 NULL 50 NULL 0.5 1"
        echo "pair_coeff * *"
        grep -v '^#' "$settings"
        echo "neigh_modify every 1 delay 0 check no"
        echo "timestep 1e-6"
        echo "fix 1 all nve/sphere"
        [ "$dim" = 2 ] && echo "fix 2d all enforce2d"
        echo "thermo 100000"
        echo "timer full"
        echo "run 5"
        echo "run $STEPS"
    } >"$d/in.bench"
    (cd "$d" && lmp -in in.bench -log none -screen out.txt >/dev/null 2>&1) ||
        { echo "bench_lammps_snapshots: lmp failed in $d: $(grep -m1 ERROR "$d/out.txt")" >&2; exit 1; }
    lmp_neigh_ms "$d/out.txt" bench_lammps_snapshots
}

printf '%-12s %-5s %10s %10s %10s %10s  %-6s %s\n' snapshot bound recommend bin multi2 multi3 ratio "recommended setting"
worst=0
declare -A med
for entry in "bed3d_d1-4:3:p p f" "bed3d_d1-8:3:p p f" "bed3d_strat:3:p p f" \
    "bed3d_walls:3:f f f" "bed2d_d1-6:2:p f p"; do
    IFS=: read -r name dim b <<<"$entry"
    mkdir -p "$W/$name"
    cp "$D/$name.data" "$W/$name/snapshot.data"
    bb=$b # a 2D file takes LAMMPS' three letters too (z ignored)
    "$HG" recommend --packing "$D/$name.data" --boundary "$bb" --format lammps >"$W/$name/rec.txt"
    skin=$(awk '/^neighbor/ {print $2}' "$W/$name/rec.txt")
    j=$("$HG" recommend --packing "$D/$name.data" --boundary "$bb" --format json)
    dmin=$(echo "$j" | jq '2 * .r_min')
    dmax=$(echo "$j" | jq '2 * .r_max')
    echo "neighbor $skin bin" >"$W/$name/bin.txt"
    for L in 2 3; do
        awk -v a="$dmin" -v b="$dmax" -v L=$L -v s="$skin" 'BEGIN {
            printf "neighbor %s multi\nneigh_modify collection/interval %d", s, L
            for (h = 1; h <= L; h++) printf " %.9g", (h == L ? b * (1 + 1e-9) : a * exp(h / L * log(b / a)))
            printf "\ncomm_modify mode multi\n" }' >"$W/$name/multi$L.txt"
    done
    # a recommendation identical to one of the others is that one: timed
    # once (a second series of the same setting measures only the noise)
    set=(bin multi2 multi3)
    same=""
    for o in bin multi2 multi3; do
        if [ -z "$same" ] && [ "$(grep -v '^#' "$W/$name/rec.txt")" = "$(cat "$W/$name/$o.txt")" ]; then
            same=$o
        fi
    done
    [ -n "$same" ] || set=(rec bin multi2 multi3)
    n=${#set[@]}
    for ((r = 0; r < ROUNDS; r++)); do
        for ((k = 0; k < n; k++)); do
            s=${set[$(((k + r) % n))]}
            run "$name" "$dim" "$b" "$W/$name/$s.txt" >>"$W/$name/$s.ms"
        done
    done
    for s in "${set[@]}"; do
        med[$s]=$(median <"$W/$name/$s.ms")
    done
    [ -n "$same" ] && med[rec]=${med[$same]}
    best=$(printf '%s\n' "${med[bin]}" "${med[multi2]}" "${med[multi3]}" "${med[rec]}" | sort -g | head -1)
    ratio=$(awk -v x="${med[rec]}" -v y="$best" 'BEGIN { printf "%.3f", x / y }')
    worst=$(awk -v a="$worst" -v b="$ratio" 'BEGIN { print (b > a ? b : a) }')
    printf '%-12s %-5s %10.4g %10.4g %10.4g %10.4g  %-6s %s\n' "$name" "$(echo $b | tr -d ' ')" \
        "${med[rec]}" "${med[bin]}" "${med[multi2]}" "${med[multi3]}" "$ratio" \
        "$(grep -v '^#' "$W/$name/rec.txt" | tr '\n' ';')${same:+ (= $same)}"
    for s in "${set[@]}"; do
        printf '    %-7s ms per build, %d rounds: %s\n' "$s" "$ROUNDS" "$(tr '\n' ' ' <"$W/$name/$s.ms")"
    done
done
echo "worst recommended / fastest: $worst (medians of $ROUNDS rounds, $STEPS builds per run)"
