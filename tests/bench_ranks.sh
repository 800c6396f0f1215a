#!/usr/bin/env bash
# bench_ranks.sh HGRIDOPT [CASE...] - hgridopt's MPI decompositions checked
# against LAMMPS itself: for every bed and rank count P, `hgridopt decompose`
# lists candidate decompositions (the default grid, `processors` grids,
# `balance` shift, `comm_style tiled` + `balance rcb`, ...) with the
# per-rank atom counts it predicts, and its answer; every candidate's lines
# are put in a LAMMPS input that reads the bed and runs 0 steps under
# `mpirun -np P` (oversubscribed: the exact counts of any P on any
# machine), and the counts LAMMPS prints (`Nlocal:` and `Nghost:` ave max
# min, of the busiest and the idlest rank) are compared with the
# prediction. Prints one table row per case, P and candidate: the
# processor grid LAMMPS chose, LAMMPS' Nlocal max, ave and max/ave,
# hgridopt's Nlocal max and its relative error, LAMMPS' Nghost max,
# hgridopt's and its error; then the largest errors over all rows, and per
# case and P hgridopt's answer's Nlocal max / ave as LAMMPS counted it.
#
#   usage: bash tests/bench_ranks.sh HGRIDOPT [CASE...]
#   e.g.   RANKS="8 16" bash tests/bench_ranks.sh build/hgridopt pour-wide
#
# Cases (default: all); the beds are the data files LAMMPS' own granular
# examples wrote (tests/data/files/lammps, README.md there), each with its
# example's boundary and skin:
#   pour-wide  pour_poly.data: examples/pour/in.pour with diameters
#              0.25-2.0 (3000 atoms), boundary p p fm, skin 0.2
#   drum       drum.data: examples/granular/in.pour.drum (4000 atoms,
#              diameters 0.5-1), boundary p p f, skin 0.2
#   funnel     funnel_discharging.data: examples/granregion/
#              in.granregion.funnel while discharging (1656 atoms,
#              diameters 0.5-1), boundary p p f, skin 0.5 (the example's
#              `neighbor multi`: the ghost cutoff is the same with bin)
#   flatwall   flatwall.data: examples/granular/in.pour.flatwall (3000
#              atoms, diameters 0.5-1), boundary p p f, skin 0.15
#   pour2d     pour2d.data: examples/pour/in.pour.2d (1000 disks,
#              diameters 0.5-1), dimension 2, boundary f fm p, skin 0.2
#
# For each case and P it runs
#   HGRIDOPT decompose --packing DATA --boundary "B" --mpi P --skin S --format json
# which prints {"ranks": P, "candidates": [{"name", "lines", "nlocal":
# {"ave", "max", "min"}, "nghost": {...}}, ...], "answer": {"index", "lines"}};
# the LAMMPS half is tests/ranks_oracle.sh (the input it writes is described
# there: units lj, atom_style sphere, a granular pair style, which only sets
# the ghost cutoff, the largest diameter plus the skin). All candidates of
# one case and P run in one lmp start, as segments separated by `clear`
# (checked: a segment's counts are those of its input run alone); a
# segment that fails (LAMMPS stops at its ERROR) is reported, and the
# segments after it run in a new start. Candidates with the same lines run
# once. An answer whose lines differ from those of the candidate it names
# runs on its own.
#
# Environment: RANKS (default "2 4 8 16 32 64"), BENCH_TOL (the largest
# relative error of Nlocal max and Nghost max allowed, in per cent; default
# 3), BENCH_MAXAVE (the largest answer's Nlocal max / ave allowed; default
# 1.25), BENCH_KEEP=DIR (work files kept in DIR: per case and P pred.json,
# cands.tsv, lines.K, counts.K or err.K, and per lmp start lmp.N/ with
# in.lmp, log.lammps, screen.txt; default a temporary folder, removed),
# LMP, MPIRUN (see ranks_oracle.sh).
# Exit status: 0 every error within BENCH_TOL and every answer's max / ave
# within BENCH_MAXAVE; 1 otherwise, or when a run failed; 2 usage.
# Needs lmp and mpirun (Debian's lammps and openmpi-bin) and python3.
# Time, on 2 cores: an lmp start on 64 oversubscribed ranks takes 13-20 s
# (almost all of it the 64 processes starting; `run 0` itself is
# instant), a segment 0.5-1 s more; the default run (5 cases x 6 P, 778
# candidates with a 3D case's every grid, shifted or not, and rcb)
# about 14 min.
set -euo pipefail

