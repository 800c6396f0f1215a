#!/usr/bin/env bash
# recommend --trajectory: the whole-run advice read from a trajectory LAMMPS
# wrote (tests/data/files/lammps/pour_traj.dump: its pour example with a
# size ratio 8, 2500 steps of pour and 2500 of chute flow, 21 frames with
# ids and velocities): the table, JSON and LAMMPS lines; the builds of the
# user's skin recomputed here from the frames; the skin kept with --skin;
# the same answer from two files of the run and from gzip; one clear line
# for every input refused.
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
skin, builds, umax = 0.2, 0.0, 0.0
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
    builds += (s1 - s0) * min(1.0, 2 * u / skin)
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
# LIGGGHTS: a trajectory of a pour of our own (tests/data/files/liggghts)
G=$SRC/tests/data/files/liggghts/pour_wide_traj.dump
GOWN=(--engine liggghts --setting "neighbor 0.0005 bin" --timestep 0.00001)
expect_ok '^answer: bin.*, skin [0-9.e-]+: ' -- $R "$G" "${GOWN[@]}"
expect_ok '^trajectory: 6 frames in 1 file .*steps 0 to 10000, up to 2000 atoms, 3D$' -- $R "$G" "${GOWN[@]}"
expect_ok '^neigh_modify binsize [0-9.e-]+$' -- $R "$G" "${GOWN[@]}" --format liggghts
expect_ok '^neigh_modify delay 0 every 1 check yes$' -- $R "$G" "${GOWN[@]}" --format liggghts
expect_fail 2 'neighbor style multi is not modelled for LIGGGHTS' -- $R "$G" --engine liggghts --setting "neighbor 0.0005 multi"
finish
