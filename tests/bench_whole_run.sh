#!/usr/bin/env bash
# bench_whole_run.sh HGRIDOPT [CASE...] - LAMMPS' own granular examples run
# whole (pour, settle, flow), each re-run with only its neighbor lines
# changed: the input's own lines; hgridopt's whole-run advice from the
# run's own trajectory and log (`recommend --trajectory --log`): its
# static lines, the
# same with the input's skin kept (--skin S), and its schedule when it
# gives one; and a sweep (the input's style at 0.5x, 1x, 2x and 4x its
# skin; bins of one cutoff; multi with 2 and 3 geometrically spaced
# collections). Prints, per case, the total Loop, Neigh and Pair seconds
# (summed over the input's runs; medians of alternating rounds, with their
# min-max), the neighbor list builds and the dangerous builds of every
# candidate, the ratio of each to the fastest, and the goals: hgridopt /
# best within 1.05; faster than the input's own lines where the sweep
# finds something 10 % faster; with the skin kept, Neigh within 10 % of
# the best Neigh at that skin.
#
# Cases (default: all):
#   pour-wide  examples/pour/in.pour with the size-ratio-8 distribution
#              "diam poly 3 0.25 0.6 0.6 0.3 2.0 0.1" added to its fix
#              pour (3000 atoms; 25000 steps pour, 25000 steps chute flow)
#   drum       examples/granular/in.pour.drum (two pours of 2000 atoms,
#              diameters 0.5-1; 2000 steps fill, 3000 steps rotation)
#   flatwall   examples/granular/in.pour.flatwall (two pours of 1500 atoms,
#              diameters 0.5-1, onto a flat wall; 5000 steps)
#   liggghts-pour  LIGGGHTS: tests/data/files/liggghts/in.pour_wide, an
#              input of our own (2000 spheres, radii 0.5-2.5 mm, poured
#              onto a floor and settled; 40000 steps), its dumps removed
#   pour2d     examples/pour/in.pour.2d (1000 disks, diameters 0.5-1,
#              poured into a 2D box; 25000 steps; not in the default list)
#   funnel     examples/granregion/in.granregion.funnel (2000 atoms,
#              diameters 0.5-1, poured into a hopper, settled, discharged;
#              270000 steps, about 3 min a run: not in the default list)
# Environment: BENCH_ROUNDS (3), BENCH_STEPS_SCALE (1: the inputs' run
# lengths; 0.2 runs a fifth of every run), BENCH_KEEP (a folder to keep
# the inputs and logs in), LAMMPS_EXAMPLES (/usr/share/lammps/examples),
# BENCH_SEEDS (3; liggghts-pour only): each timed run of a candidate is
# the input with that many insertion seeds, one after the other, its
# times summed (1: the input's own seed alone). A run is chaotic: any
# change of the neighbor lines changes the order of the sums and so the
# whole trajectory, and one pour's contacts, and with them its Pair time,
# differ from another's by a few per cent whatever the lines; more seeds
# average that out. The advice still comes from the first seed's
# trajectory alone, as a user's would. LAMMPS' examples run as written,
# with their own seeds.
# BENCH_RANKS (1): every run (the trajectory's and each candidate's) under
# `mpirun -np BENCH_RANKS` (--oversubscribe beyond the machine's cores),
# the advice asked for as many ranks (`--mpi`, from the log), and the
# candidates gain the decompositions a user would try: LAMMPS' default
# grid without balancing, `processors * * 1`, and each with `fix balance
# 1000 1.1 shift` (the input's own processors and balance lines replaced);
# hgridopt's answer then carries its decomposition lines too.
# Needs lmp (Debian's lammps), liggghts for liggghts-pour, and quiet cores
# (one per rank): timing runs alternate the candidates, so a load that
# drifts spreads over all of them.
set -uo pipefail
HG=$(realpath "$1")
shift
EX=${LAMMPS_EXAMPLES:-/usr/share/lammps/examples}
ROUNDS=${BENCH_ROUNDS:-3}
SCALE=${BENCH_STEPS_SCALE:-1}
SEEDS=${BENCH_SEEDS:-3}
RANKS=${BENCH_RANKS:-1}
case $RANKS in [1-9] | [1-9][0-9] | [1-9][0-9][0-9]) ;; *) echo "bench_whole_run: BENCH_RANKS: '$RANKS' is not 1-999" >&2; exit 2 ;; esac
LAUNCH=()
if [ "$RANKS" -gt 1 ]; then
    command -v mpirun > /dev/null || { echo "bench_whole_run: mpirun not found (apt-get install mpi-default-bin)" >&2; exit 1; }
    LAUNCH=(mpirun --allow-run-as-root -np "$RANKS")
    [ "$RANKS" -gt "$(nproc)" ] && LAUNCH+=(--oversubscribe)
