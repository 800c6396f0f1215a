#!/usr/bin/env bash
# Benchmark (label bench): every contact-detection method on 3D Poisson
# packings, static and dynamic, N = 10^5 by default: monodisperse, uniform
# size (alpha 0, omega 10), uniform volume (alpha -3, omega 10 and 100),
# nu = 0.1 and 0.6. Open box (walls) so that sap-incremental runs too.
# Prints one table row per (system, method), times in ms (CPU time of the
# process, one thread; static_wall for comparison); every method is checked
# against the HGrid at every step by `hgridopt bench` itself (exit 1 on a
# mismatch). `hgridopt bench` refuses (exit 1) a method whose predicted or
# measured work per detection exceeds --budget; such methods are left out
# of that system's run and listed as "skipped" rows with their work (at
# N = 1e5, omega = 100: lc and verlet predicted 1.3e9 / 7.9e9, bin measured
# 4.8e8 / 2.0e9 at nu = 0.1 / 0.6). Raise BENCH_BUDGET to time them too.
# Environment: BENCH_N, BENCH_STEPS, BENCH_REPEAT, BENCH_SYSTEMS
# (space-separated psd specs), BENCH_NU, BENCH_BUDGET (work units per
# detection, default 5e8: above `hgridopt bench`'s 2e8 so that sap, sort
# and sap-incremental (2.3e8 at mono, nu = 0.6) and bin at omega = 100,
# nu = 0.1 (4.8e8) are timed).
set -euo pipefail
HG=${1:?binary}
N=${BENCH_N:-100000}
STEPS=${BENCH_STEPS:-5}
REPEAT=${BENCH_REPEAT:-3}
NUS=${BENCH_NU:-"0.1 0.6"}
SYSTEMS=${BENCH_SYSTEMS:-"mono:r=1 powerlaw:alpha=0,omega=10 powerlaw:alpha=-3,omega=10 powerlaw:alpha=-3,omega=100"}
BUDGET=${BENCH_BUDGET:-5e8}
ALL_METHODS="brute sap sap-incremental sort lc bin hgrid hgrid-bu verlet"
command -v jq >/dev/null || { echo "bench_methods: jq is required" >&2; exit 1; }
printf '%-28s %4s %-16s %10s %10s %10s %10s %13s %13s %9s %7s %s\n' \
    system nu method static_cpu static_wall first_cpu step_cpu \
    checks_static checks_step memory_MB builds hgrid_sizes
err=$(mktemp)
trap 'rm -f "$err"' EXIT
for nu in $NUS; do
  for psd in $SYSTEMS; do
    # Methods within the budget: probe each one with budget 1; a method with
    # a model prediction is refused at once ("is predicted to do W"), any
    # other after its first detection ("did W").
    methods=()
    for m in $ALL_METHODS; do
      [ "$m" = brute ] && [ "$N" -gt 20000 ] && continue
      msg=$("$HG" bench --psd "$psd" --dim 3 --nu "$nu" --n "$N" --walls \
            --methods "$m" --repeats 1 --budget 1 --format json 2>&1 >/dev/null || true)
      w=$(printf '%s\n' "$msg" | sed -n 's/.* \(is predicted to do\|did\) \([0-9.eE+-]*\) work units.*/\2/p')
      if [ -n "$w" ] && awk -v w="$w" -v b="$BUDGET" 'BEGIN {exit !(w > b)}'; then
        printf '%-28s %4s %-16s skipped: %s work units per detection > budget %s\n' \
            "$psd" "$nu" "$m" "$w" "$BUDGET"
        continue
      fi
      methods+=("$m")
    done
    [ ${#methods[@]} -gt 0 ] || continue
    list=$(IFS=,; echo "${methods[*]}")
    if ! json=$("$HG" bench --psd "$psd" --dim 3 --nu "$nu" --n "$N" --walls \
           --methods "$list" --budget "$BUDGET" \
           --steps "$STEPS" --repeats "$REPEAT" --format json 2>"$err"); then
      echo "bench_methods: hgridopt bench failed for --psd $psd --nu $nu:" >&2
      cat "$err" >&2
      exit 1
    fi
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
