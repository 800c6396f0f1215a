# run_lib.sh - what `hgridopt run` must leave unchanged, checked between a
# plain `lmp` run of an input and `hgridopt run` of the same (sourced by
# tests/cli_run.sh and tests/bench_run.sh).

# thermo_rows LOG: "step atoms" of every thermo row of a LAMMPS log, each
# step once, in order (the Atoms column when the thermo style has one,
# else "-"). A split run prints its boundary steps twice (the end of one
# segment, the start of the next): once here.
thermo_rows() {
    awk '/^ *Step / { on = 1; ac = 0; for (i = 1; i <= NF; i++) if ($i == "Atoms") ac = i; next }
         /^Loop time of/ { on = 0; next }
         on && $1 ~ /^[0-9]+$/ { k = $1 " " (ac ? $ac : "-"); if (!(k in seen)) { seen[k] = 1; print k } }' "$1"
}

# dump_rows DIR: "file step atoms" of every dump file (*.dump) in DIR
dump_rows() {
    local f
    for f in "$1"/*.dump; do
        [ -e "$f" ] || continue
        printf '%s %s %s\n' "${f##*/}" "$(sed -n 2p "$f")" "$(sed -n 4p "$f")"
    done | sort
}

# run_steps LOG: the steps of every run of a log, summed
run_steps() {
    awk '/^Loop time of/ { for (i = 1; i <= NF; i++) if ($i == "for") s += $(i + 1) } END { print s + 0 }' "$1"
}

# dangerous LOG: the dangerous builds of a log, summed
dangerous() {
    awk '/^Dangerous builds =/ { s += $4 } END { print s + 0 }' "$1"
}

# same_run PLAIN_DIR RUN_DIR: "" when the thermo rows (steps, atoms), the
# dumps (files, steps, atoms) and the steps run are the same in both
# (log.lammps in each); else what differs, on one line
same_run() {
    local a=$1 b=$2 why=""
    if ! diff <(thermo_rows "$a/log.lammps") <(thermo_rows "$b/log.lammps") > /dev/null; then
        why="thermo rows differ ($(thermo_rows "$a/log.lammps" | wc -l) vs $(thermo_rows "$b/log.lammps" | wc -l) rows; first: $(diff <(thermo_rows "$a/log.lammps") <(thermo_rows "$b/log.lammps") | sed -n 2p))"
    elif ! diff <(dump_rows "$a") <(dump_rows "$b") > /dev/null; then
        why="dumps differ ($(dump_rows "$a" | wc -l) vs $(dump_rows "$b" | wc -l) files; first: $(diff <(dump_rows "$a") <(dump_rows "$b") | sed -n 2p))"
    elif [ "$(run_steps "$a/log.lammps")" != "$(run_steps "$b/log.lammps")" ]; then
        why="steps run differ: $(run_steps "$a/log.lammps") vs $(run_steps "$b/log.lammps")"
    elif [ "$(thermo_rows "$a/log.lammps" | wc -l)" -lt 2 ]; then
        why="no thermo rows in $a/log.lammps"
    fi
    printf '%s' "$why"
}

# outflow_only PLAIN_DIR RUN_DIR FIRST_CHANGE: "" when what same_run finds
# is only atoms that left: the same thermo steps, the same dump files and
# steps, the same steps run, the same atom counts up to step FIRST_CHANGE (the first change of
# the lines), and atoms in the plain run that fall during the run (they
# leave the box by the input's own physics: after any change of the
# neighbor lines the trajectory differs by round-off, and with it which
# atom leaves when, as between two static settings); else why not
outflow_only() {
    local a=$1 b=$2 c=$3
    if ! diff <(thermo_rows "$a/log.lammps" | awk '{ print $1 }' | uniq) \
        <(thermo_rows "$b/log.lammps" | awk '{ print $1 }' | uniq) > /dev/null; then
        printf 'the thermo steps differ'
    elif ! diff <(dump_rows "$a" | awk '{ print $1, $2 }') <(dump_rows "$b" | awk '{ print $1, $2 }') > /dev/null; then
        printf 'the dump files or steps differ'
    elif ! diff <(thermo_rows "$a/log.lammps" | awk -v c="$c" '$1 <= c') \
        <(thermo_rows "$b/log.lammps" | awk -v c="$c" '$1 <= c') > /dev/null; then
        printf 'atom counts differ before the first change (step %s)' "$c"
    elif [ "$(run_steps "$a/log.lammps")" != "$(run_steps "$b/log.lammps")" ]; then
        printf 'the steps run differ'
    elif ! thermo_rows "$a/log.lammps" | awk '$2 != "-" && p != "" && $2 + 0 < p + 0 { f = 1 } { p = $2 } END { exit !f }'; then
        printf 'no atoms leave in the plain run'
    fi
}
