#!/usr/bin/env bash
# --structure: option, system-file key, detection for --packing (and the
# reason printed), JSON field, rejected values; hard spheres predict fewer
# pair checks than Poisson for a narrow distribution and more for a wide one.
. "$(dirname "$0")/cli_lib.sh"
S="--psd powerlaw:alpha=-3,omega=100 --dim 3 --nu 0.6 --sizes 6.4,15.5,34.2,85.5,200"

expect_ok '^structure: +poisson \(default\)$' -- $HG evaluate $S
expect_ok '^structure: +hard-spheres \(given \(--structure\)\)$' -- $HG evaluate $S --structure hard-spheres
expect_ok '"structure":[[:space:]]*"hard-spheres"' -- $HG evaluate $S --structure hard-disks --format json
# crowding: T_cd of level 1 rises with hard spheres (omega = 100)
a=$($HG evaluate $S --format json | grep -m1 '"T_cd"' | tr -dc '0-9.')
b=$($HG evaluate $S --structure hard-spheres --format json | grep -m1 '"T_cd"' | tr -dc '0-9.')
awk -v a="$a" -v b="$b" 'BEGIN { exit !(b > 1.2 * a) }' && ok || bad "level-1 T_cd poisson $a, hard-spheres $b"
expect_fail 2 '^hgridopt: --structure: unknown value .hard. \(poisson, hard-spheres or measured\)$' -- $HG evaluate $S --structure hard
expect_fail 2 '^hgridopt: --structure: measured needs a particle file' -- $HG evaluate $S --structure measured
expect_fail 2 '^hgridopt: --boundary: .p p f. describes a particle file' -- $HG evaluate $S --boundary "p p f"
# beyond the fluid range (2D above 0.75): a one-line note, hard-spheres only
D="--psd powerlaw:alpha=-3,omega=10 --dim 2 --sizes 5,20"
expect_ok '^note: +nu = 0.8 is above the fluid range of hard disks \(0.75\)' -- $HG evaluate $D --nu 0.8 --structure hard-spheres
$HG evaluate $D --nu 0.7 --structure hard-spheres | grep -q '^note:' && bad "note at nu 0.7" || ok
$HG evaluate $D --nu 0.8 | grep -q '^note:' && bad "note for poisson" || ok

# the LAMMPS model optimises for the structure too (different cutoffs)
L="--psd powerlaw:alpha=-3,omega=30 --dim 3 --nu 0.6 --format lammps"
a=$($HG recommend $L | grep '^neigh_modify') && b=$($HG recommend $L --structure hard-spheres | grep '^neigh_modify') && [ -n "$a" ] && [ "$a" != "$b" ] && ok || bad "lammps cutoffs poisson '$a', hard-spheres '$b'"

# system file
printf '{"distribution": "powerlaw:alpha=-3,omega=10", "dim": 3, "nu": 0.5, "structure": "hard-spheres"}' > "$TMP/s.json"
expect_ok '^structure: +hard-spheres \(from the system file\)$' -- $HG evaluate --system "$TMP/s.json" --sizes 4,20
expect_ok '^structure: +poisson \(given' -- $HG evaluate --system "$TMP/s.json" --sizes 4,20 --structure poisson
printf '{"distribution": "mono:r=1", "dim": 3, "nu": 0.5, "structure": "dense"}' > "$TMP/b.json"
expect_fail 1 'structure.*"dense".*poisson.*hard-spheres' -- $HG evaluate --system "$TMP/b.json" --sizes 4

# a particle file's structure is measured (its pair statistics), for a
# dense (no overlaps) and a poisson (overlaps) packing alike, and predicts
# what the grid counts on both
P="--psd powerlaw:alpha=-3,omega=10 --dim 3 --nu 0.4 --n 6000 --seed 3"
$HG pack $P --generator dense --output "$TMP/d.csv" 2>/dev/null && ok || bad "pack dense"
$HG pack $P --generator poisson --output "$TMP/p.csv" 2>/dev/null && ok || bad "pack poisson"
expect_ok '^structure: +measured \(measured from the particle file: [0-9.]+ contacts per particle \([0-9.]+ for random centres\), largest overlap [0-9.e-]+ of the smaller radius\)$' -- $HG evaluate --packing "$TMP/d.csv" --sizes 4,20
expect_ok '^structure: +measured \(measured from the particle file' -- $HG evaluate --packing "$TMP/p.csv" --sizes 4,20
for f in d p; do
    for m in hgrid-top-down hgrid-bottom-up; do
        out=$($HG validate --packing "$TMP/$f.csv" --model $m --repeats 1 --format json 2>"$TMP/err") || bad "validate $f $m: $(cat "$TMP/err")"
        # Poisson within 1 %, hard spheres within 3 %, the linked cell too
        tol=$([ $f = p ] && echo 0.01 || echo 0.03)
        if echo "$out" | jq -e --argjson t "$tol" '.structure == "measured" and (.ratio.T_cd - 1 | fabs) < $t and (.ratio.T_ca - 1 | fabs) < 0.01 and (.linked_cell.ratio.T_cd - 1 | fabs) < $t' >/dev/null; then ok; else bad "validate $f $m measured: $(echo "$out" | jq -c '[.ratio, .linked_cell.ratio]')"; fi
    done
