#!/usr/bin/env bash
# LAMMPS integration: the lines of `recommend --format lammps` must work in a
# real LAMMPS run. Installs Debian's lammps package if it is missing, writes a
# polydisperse atom_style sphere data file (power-law radii), appends the
# recommended neighbor settings, runs a granular pair style for a few hundred
# steps and checks that LAMMPS ran, built neighbor lists and found contacts.
. "$(dirname "$0")/cli_lib.sh"

if ! command -v lmp >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
        echo "installing Debian's lammps package" >&2
        DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq lammps >&2
    fi
    command -v lmp >/dev/null 2>&1 || { bad "lmp not available"; finish; exit 1; }
fi

run_case() { # dim alpha omega nu n algorithm
    local dim=$1 alpha=$2 omega=$3 nu=$4 n=$5 alg=$6
    local d="$TMP/$dim-$alg"
    mkdir -p "$d"
    # radii by inverse transform of the power law on [rmin, rmin*omega]
    awk -v n="$n" -v dim="$dim" -v a="$alpha" -v om="$omega" -v nu="$nu" 'BEGIN {
        srand(12345); rmin = 0.05; p = a + 1; vol = 0
        for (i = 1; i <= n; i++) {
            u = rand()
            if (p == 0) r[i] = rmin * exp(u * log(om))
            else r[i] = rmin * (1 + u * (om^p - 1))^(1 / p)
            vol += (dim == 3 ? 4 / 3 * 3.141592653589793 * r[i]^3 : 3.141592653589793 * r[i]^2)
        }
        box = (vol / nu)^(1 / dim)
        print "LAMMPS data file written by hgridopt lammps_integration.sh\n"
        print n " atoms\n1 atom types\n"
        print "0 " box " xlo xhi"; print "0 " box " ylo yhi"
        if (dim == 3) print "0 " box " zlo zhi"; else print "-0.5 0.5 zlo zhi"
        print "\nAtoms # sphere\n"
        for (i = 1; i <= n; i++)
            printf "%d 1 %.9g 1.0 %.9g %.9g %.9g\n", i, 2 * r[i], rand() * box, rand() * box, (dim == 3 ? rand() * box : 0)
    }' > "$d/data.sphere"
    if ! "$HG" recommend --psd "powerlaw:alpha=$alpha,rmin=0.05,omega=$omega" \
            --dim "$dim" --nu "$nu" --model "hgrid-$alg" --format lammps \
            > "$d/neigh.in" 2> "$d/err"; then
        bad "recommend --format lammps failed: $(cat "$d/err")"
        return
    fi
    {
        echo "units lj"
        [ "$dim" = 2 ] && echo "dimension 2"
        echo "atom_style sphere"
        [ "$dim" = 2 ] && echo "boundary p p p" || echo "boundary p p p"
        echo "comm_modify vel yes"
        echo "read_data data.sphere"
        echo "pair_style gran/hooke 2000.0 NULL 50.0 NULL 0.5 0"
        echo "pair_coeff * *"
        cat "$d/neigh.in"
        echo "velocity all create 1.0 4928459 loop geom"
        [ "$dim" = 2 ] && echo "fix 2d all enforce2d"
        echo "fix 1 all nve/sphere"
        echo "timestep 0.0001"
        echo "thermo 100"
        echo "run 300"
    } > "$d/in.test"
    (cd "$d" && timeout 300 lmp -in in.test -log log.lammps > out.txt 2>&1)
    local rc=$?
    if [ $rc != 0 ] || grep -q "ERROR" "$d/out.txt"; then
        bad "lmp ($dim D, $alg) exit $rc: $(grep -m1 ERROR "$d/out.txt")"
    elif ! grep -q "collection/interval" "$d/in.test"; then
        bad "no collection/interval line in the recommended settings"
    elif ! grep -Eq "Neighbor list builds = [0-9]+" "$d/out.txt"; then
        bad "lmp ($dim D) did not report neighbor list builds"
    elif ! grep -Eq "Total # of neighbors = [1-9]" "$d/out.txt"; then
        bad "lmp ($dim D) found no neighbors"
    else
        ok
        echo "LAMMPS $dim D $alg: $(grep -E 'Total # of neighbors|Neighbor list builds' "$d/out.txt" | tr '\n' ' ')"
    fi
}

run_case 3 -3 10 0.3 4000 top-down
run_case 3 -2 8 0.4 3000 bottom-up
run_case 2 -3 10 0.5 3000 top-down

# Run the neighbor lines in $2 on the data file $1 (3D, periodic): lmp must
# accept them (every atom inside a collection) and build lists.
run_lines() { # data lines label
    local d; d=$(dirname "$1")
    {
        echo "units lj"; echo "atom_style sphere"; echo "boundary p p p"
        echo "comm_modify vel yes"; echo "read_data $(basename "$1")"
        echo "pair_style gran/hooke 2000.0 NULL 50.0 NULL 0.5 0"
        echo "pair_coeff * *"
        cat "$2"
        echo "neigh_modify every 1 delay 0 check no"
        echo "run 3"
    } > "$d/in.lines"
    (cd "$d" && timeout 300 lmp -in in.lines -log none > out.lines 2>&1)
    local rc=$?
    if [ $rc != 0 ] || grep -q "ERROR" "$d/out.lines"; then
        bad "$3: lmp exit $rc: $(grep -m1 ERROR "$d/out.lines")"
    elif ! grep -Eq "Neighbor list builds = [1-9]" "$d/out.lines"; then
        bad "$3: lmp built no neighbor list"
    else
        ok
    fi
}

