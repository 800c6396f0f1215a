#!/usr/bin/env bash
# recommend --trajectory: the whole-run advice read from a trajectory LAMMPS
# wrote (tests/data/files/lammps/pour_traj.dump: its pour example with a
# size ratio 8, 2500 steps of pour and 2500 of chute flow, 21 frames with
# ids and velocities): the table, JSON and LAMMPS lines; the builds of the
# user's skin recomputed here from the frames; the skin kept with --skin;
# the same answer from two files of the run and from gzip; the run's log
# (pour_traj.log) read and the model scaled to it; one clear line for
# every input refused.
. "$(dirname "$0")/cli_lib.sh"
export HGRIDOPT_LAMMPS_CALIBRATION="$TMP/no-lammps.json"
export HGRIDOPT_LAMMPS_PAIR_CALIBRATION="$TMP/no-lammps-pair.json"
D=$SRC/tests/data/files/lammps/pour_traj.dump
R="$HG recommend --trajectory"
OWN=(--engine lammps --setting "neighbor 0.2 bin; neigh_modify delay 0")

expect_ok '^answer: .*, skin [0-9.]+: [0-9.e+-]+ s predicted \(yours [0-9.e+-]+ s: [0-9.]+x\)$' -- $R "$D" "${OWN[@]}"
expect_ok '^  yours: bin \(--setting\) +0\.2 ' -- $R "$D" "${OWN[@]}"
expect_ok '^trajectory: 21 frames in 1 file .*steps 0 to 5000, up to 460 atoms, 3D$' -- $R "$D" "${OWN[@]}"
expect_ok '^motion: +largest .* from speeds x timestep' -- $R "$D" "${OWN[@]}" --timestep 0.001
expect_ok '^note: the dump has velocities; give --timestep' -- $R "$D" "${OWN[@]}"

# JSON: the user's builds from the frames (largest displacement of an atom
# per step between frames, ids joined, minimum image along x and y)
if $R "$D" "${OWN[@]}" --format json > "$TMP/a.json" 2> "$TMP/err"; then
    if python3 - "$D" "$TMP/a.json" << 'PY'
import json, sys
frames, cur = [], None
lines = open(sys.argv[1]).read().split("\n")
i = 0
while i < len(lines):
    if lines[i] == "ITEM: TIMESTEP":
        step = int(lines[i + 1]); n = int(lines[i + 3])
        box = [tuple(map(float, lines[i + 5 + a].split())) for a in range(3)]
        cols = lines[i + 8].split()[2:]
        atoms = {}
        for l in lines[i + 9:i + 9 + n]:
            v = dict(zip(cols, l.split()))
            atoms[int(v["id"])] = [float(v[c]) for c in "xyz"]
        frames.append((step, box, atoms))
        i += 9 + n
    else:
        i += 1
a = json.load(open(sys.argv[2]))
skin, builds, umax, acc = 0.2, 0.0, 0.0, 0.0
for (s0, _, A0), (s1, box, A1) in zip(frames, frames[1:]):
    u = 0.0
    for k in A0.keys() & A1.keys():
        d2 = 0.0
        for c in range(3):
            d = A1[k][c] - A0[k][c]
            L = box[c][1] - box[c][0]
            if c < 2:  # p p fm
                d -= L * round(d / L)
            d2 += d * d
        u = max(u, d2 ** 0.5 / (s1 - s0))
    umax = max(umax, u)
    # step by step as LAMMPS checks: a build once the fastest atom's
    # displacement since the last build is over half the skin
    for _ in range(s1 - s0):
        acc += u
        if acc > 0.5 * skin * (1 + 1e-4):
            builds += 1
            acc = 0.0
y = a["yours"]
ok = (a["schema"] == "hgridopt.whole-run/1" and abs(y["builds"] - builds) <= 1e-6 * builds
      and y["skin"] == skin and abs(a["run"]["max_motion_per_step"] - umax) <= 1e-9
      and a["answer"]["skin"] >= 4 * umax * (1 - 1e-12)
      and a["answer"]["seconds"] <= y["seconds"] * (1 + 1e-12)
      and a["run"]["frames"] == 21 and a["lines"].startswith("neighbor "))
if not ok:
    print("builds", y["builds"], "expected", builds, "umax", a["run"]["max_motion_per_step"], umax, file=sys.stderr)
sys.exit(0 if ok else 1)
PY
    then ok; else bad "JSON: the user's builds or the answer's skin"; fi
else
    bad "JSON: $(cat "$TMP/err")"
fi

