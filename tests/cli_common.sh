#!/usr/bin/env bash
# Options every command shares, parsed in one place: --model and its
# shorthand --algorithm, help models, exit codes, the help texts; and the
# bench fixes (positions wrapped after large displacements, the work
# budget, the shared option names).
. "$(dirname "$0")/cli_lib.sh"
P="--psd powerlaw:alpha=-3,omega=10 --dim 3 --nu 0.3"
S="--sizes 4,20"

# ---- --model on evaluate, recommend, scan, validate ----
expect_ok "algorithm: +bottom-up" -- $HG evaluate $P $S --model hgrid-bottom-up
expect_ok "\"model\":.*\"linked-cell\"" -- $HG evaluate $P --model linked-cell --format json
# --algorithm is a shorthand: the same output as the --model it stands for
a=$("$HG" evaluate $P $S --algorithm bottom-up 2>&1); m=$("$HG" evaluate $P $S --model hgrid-bottom-up 2>&1)
[ "$a" = "$m" ] && ok || bad "--algorithm bottom-up differs from --model hgrid-bottom-up"
# the linked-cell model is the one-level grid of evaluate's baseline
expect_ok "T = .* = 428\.221" -- $HG evaluate $P --model linked-cell --K paper
expect_ok "recommended: +bottom-up" -- $HG recommend $P --model hgrid-bottom-up
expect_ok "^optimal,top-down,1," -- $HG scan $P --model hgrid-top-down --max-levels 2
n=$("$HG" scan $P --model hgrid-top-down --max-levels 2 | grep -c bottom-up)
[ "$n" = 0 ] && ok || bad "scan --model hgrid-top-down printed bottom-up rows"
expect_ok "HGrid: bottom-up" -- $HG validate $P --n 2000 --model hgrid-bottom-up --no-baseline
for cmd in "evaluate $S" recommend scan validate; do
    expect_fail 2 "--model: unknown value 'hgrid-sideways' \(one of: .*hgrid-top-down, hgrid-bottom-up, linked-cell[,)]" -- $HG $cmd $P --model hgrid-sideways
done
expect_fail 2 "--algorithm: 'top-down' is a shorthand for --model" -- $HG evaluate $P $S --model hgrid-top-down --algorithm top-down
expect_ok "\"model\":.*\"linked-cell\"" -- $HG recommend $P --model linked-cell --format json
expect_ok "\"model\":.*\"linked-cell\"" -- $HG scan $P --model linked-cell --format json
expect_fail 2 "unknown option '--model'" -- $HG pack $P --n 10 --model linked-cell
# help models lists every registered model with its help
out=$("$HG" help models)
# the usage names every registered engine, the default first
u=$("$HG" help)
printf '%s\n' "$u" | grep -Fxq "Engines (--engine NAME; hgridopt help engines): hgrid (default), lammps, mercurydpm, liggghts" && ok || bad "help: engine list"
printf '%s\n' "$u" | grep -q "LAMMPS neighbor settings" && bad "help: tune described as LAMMPS only" || ok
# help engines: every engine with its models, settings and constants
# with their source (the K the commands use)
out=$(HGRIDOPT_LAMMPS_CALIBRATION="$TMP/no-lammps.json" "$HG" help engines)
printf '%s\n' "$out" | grep -Eq "^  hgrid +the bundled HGrid.*\(default\)$" && ok || bad "help engines: hgrid"
printf '%s\n' "$out" | grep -Eq "^  lammps +LAMMPS" && ok || bad "help engines: lammps"
printf '%s\n' "$out" | grep -Fxq "             models: hgrid-top-down, hgrid-bottom-up, linked-cell, bin" && ok || bad "help engines: hgrid models"
printf '%s\n' "$out" | grep -Fxq "             models: lammps-multi, lammps-bin" && ok || bad "help engines: lammps models"
printf '%s\n' "$out" | grep -Fxq "             settings: --format lammps" && ok || bad "help engines: lammps settings"
k3=$("$HG" evaluate --psd mono:r=1 --dim 3 --nu 0.3 --model linked-cell --format json | jq '.K')
printf '%s\n' "$out" | grep -Fq "constants 3D: K = $k3 (shipped-default: shipped default for the bundled HGrid in 3D" && ok || bad "help engines: K 3D is not $k3"
printf '%s\n' "$out" | grep -Eq "constants 3D: ns per unit: checks [0-9.]+ .*\(shipped defaults\)$" && ok || bad "help engines: LAMMPS constants"
printf '%s\n' "$out" | grep -Eq "^  (lammps|liggghts|mercurydpm) .*" && ok || bad "help engines: the engines running a code"
printf '%s\n' "$out" | grep -Fxq "             runs the code: validate tune calibrate --engine NAME" && ok || bad "help engines: runs the code"
"$HG" --help | grep -q "hgridopt help engines" && ok || bad "usage: no help engines"
"$HG" --help | grep -q "^Environment: HGRIDOPT_SIMD=0" && ok || bad "usage: no HGRIDOPT_SIMD"
out=$("$HG" help models)
# ... and which of them validate measures: exactly those validate accepts
printf '%s\n' "$out" | grep -qx "validate --model measures the models of the bundled grid: hgrid-top-down, hgrid-bottom-up, linked-cell" && ok || bad "help models: validate's models"
expect_fail 2 "model: bin describes no grid of hgridopt to measure" -- $HG validate $P --n 2000 --model bin
tr '\n' ' ' <"$SRC/docs/commands.md" | grep -Fq "\`validate --model\` takes the models it can measure on the bundled grid, \`hgrid-top-down\`, \`hgrid-bottom-up\` and \`linked-cell\`" && ok || bad "docs/commands.md: validate --model"
for m in hgrid-top-down hgrid-bottom-up linked-cell; do
    printf '%s\n' "$out" | grep -Eq "^  $m +[a-zA-Z]" && ok || bad "help models: no line for $m"
