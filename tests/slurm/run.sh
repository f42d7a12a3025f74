#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The sweep tool on a real Slurm: a single-host cluster (Debian's slurm-wlm
# and munge) configured and started in a temporary directory, a small grid
# run through `sweep.py run --slurm`, and its gathered table compared with
# the same grid run locally; then one simulation over 2 MPI ranks (sweep
# --ranks 2, and the example sbatch script), its fct.txt compared with one
# process's. The node offers nproc CPUs (2 at least for the 2 ranks). The
# daemons are always stopped (trap).
# Usage: run.sh BINDIR   (root; ends with "slurm: N passed, M failed")
set -u
bin=$(cd "$1" && pwd)
py=${PYTHON:-/usr/bin/python3}
cd "$(dirname "$0")/../.."
root=$(pwd)
tmp=$(mktemp -d /tmp/libcc-slurm.XXXXXX)
chmod 755 "$tmp"
passed=0 failed=0
ok() { echo "ok   $1"; passed=$((passed + 1)); }
bad() { echo "FAIL $1"; failed=$((failed + 1)); }
finish() {
  # Jobs still running (a failed check) first, so no slurmstepd outlives the test.
  [ -f "$tmp/slurm.conf" ] && SLURM_CONF=$tmp/slurm.conf scancel --full --quiet --user=root 2>/dev/null
  [ -f "$tmp/slurmd.pid" ] && kill "$(cat "$tmp/slurmd.pid")" 2>/dev/null
  [ -f "$tmp/slurmctld.pid" ] && kill "$(cat "$tmp/slurmctld.pid")" 2>/dev/null
  [ -f "$tmp/munged.pid" ] && kill "$(cat "$tmp/munged.pid")" 2>/dev/null
  sleep 1
  rm -rf "$tmp"
}
trap finish EXIT

for t in munged slurmctld slurmd sbatch squeue; do
  if ! command -v "$t" >/dev/null; then
    echo "slurm: $t missing (make deps installs slurm-wlm and munge)"
    echo "slurm: 0 passed, 1 failed"; exit 1
  fi
done

# munge: its own key, socket and files in $tmp.
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge.key"
munged --force --socket="$tmp/munge.sock" --key-file="$tmp/munge.key" \
  --pid-file="$tmp/munged.pid" --log-file="$tmp/munged.log" --seed-file="$tmp/munged.seed"

host=$(hostname -s)
mkdir -p "$tmp/state" "$tmp/spool"
cat > "$tmp/slurm.conf" <<CONF
ClusterName=libcctest
SlurmctldHost=$host
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge.sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -i
slurmd
for _ in $(seq 30); do
  sinfo --noheader -o %T 2>/dev/null | grep -qE "idle|mixed" && break
  sleep 1
done
if sinfo --noheader -o %T 2>/dev/null | grep -qE "idle|mixed"; then
  ok "single-host cluster up"
else
  bad "single-host cluster up (slurmctld.log and slurmd.log follow)"
  tail -5 "$tmp/slurmctld.log" "$tmp/slurmd.log" 2>/dev/null
  echo "slurm: $passed passed, $failed failed"; exit 1
fi

# A small grid (out, name, axes): 16 hosts, 2 ms of arrivals.
grid() {
  cat <<TOML
[sweep]
name = "$2"
program = "rdma-sim"
out = "$1"
[fixed]
fattree = 4
traces = false
stop = "1s"
[grid]
$3
[flows]
cdf = "websearch.cdf"
hosts = 16
bandwidth = 100e9
time = 0.002
load = 0.5
TOML
}
# 2 algorithms x 2 seeds.
axes='algo = ["hpcc", "fncc"]
seed = [1, 2]'
grid "$tmp/local" slurm-test "$axes" > "$tmp/local.toml"
grid "$tmp/cluster" slurm-test "$axes" > "$tmp/cluster.toml"
if "$py" analysis/sweep.py run "$tmp/local.toml" --bin "$bin" --jobs 2 2> "$tmp/local.err"; then
  ok "local run"
else
  bad "local run"; tail -3 "$tmp/local.err"
fi
if timeout 300 "$py" analysis/sweep.py run "$tmp/cluster.toml" --bin "$bin" --slurm \
     --partition=test --time-limit=10:00 2> "$tmp/cluster.err"; then
  ok "run through Slurm (sbatch --array, 4 tasks)"
