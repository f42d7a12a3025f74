#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# usage: scripts/mpirun.sh -np N [MPIRUN-OPTION...] PROGRAM [ARG...]
#
# OpenMPI's mpirun with what it needs on this host, in one place: every
# test and document that starts an MPI job uses this (make test-mpi, make
# test-install, tests/distributed, docs/ns3-bindings.md). The arguments go to
# mpirun after these:
#   --oversubscribe      N may exceed the cores (CI machines with 1 core)
#   --bind-to none       ranks are not pinned: the machine is shared
#   --mca plm isolated   ranks are started on this host, no ssh/rsh or Slurm
#                        launcher (containers have none; make test-slurm's
#                        Slurm would otherwise be picked up)
#   --mca btl_vader_single_copy_mechanism none
#                        shared memory without CMA, which containers without
#                        ptrace rights refuse
#   --mca mpi_yield_when_idle 1
#                        a rank waiting in a collective yields its core: on a
#                        shared machine a busy-polling rank steals the core of
#                        the rank it waits for (a k=8 fat tree over 2 ranks
#                        here, with builds beside: 22.5 s of 29 s exchanging
#                        when polling, 4.1 s of 8 s when yielding); a
#                        dedicated cluster node may pass 0 after these
#   --allow-run-as-root  only when run as root (CI is): OpenMPI refuses root otherwise
# MPIRUN (default mpirun) is the launcher. Exit status: the job's; 1 with
# one line when there is no launcher.
set -u

if [ $# -lt 1 ]; then
    echo "usage: $0 -np N [MPIRUN-OPTION...] PROGRAM [ARG...]" >&2
    exit 2
fi
mpirun=${MPIRUN:-mpirun}
if ! command -v "$mpirun" >/dev/null; then
    echo "mpirun.sh: no $mpirun (make deps installs openmpi-bin)" >&2
    exit 1
fi
root=()
[ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
exec "$mpirun" "${root[@]}" --oversubscribe --bind-to none --mca plm isolated \
    --mca btl_vader_single_copy_mechanism none --mca mpi_yield_when_idle 1 "$@"
