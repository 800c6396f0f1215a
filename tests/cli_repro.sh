#!/usr/bin/env bash
# The reproducers of issue 48 (item 6): the trajectories and particle files
# of tests/data/repro/, the logs of the log reader's fuzz regression corpus
# (tests/fuzz/corpus-regress/run_log/). Each ends within 5 s with one line
# on stderr naming the field and the value, exit 1 (the data's).
. "$(dirname "$0")/cli_lib.sh"
D=$SRC/tests/data/repro
L=$SRC/tests/fuzz/corpus-regress/run_log
R="timeout 5 $HG recommend"
T="$R --engine lammps --trajectory $D/traj2.dump --log"

# the log reader: sums of counts in 64 bits, checked
expect_fail 1 "steps-sum-past-2-63' line 5: steps 9223372036854775807: the log's steps add up to more than 2\^63 - 1" -- $T "$L/steps-sum-past-2-63"
expect_fail 1 "builds-sum-past-2-63' line 12: Neighbor list builds 9223372036854775807: the log's Neighbor list builds add up" -- $T "$L/builds-sum-past-2-63"
expect_fail 1 "steps-past-2-63' line 2: steps '22222222222222222500' is not a count" -- $T "$L/steps-past-2-63"
expect_fail 1 "builds-past-2-63' line 1: Neighbor list builds '16666666666666661230' is not a count" -- $T "$L/builds-past-2-63"
expect_fail 1 "builds-past-2-63-second' line 1: Neighbor list builds '55555555555555000000' is not a count" -- $T "$L/builds-past-2-63-second"
expect_fail 1 "builds-past-2-63-third' line 2: Neighbor list builds '10666666666666666666' is not a count" -- $T "$L/builds-past-2-63-third"
expect_fail 1 "dangerous-past-2-63' line 2: Dangerous builds '44444444444444444444' is not a count" -- $T "$L/dangerous-past-2-63"
expect_fail 1 "builds-negative' line 7: Neighbor list builds '-5' is not a count" -- $T "$L/builds-negative"
# times: not finite, 0 for steps, Pair + Neigh above Loop
expect_fail 1 "loop-time-6e722-no-blanks' line 1: Loop time '6E722' is not a time in seconds" -- $T "$L/loop-time-6e722-no-blanks"
expect_fail 1 "loop-time-1e999' line 4: Loop time '1e999' is not a time in seconds" -- $T "$L/loop-time-1e999"
expect_fail 1 "loop-time-0-for-steps' line 4: Loop time 0 for 1000 steps" -- $T "$L/loop-time-0-for-steps"
expect_fail 1 "times-1e308-pair-neigh-above-loop' line 4: Pair 1e\+308 s \+ Neigh 1e\+308 s exceed the run's Loop time 1e\+308 s" -- $T "$L/times-1e308-pair-neigh-above-loop"
# no timing table: nothing to scale the model to
expect_fail 1 "no-timing-table' line 4: the run has no Pair and Neigh rows" -- $T "$L/no-timing-table"
# binary data: refused at its first NUL byte, at once
expect_fail 1 "nul-byte': binary data \(a NUL byte at offset 69\)" -- $T "$L/nul-byte"
expect_fail 1 "'/dev/zero': binary data \(a NUL byte at offset 0\)" -- $T /dev/zero
ln -s /dev/zero "$TMP/zero.log"
expect_fail 1 "zero.log': binary data \(a NUL byte at offset 0\)" -- $T "$TMP/zero.log"
truncate -s 2G "$TMP/sparse.log"
expect_fail 1 "sparse.log': binary data \(a NUL byte at offset 0\)" -- $T "$TMP/sparse.log"
rm -f "$TMP/sparse.log"
# the log's skin: bins LAMMPS refuses on this box
expect_fail 1 "frame 1 \(step 0\), bin at skin 1e\+200: box edge x: 20 is below 1/100 of the bins of 5e\+199 .*Cannot use neighbor bins - box size << cutoff" -- $T "$L/skin-1e200"
expect_fail 1 "frame 1 \(step 0\), bin at skin 1e\+05: box edge x: 20 is below 1/100 of the bins of 50000.5 .*Cannot use neighbor bins - box size << cutoff" -- $T "$L/skin-1e5"

