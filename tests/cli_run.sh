#!/usr/bin/env bash
# hgridopt run --engine lammps: the input run through LAMMPS' library with
# its runs split into segments and its neighbor lines tuned between them
# leaves the run as `lmp` runs it: the same thermo rows (steps, atoms),
# the same dumps (files, steps, atoms), the same steps; without any change
# (--no-tune) the dumps are the same to the last digit. Inputs
# (tests/data/run/): a granular gas whose skin is far too small (the
# lines change, and stay without dangerous builds) and a pour (lines
# changed while fix pour inserts, its insertions kept on their schedule).
# Inputs it cannot follow run unsplit with a note (if, a run with
# keywords, elapsed, thermo 0); a failing input fails
# with LAMMPS' message and a non-zero exit; usage errors; under mpirun on
# 2 ranks the same (a bed on one rank of the two is rebalanced by its
# timers; an input's fix balance weighted by time keeps its run whole). Needs lmp and a build with liblammps (skipped
# otherwise, after checking the message of a build without it).
. "$(dirname "$0")/cli_lib.sh"
. "$SRC/tests/run_lib.sh"
export HGRIDOPT_LAMMPS_CALIBRATION="$TMP/no-lammps.json"
export HGRIDOPT_LAMMPS_PAIR_CALIBRATION="$TMP/no-lammps-pair.json"
export HGRIDOPT_LAMMPS_COMM_CALIBRATION="$TMP/no-lammps-comm.json"
D=$SRC/tests/data/run
cd "$TMP" || exit 1
# Under the sanitizers, no leak check of a process that ran LAMMPS: its
# lammps_gather_atoms_concat and Open MPI's plug-ins keep allocations to
# the end, and the leak report would end the process before LAMMPS'
# buffered screen is written. hgridopt's own part of the run (the script,
# the segments, the tuner) is leak-checked by test_live.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# usage errors, whatever the build
expect_fail 2 "engine.*lammps" -- "$HG" run "$D/in.gas"
expect_fail 2 "engine.*liggghts" -- "$HG" run --engine liggghts "$D/in.gas"
expect_fail 2 "give the input script" -- "$HG" run --engine lammps
expect_fail 2 "one input script only" -- "$HG" run --engine lammps "$D/in.gas" "$D/in.pour"
expect_fail 1 "nonexistent.*No such file" -- "$HG" run --engine lammps "$TMP/nonexistent"
expect_fail 2 "segments" -- "$HG" run --engine lammps --segments 0 "$D/in.gas"
expect_fail 2 "min-gain" -- "$HG" run --engine lammps --min-gain 1.5 "$D/in.gas"
expect_fail 2 "tuning-share" -- "$HG" run --engine lammps --tuning-share 1 "$D/in.gas"
expect_fail 2 "tuning-share" -- "$HG" run --engine lammps --tuning-share -0.1 "$D/in.gas"
expect_ok "Usage: hgridopt run" -- "$HG" run --help

# the benchmark's check of a run whose atoms leave (run_lib.sh,
# outflow_only): counts may differ after the first change only, with the
# same steps and files, where the plain run's atoms fall
mkdir -p "$TMP/of/a" "$TMP/of/b"
of_log() { # DIR ATOMS_AT_100 ATOMS_AT_200
    printf 'Step Temp Atoms\n 0 1 100\n 100 1 %s\n 200 1 %s\nLoop time of 1 on 1 procs for 200 steps with %s atoms\n' \
        "$2" "$3" "$3" > "$1/log.lammps"
}
of_log "$TMP/of/a" 100 90
of_log "$TMP/of/b" 100 89
[ -z "$(outflow_only "$TMP/of/a" "$TMP/of/b" 100)" ] && ok || bad "outflow_only: atoms leaving after the change not told apart: $(outflow_only "$TMP/of/a" "$TMP/of/b" 100)"
of_log "$TMP/of/b" 99 89
outflow_only "$TMP/of/a" "$TMP/of/b" 100 | grep -q "before the first change" && ok || bad "outflow_only: a count before the change passed"
of_log "$TMP/of/a" 100 100
of_log "$TMP/of/b" 100 101
outflow_only "$TMP/of/a" "$TMP/of/b" 0 | grep -q "no atoms leave" && ok || bad "outflow_only: counts that differ without outflow passed"