if [ $# -lt 1 ]; then
    echo "usage: bash tests/bench_ranks.sh HGRIDOPT [CASE...]   (env RANKS, BENCH_TOL, BENCH_MAXAVE, BENCH_KEEP)" >&2
    exit 2
fi
HG=$(realpath "$1")
shift
[ -x "$HG" ] || { echo "bench_ranks: $HG: not an executable" >&2; exit 2; }
RANKS=${RANKS:-2 4 8 16 32 64}
TOL=${BENCH_TOL:-3}
TOL=${TOL%\%}
MAXAVE=${BENCH_MAXAVE:-1.25}
for p in $RANKS; do
    [[ $p =~ ^[1-9][0-9]*$ ]] || { echo "bench_ranks: RANKS: '$p' is not a positive integer" >&2; exit 2; }
done
[[ $TOL =~ ^[0-9]+([.][0-9]*)?$ ]] || { echo "bench_ranks: BENCH_TOL: '$TOL' is not a number (per cent)" >&2; exit 2; }
[[ $MAXAVE =~ ^[0-9]+([.][0-9]*)?$ ]] || { echo "bench_ranks: BENCH_MAXAVE: '$MAXAVE' is not a number" >&2; exit 2; }
command -v "${LMP:-lmp}" > /dev/null || { echo "bench_ranks: ${LMP:-lmp} not found (apt-get install lammps)" >&2; exit 1; }
command -v mpirun > /dev/null || { echo "bench_ranks: mpirun not found (apt-get install openmpi-bin)" >&2; exit 1; }
command -v python3 > /dev/null || { echo "bench_ranks: python3 not found" >&2; exit 1; }

SRC=$(cd "$(dirname "$0")/.." && pwd)
DATA=$SRC/tests/data/files/lammps
. "$SRC/tests/ranks_oracle.sh"
T=${BENCH_KEEP:-$(mktemp -d)}
mkdir -p "$T"
T=$(realpath "$T")
[ -n "${BENCH_KEEP:-}" ] || trap 'rm -rf "$T"' EXIT

ALL_CASES=(pour-wide drum funnel flatwall pour2d)
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=("${ALL_CASES[@]}")

# case_facts CASE: sets data, dim, boundary, skin
case_facts() {
    case "$1" in
    pour-wide) data=pour_poly.data dim=3 boundary="p p fm" skin=0.2 ;;
    drum) data=drum.data dim=3 boundary="p p f" skin=0.2 ;;
    funnel) data=funnel_discharging.data dim=3 boundary="p p f" skin=0.5 ;;
    flatwall) data=flatwall.data dim=3 boundary="p p f" skin=0.15 ;;
    pour2d) data=pour2d.data dim=2 boundary="f fm p" skin=0.2 ;;
    *)
        echo "bench_ranks: unknown case '$1' (${ALL_CASES[*]})" >&2
        return 1
        ;;
    esac
    data=$DATA/$data
    [ -r "$data" ] || { echo "bench_ranks: $data: not readable (tests/data/files/lammps/make_fixtures.sh)" >&2; return 1; }
}
for c in "${cases[@]}"; do case_facts "$c" || exit 2; done