# one atom far along z: more bins than LAMMPS allows
for f in far_atom traj_far_atom; do
    expect_fail 1 "^hgridopt: box edge z: 1e\+07 holds 9.09e\+09 bins of 0.0011, more than LAMMPS allows .*Domain too large for neighbor bins" -- $R --packing "$D/$f.dump" --engine lammps
    expect_fail 1 "^hgridopt: binsize: 0.0011 makes 9.09091e\+09 bins along z \(LIGGGHTS: \"Domain too large for neighbor bins\"\)" -- $R --packing "$D/$f.dump" --engine liggghts
done
expect_fail 1 "^hgridopt: bins of 0.04: a rank holds 3.54e\+12 of them, more than LAMMPS allows .*Too many neighbor bins" -- $R --packing "$D/fuzz_traj_crash_lammps383.dump" --engine lammps
expect_fail 1 "^hgridopt: binsize: 0.4011 makes 3.53e\+12 bins per rank \(LIGGGHTS: \"Too many neighbor bins\"\)" -- $R --packing "$D/fuzz_traj_crash_lammps383.dump" --engine liggghts
expect_fail 1 "frame 1 \(step 0\), bin at skin 4e-05: box edge z: 1e\+07 holds 9.8e\+09 bins .*Domain too large for neighbor bins" -- $R --trajectory "$D/traj_far_atom.dump" --engine lammps

# skins of 100x the box (an atom's motion): refused as LAMMPS and
# LIGGGHTS do, without counting their stencils for seconds
expect_fail 1 "frame 1 \(step 4000\), bin at skin 8: box edge x: 0.04 is below 1/100 of the bins of 4.0025 .*Cannot use neighbor bins" -- $R --trajectory "$D/fuzz_traj_timeout_lammps.dump" --engine lammps
expect_fail 1 "frame 2 \(step 4000\), bin \(LIGGGHTS' default bins\) at skin 19: box edge x: 0.04 is below 1/100 of the bins of 9.501 .*Cannot use neighbor bins" -- $R --trajectory "$D/fuzz_traj_timeout_liggghts.dump" --engine liggghts --timestep 1e-4
expect_fail 1 "frame 2 \(step 2000\), bin \(LIGGGHTS' default bins\) at skin 8.1: box edge x: 0.04 .*Cannot use neighbor bins" -- $R --trajectory "$D/fuzz_traj_timeout_liggghts2.dump" --engine liggghts --timestep 1e-4
expect_fail 1 "frame 1 \(step 0\), bin at skin 8: box edge x: 0.04 is below 1/100 of the bins of 4.0005 .*Cannot use neighbor bins" -- $R --trajectory "$D/traj_fast_atom.dump" --engine lammps --timestep 1e-4
expect_fail 1 "frame 1 \(step 0\), bin \(LIGGGHTS' default bins\) at skin 8: box edge x: 0.04 .*Cannot use neighbor bins" -- $R --trajectory "$D/traj_fast_atom.dump" --engine liggghts --timestep 1e-4

# a trajectory's own errors are the data's, as a --packing file's
head -c 300 "$D/traj2.dump" > "$TMP/cut.dump"
expect_fail 1 "cut.dump:20: 4 columns, ITEM: ATOMS names 6" -- $R --engine lammps --trajectory "$TMP/cut.dump"
expect_fail 1 "cut.dump:20: " -- $R --engine lammps --packing "$TMP/cut.dump"

# and the same trajectory with a good log still works
printf 'LAMMPS (29 Sep 2021)\nneighbor 0.2 bin\nrun 100\nLoop time of 1.5 on 1 procs for 100 steps with 100 atoms\nPair | 0.1 | 0.5 | 0.6 | 0 | 30\nNeigh | 0.1 | 0.2 | 0.3 | 0 | 10\nNeighbor list builds = 10\nDangerous builds = 0\n' > "$TMP/good.log"
expect_ok "your log:  1 run, 100 steps on 1 proc: Loop 1.5 s, Neigh 0.2 s, Pair 0.5 s" -- $T "$TMP/good.log"
finish
