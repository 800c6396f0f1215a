#!/usr/bin/env bash
# install_consumer.sh SRC BUILD - install the build tree into a temporary
# prefix, then build examples/consumer against the installed tree only, once
# with find_package(hgridopt) and once with pkg-config, and run both; check
# the installed man page renders and lists every command's options, and the
# bash completion completes commands, options and --format values.
set -euo pipefail
src=$1 build=$2
# hermetic: no calibration file of the user's changes the default K
export HGRIDOPT_CALIBRATION=/nonexistent/hgridopt-calibration.json
export HGRIDOPT_MERCURYDPM_CALIBRATION=/nonexistent/hgridopt-mercurydpm.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# a sanitizer build's library needs its runtime in the consumer too
san=()
[ "${HG_TEST_SANITIZE:-0}" = 1 ] && san=(-fsanitize=address,undefined)

cmake --install "$build" --prefix "$tmp/p" >"$tmp/install.log" ||
    fail "cmake --install: $(tail -3 "$tmp/install.log")"
p=$tmp/p
lib=$(ls -d "$p"/lib*/ | head -1)
for f in bin/hgridopt include/hgridopt/hgridopt.h include/hgridopt/hg_version.h \
    share/man/man1/hgridopt.1 share/bash-completion/completions/hgridopt \
    share/hgridopt/examples/paper-3d-uniform-volume.json; do
    [ -e "$p/$f" ] || fail "not installed: $f"
done
ls "$lib"/libhgridopt.so.* >/dev/null 2>&1 || fail "no shared library in $lib"
[ -e "$lib/libhgridopt.a" ] || fail "no static library in $lib"
soname=$(objdump -p "$lib"/libhgridopt.so | awk '/SONAME/{print $2}')
[[ $soname == libhgridopt.so.[0-9]* ]] || fail "SONAME '$soname'"
[ -e "$lib/pkgconfig/hgridopt.pc" ] || fail "no hgridopt.pc"
[ -e "$lib/cmake/hgridopt/hgridoptConfig.cmake" ] || fail "no CMake package"

