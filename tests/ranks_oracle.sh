# shellcheck shell=bash
# ranks_oracle.sh - LAMMPS' own per-rank atom counts of a particle bed under
# an MPI domain decomposition: the oracle of tests/bench_ranks.sh. A function
# library, to be sourced (it sets no shell options and runs nothing itself).
#
#   . tests/ranks_oracle.sh
#   lmp_counts DATA DIM BOUNDARY SKIN P LINES
#     prints "nlocal_ave nlocal_max nlocal_min nghost_ave nghost_max nghost_min"
#     e.g. lmp_counts tests/data/files/lammps/pour_poly.data 3 "p p fm" 0.2 8 \
#              $'processors * * 1\nbalance 1.0 shift xy 20 1.0'
#
# DATA is a data file with `Atoms # sphere` (as written by write_data), DIM
# 2 or 3, BOUNDARY LAMMPS' boundary letters ("p p fm"), SKIN the neighbor
# skin, P the MPI ranks, LINES the decomposition lines, one a line (real
# newlines, or `;` as hgridopt also accepts; may be empty): `processors
# ...` lines go before read_data, every other line (comm_style,
# comm_modify, balance, fix ... balance) after the pair, neighbor and
# `comm_modify vel yes` lines. The input then runs 0 steps under `mpirun
# -np P` (oversubscribed: any P runs on any machine) and the counts are the
# `Nlocal:` and `Nghost:` lines LAMMPS prints at the end of the run (`run 0`
# prints them too, with `Neighs:`). No fix moves the atoms, so the counts
# are those of the run's setup: the bed as read, after LAMMPS'
# shrink-wrapping, exchange and (with the lines' balance) balancing. The
# pair style only sets the ghost cutoff (for the granular styles: the
# largest diameter, plus the skin), so one style does for every bed; it is
# one with contact history, as the granular examples' are, because that
# decides whether a layout runs at all (see below):
#   pair_style gran/hooke/history 2000.0 NULL 50.0 NULL 0.5 0 / pair_coeff * *
#
# Seen with LAMMPS 29 Sep 2021:
#  - the processor grid is chosen at read_data, on the box of the data
#    file's header (which read_data prints); once the atoms are read,
#    read_data shrink-wraps the box round them (never inside an `m` face's
#    initial value), and so does the run's setup: pour_poly.data says
#    z hi 32.80510, `$(zhi)` right after read_data and the run's box are
#    32.80678 (its top atom at 32.80346 plus LAMMPS' margin of 1e-4 of the
#    box length);
#  - `balance ... shift xyz` with one processor along z is no error: z is
#    left alone; `shift z` alone with pz = 1 does nothing;
#  - `balance ... rcb` without `comm_style tiled` first: "ERROR: Balance
#    rcb cannot be used with comm_style brick"; a shift string with z in
#    2D: "ERROR: Balance shift string is invalid"; `processors * * 2` in
#    2D: "ERROR: Could not create 3d grid of processors";
#  - with `comm_style tiled` LAMMPS still prints the brick grid that
#    read_data chose ("2 by 2 by 2 MPI processor grid");
#  - `comm_style tiled` with a pair style that keeps contact history
#    (gran/*/history, granular) and `newton` pair on, the default, fails
#    at the setup, `run 0` included: "ERROR: Reverse comm fix variable not
#    yet supported by CommTiled"; `newton off on` before the first run
#    lets it run (set after a run it is too late: the same error); the
#    Nlocal and Nghost counts are the same either way (gran/hooke, newton
#    on: the 2D bed on 4 ranks under rcb 250/252/248 and 18.5/28/10).
#
# Lower-level functions (bench_ranks.sh uses them):
#   ranks_input DATA DIM BOUNDARY SKIN LINES > FILE   the LAMMPS input
#   ranks_run DIR P      runs DIR/in.lmp; log DIR/log.lammps, screen and
#                        mpirun's messages in DIR/screen.txt; on failure
#                        says why on stderr (LAMMPS' first ERROR line)
#   ranks_parse LOG      "nlocal_ave max min nghost_ave max min neighs_ave
#                        max min" from a log
#   ranks_grid LOG       the processor grid LAMMPS chose ("2 2 2")
#   ranks_box LOG        the box at the run's setup, after shrink-wrapping
#                        ("xlo xhi ylo yhi zlo zhi", from the thermo line)
#   ranks_segments DATA DIM BOUNDARY SKIN FILE... > in.lmp
#                        many decompositions in one input (one lmp start:
#                        at 64 oversubscribed ranks a start costs 13-20 s,
#                        a segment 0.5-1 s): the segment of each FILE's
#                        lines (ranks_input), preceded by the marker
#                        `ranks_oracle segment I` (I = 1, 2, ...) and
#                        separated by `clear` (which destroys the box, the
#                        atoms, the processors grid and the comm style:
#                        each segment starts afresh, and gives the counts
#                        of its own input run alone)
#   ranks_parse_segments LOG
#                        per segment that completed: "I nlocal_ave max min
#                        nghost_ave max min neighs_ave max min PXxPYxPZ";
#                        an ERROR ends the run: the first segment missing
#                        is the one that failed
#
# Environment: LMP (default lmp), MPIRUN (default "mpirun --allow-run-as-root
# --oversubscribe"), RANKS_PAIR (the pair lines, `;`-separated; default the
# gran/hooke above), RANKS_WORK=DIR (lmp_counts works in DIR and keeps its
# files there; default a temporary folder, removed).
# Written against Debian's lmp (LAMMPS 29 Sep 2021 - Update 2) and Open MPI
# 4.1.