# --skin S keeps the skin for every setting
if $R "$D" --engine lammps --skin 0.2 --format json > "$TMP/s.json" 2> "$TMP/err" &&
    python3 -c 'import json, sys; a = json.load(open(sys.argv[1])); sys.exit(0 if a["answer"]["skin"] == 0.2 and all(s["skin"] == 0.2 for s in a["settings"]) and a["yours"]["setting"] else 1)' "$TMP/s.json"; then
    ok
else
    bad "--skin 0.2 not kept: $(cat "$TMP/err")"
fi

# the lines to paste
expect_ok '^neighbor [0-9.]+ (bin|multi)$' -- $R "$D" "${OWN[@]}" --format lammps
expect_ok '^neigh_modify delay 0 every 1 check yes$' -- $R "$D" "${OWN[@]}" --format lammps
expect_ok '^# yours \(--setting\): ' -- $R "$D" "${OWN[@]}" --format lammps

# two files of one run, and gzip: the same answer
awk -v f1="$TMP/p1.dump" -v f2="$TMP/p2.dump" '/^ITEM: TIMESTEP/ { n++ } { print > (n <= 10 ? f1 : f2) }' "$D"
gzip -c "$D" > "$TMP/t.dump.gz"
for alt in "$TMP/p1.dump $TMP/p2.dump" "$TMP/t.dump.gz"; do
    # shellcheck disable=SC2086
    if $R $alt "${OWN[@]}" --format json > "$TMP/b.json" 2> "$TMP/err" &&
        python3 -c 'import json, sys; a, b = (json.load(open(f)) for f in sys.argv[1:]); sys.exit(0 if a["answer"] == b["answer"] and a["lines"] == b["lines"] and a["run"]["frames"] == b["run"]["frames"] else 1)' "$TMP/a.json" "$TMP/b.json"; then
        ok
    else
        bad "[$alt] not the answer of the one file: $(cat "$TMP/err")"
    fi
done

expect_ok '^Usage: hgridopt recommend --trajectory FILE' -- $R --help
# refused, with one line each
expect_fail 2 "^hgridopt: --trajectory: give the run's dumps" -- $R --engine lammps
expect_fail 2 '^hgridopt: --engine: give the code the trajectory comes from' -- $R "$D"
expect_fail 2 'hgrid gives no whole-run advice' -- $R "$D" --engine hgrid
expect_fail 2 "neighbor style 'nsq' is not modelled" -- $R "$D" --engine lammps --setting "neighbor 0.2 nsq"
expect_fail 2 "'fix' is not a neighbor, neigh_modify or comm_modify command" -- $R "$D" --engine lammps --setting "fix 1 all nve"
expect_fail 2 'check no rebuilds on a fixed interval' -- $R "$D" --engine lammps --setting "neighbor 0.2 bin; neigh_modify every 10 check no"
expect_fail 2 "^hgridopt: --skin: 0.3 differs from the skin 0.2 of --setting" -- $R "$D" "${OWN[@]}" --skin 0.3
expect_fail 2 "^hgridopt: --skin: '-1' is not auto or a number > 0" -- $R "$D" --engine lammps --skin -1
expect_fail 2 '^hgridopt: --format: liggghts is not the format of --engine lammps' -- $R "$D" --engine lammps --format liggghts
expect_fail 1 'no/such.dump' -- $R /no/such.dump --engine lammps
expect_fail 1 'a trajectory is read from a LAMMPS or LIGGGHTS dump' -- $R "$SRC/tests/data/files/lammps/pour_poly.data" --engine lammps
awk '/^ITEM: TIMESTEP/ { n++ } n <= 1' "$D" > "$TMP/one.dump"
expect_fail 1 '^hgridopt: --trajectory: 1 frame; ' -- $R "$TMP/one.dump" --engine lammps
cat "$D" "$D" > "$TMP/twice.dump"
expect_fail 1 'frame 22 is step 0 after step 5000' -- $R "$TMP/twice.dump" --engine lammps
awk '/^ITEM: ATOMS/ { sub(/ id /, " "); print; next } NF == 9 { $1 = ""; sub(/^ /, "") } { print }' "$D" > "$TMP/noid.dump"
expect_fail 1 'the dump needs an id column' -- $R "$TMP/noid.dump" --engine lammps

