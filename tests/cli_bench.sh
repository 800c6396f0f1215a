#!/usr/bin/env bash
# hgridopt bench on small systems: every method agrees with the HGrid,
# table and JSON output, particle files, and each rejection.
. "$(dirname "$0")/cli_lib.sh"
B="$HG bench"
P="--psd powerlaw:alpha=-3,omega=10 --dim 3 --nu 0.3 --n 1500"

expect_ok "every method found the HGrid's contact set" -- $B $P --steps 3
expect_ok "sap-incremental" -- $B $P --steps 3 --walls --contact-distance 0.1
expect_ok "^hgrid-bu .* [0-9]+ " -- $B --psd mono:r=1 --dim 2 --nu 0.6 --n 1500 --steps 2 --walls
expect_ok "\"schema\":.*\"hgridopt.bench/1\"" -- $B $P --format json --methods sort,sap
expect_ok "\"all_match_hgrid\":.*true" -- $B $P --format json --methods hgrid,verlet --steps 2
# every requested method appears, in order
out=$($B $P --methods sap,lc,verlet --repeats 1 2>/dev/null)
if printf '%s\n' "$out" | grep -Eq '^sap ' && printf '%s\n' "$out" | grep -Eq '^lc ' \
   && ! printf '%s\n' "$out" | grep -Eq '^brute '; then ok; else bad "method list: $out"; fi
# default list on a periodic box skips sap-incremental with a note
$B $P --repeats 1 >/dev/null 2>"$TMP/note"
if grep -q "skipping sap-incremental" "$TMP/note"; then ok; else bad "no skip note"; fi
# the contact counts of all methods are equal (JSON)
n=$($B $P --format json --repeats 1 --walls 2>/dev/null | grep -o '"contacts":[^,]*' | sort -u | wc -l)
if [ "$n" = 1 ]; then ok; else bad "contact counts differ: $n distinct"; fi

# a particle file with walls
cat > "$TMP/p.csv" <<'CSV'
# box 0 10 0 10 walls
x,y,r
1,1,0.6
2,1,0.5
5,5,1
6.9,5,1
8,8,0.3
3,7,0.4
3.5,7.5,0.4
CSV
expect_ok "particles: +7, dim 2" -- $B --packing "$TMP/p.csv" --methods brute,sap,sap-incremental,sort,lc,verlet --steps 2
expect_ok "^sort .* 3 " -- $B --packing "$TMP/p.csv" --methods sort,lc
expect_ok "^hgrid " -- $B --packing "$TMP/p.csv" --methods hgrid --sizes 1,2

expect_fail 2 "--methods: unknown method 'bogus'" -- $B $P --methods sap,bogus
expect_fail 2 "--methods: 'sap' is listed twice" -- $B $P --methods sap,sap
expect_fail 2 "--methods: sap-incremental: periodic boxes not supported" -- $B $P --methods sap-incremental
expect_fail 2 "--methods: brute force on 25000 particles exceeds the limit" -- $B --psd mono:r=1 --dim 3 --nu 0.1 --n 25000 --methods brute
expect_fail 2 "--steps: -1 is outside" -- $B $P --steps -1
expect_fail 2 "--displacement: -0.5 must be >= 0" -- $B $P --displacement -0.5
expect_fail 2 "--contact-distance: 'x' is not a number" -- $B $P --contact-distance x
expect_fail 2 "--repeats: 0 is outside" -- $B $P --repeats 0
expect_fail 2 "--format: unknown format 'xml'" -- $B $P --format xml
expect_fail 2 "--nu: missing" -- $B --psd mono:r=1 --dim 3
expect_fail 2 "unknown option '--bogus'" -- $B $P --bogus
expect_fail 2 "unexpected argument 'extra'" -- $B $P extra
expect_ok "hgrid cell sizes: " -- $B --packing "$TMP/p.csv" --methods hgrid,hgrid-bu --steps 1
expect_fail 2 "--dim: 3 contradicts the 2D particle file" -- $B --packing "$TMP/p.csv" --psd mono:r=1 --dim 3
expect_fail 2 "--sizes: the last cell size 1 is below the largest particle diameter 2" -- $B --packing "$TMP/p.csv" --methods hgrid --sizes 0.5,1
expect_fail 1 "nothere.csv" -- $B --packing "$TMP/nothere.csv"
expect_ok "Usage: hgridopt bench" -- $B --help
finish