fi
case $SEEDS in [1-6]) ;; *) echo "bench_whole_run: BENCH_SEEDS: '$SEEDS' is not 1-6" >&2; exit 2 ;; esac
command -v lmp > /dev/null || { echo "bench_whole_run: lmp not found (apt-get install lammps)" >&2; exit 1; }
SRC=$(cd "$(dirname "$0")/.." && pwd)
. "$SRC/tests/whole_run_lib.sh"
bench_folder bench_whole_run
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(pour-wide drum flatwall liggghts-pour)

# The candidates of a case, one per line: NAME<TAB>LINES (\n in LINES)
candidates() {
    local skin style dmin dmax dt
    read -r skin style dmin dmax dt <<< "$(case_facts "$1")"
    awk -v s="$skin" -v st="$style" -v a="$dmin" -v b="$dmax" -v lig="$([ "$1" = liggghts-pour ] && echo 1 || echo 0)" 'BEGIN {
        printf "own\tneighbor %g %s\n", s, st
        printf "skin x0.5\tneighbor %g %s\n", 0.5 * s, st
        printf "skin x2\tneighbor %g %s\n", 2 * s, st
        printf "skin x4\tneighbor %g %s\n", 4 * s, st
        printf "bin of one cutoff\tneighbor %g bin\\nneigh_modify binsize %.6g%s\n", s, b + s, lig ? "" : "\\ncomm_modify mode single"
        if (lig) exit
        top = b * 1.000001
        printf "multi 2 collections\tneighbor %g multi\\nneigh_modify collection/interval 2 %.6g %.7g\\ncomm_modify mode multi\n", s, sqrt(a * b), top
        printf "multi 3 collections\tneighbor %g multi\\nneigh_modify collection/interval 3 %.6g %.6g %.7g\\ncomm_modify mode multi\n", s, a * (b / a)^(1 / 3), a * (b / a)^(2 / 3), top
    }'
    [ "$RANKS" -gt 1 ] || return 0
    printf 'own, LAMMPS default grid\tprocessors * * *\n'
    printf 'own, processors * * 1\tprocessors * * 1\n'
    [ "$1" = liggghts-pour ] && return 0
    # the shift's axes: x and y in 2D (LAMMPS refuses z there)
    local dims=xyz
    [ "$1" = pour2d ] && dims=xy
    printf 'own, fix balance\tprocessors * * *\\nfix hgbal all balance 1000 1.1 shift %s 20 1.1\n' "$dims"
    printf 'own, processors * * 1, fix balance\tprocessors * * 1\\nfix hgbal all balance 1000 1.1 shift xy 20 1.1\n'
}

# sums LOG: loop neigh pair builds dangerous, summed over the log's runs
sums() {
    awk '
        /^Loop time of/ { loop += $4 }
        /^Neigh +\|/ { split($0, f, "|"); neigh += f[3] }
        /^Pair +\|/ { split($0, f, "|"); pair += f[3] }
        /^Neigh +time \(%\) =/ { neigh += $5 }
        /^Pair +time \(%\) =/ { pair += $5 }
        /^Neighbor list builds =/ { builds += $5 }
        /^Dangerous builds =/ { danger += $4 }
        END { printf "%.6g %.6g %.6g %d %d\n", loop, neigh, pair, builds, danger }' "$1"
}

