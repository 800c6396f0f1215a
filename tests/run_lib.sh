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