done
# ... with the K the commands use (not the models' declared 0.2): the
# shipped default without a calibration file, the file's when there is one,
# the K fitted in MercuryDPM for MercuryDPM
k3=$("$HG" evaluate --psd mono:r=1 --dim 3 --nu 0.3 --model linked-cell --format json | jq '.K')
k2=$("$HG" evaluate --psd mono:r=1 --dim 2 --nu 0.3 --model linked-cell --format json | jq '.K')
printf '%s\n' "$out" | grep -Fq "used: $k3 (shipped-default) in 3D, $k2 (shipped-default) in 2D;" && ok || bad "help models: K used is not $k3 / $k2 (shipped-default)"
printf '%s\n' "$out" | grep -Eq "[0-9.]+ \(shipped-default\) in 3D, [0-9.]+ \(shipped-default\) in 2D with --format mercurydpm" && ok || bad "help models: no MercuryDPM K"
printf '%s\n' "$out" | grep -Eq "^    3D: $k3, shipped default for the bundled HGrid in 3D .*no calibration file$" && ok || bad "help models: K source"
printf '%s\n' "$out" | grep -q "default 0.2" && bad "help models: still shows the declared default 0.2 as K" || ok
printf '{"schema": "hgridopt.calibration/2", "calibrations": {"3": {"K": 7.5, "dim": 3, "created": "2026-01-01T00:00:00Z", "machine": "test", "build": "test"}}}' > "$TMP/k3.json"
out=$(HGRIDOPT_CALIBRATION="$TMP/k3.json" "$HG" help models)
printf '%s\n' "$out" | grep -Fq "used: 7.5 (calibration-file) in 3D, $k2 (shipped-default) in 2D;" && ok || bad "help models: calibration file not used: $(printf '%s\n' "$out" | grep -m1 used:)"
printf '%s\n' "$out" | grep -Eq "^    2D: $k2, shipped default .*has no 2D calibration$" && ok || bad "help models: 2D passes over the 3D-only file"

# ---- exit codes: 0 success, 1 data or run-time error, 2 usage error ----
for cmd in evaluate recommend scan pack validate calibrate bench; do
    h=$("$HG" $cmd --help)
    printf '%s\n' "$h" | grep -q "Exit status: 0 success, 1 data or run-time error" && ok || bad "$cmd --help: no exit codes"
    # every option listed once
    d=$(printf '%s\n' "$h" | grep -Eo '^  --[a-z-]+' | sort | uniq -d)
    [ -z "$d" ] && ok || bad "$cmd --help lists twice: $d"
    printf '%s\n' "$h" | grep -q 'hg_[a-z]' && bad "$cmd --help names an internal function" || ok