# timed DIR K R S: candidate K's run of round R, into log.K.R; with
# several seeds, the run of the S-th insertion seed (the first: the
# input's own) into log.K.R.sS (the round's log is their logs in one)
insertion_seeds=(67867967 86028121 104395301 122949823 141650939 160481183)
timed() {
    if [ "$NSEEDS" = 1 ]; then
        run_lmp "$1" "in.$2" "log.$2.$3"
        return
    fi
    local seed=${insertion_seeds[$(($4 - 1))]}
    sed "s/seed ${insertion_seeds[0]}/seed $seed/" "$1/in.$2" > "$1/in.$2.s$4"
    grep -q "seed $seed" "$1/in.$2.s$4" || {
        echo "bench_whole_run: in.$2: no 'seed ${insertion_seeds[0]}' to vary" >&2
        return 1
    }
    run_lmp "$1" "in.$2.s$4" "log.$2.$3.s$4"
}

run_lmp() { # run_lmp DIR INPUT LOG: the case's code (CODE) on INPUT
    if [ "$CODE" = liggghts ]; then
        (cd "$1" && "${LAUNCH[@]}" liggghts -in "$2" -log "$3" -echo none -nocite > /dev/null 2>&1)
    else
        (cd "$1" && "${LAUNCH[@]}" lmp -in "$2" -log "$3" -screen none > /dev/null 2>&1)
    fi
}

# advice CASE-DIR SKIN-OPTION: hgridopt's whole-run advice as JSON
advice() {
    local d=$1
    shift
    "$HG" recommend --trajectory "$d/traj.dump" --engine "$CODE" \
        --setting "$(printf 'neighbor %s %s' "$skin" "$style")" --timestep "$dt" \
        --log "$d/log.traj" --format json "$@"
}

