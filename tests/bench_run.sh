#!/usr/bin/env bash
# bench_run.sh HGRIDOPT [CASE...] - `hgridopt run` over complete runs of
# LAMMPS' granular examples as written, against the input's own lines and
# against the best static setting of the whole-run sweep.
#
# The sweep is tests/bench_whole_run.sh's, run first on the same cases
# (its inputs, its candidates, its alternating timed rounds and its table
# are printed as they are; BENCH_KEEP keeps them): the input as written
# (in.base) with its own lines and with each candidate's. Then, per case,
# `hgridopt run --engine lammps in.base` is timed in BENCH_ROUNDS rounds
# (the sum of its segments' Loop times, plus the wall time its splitting
# cost outside them: frames, advice and the later segments' setups, as
# its report gives them), and once more, untimed, next to a plain `lmp -in`
# run, both with a dump added (every 1/20 of the steps): the check that
# the thermo rows (steps, atoms), the dumps (files, steps, atoms) and the
# steps are the same, and that the changes made no dangerous builds.
# The best static setting of the sweep (its least median, hgridopt's own
# lines left out) is timed again with the own lines and hgridopt run in
# each round, the three in turn (the order rotated), and the ratios are
# taken per round: a machine that drifts between the sweep and these
# rounds (this VM moves 10-30 % in an hour) moves all three alike.
# Prints per case: the Loop time of hgridopt run (median, min-max), the
# sweep's own and best medians, the three in turn, the ratios per round
# (median, min-max), the changes made, the check, and the goals (hgridopt
# run within 5 % of the best static setting, with the rounds' interval of
# that median and whether it shows the goal met or missed or spans it;
# faster than the own lines where own / best is over 1.10).
#
# Cases: pour-wide drum flatwall pour2d (default), funnel (about 3 min a
# run), as in bench_whole_run.sh. Environment: BENCH_ROUNDS (3, up to 99),
# BENCH_STEPS_SCALE (1), BENCH_RANKS (1: P runs everything under `mpirun
# -np P`, hgridopt run included), BENCH_KEEP (a folder to keep everything
# in), LAMMPS_EXAMPLES, BENCH_RUN_OPTS (more options for hgridopt run,
# e.g. "--min-steps 100" for short smoke runs), BENCH_SWEEP=reuse (with
# BENCH_KEEP: the sweep kept there by an earlier call is taken as it is,
# for the cases it holds; its static figures are then that call's). Needs lmp, mpirun for
# BENCH_RANKS > 1, a build with liblammps, and quiet cores: do not run it
# while others use the machine.
set -uo pipefail
HG=$(realpath "$1")
shift
SRC=$(cd "$(dirname "$0")/.." && pwd)
. "$SRC/tests/run_lib.sh"
ROUNDS=${BENCH_ROUNDS:-3}
RANKS=${BENCH_RANKS:-1}
case $ROUNDS in [1-9] | [1-9][0-9]) ;; *) echo "bench_run: BENCH_ROUNDS: '$ROUNDS' is not 1-99" >&2; exit 2 ;; esac
case $RANKS in [1-9] | [1-9][0-9] | [1-9][0-9][0-9]) ;; *) echo "bench_run: BENCH_RANKS: '$RANKS' is not 1-999" >&2; exit 2 ;; esac
read -r -a RUN_OPTS <<< "${BENCH_RUN_OPTS:-}"
command -v lmp > /dev/null || { echo "bench_run: lmp not found (apt-get install lammps)" >&2; exit 1; }
if ! out=$("$HG" run --engine lammps /dev/null 2>&1); then
    echo "bench_run: $out" >&2
    exit 1
fi
LAUNCH=()
if [ "$RANKS" -gt 1 ]; then
    command -v mpirun > /dev/null || { echo "bench_run: mpirun not found (apt-get install mpi-default-bin)" >&2; exit 1; }
    LAUNCH=(mpirun --allow-run-as-root -np "$RANKS")
    [ "$RANKS" -gt "$(nproc)" ] && LAUNCH+=(--oversubscribe)
