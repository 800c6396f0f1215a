#!/usr/bin/env bash
# Benchmark (label bench): what the bundled HGrid's tables cost (the
# measurement behind the shipped C of its models). For each system of
# bench_hgrid_systems.sh a packing is made with `hgridopt pack`, then
# bench_tables times the rebuild plus detection of one level and the
# model's grids of 2-5 levels (both algorithms) and prints the fitted C and,
# for C = 0 ... 1, the measured time of the grid the model ranks cheapest
# over the fastest measured; last, the worst of these over the systems per C.
# Environment: BENCH_N (particles, default 30000), BENCH_REPEATS (41),
# BENCH_ONLY (a regular expression: only the systems whose name matches),
# BENCH_K (a list of K, e.g. 0.2,0.4: their optima timed too, and which
# grid each K would pick).
set -euo pipefail
HG=${1:?hgridopt binary}
BT=${2:?bench_tables binary}
N=${BENCH_N:-30000}
REPEATS=${BENCH_REPEATS:-41}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
# shellcheck source=tests/bench_hgrid_systems.sh
. "$(dirname "$0")/bench_hgrid_systems.sh"
for s in "${systems[@]}"; do
    f=$(system_packing "$HG" "$W" "$N" "$s")
    [ -n "$f" ] || continue
    echo "== ${s%%|*}"
    "$BT" "$f" "$REPEATS" ${BENCH_K:+"$BENCH_K"} | tee "$f.out"
    echo
done
shopt -s nullglob
outs=("$W"/*.out)
[ ${#outs[@]} -gt 0 ] || { echo "bench_tables: no system matches BENCH_ONLY=${BENCH_ONLY:-}" >&2; exit 1; }
echo "worst over the systems of (measured time of the model's cheapest grid) / (fastest measured):"
cat "${outs[@]}" | awk '/^pick [CK]=/ { c = $2; v = $3 + 0; if (!(c in w) || v > w[c]) w[c] = v }
    END { for (c in w) printf "  %s %.3f\n", c, w[c] }' | sort
