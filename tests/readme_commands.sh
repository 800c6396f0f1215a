#!/usr/bin/env bash
# readme_commands.sh HG SRC - run every command of the ```sh blocks of
# README.md and of the documentation pages docs/*.md and docs/*/*.md, in
# order (README.md first, then the pages by path), so that a flow the
# documentation shows cannot break again (issue 25). Lines continued with
# '\' are joined, comment lines skipped; `hgridopt` is the built binary
# (first on PATH). Each file's commands run in a fresh temporary folder
# where examples/, tests/ and distributions/ of the source tree are
# reachable under their own names, so outputs (packing.data, scan.csv) land
# in that folder, and with calibration files of their own (none at first),
# so that a page is read as a new user runs it. Every command must exit 0.
#
# Smaller runs: a `--n N` above 10000 is run with --n 10000 and a
# `--seconds S` above 2 with --seconds 2 (the pages' figures are for their
# N and budget; what is tested here is that the flow runs).
#
# Commands needing root, the network, an installation, another build,
# another code (lmp, liggghts, a MercuryDPM build) or the test suite itself
# are not run here; each is in the skip list below with the test that runs
# it, and a skip entry matching no command fails (the list stays true).
HG=${1:?binary}
SRC=${2:?source dir}
N_MAX=10000
SECONDS_MAX=2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# hermetic: no calibration file of the user's, nor XDG_CONFIG_HOME, changes
# an answer (the files are set per documentation file below)
unset XDG_CONFIG_HOME

# "extended regex of the command @@ the test that runs it"
skips=(
    '^bash examples/quickstart\.sh (run|test)( |$) @@ fresh_machine (ctest -L fresh)'
    '^bash examples/quickstart\.sh fuzz( |$) @@ the fuzz label (ctest -L fuzz)'
    '^bash tests/fresh_machine\.sh( |$) @@ fresh_machine (ctest -L fresh, as root)'
    '^cmake -S \. -B build && cmake --build build @@ the build every test runs in'
    '^ctest --test-dir build( |$) @@ ctest itself (the test suite and its labels)'
    '^cmake --install build --prefix /opt/hgridopt @@ install_consumer (into a temporary prefix)'
    '^cmake -S examples/consumer -B consumer-build @@ install_consumer (find_package)'
    '^cc consumer\.c .*pkg-config @@ install_consumer (pkg-config)'
    '^CC=clang cmake -S \. -B build-fuzz @@ the fuzz label (ctest -L fuzz)'
    '^cmake --build build-fuzz @@ the fuzz label (ctest -L fuzz)'
    '^cd build-fuzz/tests/fuzz @@ the fuzz label (ctest -L fuzz)'
    '^\./fuzz_csv  @@ the fuzz label (ctest -L fuzz)'
    '^hgridopt (validate|tune|calibrate) --engine lammps  @@ lammps_integration and lammps_calibrate (ctest -L lammps; they run lmp)'
    '^hgridopt (validate|tune|calibrate) --engine liggghts  @@ liggghts_integration (ctest -L liggghts; it runs liggghts)'
    '^hgridopt (validate|tune|calibrate) --engine mercurydpm  @@ test_mercurydpm_run (HG_MERCURYDPM_DIR=BUILD ctest -L mercurydpm)'
    '^hgridopt run --engine lammps tests/data/run/in\.gas$ @@ cli_run (ctest -R cli_run; it runs LAMMPS through its library, against lmp)'
    '^(BENCH_[A-Z_]+=("[^"]*"|[^ ]+) )*bash tests/bench_whole_run\.sh  @@ bench_whole_run (ctest -L bench) and whole_run_smoke, whole_run_ranks_smoke (shorter runs)'
    '^(BENCH_[A-Z_]+=("[^"]*"|[^ ]+) )*bash tests/bench_run\.sh  @@ bench_run (ctest -L bench) and run_smoke (a shorter run)'
)

# The files, README.md first, then the documentation pages by path.
files=(README.md)
while IFS= read -r f; do
    files+=("${f#"$SRC"/}")
done < <(find "$SRC/docs" -maxdepth 2 -name '*.md' | LC_ALL=C sort)

mkdir -p "$TMP/bin"
ln -s "$HG" "$TMP/bin/hgridopt"
export PATH="$TMP/bin:$PATH"

pass=0 fail=0 skipped=0 i_file=0
declare -A used
for file in "${files[@]}"; do
    # The commands: one per line, continuations joined, comment lines dropped.
    awk '
        /^[[:space:]]*```sh[[:space:]]*$/ { inblock = 1; next }
        /^[[:space:]]*```/ { inblock = 0; next }
        !inblock { next }
        {
            line = $0
            sub(/^[[:space:]]+/, "", line)
            if (cont != "") line = cont " " line
            if (line ~ /\\[[:space:]]*$/) { sub(/[[:space:]]*\\[[:space:]]*$/, "", line); cont = line; next }
            cont = ""
            if (line ~ /^(#|$)/) next
            print line
        }' "$SRC/$file" >"$TMP/commands"
    [ -s "$TMP/commands" ] || continue
    # a fresh folder and calibration files for every file
    i_file=$((i_file + 1))
    run_dir="$TMP/run$i_file"
    mkdir -p "$run_dir"
    for d in examples tests distributions; do
        ln -s "$SRC/$d" "$run_dir/$d"
    done
    export HGRIDOPT_CALIBRATION="$run_dir/.calibration.json"
    export HGRIDOPT_MERCURYDPM_CALIBRATION="$run_dir/.mercurydpm-calibration.json"
    export HGRIDOPT_LAMMPS_CALIBRATION="$run_dir/.lammps-calibration.json"
    export HGRIDOPT_LIGGGHTS_CALIBRATION="$run_dir/.liggghts-calibration.json"
    echo "== $file"
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
        # smaller runs: --n values above N_MAX, --seconds above SECONDS_MAX
        run=$(awk -v max="$N_MAX" -v smax="$SECONDS_MAX" '{
            for (i = 1; i < NF; i++) {
                if ($i == "--n" && $(i + 1) + 0 > max) $(i + 1) = max
                if ($i == "--seconds" && $(i + 1) + 0 > smax) $(i + 1) = smax
            }
            print }' <<<"$cmd")
        t0=$(date +%s)
        if (cd "$run_dir" && bash -c "$run") >"$TMP/out" 2>"$TMP/err" </dev/null; then
            pass=$((pass + 1))
            echo "ok ($(($(date +%s) - t0)) s): $run"
        else
            rc=$?
            fail=$((fail + 1))
            echo "FAIL (exit $rc, $file): $run" >&2
            sed 's/^/    /' "$TMP/err" | tail -5 >&2
        fi
    done <"$TMP/commands"
done

for i in "${!skips[@]}"; do
    if [ -z "${used[$i]:-}" ]; then
        fail=$((fail + 1))
        echo "FAIL: skip entry '${skips[$i]%% @@ *}' matches no command of the README or docs/" >&2
    fi
done
# a README without commands, or an extraction that lost them, is a failure
if [ "$pass" -lt 10 ]; then
    fail=$((fail + 1))
    echo "FAIL: only $pass commands ran" >&2
fi
echo "$pass passed, $fail failed, $skipped skipped (run by other tests)"
[ "$fail" = 0 ]
