#!/usr/bin/env bash
# Benchmark (label bench): every contact-detection method on 3D Poisson
# packings, static and dynamic, N = 10^5 by default: monodisperse, uniform
# size (alpha 0, omega 10), uniform volume (alpha -3, omega 10 and 100),
# nu = 0.1 and 0.6. Open box (walls) so that sap-incremental runs too.
# Prints one table row per (system, method), times in ms (CPU time of the
# process, one thread; static_wall for comparison); every method is checked
# against the HGrid at every step by `hgridopt bench` itself (exit 1 on a
# mismatch). Environment: BENCH_N, BENCH_STEPS, BENCH_REPEAT, BENCH_SYSTEMS
# (space-separated psd specs), BENCH_NU.
set -euo pipefail
HG=${1:?binary}
N=${BENCH_N:-100000}
STEPS=${BENCH_STEPS:-5}
REPEAT=${BENCH_REPEAT:-3}
NUS=${BENCH_NU:-"0.1 0.6"}
SYSTEMS=${BENCH_SYSTEMS:-"mono:r=1 powerlaw:alpha=0,omega=10 powerlaw:alpha=-3,omega=10 powerlaw:alpha=-3,omega=100"}
command -v jq >/dev/null || { echo "bench_methods: jq is required" >&2; exit 1; }
printf '%-28s %4s %-16s %10s %10s %10s %10s %13s %13s %9s %7s %s\n' \
    system nu method static_cpu static_wall first_cpu step_cpu \
    checks_static checks_step memory_MB builds hgrid_sizes
for nu in $NUS; do
  for psd in $SYSTEMS; do
    json=$("$HG" bench --psd "$psd" --dim 3 --nu "$nu" --n "$N" --walls \
           --steps "$STEPS" --repeats "$REPEAT" --format json 2>/dev/null)
    printf '%s\n' "$json" | jq -r --arg psd "$psd" --arg nu "$nu" '
      .methods[] | [$psd, $nu, .name,
        (.static.cpu_ms|.*100|round/100), (.static.time_ms|.*100|round/100),
        (.dynamic.first_cpu_ms|.*100|round/100),
        (.dynamic.cpu_ms|.*100|round/100), .static.pair_checks,
        (.dynamic.pair_checks_per_step|round),
        (.static.memory_bytes/1048576|.*100|round/100), .dynamic.builds,
        ((.cell_sizes // []) | map(tostring) | join(";"))] | @tsv' |
    while IFS=$'\t' read -r a b c d e f g h i j k l; do
      printf '%-28s %4s %-16s %10s %10s %10s %10s %13s %13s %9s %7s %s\n' \
          "$a" "$b" "$c" "$d" "$e" "$f" "$g" "$h" "$i" "$j" "$k" "$l"
    done
  done
done