rc=0
for c in "${cases[@]}"; do
    d="$T/$c"
    mkdir -p "$d"
    case_input "$c" > "$d/in.base" || { rc=1; continue; }
    read -r skin style dmin dmax dt <<< "$(case_facts "$c")"
    CODE=lammps
    if [ "$c" = liggghts-pour ]; then
        CODE=liggghts
        command -v liggghts > /dev/null || { echo "$c: liggghts not found (apt-get install liggghts)" >&2; rc=1; continue; }
    fi
    # the trajectory, written once by the input as it is (a frame every
    # 1/500 of its runs, with ids, radii and velocities)
    every=$(awk '/^run[ \t]/ { s += $2 } END { n = int(s / 500); print (n < 1 ? 1 : n) }' "$d/in.base")
    awk -v every="$every" '
        /^run[ \t]/ && !done { print "dump hgtraj all custom " every " traj.dump id type radius x y z vx vy vz"; done = 1 }
        { print }' "$d/in.base" > "$d/in.traj"
    if ! run_lmp "$d" in.traj log.traj; then
        echo "$c: lmp failed writing the trajectory: $(grep -m1 ERROR "$d/log.traj")" >&2
        rc=1
        continue
    fi
    [ "$dt" = log ] && dt=$(awk '$1 == "timestep" && $2 + 0 > 0 { print $2; exit }' "$d/log.traj")
    # hgridopt's advice for the whole run: skin chosen, and skin kept
    if ! advice "$d" > "$d/advice.json" 2> "$d/advice.err" ||
        ! advice "$d" --skin "$skin" > "$d/advice-skin.json" 2>> "$d/advice.err"; then
        echo "$c: hgridopt recommend --trajectory failed: $(cat "$d/advice.err")" >&2
        rc=1
        continue
    fi
    grep -q . "$d/advice.err" && sed "s/^/$c: hgridopt: /" "$d/advice.err" >&2
    {
        candidates "$c"
        for a in advice advice-skin; do
            python3 -c 'import json, sys; a = json.load(open(sys.argv[1])); t = a["lines"].rstrip("\n") + ("\n" + a["ranks"]["lines"].rstrip("\n") if "ranks" in a else ""); print(sys.argv[2] + "\t" + t.replace("\n", "\\n"))' \
                "$d/$a.json" "$([ $a = advice ] && echo hgridopt || echo "hgridopt --skin $skin")"
        done
        # on many ranks, the skin-kept lines on the input's own
        # decomposition too: what the Neigh goal compares (a decomposition
        # moves Neigh by itself)
        python3 -c 'import json, sys; a = json.load(open(sys.argv[1])); "ranks" in a and a["ranks"]["lines"].strip() and print(sys.argv[2] + "\t" + a["lines"].rstrip("\n").replace("\n", "\\n"))' \
            "$d/advice-skin.json" "hgridopt --skin $skin, your decomposition"
    } > "$d/candidates"
    n=$(wc -l < "$d/candidates")
    i=0
    while IFS=$'\t' read -r name lines; do
        with_lines "$d/in.base" "$(printf '%b' "$lines")" > "$d/in.$i"
        i=$((i + 1))
    done < "$d/candidates"
    if python3 -c 'import json, sys; sys.exit(0 if json.load(open(sys.argv[1]))["schedule"] else 1)' "$d/advice.json"; then
        with_schedule "$d/in.base" "$d/advice.json" > "$d/in.$n"
        printf 'hgridopt schedule\t(see in.%d)\n' "$n" >> "$d/candidates"
        n=$((n + 1))
    fi
    # a candidate whose input is another's (hgridopt's answer may keep the
    # input's lines) runs once; its times are the other's ("K O" in same)
    declare -A same=()
    : > "$d/same"
    for ((k = 1; k < n; k++)); do
        for ((o = 0; o < k; o++)); do
            if [ -z "${same[$o]:-}" ] && cmp -s "$d/in.$o" "$d/in.$k"; then
                same[$k]=$o
                echo "$k $o" >> "$d/same"
                break
            fi
        done
    done
    NSEEDS=1
    [ "$CODE" = liggghts ] && NSEEDS=$SEEDS
    : > "$d/times"
    # the runs alternate at the finest grain: every candidate's run of one
    # seed, then the next seed's in the other order, so a slow spell of the
    # machine falls on all candidates alike
    pass=0
    for ((r = 0; r < ROUNDS; r++)); do
        declare -A failed=()
        for ((sd = 1; sd <= NSEEDS; sd++)); do
            for ((j = 0; j < n; j++)); do
                k=$j
                [ $((pass % 2)) = 1 ] && k=$((n - 1 - j))
                [ -n "${same[$k]:-}" ] && continue
                [ -n "${failed[$k]:-}" ] && continue
                if ! timed "$d" "$k" "$r" "$sd"; then
                    failed[$k]=1
                fi
            done
            pass=$((pass + 1))
        done
        for ((k = 0; k < n; k++)); do
            [ -n "${same[$k]:-}" ] && continue
            if [ "$NSEEDS" != 1 ] && [ -z "${failed[$k]:-}" ]; then
                cat "$d"/log.$k.$r.s* > "$d/log.$k.$r"
            fi
            if [ -z "${failed[$k]:-}" ] &&
                [ "$(grep -c '^Loop time of' "$d/log.$k.$r")" -ge "$NSEEDS" ]; then
                echo "$k $(sums "$d/log.$k.$r")" >> "$d/times"
            else
                echo "$c: candidate $k ($(sed -n "$((k + 1))p" "$d/candidates" | cut -f1)) failed: $(grep -h -m1 ERROR "$d/log.$k.$r"* 2> /dev/null)" >&2
                rc=1
            fi
        done
        unset failed
    done
    awk 'NR == FNR { of[$2] = of[$2] " " $1; next }
        $1 in of { n = split(of[$1], k, " "); for (i = 1; i <= n; i++) { $1 = k[i]; print } }' \
        "$d/same" "$d/times" > "$d/times.same"
    cat "$d/times.same" >> "$d/times"
    rm -f "$d/times.same"
    echo
    if [ "$CODE" = liggghts ]; then
        version=$(liggghts -log none -h 2>/dev/null | grep -m1 -o 'LIGGGHTS-PUBLIC [0-9.]*')
    else
        version="lmp $(lmp -h | awk '/^Large-scale/ { sub(/.*Simulator - /, ""); sub(/ *$/, ""); print; exit }')"
    fi
    seeds=""
    [ "$NSEEDS" != 1 ] && seeds=", each of $NSEEDS insertion seeds (times summed)"
    ranks_text="one rank"
    [ "$RANKS" -gt 1 ] && ranks_text="$RANKS MPI ranks ($(nproc) cores)"
    echo "$c: $(awk '/^run[ \t]/ { s += $2; r++ } END { printf "%d runs, %d steps", r, s }' "$d/in.base")$seeds, $ROUNDS alternating rounds, $ranks_text, $version"
    echo "hgridopt recommend --trajectory traj.dump (a frame every $every steps) --engine $CODE --setting \"neighbor $skin $style\" --timestep $dt --log log.traj:"
    python3 - "$d/advice.json" "$d/advice-skin.json" << 'PY'
