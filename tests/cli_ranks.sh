#!/usr/bin/env bash
# cli_ranks.sh HGRIDOPT SRC - many MPI ranks from the command line:
# `decompose` against the counts LAMMPS printed for a bed of its own pour
# example (pour_poly.data, 3000 atoms, d 0.25-2, boundary p p fm, skin 0.2,
# 8 ranks; measured with tests/ranks_oracle.sh, lmp_counts, on Debian's
# lmp 29 Sep 2021 - Update 2) and, where lmp and mpirun are installed,
# against lmp run now on a 2D bed; `recommend --packing --mpi`; the
# trajectory advice on many ranks with the log of a run on 4 ranks
# (pour_traj_mpi4.*); `--mpi 1` unchanged; bad input refused.
. "$(dirname "$0")/cli_lib.sh"
D=$SRC/tests/data/files/lammps
J=$TMP/dec.json

# counts LAMMPS printed (Nlocal max/ave/min, Nghost max/ave/min) on 8 ranks
"$HG" decompose --packing "$D/pour_poly.data" --boundary "p p fm" --mpi 8 \
    --skin 0.2 --format json > "$J" || bad "decompose pour_poly.data failed"
python3 - "$J" << 'PY' && ok || bad "decompose: the counts are not LAMMPS'"
import json, sys
d = json.load(open(sys.argv[1]))
by = {c["name"]: c for c in d["candidates"]}
want = {  # lmp: processors / balance lines -> Nlocal, Nghost (ave max min)
    "LAMMPS' default": ((375, 782, 0), (395.75, 808, 0)),
    "grid 4 x 2 x 1": ((375, 411, 338), (642.375, 684, 612)),
    "grid 4 x 2 x 1, shift balanced": ((375, 387, 363), (641.625, 667, 604)),
    "rcb (comm_style tiled, newton off)": ((375, 377, 373), (627.75, 663, 598)),
}
bad = 0
for name, (nl, ng) in want.items():
    c = by[name]
    got = ((c["nlocal"]["ave"], c["nlocal"]["max"], c["nlocal"]["min"]),
           (c["nghost"]["ave"], c["nghost"]["max"], c["nghost"]["min"]))
    if got != (nl, ng):
        print(f"{name}: {got} != lmp's {(nl, ng)}", file=sys.stderr)
        bad = 1
assert d["ranks"] == 8 and d["own"] == 0
a = d["candidates"][d["answer"]["index"]]
assert a["nlocal"]["max"] / a["nlocal"]["ave"] <= 1.25, a
assert not d["answer"]["kept_own"]
sys.exit(bad)
PY
# the answer's lines given back as yours are kept
lines=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["answer"]["lines"])' "$J")
"$HG" decompose --packing "$D/pour_poly.data" --boundary "p p fm" --mpi 8 \
    --skin 0.2 --setting "$lines" --format json > "$TMP/again.json" &&
    python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); sys.exit(0 if d["answer"]["kept_own"] and d["own"] == d["answer"]["index"] else 1)' "$TMP/again.json" &&
    ok || bad "decompose: the answer's own lines are not kept"
# the drum's bed at 32 ranks: a wide slab over the empty top of the box
# clears many bins at each build, but an empty bin costs a fraction of a
# nanosecond (tests/bench_bins.sh), not the one-rank model's bins term: the
# answer keeps the busiest rank within 1.25x the average, and its parts
# (Pair, Neigh, Comm) add up to no more than its step
"$HG" decompose --packing "$D/drum.data" --boundary "p p f" --mpi 32 \
    --skin 0.2 --format json > "$TMP/drum32.json" &&
    python3 - "$TMP/drum32.json" << 'PY' && ok || bad "decompose drum 32: the answer is not balanced, or its parts exceed its step"
