#!/usr/bin/env bash
# Golden tests: run every example system end to end in every output format
# and compare with tests/golden/<example>.<command>.<format> (numbers within
# a relative tolerance of 1e-6, or the one after '@' in the case name). HG_UPDATE_GOLDEN=1 rewrites the golden files.
. "$(dirname "$0")/cli_lib.sh"
CMP=${3:?golden_compare}
# the LAMMPS answers use the shipped constants, not a stored calibration
export HGRIDOPT_LAMMPS_CALIBRATION=/nonexistent/hgridopt-lammps.json
# the scalar pair loop and its shipped K (0.8 in 3D) on every processor:
# the AVX2 loop's K (2.1) applies only where the processor has AVX2
# (cli_opt checks the default on such a processor)
export HGRIDOPT_SIMD=0
G="$SRC/tests/golden"
mkdir -p "$G"

# name|command and options (run from the source folder)
cases=()
while IFS= read -r line; do
    case "$line" in ''|'#'*) continue ;; esac
    cases+=("$line")
done < "$SRC/tests/golden/cases.txt"

cd "$SRC"
for c in "${cases[@]}"; do
    name=${c%%|*}
    cmd=${c#*|}
    tol=1e-6
    case "$name" in *@*) tol=${name#*@}; name=${name%@*} ;; esac
    if ! eval "\"\$HG\" $cmd" > "$TMP/out" 2> "$TMP/err"; then
        bad "$name: '$cmd' failed: $(cat "$TMP/err")"
        continue
    fi
    if [ "${HG_UPDATE_GOLDEN:-}" = 1 ]; then
        cp "$TMP/out" "$G/$name"
        ok
    elif [ ! -f "$G/$name" ]; then
        bad "$name: no golden file $G/$name (run with HG_UPDATE_GOLDEN=1)"
    elif "$CMP" "$G/$name" "$TMP/out" "$tol"; then
        ok
    else
        bad "$name: output differs from $G/$name"
    fi
done
finish