done
"$HG" --help | grep -q "Exit status" && ok || bad "hgridopt --help: no exit codes"
grep -q "Exit status: 0 success, 1 data or run-time error" "$SRC/docs/commands.md" && ok || bad "docs/commands.md: no exit codes"
"$HG" calibrate --help | grep -q '~/.config /' && bad "calibrate --help: stray space" || ok
# a missing calibration file and a missing packing file: the same code (1)
expect_fail 1 "--K auto: calibration file" -- env HGRIDOPT_CALIBRATION="$TMP/none.json" $HG evaluate $P $S --K auto
expect_fail 1 "none.csv: cannot open" -- $HG evaluate --packing "$TMP/none.csv" $S
expect_fail 1 "none.csv: cannot open" -- $HG bench --packing "$TMP/none.csv"

# ---- bench ----
B="$HG bench $P --n 1500"
# large displacements wrap around the periodic box
expect_ok "every method found" -- $B --displacement 100 --steps 2 --methods lc,hgrid
# the shared names: --repeats (validate, calibrate) and --walls (pack)
expect_ok "median of 2 detections" -- $B --repeats 2 --methods lc
expect_ok "median of 1 detection\b" -- $B --repeat 1 --methods lc
expect_ok "open box" -- $B --walls --methods sap-incremental --repeats 1
# memory with a unit that fits, never "1.5e-05 MB"
out=$($B --methods lc --repeats 1 2>/dev/null)
printf '%s\n' "$out" | grep -Eq '^lc .* [0-9.]+ (B|kB|MB|GB)$' && ok || bad "bench memory column: $out"
printf '%s\n' "$out" | grep -q 'e-0' && bad "bench: tiny number in exponent form: $out" || ok
# the work budget: predicted (linked cell on a wide distribution) and measured
start=$(date +%s)
expect_fail 1 "bench: lc is predicted to do .* above the budget 2e\+08" -- $HG bench --psd powerlaw:alpha=-3,omega=1000 --dim 3 --nu 0.3 --n 20000 --methods lc
[ $(( $(date +%s) - start )) -lt 10 ] && ok || bad "the budget check took too long"
expect_fail 1 "bench: sap did .* above the budget 1e\+04" -- $B --methods sap --budget 1e4
expect_fail 2 "--budget: 0 must be > 0" -- $B --budget 0

# ---- --output: written atomically (no temporary file left behind; a
# failed run leaves the previous file as it was) ----
mkdir -p "$TMP/o"
"$HG" evaluate $P $S --format json --output "$TMP/o/e.json" && [ "$(ls "$TMP/o")" = e.json ] && grep -q evaluation/1 "$TMP/o/e.json" && ok || bad "--output: $(ls "$TMP/o")"
cp "$TMP/o/e.json" "$TMP/before.json"
expect_fail 2 "--sizes: missing" -- $HG evaluate $P --format json --output "$TMP/o/e.json"
cmp -s "$TMP/o/e.json" "$TMP/before.json" && [ "$(ls "$TMP/o")" = e.json ] && ok || bad "a failed run changed --output"

# ---- docs/commands.md: the system file example is the shipped one ----
python3 - "$SRC/docs/commands.md" "$SRC/examples/paper-3d-uniform-volume.json" <<'PY' && ok || bad "docs/commands.md's system file example differs from examples/paper-3d-uniform-volume.json"
import json, re, sys
readme = open(sys.argv[1]).read()
m = re.search(r"System file \(.*?```json\n(.*?)```", readme, re.S)
assert m and json.loads(m.group(1)) == json.load(open(sys.argv[2]))
PY

# validate against bin: wall time and CPU time both given (bin runs on one
# thread, the HGrid on all)
expect_ok "^speed-up over bin: measured [0-9.e+]+ \(time; bin runs on one thread\), [0-9.e+]+ \(CPU time, all threads\), predicted [0-9.e+]+ \(work T\)$" -- $HG validate --psd powerlaw:alpha=-3,omega=10 --dim 2 --nu 0.3 --n 3000 --repeats 1
if $HG validate --psd powerlaw:alpha=-3,omega=10 --dim 2 --nu 0.3 --n 3000 --repeats 1 --format json | jq -e '.speedup_vs_bin.measured > 0 and .speedup_vs_bin.measured_cpu > 0' >/dev/null; then ok; else bad "validate json: speedup_vs_bin.measured_cpu"; fi
finish
