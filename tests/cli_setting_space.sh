#!/usr/bin/env bash
# One setting space for a frame and a run (issue 48, item 3): a frame given
# as --packing and the same frame as a run (two frames a step apart: the
# second moves one atom by 0.8, over half of every skin given, so the run
# has one build for every setting and its choice at the given skin is the
# frame's) give the same neighbor lines
# for LAMMPS (bins of one cutoff on a frame of LAMMPS' pour example with
# radii 0.125..1; multi with the model's cutoffs on a bidisperse packing of
# size ratio 20) and LIGGGHTS; the JSON of the frame's answer lists every
# setting weighed; the JSON of every engine carries its settings lines.
. "$(dirname "$0")/cli_lib.sh"
export HGRIDOPT_LAMMPS_CALIBRATION="$TMP/no-lammps.json"
export HGRIDOPT_LAMMPS_PAIR_CALIBRATION="$TMP/no-lammps-pair.json"
export HGRIDOPT_LIGGGHTS_CALIBRATION="$TMP/no-liggghts.json"
export HGRIDOPT_LIGGGHTS_PAIR_CALIBRATION="$TMP/no-liggghts-pair.json"
export HGRIDOPT_MERCURYDPM_CALIBRATION="$TMP/no-mercurydpm.json"

# the second frame of pour_poly.dump (1840 atoms; the first is empty)
awk '/^ITEM: TIMESTEP/ { f++ } f == 2' \
    "$SRC/tests/data/files/lammps/pour_poly.dump" > "$TMP/pour.dump"
# a bidisperse packing (radii 0.05 and 1, 1 % large) as a dump
"$HG" pack --generator poisson --dim 3 --nu 0.1 --n 500 --seed 2 \
    --psd "discrete:r=0.05;1,frac=0.99;0.01,basis=number" --format csv \
    2>/dev/null | awk '
    /^# box/ { print "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\nN"
               print "ITEM: BOX BOUNDS pp pp pp"
               print $3, $4; print $5, $6; print $7, $8
               print "ITEM: ATOMS id type radius x y z"; next }
    /^x,y,z,r/ { next }
    { split($0, v, ","); printf "%d 1 %s %s %s %s\n", ++n, v[4], v[1], v[2], v[3] }
    END { }' > "$TMP/bi.tmp"
n=$(($(wc -l < "$TMP/bi.tmp") - 9))
sed "4s/N/$n/" "$TMP/bi.tmp" > "$TMP/bi.dump"

# frame f as a run of two frames: step + 1, the first atom's x + 0.8
as_run() {
    awk '/^ITEM: ATOMS/ { print; a = 1; next }
         a == 1 { $4 = $4 + 0.8; a = 2 }
         NR == 2 { print $1 + 1; next } { print }' "$1" > "$TMP/next.dump"
    cat "$1" "$TMP/next.dump" > "$2"
}
as_run "$TMP/pour.dump" "$TMP/pour_run.dump"
as_run "$TMP/bi.dump" "$TMP/bi_run.dump"

# the neighbor lines (the run's also sets delay/every/check and undoes a
# mode multi of an earlier phase: not part of the setting)
lines() {
    "$HG" "$@" 2>"$TMP/err" | grep -v '^#' |
        grep -v -e 'neigh_modify delay' -e 'comm_modify mode single'
}
same() { # ENGINE FRAME RUN SKIN WANT
    local a b
    a=$(lines recommend --packing "$2" --engine "$1" --skin "$4" --format "$1")
    b=$(lines recommend --trajectory "$3" --engine "$1" --skin "$4" \
        --min-gain 0 --format "$1")
    if [ -z "$a" ] || [ "$a" != "$b" ]; then
        bad "$1 $(basename "$2") skin $4: frame [$a] != run [$b]"
    elif ! printf '%s\n' "$a" | grep -Eq -- "$5"; then
        bad "$1 $(basename "$2") skin $4: [$a] does not match /$5/"
    else
        ok
    fi
}
same lammps "$TMP/pour.dump" "$TMP/pour_run.dump" 0.1 '^neigh_modify binsize 2\.1$'
same lammps "$TMP/pour.dump" "$TMP/pour_run.dump" 1.5 '^neighbor 1\.5 bin$'
same lammps "$TMP/bi.dump" "$TMP/bi_run.dump" 0.02 '^neigh_modify collection/interval 2 '
same lammps "$TMP/bi.dump" "$TMP/bi_run.dump" 0.2 '^neigh_modify collection/interval 2 '
same liggghts "$TMP/pour.dump" "$TMP/pour_run.dump" 0.1 '^neigh_modify binsize '
same liggghts "$TMP/bi.dump" "$TMP/bi_run.dump" 0.2 '^neighbor 0\.2 bin$'

# the frame's answer in words and JSON: every setting weighed, the bin
# size of the answer
expect_ok '^decision: +use bin \(bins of 2\.1\): predicted' -- \
    "$HG" recommend --packing "$TMP/pour.dump" --engine lammps --skin 0.1
expect_ok '^ +[0-9.e+-]+ +bin, bins of one cutoff: bin \(bins of 2\.1\)$' -- \
    "$HG" recommend --packing "$TMP/pour.dump" --engine lammps --skin 0.1
if "$HG" recommend --packing "$TMP/pour.dump" --engine lammps --skin 0.1 \
    --format json > "$TMP/l.json" 2> "$TMP/err" &&
    python3 - "$TMP/l.json" << 'PY'
import json, sys
j = json.load(open(sys.argv[1]))
w = j["weighed"]
assert j["answer"] == {"style": "bin", "collections": 0, "binsize": 2.1}, j["answer"]
assert [x["setting"] for x in w][:2] == ["bin", "bin, bins of one cutoff: bin (bins of 2.1)"]
assert min(x["predicted_neigh_ms"] for x in w) == j["predicted_neigh_ms"]
assert w[0]["predicted_neigh_ms"] == j["bin_neigh_ms"]
assert any(x["style"] == "multi" for x in w)
assert "neigh_modify binsize 2.1" in j["settings"], j["settings"]
PY
then ok; else bad "recommend --engine lammps --format json: $(cat "$TMP/err")"; fi

# the JSON of every engine with a settings format carries its lines (the
# bundled HGrid's settings are its cell sizes)
for g in lammps liggghts mercurydpm; do
    if "$HG" recommend --packing "$TMP/pour.dump" --engine $g --skin 0.1 \
        --format json > "$TMP/$g.json" 2> "$TMP/err" &&
        python3 -c '
import json, sys
s = json.load(open(sys.argv[1])).get("settings")
assert isinstance(s, list) and s and all(isinstance(x, str) for x in s), s
' "$TMP/$g.json"; then ok; else bad "--engine $g --format json: no settings lines $(cat "$TMP/err")"; fi
done
expect_ok '"cell_sizes"' -- "$HG" recommend --packing "$TMP/pour.dump" --engine hgrid --format json
finish
