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
expect_ok "T = .* = 4\.403" -- $E --system "$TMP/ok.json" --sizes 4.0,7.9,15.1,27.2,40
expect_ok "nu = 0\.3" -- $E --system "$TMP/ok.json" --nu 0.3 --sizes 40
finish
