#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# usage: scripts/mpirun.sh N PROGRAM [ARG...]
#
# Runs PROGRAM as an N-rank MPI job on this host with Debian's OpenMPI: the
# one place that knows what mpirun needs here (make test-mpi, make
# test-install and docs/ns3-bindings.md all use it). It adds:
#   --oversubscribe      N may exceed the cores (CI machines with 1 core)
#   --bind-to none       ranks are not pinned: the machine is shared
#   --mca plm isolated   ranks are started locally, no ssh/rsh or Slurm launcher
#                        (none in containers; inside `make test-slurm`'s Slurm)
#   --mca btl_vader_single_copy_mechanism none
#                        shared memory without CMA, which containers without
#                        ptrace rights refuse
#   --allow-run-as-root  only when run as root (CI is): OpenMPI refuses root otherwise
# MPIRUN (default mpirun) is the launcher. Exit status: the job's; 1 with
# one line when there is no mpirun, 2 for a bad N.
set -u

if [ $# -lt 2 ]; then
    echo "usage: $0 N PROGRAM [ARG...]" >&2
    exit 2
fi
n=$1
shift
case $n in
'' | *[!0-9]* | 0)
    echo "mpirun.sh: N=$n: not a positive number of ranks" >&2
    exit 2
    ;;
esac
mpirun=${MPIRUN:-mpirun}
if ! command -v "$mpirun" >/dev/null; then
    echo "mpirun.sh: no $mpirun (make deps installs openmpi-bin)" >&2
    exit 1
fi
root=()
[ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
exec "$mpirun" "${root[@]}" --oversubscribe --bind-to none --mca plm isolated \
    --mca btl_vader_single_copy_mechanism none -np "$n" "$@"
