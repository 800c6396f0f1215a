#!/usr/bin/env bash
# Regenerate the LIGGGHTS test fixtures of this folder.
#
#   make_fixtures.sh OUTDIR
#
# Runs in.pour_wide (3D) and in.collapse2d (2D) with a serial `liggghts`
# (Debian package liggghts 3.8.0) in a temporary folder, then copies the
# outputs to OUTDIR (which may be this folder).  Optionally converts the dump
# with LPP (LIGGGHTS post-processing, CFDEMproject/LPP, Python 2):
#   LPP_DIR     folder of an LPP checkout (containing src/lpp.py, or lpp.py);
#               the LPP step is skipped with a message when unset or missing.
#   LPP_PYTHON  Python 2 interpreter to run it with (default: python2).
#               LPP's dump.py needs numpy only for np.zeros/np.float; when the
#               interpreter has no numpy, a 15-line stand-in module is written
#               to the temporary folder and put on PYTHONPATH (LPP itself is
#               run unmodified).
# The inputs use fixed seeds; all outputs except the logs (dates, timings) and
# the .vtr bounding boxes (VTK names their arrays "Array 0x<pointer>") are
# byte-identical from run to run.  Each output must stay below 1 MB.
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$1"
outdir=$(cd "$1" && pwd)
max_bytes=1000000

command -v liggghts >/dev/null || { echo "liggghts not found (apt-get install liggghts)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# LIGGGHTS aborts through MPI_Abort on errors, which loses its buffered
# stdout; line buffering keeps the error message.
run_liggghts() {  # input-file log-name [echo style, default none]
    local t0 t1 echo=${3:-none}
    t0=$(date +%s.%N)
    if command -v stdbuf >/dev/null; then
        stdbuf -oL liggghts -in "$1" -log "$2" -echo "$echo" > "$2.screen" 2>&1 || {
            tail -n 20 "$2.screen" >&2; echo "liggghts failed on $1" >&2; exit 1; }
    else
        liggghts -in "$1" -log "$2" -echo "$echo" > "$2.screen" 2>&1 || {
            tail -n 20 "$2.screen" >&2; echo "liggghts failed on $1" >&2; exit 1; }
    fi
    t1=$(date +%s.%N)
    printf '%s: %.1f s (%s)\n' "$1" "$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}')" \
        "$(grep -m1 '^Loop time' "$2" || echo 'no loop time')"
}

copy_out() {  # files...
    local f size
    for f in "$@"; do
        [ -f "$f" ] || { echo "missing output: $f" >&2; exit 1; }
        size=$(stat -c %s "$f")
        if [ "$size" -ge "$max_bytes" ]; then
            echo "output too large: $f ($size bytes >= $max_bytes)" >&2
            exit 1
        fi
        cp "$f" "$outdir/"
        printf '  %-42s %8d bytes\n' "$f" "$size"
    done
}

start=$(date +%s.%N)
cp "$here/in.pour_wide" "$here/in.collapse2d" "$tmp/"
cd "$tmp"

run_liggghts in.pour_wide log.pour_wide
copy_out in.pour_wide pour_wide.dump \
    pour_wide_5000.vtk pour_wide_10000.vtk pour_wide_40000.vtk \
    pour_wide_boundingBox_5000.vtk pour_wide_boundingBox_10000.vtk pour_wide_boundingBox_40000.vtk \
    pour_wide_vtp_40000.vtp pour_wide_vtp_boundingBox_40000.vtr \
    pour_wide_vtu_40000.vtu pour_wide_vtu_boundingBox_40000.vtr \
    pour_wide.data log.pour_wide

# a short trajectory of the same pour (recommend --trajectory): its first
# 10000 steps, a frame every 2000 with ids, radii and velocities
awk '/^(dump|dump_modify|write_data|variable[ \t]+(next|last)dump)/ { next }
     /^run[ \t]/ { print "dump traj all custom 2000 pour_wide_traj.dump id type radius x y z vx vy vz"; print "run 10000"; next }
     { print }' in.pour_wide > in.pour_wide_traj
# its log as a user's is (the commands echoed): `recommend --log` reads it
run_liggghts in.pour_wide_traj log.pour_wide_traj log
copy_out pour_wide_traj.dump log.pour_wide_traj

run_liggghts in.collapse2d log.collapse2d
copy_out in.collapse2d collapse2d.dump collapse2d_140000.vtk \
    collapse2d_boundingBox_140000.vtk collapse2d.data log.collapse2d

# ---- LPP (optional) -------------------------------------------------------
lpp_py=""
if [ -n "${LPP_DIR:-}" ]; then
    if [ -f "$LPP_DIR/src/lpp.py" ]; then lpp_py="$LPP_DIR/src/lpp.py"
    elif [ -f "$LPP_DIR/lpp.py" ]; then lpp_py="$LPP_DIR/lpp.py"
    fi
fi
if [ -z "$lpp_py" ]; then
    echo "LPP step skipped: set LPP_DIR to an LPP checkout (CFDEMproject/LPP) to convert pour_wide.dump"
else
    py=${LPP_PYTHON:-python2}
    if ! "$py" -c 'import sys; sys.exit(sys.version_info[0] != 2)' 2>/dev/null; then
        echo "LPP step skipped: LPP_PYTHON=$py is not a working Python 2 interpreter"
    else
        mkdir -p lpp_shim
        if ! "$py" -c 'import numpy' 2>/dev/null; then
            echo "note: $py has no numpy; using a stand-in for np.zeros/np.float"
            cat > lpp_shim/numpy.py <<'EOF'
# Stand-in for the numpy calls on LPP's lpp.py -> dump -> vtk.manyGran path.
float = float
def zeros(shape, dtype=float):
    if isinstance(shape, tuple):
        n, m = shape
        return [[dtype(0)] * m for _ in range(n)]
    return [dtype(0)] * shape
def argsort(seq):
    return sorted(range(len(seq)), key=lambda i: seq[i])
def take(seq, idx):
    return [seq[i] for i in idx]
EOF
        fi
        t0=$(date +%s.%N)
        # the exact LPP command (lpp.py prints errors but always exits 0,
        # so its outputs are checked by copy_out below)
        PYTHONPATH="$tmp/lpp_shim${PYTHONPATH:+:$PYTHONPATH}" \
            "$py" "$lpp_py" --cpunum 1 -o lpp_pour_wide_ pour_wide.dump > lpp.screen 2>&1 \
            || { cat lpp.screen >&2; exit 1; }
        t1=$(date +%s.%N)
        printf 'lpp.py: %.1f s\n' "$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}')"
        grep -q "aborting" lpp.screen && { cat lpp.screen >&2; exit 1; }
        copy_out lpp_pour_wide_5000.vtk lpp_pour_wide_5000_boundingBox.vtk \
            lpp_pour_wide_40000.vtk lpp_pour_wide_40000_boundingBox.vtk
    fi
fi

end=$(date +%s.%N)
printf 'total runtime: %.1f s\n' "$(awk -v a="$start" -v b="$end" 'BEGIN{print b-a}')"