if out=$("$HG" run --engine lammps /dev/null 2>&1); then
    ok
else
    if printf '%s\n' "$out" | grep -q "built without LAMMPS' library"; then
        ok
        echo "skipped: this hgridopt was built without liblammps"
        finish || exit 1
        exit 77
    fi
    bad "run of an empty input failed: $out"
fi
if ! command -v lmp > /dev/null; then
    echo "skipped: lmp not found (apt-get install lammps)"
    finish || exit 1
    exit 77
fi

# run_both NAME INPUT [hgridopt run options...]: the input in lmp (once,
# in plain-INPUT/) and in hgridopt run (NAME/), each in a folder of its own;
# P names the plain folder
run_both() {
    local name=$1 in=$2
    shift 2
    P=$TMP/plain-${in##*/}
    rm -rf "$TMP/$name"
    mkdir -p "$TMP/$name"
    cp "$in" "$TMP/$name/"
    if [ ! -d "$P" ]; then
        mkdir -p "$P" && cp "$in" "$P/"
        (cd "$P" && lmp -in "${in##*/}" > screen 2>&1) || bad "lmp -in ${in##*/} failed"
    fi
    (cd "$TMP/$name" && "$HG" run --engine lammps "${in##*/}" "$@" > screen 2> err) ||
        bad "hgridopt run ${in##*/} $* failed: $(tail -3 "$TMP/$name/err")"
}

# same_as_lmp NAME LABEL: hgridopt run's folder $TMP/NAME does what the
# plain run of run_both's input ($P) did (tests/run_lib.sh's same_run)
same_as_lmp() {
    local why
    why=$(same_run "$P" "$TMP/$1")
    [ -z "$why" ] && ok || bad "$2: $why"
}

# the gas: tuned, several segments per run, changes made
run_both gas "$D/in.gas" --min-steps 100 --segments 6
same_as_lmp gas "gas"
grep -q "^  step [0-9]*: .*predicted to save" "$TMP/gas/screen" && ok ||
    bad "gas: no change of the lines in the report: $(tail -20 "$TMP/gas/screen")"
# its probe (about 20 ms) never fits 2 % of a 0.07 s loop: said; and the
# first advice, on lines that build dangerously, did not wait for it
grep -q "^note: the pair style's cost per listed pair was not measured: its probe, about [0-9.]* s, did not fit its share of the loop (2 %) at any segment; the engine's constant stayed" "$TMP/gas/screen" && ok ||
    bad "gas: no note of the probe that did not fit: $(grep '^note' "$TMP/gas/screen")"
grep -q "^  step 100: .*predicted to save" "$TMP/gas/screen" && ok ||
    bad "gas: the first advice waited: $(grep -A4 '^changes:' "$TMP/gas/screen")"
# a rank alone counts its frames on the cores it may run on (LAMMPS
# sets OpenMP to one thread where OMP_NUM_THREADS is not set); with
# OMP_NUM_THREADS set, on LAMMPS' threads, and the report names no cores
if [ "$(nproc)" -ge 2 ] && [ -z "${OMP_NUM_THREADS:-}" ]; then
    grep -Eq "^splitting: .*, advice [0-9.e-]+ s for [1-9][0-9]* advices? on $(nproc) cores," "$TMP/gas/screen" && ok ||
        bad "gas: the advices not on $(nproc) cores: $(grep '^splitting' "$TMP/gas/screen")"
fi
OMP_NUM_THREADS=1 run_both gas1 "$D/in.gas" --min-steps 100 --segments 6
grep -Eq "^splitting: .*, advice [0-9.e-]+ s for [1-9][0-9]* advices?, " "$TMP/gas1/screen" && ok ||
    bad "gas with OMP_NUM_THREADS=1: cores lent, or no advice: $(grep '^splitting' "$TMP/gas1/screen")"
n=$(grep -c "start 0 stop 400 pre" "$TMP/gas/log.lammps")
[ "$n" -ge 4 ] && ok || bad "gas: the first run in $n segments, expected 4 or more"
# segments end on thermo steps (multiples of 100) and the log's runs add up
awk '/^run [0-9]+ start [0-9]+ stop [0-9]+ pre/ { s += $2; if (s % 100) bad = 1 } END { exit bad }' "$TMP/gas/log.lammps" &&
    ok || bad "gas: a segment ends off a thermo step"
# the changed lines build without dangerous builds (the input's own skin
# of the first segment does not): the report's segments, and the log's
# last table
d=$(awk '$1 ~ /^[0-9]+-[0-9]+$/ && $9 != "yours" { s += $6 } END { print s + 0 }' "$TMP/gas/screen")
[ "$d" = 0 ] && ok || bad "gas: $d dangerous builds with the changed lines"
awk '$1 ~ /^[0-9]+-[0-9]+$/ && $9 == "yours" { s += $6 } END { exit !(s > 0) }' "$TMP/gas/screen" && ok ||
    bad "gas: the input's own skin showed no dangerous builds (the report's column?)"
d=$(awk '/^Dangerous builds =/ { n++; if (n > 1) s += $4 } END { print s + 0 }' "$TMP/gas/log.lammps")
[ "$d" = 0 ] && ok || bad "gas: $d dangerous builds in the log after the first run"
grep -q "^neighbor " "$TMP/gas/log.lammps" && ok || bad "gas: no neighbor line echoed in the log"
grep -q "^hgridopt run: in.gas on 1 rank: 2 runs (2 split), 800 steps" "$TMP/gas/screen" && ok ||
    bad "gas: report's first line: $(grep '^hgridopt run' "$TMP/gas/screen")"
# what splitting cost outside LAMMPS' Loop: a figure >= 0, and Loop plus
# it as the report's total (each printed to 3 or 4 digits: within half a
# unit of the last digit of each, 0.5 % of the splitting and 0.05 % of
# the Loop and the total)
awk '/^hgridopt run:/ { for (i = 1; i <= NF; i++) if ($i == "Loop") l = $(i + 1) + 0 }
     /^splitting: / { o = $2 + 0; t = $(NF - 1) + 0; seen = 1 }
     END { exit !(seen && o >= 0 && l > 0 && t > 0 && (t - l - o) ^ 2 < (5e-3 * o + 5e-4 * (l + t) + 1e-9) ^ 2) }' "$TMP/gas/screen" && ok ||
    bad "gas: no splitting figure, or Loop + splitting is not the total: $(grep -E '^(hgridopt run|splitting)' "$TMP/gas/screen")"

# a change made before a run's last segment is judged on the next run's
# first: two segments a run, the change after step 200, its trial the
# first run's last segment, judged at step 600 in the second run
run_both gas-carry "$D/in.gas" --min-steps 100 --segments 2
same_as_lmp gas-carry "gas, two segments a run"
grep -q "^  step 200: .*predicted to save" "$TMP/gas-carry/screen" && ok ||
    bad "gas, two segments a run: no change at step 200: $(grep -A8 '^changes:' "$TMP/gas-carry/screen")"
# (its lines before built dangerously at every step, and no trend runs
# across runs: kept unjudged, the report says so)
grep -q "^  step 600: .* on trial: .*kept" "$TMP/gas-carry/screen" && ok ||
    bad "gas, two segments a run: the change of step 200 not judged in the second run: $(grep -A8 '^changes:' "$TMP/gas-carry/screen")"

# the tuner's own time: the gas's loop is 0.07 s, an advice a few ms, so
# past the first, its 3 % let few through; --tuning-share 0 advises after
# every segment but a change's trial (step 100's change, judged at 200)
# and those that wait after advices that kept the lines
grep -q "kept: not advised (tuning" "$TMP/gas/screen" && ok ||
    bad "gas: no segment left unadvised for the tuning share: $(grep -E '^  [0-9]+-' "$TMP/gas/screen")"
run_both gas-all "$D/in.gas" --min-steps 100 --segments 6 --tuning-share 0
same_as_lmp gas-all "gas, --tuning-share 0"
grep -E '^  [0-9]+-[0-9]+ ' "$TMP/gas-all/screen" | grep "not advised" |
    grep -v "not advised (the change's trial" | grep -qv "not advised (the last" &&
    bad "gas, --tuning-share 0: a segment not advised: $(grep -E '^  [0-9]+-' "$TMP/gas-all/screen")" || ok

# the pour: lines changed while fix pour inserts (a setup would insert at
# the next step: the change's setup runs as run 0 and the insertions are
# put back on their own schedule); the same atom counts at every thermo
# step as lmp's, the second and third insertions (steps 3743, 7485) among
# them, after the changes
sed 's/^run             800$/run             8000/' "$D/in.pour" > in.pour8
run_both pour "$TMP/in.pour8" --min-steps 500 --segments 8 --report report.txt
same_as_lmp pour "pour"
grep -q "a change while atoms are inserted: its setup ran as .run 0." "$TMP/pour/report.txt" && ok ||
    bad "pour: no note of a change while inserting: $(cat "$TMP/pour/report.txt")"
awk '/^  step [0-9]+: .*predicted to save/ { s = $2 + 0; if (s < 3743) n++ } END { exit !(n > 0) }' "$TMP/pour/report.txt" &&
    ok || bad "pour: no change before the second insertion: $(cat "$TMP/pour/report.txt")"
counts() {
    awk '/^ *Step +Atoms/ { on = 1; next } /^Loop time/ { on = 0 } on && $1 ~ /^[0-9]+$/ { print $1, $2 }' "$1" | sort -un
}
c=$(counts "$TMP/pour/log.lammps")
printf '%s\n' "$c" | grep -qx "3700 156" && printf '%s\n' "$c" | grep -qx "3800 312" &&
    printf '%s\n' "$c" | grep -qx "7500 400" && ok || bad "pour: insertions not at lmp's steps: $(printf '%s\n' "$c" | tr '\n' ' ' | cut -c1-300)"
grep -q "^hgridopt run" "$TMP/pour/screen" && bad "pour: the report on the screen despite --report" || ok

# a pair style whose force law costs several times what the model's
# constants say (JKR, Mindlin, rolling, twisting): its cost per listed
# pair is measured on a copy of the run's atoms in a second LAMMPS
# instance, which writes nothing to the run's log or screen, and the run
# is lmp's; pair_style hybrid is not copied (an error of LAMMPS' in the
# copy would end the run), and the note says the engine's constant stays
run_both jkr "$D/in.jkr" --min-steps 300 --segments 5 --tuning-share 0
same_as_lmp jkr "jkr"
grep -Eq "^note: step [0-9]+: a listed pair costs the pair style [0-9.]+ ns a step, measured on a copy of the run" "$TMP/jkr/screen" && ok ||
    bad "jkr: no probe of the pair style: $(grep -A12 '^changes:' "$TMP/jkr/screen")"
grep -q "^splitting: .*the pair style's probe [0-9.]* s" "$TMP/jkr/screen" && ok ||
    bad "jkr: the probe's time not in the report: $(grep '^splitting' "$TMP/jkr/screen")"
grep -Eq "read_data|Reading data file|hgridopt_probe" "$TMP/jkr/log.lammps" && bad "jkr: the probe wrote to the run's log" || ok
sed -e 's/^pair_style      granular$/pair_style      hybrid granular/' \
    -e 's/^pair_coeff      1 \* jkr/pair_coeff      1 * granular jkr/' \
    -e 's/^pair_coeff      2 2 hertz/pair_coeff      2 2 granular hertz/' "$D/in.jkr" > in.jkrhybrid
run_both jkrhybrid "$TMP/in.jkrhybrid" --min-steps 300 --segments 5 --tuning-share 0
same_as_lmp jkrhybrid "jkr, hybrid"
grep -q "the pair style's cost per listed pair was not measured (pair style hybrid: the copy takes granular, gran/hooke, gran/hooke/history and gran/hertz/history): the engine's constant stays" "$TMP/jkrhybrid/screen" && ok ||
    bad "jkr, hybrid: no note of the probe's failure: $(grep '^note' "$TMP/jkrhybrid/screen")"

# split but never changed: the dumps the same to the last digit
run_both notune "$D/in.pour" --min-steps 100 --segments 6 --no-tune
same_as_lmp notune "no-tune"
same=1
for f in "$P"/*.dump; do
    cmp -s "$f" "$TMP/notune/${f##*/}" || same=0
