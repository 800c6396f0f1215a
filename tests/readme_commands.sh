#!/usr/bin/env bash
# readme_commands.sh HG SRC - run every command of the README's ```sh
# blocks, in order, so that a flow the README shows cannot break again
# (issue 25). Lines continued with '\' are joined, comment lines skipped;
# `hgridopt` is the built binary (first on PATH). The commands run in a
# temporary folder where examples/, tests/ and distributions/ of the source
# tree are reachable under their own names, so outputs (packing.data,
# scan.csv) land in the temporary folder. Every command must exit 0.
#
# Smaller N: a `--n N` above 20000 is run with --n 20000 (the README's
# figures are for its N; what is tested here is that the flow runs).
#
# Commands needing root, the network, an installation or another build are
# not run here; each is in the skip list below with the test that runs it,
# and a skip entry matching no README command fails (the list stays true).
HG=${1:?binary}
SRC=${2:?source dir}
N_MAX=20000
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# hermetic: no calibration file of the user's changes an answer
export HGRIDOPT_CALIBRATION="$TMP/no-calibration.json"
export HGRIDOPT_MERCURYDPM_CALIBRATION="$TMP/no-mercurydpm-calibration.json"
export HGRIDOPT_LAMMPS_CALIBRATION="$TMP/no-lammps-calibration.json"

# "extended regex of the command @@ the test that runs it"
skips=(
    '^bash examples/quickstart\.sh (run|test)( |$) @@ fresh_machine (ctest -L fresh)'
    '^bash examples/quickstart\.sh fuzz( |$) @@ the fuzz label (ctest -L fuzz)'
    '^cmake -S \. -B build && cmake --build build @@ the build every test runs in'
    '^cmake --install build --prefix /opt/hgridopt @@ install_consumer (into a temporary prefix)'
    '^cmake -S examples/consumer -B consumer-build @@ install_consumer (find_package)'
    '^cc consumer\.c .*pkg-config @@ install_consumer (pkg-config)'
    '^CC=clang cmake -S \. -B build-fuzz @@ the fuzz label (ctest -L fuzz)'
    '^cmake --build build-fuzz @@ the fuzz label (ctest -L fuzz)'
    '^cd build-fuzz/tests/fuzz @@ the fuzz label (ctest -L fuzz)'
    '^\./fuzz_csv  @@ the fuzz label (ctest -L fuzz)'
)

# The commands: one per line, continuations joined, comment lines dropped.
awk '
    /^```sh[[:space:]]*$/ { inblock = 1; next }
    /^```/ { inblock = 0; next }
    !inblock { next }
    {
        line = $0
        if (cont != "") { sub(/^[[:space:]]+/, "", line); line = cont " " line }
        if (line ~ /\\[[:space:]]*$/) { sub(/[[:space:]]*\\[[:space:]]*$/, "", line); cont = line; next }
        cont = ""
        if (line ~ /^[[:space:]]*(#|$)/) next
        print line
    }' "$SRC/README.md" >"$TMP/commands"

mkdir -p "$TMP/bin" "$TMP/run"
ln -s "$HG" "$TMP/bin/hgridopt"
for d in examples tests distributions; do
    ln -s "$SRC/$d" "$TMP/run/$d"
done
export PATH="$TMP/bin:$PATH"

pass=0 fail=0 skipped=0
declare -A used
while IFS= read -r cmd; do
    why=
    for i in "${!skips[@]}"; do
        if [[ $cmd =~ ${skips[$i]%% @@ *} ]]; then
            why=${skips[$i]#* @@ }
            used[$i]=1
            break
        fi
    done
    if [ -n "$why" ]; then
        echo "skip: $cmd  [run by $why]"
        skipped=$((skipped + 1))
        continue
    fi
    # smaller N: --n values above N_MAX
    run=$(awk -v max="$N_MAX" '{
        for (i = 1; i < NF; i++)
            if ($i == "--n" && $(i + 1) + 0 > max) $(i + 1) = max
        print }' <<<"$cmd")
    t0=$(date +%s)
    if (cd "$TMP/run" && bash -c "$run") >"$TMP/out" 2>"$TMP/err" </dev/null; then
        pass=$((pass + 1))
        echo "ok ($(($(date +%s) - t0)) s): $run"
    else
        rc=$?
        fail=$((fail + 1))
        echo "FAIL (exit $rc): $run" >&2
        sed 's/^/    /' "$TMP/err" | tail -5 >&2
    fi
done <"$TMP/commands"

for i in "${!skips[@]}"; do
    if [ -z "${used[$i]:-}" ]; then
        fail=$((fail + 1))
        echo "FAIL: skip entry '${skips[$i]%% @@ *}' matches no README command" >&2
    fi
done
# a README without commands, or an extraction that lost them, is a failure
if [ "$pass" -lt 10 ]; then
    fail=$((fail + 1))
    echo "FAIL: only $pass README commands ran" >&2
fi
echo "$pass passed, $fail failed, $skipped skipped (run by other tests)"
[ "$fail" = 0 ]
