#!/usr/bin/env bash
# The files DEM codes write, read as they are (tests/data/files/: written by
# LAMMPS' own granular examples, LIGGGHTS and MercuryDPM; see the README of
# each folder): every kind read, the same answer from a dump frame as from
# the data file of the same step with the example's boundary (and with no
# flag), frames, gzip, column orders, VTK and its box file, MercuryDPM's
# .data and .restart, the boundary said where it is assumed, and one clear
# line for every file refused.
. "$(dirname "$0")/cli_lib.sh"
# HG_FILES_DIR: files written anew (tests/files_regenerate.sh)
FILES=${HG_FILES_DIR:-$SRC/tests/data/files}
L=$FILES/lammps
G=$FILES/liggghts
M=$FILES/mercurydpm
R="$HG recommend"

# The answer in a line: its kind (decision up to the work), T and the cell
# sizes (table)
answer() {
    "$@" 2>/dev/null | awk '/^decision:/ { k = $0; sub(/T = .*/, "", k);
        sub(/\(cell size [0-9.e+-]+\)/, "", k); t = $0;
        if (sub(/.*T = /, "", t)) sub(/ .*/, "", t); else t = "-" }
        /^cell sizes:/ { s = $0; sub(/^cell sizes: */, "", s) }
        END { print k "|" t "|" s }'
}
# same_answer NAME CMD1 -- CMD2: the same decision, its T and cell sizes
# within 0.1 % (a dump holds 6 digits, a data file 17)
same_answer() {
    local name=$1
    shift
    local a=() b=()
    while [ "$1" != -- ]; do a+=("$1"); shift; done
    shift
    b=("$@")
    local x y
    x=$(answer "${a[@]}")
    y=$(answer "${b[@]}")
    if awk -v x="$x" -v y="$y" 'function close_(u, v) { return u == v ||
            (u + 0 > 0 && v + 0 > 0 && (u - v) / v < 1e-3 && (v - u) / v < 1e-3) }
        BEGIN { nx = split(x, X, "|"); split(y, Y, "|");
            if (X[1] == "" || X[1] != Y[1] || !close_(X[2], Y[2])) exit 1;
            na = split(X[3], A, " "); nb = split(Y[3], B, " ");
            if (na != nb || na == 0) exit 1;
            for (i = 1; i <= na; i++) if (!close_(A[i], B[i])) exit 1 }'; then
        ok
    else
        bad "$name: '$x' vs '$y'"
    fi
}

# --- LAMMPS' own examples: a dump frame and the data file of its step
same_answer "funnel settled" $R --packing $L/funnel.dump --frame 2 -- $R --packing $L/funnel_settled.data --boundary "p p f"
same_answer "funnel discharging" $R --packing $L/funnel.dump -- $R --packing $L/funnel_discharging.data --boundary "p p f"
same_answer "drum" $R --packing $L/drum.dump -- $R --packing $L/drum.data --boundary "p p f"
same_answer "pour (size ratio 8)" $R --packing $L/pour_poly.dump -- $R --packing $L/pour_poly.data --boundary "p p fm"
same_answer "2D pour" $R --packing $L/pour2d_custom.dump -- $R --packing $L/pour2d.data --boundary "f fm p"
same_answer "granregion box" $R --packing $L/box.dump -- $R --packing $L/box.data --boundary "f f f"
# the LAMMPS advice too, at each example's own skin
for pair in "funnel.dump:funnel_discharging.data:p p f:0.5" "drum.dump:drum.data:p p f:0.2" \
    "pour_poly.dump:pour_poly.data:p p fm:0.2" "pour2d_custom.dump:pour2d.data:f fm p:0.2" \
    "box.dump:box.data:f f f:0.3"; do
    IFS=: read -r d t b k <<<"$pair"
    x=$($R --packing $L/$d --engine lammps --skin $k --format lammps 2>/dev/null | grep -v '^#')
    y=$($R --packing $L/$t --boundary "$b" --engine lammps --skin $k --format lammps 2>/dev/null | grep -v '^#')
    [ -n "$x" ] && [ "$x" = "$y" ] && ok || bad "lammps advice $d: '$x' vs $t: '$y'"
done
# ... and with no flag: the data file's boundary inferred or assumed (said)
same_answer "funnel data, no flag" $R --packing $L/funnel.dump -- $R --packing $L/funnel_discharging.data
# every column order, unwrapped and scaled positions, gzip, standard input
for f in pour_poly_reorder.dump pour_poly_scaled.dump pour_poly_unwrap.dump pour_poly.dump.gz; do
    same_answer "$f" $R --packing $L/pour_poly.dump -- $R --packing $L/$f