done
[ "$same" = 1 ] && ok || bad "no-tune: a dump differs from lmp's"
# nothing advised, so no frame written
grep -q "^splitting: .*(frames 0 s, advice 0 s for 0 advices," "$TMP/notune/screen" && ok ||
    bad "no-tune: frames or advice timed: $(grep '^splitting' "$TMP/notune/screen")"

# inputs it cannot follow: run whole or unsplit, with a note, unchanged
# unfollowed NAME SED PATTERN: in.gas edited by SED runs as lmp runs it,
# and the screen has a note matching the extended regex PATTERN
unfollowed() {
    sed "$2" "$D/in.gas" > "in.$1"
    run_both "$1" "$TMP/in.$1" --min-steps 100
    same_as_lmp "$1" "$1"
    grep -Eq "$3" "$TMP/$1/screen" && ok ||
        bad "$1: no note: $(grep note "$TMP/$1/screen" | tail -3)"
}
unfollowed if 's/^thermo          100$/variable t equal 100\nif "${t} > 0" then "thermo ${t}"/' \
    "note: 'if' \(line .*\): the input runs whole in LAMMPS"
unfollowed upto 's/^run             400$/run             400 upto/' \
    "note: line [0-9]+: run 400 upto...: a run with keywords"
unfollowed thermo0 's/^thermo          100$/thermo          0/' \
    "unsplit: thermo 0 prints"
