#!/usr/bin/env bash
# MercuryDPM's K in 2D: the work (KOL 2014 model, no timing) of the grid
# chosen with the shipped K = 0.74 against the grid chosen with the right
# K, for 2D's K anywhere in Kt, on RSA disk packings of the three systems
# K was fitted on in 3D (docs/measurements/mercurydpm.md). Not part of
# ctest: the model only, about 2 minutes. Usage: $0 BUILD/hgridopt
HG=${1:-hgridopt}
Kt="0.2 0.3 0.45 0.6 0.74 1 1.2 1.5"
for spec in "powerlaw:alpha=0,omega=10" "powerlaw:alpha=-3,omega=10" \
            "discrete:r=0.5;2.5,frac=0.5;0.5,basis=volume"; do
    f=$(mktemp --suffix=.csv)
    $HG pack --generator rsa --psd "$spec" --dim 2 --nu 0.3 --n 10000 --seed 1 --output "$f" 2>/dev/null
    rec() { $HG recommend --packing "$f" --engine mercurydpm --K "$1" --format json 2>/dev/null |
            python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["model"], ",".join("%.17g" % s for s in j["cell_sizes"]), j["work_per_particle"])'; }
    read -r m0 s0 _ <<<"$(rec 0.74)"
    worst=0; at=""
    for k in $Kt; do
        read -r mk sk tk <<<"$(rec "$k")"
        t0=$($HG evaluate --packing "$f" --model "$m0" --sizes "$s0" --K "$k" --format json 2>/dev/null |
             python3 -c 'import json,sys; print(json.load(sys.stdin)["work_per_particle"])')
        x=$(python3 -c "print('%.4f' % ($t0 / $tk - 1))")
        echo "$spec K=$k: chosen with 0.74: $m0 [$s0] T=$t0; with $k: $mk [$sk] T=$tk; excess $x"
    done
    rm -f "$f"
done