done
same_answer "stdin" $R --packing $L/pour_poly.dump -- sh -c "cat $L/pour_poly.dump | $R --packing -"
same_answer "gzip stdin" $R --packing $L/pour_poly.dump -- sh -c "cat $L/pour_poly.dump.gz | $R --packing -"

# what the output says about the file
expect_ok '^file: .*pour_poly.dump.gz: LAMMPS/LIGGGHTS dump \(columns: id type radius x y z\), gzip, frame 6 of 6 \(timestep 50000\)$' -- $R --packing $L/pour_poly.dump.gz
expect_ok '^boundary: +p p f, from the file$' -- $R --packing $L/pour_poly.dump
expect_ok '^file: .*frame 3 \(timestep 20000\)$' -- $R --packing $L/pour_poly.dump --frame step=20000
expect_ok '^file: .*frame 5 of 6 \(timestep 40000\)' -- $R --packing $L/pour_poly.dump --frame -2
expect_ok '^file: .*frame 2 \(timestep 10000\); 1 centre coordinate lies outside the box along non-periodic axes: the box grown to hold it$' -- $R --packing $L/pour_poly.dump --frame 2
expect_ok '^file: .*frame 4 of 5 \(timestep 245000\)$' -- $R --packing $L/funnel.dump --frame -2
expect_ok '^file: .*2D: every z is 0 in a z box straddling 0$' -- $R --packing $L/pour2d_custom.dump
j=$($R --packing $L/pour_poly.dump --format json 2>/dev/null)
echo "$j" | jq -e '.particle_file.format == "dump" and .particle_file.frame == 6 and .particle_file.frames == 6 and .particle_file.timestep == 50000 and .particle_file.boundary.source == "file" and .particle_file.boundary.value == "p p f" and (.particle_file.boundary.assumed | not)' >/dev/null && ok || bad "dump JSON: $j"
# a data file: the drum (p p f in its input, gravity turned to -y): y and
# z inferred from the free space the bed leaves, x assumed (LAMMPS'
# default) with the --boundary to give: in the table, on stderr (one note)
# and in JSON; the funnel's cone leaves gaps on every axis; the pour's
# shrink-wrapped top (fm) leaves no gap, so every axis is assumed
expect_ok '^boundary: +p f f, assumed p f f: LAMMPS data file does not say the boundary .*along x \(x assumed periodic, LAMMPS. default\); non-periodic \(inferred from the gaps\): y \(gap [0-9.]+\), z \(gap [0-9.]+\); .*--boundary "p f f"' -- $R --packing $L/drum.data
expect_ok '^boundary: +f f f, inferred: the file does not say; along x \(gap [0-9.]+\), y \(gap [0-9.]+\), z \(gap [0-9.]+\) the spheres leave a gap wider than any search' -- $R --packing $L/funnel_settled.data
expect_ok '^boundary: +p p p, assumed p p p: .*--boundary "p p p"' -- $R --packing $L/pour_poly.data
$R --packing $L/drum.data --format json >/dev/null 2>$TMP/err
[ "$(grep -c 'note: boundary assumed' $TMP/err)" = 1 ] && ok || bad "assumed boundary: one note: $(cat $TMP/err)"
j=$($R --packing $L/drum.data --format json 2>/dev/null)
echo "$j" | jq -e '.particle_file.boundary.source == "assumed" and .particle_file.boundary.assumed and ([.particle_file.boundary.axes[].source] == ["assumed", "inferred", "inferred"]) and (.particle_file.boundary.detail | test("--boundary"))' >/dev/null && ok || bad "data JSON: $j"
j=$($R --packing $L/pour_poly.data --boundary "p p fm" --format json 2>/dev/null)
echo "$j" | jq -e '.particle_file.boundary.source == "given"' >/dev/null && ok || bad "given JSON: $j"
# the engines' outputs carry it too
$R --packing $L/pour_poly.data --engine lammps --format json 2>/dev/null | jq -e '.particle_file.boundary.source == "assumed" and .skin_given == false and (.skin_source | test("--skin"))' >/dev/null && ok || bad "lammps JSON: boundary and skin"
$R --packing $L/drum.dump --engine liggghts --skin 0.2 --format json 2>/dev/null | jq -e '.particle_file.boundary.source == "file" and .skin == 0.2 and .skin_given' >/dev/null && ok || bad "liggghts JSON: boundary and skin"