grep -c "start 0 stop" "$TMP/thermo0/log.lammps" | grep -qx 0 && ok || bad "thermo 0: split"

# as LAMMPS' drum: a dynamic group read once, by delete_atoms between the
# runs, keeps the first run whole (a segment would update it: more atoms
# deleted); the second run is split, its `elapsed` read as elaplong, and
# prints the same elapsed steps as lmp's
sed -e 's/^thermo_style    custom step atoms ke$/variable e equal elapsed\nthermo_style custom step atoms ke v_e/' \
    -e '0,/^run             400$/s//region upper block INF INF INF INF 8 INF units box\ngroup top dynamic all region upper every 10000\nrun 400\ndelete_atoms group top/' \
    "$D/in.gas" > in.drumlike
grep -q "^delete_atoms group top" in.drumlike && grep -q "v_e" in.drumlike && ok || bad "in.drumlike not made"
run_both drumlike "$TMP/in.drumlike" --min-steps 100 --segments 4 --no-tune
same_as_lmp drumlike "drumlike"
grep -q "^Deleted [1-9][0-9]* atoms" "$P/log.lammps" && ok || bad "drumlike: lmp deleted no atoms (the test's premise)"
# the step and the elapsed column of every thermo row, once each
elapsed_rows() {
    awk '/^ *Step +Atoms +KinEng +v_e/ { on = 1; next } /^Loop time/ { on = 0 } on && $1 ~ /^[0-9]+$/ { print $1, $4 }' "$1" | sort -u
}
[ -n "$(elapsed_rows "$P/log.lammps")" ] && [ "$(elapsed_rows "$P/log.lammps")" = "$(elapsed_rows "$TMP/drumlike/log.lammps")" ] && ok ||
    bad "drumlike: elapsed differs from lmp's: $(diff <(elapsed_rows "$P/log.lammps") <(elapsed_rows "$TMP/drumlike/log.lammps") | head -5)"