# split_pred JSON P DIR: the prediction into DIR/cands.tsv (K, name,
# predicted Nlocal ave max min, Nghost ave max min, the predicted grid
# "PXxPYxPZ" or "-") and DIR/lines.K; the answer's lines into
# DIR/lines.answer; prints the answer's index
split_pred() {
    python3 - "$@" << 'PY'
import json, math, sys
f, P, d = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def die(msg):
    sys.exit(f"bench_ranks: {f}: {msg}")
try:
    a = json.load(open(f))
except ValueError as e:
    die(f"not JSON: {e}")
if a.get("ranks") != P:
    die(f"ranks {a.get('ranks')!r}, expected {P}")
cands = a.get("candidates")
if not isinstance(cands, list) or not cands:
    die("no candidates")
def text(lines):
    lines = "\n".join(l.strip() for l in str(lines).replace(";", "\n").split("\n"))
    return "\n".join(l for l in lines.split("\n") if l) + "\n"
with open(f"{d}/cands.tsv", "w") as out:
    for k, c in enumerate(cands):
        try:
            name = " ".join(str(c["name"]).split()) or f"#{k}"
            nums = [float(c[q][s]) for q in ("nlocal", "nghost") for s in ("ave", "max", "min")]
            lines = text(c["lines"])
        except (KeyError, TypeError, ValueError) as e:
            die(f"candidate {k}: {e!r}")
        if not all(math.isfinite(x) for x in nums):
            die(f"candidate {k} ({name}): a count is not finite")
        g = c.get("grid")
        grid = "x".join(str(int(x)) for x in g) if isinstance(g, list) and len(g) == 3 else "-"
        open(f"{d}/lines.{k}", "w").write(lines)
        out.write("\t".join([str(k), name] + [repr(x) for x in nums] + [grid]) + "\n")
try:
    ans = a["answer"]
    k = int(ans["index"])
except (KeyError, TypeError, ValueError) as e:
    die(f"answer: {e!r}")
if not 0 <= k < len(cands):
    die(f"answer index {k} outside 0..{len(cands) - 1}")
open(f"{d}/lines.answer", "w").write(text(ans.get("lines", cands[k]["lines"])))
print(k)
PY
}

