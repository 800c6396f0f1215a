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
expect_fail 2 '^hgridopt: --structure: unknown value .hard. \(poisson or hard-spheres\)$' -- $HG evaluate $S --structure hard
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

# detection from a particle file: dense (no overlaps) vs poisson (overlaps)
P="--psd powerlaw:alpha=-3,omega=10 --dim 3 --nu 0.4 --n 2000 --seed 3"
$HG pack $P --generator dense --output "$TMP/d.csv" 2>/dev/null && ok || bad "pack dense"
$HG pack $P --generator poisson --output "$TMP/p.csv" 2>/dev/null && ok || bad "pack poisson"
expect_ok '^structure: +hard-spheres \(detected: largest overlap in the particle file [0-9.e-]+ of the smaller radius, within 0.01\)$' -- $HG evaluate --packing "$TMP/d.csv" --sizes 4,20
expect_ok '^structure: +poisson \(detected: largest overlap in the particle file [0-9.e+-]+ of the smaller radius, above 0.01\)$' -- $HG evaluate --packing "$TMP/p.csv" --sizes 4,20
expect_ok '^structure: +poisson \(given' -- $HG evaluate --packing "$TMP/d.csv" --sizes 4,20 --structure poisson

finish
