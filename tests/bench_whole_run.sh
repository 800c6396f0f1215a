#!/usr/bin/env bash
# bench_whole_run.sh HGRIDOPT [CASE...] - LAMMPS' own granular examples run
# whole (pour, settle, flow), each re-run with only its neighbor lines
# changed: the input's own lines, the static lines hgridopt recommends for
# a frame of the run's own trajectory (with the input's skin), and a sweep
# (the input's style at 0.5x, 1x, 2x and 4x its skin; bins of one cutoff;
# multi with 2 and 3 geometrically spaced collections). Prints, per case,
# the total Loop, Neigh and Pair seconds (summed over the input's runs;
# medians of alternating rounds, with their min-max), the neighbor list
# builds and the dangerous builds of every candidate, and the ratio of
# each to the fastest.
#
# Cases (default: all):
#   pour-wide  examples/pour/in.pour with the size-ratio-8 distribution
#              "diam poly 3 0.25 0.6 0.6 0.3 2.0 0.1" added to its fix
#              pour (3000 atoms; 25000 steps pour, 25000 steps chute flow)
#   drum       examples/granular/in.pour.drum (two pours of 2000 atoms,
#              diameters 0.5-1; 2000 steps fill, 3000 steps rotation)
# Environment: BENCH_ROUNDS (3), BENCH_STEPS_SCALE (1: the inputs' run
# lengths; 0.2 runs a fifth of every run), BENCH_KEEP (a folder to keep
# the inputs and logs in), LAMMPS_EXAMPLES (/usr/share/lammps/examples).
# Needs lmp (Debian's lammps) and one quiet core: timing runs alternate
# the candidates, so a load that drifts spreads over all of them.
set -uo pipefail
HG=$(realpath "$1")
shift
EX=${LAMMPS_EXAMPLES:-/usr/share/lammps/examples}
ROUNDS=${BENCH_ROUNDS:-3}
SCALE=${BENCH_STEPS_SCALE:-1}
command -v lmp > /dev/null || { echo "bench_whole_run: lmp not found (apt-get install lammps)" >&2; exit 1; }
T=${BENCH_KEEP:-$(mktemp -d)}
mkdir -p "$T"
[ -n "${BENCH_KEEP:-}" ] || trap 'rm -rf "$T"' EXIT
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(pour-wide drum)

# case_input CASE > FILE: the example as LAMMPS ships it, with the case's
# own changes (the pour's wide distribution) and every run scaled by SCALE
case_input() {
    local src
    case "$1" in
    pour-wide) src="$EX/pour/in.pour" ;;
    drum) src="$EX/granular/in.pour.drum" ;;
    *) echo "bench_whole_run: unknown case '$1' (pour-wide, drum)" >&2; return 1 ;;
    esac
    [ -r "$src" ] || { echo "bench_whole_run: $src: not readable" >&2; return 1; }
    awk -v scale="$SCALE" -v c="$1" '
        c == "pour-wide" && /^fix[ \t]+ins[ \t]/ { $0 = $0 " diam poly 3 0.25 0.6 0.6 0.3 2.0 0.1" }
        /^run[ \t]/ { n = int($2 * scale + 0.5); if (n < 1) n = 1; $0 = "run " n }
        { print }' "$src"
}

# case facts: the input's own skin and style, the smallest and largest
# diameter (what the collections and one-cutoff bins are made of)
case_facts() {
    case "$1" in
    pour-wide) echo "0.2 bin 0.25 2.0" ;;
    drum) echo "0.2 bin 0.5 1.0" ;;
    esac
}

# with_lines INPUT LINES: the input with its neighbor lines (the first
# `neighbor` line) replaced by LINES; its neigh_modify lines are kept
# (delay, every, check), LINES' neigh_modify lines follow them
with_lines() {
    awk -v lines="$2" '
        /^neighbor[ \t]/ { if (!done) { print lines; done = 1 }; next }
        { print }' "$1"
}

# The candidates of a case, one per line: NAME<TAB>LINES (\n in LINES)
candidates() {
    local skin style dmin dmax
    read -r skin style dmin dmax <<< "$(case_facts "$1")"
    awk -v s="$skin" -v st="$style" -v a="$dmin" -v b="$dmax" 'BEGIN {
        printf "own\tneighbor %g %s\n", s, st
        printf "skin x0.5\tneighbor %g %s\n", 0.5 * s, st
        printf "skin x2\tneighbor %g %s\n", 2 * s, st
        printf "skin x4\tneighbor %g %s\n", 4 * s, st
        printf "bin of one cutoff\tneighbor %g bin\\nneigh_modify binsize %.6g\n", s, b + s
        top = b * 1.000001
        printf "multi 2 collections\tneighbor %g multi\\nneigh_modify collection/interval 2 %.6g %.7g\\ncomm_modify mode multi\n", s, sqrt(a * b), top
        printf "multi 3 collections\tneighbor %g multi\\nneigh_modify collection/interval 3 %.6g %.6g %.7g\\ncomm_modify mode multi\n", s, a * (b / a)^(1 / 3), a * (b / a)^(2 / 3), top
    }'
}

# sums LOG: loop neigh pair builds dangerous, summed over the log's runs
sums() {
    awk '
        /^Loop time of/ { loop += $4 }
        /^Neigh +\|/ { split($0, f, "|"); neigh += f[3] }
        /^Pair +\|/ { split($0, f, "|"); pair += f[3] }
        /^Neighbor list builds =/ { builds += $5 }
        /^Dangerous builds =/ { danger += $4 }
        END { printf "%.6g %.6g %.6g %d %d\n", loop, neigh, pair, builds, danger }' "$1"
}