else
  bad "run through Slurm"; tail -5 "$tmp/cluster.err"; tail -5 "$tmp/slurmctld.log"
fi
tasks=$(ls "$tmp/cluster/slurm-test/slurm/" 2>/dev/null | grep -c '^task-.*\.log$')
if [ "$tasks" -eq 4 ]; then ok "four array task logs"; else bad "four array task logs: $tasks"; fi
# The same grid gives the same table wherever it ran (run names, flows,
# completions, slowdowns; the run directory is not in the table).
if [ -f "$tmp/cluster/slurm-test/summary.csv" ] &&
   cmp -s "$tmp/local/slurm-test/summary.csv" "$tmp/cluster/slurm-test/summary.csv" &&
   cmp -s "$tmp/local/slurm-test/bins.csv" "$tmp/cluster/slurm-test/bins.csv"; then
  ok "gathered tables equal the local run's"
else
  bad "gathered tables equal the local run's"
  diff "$tmp/local/slurm-test/summary.csv" "$tmp/cluster/slurm-test/summary.csv" | head -5
fi

if [ "$(nproc)" -lt 2 ] || [ ! -e "$bin/../lib/libns3-libcc-mpi.so.0" ]; then
  bad "2 MPI ranks need a node of 2 CPUs (this one: $(nproc)) and libns3-libcc-mpi (make builds it)"
  echo "slurm: $passed passed, $failed failed"; exit 1
fi
# One simulation over 2 MPI ranks through Slurm, twice: a 1-point grid by
# `sweep.py --slurm --ranks 2` (sbatch --ntasks=2, the task's srun
# --mpi=pmix), and examples/slurm/rdma-sim-mpi.sbatch cut down to k=4. Each
# fct.txt is, byte for byte, one process's with the Node event order.
# The fct.txt in DIR against one process's in the Node order over ARGS.
equals_one_process() { # LABEL DIR ARGS...
  local label=$1 dir=$2
  shift 2
  "$bin/rdma-sim" "$@" --ns3::FastSimulatorImpl::EventOrder=Node --out="$dir.np1" >/dev/null 2>&1
  if [ -s "$dir.np1/fct.txt" ] && cmp -s "$dir.np1/fct.txt" "$dir/fct.txt"; then
    ok "$label: fct.txt = one process's (Node order)"
  else
    bad "$label: fct.txt differs from one process's"
  fi
}
grid "$tmp/mpi" mpi 'algo = ["dcqcn"]' > "$tmp/mpi.toml"
run=$tmp/mpi/mpi/algo_dcqcn
if timeout 300 "$py" analysis/sweep.py run "$tmp/mpi.toml" --bin "$bin" --slurm --ranks 2 \
     --partition=test --time-limit=10:00 2> "$tmp/mpi.err" &&
   grep -q "^rdma-sim: 2 ranks" "$run/stderr.txt"; then
  ok "sweep --slurm --ranks 2: one simulation over 2 ranks"
else
  bad "sweep --slurm --ranks 2"; tail -3 "$tmp/mpi.err"; cat "$tmp/mpi/mpi/slurm/task-0.log" 2>/dev/null
fi
equals_one_process "sweep --ranks 2" "$run" --fattree=4 --algo=dcqcn --stop=1s \
  --flows="$tmp/mpi/mpi/flows/load0.5-seed1.txt"
if (cd "$root" && K=4 FLOW_TIME=0.002 OUT=$tmp/example BIN=$bin timeout 300 sbatch --wait --quiet --nodes=1 \
      --ntasks=2 --partition=test --output="$tmp/example.log" examples/slurm/rdma-sim-mpi.sbatch) &&
   grep -q "^rdma-sim: 2 ranks" "$tmp/example.log"; then
  ok "examples/slurm/rdma-sim-mpi.sbatch at k=4: 2 ranks"
else
  bad "examples/slurm/rdma-sim-mpi.sbatch"; tail -3 "$tmp/example.log" 2>/dev/null
fi
equals_one_process "the example" "$tmp/example" --fattree=4 --algo=hpcc --stop=1s \
  --flows="$tmp/example/flows.txt"
echo "slurm: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
