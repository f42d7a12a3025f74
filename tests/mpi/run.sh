#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# usage: tests/mpi/run.sh BUILD OUTDIR     (make test-mpi; from the repository root)
#
# ns-3's MPI engine as built by ns3-bindings/mpi.mk: the library's soname,
# what it needs, nothing unresolved; BUILD/tests/mpi-smoke (tests/mpi/mpi-smoke.cc, its
# hand-derived values in its header) as a 2-rank job through
# scripts/mpirun.sh, once under each of ns-3's parallel simulators; both
# ranks must report every check ok. Ends with "mpi: N passed, M failed".
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 BUILD OUTDIR" >&2
    exit 2
fi
BUILD=$(cd "$1" && pwd) || exit 2
mkdir -p "$2" || exit 2
OUT=$(cd "$2" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)

SUITE=mpi
# shellcheck source=../install/checks.sh
. "$HERE/../install/checks.sh"

# shellcheck source=smoke-job.sh
. "$HERE/smoke-job.sh"

# libns3-libcc-mpi.so.<major>, needing ns-3's core and network and OpenMPI
# (libns3-libcc.so and libcc.so too once ns3-bindings/mpi/ code uses them:
# Debian's GCC links --as-needed); every symbol it uses resolves (ldd -r),
# and ns-3's MPI classes are defined in it.
library() {
    local so=$BUILD/lib/libns3-libcc-mpi.so lib
    readelf -d "$so" >"$OUT/dynamic.txt" || return 1
    grep -E 'SONAME|NEEDED' "$OUT/dynamic.txt"
    grep -q 'SONAME.*\[libns3-libcc-mpi\.so\.[0-9]*\]' "$OUT/dynamic.txt" || { echo "no soname"; return 1; }
    for lib in 'libns3-core\.so' 'libns3-network\.so' 'libmpi\.so'; do
        grep -q "NEEDED.*\[$lib\.[0-9]*\]" "$OUT/dynamic.txt" || { echo "does not need $lib"; return 1; }
    done
    if ldd -r "$so" 2>&1 | grep -i 'undefined'; then
        return 1
    fi
    nm -DC --defined-only "$so" | grep -q 'ns3::MpiInterface::SendPacket' ||
        { echo "no ns3::MpiInterface::SendPacket"; return 1; }
}

run library library
run granted-time-window smoke_job ns3::DistributedSimulatorImpl "$BUILD/tests/mpi-smoke"
run null-message smoke_job ns3::NullMessageSimulatorImpl "$BUILD/tests/mpi-smoke"
summary
