#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# usage: scripts/deps.sh [NS3_SRC_DIR]      (make deps)
#
# Install, only when missing, the Debian packages libcc needs. Runs apt-get
# as root; otherwise prints the command to run and fails. With NS3_SRC_DIR,
# then makes Debian's ns-3 source package available there
# (scripts/ns3-source.sh: nothing is fetched when it is there already), for
# ns-3's MPI module that ns3-bindings/mpi.mk builds and the ns-3 modules the
# self-contained programs link in (ns3-bindings/static.mk).
set -euo pipefail
ns3_src_dir=${1:-}

PKGS=(
  gcc g++ make pkg-config          # toolchain
  check                            # C unit tests (libcc)
  libgtest-dev                     # C++ unit tests (ns-3 bindings)
  libns3-dev libgsl-dev            # ns-3.37 and the GSL its pkg-config files reference
  ns3                              # /usr/libexec/ns3 helpers: Debian's ns3 CMake package names them
  cmake                            # CMake consumers of the installed package (make test-install)
  python3 python3-matplotlib       # plots (examples/, make demo)
  python3-pandas python3-pytest    # analysis (analysis/, examples/paper) and its tests
  slurm-wlm munge                  # the sweep tool's Slurm test (make test-slurm)
  clang-14 libclang-rt-14-dev      # libFuzzer harnesses (make fuzz, fuzz-ci in make test)
  openmpi-bin libopenmpi-dev       # ns-3's MPI module (ns3-bindings/mpi.mk, make test-mpi)
  dpkg-dev                         # apt-get source: ns-3's source, for its MPI module
)

missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

# ns3_source: Debian's ns-3 source in NS3_SRC_DIR (one line saying where).
ns3_source() {
  [ -n "$ns3_src_dir" ] || return 0
  local tree
  tree=$(bash "$(dirname "$0")/ns3-source.sh" "$ns3_src_dir")
  echo "deps: ns-3 source in $tree"
}

if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#PKGS[@]} Debian packages present"
  ns3_source
  exit 0
fi

echo "deps: missing Debian packages: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "deps: not root; install them with:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null; then
  echo "deps: no apt-get here (libcc's build expects Debian 12); install: ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "deps: installed ${missing[*]}"
ns3_source
