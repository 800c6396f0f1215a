#!/usr/bin/env bash
# Progress on standard error when it is a terminal (pack, validate,
# calibrate, bench), nothing when it is not. `script` gives the command a
# terminal; HGRIDOPT_PROGRESS_DELAY=0 shows progress from the start.
. "$(dirname "$0")/cli_lib.sh"
P="--psd powerlaw:alpha=-3,omega=10 --dim 3 --nu 0.3"
command -v script >/dev/null || { echo "script(1) missing"; exit 1; }
export HGRIDOPT_PROGRESS_DELAY=0
runs=(
    "pack $P --n 3000 --generator rsa --output $TMP/p.csv"
    "validate $P --n 20000 --repeats 2 --output $TMP/v.txt"
    "calibrate $P --n 20000 --max-levels 2 --repeats 1 --output $TMP/c.txt"
    "bench $P --n 3000 --methods lc,hgrid --repeats 2 --output $TMP/b.txt"
    "recommend --packing $SRC/tests/data/files/lammps/pour_poly.dump.gz --output $TMP/r.txt"
)
for r in "${runs[@]}"; do
    cmd=${r%% *}
    # on a terminal: a progress line reaching 100 %
    out=$(script -qec "$HG $r" /dev/null 2>&1 | tr '\r' '\n')
    if grep -q "too noisy" <<<"$out"; then
        ok # calibrate refused a noisy fit; progress was still shown or not
    elif grep -qE '100\.0%' <<<"$out"; then
        ok
    else
        bad "$cmd on a terminal showed no progress: $out"
    fi
    # not a terminal: nothing on stderr
    "$HG" $r 2>"$TMP/err" >/dev/null || true
    if grep -qE '[0-9]%' "$TMP/err"; then
        bad "$cmd printed progress when stderr is not a terminal"
    else
        ok
    fi
done
finish
