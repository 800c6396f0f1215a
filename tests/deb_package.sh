#!/usr/bin/env bash
# deb_package.sh SOURCE_DIR BUILD_DIR - build the Debian package with
# `cpack -G DEB` and install it with apt-get on a fresh Debian 12 root
# (tests/fresh_machine.sh with HG_FRESH_DEB): the declared dependencies must
# be enough to run hgridopt, draw a figure, and find the man page, headers,
# pkg-config file, completion and library. Label fresh.
set -euo pipefail
src=$1 build=$2
rm -f "$build"/hgridopt_*.deb
(cd "$build" && cpack -G DEB >/dev/null)
deb=$(ls "$build"/hgridopt_*.deb)
echo "deb_package: $(basename "$deb"): $(dpkg-deb -f "$deb" Depends)"
HG_FRESH_DEB=$deb bash "$src/tests/fresh_machine.sh" "$src"
