#!/usr/bin/env bash
# Snapshots of real DEM simulations (tests/data/snapshots: beds poured and
# settled with Debian's LAMMPS, read as LAMMPS wrote them, with the
# boundary of their input scripts): the predicted pair checks and cell
# accesses of the HGrid (Top-Down and Bottom-Up) and of the linked cell
# within 5 % of the counted ones, and the recommended grid's counted work
# within 5 % of the best exponential grid with L = 1..5 (both algorithms).
# HG_SNAPSHOT_TABLE=FILE also writes the figures as a table;
# HG_SNAPSHOT_DIR=DIR takes the snapshots from DIR (snapshots_regenerate).
. "$(dirname "$0")/cli_lib.sh"
D=${HG_SNAPSHOT_DIR:-$SRC/tests/data/snapshots}
table=${HG_SNAPSHOT_TABLE:-/dev/null}
printf 'snapshot\tmodel\tT_cd\tT_ca\tlc_T_cd\trecommended\tbest_exponential\tratio\n' >"$table"

# a file a LAMMPS user has: the box's nu is far below the bed's, the
# output says so and the structure is measured
out=$("$HG" recommend --packing "$D/bed3d_d1-8.data" --boundary "p p f" 2>&1) || bad "recommend bed3d_d1-8: $out"
for re in '^snapshot: +N = 2500, boundary p p f, box nu 0\.1' '^heterogeneous: +the box.s nu is [0-9.]+ times below the density experienced' '^structure: +measured' '^layers \(z\): +nu '; do
    printf '%s\n' "$out" | grep -Eq "$re" && ok || bad "recommend bed3d_d1-8: no line /$re/"
done
# the commands of docs/commands.md (particle files) on it
expect_ok '^neighbor [0-9.]+ (bin|multi)$' -- "$HG" recommend --packing "$D/bed3d_d1-8.data" --boundary "p p f" --format lammps
expect_ok '^counts: +the mean over 4 offsets of the grid' -- "$HG" validate --packing "$D/bed3d_d1-8.data" --boundary "p p f" --repeats 1
expect_fail 2 "--boundary: .*'p p' gives 2 axes, the 3D particles need 3" -- "$HG" recommend --packing "$D/bed3d_d1-4.data" --boundary "p p"
expect_fail 2 "--boundary: .*'p q f' is not LAMMPS' boundary letters" -- "$HG" recommend --packing "$D/bed3d_d1-4.data" --boundary "p q f"

# pack --input takes a boundary the particle files can carry
"$HG" pack --input "$D/bed3d_walls.data" --boundary "f f f" --output "$TMP/w.csv" 2>/dev/null && grep -Eq '^# box .* walls$' "$TMP/w.csv" && ok || bad "pack --input --boundary 'f f f' did not write a walled box"
expect_fail 2 "pack --input: boundary p p f mixes periodic and non-periodic axes" -- "$HG" pack --input "$D/bed3d_d1-4.data" --boundary "p p f" --output "$TMP/w.csv"
# xyz carries a boundary per axis (pbc): converted and read back, the same
# answer as the LAMMPS file with --boundary
"$HG" pack --input "$D/bed3d_d1-4.data" --boundary "p p f" --output "$TMP/b.xyz" 2>/dev/null && grep -q 'pbc="T T F"' "$TMP/b.xyz" && ok || bad "pack --input --boundary 'p p f' to xyz: no pbc T T F"
a=$("$HG" recommend --packing "$D/bed3d_d1-4.data" --boundary "p p f" --format json | jq -c '[.cell_sizes, .work_per_particle, .snapshot.boundary]')
b=$("$HG" recommend --packing "$TMP/b.xyz" --format json | jq -c '[.cell_sizes, .work_per_particle, .snapshot.boundary]')
[ "$a" = "$b" ] && ok || bad "xyz with pbc T T F: $b, LAMMPS file with --boundary 'p p f': $a"

