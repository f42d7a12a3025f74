#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# usage: scripts/ns3-source.sh DIR
#
# Unpacks Debian's ns-3 source package (the same 3.37 as libns3-dev) into
# DIR (kept for the next run; nothing is downloaded when DIR has it) and
# prints the path of the ns-3 tree (the directory with the `ns3` script).
# `apt-get source` needs a deb-src entry: when there is none, as root, this
# adds /etc/apt/sources.list.d/libcc-deb-src.sources (bookworm main, the
# archive key Debian already trusts) and runs apt-get update; otherwise it
# prints what to do and fails. Used by `make deps` (NS3_SRC_DIR: the source
# of ns-3's MPI module, ns3-bindings/mpi.mk, and of the core, network and
# stats modules linked into the self-contained programs,
# ns3-bindings/static.mk) and `make test-contrib`.
set -euo pipefail

dir=${1:?usage: $0 DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

find_tree() { find "$dir" -maxdepth 3 -name ns3 -type f -path '*/ns-3*/ns3' 2>/dev/null | head -1; }

tree=$(find_tree)
if [ -z "$tree" ]; then
  if ! apt-get source --print-uris ns3 >/dev/null 2>&1; then
    list=/etc/apt/sources.list.d/libcc-deb-src.sources
    if [ "$(id -u)" -ne 0 ]; then
      echo "ns3-source: apt has no deb-src entry; as root, add $list with:" >&2
      printf '  Types: deb-src\n  URIs: http://deb.debian.org/debian\n  Suites: bookworm\n  Components: main\n  Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' >&2
      echo "then: apt-get update" >&2
      exit 1
    fi
    echo "ns3-source: adding $list (deb-src bookworm main) and running apt-get update" >&2
    cat >"$list" <<'SRC'
# Added by libcc's scripts/ns3-source.sh (make deps, test-contrib): Debian's
# source packages, for `apt-get source ns3`. Safe to remove.
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    apt-get update -qq
  fi
  if ! command -v dpkg-source >/dev/null; then
    if [ "$(id -u)" -ne 0 ]; then
      echo "ns3-source: dpkg-source missing: apt-get install dpkg-dev" >&2
      exit 1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends dpkg-dev >&2
  fi
  # The version of the installed libns3-dev, so headers and sources agree.
  ver=$(dpkg-query -W -f='${Version}' libns3-dev 2>/dev/null || true)
  (cd "$dir" && apt-get source -qq ns3${ver:+=$ver} >&2)
  tree=$(find_tree)
  [ -n "$tree" ] || { echo "ns3-source: no ns-3 tree (ns3 script) under $dir" >&2; exit 1; }
fi
dirname "$tree"
