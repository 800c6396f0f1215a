#!/usr/bin/env bash
# recommend --trajectory, the schedule: a run of two phases
# (tests/two_phase_traj.py: a dilute gas in fast flight, then a dense bed
# that barely moves) has a schedule in the table, in JSON and in each
# code's format; its phases cover the run end to end, add up to its
# total, save the 10 % that makes it worth printing, give the gas the
# larger skin, and each phase's lines read back as --setting. The phases
# pasted into a small granular input (tests/whole_run_lib.sh, as the
# whole-run benchmark does) run in lmp and in liggghts, switching at the
# schedule's steps.
# A run that gains nothing from a split (LAMMPS' pour, committed) says so.
. "$(dirname "$0")/cli_lib.sh"
. "$SRC/tests/whole_run_lib.sh"
export HGRIDOPT_LAMMPS_CALIBRATION="$TMP/no-lammps.json"
export HGRIDOPT_LAMMPS_PAIR_CALIBRATION="$TMP/no-lammps-pair.json"
export HGRIDOPT_LIGGGHTS_CALIBRATION="$TMP/no-liggghts.json"
export HGRIDOPT_LIGGGHTS_PAIR_CALIBRATION="$TMP/no-liggghts-pair.json"
R="$HG recommend --trajectory"
D=$TMP/two_phase.dump
python3 "$SRC/tests/two_phase_traj.py" 600 > "$D" || bad "two_phase_traj.py failed"
OWN=(--engine lammps --setting "neighbor 0.3 bin" --timestep 0.001)

# at_steps JSON LOG: each phase's neighbor line of the schedule in JSON
# echoed in the code's LOG at the phase's first step (the steps of the
# runs before it), and the runs 10000 steps in all
at_steps() {
    python3 - "$1" "$2" << 'PY'
import json, re, sys
s = json.load(open(sys.argv[1]))["schedule"]
step, seen = 0, []
for line in open(sys.argv[2]).read().split("\n"):
    if line.startswith("neighbor "):
        seen.append((step, "%g" % float(line.split()[1])))
    m = re.match(r"Loop time of \S+ on \d+ procs for (\d+) steps", line)
    if m:
        step += int(m.group(1))
want = [(p["from_step"], "%g" % p["skin"]) for p in s]
ok = seen == want and step == 10000
if not ok:
    print("neighbor lines at steps", seen, "expected", want, "steps run", step)
sys.exit(0 if ok else 1)
PY
}

expect_ok '^schedule: [23] phases, [0-9.e+-]+ s predicted \([0-9.]+ % less than the answer\)$' -- $R "$D" "${OWN[@]}"
expect_ok '^  steps 0 to [0-9]+: .*, skin [0-9.]+ \([0-9.e+-]+ s\)$' -- $R "$D" "${OWN[@]}"
expect_ok '^# A schedule saves [0-9.]+ % more: ' -- $R "$D" "${OWN[@]}" --format lammps
expect_ok '^# phase 1, steps 0 to [0-9]+ \([0-9.e+-]+ s\):$' -- $R "$D" "${OWN[@]}" --format lammps
expect_ok '^#   neighbor [0-9.]+ bin$' -- $R "$D" "${OWN[@]}" --format lammps
expect_ok '^#   neigh_modify binsize [0-9.e-]+$' -- $R "$D" --engine liggghts --setting "neighbor 0.3 bin" --timestep 0.001 --format liggghts

# JSON: the phases end to end over steps 0-10000, their sum the
# schedule's total, 10 % below the single answer, the gas's skin larger
# than the bed's; with --max-phases 2 no better than with 3
if $R "$D" "${OWN[@]}" --format json > "$TMP/s.json" 2> "$TMP/err" &&
    $R "$D" "${OWN[@]}" --format json --max-phases 2 > "$TMP/s2.json" 2>> "$TMP/err" &&
    $R "$D" "${OWN[@]}" --format json --max-phases 1 > "$TMP/s1.json" 2>> "$TMP/err"; then
    if python3 - "$TMP/s.json" "$TMP/s2.json" "$TMP/s1.json" << 'PY'
import json, sys
a, a2, a1 = (json.load(open(f)) for f in sys.argv[1:4])
s = a["schedule"]
why = []
if not 2 <= len(s) <= 3: why.append("%d phases" % len(s))
if s[0]["from_step"] != a["run"]["first_step"] or s[-1]["to_step"] != a["run"]["last_step"]:
    why.append("the phases do not span the run")
if any(p["to_step"] != q["from_step"] for p, q in zip(s, s[1:])): why.append("a gap or overlap")
tot = sum(p["seconds"] for p in s)
if abs(tot - a["schedule_seconds"]) > 1e-9 * tot: why.append("sum %g != %g" % (tot, a["schedule_seconds"]))
if not a["schedule_seconds"] < 0.9 * a["answer"]["seconds"]: why.append("saves under 10 %")
if not s[0]["skin"] > s[-1]["skin"]: why.append("gas skin %g <= bed skin %g" % (s[0]["skin"], s[-1]["skin"]))
for p in s:
    if not p["lines"].startswith("neighbor %g bin\n" % p["skin"]): why.append("lines " + p["lines"])
