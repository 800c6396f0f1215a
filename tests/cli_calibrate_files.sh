#!/usr/bin/env bash
# calibrate --engine lammps|liggghts --packing A,B: the user's files are
# priced with their own pair statistics (structure measured), as the advice
# prices them. Two frames of one dump with the same atoms, radii and box
# but a different arrangement (falling against settled) must get a
# different predicted build at the same setting; priced as uniformly
# random centres, they got the same one. Short runs (one repeat, few
# steps; enough that the pair fit sees Pair grow with the stored pairs):
# the timings are not judged here, only the model beside them.
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

# differ JSON ROLE_A ROLE_B: the first point of each system (its first
# setting, the same in both) predicted more than 2 % apart
differ() {
    jq -e --arg a "$2" --arg b "$3" '
        def first(r): [.points[] | select(.role == r)][0];
        (first($a).setting == first($b).setting) and
        ((first($a).predicted_ms / first($b).predicted_ms - 1) | fabs > 0.02)' \
        "$1" > /dev/null
}

if command -v lmp > /dev/null; then
    # LAMMPS' pour: just inserted (step 250) and piled (step 2500), 460 atoms
    frame "$F/lammps/pour_traj.dump" 250 > "$TMP/a.dump"
    frame "$F/lammps/pour_traj.dump" 2500 > "$TMP/b.dump"
    if "$HG" calibrate --engine lammps --packing "$TMP/a.dump,$TMP/b.dump" \
            --steps 20 --repeats 1 --format json > "$TMP/lmp.json" 2> "$TMP/err"; then
        ok
        if differ "$TMP/lmp.json" "system 1" "system 2"; then ok; else
            bad "calibrate --engine lammps: a falling and a piled frame got the same prediction: $(jq -c '[.points[] | [.role, .setting, .predicted_ms]][0,8]' "$TMP/lmp.json")"
        fi
    else
        bad "calibrate --engine lammps: $(tail -1 "$TMP/err")"
    fi
else
    bad "lmp not found (apt-get install lammps)"
fi

if command -v liggghts > /dev/null; then
    # the LIGGGHTS pour: 2000 atoms falling (step 10000) and settled (40000)
    frame "$F/liggghts/pour_wide.dump" 10000 > "$TMP/c.dump"
    frame "$F/liggghts/pour_wide.dump" 40000 > "$TMP/d.dump"
    if "$HG" calibrate --engine liggghts --packing "$TMP/c.dump,$TMP/d.dump" \
            --skin 0.0005 --steps 5 --repeats 1 --format json \
            > "$TMP/lig.json" 2> "$TMP/err"; then
        ok
        # LIGGGHTS' points carry no system role: the first of each half
        n=$(jq '.points | length' "$TMP/lig.json")
        if jq -e --argjson h "$((n / 2))" '
                (.points[0].setting == .points[$h].setting) and
                ((.points[0].predicted_ms / .points[$h].predicted_ms - 1)
                 | fabs > 0.02)' "$TMP/lig.json" > /dev/null; then
            ok
        else
            bad "calibrate --engine liggghts: a falling and a settled frame got the same prediction: $(jq -c "[.points[0], .points[$((n / 2))]] | map([.setting, .predicted_ms])" "$TMP/lig.json")"
        fi
    else
        bad "calibrate --engine liggghts: $(tail -1 "$TMP/err")"
    fi
else
    bad "liggghts not found (apt-get install liggghts)"
fi
finish