import json, sys
d = json.load(open(sys.argv[1]))
a = d["candidates"][d["answer"]["index"]]
p = a["busiest_parts"]
assert a["imbalance"] <= 1.25, a["imbalance"]
assert 0 < p["pair"] + p["neigh"] + p["comm"] <= a["busiest_seconds"] * (1 + 1e-12), (p, a["busiest_seconds"])
assert d["costs"]["neigh_per_bin"] < 2e-9, d["costs"]["neigh_per_bin"]
PY
expect_ok '^comm_style tiled$|^processors' -- "$HG" decompose --packing "$D/pour_poly.data" --boundary "p p fm" --mpi 8 --skin 0.2 --format lammps
expect_ok 'answer: +.*busiest rank' -- "$HG" decompose --packing "$D/pour_poly.data" --boundary "p p fm" --mpi 16 --skin 0.2
# LIGGGHTS: grids only
"$HG" decompose --packing "$D/pour_poly.data" --boundary "p p fm" --mpi 8 \
    --skin 0.2 --engine liggghts --format json > "$TMP/lig.json" &&
    python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); sys.exit(0 if all(not c["balanced"] and not c["tiled"] and "balance" not in c["lines"] for c in d["candidates"]) else 1)' "$TMP/lig.json" &&
    ok || bad "decompose --engine liggghts offers a balance"

# lmp itself, now: a 2D bed (pour2d.data, boundary f fm p) on 4 ranks
if command -v lmp > /dev/null && command -v mpirun > /dev/null; then
    . "$SRC/tests/ranks_oracle.sh"
    "$HG" decompose --packing "$D/pour2d.data" --boundary "f fm p" --mpi 4 \
        --skin 0.2 --format json > "$TMP/p2.json" || bad "decompose pour2d failed"
    while IFS=$'\t' read -r name lines want; do
        got=$(lmp_counts "$D/pour2d.data" 2 "f fm p" 0.2 4 "$(printf '%b' "$lines")") ||
            { bad "lmp_counts failed for $name"; continue; }
        # ave max min of Nlocal and Nghost
        if python3 -c 'import sys; a = [float(x) for x in sys.argv[1].split()]; b = [float(x) for x in sys.argv[2].split()]; sys.exit(0 if a == b else 1)' "$got" "$want"; then
            ok
        else
            bad "pour2d, 4 ranks, $name: lmp $got, hgridopt $want"
        fi
    done < <(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
pick = {0, d["answer"]["index"]} | {i for i, c in enumerate(d["candidates"]) if c["tiled"] or c["balanced"]}
for i in sorted(pick)[:4]:
    c = d["candidates"][i]
    n, g = c["nlocal"], c["nghost"]
    print(c["name"], c["lines"].replace("\n", "\\n"), " ".join(f"{x:g}" for x in (n["ave"], n["max"], n["min"], g["ave"], g["max"], g["min"])), sep="\t")
' "$TMP/p2.json")
else
    echo "cli_ranks: lmp or mpirun not installed: LAMMPS' own counts not run" >&2
    bad "lmp and mpirun are test packages (examples/packages.txt)"
fi

# recommend --packing --mpi: the decomposition with the neighbor lines
"$HG" recommend --packing "$D/pour_poly.data" --boundary "p p fm" --engine lammps \
    --skin 0.2 --mpi 8 --format json > "$TMP/rec.json" &&
    python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); sys.exit(0 if d["decomposition"]["ranks"] == 8 and d["decomposition"]["answer"]["lines"] and d["settings"] else 1)' "$TMP/rec.json" &&
    ok || bad "recommend --mpi 8 --format json has no decomposition"
expect_ok '^# 8 MPI ranks' -- "$HG" recommend --packing "$D/pour_poly.data" --boundary "p p fm" --engine lammps --skin 0.2 --mpi 8 --format lammps
expect_ok 'on 8 MPI ranks' -- "$HG" recommend --packing "$D/pour_poly.data" --boundary "p p fm" --engine lammps --skin 0.2 --mpi 8

