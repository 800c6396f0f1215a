#!/usr/bin/env bash
# hgridopt quick start. On a fresh Debian 12 machine (as root):
#   bash examples/quickstart.sh run    install what is missing, build, and
#                                      run the main job on the default example
#   bash examples/quickstart.sh test   install what is missing (also jq and
#                                      Debian's lammps), build, and run the
#                                      test suite (ctest without the labels
#                                      slow, bench, fresh, fuzz)
# Other targets: slow (slow tests), bench (benchmark programs; also installs
# the bench group: CGAL for the peer benchmark), lammps (the
# LAMMPS integration test), asan (tests under Address/UB sanitizers), fuzz
# (clang + libFuzzer harnesses, ctest -L fuzz).
# The packages come from examples/packages.txt, the one list of what hgridopt
# needs on Debian 12; missing ones are installed with apt-get.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
what=${1:-run}

case "$what" in
run) groups="build" ;;
test | slow | lammps | asan) groups="build test" ;;
bench) groups="build test bench" ;;
fuzz) groups="build fuzz" ;;
*)
    echo "usage: bash examples/quickstart.sh run|test|slow|bench|lammps|asan|fuzz" >&2
    exit 2
    ;;
esac

# packages of the wanted groups that are not installed (a package removed
# but with its configuration files left is not installed)
need=()
while read -r group pkg rest; do
    case "$group" in build | test | bench | fuzz) known=1 ;; *) known=0 ;; esac
    if [ $known = 0 ] || [ -z "$pkg" ] || [ -n "$rest" ]; then
        echo "quickstart: examples/packages.txt: bad line '$group $pkg $rest' (expected: build|test|bench|fuzz PACKAGE)" >&2
        exit 1
    fi
    case " $groups " in *" $group "*) ;; *) continue ;; esac
    status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
    [ "${status##* }" = installed ] || need+=("$pkg")
done < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' examples/packages.txt)
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" != 0 ]; then
        echo "quickstart: missing Debian packages: ${need[*]} (run as root to install them)" >&2
        exit 1
    fi
    echo "quickstart: installing ${need[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get -o DPkg::Lock::Timeout=600 update -qq
    apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${need[@]}" >&2
fi

build=build
flags=(-DCMAKE_BUILD_TYPE=Release)
case "$what" in
asan)
    build=build-asan
    flags=(-DCMAKE_BUILD_TYPE=Debug -DHG_SANITIZE=ON)
    ;;
fuzz)
    build=build-fuzz
    flags=(-DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang -DHG_FUZZ=ON)
    ;;
esac
cmake -S . -B "$build" "${flags[@]}" >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null

jobs=$(nproc)
case "$what" in
run)
    "$build/hgridopt" recommend --system examples/paper-3d-uniform-volume.json
    ;;
test)
    ctest --test-dir "$build" -LE 'slow|bench|fresh|fuzz' -j"$jobs" --output-on-failure
    ;;
asan)
    ctest --test-dir "$build" -LE 'slow|bench|fresh|fuzz|lammps' -j"$jobs" --output-on-failure
    ;;
slow) ctest --test-dir "$build" -L slow -j"$jobs" --output-on-failure ;;
bench) ctest --test-dir "$build" -L bench --output-on-failure -V ;;
lammps) ctest --test-dir "$build" -L lammps --output-on-failure -V ;;
fuzz) ctest --test-dir "$build" -L fuzz --no-tests=error --output-on-failure ;;
esac
