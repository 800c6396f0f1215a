# lmp_neigh.sh - sourced by the LAMMPS benchmarks: the Neigh time per build
# of one lmp run, from the timing breakdown of its screen output.
# lmp_neigh_ms FILE WHO: milliseconds per build = Neigh CPU seconds (avg wall
# time x %CPU, `timer full`) / the reported builds; WHO names the caller in
# errors.
lmp_neigh_ms() {
    local out=$1 who=$2 neigh builds
    neigh=$(awk -F'|' '/^Neigh +\|/ {v = $3 * $6 / 100} END {print v + 0}' "$out")
    builds=$(awk '/Neighbor list builds =/ {v = $NF} END {print v + 0}' "$out")
    [ "$builds" -gt 0 ] || { echo "$who: no neighbor list builds in $out" >&2; exit 1; }
    awk -v t="$neigh" -v b="$builds" 'BEGIN {print 1000 * t / b}'
}
