#!/usr/bin/env bash
# cli_calibrate_comm.sh HGRIDOPT SRC - `calibrate --engine lammps|liggghts
# --mpi 2`: the cost of a ghost atom measured in the code on 2 ranks, saved
# beside the other constants, and read back by `decompose` (its constants
# line names the file); a bad file refused by name. Timings here are not
# checked (the machine may be loaded): only that the fit ran on the code's
# own ghost counts and was stored. Label slow (~1.5 min: the neighbour
# calibration runs too).
. "$(dirname "$0")/cli_lib.sh"
D=$SRC/tests/data/files/lammps
F="$D/funnel_discharging.data,$D/flatwall.data"
for code in lammps liggghts; do
    exe=lmp
    [ $code = liggghts ] && exe=liggghts
    if ! command -v $exe > /dev/null || ! command -v mpirun > /dev/null; then
        bad "$exe and mpirun are test packages (examples/packages.txt)"
        continue
    fi
    # the neighbour and pair fits of so few steps may be refused on a
    # loaded machine (a timing fit), as may the ghosts' slope: one retry, as
    # cli_calibrate_files
    ran=0
    for try in 1 2; do
        if "$HG" calibrate --engine $code --mpi 2 --packing "$F" --steps 5 \
            --repeats 1 --save --file "$TMP/$code.json" --format json \
            > "$TMP/$code.out" 2> "$TMP/$code.err"; then
            ran=1
            break
        fi
        grep -q -e 'fit' -e 'did not grow' "$TMP/$code.err" || break
        echo "cli_calibrate_comm: $code try $try: $(tail -n 1 "$TMP/$code.err"); again" >&2
    done
    [ $ran = 1 ] ||
        { bad "calibrate --engine $code --mpi 2 failed: $(tail -n 2 "$TMP/$code.err")"; continue; }
    python3 - "$TMP/$code.out" "$TMP/$code-comm.json" "$code" << 'PY' && ok || bad "$code: the communication fit is not in the report or its file"
import json, sys
r = json.load(open(sys.argv[1]))
c = json.load(open(sys.argv[2]))
assert "Communication on 2 ranks" in r["fitted"], r["fitted"]
assert sys.argv[2] in r["saved"], r["saved"]
assert c["schema"] == f"hgridopt.{sys.argv[3]}-comm-calibration/1", c
assert c["constants"]["ghost_step"] > 0 and c["points"] == 10, c
assert c["created"].startswith("20") and "2 ranks" in c["machine"], c
PY
    up=$(echo $code | tr a-z A-Z)
    env "HGRIDOPT_${up}_COMM_CALIBRATION=$TMP/$code-comm.json" \
        "$HG" decompose --packing "$D/pour_poly.data" --boundary "p p fm" \
        --mpi 4 --skin 0.2 --engine $code > "$TMP/$code.dec" &&
        grep -q "^constants: .*measured on .*$TMP/$code-comm.json" "$TMP/$code.dec" &&
        ok || bad "decompose --engine $code does not use the stored communication constants"
done
# the shipped values when no file is stored, said so for LIGGGHTS
expect_ok 'communication of LIGGGHTS not measured here' -- "$HG" decompose --packing "$D/pour_poly.data" --boundary "p p fm" --mpi 4 --skin 0.2 --engine liggghts
echo '{"schema": "something else"}' > "$TMP/bad.json"
HGRIDOPT_LAMMPS_COMM_CALIBRATION="$TMP/bad.json" expect_fail 2 'bad.json: schema is not hgridopt.lammps-comm-calibration/1' -- "$HG" decompose --packing "$D/pour_poly.data" --boundary "p p fm" --mpi 4 --skin 0.2
finish