grep -q "start 0 stop 400" "$TMP/drumlike/log.lammps" && bad "drumlike: the first run was split" || ok
grep -q "start 400 stop 800" "$TMP/drumlike/log.lammps" && ok || bad "drumlike: the second run was not split"
grep -Eq "unsplit: dynamic group top is read at or after it \(line [0-9]+\)" "$TMP/drumlike/screen" && ok ||
    bad "drumlike: no note of the group: $(grep note "$TMP/drumlike/screen")"
grep -q "elapsed read as elaplong" "$TMP/drumlike/screen" && ok || bad "drumlike: no note of elaplong"

# a 2D gas in a z box from 0 to 0.1 (LAMMPS' multi/in.powerlaw has z from
# 0 to 1): the frames say 2D (no z), so the advice is asked and answers
# (read as 3D the packing fraction is 2.8, and the advice failed)
run_both gas2d "$D/in.gas2d" --min-steps 100
same_as_lmp gas2d "gas2d"
grep -q "no advice" "$TMP/gas2d/screen" && bad "gas2d: $(grep 'no advice' "$TMP/gas2d/screen")" || ok
grep -q "^  step [0-9]*: .*predicted to save" "$TMP/gas2d/screen" && ok ||
    bad "gas2d: no change: $(grep -A3 '^changes' "$TMP/gas2d/screen")"
