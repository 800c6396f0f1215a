#!/usr/bin/env bash
# Every rejected input of the CLI: one line on stderr naming the field and
# the value, exit status 2 (usage) or 1 (data), never a crash.
. "$(dirname "$0")/cli_lib.sh"
P="--psd powerlaw:alpha=-3,omega=10"
E="$HG evaluate"

expect_fail 2 "unknown command 'frobnicate'" -- $HG frobnicate
expect_fail 2 "unknown option '--bogus'" -- $E --bogus
expect_fail 2 "option '--nu' needs a value" -- $E $P --dim 3 --sizes 20 --nu
expect_fail 2 "--nu: 'abc' is not a number" -- $E $P --dim 3 --nu abc --sizes 20
expect_fail 2 "--nu: 'nan' is not a finite number" -- $E $P --dim 3 --nu nan --sizes 20
expect_fail 2 "--nu: 'inf' is not a finite number" -- $E $P --dim 3 --nu inf --sizes 20
expect_fail 2 "--nu: 1.5 is outside \(0, 1\)" -- $E $P --dim 3 --nu 1.5 --sizes 20
expect_fail 2 "--nu: 0 is outside \(0, 1\)" -- $E $P --dim 3 --nu 0 --sizes 20
expect_fail 2 "--nu: missing" -- $E $P --dim 3 --sizes 20
expect_fail 2 "--dim: 4 is outside \[2, 3\]" -- $E $P --dim 4 --nu 0.5 --sizes 20
expect_fail 2 "--dim: '2.5' is not an integer" -- $E $P --dim 2.5 --nu 0.5 --sizes 20
expect_fail 2 "--dim: missing" -- $E $P --nu 0.5 --sizes 20
expect_fail 2 "--K: 0 must be > 0" -- $E $P --dim 3 --nu 0.5 --K 0 --sizes 20
expect_fail 2 "--K: -1 must be > 0" -- $E $P --dim 3 --nu 0.5 --K -1 --sizes 20
expect_fail 2 "--psd: missing" -- $E --dim 3 --nu 0.5 --sizes 20
expect_fail 2 "unknown distribution family 'foo'" -- $E --psd foo:a=1 --dim 3 --nu 0.5 --sizes 20
expect_fail 2 "powerlaw: unknown parameter 'beta'" -- $E --psd powerlaw:alpha=-3,omega=10,beta=2 --dim 3 --nu 0.5 --sizes 20
expect_fail 2 "powerlaw alpha: 'x' is not a number" -- $E --psd powerlaw:alpha=x,omega=10 --dim 3 --nu 0.5 --sizes 20
expect_fail 2 "powerlaw rmin: 0 must be > 0" -- $E --psd powerlaw:alpha=-3,rmin=0,rmax=2 --dim 3 --nu 0.5 --sizes 20
expect_fail 2 "powerlaw rmin: -1 must be > 0" -- $E --psd powerlaw:alpha=-3,rmin=-1,rmax=2 --dim 3 --nu 0.5 --sizes 20
expect_fail 2 "powerlaw rmin: 3 must be < rmax = 2" -- $E --psd powerlaw:alpha=-3,rmin=3,rmax=2 --dim 3 --nu 0.5 --sizes 20
expect_fail 2 "powerlaw rmin: 2 must be < rmax = 2" -- $E --psd powerlaw:alpha=-3,rmin=2,rmax=2 --dim 3 --nu 0.5 --sizes 20
expect_fail 2 "powerlaw alpha: 5000 is too extreme" -- $E --psd powerlaw:alpha=5000,omega=10 --dim 3 --nu 0.5 --sizes 20
expect_fail 2 "powerlaw omega: 1 must be > 1" -- $E --psd powerlaw:alpha=-3,omega=1 --dim 3 --nu 0.5 --sizes 20
expect_fail 2 "powerlaw: missing parameter 'alpha'" -- $E --psd powerlaw:omega=10 --dim 3 --nu 0.5 --sizes 20
expect_fail 2 "not of the form key=value" -- $E --psd powerlaw:alpha --dim 3 --nu 0.5 --sizes 20
expect_fail 2 "--sizes: missing" -- $E $P --dim 3 --nu 0.5
expect_fail 2 "--sizes: the last cell size 10 is below the largest particle diameter 20" -- $E $P --dim 3 --nu 0.5 --sizes 4,10
expect_fail 2 "strictly ascending: size 2 = 4 follows 8" -- $E $P --dim 3 --nu 0.5 --sizes 8,4,20
expect_fail 2 "--sizes: 'a' is not a number" -- $E $P --dim 3 --nu 0.5 --sizes 4,a,20
expect_fail 2 "cell size 1 = -4 must be finite and > 0" -- $E $P --dim 3 --nu 0.5 --sizes -4,20
expect_fail 2 "--algorithm: unknown value 'sideways'" -- $E $P --dim 3 --nu 0.5 --sizes 20 --algorithm sideways
expect_fail 2 "--format: unknown format 'xml'" -- $E $P --dim 3 --nu 0.5 --sizes 20 --format xml
expect_fail 2 "unexpected argument 'extra'" -- $E $P --dim 3 --nu 0.5 --sizes 20 extra
expect_fail 1 "nonexistent.json: cannot open" -- $E --system "$TMP/nonexistent.json" --sizes 20
printf '{ "dim": 3, "nu": 0.5, ' > "$TMP/bad.json"
expect_fail 1 "bad.json:1: malformed JSON" -- $E --system "$TMP/bad.json" --sizes 20
printf '{ "dim": 3, "nu": 1.5, "distribution": "mono:r=1" }' > "$TMP/nu.json"
expect_fail 1 "nu.json: \"nu\": 1.5 is outside \(0, 1\)" -- $E --system "$TMP/nu.json" --sizes 20
printf '{ "dim": 3, "nu": 0.5, "colour": "red", "distribution": "mono:r=1" }' > "$TMP/key.json"
expect_fail 1 "key.json: unknown key \"colour\"" -- $E --system "$TMP/key.json" --sizes 20
printf '{ "dim": 3, "nu": "half", "distribution": "mono:r=1" }' > "$TMP/type.json"
expect_fail 1 "type.json: \"nu\" must be a number" -- $E --system "$TMP/type.json" --sizes 20
printf '{ "dim": 3, "nu": 0.5, "distribution": {"family": "powerlaw", "alpha": -3, "omega": -2} }' > "$TMP/dist.json"
expect_fail 1 "dist.json: \"distribution\": powerlaw omega: -2 must be > 1" -- $E --system "$TMP/dist.json" --sizes 20
expect_fail 1 "--output: cannot write" -- $E $P --dim 3 --nu 0.5 --sizes 20 --output /nonexistent/dir/x

