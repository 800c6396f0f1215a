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
            --dim "$dim" --nu "$nu" --algorithm "$alg" --format lammps \
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
finish
