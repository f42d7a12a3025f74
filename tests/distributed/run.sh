#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# usage: tests/distributed/run.sh BINDIR WORKDIR
#
# One simulation over MPI ranks (docs/distributed.md), by rdma-sim under
# mpirun: 1, 2 and 4 ranks write the same fct.txt, fct.csv, pfc.txt,
# sampled queue, rate and link CSVs (--traces), qlen.txt, mix.tr and
# cc-log.csv (--ccLog=all), byte
# for byte, as one process in the Node event order, also when
# --maxTraceBytes cuts the traces; dumbbell and fairness over ranks write
# one process's files and summary; rdma-sim balances pods by the flows'
# bytes; a link of zero delay between ranks and a
# bad --partition file are refused (exit 2, the link or file:line:field
# named), an input error printed once. Ends with "distributed: N passed, N failed".
set -u
bin=$(cd "${1:?usage: $0 BINDIR WORKDIR}" && pwd)
work=${2:?usage: $0 BINDIR WORKDIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$work" && mkdir -p "$work"
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
mpi() { bash "$top/scripts/mpirun.sh" "$@"; }

if ! command -v mpirun >/dev/null || [ ! -e "$bin/../lib/libns3-libcc-mpi.so.0" ]; then
  echo "distributed: no mpirun or no libns3-libcc-mpi (make deps, make): 0 passed, 1 failed"
  exit 1
fi

# A k=4 fat tree (16 hosts, 1 us links) at 80% WebSearch load for 2 ms of
# arrivals: enough incast for PAUSE frames, so pfc.txt has lines to merge.
python3 "$top/examples/gen_flows.py" -c "$top/examples/data/websearch.cdf" -n 16 -l 0.8 -b 100G \
  -t 0.002 --start 0 --seed 2 -o "$work/flows.txt"
# qlen.txt from t = 0 (sampled every 100 ns, dumped at t = 0, a multiple
# of 100 ms, and at the end) and mix.tr of a host in pod 0 and one in pod 3.
# cc-log.csv of every flow (--ccLog=all): each rank logs its senders' flows.
run_args=(--fattree=4 --flows="$work/flows.txt" --algo=dcqcn --traces --qlen --qlenMonStart=0
          --qlenMonEnd=1s --traceNodes=3,12 --ccLog=all)

"$bin/rdma-sim" "${run_args[@]}" --out="$work/np1" --ns3::FastSimulatorImpl::EventOrder=Node \
  >"$work/np1.out" 2>&1 || bad "one process exits 0"
for np in 2 4; do
  if mpi -np $np "$bin/rdma-sim" "${run_args[@]}" --out="$work/np$np" >"$work/np$np.out" 2>&1; then
    ok "mpirun -np $np exits 0"
  else
    bad "mpirun -np $np exits 0 (see $work/np$np.out)"; continue
  fi
  grep -q "^rdma-sim: $np ranks, lookahead 1000 ns" "$work/np$np.out" &&
    ok "-np $np: $np ranks, lookahead = the 1000 ns link delay" || bad "-np $np: rank line"
  for f in fct.txt fct.csv pfc.txt queue.csv rate.csv link.csv qlen.txt mix.tr cc-log.csv; do
    if cmp -s "$work/np1/$f" "$work/np$np/$f"; then ok "-np $np: $f = one process's"; else bad "-np $np: $f differs"; fi
  done
  ls "$work/np$np"/*.rank* >/dev/null 2>&1 && bad "-np $np: per-rank files left" || ok "-np $np: per-rank files merged away"
  # The summary line (flows, completed, simulated time, pauses) is one process's.
  if [ "$(grep '^flows=' "$work/np$np.out")" = "$(grep '^flows=' "$work/np1.out")" ]; then
    ok "-np $np: summary line = one process's"
  else
    bad "-np $np: summary differs"
  fi
done
# The run had PAUSE frames to merge and every flow finished.
n_pfc=$(wc -l <"$work/np1/pfc.txt")
n_flows=$(head -1 "$work/flows.txt")
n_fct=$(wc -l <"$work/np1/fct.txt")
[ "$n_pfc" -gt 0 ] && ok "pfc.txt has $n_pfc lines" || bad "pfc.txt is empty: the test lost its incast"
[ "$n_fct" -eq "$n_flows" ] && ok "all $n_flows flows in fct.txt" || bad "fct.txt has $n_fct of $n_flows flows"
# DCQCN cut flows in the incast: cc-log.csv has their CNP decisions.
n_logged=$(awk -F, 'NR > 1 && $3 == "cnp" { print $2 }' "$work/np1/cc-log.csv" | sort -u | wc -l)
[ "$n_logged" -gt 1 ] && ok "cc-log.csv: CNP decisions of $n_logged flows" || bad "cc-log.csv: CNP decisions of $n_logged flows"
# qlen.txt: two dumps (t = 0 and the end), each "time: T" then one line
# per switch port (20 switches of 4 ports); mix.tr: its header (4 + 11
# bytes per device of the 16 hosts' and 20 switches' 96 devices + 4) and
# 56-byte records.
[ "$(grep -c '^time: ' "$work/np1/qlen.txt")" -eq 2 ] && [ "$(wc -l <"$work/np1/qlen.txt")" -eq 162 ] &&
  ok "qlen.txt: two dumps of 80 ports" || bad "qlen.txt: not two dumps of 80 ports"
tr_bytes=$(wc -c <"$work/np1/mix.tr")
[ "$tr_bytes" -gt 1064 ] && [ $(((tr_bytes - 1064) % 56)) -eq 0 ] &&
  ok "mix.tr: header and $(((tr_bytes - 1064) / 56)) records" || bad "mix.tr: $tr_bytes bytes"

# --maxTraceBytes at a third of what the traces above wrote: one process
# stops them mid-run; over ranks each keeps up to the whole cap and the
# merge cuts where one process did, with one warning naming the same time.
cap=$(( ($(cat "$work/np1"/{queue.csv,rate.csv,link.csv,qlen.txt,mix.tr} | wc -c) - 4 * 40) / 3 ))
"$bin/rdma-sim" "${run_args[@]}" --maxTraceBytes=$cap --out="$work/cap1" \
  --ns3::FastSimulatorImpl::EventOrder=Node >"$work/cap1.out" 2>&1
for np in 2; do # 4 ranks merge as 2 do (above); 2 cores run 4 slowly
  mpi -np $np "$bin/rdma-sim" "${run_args[@]}" --maxTraceBytes=$cap --out="$work/cap$np" \
    >"$work/cap$np.out" 2>&1 || bad "-np $np --maxTraceBytes: exit status"
  same=1
  for f in queue.csv rate.csv link.csv qlen.txt mix.tr fct.txt; do
    cmp -s "$work/cap1/$f" "$work/cap$np/$f" || { same=0; bad "-np $np --maxTraceBytes=$cap: $f differs"; }
  done
  [ $same -eq 1 ] && ok "-np $np --maxTraceBytes=$cap: the capped traces are one process's"
  w1=$(grep -c '^warning: the traces reached' "$work/cap1.out")
  if [ "$w1" -eq 1 ] && [ "$(grep '^warning: the traces' "$work/cap$np.out")" = "$(grep '^warning: the traces' "$work/cap1.out")" ]; then
    ok "-np $np --maxTraceBytes: one warning, one process's"
  else
    bad "-np $np --maxTraceBytes: warnings ($work/cap$np.out)"
  fi
done

# Pods balanced by the flows' bytes: host 0 (pod 0) sends 300 KB to host 4
# (pod 1), host 8 (pod 2) 100 KB to host 12 (pod 3); each flow counts at
# both ends, so pods carry 300, 300, 100, 100 KB. Split by node count
# (pods 0-1, 2-3) the ranks would carry 600 and 200 KB; heaviest pod first
# to the lighter rank gives 400 and 400, and one process's fct.txt.
printf '2\n0 4 3 100 300000 0\n8 12 3 100 100000 0\n' >"$work/skew.flows"
"$bin/rdma-sim" --fattree=4 --flows="$work/skew.flows" --out="$work/skew1" \
  --ns3::FastSimulatorImpl::EventOrder=Node >/dev/null 2>&1
mpi -np 2 "$bin/rdma-sim" --fattree=4 --flows="$work/skew.flows" --out="$work/skew2" \
  >"$work/skew2.out" 2>&1
grep -q "^rdma-sim: flow bytes per rank (each flow at its source and its destination): 400000 400000$" \
  "$work/skew2.out" && ok "pods balanced by the flows' bytes: 400000 and 400000 per rank" ||
  bad "pods not balanced by bytes ($work/skew2.out)"
cmp -s "$work/skew1/fct.txt" "$work/skew2/fct.txt" && ok "bytes-balanced partition: fct.txt = one process's" ||
  bad "bytes-balanced partition: fct.txt differs"

# Pcap over ranks: each rank writes its own nodes' devices, so the files
# are one process's, byte for byte (the dumbbell-like 2-flow file is small).
printf '2\n0 2 3 100 100000 0\n1 2 3 100 100000 0\n' >"$work/two.flows"
pcap_args=(--topo="$top/examples/data/dumbbell-topology.txt" --flows="$work/two.flows" --pcap)
"$bin/rdma-sim" "${pcap_args[@]}" --out="$work/pcap1" --ns3::FastSimulatorImpl::EventOrder=Node \
  >/dev/null 2>&1
mpi -np 2 "$bin/rdma-sim" "${pcap_args[@]}" --out="$work/pcap2" >"$work/pcap2.out" 2>&1
n1=$(ls "$work/pcap1"/*.pcap 2>/dev/null | wc -l)
if [ "$n1" -gt 0 ] && diff -r -q -x '*.txt' -x '*.csv' "$work/pcap1" "$work/pcap2" >/dev/null; then
  ok "pcap over 2 ranks: the $n1 files of one process, byte for byte"
else
  bad "pcap over 2 ranks differs from one process ($work/pcap1, $work/pcap2)"
fi

# dumbbell over ranks (the partitioner's split of its chain): four senders
# into one receiver, PAUSE frames included; its CSVs, goodput and summary
# are one process's (but for the wall time, speed and memory lines).
db_args=(--senders=4 --stop=200us --flow1Start=20us --sample=1us --pfcThreshold=20000)
"$bin/dumbbell" "${db_args[@]}" --out="$work/db1" --ns3::FastSimulatorImpl::EventOrder=Node \
  >"$work/db1.out" 2>&1
for np in 2 4; do
  mpi -np $np "$bin/dumbbell" "${db_args[@]}" --out="$work/db$np" >"$work/db$np.out" 2>&1 ||
    bad "dumbbell -np $np: exit status"
  same=1
  for f in pfc.txt pfc.csv queue.csv rate.csv link.csv goodput.csv; do
    cmp -s "$work/db1/$f" "$work/db$np/$f" || { same=0; bad "dumbbell -np $np: $f differs"; }
  done
  [ $same -eq 1 ] && ok "dumbbell -np $np: CSVs and pfc files = one process's"
  measured='^(wall_s|packets_per_wall_s|peak_rss_mb)='
  if diff <(grep -Ev "$measured" "$work/db1/summary.txt") <(grep -Ev "$measured" "$work/db$np/summary.txt") >/dev/null &&
     [ "$(grep -c '^algorithm=' "$work/db$np.out")" -eq 1 ]; then
    ok "dumbbell -np $np: summary = one process's, printed once"
  else
    bad "dumbbell -np $np: summary differs ($work/db1/summary.txt, $work/db$np/summary.txt)"
  fi
done
grep -q '^pfc_pauses=[1-9]' "$work/db1/summary.txt" && ok "dumbbell: the run had PAUSE frames" ||
  bad "dumbbell: no PAUSE frames, the test lost its incast"

# fairness over ranks: its middle switches apart (the flows leave early, so
# each flow's hosts share a rank); 3 ranks over 4 switches.
fair_args=(--senders=3 --interval=100us)
for sw in 3 4; do
  "$bin/fairness" "${fair_args[@]}" --switches=$sw --out="$work/fair1-$sw" \
    --ns3::FastSimulatorImpl::EventOrder=Node >/dev/null 2>&1
  np=$((sw - 1))
  mpi -np $np "$bin/fairness" "${fair_args[@]}" --switches=$sw --out="$work/fair$np-$sw" \
    >"$work/fair$np-$sw.out" 2>&1 || bad "fairness -np $np: exit status"
  if diff -r -q "$work/fair1-$sw" "$work/fair$np-$sw" >/dev/null; then
    ok "fairness -np $np --switches=$sw: goodput, phases and summary = one process's"
  else
    bad "fairness -np $np --switches=$sw differs ($work/fair1-$sw, $work/fair$np-$sw)"
  fi
done

# The PFC deadlock report: printed once, by rank 0, as one process prints
# it, though rank 1 found it. A ring of five switches (5..9), host i on
# switch 5+i, each sending to host i+2 (tests/examples/ring.sh): the ring
# deadlocks; host 0 alone on rank 0, the ring on rank 1; the run goes on
# to --stop (--deadlockContinue), so the files are one process's too.
. "$(dirname "$0")/../examples/ring.sh"
write_ring "$work"
{ echo "0 0"; for n in 1 2 3 4 5 6 7 8 9; do echo "$n 1"; done; } >"$work/ring-part.txt"
ring=(--topo="$work/ring.txt" --flows="$work/ring-flows.txt" --algo=none --pfcThreshold=20000
      --deadlockStall=50us --stop=1ms --deadlockContinue=1)
"$bin/rdma-sim" "${ring[@]}" --out="$work/ring1" --ns3::FastSimulatorImpl::EventOrder=Node \
  >"$work/ring1.out" 2>&1
mpi -np 2 "$bin/rdma-sim" "${ring[@]}" --partition="$work/ring-part.txt" --out="$work/ring2" \
  >"$work/ring2.out" 2>&1 || bad "deadlock over 2 ranks: exit status"
# Run $2 (over ranks) printed one deadlock report, run $1's (one process),
# and the same summary and pfc.txt.
same_deadlock() {
  local report
  report=$(grep 'PFC deadlock at' "$work/$1.out")
  [ -n "$report" ] && [ "$(grep -c 'PFC deadlock at' "$work/$2.out")" -eq 1 ] &&
    [ "$(grep 'PFC deadlock at' "$work/$2.out")" = "$report" ] &&
    [ "$(grep '^flows=' "$work/$2.out")" = "$(grep '^flows=' "$work/$1.out")" ] &&
    cmp -s "$work/$1/pfc.txt" "$work/$2/pfc.txt"
}
if same_deadlock ring1 ring2; then
  ok "deadlock found by rank 1: one report, one process's; summary and pfc.txt too"
else
  bad "deadlock over 2 ranks ($work/ring1.out, $work/ring2.out)"
fi
# Stopped by the deadlock (exit 3): one process stops at the check that
# found it (60 us); rank 0 would run on to --stop, so the merge cuts there:
# the summary (simulated_ms) and the traces end where one process's did.
ring_stop=(--topo="$work/ring.txt" --flows="$work/ring-flows.txt" --algo=none --pfcThreshold=20000
           --deadlockStall=50us --stop=1ms --traces --sample=1us)
"$bin/rdma-sim" "${ring_stop[@]}" --out="$work/rstop1" --ns3::FastSimulatorImpl::EventOrder=Node \
  >"$work/rstop1.out" 2>&1
rc1=$?
mpi -np 2 "$bin/rdma-sim" "${ring_stop[@]}" --partition="$work/ring-part.txt" --out="$work/rstop2" \
  >"$work/rstop2.out" 2>&1
rc2=$?
same=1
for f in pfc.txt queue.csv rate.csv link.csv; do cmp -s "$work/rstop1/$f" "$work/rstop2/$f" || same=0; done
if [ $rc1 -eq 3 ] && [ $rc2 -eq 3 ] && [ $same -eq 1 ] &&
   grep -q '^flows=5 completed=0 unfinished=5 simulated_ms=0.060 ' "$work/rstop1.out" &&
   [ "$(grep '^flows=' "$work/rstop2.out")" = "$(grep '^flows=' "$work/rstop1.out")" ]; then
  ok "deadlock stop over 2 ranks: exit 3, summary and traces cut at one process's 60 us"
else
  bad "deadlock stop over 2 ranks: exit $rc1/$rc2 ($work/rstop1.out, $work/rstop2.out)"
fi

# The same ring cut in two (switches 5, 6 and their hosts on rank 0,
# switches 7, 8, 9 and theirs on rank 1): the cycle runs through both
# ranks, so neither sees all of it; the union of their views must give
# one process's report (printed once), and the stop at its 60 us (exit 3).
{ for n in 0 1 5 6; do echo "$n 0"; done; for n in 2 3 4 7 8 9; do echo "$n 1"; done; } \
  >"$work/ring-cut.txt"
mpi -np 2 "$bin/rdma-sim" "${ring[@]}" --partition="$work/ring-cut.txt" --out="$work/rcut2" \
  >"$work/rcut2.out" 2>&1 || bad "deadlock across ranks: exit status"
if same_deadlock ring1 rcut2; then
  ok "deadlock across ranks (cycle cut twice): one report, one process's"
else
  bad "deadlock across ranks ($work/ring1.out, $work/rcut2.out)"
fi
mpi -np 2 "$bin/rdma-sim" "${ring_stop[@]}" --partition="$work/ring-cut.txt" --out="$work/rcstop2" \
  >"$work/rcstop2.out" 2>&1
rc2=$?
same=1
for f in pfc.txt queue.csv rate.csv link.csv; do cmp -s "$work/rstop1/$f" "$work/rcstop2/$f" || same=0; done
if [ $rc2 -eq 3 ] && [ $same -eq 1 ] && same_deadlock rstop1 rcstop2; then
  ok "deadlock stop across ranks: exit 3, report, summary and traces as one process's at 60 us"
else
  bad "deadlock stop across ranks: exit $rc2 ($work/rstop1.out, $work/rcstop2.out)"
fi

# An input error: one line (rank 0's), every rank exits 2.
mpi -np 2 "$bin/rdma-sim" --fattree=3 --flows="$work/flows.txt" --out="$work/e" >"$work/e.out" 2>&1
rc=$?
[ $rc -eq 2 ] && [ "$(grep -c -- '--fattree=3' "$work/e.out")" -eq 1 ] &&
  ok "input error over 2 ranks: printed once, exit 2" || bad "input error over 2 ranks: exit $rc ($work/e.out)"

# A cut link of zero delay: refused, naming it, exit 2.
mpi -np 2 "$bin/rdma-sim" --fattree=4 --fattreeDelay=0ns --flows="$work/flows.txt" --out="$work/zero" \
  >"$work/zero.out" 2>&1
rc=$?
[ $rc -eq 2 ] && ok "zero-delay cut: exit 2" || bad "zero-delay cut: exit $rc, want 2"
grep -q "link [0-9]* (node [0-9]* - node [0-9]*) joins rank [0-9] and rank [0-9] with a delay of 0 ns" \
  "$work/zero.out" && ok "zero-delay cut: the link named" || bad "zero-delay cut: message ($work/zero.out)"

# A bad --partition file: file:line:field, exit 2 (one process: ranks 0 only).
printf '0 0\n1 3\n' >"$work/part.txt"
"$bin/rdma-sim" --fattree=4 --flows="$work/flows.txt" --partition="$work/part.txt" --out="$work/p" \
  >"$work/part.out" 2>&1
rc=$?
[ $rc -eq 2 ] && ok "bad --partition: exit 2" || bad "bad --partition: exit $rc, want 2"
grep -q "part.txt:2: field .rank.: \"3\" is not a whole number in \[0, 0\]" "$work/part.out" && ok "bad --partition: file:line:field named" ||
  bad "bad --partition: message ($work/part.out)"
"$bin/rdma-sim" --fattree=4 --flows="$work/flows.txt" --partition="$work/absent.txt" --out="$work/p" \
  >"$work/part2.out" 2>&1
rc=$?
[ $rc -eq 1 ] && ok "unreadable --partition: exit 1" || bad "unreadable --partition: exit $rc, want 1"

# srun with Slurm's default --mpi=none starts N copies that know nothing of
# each other: refused (exit 2) rather than N runs writing one directory.
SLURM_STEP_NUM_TASKS=2 "$bin/rdma-sim" "${run_args[@]}" --out="$work/none" >"$work/none.out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "srun started 2 tasks without an MPI plugin" "$work/none.out" &&
  ok "srun --mpi=none: refused, exit 2" || bad "srun --mpi=none: exit $rc ($work/none.out)"

# ns-3's own MPI engines carry the fabric too (QbbRemoteChannel): the
# dumbbell split at its middle switch, two 1 MB flows with no congestion
# control. Both finish; fairly shared, the pair needs at least 2 MB at
# 100 Gbps = 160 us, so each FCT is >= 160 us; both end within 1 us of each
# other; and 2000 data packets (1 MB / 1000 B payload, twice) crossed the
# cut towards the receiver's rank. One rank (nothing crosses) gives the
# same FCTs.
stock=$bin/../tests/stock-engine
"$(dirname "$0")/../../scripts/mpirun.sh" -np 1 "$stock" ns3::DistributedSimulatorImpl >"$work/stock1.out" 2>&1
one=$(sed -n 's/^stock-engine: ranks=1 flows=2 completed=2 fct_us=\([0-9.,]*\) .*/\1/p' "$work/stock1.out")
for engine in ns3::DistributedSimulatorImpl ns3::NullMessageSimulatorImpl; do
  mpi -np 2 "$stock" $engine >"$work/stock.out" 2>&1
  line=$(grep '^stock-engine: ranks=2' "$work/stock.out")
  fcts=$(echo "$line" | sed -n 's/.*completed=2 fct_us=\([0-9.]*,[0-9.]*\) .*/\1/p')
  if [ -n "$fcts" ] && awk -F, -v f="$fcts" 'BEGIN { split(f, a, ","); d = a[1] - a[2]; if (d < 0) d = -d;
        exit !(a[1] >= 160 && a[2] >= 160 && d < 1) }'; then
    ok "$engine: both flows finish, FCTs $fcts us (>= 160, within 1 us)"
  else
    bad "$engine: $line"
  fi
  # ...sent by rank 0 and received by rank 1; rank 1's ACKs the other way.
  acks=$(sed -n 's/^stock-engine: rank 1 remote_rx=2000 remote_tx=\([0-9]*\)$/\1/p' "$work/stock.out")
  [ -n "$acks" ] && grep -q "^stock-engine: ranks=2 .* remote_rx=$acks remote_tx=2000$" "$work/stock.out" &&
    ok "$engine: 2000 data packets crossed to rank 1, its ACKs back, each counted at both ends" || bad "$engine: frames crossing ($work/stock.out)"
  [ "$fcts" = "$one" ] && ok "$engine: FCTs = one rank's ($one)" || bad "$engine: FCTs $fcts vs one rank's $one"
done

echo "distributed: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