# --log: the log LAMMPS wrote with the trajectory (pour_traj.log). Its
# lines and timestep are read from it; the user's lines are predicted as
# the log measured them (builds, Neigh, Pair, Loop recomputed here from
# the log), every setting as a Loop time.
LOG=$SRC/tests/data/files/lammps/pour_traj.log
GLOG0=$SRC/tests/data/files/liggghts/log.pour_wide_traj
expect_ok '^your log: +2 runs, 5000 steps on 1 proc: Loop [0-9.]+ s, Neigh [0-9.]+ s, Pair [0-9.]+ s, Output 0\.02877 s, ' -- $R "$D" --engine lammps --log "$LOG"
expect_ok "^note: your log's Output time \(0\.0288 s, [0-9]+ % of its loop: its dumps, the trajectory's among them\) is left out of the predicted Loop$" -- $R "$D" --engine lammps --log "$LOG"
expect_ok '^  yours: bin \(your log\) +0\.2 ' -- $R "$D" --engine lammps --log "$LOG"
expect_ok '^motion: +largest .* from speeds x timestep' -- $R "$D" --engine lammps --log "$LOG"
expect_ok '^# predicted Loop time \(scaled to your log\) over the run' -- $R "$D" --engine lammps --log "$LOG" --format lammps
if $R "$D" --engine lammps --log "$LOG" --format json > "$TMP/l.json" 2> "$TMP/err"; then
    if python3 - "$LOG" "$TMP/l.json" << 'PY'
import json, re, sys
loop = pair = neigh = output = 0.0
steps = builds = 0
for l in open(sys.argv[1]):
    m = re.match(r"Loop time of (\S+) on \d+ procs for (\d+) steps", l)
    if m:
        loop += float(m.group(1)); steps += int(m.group(2))
    m = re.match(r"(Pair|Neigh|Output) +\|[^|]+\|\s*(\S+)", l)
    if m:
        if m.group(1) == "Pair":
            pair += float(m.group(2))
        elif m.group(1) == "Output":
            output += float(m.group(2))
        else:
            neigh += float(m.group(2))
    m = re.match(r"Neighbor list builds = (\d+)", l)
    if m:
        builds += int(m.group(1))
a = json.load(open(sys.argv[2]))
L, y = a["log"], a["yours"]
near = lambda x, v, r: abs(x - v) <= r * abs(v)
ok = (L["steps"] == steps == 5000 and L["builds"] == builds and near(L["pair_seconds"], pair, 1e-9)
      and near(L["neigh_seconds"], neigh, 1e-9) and output > 0 and near(L["output_seconds"], output, 1e-9)
      and L["timestep"] == 0.001
      and L["lines"].startswith("neighbor 0.2 bin\n") and "\nneigh_modify delay 0\n" in L["lines"]
      and y["source"] == "your log" and y["skin"] == 0.2
      and near(y["builds"], builds, 2e-3) and near(y["pair_seconds"], pair, 1e-6)
      and near(y["neigh_seconds"], neigh, 5e-3) and near(y["loop_seconds"], loop - output, 5e-3)
      and near(a["answer"]["loop_seconds"], L["other_seconds"] + a["answer"]["seconds"], 1e-9)
      and a["answer"]["loop_seconds"] <= y["loop_seconds"] + 1e-12)
if not ok:
    print("log", L, "\nyours", y, "\nrecomputed: loop", loop, "pair", pair, "neigh", neigh, "output", output, "builds", builds, "steps", steps)
sys.exit(0 if ok else 1)
PY
    then ok; else bad "--log: JSON does not predict your lines as the log measured them"; fi
else
    bad "--log --format json failed: $(cat "$TMP/err")"