# the same inputs done right work
expect_ok "work per particle" -- $E $P --dim 3 --nu 0.5 --sizes 20
expect_ok "hgridopt.evaluation/1" -- $E $P --dim 3 --nu 0.5 --sizes 20 --format json
printf '{ "dim": 2, "nu": 0.4, "distribution": {"family": "powerlaw", "alpha": -3, "omega": 20} }' > "$TMP/ok.json"
expect_ok "T = .* = 4\.403" -- $E --system "$TMP/ok.json" --sizes 4.0,7.9,15.1,27.2,40 --K paper
expect_ok "nu = 0\.3" -- $E --system "$TMP/ok.json" --nu 0.3 --sizes 40
# ---- file-based distributions, through recommend (exit 1: data) ----
R="$HG recommend --dim 3 --nu 0.5"
printf '1,0.1\n0.5,0.5\n2,1\n' > "$TMP/nonmono.csv"
expect_fail 1 "nonmono.csv:2: size 0.5 is not larger than the previous size 1" -- $R --psd "table:file=$TMP/nonmono.csv,size=radius,basis=number"
printf '0.1,0\n0.5,0.6\n1,0.4\n2,1\n' > "$TMP/cumdown.csv"
expect_fail 1 "cumdown.csv:3: cumulative fraction 0.4 is below the previous value 0.6" -- $R --psd "table:file=$TMP/cumdown.csv,size=radius,basis=number"
printf '0.1,0\n0.5,x\n2,1\n' > "$TMP/nan.csv"
expect_fail 1 "nan.csv:2: 'x' is not a number" -- $R --psd "table:file=$TMP/nan.csv,size=radius,basis=number"
printf '0.1,0\n0.5,-0.2\n1,0.5\n' > "$TMP/negfrac.csv"
expect_fail 1 "negfrac.csv:2: fraction -0.2 must be >= 0" -- $R --psd "table:file=$TMP/negfrac.csv,size=radius,basis=number,kind=fraction"
: > "$TMP/empty.txt"
expect_fail 1 "empty.txt: no radii \(empty sample\)" -- $R --psd "sample:file=$TMP/empty.txt"
printf '1\n-2\n' > "$TMP/negr.txt"
expect_fail 1 "negr.txt:2: size -2 must be > 0" -- $R --psd "sample:file=$TMP/negr.txt"
printf '1\nnan\n' > "$TMP/nanr.txt"
expect_fail 1 "nanr.txt:2: " -- $R --psd "sample:file=$TMP/nanr.txt"
expect_fail 1 "cannot open '$TMP/missing.txt'" -- $R --psd "sample:file=$TMP/missing.txt"
expect_fail 2 "discrete frac: item 1 = -1 must be >= 0" -- $R --psd "discrete:r=1;2,frac=-1;2"
expect_fail 2 "lognormal sigma: 0 must be > 0" -- $R --psd "lognormal:median=1,sigma=0,rmin=0.1,rmax=2"
expect_fail 2 "weibull shape: -1 must be > 0" -- $R --psd "weibull:scale=1,shape=-1,rmin=0.1,rmax=2"
expect_fail 2 "mono r: -1 must be > 0" -- $R --psd "mono:r=-1"

