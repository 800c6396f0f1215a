#!/usr/bin/env bash
# run_examples.sh HG SRC - hgridopt run against plain `lmp` on LAMMPS' own
# examples of atoms with radii that the granular benchmark does not run
# (Debian's lammps-examples, as written, nothing added): the same thermo
# rows (steps, atoms), dumps and steps (tests/run_lib.sh's same_run), the
# same exit status and, where LAMMPS stops, its same ERROR line; and
# what each one shows, in the report (comm_modify reduce/multi: only multi
# lines weighed; neigh_modify include and exclude, thermo 0: runs left
# whole; a 2D bed in a z box from 0 to 1). Segments of at least 100
# steps (--min-steps 100), so that short runs split too. On 2 ranks as
# well where mpirun is found. RUN_EXAMPLES=all adds the long ones (the
# mixer, ASPHERE's poly, star and dimer, which LAMMPS stops with lost
# atoms: about 12 minutes more). Needs lmp, lammps-examples and a build
# with liblammps (skipped otherwise, exit 77).
set -uo pipefail
HG=$(realpath "$1")
SRC=$2
. "$SRC/tests/run_lib.sh"
EX=${LAMMPS_EXAMPLES:-/usr/share/lammps/examples}
command -v lmp > /dev/null || { echo "skipped: lmp not found"; exit 77; }
[ -d "$EX/multi" ] || { echo "skipped: $EX not found (apt-get install lammps-examples)"; exit 77; }
"$HG" run --engine lammps /dev/null > /dev/null 2>&1 || { echo "skipped: a build without liblammps"; exit 77; }
# as cli_run: no leak check of a process that ran LAMMPS and MPI
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

# "folder input ranks regex-the-report-must-show"
cases=(
    "multi in.granular 1 ^note: line [0-9]+: comm_modify reduce/multi stays set"
    "multi in.granular 2 ^note: line [0-9]+: comm_modify reduce/multi stays set"
    "multi in.powerlaw 2 ^note: step 100: the box is tilted"
    "dipole in.dipole 1 ^hgridopt run: in.dipole on 1 rank: 1 run \\(1 split\\)"
    "dipole in.dipole 2 ^hgridopt run: in.dipole on 2 ranks: 1 run \\(1 split\\)"
    "colloid in.colloid 1 ^hgridopt run: in.colloid on 1 rank: 1 run \\(1 split\\)"
    "granregion in.granregion.box 1 ^hgridopt run: in.granregion.box on 1 rank: 5 runs \\(5 split\\)"
    "pour in.pour.2d.molecule 1 ^hgridopt run: in.pour.2d.molecule on 1 rank: 1 run \\(1 split\\)"
    "rigid in.rigid.gravity 1 unsplit: neigh_modify exclude"
    "srd in.srd.mixture 1 unsplit: thermo 0 prints"
    "ASPHERE/box in.box 1 unsplit: neigh_modify include big \\(line [0-9]+\\): the lists hold that group's atoms only"
)
if [ "${RUN_EXAMPLES:-}" = all ]; then
    cases+=(
        "granregion in.granregion.mixer 1 ^hgridopt run: in.granregion.mixer on 1 rank: 2 runs \\(2 split\\)"
        "ASPHERE/poly in.poly 1 unsplit: neigh_modify include big"
        "ASPHERE/star in.star 1 unsplit: neigh_modify include big"
        "ASPHERE/dimer in.dimer 1 ^ERROR: Lost atoms"
    )
fi
MPI=()
command -v mpirun > /dev/null && MPI=(mpirun --allow-run-as-root --oversubscribe -np 2)
for c in "${cases[@]}"; do
    read -r dir in ranks want <<< "$c"
    [ "$ranks" = 2 ] && [ ${#MPI[@]} = 0 ] && { echo "skipped: $dir/$in on 2 ranks (mpirun not found)"; continue; }
    launch=()
    [ "$ranks" = 2 ] && launch=("${MPI[@]}")
    name="$(echo "$dir" | tr / _)_${in}_$ranks"
    P=$TMP/$name/plain R=$TMP/$name/run
    mkdir -p "$P" "$R"
    cp -a "$EX/$dir/." "$P/" && cp -a "$EX/$dir/." "$R/"
    (cd "$P" && "${launch[@]}" lmp -in "$in" > screen 2>&1) && prc=0 || prc=$?
    (cd "$R" && "${launch[@]}" "$HG" run --engine lammps "$in" --min-steps 100 --report report > screen 2> err) && rrc=0 || rrc=$?
    if { [ "$prc" = 0 ] && [ "$rrc" = 0 ]; } || { [ "$prc" != 0 ] && [ "$rrc" != 0 ]; }; then
        ok
    else
        bad "$dir/$in on $ranks: lmp exit $prc, hgridopt run exit $rrc: $(tail -2 "$R/err" "$R/screen")"
    fi
    why=$(same_run "$P" "$R")
    [ -z "$why" ] && ok || bad "$dir/$in on $ranks: $why"
    if [ "$prc" != 0 ]; then
        pe=$(grep -m1 "^ERROR" "$P/screen" | sed 's/ (src.*//') re=$(grep -m1 "^ERROR" "$R/screen" | sed 's/ (src.*//')
        [ -n "$pe" ] && [ "$pe" = "$re" ] && ok || bad "$dir/$in on $ranks: LAMMPS stopped with '$pe', hgridopt run with '$re'"
        grep -Eq "$want" "$R/screen" && ok || bad "$dir/$in on $ranks: no '$want' on the screen"
    else
        grep -Eq "$want" "$R/report" && ok || bad "$dir/$in on $ranks: no '$want' in the report: $(grep -E '^(hgridopt|note)' "$R/report")"
        grep -q "no advice" "$R/report" && bad "$dir/$in on $ranks: $(grep 'no advice' "$R/report")" || ok
    fi
    echo "$dir/$in on $ranks rank(s): lmp exit $prc, hgridopt run exit $rrc; $(grep -m1 '^splitting' "$R/report" 2> /dev/null | cut -c1-60)"
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
