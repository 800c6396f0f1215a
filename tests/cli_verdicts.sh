#!/usr/bin/env bash
# Verdicts a user can trust (issue #12 items 5-8b): merged sizes, small
# boxes refused with the N that works, timing over repeats with notes, K
# per dimension and target with its source stated in every output.
. "$(dirname "$0")/cli_lib.sh"
V="$HG validate"
P2="--psd powerlaw:alpha=-3,omega=10 --dim 2 --nu 0.4"
cd "$SRC"

# item 5: sizes that round to the same whole-cell size: merged, said, no nan
out=$($V $P2 --sizes 4,4.01,20 --n 20000 --repeats 1 --no-baseline 2>&1) && rc=0 || rc=$?
if [ $rc = 0 ] && echo "$out" | grep -q "both round to .*merged into one level" &&
   echo "$out" | grep -q "HGrid: top-down, 2 levels" && ! echo "$out" | grep -qi "nan"; then ok
else bad "merged sizes: $out"; fi
out=$($V $P2 --sizes 4,4.01,20 --n 20000 --repeats 1 --no-baseline --format json)
if echo "$out" | jq -e '.levels == 2 and .requested_levels == 3 and .merged_levels == 1 and (.notes | length) >= 1' >/dev/null; then ok
else bad "merged sizes json: $out"; fi

# item 6: 2 cells of the largest size per box edge: refused with the N that works
expect_fail 2 "holds 2 cell.*fewer than 3.*use --n 182287" -- $V --system examples/paper-3d-uniform-volume.json --n 100000
# without --n the default N is raised (and said)
expect_ok "N raised from 100000 to 182287" -- $V --system examples/paper-3d-uniform-volume.json --no-baseline --repeats 1
out=$($V --system examples/paper-3d-uniform-volume.json --n 182287 --repeats 1 --budget 2e7 --format json)
if echo "$out" | jq -e '(.linked_cell.ratio.T_ca - 1 | fabs) < 1e-9 and (.linked_cell.ratio.T_cd - 1 | fabs) < 0.03' >/dev/null; then ok
else bad "linked cell at the smallest N: $(echo "$out" | jq -c .linked_cell.ratio)"; fi

# item 7: repeats by default (median, min-max), the K note
out=$($V --system examples/paper-2d-free-cooling.json --n 20000 --K 1e-6 2>&1) && rc=0 || rc=$?
if [ $rc = 0 ] && echo "$out" | grep -q "median of 5 alternating repeats" &&
   echo "$out" | grep -q "likely cause is K = 1e-06 (command-line).*hgridopt calibrate --dim 2 --save"; then ok
else bad "repeats / K note: $out"; fi
out=$($V --system examples/paper-2d-free-cooling.json --n 20000 --repeats 3 --format json)
if echo "$out" | jq -e '.measured.repeats == 3 and .measured.seconds_min <= .measured.seconds and .measured.seconds <= .measured.seconds_max and .speedup_vs_linked_cell.measured_min <= .speedup_vs_linked_cell.measured and .speedup_vs_linked_cell.measured <= .speedup_vs_linked_cell.measured_max and .K_choice.source == "shipped-default"' >/dev/null; then ok
else bad "repeats json: $out"; fi

# item 8: calibrations per dimension; another dimension's is never used
cat > "$TMP/cal3.json" <<'JSON'
{"schema": "hgridopt.calibration/2", "calibrations": {"3": {"K": 7.5, "dim": 3, "created": "2026-01-01T00:00:00Z", "machine": "test", "build": "test"}}}
JSON
E="$HG evaluate --system examples/paper-2d-free-cooling.json --sizes 4,8,16,40"
expect_fail 1 "--K auto: calibration file .*no 2D calibration, only a 3D one.*calibrate --dim 2 --save" -- env HGRIDOPT_CALIBRATION="$TMP/cal3.json" $HG evaluate --psd powerlaw:alpha=-3,omega=20 --dim 2 --nu 0.4 --sizes 4,8,16,40 --K auto
expect_fail 1 "--K auto: .*run .hgridopt calibrate --dim 2 --save" -- env HGRIDOPT_CALIBRATION="$TMP/none.json" $HG evaluate --psd powerlaw:alpha=-3,omega=20 --dim 2 --nu 0.4 --sizes 4,8,16,40 --K auto
# default: a 2D system with a 3D-only file gets the shipped 2D default, said so
expect_ok "K from: +shipped default for the bundled HGrid in 2D.*has no 2D calibration" -- env HGRIDOPT_CALIBRATION="$TMP/cal3.json" $HG evaluate --psd powerlaw:alpha=-3,omega=20 --dim 2 --nu 0.4 --sizes 4,8,16,40
# and a 3D system gets the 3D calibration
expect_ok "K = 7.5 \(calibration-file" -- env HGRIDOPT_CALIBRATION="$TMP/cal3.json" $HG evaluate --psd powerlaw:alpha=-3,omega=20 --dim 3 --nu 0.4 --sizes 4,8,16,40
# "K": "auto" in a system file is --K auto
printf '{"dim": 2, "nu": 0.4, "K": "auto", "distribution": "powerlaw:alpha=-3,omega=20"}' > "$TMP/auto.json"
expect_fail 1 "--K auto: .*no 2D calibration" -- env HGRIDOPT_CALIBRATION="$TMP/cal3.json" $HG evaluate --system "$TMP/auto.json" --sizes 4,8,16,40
# calibrate --save writes this dimension's entry and keeps the other
cp "$TMP/cal3.json" "$TMP/both.json"
out=$($HG calibrate --dim 2 --n 5000 --max-levels 2 --repeats 1 --file "$TMP/both.json" 2>"$TMP/err") && rc=0 || rc=$?
if [ $rc = 0 ]; then
    if jq -e '.calibrations["3"].K == 7.5 and .calibrations["2"].K > 0 and (.calibrations["2"].machine | length) > 0 and (.calibrations["2"].build | test("build"))' "$TMP/both.json" >/dev/null &&
       echo "$out" | grep -q "saved as the 2D entry"; then ok; else bad "calibrate --file: $(cat "$TMP/both.json")"; fi
