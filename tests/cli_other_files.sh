#!/usr/bin/env bash
# Files of other people's runs (issue 48): each kind read with its boundary
# from the file where the file says it (--boundary always replacing it), or
# refused by name with what to give instead; several files of one frame
# joined by --packing a,b. Fixtures: tests/data/files/ (mercurydpm/
# make_fixtures.cpp: files MercuryDPM wrote, and make_old_restart.py;
# paraview/make_fixtures.py, lammps/in.restart_tiny and in.split_groups,
# liggghts/in.restart_tiny).
. "$(dirname "$0")/cli_lib.sh"
F=$SRC/tests/data/files
M=$F/mercurydpm
L=$F/lammps
G=$F/liggghts
P=$F/paraview
R="$HG recommend"

# ---- MercuryDPM .data whose first saved step holds no particles (2D; a
# CubeInsertionBoundary's run: 0, 31, 50, 50 particles)
expect_ok '^file: .*mdpm_insert2d.data: MercuryDPM .data file, frame 4 of 4 \(time 0.12\); boundary from mdpm_insert2d.restart: 4 walls' -- $R --packing $M/mdpm_insert2d.data
expect_ok '^snapshot: +N = 50, boundary f f,' -- $R --packing $M/mdpm_insert2d.data
expect_ok '^snapshot: +N = 31, ' -- $R --packing $M/mdpm_insert2d.data --frame 2
expect_fail 1 'time step 1 \(time 0\) has no particles; choose another with --frame' -- $R --packing $M/mdpm_insert2d.data --frame 1
expect_ok '^snapshot: +N = 50, boundary p p,' -- $R --packing $M/mdpm_insert2d.data --boundary "p p"
# the restart: its CubeInsertionBoundary line (with the particle it
# copies) bounds nothing; the walls do
expect_ok '^file: .*mdpm_insert2d.restart: MercuryDPM restart file; 4 walls \(4 InfiniteWalls along an axis\), periodic boundaries along no axis' -- $R --packing $M/mdpm_insert2d.restart
expect_ok '^snapshot: +N = 50, boundary f f,' -- $R --packing $M/mdpm_insert2d.restart
# without its extension (and no .restart beside it): told by its content
cp $M/mdpm_insert2d.data $TMP/insert2d
expect_ok '^file: .*insert2d: MercuryDPM .data file, frame 4 of 4' -- $R --packing $TMP/insert2d
expect_ok '^snapshot: +N = 50, boundary f f,' -- $R --packing $TMP/insert2d

