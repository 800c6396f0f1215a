#!/usr/bin/env bash
# hgridopt quick start. On a fresh Debian 12 machine (as root):
#   bash examples/quickstart.sh run    install what is missing, build, and
#                                      run the main job on the default example
#   bash examples/quickstart.sh test   install what is missing (also Debian's
#                                      lammps), build, and run the test suite
#                                      (ctest without the slow/bench labels)
# Other targets: slow (slow tests), bench (benchmark programs), lammps (the
# LAMMPS integration test), asan (tests under Address/UB sanitizers),
# fuzz (installs clang, builds the libFuzzer harnesses, runs each briefly).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
what=${1:-run}

need=()
for pkg in gcc make cmake pkg-config libgsl-dev libnlopt-dev libcjson-dev; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
# the test suite runs LAMMPS on the recommended neighbor settings
if { [ "$what" = test ] || [ "$what" = lammps ]; } && ! command -v lmp >/dev/null 2>&1; then
    need+=(lammps)
fi
if [ "$what" = fuzz ] && ! command -v clang >/dev/null 2>&1; then
    need+=(clang)
fi
if [ ${#need[@]} -gt 0 ]; then
    echo "quickstart: installing ${need[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
fi

build=build
flags=(-DCMAKE_BUILD_TYPE=Release)
if [ "$what" = fuzz ]; then
    build=build-fuzz
    export CC=clang
    flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DHG_FUZZ=ON -DHG_OPENMP=OFF)
elif [ "$what" = asan ]; then
    build=build-asan
    flags=(-DCMAKE_BUILD_TYPE=Debug -DHG_SANITIZE=ON)
fi
cmake -S . -B "$build" "${flags[@]}" >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null

jobs=$(nproc)
case "$what" in
run)
    "$build/hgridopt" recommend --system examples/paper-3d-uniform-volume.json
    ;;
test)
    ctest --test-dir "$build" -LE 'slow|bench' -j"$jobs" --output-on-failure
    ;;
asan)
    ctest --test-dir "$build" -LE 'slow|bench|lammps' -j"$jobs" --output-on-failure
    ;;
fuzz) ctest --test-dir "$build" -L fuzz --output-on-failure ;;
slow) ctest --test-dir "$build" -L slow -j"$jobs" --output-on-failure ;;
bench) ctest --test-dir "$build" -L bench --output-on-failure -V ;;
lammps) ctest --test-dir "$build" -L lammps --output-on-failure -V ;;
*)
    echo "usage: bash examples/quickstart.sh run|test|slow|bench|lammps|asan|fuzz" >&2
    exit 2
    ;;
esac
