#!/bin/sh
# Build make_fixtures.cpp against an existing MercuryDPM kernel build and
# regenerate the MercuryDPM output fixtures.
#
# Usage: make_fixtures.sh MERCURY_BUILD_DIR OUTDIR
#
# MERCURY_BUILD_DIR is a CMake build tree of MercuryDPM configured with
# -DMercuryDPM_KERNEL_ONLY=ON (it must contain Kernel/libMercuryBase.a).
# Compile flags (include dirs, defines) are taken from the build tree's
# Kernel/CMakeFiles/MercuryBase.dir/flags.make. Nothing here downloads or
# builds MercuryDPM itself.
set -eu

if [ $# -ne 2 ]; then
    echo "usage: $0 MERCURY_BUILD_DIR OUTDIR" >&2
    exit 2
fi
BUILD=$(cd "$1" && pwd)
mkdir -p "$2"
OUT=$(cd "$2" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
CXX=${CXX:-c++}
MAXBYTES=1048576

FLAGS="$BUILD/Kernel/CMakeFiles/MercuryBase.dir/flags.make"
for f in "$FLAGS" "$BUILD/Kernel/libMercuryBase.a" "$BUILD/Kernel/Math/libLinearAlgebra.a"; do
    [ -f "$f" ] || { echo "missing $f (is $BUILD a MercuryDPM build tree?)" >&2; exit 1; }
done
# CXX_DEFINES / CXX_INCLUDES lines of flags.make ("NAME = value")
DEFS=$(sed -n 's/^CXX_DEFINES = //p' "$FLAGS")
INCS=$(sed -n 's/^CXX_INCLUDES = //p' "$FLAGS")

TMP=$(mktemp -d "${TMPDIR:-/tmp}/mdpm_fixtures.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

echo "compiling driver ..."
t0=$(date +%s)
# libMercuryBase.a uses libLinearAlgebra.a (Fortran BLAS/LAPACK pieces, hence
# -lgfortran) and dl (backtraces).
# shellcheck disable=SC2086
$CXX -std=c++17 -O2 $DEFS $INCS "$HERE/make_fixtures.cpp" -o "$TMP/make_fixtures" \
    "$BUILD/Kernel/libMercuryBase.a" "$BUILD/Kernel/Math/libLinearAlgebra.a" \
    -lgfortran -ldl -lpthread
t1=$(date +%s)
echo "compiled in $((t1 - t0)) s"

# variant N NFRAMES SEED FILE... (each FILE named after mdpm_VARIANT:
# .data, .restart, .ene, .fstat, .xballs, Particle_K.vtu)
run() {
    v=$1 n=$2 frames=$3 seed=$4
    shift 4
    d="$TMP/$v"
    mkdir -p "$d"
    s0=$(date +%s)
    (cd "$d" && "$TMP/make_fixtures" "$v" "$n" "$frames" "$seed" > run.log 2>&1) || {
        cat "$d/run.log" >&2; exit 1; }
    s1=$(date +%s)
    echo "$v: N=$n frames=$frames seed=$seed ran in $((s1 - s0)) s"
    for suffix in "$@"; do
        f="$d/mdpm_$v$suffix"
        [ -f "$f" ] || { echo "ERROR: the run wrote no $(basename "$f")" >&2; exit 1; }
        size=$(wc -c < "$f")
        if [ "$size" -ge "$MAXBYTES" ]; then
            echo "ERROR: $(basename "$f") is $size bytes (>= 1 MB)" >&2
            exit 1
        fi
        cp "$f" "$OUT/"
        printf '  %-28s %8d bytes\n' "$(basename "$f")" "$size"
    done
}

run periodic3d    800 5 1 .data .restart .ene
run walls3d       800 5 2 .data .restart .ene .fstat
run walls2d      1000 5 3 .data .restart .ene
run insert2d       50 4 4 .data .restart .xballs
run lees2d        100 3 5 .restart Particle_2.vtu
run tdperiodic3d  250 3 6 .restart
run angled3d      250 3 7 .restart
echo "total $(( $(date +%s) - t0 )) s; fixtures in $OUT"