run_lmp() { # run_lmp DIR INPUT LOG
    (cd "$1" && lmp -in "$2" -log "$3" -screen none > /dev/null 2>&1)
}

rc=0
for c in "${cases[@]}"; do
    d="$T/$c"
    mkdir -p "$d"
    case_input "$c" > "$d/in.base" || { rc=1; continue; }
    read -r skin style dmin dmax <<< "$(case_facts "$c")"
    # the trajectory, written once by the input as it is (a frame every
    # 1/20 of its runs, with radii)
    every=$(awk '/^run[ \t]/ { s += $2 } END { n = int(s / 20); print (n < 1 ? 1 : n) }' "$d/in.base")
    awk -v every="$every" '
        /^run[ \t]/ && !done { print "dump hgtraj all custom " every " traj.dump id type radius x y z"; done = 1 }
        { print }' "$d/in.base" > "$d/in.traj"
    if ! run_lmp "$d" in.traj log.traj; then
        echo "$c: lmp failed writing the trajectory: $(grep -m1 ERROR "$d/log.traj")" >&2
        rc=1
        continue
    fi
    # hgridopt's static lines for the last frame, the input's skin kept
    if ! "$HG" recommend --packing "$d/traj.dump" --frame last --engine lammps \
        --skin "$skin" --format lammps > "$d/hgridopt.lines" 2> "$d/hgridopt.err"; then
        echo "$c: hgridopt recommend failed: $(cat "$d/hgridopt.err")" >&2
        rc=1
        continue
    fi
    grep -q . "$d/hgridopt.err" && sed "s/^/$c: hgridopt: /" "$d/hgridopt.err" >&2
    {
        candidates "$c"
        printf 'hgridopt (last frame)\t%s\n' "$(grep -vE '^#|^$' "$d/hgridopt.lines" | awk '{printf "%s\\n", $0}' | sed 's/\\n$//')"
    } > "$d/candidates"
    n=$(wc -l < "$d/candidates")
    i=0
    while IFS=$'\t' read -r name lines; do
        with_lines "$d/in.base" "$(printf '%b' "$lines")" > "$d/in.$i"
        i=$((i + 1))
    done < "$d/candidates"
    : > "$d/times"
    for ((r = 0; r < ROUNDS; r++)); do
        for ((j = 0; j < n; j++)); do
            k=$j
            [ $((r % 2)) = 1 ] && k=$((n - 1 - j))
            if run_lmp "$d" "in.$k" "log.$k.$r" && grep -q '^Loop time of' "$d/log.$k.$r"; then
                echo "$k $(sums "$d/log.$k.$r")" >> "$d/times"
            else
                echo "$c: candidate $k ($(sed -n "$((k + 1))p" "$d/candidates" | cut -f1)) failed: $(grep -m1 ERROR "$d/log.$k.$r")" >&2
                rc=1
            fi
        done
    done
    echo
    echo "$c: $(awk '/^run[ \t]/ { s += $2; r++ } END { printf "%d runs, %d steps", r, s }' "$d/in.base"), $ROUNDS alternating rounds, one rank, lmp $(lmp -h | awk '/^Large-scale/ { sub(/.*Simulator - /, ""); sub(/ *$/, ""); print; exit }')"
    echo "hgridopt's lines (recommend --packing traj.dump --frame last --engine lammps --skin $skin --format lammps):"
    grep -vE '^$' "$d/hgridopt.lines" | sed 's/^/    /'
    python3 - "$d/candidates" "$d/times" << 'PY'
import sys, statistics as st
names = [l.split('\t')[0] for l in open(sys.argv[1]) if l.strip()]
rows = {}
for l in open(sys.argv[2]):
    k, loop, neigh, pair, builds, danger = l.split()
    rows.setdefault(int(k), []).append((float(loop), float(neigh), float(pair), int(builds), int(danger)))
med = {k: [st.median(x[i] for x in v) for i in range(3)] for k, v in rows.items()}
best = min(m[0] for m in med.values()) if med else float('nan')
print("| candidate | Loop s (min-max) | Neigh s | Pair s | builds | dangerous | Loop / best |")
print("|---|---|---|---|---|---|---|")
for k, name in enumerate(names):
    if k not in rows:
        print(f"| {name} | failed | | | | | |")
        continue
    v = rows[k]
    lo = min(x[0] for x in v); hi = max(x[0] for x in v)
    print(f"| {name} | {med[k][0]:.2f} ({lo:.2f}-{hi:.2f}) | {med[k][1]:.2f} | {med[k][2]:.2f} | "
          f"{v[0][3]} | {max(x[4] for x in v)} | {med[k][0] / best:.3f} |")
lines = [l.rstrip('\n').split('\t', 1)[1] for l in open(sys.argv[1]) if l.strip()]
norm = [' '.join(x.replace('\\n', ' ').split()) for x in lines]
same = [names[k] for k in range(len(names) - 1) if norm[k] == norm[-1]]
if same:
    print(f"hgridopt's lines are those of: {', '.join(same)} (a difference in their times is noise)")
own = med.get(0, [float('nan')])[0]
hg = med.get(len(names) - 1, [float('nan')])[0]
print(f"own / best {own / best:.3f}; hgridopt / best {hg / best:.3f}; hgridopt / own {hg / own:.3f}")
sys.exit(0 if len(rows) == len(names) else 1)
PY
    [ $? = 0 ] || rc=1
done
exit $rc