# ranks_input DATA DIM BOUNDARY SKIN LINES: the input, on stdout
ranks_input() {
    local data=$1 dim=$2 boundary=$3 skin=$4 lines=$5
    local pair=${RANKS_PAIR:-"pair_style gran/hooke/history 2000.0 NULL 50.0 NULL 0.5 0;pair_coeff * *"}
    case "$dim" in 2 | 3) ;; *) echo "ranks_input: DIM '$dim' is not 2 or 3" >&2; return 2 ;; esac
    [ -r "$data" ] || { echo "ranks_input: $data: not readable" >&2; return 1; }
    data=$(realpath "$data")
    lines=$(printf '%s\n' "$lines" | tr ';' '\n' | sed 's/^[ \t]*//')
    printf '%s\n' "# bed $data, $dim-D, boundary $boundary, skin $skin" \
        "units           lj" "atom_style      sphere" "dimension       $dim" \
        "boundary        $boundary"
    # `processors` first: it must precede the box (read_data)
    printf '%s\n' "$lines" | awk '$1 == "processors"'
    printf '%s\n' "read_data       $data"
    printf '%s\n' "$pair" | tr ';' '\n' | sed 's/^[ \t]*//'
    printf '%s\n' "neighbor        $skin bin" "comm_modify     vel yes"
    # the rest (comm_style, comm_modify, balance, ...) after the pair and
    # neighbor lines: balance needs the ghost cutoff
    printf '%s\n' "$lines" | awk 'NF > 0 && $1 != "processors" && $1 !~ /^#/'
    # the box at the setup (after shrink-wrapping) in the thermo line
    printf '%s\n' "thermo_style    custom step atoms xlo xhi ylo yhi zlo zhi" \
        "thermo_modify   format float %.10g" "run             0"
}

