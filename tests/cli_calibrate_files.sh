#!/usr/bin/env bash
# calibrate --engine lammps|liggghts --packing A,B: the user's files are
# priced with their own pair statistics (structure measured), as the advice
# prices them. Two frames of one dump with the same atoms, radii and box
# but a different arrangement (falling against settled) must be seen by
# the model as different: the neighbour pairs it expects on each
# (model_found) differ; priced as uniformly random centres, they were the
# same. Short runs (one repeat, few steps; enough that the pair fit sees
# Pair grow with the stored pairs): the timings are not judged here, only
# the model beside them. One file is too few for LIGGGHTS' fit, and says
# so before anything runs.
. "$(dirname "$0")/cli_lib.sh"
export HGRIDOPT_LAMMPS_CALIBRATION="$TMP/no-lammps.json"
export HGRIDOPT_LAMMPS_PAIR_CALIBRATION="$TMP/no-lammps-pair.json"
export HGRIDOPT_LIGGGHTS_CALIBRATION="$TMP/no-liggghts.json"
export HGRIDOPT_LIGGGHTS_PAIR_CALIBRATION="$TMP/no-liggghts-pair.json"
F=$SRC/tests/data/files

# frame DUMP STEP: the frame of STEP alone, on stdout
frame() {
    awk -v want="$2" '/^ITEM: TIMESTEP/ { getline s; on = (s + 0 == want)
        if (on) print "ITEM: TIMESTEP\n" s; next } on' "$1"
}

# differ JSON N: the points of the first system (the first N) and those of
# the second (the next N), the same settings in the same order, and the
# neighbour pairs the model expects (model_found, which does not depend on
# the timings or the fitted constants) more than 5 % apart; beside them
# the pairs the code found, which tell the two frames apart
differ() {
    jq -e --argjson n "$2" '
        .points as $p | ($p | length) == 2 * $n and
        ([range($n) | select($p[.].setting == $p[. + $n].setting)] | length) == $n and
        ($p[0].found != $p[$n].found) and
        (($p[0].model_found / $p[$n].model_found - 1) | fabs > 0.05)' "$1" > /dev/null
}

# cal OUT ARGS...: calibrate ARGS into OUT; once more when the pair fit
# alone failed (a few steps on a loaded machine can hide Pair's growth
# with the stored pairs; not what this test is about)
cal() {
    local out=$1
    shift
    "$HG" calibrate "$@" --format json > "$out" 2> "$TMP/err" && return 0
    grep -q "pair fit" "$TMP/err" || return 1
    echo "note: $(tail -1 "$TMP/err"); once more"
    "$HG" calibrate "$@" --format json > "$out" 2> "$TMP/err"
}

# show JSON: role, setting, predicted of every point, for a failure
show() { jq -c '[.points[] | [.role, .found, .model_found]] | unique' "$1"; }

# check ENGINE WHAT A B OPTIONS...: calibrate ENGINE on frames A and B;
# the model must tell them apart (differ), WHAT names them for a failure
check() {
    local eng=$1 what=$2 a=$3 b=$4
    shift 4
    if ! cal "$TMP/$eng.json" --engine "$eng" --packing "$a,$b" "$@"; then
        bad "calibrate --engine $eng: $(tail -1 "$TMP/err")"
        return
    fi
    ok
    if differ "$TMP/$eng.json" "$(jq '.points | length / 2' "$TMP/$eng.json")"; then
        ok
    else
        bad "calibrate --engine $eng: the model expects the same neighbour pairs on $what ([role, found, model_found]): $(show "$TMP/$eng.json")"
    fi
}

if command -v lmp > /dev/null; then
    # LAMMPS' pour: 3000 atoms just poured (step 20000) and settled (50000)
    frame "$F/lammps/pour_poly.dump" 20000 > "$TMP/a.dump"
    # the settled frame in the taller box of the poured one (fm: LAMMPS
    # shrink-wraps the top), so that only the arrangement differs
    frame "$F/lammps/pour_poly.dump" 50000 | awk -v box="$(sed -n 6,8p "$TMP/a.dump")" '
        /^ITEM: BOX BOUNDS/ { print; print box; skip = 3; next }
        skip > 0 { skip--; next } { print }' > "$TMP/b.dump"
    check lammps "a poured and a settled frame" "$TMP/a.dump" "$TMP/b.dump" \
        --steps 10 --repeats 1
else
    bad "lmp not found (apt-get install lammps)"
fi

# one file is too few for LIGGGHTS' fit: said at once, before any run
expect_fail 2 "^hgridopt: --packing: calibrate --engine liggghts needs two or more files \(--packing A,B" \
    -- "$HG" calibrate --engine liggghts --packing "$F/liggghts/pour_wide.dump" --skin 0.0005

if command -v liggghts > /dev/null; then
    # the LIGGGHTS pour: 2000 atoms falling (step 10000) and settled (40000)
    frame "$F/liggghts/pour_wide.dump" 10000 > "$TMP/c.dump"
    frame "$F/liggghts/pour_wide.dump" 40000 > "$TMP/d.dump"
    check liggghts "a falling and a settled frame" "$TMP/c.dump" "$TMP/d.dump" \
        --skin 0.0005 --steps 10 --repeats 1
else
    bad "liggghts not found (apt-get install liggghts)"
fi
finish