# comm_modify reduce/multi (LAMMPS' multi/in.colloid): no command clears
# it, and bin lines (comm mode single) stopped the run; only multi lines
# are weighed, and the gas's skin far too small is still changed
sed -e 's/^neighbor        0.02 bin$/neighbor        0.02 multi\nneigh_modify    collection\/type 2 1 2\ncomm_modify     mode multi reduce\/multi/' \
    -e '/^dump/d' "$D/in.gas" > "$TMP/in.gasmulti"
grep -q "reduce/multi" "$TMP/in.gasmulti" && ok || bad "in.gasmulti not made"
run_both gasmulti "$TMP/in.gasmulti" --min-steps 100
same_as_lmp gasmulti "gasmulti"
grep -q "^note: line [0-9]*: comm_modify reduce/multi stays set in LAMMPS (no keyword clears it, and bin lines would stop the run): only multi lines are weighed" "$TMP/gasmulti/screen" && ok ||
    bad "gasmulti: no note of reduce/multi: $(grep '^note' "$TMP/gasmulti/screen")"
grep -q "^  step [0-9]*: multi.*predicted to save" "$TMP/gasmulti/screen" && ok ||
    bad "gasmulti: no change to multi lines: $(grep -A3 '^changes' "$TMP/gasmulti/screen")"
grep -q "^  step [0-9]*: bin" "$TMP/gasmulti/screen" && bad "gasmulti: bin lines" || ok
# neigh_modify include: the lists hold one group's atoms, the advice
# would count all: the runs stay whole, with a note
sed -e 's/^atom_style      sphere$/&\natom_modify     first big/' \
    -e 's/^set             type 2 diameter 1.6$/&\ngroup           big type 2/' \
    -e 's/^neigh_modify    delay 0 every 1 check yes$/& include big/' \
    -e 's/^thermo_style    custom step atoms ke$/&\nthermo_modify   lost ignore/' \
    -e '/^dump/d' "$D/in.gas" > "$TMP/in.gasinc"