fi
T=${BENCH_KEEP:-$(mktemp -d)}
mkdir -p "$T"
[ -n "${BENCH_KEEP:-}" ] || trap 'rm -rf "$T"' EXIT
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(pour-wide drum flatwall pour2d)
for c in "${cases[@]}"; do
    case $c in pour-wide | drum | flatwall | funnel | pour2d) ;;
    *) echo "bench_run: unknown case '$c' (pour-wide, drum, flatwall, pour2d, funnel)" >&2; exit 2 ;;
    esac
done

# the sweep (and the inputs: $T/CASE/in.base)
if [ "${BENCH_SWEEP:-}" = reuse ]; then
    [ -n "${BENCH_KEEP:-}" ] || { echo "bench_run: BENCH_SWEEP=reuse needs BENCH_KEEP" >&2; exit 2; }
    for c in "${cases[@]}"; do
        [ -s "$T/$c/in.base" ] && [ -s "$T/$c/times" ] && [ -s "$T/$c/candidates" ] ||
            { echo "bench_run: BENCH_SWEEP=reuse: no sweep of $c in $T" >&2; exit 2; }
    done
    echo "=== the whole-run sweep: reused from $T ==="
    rc=0
else
    echo "=== the whole-run sweep (tests/bench_whole_run.sh) ==="
    BENCH_KEEP="$T" BENCH_ROUNDS="$ROUNDS" bash "$SRC/tests/bench_whole_run.sh" "$HG" "${cases[@]}"
    rc=$?
fi
echo
echo "=== hgridopt run ==="

# loop_sum LOG: the Loop seconds of every run of a LAMMPS log
loop_sum() { awk '/^Loop time of/ { s += $4 } END { print s + 0 }' "$1"; }

# hg_run DIR INPUT REPORT: hgridopt run of INPUT in DIR, its report into
# REPORT
hg_run() {
    (cd "$1" && "${LAUNCH[@]}" "$HG" run --engine lammps "$2" --screen none \
        --report "$3" "${RUN_OPTS[@]}" > run.out 2> run.err)
}