# dump atom has no radius: one line saying what to do; --type-radius reads it
expect_fail 1 "pour.dump:[0-9]+: the dump has no radius or diameter column \(columns: id type xs ys zs\): write it with 'dump ID all custom N FILE id type radius x y z', or give each type's radius with --type-radius" -- $R --packing $L/pour.dump
expect_ok '^decision: +use a single-level linked cell \(cell size 1\)' -- $R --packing $L/pour.dump --type-radius 1=0.5
expect_ok 'radii from --type-radius' -- $R --packing $L/pour.dump --type-radius 1=0.5
expect_fail 1 "atom type 1 has no radius \(--type-radius gives types 1..2\)" -- $R --packing $L/pour.dump --type-radius 2=0.5
expect_fail 2 "--type-radius: 'a=1' is not TYPE=RADIUS|--type-radius: type 'a' is not an atom type" -- $R --packing $L/pour.dump --type-radius a=1
expect_fail 2 "--type-radius: radius '-1' of type 1 is not a number > 0" -- $R --packing $L/pour.dump --type-radius 1=-1
# refused: triclinic boxes, frames that are not there, empty frames
expect_fail 1 "tri.dump:6: triclinic box: tilt xy 2; hgridopt reads orthogonal boxes only" -- $R --packing $L/tri.dump
expect_fail 1 "tri.data:[0-9]+: triclinic box: tilt xy 2; hgridopt reads orthogonal boxes only" -- $R --packing $L/tri.data
expect_fail 1 "pour_poly.dump: --frame 9, but the file has 6 frames" -- $R --packing $L/pour_poly.dump --frame 9
expect_fail 1 "no frame of timestep 7 \(6 frames, timesteps 0 .. 50000\)" -- $R --packing $L/pour_poly.dump --frame step=7
expect_fail 1 "pour_poly.dump: frame 1 \(timestep 0\) has no atoms; choose another with --frame" -- $R --packing $L/pour_poly.dump --frame first
expect_fail 2 "--frame: 'x' is not last, first, N" -- $R --packing $L/pour_poly.dump --frame x
expect_fail 2 "--frame: .*pour_poly.data' is a LAMMPS data file, a file of one frame" -- $R --packing $L/pour_poly.data --frame 2
expect_fail 2 "--frame: '2' describes a particle file; give it with --packing FILE" -- $R --psd mono:r=1 --dim 3 --nu 0.3 --frame 2
# a dump cut short (a run still writing it): one line, never a partial answer
head -c 300000 $L/pour_poly.dump > $TMP/cut.dump
expect_fail 1 "cut.dump:[0-9]+: frame of timestep [0-9]+ \(line [0-9]+\) ends (before|after)" -- $R --packing $TMP/cut.dump
head -c 100000 $L/pour_poly.dump.gz > $TMP/cut.dump.gz
expect_fail 1 "cut.dump.gz: gzip data ends early \(truncated file\)|cut.dump.gz:[0-9]+: frame" -- $R --packing $TMP/cut.dump.gz
# a duplicated atom
awk 'NR == 10 { id = $1 } NR == 11 { $1 = id } { print }' $L/box.dump > $TMP/dup.dump
expect_fail 1 "dup.dump:11: atom id [0-9]+ appears twice in the frame of timestep 25000" -- $R --packing $TMP/dup.dump
# other compressors and other files: one line naming what to do / what is read
printf '\x28\xb5\x2f\xfd\x00\x00' > $TMP/z.dump.zst
expect_fail 1 "z.dump.zst: zstd-compressed data: decompress it first \(zstd -d FILE\)" -- $R --packing $TMP/z.dump.zst
printf 'hello world\nthis is no particle file\n' > $TMP/notes.txt
expect_fail 1 "notes.txt: not a particle file hgridopt reads \(it reads LAMMPS/LIGGGHTS dumps .* MercuryDPM .data, .restart and Particle_N.vtu, .*ParaView" -- $R --packing $TMP/notes.txt
: > $TMP/empty.dump
expect_fail 1 "empty.dump: empty file" -- $R --packing $TMP/empty.dump

# --- LIGGGHTS: dump, data file, its VTK (legacy, XML) and LPP's VTK agree
same_answer "liggghts dump/data" $R --packing $G/pour_wide.dump -- $R --packing $G/pour_wide.data --boundary "p p f"
for f in pour_wide_40000.vtk pour_wide_vtp_40000.vtp pour_wide_vtu_40000.vtu lpp_pour_wide_40000.vtk; do
    same_answer "liggghts $f" $R --packing $G/pour_wide.dump -- $R --packing $G/$f
