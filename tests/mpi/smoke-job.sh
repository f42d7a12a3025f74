# SPDX-License-Identifier: GPL-2.0-only
# Sourced by tests/mpi/run.sh (the build tree's mpi-smoke) and
# tests/install/run.sh (mpi-smoke built against the installed library).
#
# smoke_job IMPL COMMAND...: COMMAND (tests/mpi/mpi-smoke.cc, built, maybe
# behind `env VAR=...`) as a 2-rank job through scripts/mpirun.sh with
# --impl=IMPL; ok only if the job exits 0 and each rank printed its closing
# "mpi-smoke rank R: 9 checks ok" (9: every check of the program, so a rank
# that skipped some fails). Prints the job's output.
SMOKE_MPIRUN=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../scripts" && pwd)/mpirun.sh

smoke_job() {
    local impl=$1 out rc r
    shift
    out=$(bash "$SMOKE_MPIRUN" -np 2 "$@" --impl="$impl" 2>&1)
    rc=$?
    printf '%s\n' "$out"
    [ "$rc" -eq 0 ] || { echo "exit status $rc"; return 1; }
    for r in 0 1; do
        grep -qx "mpi-smoke rank $r: 9 checks ok" <<<"$out" || { echo "rank $r did not pass all 9 checks"; return 1; }
    done
}