# Particle files whose largest diameter is not round (log-normal, several
# seeds): the last printed cutoff must not fall below it, for the LAMMPS
# model's answer, the KOL levels and evaluate's export of given sizes.
LN="lognormal:median=0.5,sigma=0.4,rmin=0.2,rmax=1.5"
for seed in 1 2 3 4 5 6 7 8; do
    d="$TMP/ln$seed"; mkdir -p "$d"
    "$HG" pack --psd "$LN" --dim 3 --nu 0.3 --n 2000 --generator rsa \
        --seed "$seed" --output "$d/bed.data" 2> /dev/null ||
        { bad "pack seed $seed failed"; continue; }
    "$HG" recommend --packing "$d/bed.data" --format lammps > "$d/model.in" &&
        run_lines "$d/bed.data" "$d/model.in" "log-normal seed $seed (model)"
    "$HG" recommend --packing "$d/bed.data" --format lammps --model kol \
        --max-levels 4 > "$d/kol.in" &&
        run_lines "$d/bed.data" "$d/kol.in" "log-normal seed $seed (kol)"
    dmax=$(awk '/^[0-9]+ 1 /{ if ($3 > m) m = $3 } END { printf "%.17g", m }' "$d/bed.data")
    "$HG" evaluate --packing "$d/bed.data" --sizes "0.6,$dmax" --format lammps \
        > "$d/eval.in" &&
        run_lines "$d/bed.data" "$d/eval.in" "log-normal seed $seed (evaluate)"
done

# A one-level answer is plain binning.
d="$TMP/mono"; mkdir -p "$d"
"$HG" pack --psd mono:r=0.5 --dim 3 --nu 0.3 --n 2000 --generator rsa \
    --output "$d/bed.data" 2> /dev/null
"$HG" recommend --packing "$d/bed.data" --format lammps > "$d/model.in"
if grep -q "^neighbor [0-9.e-]* bin$" "$d/model.in" &&
    ! grep -q "collection/interval" "$d/model.in"; then
    ok
    run_lines "$d/bed.data" "$d/model.in" "one size (bin)"
else
    bad "one size: expected 'neighbor SKIN bin', got: $(grep neighbor "$d/model.in")"
fi

# validate with two MPI ranks, and tune with a tiny budget.
PL="--psd powerlaw:alpha=-3,omega=10 --dim 3 --nu 0.3 --n 3000 --steps 5 --repeats 1"
if "$HG" validate --engine lammps $PL --mpi 2 --keep "$TMP/keep" > "$TMP/val" 2> "$TMP/val.err" &&
    grep -q "^  recommended" "$TMP/val" && grep -q "^  bin" "$TMP/val" &&
    [ -f "$TMP/keep/in.hgridopt" ] && [ -f "$TMP/keep/log.lammps" ] &&
    grep -q "on 2 procs" "$TMP/keep/log.lammps"; then
    ok
    cat "$TMP/val"
else
    bad "validate --engine lammps --mpi 2: $(cat "$TMP/val.err")"
fi
if timeout 300 "$HG" tune --engine lammps $PL --seconds 8 --format lammps > "$TMP/tune" 2> "$TMP/tune.err" &&
    grep -Eq "^neighbor [0-9.e-]+ (bin|multi)$" "$TMP/tune" &&
    grep -q "^# measured [0-9.e+-]* ms (Neigh seconds per build)" "$TMP/tune"; then
    ok
    cat "$TMP/tune"
else
    bad "tune --engine lammps --seconds 8: $(cat "$TMP/tune.err")"
fi
# --packing of a non-overlapping file: the LAMMPS model predicts with the
# file's measured pair statistics (printed with their figures, as the HGrid
# commands print them); --structure poisson gives other predicted times
"$HG" pack --psd powerlaw:alpha=-3,omega=5 --dim 3 --nu 0.5 --n 2000 \
    --generator dense --seed 3 --output "$TMP/dense.data" 2> /dev/null
VS="--engine lammps --packing $TMP/dense.data --steps 10 --repeats 1"
if timeout 300 "$HG" validate $VS > "$TMP/hs" 2> "$TMP/hs.err" &&
    grep -q "^structure: *measured (measured from the particle file: .* largest overlap" "$TMP/hs"; then
    ok
else
    bad "validate --packing dense: $(cat "$TMP/hs" "$TMP/hs.err")"
fi
pred() { # the predicted ms of the first setting (structure given by $1)
    timeout 300 "$HG" validate $VS --format json $1 2> /dev/null |
        awk -F'[:,]' '/"structure"/ { s = $2 } /"predicted_ms"/ && !p { p = $2 }
            END { gsub(/[ \t"]/, "", s); gsub(/[ \t]/, "", p); print s, p }'
}
a=$(pred "") b=$(pred "--structure poisson")
if [ "${a%% *}" = measured ] && [ "${b%% *}" = poisson ] &&
    [ "${a#* }" != "${b#* }" ] && [ -n "${a#* }" ]; then
    ok
else
    bad "predicted with measured '$a' and poisson '$b'"
fi
# a missing lmp is reported with install advice
if ! "$HG" validate --engine lammps $PL --lmp /nonexistent/lmp > /dev/null 2> "$TMP/err" &&
    grep -q "apt-get install lammps" "$TMP/err"; then
    ok
else
    bad "missing lmp: $(cat "$TMP/err")"
fi
finish
