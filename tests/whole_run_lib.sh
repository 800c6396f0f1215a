# whole_run_lib.sh - what the whole-run benchmarks (bench_whole_run.sh,
# bench_builds.sh) and the schedule test share (sourced). case_input reads
# EX (LAMMPS' examples), SCALE (run lengths) and SRC (this tree).

# with_schedule INPUT JSON: the input with the schedule's phases of the
# advice (recommend --format json): the first phase's lines in place of
# the neighbor line, each later phase's lines before the run that starts
# at its first step (a run that holds it is split there)
with_schedule() {
    python3 - "$1" "$2" << 'PY'
import json, sys
base = open(sys.argv[1]).read().split('\n')
adv = json.load(open(sys.argv[2]))
ph = adv["schedule"]
out, step, done, k = [], 0, False, 1
for line in base:
    w = line.split()
    if w[:1] == ["neighbor"] and not done:
        out += ph[0]["lines"].rstrip("\n").split("\n")
        done = True
        continue
    if w[:1] == ["run"]:
        n = int(w[1])
        while k < len(ph) and step <= ph[k]["from_step"] < step + n:
            cut = ph[k]["from_step"] - step
            if cut > 0:
                out.append("run %d" % cut)
            out += ph[k]["lines"].rstrip("\n").split("\n")
            step, n, k = step + cut, n - cut, k + 1
        if n > 0:
            out.append("run %d" % n)
        step += n
        continue
    out.append(line)
print("\n".join(out))
PY
}

# bench_folder NAME: T, the folder a benchmark works in: BENCH_KEEP
# (kept), else a temporary one removed at exit
bench_folder() {
    T=${BENCH_KEEP:-$(mktemp -d)}
    mkdir -p "$T" || { echo "$1: cannot make '$T'" >&2; exit 1; }
    [ -n "${BENCH_KEEP:-}" ] || trap 'rm -rf "$T"' EXIT
}

# case_input CASE > FILE: the example as LAMMPS ships it, with the case's
# own changes (the pour's wide distribution) and every run scaled by SCALE
case_input() {
    local src
    case "$1" in
    pour-wide) src="$EX/pour/in.pour" ;;
    drum) src="$EX/granular/in.pour.drum" ;;
    flatwall) src="$EX/granular/in.pour.flatwall" ;;
    funnel) src="$EX/granregion/in.granregion.funnel" ;;
    pour2d) src="$EX/pour/in.pour.2d" ;;
    liggghts-pour) src="$SRC/tests/data/files/liggghts/in.pour_wide" ;;
    *) echo "${0##*/}: unknown case '$1' (pour-wide, drum, flatwall, funnel, pour2d, liggghts-pour)" >&2; return 1 ;;
    esac
    [ -r "$src" ] || { echo "${0##*/}: $src: not readable" >&2; return 1; }
    awk -v scale="$SCALE" -v c="$1" '
        c == "pour-wide" && /^fix[ \t]+ins[ \t]/ { $0 = $0 " diam poly 3 0.25 0.6 0.6 0.3 2.0 0.1" }
        c == "liggghts-pour" && /^(dump|dump_modify|write_data|variable[ \t]+(next|last)dump)/ { next }
        /^run[ \t]/ { n = int($2 * scale + 0.5); if (n < 1) n = 1; $0 = "run " n }
        { print }' "$src"
}

# case facts: the input's own skin and style, the smallest and largest
# diameter (what the collections and one-cutoff bins are made of), its
# timestep ("log": read from the trajectory run's log)
case_facts() {
    case "$1" in
    pour-wide) echo "0.2 bin 0.25 2.0 0.001" ;;
    drum) echo "0.2 bin 0.5 1.0 0.001" ;;
    flatwall) echo "0.15 bin 0.5 1.0 0.001" ;;
    funnel) echo "0.5 multi 0.5 1.0 log" ;; # its timestep: a variable
    pour2d) echo "0.2 bin 0.5 1.0 0.001" ;;
    liggghts-pour) echo "0.0005 bin 0.001 0.005 0.00001" ;;
    esac
}

# with_lines INPUT LINES: the input with its neighbor lines (the first
# `neighbor` line) replaced by LINES; its neigh_modify lines are kept
# (delay, every, check), LINES' neigh_modify lines follow them; LINES'
# comm_modify lines are repeated after each of the input's own that
# follows its neighbor line, and when
# they set mode single the input's own lose their `mode multi` (LAMMPS
# refuses it with bin at once, as a user pasting bin lines must do too).
# LINES without a neighbor line keep the input's. Decomposition lines
# (processors, comm_style, balance, fix ... balance) in LINES replace all
# of the input's own: `processors` goes before the box is made
# (create_box, read_data), the others before the first run (after the
# pair style: LAMMPS wants a granular pair's history fix before a fix
# that migrates atoms).
with_lines() {
    awk -v lines="$2" '
        BEGIN {
            n = split(lines, L, "\n")
            for (i = 1; i <= n; i++) {
                split(L[i], w, /[ \t]+/)
                if (w[1] == "processors") { proc = proc L[i] "\n"; dec = 1 }
                else if (w[1] == "comm_style" || w[1] == "balance" || (w[1] == "fix" && w[4] == "balance")) { bal = bal L[i] "\n"; dec = 1 }
                else if (L[i] != "") {
                    if (L[i] ~ /^neighbor[ \t]/) has_neigh = 1
                    if (L[i] ~ /^comm_modify/) comm = comm L[i] "\n"
                    neigh = neigh L[i] "\n"
                }
            }
        }
        dec && ($1 == "processors" || $1 == "comm_style" || $1 == "balance" || ($1 == "fix" && $4 == "balance")) { next }
        dec && !pdone && ($1 == "create_box" || $1 == "read_data" || $1 == "read_restart") { printf "%s", proc; pdone = 1 }
        dec && !bdone && $1 == "run" { printf "%s", bal; bdone = 1 }
        /^neighbor[ \t]/ {
            if (!done) { if (has_neigh) printf "%s", neigh; else print; done = 1 }
            next
        }
        /^comm_modify[ \t]/ && comm ~ /mode single/ { gsub(/mode[ \t]+multi/, "") }
        { print }
        /^comm_modify[ \t]/ && done { printf "%s", comm }' "$1"
}
