#!/usr/bin/env bash
# manpage.sh BINARY HELP2MAN OUT - build the man page from the --help texts:
# help2man reads `hgridopt --help` and `--version`; every command's own
# --help (and the `help` topics) go into a COMMANDS section, verbatim.
set -euo pipefail
bin=$1 help2man=$2 out=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# roff-escape a plain text block: backslashes, leading dots and quotes
roff() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }

cmds=$("$bin" --help | awk '/^Commands:/{on=1; next} on && /^  [a-z]/{print $1} on && /^$/{on=0}')
[ -n "$cmds" ] || { echo "manpage.sh: no commands found in '$bin --help'" >&2; exit 1; }
{
    echo "[COMMANDS]"
    for c in $cmds; do
        echo ".SS hgridopt $c"
        echo ".nf"
        "$bin" "$c" --help | roff
        echo ".fi"
    done
    echo "[HELP TOPICS]"
    for t in $("$bin" --help | sed -n 's/^ *hgridopt help \([a-z]*\).*/\1/p'); do
        echo ".SS hgridopt help $t"
        echo ".nf"
        "$bin" help "$t" | roff
        echo ".fi"
    done
} >"$tmp/include.h2m"

"$help2man" --no-info --no-discard-stderr \
    --name="optimal hierarchical-grid contact detection for polydisperse particles" \
    --section=1 --include="$tmp/include.h2m" --output="$tmp/hgridopt.1" "$bin"
mv "$tmp/hgridopt.1" "$out"
