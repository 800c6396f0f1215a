#!/usr/bin/env bash
# One K per target, whatever the command: evaluate and recommend state the
# same K with the same source in every format (table "K = V (SOURCE, for
# TARGET)", JSON K_choice, the "K V" and "K from SOURCE, for TARGET:
# DETAIL" comment lines of the lammps and mercurydpm exports), for every
# source (shipped default, --K X, --K paper, --K shipped, the system file,
# the calibration file). Issue 25: evaluate --format mercurydpm exported
# the bundled HGrid's 0.8 without a source where recommend exported 0.2.
. "$(dirname "$0")/cli_lib.sh"
P="--psd powerlaw:alpha=-3,omega=20 --dim 3 --nu 0.4"
printf '{"schema": "hgridopt.system/1", "dim": 3, "nu": 0.4, "K": 0.65, "distribution": "powerlaw:alpha=-3,omega=20"}' > "$TMP/sys.json"
printf '{"schema": "hgridopt.calibration/2", "calibrations": {"3": {"K": 1.7, "dim": 3, "created": "2026-01-01T00:00:00Z", "machine": "test", "build": "test"}}}' > "$TMP/cal.json"

# K and its one-line source of an output: "K=V;SOURCE, for TARGET: DETAIL"
k_table() { # table: "K = V (SOURCE, for the TARGET)" and "K from: DETAIL"
    awk '/^dim [23], nu = /{ sub(/.*K = /, ""); v = $1; sub(/^[^(]*\(/, ""); sub(/\)$/, ""); s = $0 }
         /^K from: /{ sub(/^K from: +/, ""); d = $0 }
         END { print "K=" v ";" s ": " d }'
}
k_json() {
    jq -r '"K=\(.K);\(.K_choice.source), for \(if .K_choice.target == "bundled HGrid" then "the " else "" end)\(.K_choice.target): \(.K_choice.detail)"'
}
k_export() { # "// dim 3, nu 0.4, K V; ..." and "// K from NOTE"
    awk '/^(\/\/|#) dim [23], nu /{ sub(/.*, K /, ""); sub(/;.*/, ""); v = $0 }
         /^(\/\/|#) K from /{ sub(/^(\/\/|#) K from /, ""); s = $0 }
         END { print "K=" v ";" s }'
}
# same K in JSON and table numbers: compare values numerically
same_k() { # two "K=V;..." lines: same value (6 digits) and the same text
    local a=$1 b=$2 va vb
    va=${a%%;*}; vb=${b%%;*}
    [ "$(printf '%.5g' "${va#K=}")" = "$(printf '%.5g' "${vb#K=}")" ] &&
        [ "${a#*;}" = "${b#*;}" ]
}

for src in default "--K 0.45" "--K paper" "--K shipped" system calibration; do
    case $src in
    default) A="$P"; ENV=() ;;
    system) A="--system $TMP/sys.json"; ENV=() ;;
    calibration) A="$P"; ENV=(env HGRIDOPT_CALIBRATION="$TMP/cal.json") ;;
    *) A="$P $src"; ENV=() ;;
    esac
    et=$("${ENV[@]}" $HG evaluate $A --sizes 4,40 | k_table)
    ej=$("${ENV[@]}" $HG evaluate $A --sizes 4,40 --format json | k_json)
    rt=$("${ENV[@]}" $HG recommend $A | k_table)
    rj=$("${ENV[@]}" $HG recommend $A --format json | k_json)
    em=$("${ENV[@]}" $HG evaluate $A --sizes 4,40 --format mercurydpm | k_export)
    rm_=$("${ENV[@]}" $HG recommend $A --format mercurydpm | k_export)
    el=$("${ENV[@]}" $HG evaluate $A --sizes 4,40 --format lammps | k_export)
    rl=$("${ENV[@]}" $HG recommend $A --format lammps --model kol | k_export)
    # table and JSON of both commands: one K, one source (the bundled HGrid)
    for x in "$ej" "$rt" "$rj"; do
        same_k "$et" "$x" && ok || bad "[$src] table/json differ: '$et' vs '$x'"
    done
    [[ $et == *"for the bundled HGrid: "* ]] && ok || bad "[$src] table target: $et"
    # the MercuryDPM exports of both commands: the same K and source
    same_k "$em" "$rm_" && ok || bad "[$src] mercurydpm: evaluate '$em' vs recommend '$rm_'"
    [[ $em == *"for MercuryDPM: "* ]] && ok || bad "[$src] mercurydpm target: $em"
    # the LAMMPS exports of the KOL levels: the same K and source, the
    # value and detail of the bundled HGrid's
    same_k "$el" "$rl" && ok || bad "[$src] lammps: evaluate '$el' vs recommend '$rl'"
    [[ $el == *"for LAMMPS: "* ]] && ok || bad "[$src] lammps target: $el"
    [ "${el%%;*}" = "K=$(printf '%.4g' "$(sed 's/^K=\([^;]*\);.*/\1/' <<<"$et")")" ] &&
        [ "${el#*: }" = "${et#*: }" ] && ok || bad "[$src] lammps '$el' is not the bundled HGrid's '$et'"
    # a K chosen by the user (--K X or paper, the system file) is the same
    # for every target; otherwise (and for --K shipped) MercuryDPM gets the
    # K fitted in MercuryDPM, whatever the bundled HGrid's file says
    case $src in
    default | calibration | "--K shipped") ;;
    *)
        [ "${em%%;*}" = "${el%%;*}" ] && [ "${em#*: }" = "${et#*: }" ] && ok ||
            bad "[$src] a given K differs by target: '$em' '$et'" ;;
    esac
    case $src in
    default | calibration | "--K shipped")
        [[ $em == "K="*";shipped-default, for MercuryDPM: shipped default for MercuryDPM in 3D"* ]] && ok ||
            bad "[$src] mercurydpm K is not the shipped MercuryDPM fit: $em" ;;
    esac
done
# the sources named as they are
expect_ok "^dim 3, nu = 0.4, K = 0.65 \(system-file, for the bundled HGrid\)$" -- $HG evaluate --system "$TMP/sys.json" --sizes 4,40
expect_ok "^// K from shipped-default, for MercuryDPM: shipped default for MercuryDPM" -- env HGRIDOPT_CALIBRATION="$TMP/cal.json" $HG evaluate $P --sizes 4,40 --format mercurydpm
# MercuryDPM's own stored calibration (calibrate --engine mercurydpm --save)
expect_ok "^// K from calibration-file, for MercuryDPM: calibration file .*cal.json, 3D" -- env HGRIDOPT_MERCURYDPM_CALIBRATION="$TMP/cal.json" $HG evaluate $P --sizes 4,40 --format mercurydpm
expect_ok "^// K from shipped-default, for MercuryDPM: .*no calibration file" -- env HGRIDOPT_MERCURYDPM_CALIBRATION="$TMP/none.json" $HG recommend $P --format mercurydpm
expect_ok "^# K from calibration-file, for LAMMPS: calibration file .*cal.json, 3D" -- env HGRIDOPT_CALIBRATION="$TMP/cal.json" $HG evaluate $P --sizes 4,40 --format lammps
finish
