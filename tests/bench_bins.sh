#!/usr/bin/env bash
# bench_bins.sh - what an empty neighbor bin costs LAMMPS at each build, on
# this machine: the constant neigh_bin of hgridopt's many-ranks model
# (src/advise/ranks.c, docs/ranks.md). A rank clears every bin of its
# sub-box grown by the ghost cutoff at every build, whether atoms are in
# it or not; a wide sub-box over an empty part of the domain has many.
#
# One rank, 729 granular spheres (d = 1, a simple cubic block of 9 x 9 x
# 9) in the corner of a fixed box of edge L (boundary f f f: the box stays
# L whatever the atoms do), a build every step (`neigh_modify every 1
# delay 0 check no`), skin 0.2: bins of 0.6. The atoms, their pairs and
# their binning are the same for every L; only the bins grow, about
# ((L + 2.4) / 0.6 + 3)^3. The slope of Neigh per build against those
# bins is neigh_bin. Runs alternate the edges over ROUNDS rounds; the
# medians per edge are fitted.
# Needs lmp and a quiet machine (time nothing else meanwhile).
#
# Environment: ROUNDS (5), STEPS (200), EDGES ("10 30 50 70"),
# KEEP=DIR (inputs and logs kept).
set -uo pipefail
ROUNDS=${ROUNDS:-5}
STEPS=${STEPS:-200}
EDGES=${EDGES:-10 30 50 70}
command -v lmp > /dev/null || { echo "bench_bins: lmp not found (apt-get install lammps)" >&2; exit 1; }
T=${KEEP:-$(mktemp -d)}
mkdir -p "$T"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$T"' EXIT

cat > "$T/in.bins" <<IN
units lj
atom_style sphere
boundary f f f
region box block 0 \${L} 0 \${L} 0 \${L}
create_box 1 box
lattice sc 1.0
region block block 1 9 1 9 1 9
create_atoms 1 region block
set group all diameter 1.0
pair_style gran/hooke 2000 NULL 50 NULL 0.5 0
pair_coeff * *
comm_modify vel yes
neighbor 0.2 bin
neigh_modify every 1 delay 0 check no
fix 1 all nve/sphere
timestep 0.0001
run 0
run ${STEPS}
IN

echo "# bench_bins: Neigh per build against a rank's bins, 1 rank, $STEPS builds per run, $ROUNDS rounds"
echo "# lmp: $(lmp -h 2>/dev/null | sed -n "s/^Large-scale Atomic\/Molecular Massively Parallel Simulator - //p" | head -1)"
for r in $(seq 1 "$ROUNDS"); do
    for L in $EDGES; do
        log="$T/log.$L.$r"
        lmp -in "$T/in.bins" -var L "$L" -log "$log" -screen none > /dev/null 2>&1 ||
            { echo "bench_bins: lmp failed at L = $L (log $log)" >&2; exit 1; }
        neigh=$(awk '/^Neigh  *\|/ { v = $3 } END { print v }' "$log")
        [ -n "$neigh" ] || { echo "bench_bins: no Neigh row in $log" >&2; exit 1; }
        echo "$L $neigh" >> "$T/rows"
    done
done
# medians per edge, then the least-squares slope against the bins
awk -v steps="$STEPS" '
    { t[$1] = t[$1] " " $2; n[$1]++ }
    END {
        printf "%6s %12s %14s %10s\n", "edge", "bins", "Neigh/build s", "spread %"
        for (L in t) {
            m = split(substr(t[L], 2), v, " ")
            for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++)
                if (v[j] < v[i]) { x = v[i]; v[i] = v[j]; v[j] = x }
            med = (m % 2) ? v[(m + 1) / 2] : 0.5 * (v[m / 2] + v[m / 2 + 1])
            b = (int((L + 2.4) / 0.6) + 3) ^ 3
            y = med / steps
            printf "%6d %12d %14.4g %10.1f\n", L, b, y, 100 * (v[m] - v[1]) / med
            sx += b; sy += y; sxx += b * b; sxy += b * y; k++
        }
        slope = (k * sxy - sx * sy) / (k * sxx - sx * sx)
        printf "neigh_bin: %.3g s per bin per build (intercept %.3g s)\n",
               slope, (sy - slope * sx) / k
    }' "$T/rows"