fi
# the answer keeps your lines unless it saves 5 % of the predicted loop
if python3 -c 'import json, sys; a = json.load(open(sys.argv[1])); s = 1 - a["answer"]["loop_seconds"] / a["yours"]["loop_seconds"]; sys.exit(0 if (a["answer"]["keeps_yours"] == (s < 0.05)) else 1)' "$TMP/l.json"; then ok; else bad "--log: the answer keeps your lines exactly when it saves under 5 %"; fi
expect_ok '^answer: keep your lines \(bin, skin 0\.2\): ' -- $R "$D" --engine lammps --log "$LOG" --min-gain 0.5
expect_ok '^neigh_modify delay 0$' -- $R "$D" --engine lammps --log "$LOG" --min-gain 0.5 --format lammps
expect_fail 2 "^hgridopt: --min-gain: '1' is not a share in \[0, 1\)$" -- $R "$D" --engine lammps --log "$LOG" --min-gain 1
expect_ok '^# yours \(your log\): ' -- $R "$D" --engine lammps --log "$LOG" --setting "neighbor 0.2 bin" --format lammps --skin 0.2
expect_fail 2 "^hgridopt: --setting: 'neighbor 0.3 bin' is not what your log ran \('neighbor 0.2 bin'\)" -- $R "$D" --engine lammps --log "$LOG" --setting "neighbor 0.3 bin"
expect_fail 2 "^hgridopt: --timestep: 0.002 is not your log's timestep 0.001" -- $R "$D" --engine lammps --log "$LOG" --timestep 0.002
expect_fail 1 "^hgridopt: --log: cannot open '/no/such.log'" -- $R "$D" --engine lammps --log /no/such.log
head -n 60 "$LOG" > "$TMP/cut.log"
expect_fail 1 "^hgridopt: --log: '.*cut.log' has no 'Loop time of' line" -- $R "$D" --engine lammps --log "$TMP/cut.log"
expect_fail 1 "is not a log of LAMMPS \(it begins with 'LIGGGHTS'\)" -- $R "$D" --engine lammps --log "$SRC/tests/data/files/liggghts/log.pour_wide_traj"
expect_fail 1 "^hgridopt: --log: '.*': binary data \(a NUL byte at offset 3\): a log is text" -- $R "$D" --engine lammps --log "$SRC/tests/data/files/lammps/pour_poly.dump.gz"
sed 's/^neigh_modify.*/neigh_modify every 10 check no/' "$LOG" > "$TMP/checkno.log"
expect_fail 1 "^hgridopt: --log: the lines of '.*checkno.log': check no rebuilds on a fixed interval" -- $R "$D" --engine lammps --log "$TMP/checkno.log"
expect_fail 1 "^hgridopt: --log: the lines of '.*checkno.log': check no rebuilds on a fixed interval" -- $R "$D" --engine lammps --log "$TMP/checkno.log" --setting "neighbor 0.2 bin"
# no neighbor command echoed: the code's default for the log's units
grep -v '^neighbor' "$LOG" > "$TMP/nonb.log"
expect_ok "^note: your log echoes no neighbor command: LAMMPS's default for units lj \(neighbor 0.3 bin\)" -- $R "$D" --engine lammps --log "$TMP/nonb.log"
G0=$SRC/tests/data/files/liggghts/pour_wide_traj.dump
sed 's/^units.*/units si/' "$GLOG0" | grep -v '^neighbor' > "$TMP/nonb-si.log"
expect_ok "^note: your log echoes no neighbor command: LIGGGHTS's default for units si \(neighbor 0.001 bin\)" -- $R "$G0" --engine liggghts --log "$TMP/nonb-si.log"
sed 's/^units.*/units electron/' "$GLOG0" | grep -v '^neighbor' > "$TMP/electron.log"
expect_fail 1 "echoes no neighbor command and no default skin for units electron is known" -- $R "$G0" --engine liggghts --log "$TMP/electron.log"
# a log written with -echo none: no command to read, --setting needed
grep -v '^[a-z_]' "$LOG" > "$TMP/noecho.log"
expect_fail 1 "echoes no commands \(written with -echo none\?\): give --setting" -- $R "$D" --engine lammps --log "$TMP/noecho.log"
expect_ok "^note: your log echoes no neighbor command .*: --setting is taken as the lines it ran with" -- $R "$D" --engine lammps --log "$TMP/noecho.log" --setting "neighbor 0.2 bin"
# LIGGGHTS: a trajectory of a pour of our own (tests/data/files/liggghts)
G=$SRC/tests/data/files/liggghts/pour_wide_traj.dump
GOWN=(--engine liggghts --setting "neighbor 0.0005 bin" --timestep 0.00001)
expect_ok '^answer: bin.*, skin [0-9.e-]+: ' -- $R "$G" "${GOWN[@]}"
expect_ok '^trajectory: 6 frames in 1 file .*steps 0 to 10000, up to 2000 atoms, 3D$' -- $R "$G" "${GOWN[@]}"
expect_ok '^neigh_modify binsize [0-9.e-]+$' -- $R "$G" "${GOWN[@]}" --format liggghts
expect_ok '^neigh_modify delay 0 every 1 check yes$' -- $R "$G" "${GOWN[@]}" --format liggghts
expect_fail 2 'neighbor style multi is not modelled for LIGGGHTS' -- $R "$G" --engine liggghts --setting "neighbor 0.0005 multi"
# and its log (the commands echoed): lines, timestep and times read
GLOG=$SRC/tests/data/files/liggghts/log.pour_wide_traj
expect_ok '^your log: +1 run, 10000 steps on 1 proc: .*, 408 builds \(0 dangerous\)$' -- $R "$G" --engine liggghts --log "$GLOG"
expect_ok '^  yours: bin \(LIGGGHTS. default bins\) \(your log\) +0\.0005 ' -- $R "$G" --engine liggghts --log "$GLOG"
expect_ok '^motion: +largest .* from speeds x timestep' -- $R "$G" --engine liggghts --log "$GLOG"
expect_fail 1 "is not a log of LIGGGHTS \(it begins with 'LAMMPS'\)" -- $R "$G" --engine liggghts --log "$LOG"
finish
