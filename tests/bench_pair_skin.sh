#!/usr/bin/env bash
# bench_pair_skin.sh [CASE...] - what the skin does to LAMMPS' Pair time
# on a settled bed, against what it does to the listed pairs: the fact
# behind the whole-run model's rule that a log's Pair above the model's is
# the contacts' force law, paid per atom whatever the skin, and not a
# factor on the listed pairs.
#
# Each case is one of LAMMPS' examples as bench_whole_run.sh takes it
# (tests/whole_run_lib.sh), run on one rank up to 4/5 of its last run
# (the bed poured; the wide pour's flowing down its chute), then at each skin (the input's x1/3,
# x1, x2, x10/3, x16/3, its own style) for 100 steps and 500 timed steps.
# BENCH_ROUNDS rounds (2) alternate the skins; the bed is the same in
# every run (one rank, the same lines up to it). Prints per skin: the
# listed pairs (LAMMPS' `Total # of neighbors`), the Pair and Neigh
# seconds of the 500 steps (median, min-max) and the contacts (LAMMPS'
# `compute contact/atom`, halved); then Pair per listed pair and the
# rest, fitted over the skins (least squares), and the largest skin's
# Pair and listed pairs against the input's skin's.
#
# Exits 1 when a run fails or the listed pairs do not grow with the skin.
# Cases: flatwall pour-wide pour2d (default). Environment: BENCH_ROUNDS,
# BENCH_KEEP (a folder to keep the runs in), LAMMPS_EXAMPLES
# (/usr/share/lammps/examples). Times: run it on quiet cores.
set -uo pipefail
EX=${LAMMPS_EXAMPLES:-/usr/share/lammps/examples}
SCALE=1
ROUNDS=${BENCH_ROUNDS:-2}
case $ROUNDS in [1-9]) ;; *) echo "bench_pair_skin: BENCH_ROUNDS: '$ROUNDS' is not 1-9" >&2; exit 2 ;; esac
command -v lmp > /dev/null || { echo "bench_pair_skin: lmp not found (apt-get install lammps)" >&2; exit 1; }
SRC=$(cd "$(dirname "$0")/.." && pwd)
. "$SRC/tests/whole_run_lib.sh"
bench_folder bench_pair_skin
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(flatwall pour-wide pour2d)

rc=0
for c in "${cases[@]}"; do
    d="$T/$c"
    mkdir -p "$d"
    case_input "$c" > "$d/in.base" || { rc=1; continue; }
    [ "$c" != liggghts-pour ] || { echo "bench_pair_skin: liggghts-pour: LAMMPS cases only" >&2; rc=1; continue; }
    read -r skin style _ _ _ <<< "$(case_facts "$c")"
    skins=$(awk -v s="$skin" 'BEGIN { printf "%g %g %g %g %g", s / 3, s, 2 * s, 10 * s / 3, 16 * s / 3 }')
    : > "$d/rows"
    for ((r = 0; r < ROUNDS; r++)); do
        for s in $skins; do
            # the input with its last run cut to 4/5, then the skin's 100
            # + 500 steps
            awk -v s="$s" -v style="$style" -v nrun="$(grep -c '^run[[:space:]]' "$d/in.base")" '
                /^run[ \t]/ && ++k < nrun { print; next }
                /^run[ \t]/ {
                    printf "run %d\n", int(0.8 * $2 + 0.5)
                    print "compute hgc all contact/atom"
                    print "compute hgcs all reduce sum c_hgc"
                    print "thermo_style custom step atoms c_hgcs"
                    print "thermo_modify lost ignore norm no"
                    print "thermo 100"
                    printf "neighbor %s %s\n", s, style
                    print "run 100"
                    print "run 500"
                    exit
                }
                { print }' "$d/in.base" > "$d/in.$s"
            if ! (cd "$d" && lmp -in "in.$s" -log "log.$s.$r" -screen none > /dev/null 2>&1); then
                echo "$c: lmp failed at skin $s: $(grep -m1 ERROR "$d/log.$s.$r")" >&2
                rc=1
                continue
            fi
            # the last run: its Pair and Neigh, its listed pairs, the
            # contacts at its last thermo row
            awk -v s="$s" '
                /^Loop time of/ { atoms = $(NF - 1) }
                /^Pair  *\|/ { pair = $5 }
                /^Neigh  *\|/ { neigh = $5 }
                /^Total # of neighbors/ { listed = $NF }
                $1 ~ /^[0-9]+$/ && NF == 3 { contacts = $3 / 2 }
                END { print s, listed, pair, neigh, contacts, atoms }' "$d/log.$s.$r" >> "$d/rows"
        done
    done
    python3 - "$c" "$skin" "$d/rows" << 'PY' || rc=1
import statistics as st, sys
case, own, path = sys.argv[1], float(sys.argv[2]), sys.argv[3]
rows = {}
for line in open(path):
    s, listed, pair, neigh, contacts, atoms = line.split()
    rows.setdefault(float(s), []).append((float(listed), float(pair), float(neigh), float(contacts), int(atoms)))
skins = sorted(rows)
atoms = rows[skins[0]][0][4]
print(f"{case}: {atoms} atoms at 4/5 of the run, 500 steps on one rank at each skin, {len(rows[skins[0]])} rounds")
print("| skin | listed pairs | contacts | Pair s (min-max) | Neigh s |")
print("|---|---|---|---|---|")
xs, ys = [], []
med = {}
for s in skins:
    r = rows[s]
    p = [x[1] for x in r]
    med[s] = (r[0][0], st.median(p))
    xs.append(r[0][0]); ys.append(st.median(p) / 500.0)
    print(f"| {s:g} | {r[0][0]:.0f} | {st.median([x[3] for x in r]):.0f} | {st.median(p):.3f} ({min(p):.3f}-{max(p):.3f}) | {st.median([x[2] for x in r]):.3f} |")
n = len(xs)
mx, my = sum(xs) / n, sum(ys) / n
sxx = sum((x - mx) ** 2 for x in xs)
slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx > 0 else float("nan")
rest = my - slope * mx
print(f"Pair per listed pair and step {slope:.3g} s; the rest {rest:.3g} s a step ({rest / atoms:.3g} per atom)")
o = min(skins, key=lambda s: abs(s - own))
big = skins[-1]
print(f"skin {big:g} against the input's {o:g}: listed pairs x{med[big][0] / med[o][0]:.2f}, Pair x{med[big][1] / med[o][1]:.2f}")
# what must hold whatever the clock: the listed pairs grow with the skin
lp = [med[s][0] for s in skins]
if len(skins) != 5 or any(b <= a for a, b in zip(lp, lp[1:])):
    print(f"{case}: the listed pairs do not grow with the skin: {lp}", file=sys.stderr)
    sys.exit(1)
PY
done
exit $rc