for entry in "bed3d_d1-4:p p f" "bed3d_d1-8:p p f" "bed2d_d1-6:p f p" \
    "bed3d_strat:p p f" "bed3d_walls:f f f"; do
    name=${entry%%:*}
    b=${entry#*:}
    f="$D/$name.data"
    for m in hgrid-top-down hgrid-bottom-up; do
        j=$("$HG" validate --packing "$f" --boundary "$b" --model $m --repeats 1 --format json 2>"$TMP/err") || {
            bad "validate $name $m: $(cat "$TMP/err")"
            continue
        }
        r=$(echo "$j" | jq -r '[.ratio.T_cd, .ratio.T_ca, .linked_cell.ratio.T_cd] | map(. * 10000 | round / 10000) | join(" ")')
        if echo "$j" | jq -e '.structure == "measured" and .offsets.count == 4 and (.ratio.T_cd - 1 | fabs) < 0.05 and (.ratio.T_ca - 1 | fabs) < 0.05 and (.linked_cell.ratio.T_cd - 1 | fabs) < 0.05 and (.linked_cell.ratio.T_ca - 1 | fabs) < 0.05' >/dev/null; then ok; else bad "validate $name $m: counted/predicted T_cd T_ca, linked cell T_cd: $r"; fi
        printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$m" $r >>"$table"
    done
    # the recommendation against exponential grids of 1..5 levels, by the
    # bundled grid's counted work (T_cd + K T_ca, K as recommend uses)
    rec=$("$HG" recommend --packing "$f" --boundary "$b" --format json 2>"$TMP/err") || {
        bad "recommend $name: $(cat "$TMP/err")"
        continue
    }
    rmin=$(echo "$rec" | jq '.r_min')
    rmax=$(echo "$rec" | jq '.r_max')
    if echo "$rec" | jq -e '.single_level.recommended and .single_level.best == "bin"' >/dev/null; then
        T_rec=$("$HG" validate --packing "$f" --boundary "$b" --repeats 1 --format json 2>/dev/null | jq '.bin.measured.T')
        what="bin"
    else
        sizes=$(echo "$rec" | jq -r '.cell_sizes | map(tostring) | join(",")')
        model=$(echo "$rec" | jq -r '.model')
        [ "$model" = linked-cell ] && model=hgrid-top-down
        T_rec=$("$HG" validate --packing "$f" --boundary "$b" --model "$model" --sizes "$sizes" --no-baseline --repeats 1 --format json 2>/dev/null | jq '.measured.T')
        what="$model $sizes"
    fi
    best=1e300
    for L in 1 2 3 4 5; do
        s=$(awk -v a="$rmin" -v b="$rmax" -v L=$L 'BEGIN { for (h = 1; h <= L; h++) printf "%s%.17g", (h > 1 ? "," : ""), (h == L ? 2 * b : 2 * a * exp(h / L * log(b / a))) }')
        for m in hgrid-top-down hgrid-bottom-up; do
            [ $L = 1 ] && [ $m = hgrid-bottom-up ] && continue
            T=$("$HG" validate --packing "$f" --boundary "$b" --model $m --sizes "$s" --no-baseline --repeats 1 --format json 2>/dev/null | jq '.measured.T')
            best=$(awk -v x="$T" -v y="$best" 'BEGIN { print (x + 0 < y + 0 ? x : y) }')
        done
    done
    ratio=$(awk -v x="$T_rec" -v y="$best" 'BEGIN { printf "%.4f", x / y }')
    printf '%s\trecommend\t\t\t\t%s\t%s\t%s\n' "$name" "$T_rec" "$best" "$ratio" >>"$table"
    awk -v q="$ratio" 'BEGIN { exit !(q > 0 && q <= 1.05) }' && ok || bad "$name: recommended ($what) counted work $T_rec is $ratio x the best exponential grid's $best"
done
finish
