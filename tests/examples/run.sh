#!/usr/bin/env bash
# The examples as a user runs them: exit statuses and the messages that name
# what went wrong. Usage: run.sh BINDIR WORKDIR
# Ends with "examples: N passed, M failed".
set -u
bin=$1
work=$2
rm -rf "$work" && mkdir -p "$work"
passed=0 failed=0

# expect NAME STATUS PATTERN -- COMMAND...: COMMAND exits STATUS and its
# stderr matches PATTERN (grep -E; "" for any).
expect() {
  local name=$1 want=$2 pattern=$3
  shift 4
  "$@" > "$work/$name.out" 2> "$work/$name.err"
  local rc=$?
  if [ "$rc" -ne "$want" ]; then
    echo "FAIL $name: exit $rc, expected $want"; sed 's/^/  | /' "$work/$name.err" | head -5
    failed=$((failed + 1)); return
  fi
  if [ -n "$pattern" ] && ! grep -Eq -- "$pattern" "$work/$name.err"; then
    echo "FAIL $name: stderr does not match /$pattern/"; sed 's/^/  | /' "$work/$name.err" | head -5
    failed=$((failed + 1)); return
  fi
  echo "ok   $name"
  passed=$((passed + 1))
}

# A ring of five switches (5..9), host i on switch 5+i, 100 Gbps, 1 us.
# Host i sends to host i+2: the shortest path (2 hops) turns the same way
# for every flow, each ring link carries two flows at line rate, and with a
# 20 KB PFC threshold the ring's queues end paused by each other.
{
  echo "10 5 10"; echo "5 6 7 8 9"
  for i in 0 1 2 3 4; do echo "$i $((5 + i)) 100Gbps 0.001ms 0"; done
  for i in 0 1 2 3 4; do echo "$((5 + i)) $((5 + (i + 1) % 5)) 100Gbps 0.001ms 0"; done
} > "$work/ring.txt"
{
  echo 5
  for i in 0 1 2 3 4; do echo "$i $(((i + 2) % 5)) 3 100 10000000 0"; done
} > "$work/ring-flows.txt"
ring=(--topo="$work/ring.txt" --flows="$work/ring-flows.txt" --algo=none
      --pfcThreshold=20000 --deadlockStall=50us --stop=5ms --traces=false)

expect rdma-sim-deadlock 3 "PFC deadlock at .*switch [0-9]+ port [0-9]+ -> switch" -- \
  "$bin/rdma-sim" "${ring[@]}" --out="$work/ring"
if grep -q "pfc_deadlock=yes" "$work/rdma-sim-deadlock.out"; then
  echo "ok   rdma-sim-deadlock-summary"; passed=$((passed + 1))
else
  echo "FAIL rdma-sim-deadlock-summary: no pfc_deadlock=yes on stdout"; failed=$((failed + 1))
fi
expect rdma-sim-deadlock-continue 0 "PFC deadlock at" -- \
  "$bin/rdma-sim" "${ring[@]}" --deadlockContinue=1 --out="$work/ring-continue"

# An INT algorithm at a link rate its INT cannot carry: refused before the
# run, naming the port and the rate, exit 2.
expect dumbbell-hpcc-150g 2 "port [0-9]+ \(150000 Mbps\)" -- \
  "$bin/dumbbell" --algo=hpcc --rate=150 --stop=10us --traces=false --out="$work/d150"
expect dumbbell-fncc-150g 2 "port [0-9]+ \(150000 Mbps\)" -- \
  "$bin/dumbbell" --algo=fncc --rate=150 --stop=10us --traces=false --out="$work/d150f"
# ... and a rate its INT carries runs.
expect dumbbell-hpcc-40g 0 "" -- \
  "$bin/dumbbell" --algo=hpcc --rate=40 --stop=50us --traces=false --out="$work/d40"

# A congestion location the paper does not have is refused, naming the option.
expect dumbbell-bad-congestion 2 "--congestion=second: accepted one of first, middle, last" -- \
  "$bin/dumbbell" --congestion=second --out="$work/dc"
# Congestion at the last hop: the congestion point is the last switch's port
# to the receiver (node 5 of the 3-switch chain: senders 0-1, receiver 2).
expect dumbbell-last-hop 0 "" -- \
  "$bin/dumbbell" --algo=fncc --congestion=last --stop=400us --traces=false --out="$work/dl"
if grep -q "^cp_node=5$" "$work/dumbbell-last-hop.out"; then
  echo "ok   dumbbell-last-hop-cp"; passed=$((passed + 1))
else
  echo "FAIL dumbbell-last-hop-cp: cp_node is not 5"; failed=$((failed + 1))
fi

# Fairness (FNCC paper 5.3): 4 senders join 1 ms apart and leave in order:
# phases of 1, 2, 3, 4, 3, 2, 1 flows, so phases.csv has 16 flow rows.
expect fairness-short 0 "" -- \
  "$bin/fairness" --algo=fncc --interval=1ms --out="$work/fair"
rows=$(($(wc -l < "$work/fair/phases.csv") - 1))
if [ "$rows" -eq 16 ]; then
  echo "ok   fairness-phase-rows"; passed=$((passed + 1))
else
  echo "FAIL fairness-phase-rows: $rows rows, expected 1+2+3+4+3+2+1 = 16"; failed=$((failed + 1))
fi
expect fairness-one-sender 2 "--senders" -- "$bin/fairness" --senders=1 --out="$work/f1"

expect dumbbell-bad-pfc-scope 2 "--pfcScope=both: accepted one of ingress, egress" -- \
  "$bin/dumbbell" --pfcScope=both --out="$work/ds"

# TCP beside two FNCC flows: all three finish; the TCP line says every byte
# of the 2,000,000 arrived (lossless, then lossy with an 8 KB limit).
expect tcp-beside-rdma 0 "" -- "$bin/tcp-beside-rdma" --algo=fncc --rdmaSize=1MB --tcpSize=2MB
expect tcp-beside-rdma-lossy 0 "" -- \
  "$bin/tcp-beside-rdma" --algo=fncc --rdmaSize=1MB --tcpSize=2MB --ipLossy=1 --lossyLimit=8KB
for run in tcp-beside-rdma tcp-beside-rdma-lossy; do
  if grep -q "^tcp received 2000000 of 2000000 bytes" "$work/$run.out" &&
     [ "$(grep -c "^rdma flow" "$work/$run.out")" -eq 2 ] &&
     grep -q "^tcp flow: 2000000 bytes, completion [0-9]* ns" "$work/$run.out"; then
    echo "ok   $run-summary"; passed=$((passed + 1))
  else
    echo "FAIL $run-summary: expected 2 rdma flow lines and all 2000000 TCP bytes"; failed=$((failed + 1))
  fi
done
expect tcp-beside-rdma-bad-prio 2 "--ipPrio" -- "$bin/tcp-beside-rdma" --ipPrio=8

echo "examples: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