import json, sys
nan = float("nan")
for f, what in zip(sys.argv[1:], ["skin chosen", "skin kept"]):
    a = json.load(open(f))
    b = a["answer"]
    y = a["yours"]
    kept = " (your lines kept)" if b.get("keeps_yours") else ""
    print(f"  {what}: {b['setting']}{kept}, skin {b['skin']:.4g}: predicted Loop {b.get('loop_seconds', nan):.4g} s "
          f"(Neigh {b['neigh_seconds']:.4g}, Pair {b['pair_seconds']:.4g}, {b['builds']:.0f} builds); "
          f"yours {y.get('loop_seconds', nan):.4g} s ({y['builds']:.0f} builds)")
    if "log" in a:
        m = a["log"]["model_scaled"]
        print(f"    the model scaled to the log: Pair x{m['pair']:.3g}, Neigh per build x{m['neigh_per_build']:.3g}, "
              f"builds x{m['builds']:.3g}")
    for p in a["schedule"]:
        print(f"    phase steps {p['from_step']}-{p['to_step']}: {p['setting']}, skin {p['skin']:.4g}")
PY
    python3 - "$d/candidates" "$d/times" "$skin" "$d/same" << 'PY'
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
idx = {n: k for k, n in enumerate(names)}
for l in open(sys.argv[4]):
    k, o = map(int, l.split())
    print(f"{names[k]}: the same input as {names[o]}, run once, its times shared")
nan = float('nan')
g = lambda n, i=0: med.get(idx.get(n, -1), [nan] * 3)[i]
own, hg = g("own"), g("hgridopt")
sweep = [med[k][0] for k, n in enumerate(names) if k in med and not n.startswith("hgridopt")]
print(f"own / best {own / best:.3f}; hgridopt / best {hg / best:.3f}; hgridopt / own {hg / own:.3f}")
if "hgridopt schedule" in idx:
    print(f"hgridopt schedule / best {g('hgridopt schedule') / best:.3f}")
print(f"goal hgridopt / best <= 1.05: {'met' if hg / best <= 1.05 else 'NOT met'}")
if min(sweep) < own / 1.10:
    print(f"goal faster than own (the sweep finds {own / min(sweep):.2f}x): {'met' if hg < own else 'NOT met'}")
# the skin kept on the candidates' decomposition (the input's), when the
# advice changed it
hk = f"hgridopt --skin {sys.argv[3]}, your decomposition"
if hk not in idx:
    hk = f"hgridopt --skin {sys.argv[3]}"
at_skin = ["own", "bin of one cutoff", "multi 2 collections", "multi 3 collections", hk]
nb = min(g(n, 1) for n in at_skin if n in idx and idx[n] in med)
hs = g(hk, 1)
print(f"goal with the skin kept, Neigh / best Neigh at that skin <= 1.10: {hs / nb:.3f} {'met' if hs / nb <= 1.10 else 'NOT met'}")
sys.exit(0 if len(rows) == len(names) else 1)
PY
    [ $? = 0 ] || rc=1
done
exit $rc
