#!/usr/bin/env bash
# Hostile inputs and failed outputs (issue 12 items 1-4, 9, 11-15, 17):
# every case ends with a clear message or finite numbers, never NaN, a
# runaway read, a truncated output file or death by signal.
. "$(dirname "$0")/cli_lib.sh"
E="$HG evaluate"
R="$HG recommend"

# item 1: a degenerate log-normal evaluates to finite numbers
out=$($E --psd lognormal:median=2,sigma=1e-300,rmin=1,rmax=3 --dim 3 --nu 0.5 --sizes 3.9,4,6 2>&1)
if printf '%s\n' "$out" | grep -Eqi 'nan|inf'; then bad "item 1: $out"; else ok; fi
expect_ok 'T = .*predicted speed-up [0-9]' -- $E --psd lognormal:median=2,sigma=1e-60,rmin=1,rmax=3 --dim 3 --nu 0.5 --sizes 3.9,4,6
# item 2: far-tail windows
for s in weibull:scale=1,shape=4,rmin=29,rmax=32 weibull:scale=1,shape=4,rmin=20,rmax=32 \
         rosin-rammler:x63=1,shape=8,rmin=3,rmax=4 weibull:scale=0.011,shape=4,rmin=0.1,rmax=2,basis=volume; do
    expect_ok 'L = ' -- $R --psd $s --dim 3 --nu 0.3
    expect_ok '' -- $HG pack --psd $s --dim 3 --nu 0.3 --n 300 --output $TMP/tail.csv
done
# (one level of the linked cell's size: the same grid, timed once)
expect_ok 'speed-up over the linked cell: (measured [0-9]|1, the same grid)' -- $HG validate --psd weibull:scale=0.011,shape=4,rmin=0.1,rmax=2,basis=volume --dim 3 --nu 0.01 --n 20000
expect_ok 'speed-up over the linked cell: (measured [0-9]|1, the same grid)' -- $HG validate --psd rosin-rammler:x63=1,shape=8,rmin=3,rmax=4 --dim 3 --nu 0.3 --n 3000
# item 4
expect_ok 'L = ' -- $R --psd 'discrete:r=1;2,frac=1e308;1e308' --dim 3 --nu 0.3

# item 3: radii whose ratio to the largest is not a double, with file:line
printf 'x,y,r\n0,0,1.1852\n1,1,1e-320\n' > $TMP/tiny.csv
expect_fail 1 "tiny.csv:3: radius 9.9998886718268301e-321 is too small next to the largest radius 1.1852" -- $R --packing $TMP/tiny.csv
printf '1.5\n1e-320\n2\n' > $TMP/tiny.txt
expect_fail 1 "sample file .*tiny.txt:2: radius .* is too small next to the largest radius 2" -- $R --psd sample:file=$TMP/tiny.txt --dim 3 --nu 0.3

# item 9: the bounding box is announced
printf 'x,y,r\n0,0,1\n3,1,0.5\n' > $TMP/nobox.csv
$R --packing $TMP/nobox.csv >/dev/null 2>$TMP/err
if grep -q "note: .*nobox.csv gives no box; using the bounding box of the spheres with walls (nu = 0.349.*# box xlo xhi ylo yhi periodic.walls" $TMP/err; then ok; else bad "item 9: $(cat $TMP/err)"; fi

# item 11: a failed write keeps the old file and names the file
echo old > $TMP/keep.json
( ulimit -f 1; $R --psd powerlaw:alpha=-3,omega=100 --dim 3 --nu 0.5 --format json --output $TMP/keep.json ) 2>$TMP/err
rc=$?
if [ $rc = 1 ] && [ "$(cat $TMP/keep.json)" = old ] && grep -q "keep.json: write error: File too large" $TMP/err &&
   [ "$(ls $TMP | grep -c 'keep.json.tmp')" = 0 ]; then ok; else bad "item 11 (ulimit): rc $rc, $(cat $TMP/err), $(ls $TMP)"; fi
echo old > $TMP/keep.csv
( ulimit -f 4; $HG pack --psd mono:r=1 --dim 3 --nu 0.3 --n 5000 --output $TMP/keep.csv ) 2>$TMP/err
rc=$?
if [ $rc = 1 ] && [ "$(cat $TMP/keep.csv)" = old ] && grep -q "keep.csv: write error" $TMP/err &&
   [ "$(ls $TMP | grep -c 'keep.csv.tmp')" = 0 ]; then ok; else bad "item 11 (pack): rc $rc, $(cat $TMP/err)"; fi
expect_fail 1 "/dev/full: write error: No space left on device" -- $R --psd powerlaw:alpha=-3,omega=100 --dim 3 --nu 0.5 --output /dev/full
expect_fail 1 "/dev/full: write error: No space left on device" -- $HG pack --psd mono:r=1 --dim 3 --nu 0.3 --n 3000 --format csv --output /dev/full
expect_ok '' -- $R --psd powerlaw:alpha=-3,omega=100 --dim 3 --nu 0.5 --output $TMP/keep.json
if grep -q 'L = ' $TMP/keep.json; then ok; else bad "item 11: success did not replace the file"; fi

