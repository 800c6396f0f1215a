#!/usr/bin/env bash
# fresh_machine.sh [SOURCE_DIR] - the README's quick start on a fresh Debian 12.
#
# Builds a bare Debian 12 root with `debootstrap --variant=minbase`, clones
# the current commit of SOURCE_DIR (default: this repository) into its
# /root/hgridopt, and runs the two commands of the README's quick-start block,
# exactly as written there, inside `chroot`. Prints how long each took; fails
# if either fails. Uncommitted changes are NOT tested (the clone is of HEAD).
#
# Needs root (debootstrap, mount, chroot), git, and the Debian archive through
# the mirror the host's apt uses (HG_FRESH_MIRROR overrides it). Installs
# debootstrap on the host if it is missing.
# The bare root is cached as a tar file in ${HG_FRESH_CACHE:-/var/cache/hgridopt-fresh}
# (delete it to rebuild), so a re-run costs only the install, build and tests.
# The used root lives on a tmpfs (HG_FRESH_TMPFS_SIZE, default 8g) and is gone
# at the end; HG_FRESH_KEEP=1 puts it on disk instead and keeps it.
# CTest: label "fresh", not in the default run: ctest -L fresh -V
set -euo pipefail

src=$(cd "${1:-$(dirname "${BASH_SOURCE[0]}")/..}" && pwd)
suite=bookworm
cache=${HG_FRESH_CACHE:-/var/cache/hgridopt-fresh}
tarball=$cache/$suite-minbase.tar

die() { echo "fresh_machine: $*" >&2; exit 1; }
say() { echo "fresh_machine: $*"; }
secs() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }'; } # since $1

[ "$(id -u)" = 0 ] || die "needs root (debootstrap, mount and chroot)"
for c in git tar chroot mount unshare flock; do
    command -v "$c" >/dev/null 2>&1 || die "needs the command $c"
done