# every public header compiles on its own, from C and from C++
for h in "$p"/include/hgridopt/*.h; do
    printf '#include <%s>\nint main(void){return 0;}\n' "hgridopt/$(basename "$h")" >"$tmp/h.c"
    cc -std=c11 -Wall -Wextra -Werror -I"$p/include" -c "$tmp/h.c" -o "$tmp/h.o" ||
        fail "C: $(basename "$h") does not compile on its own"
    cp "$tmp/h.c" "$tmp/h.cpp"
    c++ -Wall -Wextra -Werror -I"$p/include" -c "$tmp/h.cpp" -o "$tmp/h.o" ||
        fail "C++: $(basename "$h") does not compile on its own"
done
# the umbrella header includes every public header
for h in "$p"/include/hgridopt/hg_*.h; do
    grep -q "\"$(basename "$h")\"" "$p/include/hgridopt/hgridopt.h" ||
        fail "hgridopt.h does not include $(basename "$h")"
done

# find_package, against the installed tree only
cmake -S "$src/examples/consumer" -B "$tmp/cb" -DCMAKE_PREFIX_PATH="$p" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS="${san[*]}" >"$tmp/cb.log" 2>&1 || fail "find_package: $(tail -5 "$tmp/cb.log")"
cmake --build "$tmp/cb" >>"$tmp/cb.log" 2>&1 || fail "consumer build: $(tail -5 "$tmp/cb.log")"
out=$(LD_LIBRARY_PATH="$lib" "$tmp/cb/consumer") || fail "consumer (find_package) failed"
echo "find_package: $out"
[[ $out == *level*:* ]] || fail "consumer output '$out'"
# the library call gives the CLI's answer: the same K and cell sizes
cli=$("$p/bin/hgridopt" recommend --psd powerlaw:alpha=-3,omega=20 --dim 2 --nu 0.4 --format json |
    jq -r '"K \(.K) (\(.K_choice.source)), \(.levels) level\(if .levels == 1 then "" else "s" end):" + ([.cell_sizes[] | " \(.)"] | add)')
ans=$(sed 's/^hgridopt [^:]*: //' <<<"$out")
python3 - "$ans" "$cli" <<'PY' || fail "consumer '$ans' is not the CLI's answer '$cli'"
import re, sys
a, b = sys.argv[1], sys.argv[2]
na = [float(x) for x in re.findall(r"[0-9.]+(?:e[-+]?[0-9]+)?", a)]
nb = [float(x) for x in re.findall(r"[0-9.]+(?:e[-+]?[0-9]+)?", b)]
assert re.sub(r"[0-9.]+(e[-+]?[0-9]+)?", "#", a) == re.sub(r"[0-9.]+(e[-+]?[0-9]+)?", "#", b), (a, b)
assert len(na) == len(nb) and all(abs(x - y) <= 1e-5 * abs(y) for x, y in zip(na, nb)), (na, nb)
PY
echo "consumer agrees with the CLI: $ans"

# pkg-config, shared and static
export PKG_CONFIG_PATH="$lib/pkgconfig"
cc -std=c11 "${san[@]}" "$src/examples/consumer/consumer.c" -o "$tmp/consumer-pc" \
    $(pkg-config --cflags --libs hgridopt) || fail "pkg-config build"
out2=$(LD_LIBRARY_PATH="$lib" "$tmp/consumer-pc") || fail "consumer (pkg-config) failed"
[ "$out" = "$out2" ] || fail "pkg-config consumer '$out2' differs from '$out'"
cc -std=c11 "${san[@]}" "$src/examples/consumer/consumer.c" -o "$tmp/consumer-static" \
    $(pkg-config --cflags hgridopt) "$lib/libhgridopt.a" \
    $(pkg-config --static --libs hgridopt | sed 's/-lhgridopt//') ||
    fail "static pkg-config build"
out3=$("$tmp/consumer-static") || fail "static consumer failed"
[ "$out" = "$out3" ] || fail "static consumer '$out3' differs from '$out'"
ldd "$tmp/consumer-static" | grep libhgridopt >/dev/null && fail "static consumer loads libhgridopt.so"
echo "pkg-config: shared and static give the same answer"

# both include forms, <hgridopt/hgridopt.h> and <hgridopt.h>, with
# pkg-config and with find_package
for form in hgridopt/hgridopt.h hgridopt.h; do
    sed "s|#include <hgridopt/hgridopt.h>|#include <$form>|" \
        "$src/examples/consumer/consumer.c" >"$tmp/inc.c"
    grep -qF "#include <$form>" "$tmp/inc.c" || fail "consumer.c: no include line to replace"
    cc -std=c11 "${san[@]}" "$tmp/inc.c" -o "$tmp/inc" \
        $(pkg-config --cflags --libs hgridopt) || fail "pkg-config: #include <$form>"
    mkdir -p "$tmp/incb-src"
    cp "$tmp/inc.c" "$tmp/incb-src/consumer.c"
    cp "$src/examples/consumer/CMakeLists.txt" "$tmp/incb-src/"
    rm -rf "$tmp/incb"
    cmake -S "$tmp/incb-src" -B "$tmp/incb" -DCMAKE_PREFIX_PATH="$p" \
        -DCMAKE_C_FLAGS="${san[*]}" >"$tmp/incb.log" 2>&1 &&
        cmake --build "$tmp/incb" >>"$tmp/incb.log" 2>&1 ||
        fail "find_package: #include <$form>: $(tail -5 "$tmp/incb.log")"
done
echo "include forms: <hgridopt/hgridopt.h> and <hgridopt.h>"

# the installed binary runs from the prefix
"$p/bin/hgridopt" --version | grep -q '^hgridopt ' || fail "--version"
# every installed example system runs from the installed tree (its data
# files resolved next to it), from an unrelated working directory
for f in "$p"/share/hgridopt/examples/*.json; do
    (cd "$tmp" && "$p/bin/hgridopt" recommend --system "$f" >/dev/null 2>"$tmp/ex.err") ||
        fail "installed example $(basename "$f"): $(cat "$tmp/ex.err")"
done
[ -e "$p/share/hgridopt/examples/sieve-astm-c33.json" ] || fail "sieve example not installed"
echo "installed examples run"

# man page: renders, and lists every option of every command's --help
man_txt=$(MANWIDTH=100 man -l "$p/share/man/man1/hgridopt.1" 2>/dev/null | col -b) ||
    fail "man -l does not render"
cmds=$("$p/bin/hgridopt" --help | awk '/^Commands:/{on=1; next} on && /^  [a-z]/{print $1} on && /^$/{on=0}')
for c in $cmds; do
    grep -qF "hgridopt $c" <<<"$man_txt" || fail "man page lacks command $c"
    for o in $("$p/bin/hgridopt" "$c" --help | grep -oE '^ +--[a-zA-Z0-9-]+' | sort -u); do
        grep -qF -- "$o" <<<"$man_txt" || fail "man page lacks $c $o"
    done
done
echo "man page: every command and option of --help present"

# bash completion
comp() { # words... -> completions of the last word
    bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1));
             _hgridopt; printf "%s\n" "${COMPREPLY[@]}"' _ \
        "$p/share/bash-completion/completions/hgridopt" "$@"
}
bin=$p/bin/hgridopt
has() { # expected words... : every one is among the completions on stdin
    local got
    got=$(cat)
    for w in "$@"; do grep -qxF -- "$w" <<<"$got" || return 1; done
}
comp "$bin" rec | has recommend || fail "completion: command"
comp "$bin" recommend --for | has --format || fail "completion: option"
comp "$bin" recommend --format "" | has table json lammps mercurydpm ||
    fail "completion: --format values"
comp "$bin" pack --generator "" | has poisson rsa dense ||
    fail "completion: --generator values"
comp "$bin" recommend --model "" | has auto hgrid-top-down hgrid-bottom-up linked-cell bin ||
    fail "completion: recommend --model values"
comp "$bin" scan --algorithm "" | has all top-down bottom-up ||
    fail "completion: scan --algorithm values"
comp "$bin" validate --engine "" | has hgrid lammps || fail "completion: --engine values"
comp "$bin" recommend --psd "" | has powerlaw: lognormal: weibull: discrete: table: ||
    fail "completion: --psd families"
comp "$bin" bench --methods "" | has lc hgrid sap verlet || fail "completion: --methods"
# exactly the accepted values, never words of the help texts ("the",
# "poisson or", "dimension"): every command, every option with values
checked=0
for c in $cmds; do
    h=$("$bin" "$c" --help)
    for o in --format --model --generator --method --algorithm --engine \
        --structure --methods --dim --psd; do
        grep -qE "^ +$o " <<<"$h" || continue
        checked=$((checked + 1))
        got=$(comp "$bin" "$c" "$o" "")
        [ -n "$got" ] || fail "completion: $c $o offers nothing"
        bad=$(grep -vxE '[a-z0-9][a-z0-9-]*:?' <<<"$got" |
            tr '\n' ' ' || true)
        [ -z "$bad" ] || fail "completion: $c $o offers '$bad'"
        for w in the or of from dimension given shorthand comma-separated; do
            grep -qxF -- "$w" <<<"$got" && fail "completion: $c $o offers '$w'"
        done
    done
done
[ "$checked" -ge 30 ] || fail "completion: only $checked command options checked"
comp "$bin" evaluate --structure "" | sort | tr '\n' ' ' | grep -qx 'hard-spheres measured poisson ' ||
    fail "completion: --structure values: $(comp "$bin" evaluate --structure "" | tr '\n' ' ')"
comp "$bin" evaluate --dim "" | tr '\n' ' ' | grep -qx '2 3 ' || fail "completion: --dim values"
echo "bash completion: commands, options, values"
echo "install test passed"