# ---- recommend options ----
expect_fail 2 "--max-levels: 0 is outside \[1, 256\]" -- $R $P --max-levels 0
expect_fail 2 "--tolerance: 1.5 is outside \[0, 1\)" -- $R $P --tolerance 1.5
expect_fail 2 "--method: unknown" -- $R $P --method magic
expect_fail 2 "--algorithm: unknown value 'up'" -- $R $P --algorithm up
expect_fail 2 "--skin: .-1. is not a skin > 0" -- $R $P --format lammps --skin -1
expect_fail 2 "--format: unknown format 'yaml'" -- $R $P --format yaml
expect_fail 2 "--q: 0 must be > 0" -- $R $P --method constant-m --q 0
expect_ok "neigh_modify collection/interval" -- $R $P --format lammps --skin 0.05
expect_ok "setHGridMethod" -- $R $P --format mercurydpm
expect_ok "\"schema\":.*hgridopt.recommendation/1" -- $R $P --format json
$R $P --format json --output "$TMP/out.json" && grep -q recommendation/1 "$TMP/out.json" && ok || bad "--output did not write the file"
# stdin system file
printf '{ "dim": 2, "nu": 0.4, "distribution": "powerlaw:alpha=-3,omega=20" }' | "$HG" recommend --system - > "$TMP/stdin.txt" 2>&1 && grep -q "decision" "$TMP/stdin.txt" && ok || bad "--system - (stdin) failed"
# every command has --help with an example; the tool has --help and --version
for cmd in $("$HG" --help | awk '/^Commands:/{f=1;next} f&&/^  [a-z]/{print $1} f&&/^$/{f=0}'); do
    "$HG" $cmd --help | grep -qi "example" && ok || bad "$cmd --help has no example"
