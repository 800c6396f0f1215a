#!/usr/bin/env bash
# LAMMPS constants on a small grid (label slow, lammps): calibrate --engine
# lammps on two RSA packings (power law 3D, log-normal 3D; 8000 atoms), then
# validate --engine lammps on both with the fitted constants. Tolerances:
# the model's Neigh time per build of the recommended setting and of bin
# within [1/3, 3] x lmp's, and the predicted ratio recommended / bin
# within a factor 2 of the measured one (both settings measured in one lmp
# run, alternating, so the machine's load cancels). Wide because the
# development machine is shared: there one setting's repeats spread up to
# 2.5x (min-max) and its median moved 2.6x between two runs a minute apart.
. "$(dirname "$0")/cli_lib.sh"
command -v lmp >/dev/null 2>&1 || { bad "lmp not available"; finish; exit 1; }
export HGRIDOPT_LAMMPS_CALIBRATION="$TMP/lammps.json"
"$HG" pack --psd powerlaw:alpha=-3,omega=20 --dim 3 --nu 0.4 --n 8000 \
    --generator rsa --output "$TMP/pl.data" 2> /dev/null
"$HG" pack --psd "lognormal:median=1,sigma=0.5,qmin=0.01,qmax=0.99" --dim 3 \
    --nu 0.4 --n 8000 --generator rsa --output "$TMP/ln.data" 2> /dev/null
if "$HG" calibrate --engine lammps --packing "$TMP/pl.data,$TMP/ln.data" \
        --steps 10 --repeats 3 --save > "$TMP/cal" 2> "$TMP/cal.err" &&
    [ -f "$HGRIDOPT_LAMMPS_CALIBRATION" ] && grep -q "R^2" "$TMP/cal"; then
    ok
    cat "$TMP/cal"
else
    bad "calibrate --engine lammps: $(cat "$TMP/cal.err")"
fi
for f in pl ln; do
    if ! "$HG" validate --engine lammps --packing "$TMP/$f.data" --steps 20 \
            --repeats 5 --format json > "$TMP/val.json" 2> "$TMP/val.err"; then
        bad "validate $f: $(cat "$TMP/val.err")"
        continue
    fi
    jq -e '.constants | test("stored calibration")' "$TMP/val.json" > /dev/null ||
        bad "validate $f did not use the stored constants"
    # role, measured, predicted of each setting (hgridopt.engine-run/1)
    jq -r '.points[] | [(.role | gsub(" "; "_")), .measured_ms, .predicted_ms] | @tsv' \
        "$TMP/val.json" | tr '\t' ' ' > "$TMP/rows"
    cat "$TMP/rows"
    while read -r role m p; do
        case "$role" in recommended|bin) ;; *) continue ;; esac
        if awk -v m="$m" -v p="$p" 'BEGIN { r = p / m; exit !(r >= 1 / 3 && r <= 3) }'; then
            ok
        else
            bad "$f $role: predicted $p ms, measured $m ms (outside [1/3, 3])"
        fi
    done < "$TMP/rows"
    # recommended / bin, predicted against measured (bin is absent when
    # it is the recommendation: nothing to compare)
    if grep -q "^bin " "$TMP/rows"; then
        if awk '$1 == "recommended" { rm = $2; rp = $3 } $1 == "bin" { bm = $2; bp = $3 }
            END { q = (rp / bp) / (rm / bm); exit !(q >= 0.5 && q <= 2) }' "$TMP/rows"; then
            ok
        else
            bad "$f: predicted recommended/bin differs from the measured one by more than 2x"
        fi
    fi
done
finish
