#!/usr/bin/env bash
# Regenerate the LAMMPS test fixtures of hgridopt in OUTDIR.
#
#   usage: make_fixtures.sh OUTDIR [CASE...]
#   CASE is one of: funnel drum flatwall pour pour_poly pour_traj pour2d box tri
#   (default: all)
#
# Every case (except "tri", a tiny input of our own) runs one of the granular
# example inputs that ship with LAMMPS (Debian package lammps-examples,
# /usr/share/lammps/examples) with the Debian `lmp` binary, serially.  The
# example is copied into a temporary folder and only output lines are added
# (dump, dump_modify, write_dump, write_data; for funnel one `variable` that
# drives dump_modify every); the only change to the physics is the size
# distribution of case pour_poly.  Every edit is done by a helper below that
# fails unless its pattern matches exactly one line, so a changed example
# input makes this script stop instead of silently producing other fixtures.
#
# The examples use fixed random seeds and run serially, so the output is
# deterministic for a given lmp build (checked: two runs gave identical
# files, also the .gz).  Logs are not copied (they contain CPU times),
# except pour_traj.log: the log of the trajectory's run, which
# `recommend --trajectory --log` reads for its timings.
#
# Written against: LAMMPS 29 Sep 2021 - Update 2 (Debian 12 package lammps
# 20220106.git7586adbb6a+ds1-2+b2).  Environment overrides:
#   LMP=/path/to/lmp   LAMMPS_EXAMPLES=/path/to/examples
set -euo pipefail