elif [ $rc = 1 ] && grep -q "too noisy" "$TMP/err"; then ok
else bad "calibrate exit $rc: $(cat "$TMP/err")"; fi

# item 8b: K follows the target, every output says which and from where
R="$HG recommend --system examples/paper-2d-free-cooling.json"
expect_ok "K from shipped-default, for MercuryDPM: shipped default for MercuryDPM" -- $R --format mercurydpm
# LAMMPS output from the KOL HGrid model (--model kol; by default LAMMPS' own
# model, which has no K) uses K like the bundled HGrid
expect_ok "K from shipped-default, for LAMMPS: shipped default for the bundled HGrid in 2D" -- $R --format lammps --model kol
expect_ok "K = [0-9.]+ \(shipped-default, for the bundled HGrid\)" -- $R --format table
expect_ok "K from: +shipped default" -- $R --format table
out=$($R --format json)
if echo "$out" | jq -e '.K_choice.source == "shipped-default" and .K_choice.target == "bundled HGrid" and .K == .K_choice.value and .K > 0.2' >/dev/null; then ok
else bad "recommend json K: $out"; fi
expect_ok "K = 0.2 \(paper" -- $R --K paper
expect_ok "K = 0.45 \(command-line" -- $R --K 0.45
expect_ok "K = 7.5 \(calibration-file" -- env HGRIDOPT_CALIBRATION="$TMP/cal3.json" $HG recommend --system examples/paper-3d-uniform-volume.json
expect_ok "K from shipped-default, for MercuryDPM" -- env HGRIDOPT_CALIBRATION="$TMP/cal3.json" $HG recommend --system examples/paper-3d-uniform-volume.json --format mercurydpm
expect_ok ",K,K_source," -- $HG scan --system examples/paper-2d-free-cooling.json --max-levels 2
expect_ok ",shipped-default," -- $HG scan --system examples/paper-2d-free-cooling.json --max-levels 2
expect_fail 2 "--K: 'x' is not a number, auto, paper or shipped" -- $R --K x
# issue 48: a 100-particle file of equal spheres (its HGrid is one level of
# the linked cell's size) with two centres written twice more
$HG pack --generator rsa --psd "powerlaw:alpha=0,omega=1.2" --dim 3 --nu 0.2 --n 100 --seed 3 --output "$TMP/p100.csv" 2>/dev/null
{ cat "$TMP/p100.csv"; sed -n 5p "$TMP/p100.csv"; sed -n 9p "$TMP/p100.csv"; sed -n 9p "$TMP/p100.csv"; } > "$TMP/dup.csv"
out=$($V --packing "$TMP/dup.csv" --repeats 1 2>&1) && rc=0 || rc=$?
if [ $rc = 0 ] && echo "$out" | grep -q "^speed-up over the linked cell: 1, the same grid" &&
   echo "$out" | grep -q "is the linked cell: the same grid, timed once" &&
   ! echo "$out" | grep -q "likely cause is K" &&
   echo "$out" | grep -q "; 5 coincident particles (at 2 shared centres))$" &&
   echo "$out" | grep -q "note: '.*dup.csv': 5 particles lie at the same centre as another (2 centres shared; e.g. particles 3 and 101"; then ok
else bad "same grid, coincident: $out"; fi
out=$($V --packing "$TMP/dup.csv" --repeats 1 --format json 2>/dev/null)
if echo "$out" | jq -e '.coincident.particles == 5 and .coincident.centres == 2 and .speedup_vs_linked_cell.same_grid and .speedup_vs_linked_cell.measured == 1' >/dev/null; then ok
else bad "same grid, coincident json: $out"; fi
# a count too small to judge: 30 particles, dilute
$HG pack --psd "powerlaw:alpha=0,omega=1.2" --dim 3 --nu 0.05 --n 30 --seed 3 --output "$TMP/p30.csv" 2>/dev/null
expect_ok "^NOTE: HGrid: only [0-9]+ pair checks counted, too few to judge its ratio .*400 are enough.*about N = [0-9]+ particles$" -- $V --packing "$TMP/p30.csv" --repeats 1
# three far-apart particles: nothing predicted nor counted; no nan printed
printf 'x,y,z,r\n0.1,0.1,0.1,0.05\n0.5,0.5,0.5,0.05\n0.9,0.2,0.3,0.05\n' > "$TMP/three.csv"
if $V --packing "$TMP/three.csv" --repeats 1 > "$TMP/three.out" 2>&1 &&
    ! grep -qi 'nan' "$TMP/three.out" &&
    grep -Eq '^total .* - ' "$TMP/three.out" &&
    grep -q 'too few to judge any ratio (none: 0 predicted)' "$TMP/three.out"; then
    ok
else
    bad "validate on 3 far-apart particles: $(grep -i 'nan\|^total' "$TMP/three.out")"
fi
# issue 48, item 5: MercuryDPM's K in 2D is the 3D value, said with its cost
expect_ok "K from shipped-default, for MercuryDPM: .*the 3D value, not measured on disks: .*at most 15 % more work" -- env HGRIDOPT_MERCURYDPM_CALIBRATION="$TMP/none.json" $HG recommend --system examples/paper-2d-free-cooling.json --format mercurydpm
finish