grep -q "include big" "$TMP/in.gasinc" && ok || bad "in.gasinc not made"
run_both gasinc "$TMP/in.gasinc" --min-steps 100
same_as_lmp gasinc "gasinc"
[ "$(grep -c "^note: run 400 (line [0-9]*): unsplit: neigh_modify include big (line [0-9]*): the lists hold that group's atoms only, and the advice counts every atom" "$TMP/gasinc/screen")" = 2 ] && ok ||
    bad "gasinc: not both runs unsplit: $(grep '^note' "$TMP/gasinc/screen")"

# LAMMPS' own multi/ examples (lammps-examples), as written: in.colloid
# (comm_modify reduce/multi: bin lines stopped it) and in.powerlaw (2D,
# z from 0 to 1, a sheared triclinic box: its frames were read as 3D and
# every advice failed)
EX=${LAMMPS_EXAMPLES:-/usr/share/lammps/examples}
if [ -f "$EX/multi/in.colloid" ] && [ -f "$EX/multi/data.powerlaw" ]; then
    cp "$EX/multi/in.colloid" "$TMP/in.colloid"
    run_both colloid "$TMP/in.colloid" --min-steps 100
    same_as_lmp colloid "multi/in.colloid"
    grep -q "^note: line [0-9]*: comm_modify reduce/multi stays set" "$TMP/colloid/screen" && ok ||
        bad "multi/in.colloid: no note of reduce/multi"
    sed "s|^read_data .*|read_data       $EX/multi/data.powerlaw|" "$EX/multi/in.powerlaw" > "$TMP/in.powerlaw"
    run_both powerlaw "$TMP/in.powerlaw" --min-steps 100
    same_as_lmp powerlaw "multi/in.powerlaw"
    grep -q "no advice" "$TMP/powerlaw/screen" && bad "multi/in.powerlaw: $(grep 'no advice' "$TMP/powerlaw/screen")" || ok
    grep -q "^  0-100 .*kept: best saves" "$TMP/powerlaw/screen" && ok ||
        bad "multi/in.powerlaw: no advice at step 100: $(grep '^  0-100' "$TMP/powerlaw/screen")"
    grep -q "^note: step 100: the box is tilted (xy [0-9.e-]*, xz 0, yz 0): the advice counts the atoms in it as in the box without its tilt" "$TMP/powerlaw/screen" && ok ||
        bad "multi/in.powerlaw: no note of the tilt: $(grep '^note' "$TMP/powerlaw/screen")"
else
    echo "skipped: LAMMPS' multi/ examples (apt-get install lammps-examples)"
fi

# a failing input: LAMMPS' own message, a non-zero exit, no folder left
printf 'units lj\natom_style sphere\nno_such_command 1 2\n' > in.bad
mkdir -p badp badr
(cd badp && lmp -in ../in.bad > screen 2>&1) && bad "lmp ran in.bad"
n0=$(ls -d "${TMPDIR:-/tmp}"/hgridopt-run-* 2> /dev/null | wc -l)
(cd badr && "$HG" run --engine lammps ../in.bad > screen 2>&1) && rc=0 || rc=$?
[ "$rc" != 0 ] && ok || bad "hgridopt run of in.bad exit 0"
want=$(grep "^ERROR:" badp/screen | sed 's/ (src.*//')
got=$(grep "^ERROR:" badr/screen | sed 's/ (src.*//')
[ -n "$want" ] && [ "$want" = "$got" ] && ok || bad "in.bad: LAMMPS' message '$want', got '$got'"
n1=$(ls -d "${TMPDIR:-/tmp}"/hgridopt-run-* 2> /dev/null | wc -l)
[ "$n1" -le "$n0" ] && ok || bad "in.bad: a working folder was left behind"

# MPI: two ranks under mpirun, and --mpi 2, split and tuned: the same run
if command -v mpirun > /dev/null; then
    MPI=(mpirun -np 2 --oversubscribe)
    [ "$(id -u)" = 0 ] && MPI+=(--allow-run-as-root)
    rm -rf "$TMP/mpi" && mkdir -p "$TMP/mpi" && cp "$D/in.gas" "$TMP/mpi/"
    (cd "$TMP/mpi" && "${MPI[@]}" "$HG" run --engine lammps in.gas --min-steps 100 --segments 4 > screen 2> err) ||
        bad "mpirun -np 2 hgridopt run failed: $(tail -3 "$TMP/mpi/err")"
    why=$(same_run "$TMP/plain-in.gas" "$TMP/mpi")
    [ -z "$why" ] && ok || bad "2 ranks: $why"
    grep -q "with 2 MPI tasks" "$TMP/mpi/log.lammps" && ok || bad "2 ranks: the log is not of 2 MPI tasks"
    [ "$(grep -c '^hgridopt run: in.gas on 2 ranks' "$TMP/mpi/screen")" = 1 ] && ok ||
        bad "2 ranks: not one report from rank 0: $(grep -c '^hgridopt run' "$TMP/mpi/screen")"
    rm -rf "$TMP/mpi2" && mkdir -p "$TMP/mpi2" && cp "$D/in.pour" "$TMP/mpi2/"
    (cd "$TMP/mpi2" && "$HG" run --engine lammps in.pour --mpi 2 --min-steps 200 --screen none > screen 2> err) ||
        bad "--mpi 2 failed: $(tail -3 "$TMP/mpi2/err")"
    grep -q "with 2 MPI tasks" "$TMP/mpi2/log.lammps" && ok || bad "--mpi 2: the log is not of 2 MPI tasks"
    grep -q "^hgridopt run: in.pour on 2 ranks" "$TMP/mpi2/screen" && ok || bad "--mpi 2: no report"
    why=$(same_run "$TMP/plain-in.pour" "$TMP/mpi2")
    [ -z "$why" ] && ok || bad "--mpi 2: $why"
    # mpirun binds the two ranks to a core each (two cores or more; so
    # does -np 2 --oversubscribe above, the ranks being no more than the
    # cores): the advices count rank 0's frames on both (rank 1 waits
    # asleep)
    for r in mpi mpi2; do
        if [ "$(nproc)" -ge 2 ]; then
            grep -Eq "^splitting: .*, advice [0-9.e-]+ s for [1-9][0-9]* advices? on 2 cores," "$TMP/$r/screen" && ok ||
                bad "$r: the advices not on 2 cores: $(grep '^splitting' "$TMP/$r/screen")"
        fi
    done
    # a bed in the lower half of LAMMPS' 1 x 1 x 2 grid: the busiest
    # rank's timers show it, and a balance command weighted by them moves
    # the cuts along z (echoed in the log; no fix balance); the run is
    # lmp's on one rank in steps, atoms and dumps. (The pour above is too
    # small for it: evening its ranks saves less than the setup costs.)
    run_both bed "$D/in.bed" --mpi 2 --min-steps 1000 --screen none
    grep -q "^  step [0-9]*: rebalanced by the segment's timers: the busiest rank's Pair and Neigh x" "$TMP/bed/screen" &&
        grep -q "^balance 1.1 shift z 20 1.1 weight time 1$" "$TMP/bed/log.lammps" &&
        ! grep -q "^fix hgridopt_balance" "$TMP/bed/log.lammps" && ok ||
        bad "--mpi 2: the bed's 1 x 1 x 2 grid not rebalanced by its timers: $(grep '^  step' "$TMP/bed/screen")"
    grep -Eq "^  0-[0-9]* .* (1\.9[0-9]|2\.00)  yours " "$TMP/bed/screen" && ok ||
        bad "--mpi 2: the bed's first segment not x1.9-2 on its busiest rank: $(grep '^  0-' "$TMP/bed/screen")"
    why=$(same_run "$TMP/plain-in.bed" "$TMP/bed")
    [ -z "$why" ] && ok || bad "--mpi 2, the bed rebalanced: $why"
    # a fix balance weighted by time: LAMMPS stops a run split with pre no
    # while it is defined ("Balance weight <= 0.0"), so that run stays
    # whole, with a note; after its unfix the next run is split
    rm -rf "$TMP/wt" && mkdir -p "$TMP/wt"
    sed -e 's/^timestep .*/&\nfix b all balance 100 1.1 shift xyz 20 1.1 weight time 1.0/' \
        -e '0,/^run /s/^run .*/&\nunfix b/' "$D/in.gas" > "$TMP/wt/in.wt"
    grep -q "^unfix b" "$TMP/wt/in.wt" && grep -q "weight time" "$TMP/wt/in.wt" && ok || bad "in.wt not made"
    (cd "$TMP/wt" && "${MPI[@]}" "$HG" run --engine lammps in.wt --min-steps 100 --segments 4 > screen 2> err) ||
        bad "weight time: hgridopt run failed: $(tail -3 "$TMP/wt/err")"
    grep -q "^note: run 400 (line [0-9]*): unsplit: fix b (line [0-9]*) balances weighted by time" "$TMP/wt/screen" && ok ||
        bad "weight time: no note of the unsplit run: $(grep '^note' "$TMP/wt/screen")"
    grep -q "^hgridopt run: in.wt on 2 ranks: 2 runs (1 split)" "$TMP/wt/screen" && ok ||
        bad "weight time: not 2 runs with 1 split: $(grep '^hgridopt run' "$TMP/wt/screen")"
    expect_fail 2 "running under mpirun on 2 ranks" -- env OMPI_COMM_WORLD_SIZE=2 "$HG" run --engine lammps --mpi 3 "$D/in.gas"
else
    echo "skipped: the MPI part (mpirun not found)"
fi
finish
