#!/usr/bin/env bash
# bench_builds.sh HGRIDOPT [CASE...] - the neighbor list builds the
# whole-run model counts from a run's trajectory alone (no log), against
# LAMMPS' own count, at the input's skin x0.5, x1, x2 and x4. LAMMPS'
# granular examples as bench_whole_run.sh runs them (cases pour-wide,
# drum, flatwall, pour2d; funnel on request), on one rank: the input
# writes its trajectory once (a frame every 1/500 of its runs, with
# velocities), then runs once at each skin without it. Counts, not
# times: it may run beside anything.
# The model is asked as a user would ask it for a skin of their own:
# `recommend --trajectory traj.dump --skin S` (the answer's builds).
# Every skin's run is its own trajectory (a run is chaotic: a changed
# skin changes the order of the sums), the model reads the input's.
# Exits 1 when a count is more than 10 % off LAMMPS' (or a run failed).
# Environment: BENCH_KEEP (a folder to keep the runs in),
# BENCH_STEPS_SCALE (1), LAMMPS_EXAMPLES (/usr/share/lammps/examples).
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: bench_builds.sh HGRIDOPT [CASE...]" >&2; exit 2; }
HG=$(realpath "$1")
shift
EX=${LAMMPS_EXAMPLES:-/usr/share/lammps/examples}
SCALE=${BENCH_STEPS_SCALE:-1}
command -v lmp > /dev/null || { echo "bench_builds: lmp not found (apt-get install lammps)" >&2; exit 1; }
SRC=$(cd "$(dirname "$0")/.." && pwd)
. "$SRC/tests/whole_run_lib.sh"
bench_folder bench_builds
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(pour-wide drum flatwall pour2d)

builds_of() { awk '/^Neighbor list builds =/ { b += $5 } END { print b + 0 }' "$1"; }

rc=0
far=0
echo "| case | skin | LAMMPS builds | predicted from the trajectory | predicted / LAMMPS |"
echo "|---|---|---|---|---|"
for c in "${cases[@]}"; do
    d="$T/$c"
    mkdir -p "$d"
    case_input "$c" > "$d/in.base" || { rc=1; continue; }
    [ "$c" != liggghts-pour ] || { echo "bench_builds: liggghts-pour: LAMMPS cases only" >&2; rc=1; continue; }
    read -r skin style dmin dmax dt <<< "$(case_facts "$c")"
    every=$(awk '/^run[ \t]/ { s += $2 } END { n = int(s / 500); print (n < 1 ? 1 : n) }' "$d/in.base")
    awk -v every="$every" '
        /^run[ \t]/ && !done { print "dump hgtraj all custom " every " traj.dump id type radius x y z vx vy vz"; done = 1 }
        { print }' "$d/in.base" > "$d/in.traj"
    if ! (cd "$d" && lmp -in in.traj -log log.traj -screen none > /dev/null 2>&1); then
        echo "$c: lmp failed writing the trajectory: $(grep -m1 ERROR "$d/log.traj")" >&2
        rc=1
        continue
    fi
    [ "$dt" = log ] && dt=$(awk '$1 == "timestep" && $2 + 0 > 0 { print $2; exit }' "$d/log.traj")
    for f in 0.5 1 2 4; do
        s=$(awk -v a="$skin" -v f="$f" 'BEGIN { printf "%g", a * f }')
        if [ "$f" = 1 ]; then
            cp "$d/log.traj" "$d/log.$f"
        else
            with_lines "$d/in.base" "neighbor $s $style" > "$d/in.$f"
            if ! (cd "$d" && lmp -in "in.$f" -log "log.$f" -screen none > /dev/null 2>&1); then
                echo "$c: lmp failed at skin $s: $(grep -m1 ERROR "$d/log.$f")" >&2
                rc=1
                continue
            fi
        fi
        if ! "$HG" recommend --trajectory "$d/traj.dump" --engine lammps \
            --setting "neighbor $s $style" --skin "$s" --timestep "$dt" \
            --format json > "$d/advice.$f.json" 2> "$d/advice.$f.err"; then
            echo "$c: hgridopt recommend --trajectory failed: $(head -1 "$d/advice.$f.err")" >&2
            rc=1
            continue
        fi
        m=$(builds_of "$d/log.$f")
        p=$(python3 -c 'import json,sys; print("%.0f" % json.load(open(sys.argv[1]))["answer"]["builds"])' "$d/advice.$f.json")
        awk -v c="$c" -v s="$s" -v m="$m" -v p="$p" 'BEGIN { printf "| %s | %s | %d | %d | %.3f |\n", c, s, m, p, (m > 0 ? p / m : 0) }'
        awk -v m="$m" -v p="$p" 'BEGIN { exit !(m > 0 && p / m >= 0.9 && p / m <= 1.1) }' || far=$((far + 1))
    done
done
echo "goal: every count within 10 % of LAMMPS': $([ "$far" = 0 ] && echo met || echo "NOT met ($far off)")"
[ "$far" = 0 ] || rc=1
exit $rc