s2 = a2["schedule"]
if not 1 < len(s2) <= 2 or a2["schedule_seconds"] < a["schedule_seconds"] * (1 - 1e-12):
    why.append("--max-phases 2: %d phases, %g s" % (len(s2), a2.get("schedule_seconds", 0)))
if a1["schedule"]: why.append("--max-phases 1 gave a schedule")
for i, p in enumerate(s):
    open(sys.argv[1] + ".%d" % i, "w").write(p["lines"])
if why: print("; ".join(why))
sys.exit(1 if why else 0)
PY
    then ok; else bad "schedule JSON"; fi
else
    bad "--format json failed: $(cat "$TMP/err")"
fi
# each phase's lines read back as your lines: the same setting and skin
for f in "$TMP"/s.json.[0-9]; do
    [ -e "$f" ] || continue
    skin=$(awk '$1 == "neighbor" { print $2 }' "$f")
    expect_ok "^  yours: bin \(bins of [0-9.]+\) \(--setting\) +$skin " -- $R "$D" --engine lammps --setting "$(cat "$f")" --timestep 0.001
done

# the schedule pasted into a small granular input runs in lmp, its lines
# in force from the schedule's steps
if command -v lmp > /dev/null; then
    cat > "$TMP/in.base" << 'EOF'
units lj
atom_style sphere
boundary p p p
region box block 0 12 0 12 0 12
create_box 1 box
create_atoms 1 random 300 4928 NULL
set type 1 diameter 0.6
set type 1 density 1.0
pair_style gran/hooke/history 2000.0 NULL 50.0 NULL 0.5 0
pair_coeff * *
comm_modify vel yes
neighbor 0.3 bin
fix 1 all nve/sphere
velocity all create 1.0 87287 loop geom
timestep 0.001
thermo 1000
run 4000
run 6000
EOF
    with_schedule "$TMP/in.base" "$TMP/s.json" > "$TMP/in.sched"
    if (cd "$TMP" && lmp -in in.sched -log log.sched -screen none > /dev/null 2>&1); then
        if at_steps "$TMP/s.json" "$TMP/log.sched"
        then ok; else bad "the schedule in lmp: its lines not at its steps"; fi
    else
        bad "lmp refused the schedule's input: $(grep -m1 ERROR "$TMP/log.sched")"
    fi
else
    bad "lmp not found (apt-get install lammps): the schedule is not run in LAMMPS"
fi

# and LIGGGHTS' schedule in liggghts (512 still spheres on a lattice in a
# box of the trajectory's size, si units: only the lines and their steps
# matter)
if command -v liggghts > /dev/null; then
    cat > "$TMP/in.gbase" << 'EOF'
atom_style granular
atom_modify map array
boundary p p p
newton off
communicate single vel yes
units si
region box block 0 40 0 40 0 40 units box
create_box 1 box
neighbor 0.3 bin
neigh_modify delay 0
fix m1 all property/global youngsModulus peratomtype 5.e6
fix m2 all property/global poissonsRatio peratomtype 0.45
fix m3 all property/global coefficientRestitution peratomtypepair 1 0.3
fix m4 all property/global coefficientFriction peratomtypepair 1 0.5
pair_style gran model hertz tangential history
pair_coeff * *
timestep 0.001
lattice sc 5.0
create_atoms 1 box
set group all diameter 0.5
set group all density 2500
fix integr all nve/sphere
run 4000
run 6000
EOF
    if $R "$D" --engine liggghts --setting "neighbor 0.3 bin" --timestep 0.001 --format json > "$TMP/g.json" 2> "$TMP/err" &&
        python3 -c 'import json, sys; sys.exit(0 if len(json.load(open(sys.argv[1]))["schedule"]) > 1 else 1)' "$TMP/g.json"; then
        with_schedule "$TMP/in.gbase" "$TMP/g.json" > "$TMP/in.gsched"
        if (cd "$TMP" && liggghts -in in.gsched -log log.gsched -echo log -nocite > /dev/null 2>&1); then
            if at_steps "$TMP/g.json" "$TMP/log.gsched"
            then ok; else bad "the schedule in liggghts: its lines not at its steps"; fi
        else
            bad "liggghts refused the schedule's input: $(grep -m1 ERROR "$TMP/log.gsched")"
        fi
    else
        bad "--engine liggghts: no schedule in JSON: $(cat "$TMP/err")"
    fi
else
    bad "liggghts not found (apt-get install liggghts): the LIGGGHTS schedule is not run"
fi

# a run no split serves: LAMMPS' pour, committed
expect_ok '^schedule: none \(no split into phases saves 10 %\)$' -- $R "$SRC/tests/data/files/lammps/pour_traj.dump" --engine lammps --setting "neighbor 0.2 bin"
expect_fail 2 "max-phases" -- $R "$D" "${OWN[@]}" --max-phases 0
finish
