#!/usr/bin/env bash
# bench_ranks_comm.sh [BED] - what one ghost atom costs LAMMPS per step and
# per neighbor build, on this machine at 2 MPI ranks: the constants
# ghost_step and ghost_build of hgridopt's many-ranks model
# (src/advise/ranks.c, docs/ranks.md).
#
# A bed LAMMPS poured (default tests/data/files/lammps/drum.data, 4000
# atoms, boundary p p f) is read on 2 ranks (`processors 2 1 1`) and run
# without moving (no integrator: every step computes the same forces and
# communicates the same ghosts) with `comm_modify cutoff C` growing the
# ghost shell, C = 1, 2, 3, 4 and 6 times the pair cutoff + skin:
#   A: no neighbor builds after the first (`neigh_modify every 100000
#      check no`): the Comm row per step is the forward (positions,
#      velocities) and reverse (forces, torques) communication;
#   B: a build every step (`neigh_modify every 1 delay 0 check no`): Comm
#      per step adds the exchange and borders of a build.
# The slope of Comm per step (its least rank's, the min column: the
# busiest rank waits least) against the ghosts of the busiest rank
# (Nghost max) is ghost_step (A) and ghost_build (B minus A). Runs
# alternate A and B over ROUNDS rounds; medians per C are fitted.
# Needs lmp, mpirun and two quiet cores (time nothing else meanwhile).
#
# Environment: ROUNDS (5), STEPS (400), KEEP=DIR (inputs and logs kept).
set -uo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
BED=$(realpath "${1:-$SRC/tests/data/files/lammps/drum.data}")
ROUNDS=${ROUNDS:-5}
STEPS=${STEPS:-400}
command -v lmp > /dev/null || { echo "bench_ranks_comm: lmp not found (apt-get install lammps)" >&2; exit 1; }
command -v mpirun > /dev/null || { echo "bench_ranks_comm: mpirun not found" >&2; exit 1; }
T=${KEEP:-$(mktemp -d)}
mkdir -p "$T"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$T"' EXIT
skin=0.2
dmax=$(awk 'f && NF >= 7 { if ($3 > m) m = $3 } /^Atoms/ { f = 1 } /^Velocities/ { exit } END { print m }' "$BED")
cut=$(awk -v d="$dmax" -v s="$skin" 'BEGIN { print d + s }')

input() { # input MODE FACTOR
    local every=100000
    [ "$1" = B ] && every=1
    cat << EOF
units lj
atom_style sphere
boundary p p f
processors 2 1 1
read_data $BED
pair_style gran/hooke 2000.0 NULL 50.0 NULL 0.5 0
pair_coeff * *
neighbor $skin bin
neigh_modify every $every delay 0 check no
comm_modify vel yes cutoff $(awk -v c="$cut" -v f="$2" 'BEGIN { print c * f }')
timestep 0.001
run 10
run $STEPS
EOF
}

# comm LOG: Comm avg seconds per step of the last run, and Nghost max
comm() {
    awk -v n="$STEPS" '
        /^Loop time of/ { run++ }
        run == 2 && /^Comm +\|/ { split($0, f, "|"); c = f[2] }
        run == 2 && /^Nghost:/ { g = $4 }
        END { printf "%.6g %s\n", c / n, g }' "$1"
}

factors="1 2 3 4 6"
: > "$T/times"
for ((r = 0; r < ROUNDS; r++)); do
    for f in $factors; do
        for m in A B; do
            input "$m" "$f" > "$T/in.$m.$f"
            (cd "$T" && mpirun --allow-run-as-root -np 2 lmp -in "in.$m.$f" -log "log.$m.$f.$r" -screen none > /dev/null 2>&1) ||
                { echo "bench_ranks_comm: lmp failed: $(grep -m1 ERROR "$T/log.$m.$f.$r")" >&2; exit 1; }
            echo "$m $f $(comm "$T/log.$m.$f.$r")" >> "$T/times"
        done
    done
done
echo "bench_ranks_comm: $BED, 2 ranks (processors 2 1 1), $STEPS steps, $ROUNDS rounds, lmp $(lmp -h | awk '/^Large-scale/ { sub(/.*Simulator - /, ""); sub(/ *$/, ""); print; exit }'), $(nproc) cores"
python3 - "$T/times" << 'PY'
import sys, statistics as st
rows = {}
for l in open(sys.argv[1]):
    m, f, c, g = l.split()
    rows.setdefault((m, float(f)), []).append((float(c), float(g)))
print("| mode | ghost cutoff x | Nghost max | Comm us per step (median, min-max) |")
print("|---|---|---|---|")
pts = {"A": [], "B": []}
for (m, f), v in sorted(rows.items()):
    c = st.median(x[0] for x in v)
    g = v[0][1]
    pts[m].append((g, c))
    print(f"| {m} | {f:g} | {g:.0f} | {1e6 * c:.2f} ({1e6 * min(x[0] for x in v):.2f}-{1e6 * max(x[0] for x in v):.2f}) |")
def slope(p):
    n = len(p); mx = sum(x for x, _ in p) / n; my = sum(y for _, y in p) / n
    sxx = sum((x - mx) ** 2 for x, _ in p)
    return sum((x - mx) * (y - my) for x, y in p) / sxx, my - mx * sum((x - mx) * (y - my) for x, y in p) / sxx
a, a0 = slope(pts["A"])
b, b0 = slope(pts["B"])
print(f"ghost_step  = {a:.3g} s per ghost per step (intercept {1e6 * a0:.3g} us)")
print(f"ghost_build = {b - a:.3g} s per ghost per build (B's slope {b:.3g} minus A's)")
PY