# --- the README's two quick-start commands ---------------------------------
# the fenced block after the "## Quick start" heading; its command lines,
# without the trailing comments
mapfile -t cmds < <(awk '
    /^## / { in_qs = ($0 == "## Quick start") }
    in_qs && /^```/ { if (fence) exit; fence = 1; next }
    in_qs && fence && NF { sub(/[[:space:]]+#.*/, ""); print }
' "$src/README.md")
[ ${#cmds[@]} = 2 ] ||
    die "README.md: expected 2 commands in the Quick start block, found ${#cmds[@]}"

# HG_FRESH_DEB=FILE: instead, install that Debian package of hgridopt
# (cpack -G DEB) with apt-get and use it (tests/deb_package.sh)
if [ -n "${HG_FRESH_DEB:-}" ]; then
    [ -s "$HG_FRESH_DEB" ] || die "HG_FRESH_DEB: no file $HG_FRESH_DEB"
    deb=/root/$(basename "$HG_FRESH_DEB")
    cmds=("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $deb >/dev/null && hgridopt --version && hgridopt recommend --system /usr/share/hgridopt/examples/paper-3d-uniform-volume.json && hgridopt scan --psd powerlaw:alpha=-3,omega=10 --dim 3 --nu 0.3 --max-levels 3 --plot /tmp/scan.png >/dev/null && test -s /tmp/scan.png && test -s /usr/share/man/man1/hgridopt.1 && test -s /usr/lib/pkgconfig/hgridopt.pc && test -s /usr/include/hgridopt/hgridopt.h && test -s /usr/share/bash-completion/completions/hgridopt && ls /usr/lib/libhgridopt.so.0")
fi

commit=$(git -C "$src" rev-parse HEAD)
if [ "${HG_FRESH_INNER:-0}" != 1 ] &&
    [ -n "$(git -C "$src" status --porcelain --untracked-files=no)" ]; then
    say "note: $src has uncommitted changes; they are not tested (clone of $commit)"
fi

# --- the bare root, cached -------------------------------------------------
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [ ! -s "$tarball" ]; then
    if ! command -v debootstrap >/dev/null 2>&1; then
        say "installing debootstrap on the host"
        DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq
        DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
            install -y -qq --no-install-recommends debootstrap >&2
    fi
    # the mirror the host's apt uses for this suite
    mirror=${HG_FRESH_MIRROR:-$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' \
        'Created-By: Packages' 2>/dev/null | awk -v s="$suite" '$2 == s { print $1; exit }')}
    [ -n "$mirror" ] ||
        die "no Debian $suite mirror in the host's apt sources (set HG_FRESH_MIRROR)"
    say "debootstrap --variant=minbase $suite from $mirror (once; cached in $tarball)"
    boot="$cache/boot.$$"
    rm -rf --one-file-system "$boot"
    t0=$EPOCHREALTIME
    if ! debootstrap --variant=minbase "$suite" "$boot" "$mirror" >"$cache/debootstrap.log" 2>&1; then
        tail -n 20 "$cache/debootstrap.log" >&2
        rm -rf --one-file-system "$boot"
        die "debootstrap failed (log: $cache/debootstrap.log)"
    fi
    tar --numeric-owner -C "$boot" -cf "$tarball.tmp" .
    mv "$tarball.tmp" "$tarball"
    rm -rf --one-file-system "$boot"
    say "bare root cached in $(secs "$t0") s"
fi
flock -u 9

# --- a fresh copy of it, with the repository -------------------------------
# The rest runs in a private mount namespace: the root lives on a tmpfs there
# (on disk in the work folder with HG_FRESH_KEEP=1) with /proc, /sys, /dev and
# /dev/pts bind-mounted, and all of it goes away with the namespace, however
# the run ends; the host never sees a mount below the work folder.
if [ "${HG_FRESH_INNER:-0}" != 1 ]; then
    work=$(mktemp -d "${TMPDIR:-/var/tmp}/hgridopt-fresh.XXXXXX")
    if [ "${HG_FRESH_KEEP:-0}" = 1 ]; then
        trap 'echo "fresh_machine: root kept in $work/root" >&2' EXIT
    else
        trap 'rm -rf --one-file-system "$work"' EXIT
    fi
    rc=0
    HG_FRESH_INNER=1 HG_FRESH_WORK=$work \
        unshare --mount --propagation private -- bash "${BASH_SOURCE[0]}" "$src" || rc=$?
    exit $rc
fi

root=$HG_FRESH_WORK/root
if [ "${HG_FRESH_KEEP:-0}" != 1 ]; then
    mount -t tmpfs -o "size=${HG_FRESH_TMPFS_SIZE:-8g},mode=0755" hgridopt-fresh "$HG_FRESH_WORK"
fi
t0=$EPOCHREALTIME
mkdir "$root"
tar --numeric-owner -C "$root" -xpf "$tarball"
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
git clone -q --no-local --no-checkout "$src" "$root/root/hgridopt"
git -C "$root/root/hgridopt" checkout -q --detach "$commit"
[ -n "${HG_FRESH_DEB:-}" ] && cp "$HG_FRESH_DEB" "$root/root/"
for m in proc sys dev dev/pts; do
    mkdir -p "$root/$m"
    mount --bind "/$m" "$root/$m"
done
say "commit $commit in a fresh Debian $suite minbase root, ready in $(secs "$t0") s"

# --- the two commands, as a new user runs them ------------------------------
# from the repository, with the plain environment of a root login
status=0
times=()
for cmd in "${cmds[@]}"; do
    say "running: $cmd"
    t0=$EPOCHREALTIME
    if chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb \
            PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
            /bin/bash -c "cd /root/hgridopt && $cmd"; then
        result=passed
    else
        result="FAILED (exit $?)"
        status=1
    fi
    times+=("$cmd: $result in $(secs "$t0") s")
done
say "on a fresh Debian $suite (debootstrap --variant=minbase), commit $commit:"
for t in "${times[@]}"; do
    say "  $t"
done
exit $status