done
expect_ok '^structure: +poisson \(given' -- $HG evaluate --packing "$TMP/d.csv" --sizes 4,20 --structure poisson

# validate, bench and calibrate make their own packing with the system's
# structure: hard spheres come from rsa (low nu) or dense, never Poisson
H="--psd powerlaw:alpha=-3,omega=30 --dim 2 --nu 0.7"
out=$($HG validate $H --structure hard-spheres --n 3000 --no-baseline --repeats 1 --format json 2>"$TMP/err") || bad "validate hard-spheres: $(cat "$TMP/err")"
if echo "$out" | jq -e '.packing == "dense" and .generator == "dense" and (.generator_why | test("nu = 0.7 > 0.42")) and .max_overlap < 0.01 and .structure == "hard-spheres"' >/dev/null; then ok; else bad "validate hard-spheres json: $out"; fi
new=$(echo "$out" | jq '.ratio.T_cd')
sizes=$(echo "$out" | jq -r '.cell_sizes | map(tostring) | join(",")')
# what validate measured before: Poisson centres against the hard-sphere
# prediction, on the same sizes
$HG pack $H --n 3000 --generator poisson --output "$TMP/p2.csv" 2>/dev/null || bad "pack poisson 2D"
old=$($HG validate --packing "$TMP/p2.csv" --psd powerlaw:alpha=-3,omega=30 --structure hard-spheres --sizes "$sizes" --no-baseline --repeats 1 --format json 2>/dev/null | jq '.ratio.T_cd')
awk -v a="$new" -v b="$old" 'BEGIN { d = a - 1; e = b - 1; exit !(d * d < e * e && d * d < 0.05 * 0.05) }' && ok || bad "T_cd measured/predicted: hard-spheres packing $new, Poisson packing $old"
expect_ok '^generator: +dense: hard spheres at nu = 0.7 > 0.42' -- $HG validate $H --structure hard-spheres --n 3000 --no-baseline --repeats 1
# low nu: rsa, no overlap at all, hence no contact
R="--psd powerlaw:alpha=-3,omega=10 --dim 3 --nu 0.25 --structure hard-spheres"
out=$($HG validate $R --n 3000 --sizes 4,20 --no-baseline --repeats 1 --format json 2>"$TMP/err") || bad "validate rsa: $(cat "$TMP/err")"
if echo "$out" | jq -e '.generator == "rsa" and .max_overlap == 0 and .measured.contacts == 0' >/dev/null; then ok; else bad "validate rsa json: $out"; fi
printf '{"distribution": "powerlaw:alpha=-3,omega=10", "dim": 3, "nu": 0.25, "structure": "hard-spheres"}' > "$TMP/hs.json"
expect_ok '^packing: +rsa generator, N = 3000' -- $HG validate --system "$TMP/hs.json" --n 3000 --sizes 4,20 --no-baseline --repeats 1
expect_ok '^packing: +Poisson, N = 3000' -- $HG validate --system "$TMP/hs.json" --structure poisson --n 3000 --sizes 4,20 --no-baseline --repeats 1
out=$($HG bench $R --n 3000 --methods hgrid,lc --format json 2>"$TMP/err") || bad "bench rsa: $(cat "$TMP/err")"
if echo "$out" | jq -e '.generator == "rsa" and ([.methods[].static.contacts] | max) == 0' >/dev/null; then ok; else bad "bench hard-spheres json: $out"; fi
# calibrate's fit is refused when the machine is too noisy to time
if out=$($HG calibrate $R --n 20000 --max-levels 2 --repeats 2 2>"$TMP/err"); then
    echo "$out" | grep -Eq '^packing: +rsa generator, N = 20000' && ok || bad "calibrate hard-spheres: $out"
elif grep -q "too noisy" "$TMP/err"; then
    echo "note: calibrate too noisy on this machine now; its packing not checked" >&2
else
    bad "calibrate hard-spheres: $(cat "$TMP/err")"
fi
# beyond the generators' reach: one line naming nu, at once (RSA stalls;
# dense would grow equal spheres into a jam for a minute)
expect_fail 1 '^hgridopt: nu: 0.66 is beyond what the packing generators reach for hard spheres of this distribution: random sequential addition stalls at nu = 0\.[0-9]+ .*--packing FILE$' -- $HG validate --psd mono:r=1 --dim 3 --nu 0.66 --structure hard-spheres --n 20000
expect_fail 1 '^hgridopt: nu: 0.85 is beyond .* hard disks' -- $HG bench --psd mono:r=1 --dim 2 --nu 0.85 --structure hard-spheres --n 3000

finish
