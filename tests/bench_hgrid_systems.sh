# shellcheck shell=bash
# bench_hgrid_systems.sh - the systems of the bundled HGrid's benchmarks
# (bench_hgrid_tune.sh, bench_tables.sh), sourced: name|`hgridopt pack`
# options. 2D and 3D; the recommendations of the first six are top-down,
# of the last two (uniform radii) bottom-up or one level. system_packing
# makes a system's packing.
# name|pack options
# shellcheck disable=SC2034 # used by the scripts that source this file
systems=(
    "3D power law a-2.5 w40 nu0.5|--psd powerlaw:alpha=-2.5,omega=40 --dim 3 --nu 0.5 --generator rsa"
    "3D power law a-3 w100 nu0.3|--psd powerlaw:alpha=-3,omega=100 --dim 3 --nu 0.3 --generator poisson"
    "3D bidisperse 1:5 nu0.4|--psd discrete:r=1;5,frac=0.5;0.5,basis=volume --dim 3 --nu 0.4 --generator rsa"
    "3D uniform-volume 1-10 nu0.4|--psd uniform-volume:rmin=1,rmax=10 --dim 3 --nu 0.4 --generator rsa"
    "2D log-normal s0.6 nu0.5|--psd lognormal:median=1,sigma=0.6,qmin=0.001,qmax=0.999 --dim 2 --nu 0.5 --generator rsa"
    "2D power law a-3 w50 nu0.4|--psd powerlaw:alpha=-3,omega=50 --dim 2 --nu 0.4 --generator rsa"
    "3D uniform radii 1-10 nu0.5|--psd powerlaw:alpha=0,omega=10 --dim 3 --nu 0.5 --generator rsa"
    "2D uniform radii 1-10 nu0.5|--psd powerlaw:alpha=0,omega=10 --dim 2 --nu 0.5 --generator rsa"
)

# system_packing HG DIR N "name|options": pack the system (seed 1) into
# DIR and print the file's path; nothing when BENCH_ONLY (a regular
# expression) does not match its name; exit on a failed pack.
system_packing() {
    local name=${4%%|*} opts=${4#*|} f
    [[ -z "${BENCH_ONLY:-}" || "$name" =~ $BENCH_ONLY ]] || return 0
    f="$2/$(echo "$name" | tr -c 'a-zA-Z0-9\n' '_').csv"
    # shellcheck disable=SC2086
    "$1" pack $opts --n "$3" --seed 1 --output "$f" 2> "$f.err" ||
        { echo "pack $opts: $(cat "$f.err")" >&2; exit 1; }
    echo "$f"
}
