#!/usr/bin/env bash
# Benchmark (labels bench, liggghts): the recommended bin size of the
# liggghts engine against LIGGGHTS' default and bin sizes 0.25-1.5 x the
# cutoff, measured in Debian's liggghts (one rank), on 3D systems of
# N >= 1e4 with size ratios 3-12: RSA/dense packings from hgridopt pack and
# settled beds poured with LAMMPS (tests/data/snapshots, replicated
# periodically in x and y with lmp's replicate). Prints per system every
# measured bin size and the table: system, N, recommended bin size,
# default, best, Neigh ms per build, recommended / best. Fails when a
# recommendation is more than 10 % slower than the best measured.
#   ctest -R bench_liggghts -V     (about 5 minutes on 2 cores)
# HG_LIGGGHTS_STEPS, HG_LIGGGHTS_REPEATS: timed steps per run (30) and
# alternating repeats (5); HG_LIGGGHTS_EXTRA: more particle files (paths).
set -eu
HG=${1:?hgridopt binary}
BENCH=${2:?bench_liggghts binary}
SRC=${3:?source dir}
command -v liggghts >/dev/null || { echo "bench_liggghts: liggghts is required (Debian package liggghts)" >&2; exit 1; }
command -v lmp >/dev/null || { echo "bench_liggghts: lmp is required (Debian package lammps)" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export HG_LIGGGHTS_STEPS=${HG_LIGGGHTS_STEPS:-30} HG_LIGGGHTS_REPEATS=${HG_LIGGGHTS_REPEATS:-5}
pack() { "$HG" pack --dim 3 --output "$T/$1.data" "${@:2}" 2> /dev/null; }
pack pl5_rsa --psd powerlaw:alpha=-3,rmin=1,omega=5 --nu 0.3 --n 10000 --generator rsa --seed 1
pack u3_dense --psd uniform-size:rmin=1,rmax=3 --nu 0.5 --n 20000 --generator dense --seed 21
pack pl12_rsa --psd powerlaw:alpha=-2,rmin=0.5,omega=12 --nu 0.4 --n 20000 --generator rsa --seed 22
pack bi10_rsa --psd "discrete:r=0.5;5,frac=0.97;0.03" --nu 0.3 --n 15000 --generator rsa --seed 23
bed() { # snapshot, nx, ny
    cat > "$T/rep.in" <<IN
units lj
atom_style sphere
boundary p p f
newton off
comm_modify vel yes
read_data $SRC/tests/data/snapshots/$1.data
replicate $2 $3 1
write_data $T/$1_x$(($2 * $3)).data nocoeff
IN
    lmp -in "$T/rep.in" -log none -screen none
}
bed bed3d_d1-4 3 3
bed bed3d_d1-8 2 2
bed bed3d_strat 2 2
cd "$T"
# one system per timing lock (each about a minute), the table at the end
rc=0
for f in pl5_rsa u3_dense pl12_rsa bi10_rsa bed3d_d1-4_x9 bed3d_d1-8_x4 \
    bed3d_strat_x4 ${HG_LIGGGHTS_EXTRA:-}; do
    [ -f "$f.data" ] || cp "$f" . 2> /dev/null || true
    flock /tmp/hgridopt-timing.lock "$BENCH" validate "$(basename "$f" .data).data" \
        > "$T/out.$(basename "$f" .data)" || rc=1
    sed -n '/^$/q;p' "$T/out.$(basename "$f" .data)"
done
echo
echo "| system | N | recommended binsize | default | best | Neigh ms/build rec / default / best | ratio rec/best |"
echo "|---|---|---|---|---|---|---|"
cat "$T"/out.* | grep '^| ' | grep -v '^| system'
exit $rc