# ---- MercuryDPM restarts: each boundary kind
expect_ok '^boundary: +p p, from the file$' -- $R --packing $M/mdpm_lees2d.restart
expect_ok 'LeesEdwardsBoundary: periodic along x and y \(the shear shifts the images along x, here by 0.002; it is not a wall; the shift is not applied: pairs across y are measured unshifted\)' -- $R --packing $M/mdpm_lees2d.restart
expect_ok '^boundary: +f f, given \(--boundary\); the file states its own, which this replaces$' -- $R --packing $M/mdpm_lees2d.restart --boundary "f f"
expect_ok '^boundary: +p p f, from the file$' -- $R --packing $M/mdpm_tdperiodic3d.restart
expect_ok 'TimeDependentPeriodicBoundary: periodic along y' -- $R --packing $M/mdpm_tdperiodic3d.restart
expect_ok '^boundary: +f f f, given' -- $R --packing $M/mdpm_tdperiodic3d.restart --boundary "f f f"
expect_fail 1 'mdpm_angled3d.restart: AngledPeriodicBoundary \(periodic between two planes at an angle .*\): a periodic boundary that an axis-aligned box cannot hold; give the boundary to use instead with --boundary' -- $R --packing $M/mdpm_angled3d.restart
expect_ok '^boundary: +p p f, given' -- $R --packing $M/mdpm_angled3d.restart --boundary "p p f"
expect_ok 'AngledPeriodicBoundary .* not represented \(--boundary replaces it\)' -- $R --packing $M/mdpm_angled3d.restart --boundary "f f f"
# restart_version 3: xmin .., dim, position_left, 'TSP BP x y z ...'
expect_ok '^boundary: +p p f, from the file$' -- $R --packing $M/mdpm_old3d.restart
expect_ok '^snapshot: +N = 250, boundary p p f' -- $R --packing $M/mdpm_old3d.restart
expect_ok '^snapshot: +N = 250, boundary f f f' -- $R --packing $M/mdpm_old3d.restart --boundary "f f f"
# the old layout and the new of the same particles (make_old_restart.py):
# the same density
a=$($R --packing $M/mdpm_old3d.restart 2>/dev/null | grep '^density:')
b=$($R --packing $M/mdpm_tdperiodic3d.restart 2>/dev/null | grep '^density:')
[ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "old and new restart layouts: '$a' vs '$b'"
# pack converts with --boundary replacing the angled boundary
$HG pack --packing $M/mdpm_angled3d.restart --boundary "f f f" --output $TMP/angled.csv 2>/dev/null &&
    head -1 $TMP/angled.csv | grep -q ' walls$' && [ "$(wc -l < $TMP/angled.csv)" = 252 ] && ok || bad "pack of the angled restart with --boundary"

# ---- MercuryDPM's Particle_N.vtu: with the .restart beside it, and alone
expect_ok '^file: .*MercuryDPM Particle_N.vtu \(XML VTK UnstructuredGrid\); 2D: every z is 0; boundary from mdpm_lees2d.restart' -- $R --packing $M/mdpm_lees2dParticle_2.vtu
expect_ok '^boundary: +p p, from the file$' -- $R --packing $M/mdpm_lees2dParticle_2.vtu
cp $M/mdpm_lees2dParticle_2.vtu $TMP/aloneParticle_2.vtu
expect_ok '^snapshot: +N = 100, boundary f f' -- $R --packing $TMP/aloneParticle_2.vtu
a=$($R --packing $M/mdpm_lees2dParticle_2.vtu 2>/dev/null | grep '^snapshot:' | sed 's/nu [0-9.]*, occupied region nu [0-9.]*//')
b=$($R --packing $M/mdpm_lees2d.restart 2>/dev/null | grep '^snapshot:' | sed 's/nu [0-9.]*, occupied region nu [0-9.]*//')
[ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "vtu and restart of the same particles: '$a' vs '$b'"
out=$($HG validate --packing $M/mdpm_lees2dParticle_2.vtu --repeats 1 --no-baseline 2>/dev/null | grep '^total')
printf '%s\n' "$out" | awk '{ exit !($4 > 0.9 && $4 < 1.1) }' && ok || bad "Particle_2.vtu validate ratio: $out"

# ---- refused by name, with what to give instead and the formats read
expect_fail 1 'mdpm_walls3d.fstat: a MercuryDPM .fstat file \(contact forces per saved step\), not particles; give the .data or .restart of the same run \(mdpm_walls3d.data, mdpm_walls3d.restart\) \(it reads LAMMPS' -- $R --packing $M/mdpm_walls3d.fstat
expect_fail 1 'mdpm_walls2d.ene: a MercuryDPM .ene file \(energies per saved step\), not particles; give .* \(mdpm_walls2d.data, mdpm_walls2d.restart\)' -- $R --packing $M/mdpm_walls2d.ene
expect_fail 1 'mdpm_insert2d.xballs: MercuryDPM.s XBalls script \(it shows a .data file in XBalls\), not particles; give the .data or .restart of the same run \(mdpm_insert2d.data, mdpm_insert2d.restart\)' -- $R --packing $M/mdpm_insert2d.xballs
cp $M/mdpm_insert2d.xballs $TMP/show.sh
expect_fail 1 'show.sh: MercuryDPM.s XBalls script' -- $R --packing $TMP/show.sh
cp $M/mdpm_walls3d.fstat $TMP/contacts.txt
expect_fail 1 'contacts.txt: a MercuryDPM .fstat file' -- $R --packing $TMP/contacts.txt
expect_fail 1 'restart.tiny: a LAMMPS/LIGGGHTS binary restart file \(write_restart\), which hgridopt does not read; write the particles as text from the same run: write_data FILE \(LAMMPS\), or dump ID all custom N FILE id type x y z radius \(it reads LAMMPS' -- $R --packing $L/restart.tiny
expect_fail 1 'restart.tiny: a LAMMPS/LIGGGHTS binary restart file' -- $R --packing $G/restart.tiny
cp $G/restart.tiny $TMP/state.bin
expect_fail 1 'state.bin: a LAMMPS/LIGGGHTS binary restart file' -- $HG validate --packing $TMP/state.bin
printf 'x\0y\n' > $TMP/other.bin
expect_fail 1 'other.bin: binary data \(NUL byte at offset 1\) in a text file \(it reads LAMMPS' -- $R --packing $TMP/other.bin

# ---- ParaView CSV exports
expect_ok '^file: .*pour_wide_5000.csv: ParaView CSV export \(Points:0..2, radius\)' -- $R --packing $P/pour_wide_5000.csv
expect_ok '^snapshot: +N = 1000, boundary f f f' -- $R --packing $P/pour_wide_5000.csv
expect_ok '^file: .*collapse2d_mono.csv: ParaView CSV export \(Points:0..2, diameter\)' -- $R --packing $P/collapse2d_mono.csv
# diameter halved: the same radii as LIGGGHTS' VTK of the frame
a=$($R --packing $P/collapse2d_mono.csv --format json 2>/dev/null | grep -E '"r_(min|max)":')
b=$($R --packing $G/collapse2d_140000.vtk --format json 2>/dev/null | grep -E '"r_(min|max)":')
[ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "ParaView diameter vs the VTK's radius: '$a' vs '$b'"
# a monolayer one diameter thick: layers along y (in the plane), not z
expect_ok '^layers \(y\):' -- $R --packing $P/collapse2d_mono.csv
out=$($R --packing $P/collapse2d_mono.csv 2>/dev/null)
printf '%s\n' "$out" | grep -q '^layers (z)' && bad "monolayer profiled along z" || ok
printf '%s\n' "$out" | awk '/^layers/ { s = $0; sub(/^layers \([xyz]\): *nu /, "", s); sub(/;.*/, "", s);
    n = split(s, v, " "); for (i = 1; i <= n; i++) if (v[i] + 0 > 0.91) exit 1; f = 1 }
    END { exit !f }' && ok || bad "layer packing fractions above 0.91: $(printf '%s\n' "$out" | grep '^layers')"
# its pair statistics: the centres share z (the snapshot's grid of centres
# overflowed on a span of 0 and counted nothing: density 0, ratio inf)
expect_ok '^density: +the particles experience nu 0\.0[5-9]' -- $R --packing $P/collapse2d_mono.csv
out=$($HG validate --packing $P/collapse2d_mono.csv --repeats 1 --no-baseline 2>/dev/null | grep '^total')
printf '%s\n' "$out" | awk '{ exit !($4 > 0.9 && $4 < 1.1) }' && ok || bad "monolayer validate ratio: $out"
printf '"id","Points:0","Points:1","v:0"\n1,0,0,0\n' > $TMP/noradius.csv
expect_fail 1 'noradius.csv:1: header: needs columns x, y, r .* or ParaView.s "Points:0","Points:1","Points:2" with "radius" or "diameter"' -- $R --packing $TMP/noradius.csv

# ---- several files of one frame: --packing a,b
expect_ok '2 files of one frame joined \(150 particles\); their boxes agree' -- $R --packing $L/split_big_0.dump,$L/split_small_0.dump
a=$($R --packing $L/split_big_0.dump,$L/split_small_0.dump 2>/dev/null | grep -E '^(snapshot|density|decision):')
b=$($R --packing $L/split_whole_0.data --boundary "p p f" 2>/dev/null | grep -E '^(snapshot|density|decision):')
[ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "two files of one frame vs write_data of it: '$a' vs '$b'"
expect_ok '^total ' -- $HG validate --packing $L/split_big_0.dump,$L/split_small_0.dump --repeats 1 --no-baseline
$HG pack --packing $L/split_big_0.dump,$L/split_small_0.dump --output $TMP/joined.xyz 2>/dev/null &&
    [ "$(head -1 $TMP/joined.xyz)" = 150 ] && ok || bad "pack of two files of one frame"
expect_fail 1 'nothere.dump: cannot open' -- $R --packing $L/split_big_0.dump,$TMP/nothere.dump
expect_fail 1 'mdpm_insert2d.data: 2D particles, but .*split_big_0.dump holds 3D ones' -- $R --packing $L/split_big_0.dump,$M/mdpm_insert2d.data
expect_fail 1 'split_big_0.dump: its boundary along x is periodic, .*mdpm_walls3d.restart.s is not periodic: the files of one frame share the boundary' -- $R --packing $M/mdpm_walls3d.restart,$L/split_big_0.dump
# calibrate keeps its meaning: several packings, each its own frame
expect_fail 2 "option '--packing' given twice \\(give it once; the files of one frame: --packing big_1000.vtk,small_1000.vtk\\)" -- $R --packing $L/split_big_0.dump --packing $L/split_small_0.dump
$HG calibrate --engine lammps --help | grep -q 'separate packings' && ok || bad "calibrate --help does not say its --packing files are separate packings"
$HG recommend --help | grep -q 'files of one frame' && ok || bad "recommend --help does not say --packing a,b joins one frame"

finish