# item 12: NUL bytes are rejected as read; input size is bounded
expect_fail 1 "sample file /dev/zero:1: binary data \(NUL byte\)" -- timeout 60 $R --psd sample:file=/dev/zero --dim 3 --nu 0.3
expect_fail 1 "table file /dev/zero:1: binary data \(NUL byte\)" -- timeout 60 $R --psd table:file=/dev/zero,size=radius,basis=number --dim 3 --nu 0.3
expect_fail 1 "/dev/zero: binary data \(NUL byte at offset 0\)" -- timeout 60 $R --packing /dev/zero
expect_fail 1 "/dev/zero: binary data \(NUL byte at offset 0\)" -- timeout 60 $R --system /dev/zero
printf 'size,frac\n1,0\n\0\n2,100\n' > $TMP/nul.csv
expect_fail 1 "table file .*nul.csv:3: binary data \(NUL byte\)" -- $R --psd table:file=$TMP/nul.csv,size=radius,basis=number --dim 3 --nu 0.3
yes 1 | head -c 3000000 > $TMP/big.txt
expect_fail 1 "big.txt: larger than the input limit of 1048576 bytes \(raise it with 'hgridopt --max-input SIZE' or the environment variable HGRIDOPT_MAX_INPUT\)" -- $HG --max-input 1M recommend --psd sample:file=$TMP/big.txt --dim 3 --nu 0.3
expect_fail 1 "big.txt: larger than the input limit of 2097152 bytes" -- env HGRIDOPT_MAX_INPUT=2M $R --packing $TMP/big.txt
expect_ok 'L = ' -- env HGRIDOPT_MAX_INPUT=2M $HG --max-input 4M recommend --psd sample:file=$TMP/big.txt --dim 3 --nu 0.3
expect_fail 2 "--max-input: 'lots' is not a size" -- $HG --max-input lots recommend --psd mono:r=1 --dim 3 --nu 0.3

# item 13: memory estimated up front; dense refuses the impossible
expect_fail 2 "--n: 2000000000 particles with the poisson generator need about 119 GiB of memory, more than the .* GiB of this machine \(give --max-memory SIZE to try anyway\)" -- $HG pack --psd mono:r=1 --dim 3 --nu 0.3 --n 2000000000 --output $TMP/big.csv
expect_fail 2 "need about 0.0268 GiB of memory, more than the 0.00977 GiB allowed by --max-memory" -- $HG pack --psd mono:r=1 --dim 3 --nu 0.3 --n 200000 --max-memory 10M --output $TMP/big.csv
expect_fail 2 "dense: nu = 0.99 is above the densest packing of equal spheres \(0.7405 in 3D\)" -- timeout 60 $HG pack --psd mono:r=1 --nu 0.99 --dim 3 --n 2000 --generator dense --output $TMP/d.csv
timeout 300 $HG pack --psd discrete:r=1\;1.05,frac=1\;1 --nu 0.9 --dim 3 --n 300 --generator dense --output $TMP/d.csv 2>$TMP/err
rc=$?
if [ $rc = 0 ] && grep -q "pack: dense jammed: stopped at nu = 0\.[4-6]" $TMP/err; then ok; else bad "item 13 jammed: rc $rc $(cat $TMP/err)"; fi

# item 14 through the CLI
printf '{"dim": 3, "nu": 0.3, "distribution": "mono:r=1"} garbage\n' > $TMP/g.json
expect_fail 1 "g.json:1: text after the JSON document \(byte offset 50\)" -- $R --system $TMP/g.json
printf '{"dim": 3, "nu": 0.3, "nu": 0.4, "distribution": "mono:r=1"}\n' > $TMP/d.json
expect_fail 1 "d.json: key \"nu\" is given twice" -- $R --system $TMP/d.json

# item 15: empty boxes, 2D LAMMPS with z, pack --input messages
printf '#5period\nx,y,r\n96204956319397838,12.87188,1.1852\n' > $TMP/e.csv
expect_fail 1 "pack --input: .*e.csv: no box given and the bounding box of the spheres is empty along x" -- $HG pack --input $TMP/e.csv --output $TMP/o.csv
printf 'hgridopt dim 2 periodic\n\n1 atoms\n\n0 10 xlo xhi\n0 10 ylo yhi\n-1 1 zlo zhi\n\nAtoms # sphere\n\n1 1 2 1 5 5 7\n' > $TMP/z.data
expect_fail 1 "pack --input: .*z.data:11: z = 7 in a 2D file" -- $HG pack --input $TMP/z.data --output $TMP/o.csv
expect_fail 1 "pack --input: .*missing.csv: cannot open" -- $HG pack --input $TMP/missing.csv --output $TMP/o.csv

# item 17: specs from system files are echoed with shortest round-trip numbers
printf '{"dim": 3, "nu": 0.3, "distribution": {"family": "lognormal", "median": 0.3, "sigma": 0.6, "rmin": 0.1, "rmax": 1.7}}\n' > $TMP/s.json
for f in table json lammps mercurydpm; do
    expect_ok 'lognormal:median=0\.3,sigma=0\.6,rmin=0\.1,rmax=1\.7' -- $R --system $TMP/s.json --format $f
done
finish