if [[ $# -lt 1 ]]; then
    echo "usage: $0 OUTDIR [funnel|drum|flatwall|pour|pour_poly|pour_traj|pour2d|box|tri ...]" >&2
    exit 2
fi
OUTDIR=$1
shift
ALL_CASES=(funnel drum flatwall pour pour_poly pour_traj pour2d box tri)
if [[ $# -gt 0 ]]; then CASES=("$@"); else CASES=("${ALL_CASES[@]}"); fi

LMP=${LMP:-lmp}
EX=${LAMMPS_EXAMPLES:-/usr/share/lammps/examples}
MAX_BYTES=1000000          # every fixture file must stay below 1 MB
export OMP_NUM_THREADS=1   # one core: the machine is shared

command -v "$LMP" >/dev/null || { echo "error: '$LMP' not found" >&2; exit 1; }
[[ -d $EX ]] || { echo "error: examples folder $EX not found (package lammps-examples)" >&2; exit 1; }
mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hgridopt-lammps.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

die() { echo "error: $*" >&2; exit 1; }

# --- editing helpers: each requires exactly one line matching the ERE -------
_one_match() { # file ere
    local n
    n=$(grep -cE -- "$2" "$1" || true)
    [[ $n == 1 ]] || die "$(basename "$1"): expected exactly 1 line matching /$2/, found $n"
}
# replace the line matching ERE by TEXT (TEXT may contain newlines)
replace_line() { # file ere text
    _one_match "$1" "$2"
    awk -v re="$2" -v t="$3" '$0 ~ re {print t; next} {print}' "$1" >"$1.new"
    mv "$1.new" "$1"
}
# insert TEXT after the line matching ERE
insert_after() { # file ere text
    _one_match "$1" "$2"
    awk -v re="$2" -v t="$3" '{print} $0 ~ re {print t}' "$1" >"$1.new"
    mv "$1.new" "$1"
}
# insert TEXT before the line matching ERE
insert_before() { # file ere text
    _one_match "$1" "$2"
    awk -v re="$2" -v t="$3" '$0 ~ re {print t} {print}' "$1" >"$1.new"
    mv "$1.new" "$1"
}
# append TEXT at the end of the file (after the example's last run)
append() { # file text
    printf '%s\n' "$2" >>"$1"
}

# --- run one case -----------------------------------------------------------
# prepare_case NAME EXAMPLE: fresh work folder with a copy of the example;
# sets $W (work folder) and $IN (input file in it)
prepare_case() {
    W=$TMP/$1
    rm -rf "$W"
    mkdir -p "$W"
    if [[ -n $2 ]]; then
        [[ -f $EX/$2 ]] || die "example $EX/$2 not found"
        cp "$EX/$2" "$W/"
        IN=$W/$(basename "$2")
    fi
}
# run_case NAME OUTPUT_FILE...: runs lmp in $W, copies the outputs to OUTDIR
run_case() {
    local name=$1 f size t0 t1
    shift
    t0=$EPOCHREALTIME
    if ! (cd "$W" && "$LMP" -nocite -in "$(basename "$IN")" -log log.lammps >screen.txt 2>&1); then
        tail -n 20 "$W/log.lammps" >&2 || true
        die "case $name: lmp failed (see above)"
    fi
    t1=$EPOCHREALTIME
    for f in "$@"; do
        [[ -f $W/$f ]] || die "case $name: expected output $f was not written"
        size=$(stat -c %s "$W/$f")
        ((size < MAX_BYTES)) || die "case $name: $f is $size bytes (limit $MAX_BYTES)"
        cp "$W/$f" "$OUTDIR/$f"
    done
    printf 'case %-10s %7.1f s   %s\n' "$name" "$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}')" "$*"
}

# --- (a) granregion/in.granregion.funnel ------------------------------------
# 2000 spheres (d 0.5..1.0) poured into a cone (steps 0-20000), settled
# (20000-170000), plug removed and discharged (170000-270000); boundary p p f,
# neighbor ${skin} multi.  Runs as written (about 3 min serial here, below the
# 8 min that would have required shortening the runs).
case_funnel() {
    prepare_case funnel granregion/in.granregion.funnel
    # enable the example's own commented dump (2 lines); file name funnel.dump
    # instead of ${name}.dump = funnel_pour.dump
    replace_line "$IN" '^#dump[[:space:]]+1 all custom [$][{]dumpfreq[}] [$][{]name[}][.]dump &$' \
        $'dump\t\t1 all custom ${dumpfreq} funnel.dump &'
    replace_line "$IN" '^#[[:space:]]+id type mass diameter x y z$' \
        $'\t\tid type mass diameter x y z'
    # only 5 frames instead of one every ${dumpfreq}=1000 steps (270 frames,
    # ~30 MB): end of pour 20000, settled 170000, discharging 220000 and
    # 245000, end 270000.  dump_modify every v_ takes the next dump step from
    # an equal-style variable evaluated at each dump (and at each run start);
    # it must return a step > the current one even after the last frame
    # (else "ERROR: Dump every variable returned a bad timestep").
    # The atom count differs between frames (atoms leave through the outlet
    # and are dropped: boundary f in z, thermo_modify lost warn).
    insert_after "$IN" '^[[:space:]]+id type mass diameter x y z$' \
        'variable	fnext equal 20000+(step>=20000)*150000+(step>=170000)*50000+(step>=220000)*25000+(step>=245000)*25000+(step>=270000)*25000
dump_modify	1 every v_fnext'
    # data file of the settled state (step 170000, same step as dump frame 2)
    insert_after "$IN" '^run[[:space:]]+150000' 'write_data	funnel_settled.data'
    # data file during the discharge (step 270000, same step as the last frame)
    append "$IN" 'write_data	funnel_discharging.data'
    run_case funnel funnel.dump funnel_settled.data funnel_discharging.data
}

# --- (b) granular/in.pour.drum ----------------------------------------------
# 2 x 2000 spheres (d 0.5..1.0, types 1 and 2, pair_style granular with JKR
# cohesion for type 2) poured into a drum, then gravity turned and drum
# rotated; lj units, change_box all boundary p p f, neighbor ${skin} bin.
# Runs as written (2000 + 3000 steps; delete_atoms kept, it deletes 0 atoms).
case_drum() {
    prepare_case drum granular/in.pour.drum
    # enable the example's own commented dump; every 2500 steps instead of 100
    # (50 frames of 4000 atoms would be ~10 MB) -> frames 0 (0 atoms: fix pour
    # inserts on step 1), 2500, 5000; file drum.dump instead of ${name}.dump
    replace_line "$IN" '^#dump[[:space:]]+1 all custom 100 [$][{]name[}][.]dump id type radius mass x y z$' \
        'dump           1 all custom 2500 drum.dump id type radius mass x y z'
    # data file at the end (step 5000, same step as the last frame)
    append "$IN" 'write_data      drum.data'
    run_case drum drum.dump drum.data
}

# --- (b2) granular/in.pour.flatwall ----------------------------------------
# 2 x 1500 spheres (d 0.5..1.0, types 1 and 2, pair_style granular with JKR
# cohesion for type 1) poured from two cylinders onto a flat wall
# (fix wall/gran zplane); lj units, processors * * 1, create_box then
# change_box all boundary p p f, neighbor ${skin} bin (skin = 0.3*rhi = 0.15).
# Runs as written (5000 steps).
case_flatwall() {
    prepare_case flatwall granular/in.pour.flatwall
    # data file at the end (step 5000)
    append "$IN" 'write_data      flatwall.data'
    run_case flatwall flatwall.data
}

# --- (c1) pour/in.pour ------------------------------------------------------
# 3000 monodisperse spheres (d = 1, fix pour default) poured into a chute
# box, boundary p p fm, neighbor 0.2 bin; 25000 + 25000 steps as written
# (about 35 s serial, no shortening needed).
case_pour() {
    prepare_case pour pour/in.pour
    # enable the example's own commented dump (style atom: id type xs ys zs);
    # every 10000 steps instead of 1000 to stay < 1 MB -> frames 0, 10000,
    # ..., 50000 with 0, 1608, 2814, 3000, 3000, 3000 atoms; file pour.dump
    # instead of dump.pour
    replace_line "$IN" '^#dump[[:space:]]+id all atom 1000 dump[.]pour$' \
        $'dump\t\tid all atom 10000 pour.dump'
    run_case pour pour.dump
}

# --- (c2) pour/in.pour with a wide (size ratio 8) distribution ---------------
case_pour_poly() {
    prepare_case pour_poly pour/in.pour
    # physics change (requested): polydisperse insertion, diameters 0.25 (60 %),
    # 0.6 (30 %), 2.0 (10 %) by number -> size ratio 8
    replace_line "$IN" '^fix[[:space:]]+ins all pour 3000 1 300719 vol 0[.]13 50 region slab$' \
        'fix		ins all pour 3000 1 300719 vol 0.13 50 diam poly 3 0.25 0.6 0.6 0.3 2.0 0.1 region slab'
    # several dumps of the same run, to test the reader on column orders,
    # unwrapped/scaled coordinates and gzip (the example's own atom dump stays
    # commented out):
    #   pour_poly.dump(.gz): id type radius x y z, every 10000 (frames 0..50000)
    #   the others every 25000 (frames 0, 25000, 50000)
    insert_after "$IN" '^#dump[[:space:]]+id all atom 1000 dump[.]pour$' \
        'dump		poly all custom 10000 pour_poly.dump id type radius x y z
dump		polygz all custom/gz 10000 pour_poly.dump.gz id type radius x y z
dump		unwrap all custom 25000 pour_poly_unwrap.dump id type diameter xu yu zu
dump		reorder all custom 25000 pour_poly_reorder.dump x y z id radius type
dump		scaled all custom 25000 pour_poly_scaled.dump radius xs ys zs type id'
    # data file at the end (step 50000, same step as the last frame of all dumps)
    append "$IN" 'write_data	pour_poly.data'
    run_case pour_poly pour_poly.dump pour_poly.dump.gz pour_poly_unwrap.dump \
        pour_poly_reorder.dump pour_poly_scaled.dump pour_poly.data
}

# --- (c3) pour/in.pour, wide distribution, a short trajectory ---------------
# The pour_poly run with both runs cut to 2500 steps (pour, then chute flow)
# and a trajectory of 21 frames (every 250 steps) with ids and velocities:
# what `recommend --trajectory` reads.
case_pour_traj() {
    prepare_case pour_traj pour/in.pour
    replace_line "$IN" '^fix[[:space:]]+ins all pour 3000 1 300719 vol 0[.]13 50 region slab$' \
        'fix		ins all pour 3000 1 300719 vol 0.13 50 diam poly 3 0.25 0.6 0.6 0.3 2.0 0.1 region slab'
    [[ $(grep -cE '^run[[:space:]]+25000$' "$IN") == 2 ]] || die "in.pour: expected 2 runs of 25000 steps"
    sed -i -E 's/^run([[:space:]]+)25000$/run\12500/' "$IN"
    insert_after "$IN" '^#dump[[:space:]]+id all atom 1000 dump[.]pour$' \
        'dump		traj all custom 250 pour_traj.dump id type radius x y z vx vy vz'
    run_case pour_traj pour_traj.dump
    cp "$W/log.lammps" "$OUTDIR/pour_traj.log"
}

# --- (d) pour/in.pour.2d ----------------------------------------------------
# 1000 disks (d 0.5..1.0) poured into a 2d container, dimension 2,
# boundary f fm p, neighbor 0.2 bin; 25000 steps as written (~4 s).
case_pour2d() {
    prepare_case pour2d pour/in.pour.2d
    # enable the example's own commented dump (style atom: id type xs ys zs);
    # every 2500 steps instead of 250 (101 frames) -> 11 frames 0..25000;
    # file pour2d.dump instead of dump.pour
    replace_line "$IN" '^#dump[[:space:]]+id all atom 250 dump[.]pour$' \
        $'dump\t\tid all atom 2500 pour2d.dump'
    # a custom dump with radii of the same run, every 5000 (frames 0..25000)
    insert_after "$IN" '^dump[[:space:]]+id all atom 2500 pour2d[.]dump$' \
        $'dump\t\t4 all custom 5000 pour2d_custom.dump id type radius x y z'
    # data file at the end (step 25000, same step as the last frames)
    append "$IN" $'write_data\tpour2d.data'
    run_case pour2d pour2d.dump pour2d_custom.dump pour2d.data
}

# --- (e) granregion/in.granregion.box ---------------------------------------
# 100 spheres (d = 1, all of type 2 although create_box declares 2 types)
# poured into a box region that is then rotated; boundary f f f,
# neighbor 0.3 bin; 5 x 5000 steps as written (~1 s).
case_box() {
    prepare_case box granregion/in.granregion.box
    # one snapshot after the last run (step 25000) and the data file
    append "$IN" 'write_dump      all custom box.dump id type diameter x y z
write_data      box.data'
    run_case box box.dump box.data
}

# --- (f) triclinic box: tiny input of our own --------------------------------
# 300 spheres at random positions in a triclinic periodic box (xy xz yz != 0),
# dumped once: the reader must refuse triclinic boxes.  (`set density` after
# `set diameter`: set diameter keeps the mass of the default d = 1 sphere, so
# write_data would otherwise report density 8 for the d = 0.5 spheres.)
case_tri() {
    prepare_case tri ""
    IN=$W/in.tri
    cat >"$IN" <<'EOF'
# hgridopt fixture: triclinic box, atom_style sphere, one dump frame
units           lj
atom_style      sphere
dimension       3
boundary        p p p
region          tri prism 0 10 0 8 0 6 2.0 1.0 1.5 units box
create_box      2 tri
create_atoms    1 random 200 4243 NULL
create_atoms    2 random 100 7177 NULL
set             type 1 diameter 0.5
set             type 2 diameter 1.0
set             group all density 1.0
neighbor        0.3 bin
dump            1 all custom 1 tri.dump id type radius x y z
run             0
write_data      tri.data
EOF
    run_case tri tri.dump tri.data
}

T0=$EPOCHREALTIME
for c in "${CASES[@]}"; do
    case $c in
        funnel | drum | flatwall | pour | pour_poly | pour_traj | pour2d | box | tri) "case_$c" ;;
        *) die "unknown case '$c' (known: ${ALL_CASES[*]})" ;;
    esac
done
printf 'total          %7.1f s   -> %s\n' "$(awk -v a="$T0" -v b="$EPOCHREALTIME" 'BEGIN{print b-a}')" "$OUTDIR"