# measure DIR P ID...: LAMMPS' counts of DIR/lines.ID for every ID, all in
# one lmp start (ranks_segments), into DIR/counts.ID ("nl_ave nl_max
# nl_min ng_ave ng_max ng_min neighs_ave max min grid"); an ID whose
# segment failed gets DIR/err.ID (LAMMPS' ERROR) instead, and the IDs
# after it run again in a new start. Work folders DIR/lmp.0, lmp.1, ...
measure() {
    local d=$1 np=$2 b=0 i id w msg
    shift 2
    local todo=("$@") files next
    while [ ${#todo[@]} -gt 0 ]; do
        w=$d/lmp.$b
        b=$((b + 1))
        mkdir -p "$w"
        files=()
        for id in "${todo[@]}"; do files+=("$d/lines.$id"); done
        ranks_segments "$data" "$dim" "$boundary" "$skin" "${files[@]}" > "$w/in.lmp" || return 1
        ranks_run "$w" "$np" 2> "$w/err" || true
        ranks_parse_segments "$w/log.lammps" > "$w/segments" 2> /dev/null || true
        while read -r i msg; do
            echo "$msg" > "$d/counts.${todo[$((i - 1))]}"
        done < "$w/segments"
        next=()
        for ((i = 0; i < ${#todo[@]}; i++)); do
            id=${todo[$i]}
            [ -f "$d/counts.$id" ] && continue
            # the first segment without counts is the one that failed
            msg=$(sed 's/^ranks_run: //' "$w/err")
            [ -n "$msg" ] || msg="no counts in $w/log.lammps"
            echo "$msg" > "$d/err.$id"
            next=("${todo[@]:$((i + 1))}")
            # no segment completed and no ERROR of LAMMPS' (mpirun or lmp
            # did not start): the others would fail alike
            if [ ! -s "$w/segments" ] && ! grep -q 'ERROR' "$w/err"; then
                for id in "${next[@]}"; do echo "$msg" > "$d/err.$id"; done
                next=()
            fi
            break
        done
        todo=("${next[@]}")
    done
}

echo "bench_ranks: hgridopt $("$HG" --version 2>&1 | head -n1 | sed 's/^hgridopt //'); lmp $("${LMP:-lmp}" -h | awk '/^Large-scale/ { sub(/.*Simulator - /, ""); sub(/ *$/, ""); print; exit }'); $(mpirun --version 2>&1 | head -n1)"
echo "ranks: $RANKS; tolerance ${TOL} %, answer's Nlocal max / ave <= $MAXAVE"
echo
echo "| case | P | candidate | LAMMPS grid | Nlocal max | ave | max/ave | predicted max | error | Nghost max | predicted max | error |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
ROWS=$T/rows.tsv     # case P name lmp_nlmax lmp_nlave pred_nlmax err_nl lmp_ngmax pred_ngmax err_ng
ANSWERS=$T/answers.tsv # case P name nlmax nlave
: > "$ROWS"
: > "$ANSWERS"
nfail=0 # runs failed (hgridopt's or lmp's)
for c in "${cases[@]}"; do
    case_facts "$c"
    for P in $RANKS; do
        d=$T/$c/P$P
        rm -rf "$d"
        mkdir -p "$d"
        if ! "$HG" decompose --packing "$data" --boundary "$boundary" --mpi "$P" --skin "$skin" \
            --format json > "$d/pred.json" 2> "$d/pred.err"; then
            echo "| $c | $P | hgridopt decompose failed: $(head -n1 "$d/pred.err") | | | | | | | | | |"
            nfail=$((nfail + 1))
            continue
        fi
        [ -s "$d/pred.err" ] && sed "s/^/$c P=$P: hgridopt: /" "$d/pred.err" >&2
        if ! K=$(split_pred "$d/pred.json" "$P" "$d"); then
            nfail=$((nfail + 1))
            continue
        fi
        # every distinct set of lines runs once: same[ID] is the first ID
        # with the same lines; the answer runs when its lines are not
        # those of the candidate it names
        mapfile -t ids < <(cut -f1 "$d/cands.tsv")
        aname=$(awk -F'\t' -v k="$K" '$1 == k { print $2 }' "$d/cands.tsv")
        answer=$K
        if ! cmp -s "$d/lines.answer" "$d/lines.$K"; then
            echo "bench_ranks: $c P=$P: the answer's lines differ from those of candidate $K ($aname); run on their own" >&2
            ids+=(answer)
            answer=answer
            aname="answer (lines of its own)"
        fi
        declare -A same=()
        todo=()
        for id in "${ids[@]}"; do
            for o in "${todo[@]}"; do
                if cmp -s "$d/lines.$o" "$d/lines.$id"; then
                    same[$id]=$o
                    break
                fi
            done
            [ -n "${same[$id]:-}" ] || todo+=("$id")
        done
        measure "$d" "$P" "${todo[@]}"
        while IFS=$'\t' read -r k name pnl_ave pnl_max _ _ png_max _ pgrid; do
            r=${same[$k]:-$k}
            if [ ! -f "$d/counts.$r" ]; then
                echo "| $c | $P | $name | lmp failed: $(cat "$d/err.$r" 2> /dev/null) | | | | | | | | |"
                nfail=$((nfail + 1))
                continue
            fi
            read -r nl_ave nl_max _ _ ng_max _ _ _ _ grid < "$d/counts.$r"
            # the grid LAMMPS printed; tiled: the brick one of read_data
            if grep -q '^comm_style[[:space:]]\+tiled' "$d/lines.$k"; then
                grid="tiled (from $grid)"
            elif [ "$pgrid" != - ] && [ "$pgrid" != "$grid" ]; then
                grid="$grid (predicted $pgrid)"
            fi
            # the atoms hgridopt read are LAMMPS' atoms
            awk -v a="$nl_ave" -v b="$pnl_ave" 'BEGIN { exit !(a - b > 1e-6 * a || b - a > 1e-6 * a) }' &&
                echo "bench_ranks: $c P=$P $name: Nlocal ave $pnl_ave predicted, LAMMPS $nl_ave (another atom count)" >&2
            awk -v c="$c" -v P="$P" -v n="$name" -v g="$grid" -v la="$nl_ave" -v lm="$nl_max" -v pm="$pnl_max" \
                -v gm="$ng_max" -v pg="$png_max" -v rows="$ROWS" 'function err(l, p) { return (p - l) / (l > 1 ? l : 1) }
                BEGIN {
                    el = err(lm, pm); eg = err(gm, pg)
                    printf "| %s | %d | %s | %s | %d | %.6g | %.3f | %.6g | %+.2f %% | %d | %.6g | %+.2f %% |\n",
                        c, P, n, g, lm, la, lm / la, pm, 100 * el, gm, pg, 100 * eg
                    printf "%s\t%d\t%s\t%d\t%.10g\t%.10g\t%.10g\t%d\t%.10g\t%.10g\n",
                        c, P, n, lm, la, pm, el, gm, pg, eg >> rows
                }'
        done < "$d/cands.tsv"
        r=${same[$answer]:-$answer}
        if [ -f "$d/counts.$r" ]; then
            read -r nl_ave nl_max _ < "$d/counts.$r"
            printf '%s\t%d\t%s\t%s\t%s\n' "$c" "$P" "$aname" "$nl_max" "$nl_ave" >> "$ANSWERS"
        else
            [ "$answer" = "$K" ] || echo "bench_ranks: $c P=$P: the answer's run failed: $(cat "$d/err.$r" 2> /dev/null)" >&2
            [ "$answer" = "$K" ] || nfail=$((nfail + 1))
            printf '%s\t%d\t%s\tfailed\tfailed\n' "$c" "$P" "$aname" >> "$ANSWERS"
        fi
        unset same
    done
done

echo
python3 - "$ROWS" "$ANSWERS" "$TOL" "$MAXAVE" "$nfail" << 'PY'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
answers = [l.rstrip("\n").split("\t") for l in open(sys.argv[2]) if l.strip()]
tol, maxave, nfail = float(sys.argv[3]) / 100, float(sys.argv[4]), int(sys.argv[5])
ok = nfail == 0
if not rows:
    print(f"no rows: nothing was compared ({nfail} runs failed)")
    sys.exit(1)
for col, what in ((6, "Nlocal max"), (9, "Nghost max")):
    r = max(rows, key=lambda r: abs(float(r[col])))
    e = abs(float(r[col]))
    bad = e > tol
    ok &= not bad
    n = sum(abs(float(x[col])) > tol for x in rows)
    print(f"largest error of {what}: {100 * e:.2f} % ({r[0]} P={r[1]} {r[2]}); "
          f"{n} of {len(rows)} rows above {100 * tol:g} %")
print()
print("| case | P | answer | LAMMPS Nlocal max | ave | max / ave |")
print("|---|---|---|---|---|---|")
for c, P, name, mx, ave in answers:
    if mx == "failed":
        print(f"| {c} | {P} | {name} | failed | | |")
        continue
    q = float(mx) / float(ave)
    bad = q > maxave
    ok &= not bad
    print(f"| {c} | {P} | {name} | {mx} | {float(ave):.6g} | {q:.3f}{' (above ' + str(maxave) + ')' if bad else ''} |")
print()
if ok:
    print("result: every error within %g %% and every answer's max / ave within %g" % (100 * tol, maxave))
else:
    print("result: FAILED (an error above %g %%, an answer's max / ave above %g, or %d runs failed)"
          % (100 * tol, maxave, nfail))
sys.exit(0 if ok else 1)
PY
