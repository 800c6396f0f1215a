#!/usr/bin/env bash
# hgridopt pack: generators end to end, same seed -> same bytes, format by
# extension, conversion of particle files, and rejected input.
. "$(dirname "$0")/cli_lib.sh"
P="--psd powerlaw:alpha=-3,omega=10 --dim 3 --nu 0.4 --n 300"

for g in poisson rsa dense; do
    $HG pack $P --generator $g --seed 5 --output "$TMP/a.csv" 2>/dev/null &&
        $HG pack $P --generator $g --seed 5 --output "$TMP/b.csv" 2>/dev/null &&
        cmp -s "$TMP/a.csv" "$TMP/b.csv" && ok || bad "$g: same seed, different files"
    # header + box line + 300 particles
    [ "$(wc -l < "$TMP/a.csv")" = 302 ] && ok || bad "$g: not 302 lines"
    $HG pack $P --generator $g --seed 6 --output "$TMP/c.csv" 2>/dev/null &&
        ! cmp -s "$TMP/a.csv" "$TMP/c.csv" && ok || bad "$g: seed ignored"
done
expect_ok '^# box 0 [0-9.e+-]+ 0 [0-9.e+-]+ walls$' -- $HG pack --psd mono:r=1 --dim 2 --nu 0.5 --n 50 --generator dense --walls
expect_ok '^x,y,z,r$' -- $HG pack $P --generator rsa
expect_ok '^Atoms # sphere$' -- $HG pack $P --format lammps
expect_ok 'dim 3 periodic' -- $HG pack $P --format lammps

# the summary goes to stderr
$HG pack $P --generator rsa --output "$TMP/p.data" 2>"$TMP/err" >"$TMP/out"
grep -Eq 'pack: rsa, 300 of 300 particles, nu = 0.400000' "$TMP/err" && ok || bad "summary: $(cat "$TMP/err")"
[ ! -s "$TMP/out" ] && ok || bad "stdout not empty with --output"
head -1 "$TMP/p.data" | grep -q 'LAMMPS data file' && ok || bad "format from .data"
for ext in xyz vtk csv; do
    $HG pack --input "$TMP/p.data" --output "$TMP/p.$ext" 2>/dev/null && ok || bad "convert to $ext"
done
$HG pack --input "$TMP/p.vtk" --output "$TMP/q.data" 2>/dev/null &&
    cmp -s "$TMP/p.data" "$TMP/q.data" && ok || bad "data -> vtk -> data not exact"

# rejections: one line, exit 2 (usage) or 1 (data)
expect_fail 2 "--generator: unknown value 'grid'" -- $HG pack $P --generator grid
expect_fail 2 "--walls: the poisson generator needs a periodic box" -- $HG pack $P --walls
expect_fail 2 "--n: missing" -- $HG pack --psd mono:r=1 --dim 3 --nu 0.3
expect_fail 2 "--n: 0 is outside" -- $HG pack --psd mono:r=1 --dim 3 --nu 0.3 --n 0
expect_fail 2 "--seed: 'x' is not an integer" -- $HG pack $P --seed x
expect_fail 2 "--overlap: 2 is outside \(0, 1\)" -- $HG pack $P --generator dense --overlap 2
expect_fail 2 "--format: unknown format 'pdb'" -- $HG pack $P --format pdb
expect_fail 2 "cannot tell the format from the extension" -- $HG pack $P --output "$TMP/p.txt"
expect_fail 2 "--nu: missing" -- $HG pack --psd mono:r=1 --dim 3 --n 10
expect_fail 2 "too small for the largest diameter" -- $HG pack --psd mono:r=1 --dim 3 --nu 0.6 --n 1 --generator rsa --walls
printf '# box 0 10 0 10 0 10 periodic\nx,y,z,r\n1,2,3,0.5\n4,5,6\n' > "$TMP/bad.csv"
expect_fail 1 "bad.csv:4: 3 columns, the header has 4" -- $HG pack --input "$TMP/bad.csv"
printf '# box 0 10 0 10 0 10 periodic\nx,y,z,r\n1,2,11,0.5\n' > "$TMP/out.csv"
expect_fail 1 "out.csv:3: z = 11 is outside the periodic box" -- $HG pack --input "$TMP/out.csv"
expect_fail 1 "nonexistent.data: cannot open" -- $HG pack --input "$TMP/nonexistent.data"
finish