# ranks_run DIR P: DIR/in.lmp under mpirun -np P (stdin /dev/null: mpirun
# forwards its stdin to rank 0, and would eat a caller's `while read` loop)
ranks_run() {
    local dir=$1 np=$2 mpirun=${MPIRUN:-"mpirun --allow-run-as-root --oversubscribe"}
    local err
    # shellcheck disable=SC2086 # MPIRUN is a command line
    if ! (cd "$dir" && OMP_NUM_THREADS=1 $mpirun -np "$np" "${LMP:-lmp}" -in in.lmp \
        -log log.lammps -screen none -nocite < /dev/null > screen.txt 2>&1) ||
        ! grep -q '^Nlocal:' "$dir/log.lammps" 2> /dev/null; then
        err=$(grep -h -m1 'ERROR' "$dir/log.lammps" "$dir/screen.txt" 2> /dev/null | head -n1)
        [ -n "$err" ] || err=$(tail -n 3 "$dir/screen.txt" 2> /dev/null | tr '\n' ' ')
        echo "ranks_run: lmp on $np ranks failed in $dir: $err" >&2
        return 1
    fi
}

# ranks_parse LOG: the last run's Nlocal, Nghost and Neighs (ave max min)
ranks_parse() {
    awk '
        $1 == "Nlocal:" { nl = $2 " " $4 " " $6 }
        $1 == "Nghost:" { ng = $2 " " $4 " " $6 }
        $1 == "Neighs:" { nn = $2 " " $4 " " $6 }
        END {
            if (nl == "" || ng == "") { print "ranks_parse: no Nlocal/Nghost lines in " FILENAME > "/dev/stderr"; exit 1 }
            if (nn == "") nn = "nan nan nan"
            print nl, ng, nn
        }' "$1"
}

# ranks_grid LOG: "PX PY PZ" of "PX by PY by PZ MPI processor grid"
ranks_grid() {
    awk '/MPI processor grid/ { g = $1 " " $3 " " $5 } END { if (g == "") exit 1; print g }' "$1"
}

# ranks_box LOG: the box of the run's setup (thermo line at step 0)
ranks_box() {
    awk '$1 == "Step" && $2 == "Atoms" && $3 == "Xlo" { h = 1; next }
        h && $1 == "0" { print $3, $4, $5, $6, $7, $8; exit }' "$1"
}

# ranks_segments DATA DIM BOUNDARY SKIN FILE...: one input, a segment a FILE
ranks_segments() {
    local data=$1 dim=$2 boundary=$3 skin=$4 i=0 f
    shift 4
    for f in "$@"; do
        i=$((i + 1))
        [ $i = 1 ] || printf '%s\n' "clear"
        printf '%s\n' "print           \"ranks_oracle segment $i\""
        ranks_input "$data" "$dim" "$boundary" "$skin" "$(cat "$f")" || return
    done
}

# ranks_parse_segments LOG: a line per completed segment
ranks_parse_segments() {
    awk '
        /^ranks_oracle segment [0-9]+$/ { s = $3; g = "?"; nl = ng = ""; next }
        /MPI processor grid/ { g = $1 "x" $3 "x" $5 }
        $1 == "Nlocal:" { nl = $2 " " $4 " " $6 }
        $1 == "Nghost:" { ng = $2 " " $4 " " $6 }
        $1 == "Neighs:" && s != "" && nl != "" && ng != "" { print s, nl, ng, $2, $4, $6, g; s = "" }' "$1"
}

# lmp_counts DATA DIM BOUNDARY SKIN P LINES: the six counts, on stdout
lmp_counts() {
    if [ $# -ne 6 ]; then
        echo "usage: lmp_counts DATA DIM BOUNDARY SKIN P LINES" >&2
        return 2
    fi
    local dir rc=0 c a
    if [ -n "${RANKS_WORK:-}" ]; then
        dir=$RANKS_WORK
        mkdir -p "$dir" || return 1
    else
        dir=$(mktemp -d "${TMPDIR:-/tmp}/ranks_oracle.XXXXXX") || return 1
    fi
    if ranks_input "$1" "$2" "$3" "$4" "$6" > "$dir/in.lmp" && ranks_run "$dir" "$5" &&
        c=$(ranks_parse "$dir/log.lammps"); then
        read -r -a a <<< "$c"
        echo "${a[*]:0:6}"
    else
        rc=1
    fi
    [ -n "${RANKS_WORK:-}" ] || rm -rf "$dir"
    return $rc
}