# the whole run on many ranks: the log of a run on 4 ranks
T=$D/pour_traj_mpi4.dump
L=$D/pour_traj_mpi4.log
out=$("$HG" recommend --trajectory "$T" --engine lammps --log "$L" 2>&1) || bad "trajectory on 4 ranks failed: $out"
printf '%s\n' "$out" | grep -q '^On 4 MPI ranks' && ok || bad "trajectory: no table of 4 ranks"
# LAMMPS printed Nlocal 124 max / 115 ave at the end; the model's last frame
printf '%s\n' "$out" | grep -q 'atoms 124 max / 115 ave = 1.078.*the model at the last frame with your lines: 124 / 115 = 1.078' &&
    ok || bad "trajectory: the log's end counts and the model's differ: $(printf '%s\n' "$out" | grep 'your log at its end')"
"$HG" recommend --trajectory "$T" --engine lammps --log "$L" --mpi 16 --format json > "$TMP/t16.json" &&
    python3 - "$TMP/t16.json" << 'PY' && ok || bad "trajectory --mpi 16: JSON"
import json, sys
d = json.load(open(sys.argv[1]))
r = d["ranks"]
assert r["mpi"] == 16 and len(r["decompositions"]) >= 3
own, ans = r["decompositions"][r["yours"]], r["decompositions"][r["answer"]]
assert ans["loop_seconds"] <= own["loop_seconds"]
assert own["atoms_max_over_ave"] > 1.5 and ans["atoms_max_over_ave"] < 1.25, (own, ans)
assert r["lines"] == ans["lines"]
assert any("ranks" in n for n in d["notes"]), d["notes"]
PY
expect_ok '^# for 16 MPI ranks' -- "$HG" recommend --trajectory "$T" --engine lammps --log "$L" --mpi 16 --format lammps
# --mpi 1 on a one-rank log is today's answer
P1=$D/pour_traj.dump
"$HG" recommend --trajectory "$P1" --engine lammps --log "$D/pour_traj.log" --format json > "$TMP/a.json" &&
    "$HG" recommend --trajectory "$P1" --engine lammps --log "$D/pour_traj.log" --mpi 1 --format json > "$TMP/b.json" &&
    cmp -s "$TMP/a.json" "$TMP/b.json" && ! grep -q '"ranks"' "$TMP/a.json" && ok || bad "--mpi 1 changes the one-rank answer"

# a balance weighted by time: decomposed by atom counts, and said so
expect_ok "^note: .*weighs each rank's atoms by its timers \(weight time 1\).*LAMMPS' own counts will differ" -- "$HG" decompose --packing "$D/pour_poly.data" --boundary "p p fm" --mpi 4 --setting "fix b all balance 1000 1.1 shift z 20 1.1 weight time 1.0"

# bad input: one line, exit 2
expect_fail 2 'needs --mpi' -- "$HG" decompose --packing "$D/pour_poly.data" --boundary "p p fm"
expect_fail 2 'mpi' -- "$HG" decompose --packing "$D/pour_poly.data" --mpi 0
expect_fail 2 'comm_style tiled' -- "$HG" decompose --packing "$D/pour_poly.data" --boundary "p p fm" --mpi 4 --setting "balance 1.0 rcb"
expect_fail 2 'LIGGGHTS 3.8 has no balance' -- "$HG" decompose --packing "$D/pour_poly.data" --boundary "p p fm" --mpi 4 --engine liggghts --setting "balance 1.0 shift x 10 1.0"
expect_fail 2 '^hgridopt: --decomposition: processors 3 3 3: no grid of 8 ranks' -- "$HG" recommend --trajectory "$T" --engine lammps --log "$L" --mpi 8 --decomposition "processors 3 3 3"
expect_fail 2 "shift axes 'z'" -- "$HG" decompose --packing "$D/pour2d.data" --boundary "f fm p" --mpi 4 --setting "balance 1.0 shift z 10 1.0"
finish