for c in "${cases[@]}"; do
    d="$T/$c"
    if [ ! -s "$d/in.base" ]; then
        echo "$c: no input (the sweep failed to prepare it)" >&2
        rc=1
        continue
    fi
    steps=$(awk '/^run[ \t]/ { s += $2 } END { print s + 0 }' "$d/in.base")
    # the best static setting of the sweep (its medians; hgridopt's own
    # lines left out), timed again beside hgridopt run and the own lines
    kb=$(python3 - "$d/candidates" "$d/times" << 'PY'
import statistics as st, sys
names = [l.split('\t')[0] for l in open(sys.argv[1]) if l.strip()]
rows = {}
for l in open(sys.argv[2]):
    k, loop = l.split()[:2]
    rows.setdefault(int(k), []).append(float(loop))
med = {k: st.median(v) for k, v in rows.items() if not names[k].startswith("hgridopt")}
print(min(med, key=med.get) if med else "")
PY
)
    : > "$d/run.times"
    : > "$d/paired.times"
    for ((r = 0; r < ROUNDS; r++)); do
        w="$d/hgrun.$r"
        rm -rf "$w" && mkdir -p "$w" && cp "$d/in.base" "$w/"
        [ -n "$kb" ] && cp "$d/in.$kb" "$w/in.best"
        # the three in turn, the order rotated each round, so that a
        # machine that drifts falls on all of them alike
        own_t=nan best_t=nan run_t=nan
        for ((q = 0; q < 3; q++)); do
            case $(((q + r) % 3)) in
            0) (cd "$w" && "${LAUNCH[@]}" lmp -in in.base -log log.own -screen none > /dev/null 2>&1) &&
                own_t=$(loop_sum "$w/log.own") ;;
            1) [ -n "$kb" ] && (cd "$w" && "${LAUNCH[@]}" lmp -in in.best -log log.best -screen none > /dev/null 2>&1) &&
                best_t=$(loop_sum "$w/log.best") ;;
            2) if ! hg_run "$w" in.base report; then
                   echo "$c: hgridopt run failed: $(tail -3 "$w/run.err")" >&2
                   rc=1
                   continue
               fi
               # its Loop, and the wall time its splitting cost outside it
               lo=$(awk '/^hgridopt run:/ { for (i = 1; i <= NF; i++) if ($i == "Loop") l = $(i + 1) }
                    /^splitting:/ { o = $2 }
                    END { if (l != "") print l, (o != "" ? o : "nan") }' "$w/report")
               [ -n "$lo" ] && echo "$lo" >> "$d/run.times"
               run_t=$(awk '{ print $1 + $2 }' <<< "${lo:-nan nan}") ;;
            esac
        done
        echo "$own_t $best_t $run_t" >> "$d/paired.times"
    done
    # the check: plain lmp and hgridopt run, each with a dump
    every=$(( steps / 20 > 0 ? steps / 20 : 1 ))
    awk -v every="$every" '
        /^run[ \t]/ && !done { print "dump hgcheck all custom " every " check.*.dump id type radius x y z"; done = 1 }
        { print }' "$d/in.base" > "$d/in.check"
    rm -rf "$d/check.plain" "$d/check.run"
    mkdir -p "$d/check.plain" "$d/check.run"
    cp "$d/in.check" "$d/check.plain/" && cp "$d/in.check" "$d/check.run/"
    (cd "$d/check.plain" && "${LAUNCH[@]}" lmp -in in.check -log log.lammps -screen none > /dev/null 2>&1) ||
        { echo "$c: lmp -in in.check failed" >&2; rc=1; }
    hg_run "$d/check.run" in.check report || { echo "$c: hgridopt run (check) failed" >&2; rc=1; }
    why=$(same_run "$d/check.plain" "$d/check.run")
    outflow=""
    if [ -n "$why" ]; then
        # atoms that leave (LAMMPS' funnel discharges): after a change
        # the trajectory differs by round-off, and so does which atom
        # leaves when, as between any two static settings of the sweep
        first=$(awk '/^  step [0-9]+:/ { sub(":", "", $2); print $2; exit }' "$d/check.run/report")
        if [ -n "$first" ] && [ -z "$(outflow_only "$d/check.plain" "$d/check.run" "$first")" ]; then
            last=$(thermo_rows "$d/check.plain/log.lammps" | tail -1 | awk '{ print $1 }')
            swept=$(for f in "$d"/log.*.0; do [ -e "$f" ] && thermo_rows "$f" | awk -v s="$last" '$1 == s { print $2 }'; done |
                awk 'NR == 1 || $1 < lo { lo = $1 } NR == 1 || $1 > hi { hi = $1 } END { if (NR) printf "%s-%s over %d", lo, hi, NR }')
            outflow="atoms that left differ after the first change (step $first): at step $last plain $(thermo_rows "$d/check.plain/log.lammps" | tail -1 | awk '{ print $2 }') atoms, hgridopt run $(thermo_rows "$d/check.run/log.lammps" | tail -1 | awk '{ print $2 }'); the sweep's static settings ${swept:-(none kept)}"
            why=""
        fi
    fi
    # dangerous builds of the changed lines: the report's segments run
    # with lines other than the input's
    dz=$(awk '$1 ~ /^[0-9]+-[0-9]+$/ && $9 != "yours" { s += $6 } END { print s + 0 }' "$d/check.run/report")
    [ -n "$why" ] && rc=1
    echo
    echo "$c: $(awk '/^run[ \t]/ { r++ } END { print r + 0 }' "$d/in.base") runs, $steps steps, $ROUNDS rounds, $RANKS rank(s): hgridopt run --engine lammps in.base ${RUN_OPTS[*]}"
    python3 - "$d/run.times" "$d/candidates" "$d/times" "$T/$c/hgrun.0/report" "$d/paired.times" << 'PY'
import math, os, sys, statistics as st
nan = float("nan")
pairs = [[float(x) for x in l.split()] for l in open(sys.argv[1]) if l.strip()]
if not pairs:
    print("  hgridopt run: no timed run"); sys.exit(0)
# what the run costs: its segments' Loop plus its splitting outside them
# (frames, advice, the later segments' setups)
runs = [l + o for l, o in pairs]
loops = [l for l, o in pairs]
hr = st.median(runs)
print(f"  hgridopt run Loop + splitting {hr:.2f} s ({min(runs):.2f}-{max(runs):.2f}); "
      f"Loop {st.median(loops):.2f} s, splitting {st.median([o for l, o in pairs]):.3f} s")
bestname = ""
if os.path.exists(sys.argv[3]):
    names = [l.split('\t')[0] for l in open(sys.argv[2]) if l.strip()]
    rows = {}
    for l in open(sys.argv[3]):
        k, loop = l.split()[:2]
        rows.setdefault(int(k), []).append(float(loop))
    med = {k: st.median(v) for k, v in rows.items()}
    static = {k: m for k, m in med.items() if not names[k].startswith("hgridopt")}
    if static:
        kb = min(static, key=static.get)
        bestname = names[kb]
        print(f"  the sweep: own lines Loop {med.get(0, nan):.2f} s, best static setting {bestname} {static[kb]:.2f} s (its rounds, before these)")
# the rounds here: own lines, the best static setting and hgridopt run
# in turn; ratios per round (a drifting machine moves all three alike)
tri = [[float(x) for x in l.split()] for l in open(sys.argv[5]) if l.strip()]
tri = [t for t in tri if all(math.isfinite(x) and x > 0 for x in t)]
if not tri:
    print("  no round with all three timed")
else:
    own = st.median(t[0] for t in tri)
    best = st.median(t[1] for t in tri)
    rb = [t[2] / t[1] for t in tri]
    ro = [t[2] / t[0] for t in tri]
    ob = st.median(t[0] / t[1] for t in tri)
    print(f"  in turn, {len(tri)} rounds: own lines {own:.2f} s, {bestname} {best:.2f} s, hgridopt run {st.median(t[2] for t in tri):.2f} s")
    print(f"  hgridopt run / best {st.median(rb):.3f} ({min(rb):.3f}-{max(rb):.3f}); hgridopt run / own {st.median(ro):.3f} ({min(ro):.3f}-{max(ro):.3f}); own / best {ob:.3f}")
    # the rounds' interval of the median ratio (order statistics, free of
    # any assumed distribution): the widest k-th smallest to k-th largest
    # that holds the true median with 90 % or more; where it spans 1.05
    # the rounds cannot tell the goal met from missed
    n = len(rb)
    s_rb = sorted(rb)
    k, cover = 0, 0.0
    for j in range(1, n // 2 + 1):
        c = 1.0 - 2.0 * sum(math.comb(n, i) for i in range(j)) / 2.0 ** n
        if c < 0.90:
            break
        k, cover = j, c
    ci = ""
    if k:
        lo, hi = s_rb[k - 1], s_rb[n - k]
        tell = ("the rounds cannot tell" if lo <= 1.05 < hi else
                "the rounds show it" if hi <= 1.05 else "the rounds show it missed")
        ci = f" (the median's {100 * cover:.0f} % interval {lo:.3f}-{hi:.3f}: {tell})"
    print(f"  goal hgridopt run / best <= 1.05: {'met' if st.median(rb) <= 1.05 else 'NOT met'}{ci}")
    if ob > 1.10:
        print(f"  goal faster than own (own / best {ob:.2f}): {'met' if st.median(ro) < 1.0 else 'NOT met'}")
rep = open(sys.argv[4]).read().split("\n") if os.path.exists(sys.argv[4]) else []
ch = [l.strip() for l in rep if l.startswith("  step ")]
print(f"  changes (round 0): {len(ch)}" + ("" if ch else " (the input's lines kept)"))
for l in ch:
    print(f"    {l}")
for l in rep:
    if l.startswith("note: "):
        print(f"    {l}")
PY
    if [ -n "$outflow" ]; then
        echo "  unchanged but for the outflow: the thermo steps, the dump files and steps, the atom counts up to step $first and the steps run are lmp's; $outflow; dangerous builds after a change: $dz"
    elif [ -z "$why" ]; then
        echo "  unchanged: thermo rows ($(thermo_rows "$d/check.plain/log.lammps" | wc -l): steps, atoms), dumps ($(dump_rows "$d/check.plain" | wc -l): steps, atoms), $(run_steps "$d/check.plain/log.lammps") steps; dangerous builds after a change: $dz"
    else
        echo "  CHANGED: $why"
    fi
    [ "$dz" = 0 ] || rc=1
done
exit $rc
