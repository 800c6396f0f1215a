#!/usr/bin/env bash
# Benchmark (label bench): is the bundled HGrid's recommendation its
# fastest grid? For each system a packing is made with `hgridopt pack`, then
# `hgridopt tune` (engine hgrid) searches from the recommendation, timing
# grid build plus detection in one process with candidates alternated and
# repeated, and measures the one-level grid, the recommendation and the
# fastest found side by side. Printed per system: the recommended grid, the
# tuned one, recommended / tuned (goal <= 1.05) with the quartiles of that
# ratio over the repeats of tune's final run (3 x BENCH_REPEATS), and
# recommended / one level.
# Environment: BENCH_N (particles, default 100000), BENCH_SECONDS (search
# time per system, default 60), BENCH_REPEATS (5), BENCH_STEPS (detections
# per timing, 3), BENCH_KEEP (keep the work folder), BENCH_ONLY (a regular
# expression: only the systems whose name matches), BENCH_STRUCTURE (the
# model's pair structure, `tune --structure`: measured, the default of
# recommend and tune on a particle file, or poisson, as in runs 1-10 of
# docs/measurements/bundled-hgrid.md).
set -euo pipefail
HG=${1:?binary}
N=${BENCH_N:-100000}
SECONDS_PER=${BENCH_SECONDS:-60}
REPEATS=${BENCH_REPEATS:-5}
STEPS=${BENCH_STEPS:-3}
STRUCTURE=${BENCH_STRUCTURE:-measured}
W=$(mktemp -d)
[ -n "${BENCH_KEEP:-}" ] && echo "bench_hgrid_tune: work folder $W" >&2 || trap 'rm -rf "$W"' EXIT
command -v jq >/dev/null || { echo "bench_hgrid_tune: jq is required" >&2; exit 1; }

# the systems (name|pack options), shared with bench_tables.sh
# shellcheck source=tests/bench_hgrid_systems.sh
. "$(dirname "$0")/bench_hgrid_systems.sh"
printf '%-30s %-44s %-44s %10s %13s %10s\n' system recommended tuned "rec/tuned" "quartiles" "rec/1-lvl"
worst=0
for s in "${systems[@]}"; do
    name=${s%%|*}
    f=$(system_packing "$HG" "$W" "$N" "$s")
    [ -n "$f" ] || continue
    j=$("$HG" tune --packing "$f" --structure "$STRUCTURE" --seconds "$SECONDS_PER" \
        --repeats "$REPEATS" --steps "$STEPS" --format json 2>/dev/null)
    echo "$j" > "$f.json"
    line=$(echo "$j" | jq -r '[.points[0].measured_ms, .points[1].measured_ms, .points[2].measured_ms,
        .points[1].setting, .points[2].setting,
        (.recommended_over_fastest_quartiles // [0, 0] | .[])] | @tsv')
    IFS=$'\t' read -r one rec tuned rs ts q1 q3 <<< "$line"
    qs=$(awk -v a="$q1" -v b="$q3" 'BEGIN { printf "%.3f-%.3f", a, b }')
    r=$(awk -v a="$rec" -v b="$tuned" 'BEGIN { printf "%.3f", a / b }')
    o=$(awk -v a="$rec" -v b="$one" 'BEGIN { printf "%.3f", a / b }')
    printf '%-30s %-44.44s %-44.44s %10s %13s %10s\n' "$name" "$rs" "$ts" "$r" "$qs" "$o"
    worst=$(awk -v a="$r" -v w="$worst" 'BEGIN { print (a > w) ? a : w }')
done
echo "N = $N, $SECONDS_PER s of search per system, $REPEATS repeats of $STEPS detections, structure $STRUCTURE; worst recommended / tuned = $worst (goal <= 1.05)"