done
same_answer "liggghts 2D dump/vtk" $R --packing $G/collapse2d.dump -- $R --packing $G/collapse2d_140000.vtk
expect_ok '^file: .*pour_wide_40000.vtk: legacy VTK \(LIGGGHTS dump custom/vtk\); box from pour_wide_boundingBox_40000.vtk$' -- $R --packing $G/pour_wide_40000.vtk
expect_ok '^file: .*lpp_pour_wide_40000.vtk: legacy VTK \(LPP, LIGGGHTS. post-processing\); box from lpp_pour_wide_40000_boundingBox.vtk$' -- $R --packing $G/lpp_pour_wide_40000.vtk
expect_ok '^file: .*pour_wide_vtp_40000.vtp: XML VTK PolyData .*; box from pour_wide_vtp_boundingBox_40000.vtr$' -- $R --packing $G/pour_wide_vtp_40000.vtp
# without its box file: the spheres' bounding box with walls, said
cp $G/pour_wide_40000.vtk $TMP/alone_40000.vtk
$R --packing $TMP/alone_40000.vtk >/dev/null 2>$TMP/err
grep -q "note: .*alone_40000.vtk gives no box; using the bounding box of the spheres with walls" $TMP/err && ok || bad "VTK without box: $(cat $TMP/err)"
expect_fail 1 "pour_wide_boundingBox_40000.vtk:4: a box file \(DATASET RECTILINEAR_GRID, .*give the particle file of the same step" -- $R --packing $G/pour_wide_boundingBox_40000.vtk
expect_fail 1 "a box file \(VTKFile RectilinearGrid" -- $R --packing $G/pour_wide_vtp_boundingBox_40000.vtr

# --- MercuryDPM: .data (its boundary from the .restart beside it) and .restart
for v in periodic3d walls3d walls2d; do
    # positions in .data have 15 digits, its box 10
    same_answer "mercurydpm $v" $R --packing $M/mdpm_$v.data -- $R --packing $M/mdpm_$v.restart
done
expect_ok '^boundary: +p p f, from the file$' -- $R --packing $M/mdpm_periodic3d.data
expect_ok '^file: .*mdpm_periodic3d.data: MercuryDPM .data file, frame 5 of 5 \(time 0.08\); boundary from mdpm_periodic3d.restart: 2 walls \(2 InfiniteWalls along an axis\), periodic boundaries along x, y' -- $R --packing $M/mdpm_periodic3d.data
expect_ok "^file: .*mdpm_walls3d.restart: MercuryDPM restart file; 6 walls .*; the run's HGrid: TOPDOWN, EXPONENTIAL, cell sizes 0.000684 0.00117 0.002$" -- $R --packing $M/mdpm_walls3d.restart
expect_ok '^boundary: +f f, from the file$' -- $R --packing $M/mdpm_walls2d.restart
expect_ok '^file: .*frame 1 \(time 0\)' -- $R --packing $M/mdpm_walls3d.data --frame first
expect_fail 1 "a MercuryDPM .data file has no timesteps \(give the frame's number\)" -- $R --packing $M/mdpm_walls3d.data --frame step=3
# a .data file alone: nothing periodic (MercuryDPM's default), said
cp $M/mdpm_periodic3d.data $TMP/alone.data
expect_ok '^boundary: +f f f, (assumed|inferred)' -- $R --packing $TMP/alone.data
$R --packing $TMP/alone.data >/dev/null 2>$TMP/err
grep -q "MercuryDPM's default" $TMP/err && ok || bad "MercuryDPM .data alone: $(cat $TMP/err)"

# --- every engine predicts for the file's atoms, --atoms in any notation
a=$($R --packing $L/drum.dump --engine liggghts --format json 2>/dev/null | jq '.predicted_ms')
b=$($R --packing $L/drum.dump --engine liggghts --atoms 3.6e4 --format json 2>/dev/null | jq '.predicted_ms')
awk -v a="$a" -v b="$b" 'BEGIN { exit !(a > 0 && b > 5 * a) }' && ok || bad "liggghts atoms: $a ms for the file's 4000, $b for 36000"
expect_ok '4000 atoms \(4000 per rank\)' -- $R --packing $L/drum.dump --engine lammps
expect_ok '36000 atoms \(18000 per rank\), 2 ranks' -- $R --packing $L/drum.dump --engine lammps --atoms 3.6e4 --mpi 2

finish