done
expect_ok "^hgridopt [0-9]" -- $HG --version
expect_ok "powerlaw" -- $HG help psd
# ---- --packing: the distribution and nu of a particle file ----
"$HG" pack --psd powerlaw:alpha=-3,omega=5 --dim 3 --nu 0.3 --n 3000 --generator poisson --seed 3 --output "$TMP/p.csv" 2>/dev/null
expect_ok "sample of the 3000 radii" -- $HG recommend --packing "$TMP/p.csv"
expect_ok "nu = 0\.2" -- $HG recommend --packing "$TMP/p.csv" --nu 0.2
expect_fail 2 "--dim: 2 contradicts the 3D particle file" -- $HG recommend --packing "$TMP/p.csv" --dim 2
expect_fail 1 "missing.csv: cannot open" -- $HG recommend --packing "$TMP/missing.csv"
printf 'x,y,z,r\n1,1,1,-1\n' > "$TMP/badr.csv"
expect_fail 1 "badr.csv:2: " -- $HG recommend --packing "$TMP/badr.csv"
# a truncated law without resolvable mass in its window (found by fuzzing:
# accepted, it gave T = 2.8e255): one line naming the parameters
expect_fail 2 "^hgridopt: lognormal: median 2e\+112, sigma 1e-65, window \[1, 6e\+84\]: the window lies .* standard deviations below the median" -- $HG recommend --dim 3 --nu 0.4 --psd "lognormal:median=2e112,sigma=1e-65,rmin=1,rmax=6e84"
expect_fail 2 "^hgridopt: lognormal: median 1e-50, sigma 1e-20, window \[1, 2\]: the window lies .* above the median" -- $HG evaluate --dim 3 --nu 0.4 --sizes 4 --psd "lognormal:median=1e-50,sigma=1e-20,rmin=1,rmax=2"
printf '{"schema": "hgridopt.system/1", "dim": 3, "nu": 0.4, "distribution": "lognormal:median=1e10,sigma=1e-9,rmin=1,rmax=2"}' > "$TMP/tail.json"
expect_fail 1 "lognormal: median 1e\+10, sigma 1e-09, window \[1, 2\]" -- $HG recommend --system "$TMP/tail.json"
# --psd naming a file: the spec's own parameters are usage errors (2), the
# file and its content data errors (1)
printf 'd,passing\n1,abc\n' > "$TMP/badt.csv"
expect_fail 2 "^hgridopt: table: missing parameter 'size'" -- $HG recommend --dim 3 --nu 0.3 --psd "table:file=$TMP/badt.csv"
expect_fail 2 "^hgridopt: table size: 'bogus' is not radius or diameter" -- $HG recommend --dim 3 --nu 0.3 --psd "table:file=$TMP/badt.csv,size=bogus,basis=mass"
expect_fail 1 "badt.csv:2: 'abc' is not a number" -- $HG recommend --dim 3 --nu 0.3 --psd "table:file=$TMP/badt.csv,size=diameter,basis=mass"
expect_fail 1 "cannot open" -- $HG recommend --dim 3 --nu 0.3 --psd "sample:file=$TMP/missing.csv"
# the CLI defects of the user-files issue, one check each
PE="--psd powerlaw:alpha=-3,omega=20 --dim 3 --nu 0.4"
# a code's settings format with another code's model: refused
expect_fail 2 "evaluate --format lammps: writes the lammps engine's settings; --model liggghts-bin is the liggghts engine's model \(its settings: --format liggghts\)" -- $HG evaluate $PE --model liggghts-bin --format lammps
expect_fail 2 "evaluate --format mercurydpm: writes the mercurydpm engine's settings; --model liggghts-bin" -- $HG evaluate $PE --model liggghts-bin --format mercurydpm
expect_ok "^neigh_modify binsize [0-9.]+$" -- $HG evaluate $PE --model liggghts-bin --format liggghts
# help from the registries: every engine, every settings format; no K value
engines=$($HG help engines | awk '/^  [a-z]/ { print $1 }')
h=$($HG recommend --help)
for g in hgrid lammps liggghts mercurydpm; do
    grep -q "^ *$g  " <<<"$h" && ok || bad "recommend --help does not list engine $g"
done
grep -q "^  --format F       table (default), json, lammps, mercurydpm, liggghts" <<<"$h" && ok || bad "recommend --help formats"
grep -q "0.2 for MercuryDPM" <<<"$h" && bad "--K help names a stale value" || ok
# integers in any exact notation
expect_ok "5000 atoms \(5000 per rank\)" -- $HG recommend $PE --engine lammps --atoms 5e3
expect_ok "" -- $HG pack $PE --n 1e3 --output "$TMP/n1e3.csv"
[ "$(grep -c . "$TMP/n1e3.csv")" = 1002 ] && ok || bad "pack --n 1e3 wrote $(grep -c . "$TMP/n1e3.csv") lines"
expect_fail 2 "--n: '1.5e2x' is not an integer" -- $HG pack $PE --n 1.5e2x --output "$TMP/x.csv"
expect_fail 2 "--n: '2.5' is not an integer" -- $HG pack $PE --n 2.5 --output "$TMP/x.csv"
# the engine a recommendation's JSON names
$HG recommend $PE --engine mercurydpm --format json | jq -e '.engine == "mercurydpm"' >/dev/null && ok || bad "recommend --engine mercurydpm --format json: engine"
# a radius whose volume overflows: one line naming it, no NaN before it
printf 'x,y,z,r\n0,0,0,1e308\n1,1,1,1\n' > "$TMP/huge.csv"
expect_fail 1 "huge.csv:2: radius 1e\+308: its volume is not a finite number" -- $HG recommend --packing "$TMP/huge.csv"
finish
