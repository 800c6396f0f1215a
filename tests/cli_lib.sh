# cli_lib.sh - helpers for the CLI tests (sourced). $HG is the binary,
# $SRC the source tree. Each check counts; the script ends with
# "N passed, N failed" and a non-zero status on failure.
HG=${1:?binary}
SRC=${2:?source dir}
pass=0
fail=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# hermetic: no calibration file of the user's changes the default K
export HGRIDOPT_CALIBRATION="$TMP/no-calibration.json"
export HGRIDOPT_MERCURYDPM_CALIBRATION="$TMP/no-mercurydpm-calibration.json"
export HGRIDOPT_LAMMPS_COMM_CALIBRATION="$TMP/no-lammps-comm-calibration.json"
export HGRIDOPT_LIGGGHTS_COMM_CALIBRATION="$TMP/no-liggghts-comm-calibration.json"

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

# expect_fail CODE PATTERN -- command...: exit status CODE, exactly one line
# on stderr, matching the extended regex PATTERN, nothing on stdout.
expect_fail() {
    local code=$1 pat=$2
    shift 3
    local out err rc
    out=$("$@" 2>"$TMP/err") && rc=0 || rc=$?
    err=$(cat "$TMP/err")
    if [ "$rc" != "$code" ]; then
        bad "[$*] exit $rc, expected $code; stderr: $err"
    elif [ "$(printf '%s\n' "$err" | wc -l)" != 1 ]; then
        bad "[$*] stderr is not one line: $err"
    elif ! printf '%s\n' "$err" | grep -Eq -- "$pat"; then
        bad "[$*] stderr '$err' does not match /$pat/"
    elif [ -n "$out" ]; then
        bad "[$*] printed on stdout: $out"
    else
        ok
    fi
}

# expect_ok PATTERN -- command...: exit 0 and stdout matching PATTERN.
expect_ok() {
    local pat=$1
    shift 2
    local out rc
    out=$("$@" 2>"$TMP/err") && rc=0 || rc=$?
    if [ "$rc" != 0 ]; then
        bad "[$*] exit $rc: $(cat "$TMP/err")"
    elif ! printf '%s\n' "$out" | grep -Eq -- "$pat"; then
        bad "[$*] output does not match /$pat/"
    else
        ok
    fi
}

finish() {
    echo "$pass passed, $fail failed"
    [ "$fail" = 0 ]
}
