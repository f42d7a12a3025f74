#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
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

# The deadlock ring (ring.sh says why it deadlocks).
. "$(dirname "$0")/ring.sh"
write_ring "$work"
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

# A slip in an option's or an algorithm's name gets the close one named.
expect dumbbell-algo-slip 2 "--algo=hpc: did you mean hpcc\? accepted one of .*dcqcn" -- \
  "$bin/dumbbell" --algo=hpc --out="$work/dslip"
expect rdma-sim-option-slip 2 "unknown option --flow \(did you mean --flows\?\)" -- \
  "$bin/rdma-sim" --flow=x --out="$work/dslip"
# NS_LOG: the fast libraries have the statements compiled out, the logging
# ones of build/lib/log (picked by LD_LIBRARY_PATH, no rebuild) print them.
logs_of() { grep -c "^\[RdmaNic\]\|RdmaNic:" "$work/$1.err"; }
NS_LOG='RdmaNic=level_all|prefix_func' "$bin/minimal" --size=10000 --algo=none \
  > "$work/log-fast.out" 2> "$work/log-fast.err"
NS_LOG='RdmaNic=level_all|prefix_func' LD_LIBRARY_PATH="$bin/../lib/log" "$bin/minimal" \
  --size=10000 --algo=none > "$work/log-debug.out" 2> "$work/log-debug.err"
if [ "$(logs_of log-fast)" -eq 0 ] && [ "$(logs_of log-debug)" -gt 0 ] &&
   cmp -s "$work/log-fast.out" "$work/log-debug.out"; then
  echo "ok   ns-log-build-beside-fast"; passed=$((passed + 1))
else
  echo "FAIL ns-log-build-beside-fast: RdmaNic lines fast=$(logs_of log-fast) log=$(logs_of log-debug)"
  failed=$((failed + 1))
fi
# The shortest run there is ends: --stop=1ns (its progress check came every
# stop/1000 = 0 ns and rescheduled itself forever).
expect dumbbell-stop-1ns 0 "" -- timeout 60 "$bin/dumbbell" --stop=1ns --traces=false --out="$work/d1ns"
# A link rate with a unit, as every other rate option takes it, is the same
# run as the bare number of Gbps: 40000Mbps = 40.
expect dumbbell-rate-with-unit 0 "" -- \
  "$bin/dumbbell" --algo=hpcc --rate=40000Mbps --stop=50us --traces=false --out="$work/d40u"
if diff <(grep -vE '^(wall_s|packets_per_wall_s|peak_rss_mb)=' "$work/d40/summary.txt") \
        <(grep -vE '^(wall_s|packets_per_wall_s|peak_rss_mb)=' "$work/d40u/summary.txt") > /dev/null; then
  echo "ok   dumbbell-rate-with-unit-same-run"; passed=$((passed + 1))
else
  echo "FAIL dumbbell-rate-with-unit-same-run: summaries differ"; failed=$((failed + 1))
fi
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

# Bad HPCC-format files: exit 2 and one line naming file:line, the field and
# what is accepted (docs/ns3-bindings.md, "Input files"). Each file is the
# dumbbell's topology or a one-flow file with one thing wrong. Each run is
# under a 2 GB address-space limit: a reader that allocates by a claimed
# count, or reads /dev/zero to its end, fails fast instead of taking the
# machine's memory.
topo_ok="$(cd "$(dirname "$0")/../.." && pwd)/examples/data/dumbbell-topology.txt"
flows_ok="$work/flow1.txt"
printf '1\n0 2 3 100 10000 0\n' > "$flows_ok"
bad_file() { # NAME TOPO FLOWS PATTERN: rdma-sim on them exits 2, stderr has "NAME.txt:PATTERN"
  expect "rdma-sim-$1" 2 "$1.txt:$4" -- \
    timeout 20 bash -c 'ulimit -v 2097152 && exec "$@"' small \
    "$bin/rdma-sim" --topo="$2" --flows="$3" --out="$work/bad"
}
bad_topo() { # NAME SED-EXPR PATTERN: the dumbbell topology edited
  sed "$2" "$topo_ok" > "$work/$1.txt"
  bad_file "$1" "$work/$1.txt" "$flows_ok" "$3"
}
bad_flows() { # NAME PRINTF-FORMAT PATTERN: a flow file for the dumbbell
  printf "$2" > "$work/$1.txt"
  bad_file "$1" "$topo_ok" "$work/$1.txt" "$3"
}
bad_topo topo-hex-rate 's/^3 4 100Gbps/3 4 0x64Gbps/' \
  "5: field 'rate': '0x64Gbps' is not a rate in \[1bps, 1000Tbps\]"
bad_topo topo-zero-rate 's/^3 4 100Gbps/3 4 0Gbps/' "5: field 'rate': '0Gbps' is not a rate in \[1bps"
bad_topo topo-frac-delay 's/^3 4 100Gbps 0.001ms/3 4 100Gbps 1.5ns/' \
  "5: field 'delay': '1.5ns' is not a delay in \[0ns, 1000000s\], whole ns"
bad_topo topo-loss 's/^3 4 100Gbps 0.001ms 0$/3 4 100Gbps 0.001ms 1/' \
  "5: field 'error_rate': '1' is not accepted: a decimal number in \\[0, 1\\)"
bad_topo topo-negative-node 's/^4 5 /-1 5 /' \
  "6: field 'node_a': '-1' is not a whole number in decimal digits in \[0, 5\]"
printf '16777216 0 67108864\n0 1 1Gbps 1us 0\n' > "$work/topo-huge.txt"
bad_file topo-huge "$work/topo-huge.txt" "$flows_ok" "2: file ends after 1 of 67108864 links"

bad_flows flows-huge-count '4000000000\n' "1: file ends after 0 of 4000000000 flows"
# Lines after flow_count's flows: ignored as the HPCC simulator does, one
# warning line naming them (its own mix/flow.txt has such lines).
printf '1\n0 2 3 100 10000 0\n1 2 3 100 10000 0\n' > "$work/flows-extra-line.txt"
expect rdma-sim-flows-extra-line 0 \
  "flows-extra-line.txt:3: more flow lines than flow_count=1 \(line 1\): 1 line\(s\) ignored" -- \
  "$bin/rdma-sim" --topo="$topo_ok" --flows="$work/flows-extra-line.txt" --traces=0 \
  --out="$work/extra"
bad_flows flows-hex-start '1\n0 2 3 100 10000 0x1\n' \
  "2: field 'start_s': '0x1' is not a start time in \[0, 1000000\] seconds"
bad_flows flows-exp-size '1\n0 2 3 100 1e4 0\n' \
  "2: field 'size': '1e4' is not a whole number in decimal digits in \[1, "
bad_flows flows-to-switch '1\n0 4 3 100 10000 0\n' "2: field 'dst': node 4 is a switch, not a host"
# Binary bytes are shown escaped, the field cut at 40 bytes, on one line.
bad_flows flows-binary '1\n0 2 3 100 \001\033[2J\377\376AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA 0\n' \
  "2: field 'size': '\\\\x01\\\\x1b\[2J\\\\xff\\\\xfeA+\.\.\.' is not"
if LC_ALL=C grep -q '[^[:print:]]' "$work/rdma-sim-flows-binary.err" ||
   [ "$(wc -l < "$work/rdma-sim-flows-binary.err")" -ne 1 ]; then
  echo "FAIL rdma-sim-flows-binary-printable: not one printable line"; failed=$((failed + 1))
else
  echo "ok   rdma-sim-flows-binary-printable"; passed=$((passed + 1))
fi
# Two islands (hosts 0 and 1 on switch 3, host 2 on switch 4): the flow of
# line 3 has no path, and the message names its file and line.
printf '5 2 3\n3 4\n0 3 100Gbps 1us 0\n1 3 100Gbps 1us 0\n2 4 100Gbps 1us 0\n' > "$work/topo-islands.txt"
printf '2\n0 1 3 100 10000 0\n0 2 3 100 10000 0\n' > "$work/flows-islands.txt"
expect rdma-sim-flows-no-path 2 "flows-islands.txt:3: flow 1: no path from host 0 to host 2" -- \
  "$bin/rdma-sim" --topo="$work/topo-islands.txt" --flows="$work/flows-islands.txt" --traces=0 \
  --out="$work/bad"
# A file that cannot be read is an I/O failure, exit 1 (docs/errors.md).
expect rdma-sim-topo-missing 1 "/nonexistent/topo.txt: cannot open: No such file" -- \
  "$bin/rdma-sim" --topo=/nonexistent/topo.txt --flows="$flows_ok" --out="$work/bad"
expect rdma-sim-flows-directory 1 "$work: cannot read: Is a directory" -- \
  "$bin/rdma-sim" --topo="$topo_ok" --flows="$work" --out="$work/bad"
# /dev/zero: refused at its first byte, not read forever.
expect rdma-sim-flows-dev-zero 2 "/dev/zero:1: a NUL byte at column 1: not a text file" -- \
  timeout 20 bash -c 'ulimit -v 2097152 && exec "$@"' small \
  "$bin/rdma-sim" --topo="$topo_ok" --flows=/dev/zero --out="$work/bad"
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

# Traces are off by default and bounded (issue #13). A flow starting at 2 s,
# as the HPCC simulator's generator starts them: by default only the fct and
# pfc files (and their CSVs) are written, a few hundred bytes.
printf '1\n0 2 3 100 100000 2\n' > "$work/flow-2s.txt"
expect rdma-sim-traces-default 0 "" -- \
  "$bin/rdma-sim" --topo="$topo_ok" --flows="$work/flow-2s.txt" --out="$work/tr-default"
if [ -s "$work/tr-default/fct.txt" ] && [ ! -e "$work/tr-default/queue.csv" ] &&
   [ ! -e "$work/tr-default/mix.tr" ] && [ ! -e "$work/tr-default/qlen.txt" ] &&
   [ "$(du -sb "$work/tr-default" | cut -f1)" -lt 100000 ]; then
  echo "ok   rdma-sim-traces-default-files"; passed=$((passed + 1))
else
  echo "FAIL rdma-sim-traces-default-files: $(ls "$work/tr-default" | tr '\n' ' ')"
  failed=$((failed + 1))
fi
if "$bin/rdma-sim" --help | grep -A1 -- "--maxTraceBytes=" | grep -q "default 200000000"; then
  echo "ok   rdma-sim-max-trace-bytes-default"; passed=$((passed + 1))
else
  echo "FAIL rdma-sim-max-trace-bytes-default: --help does not show 200000000"
  failed=$((failed + 1))
fi
# Every trace on, sampled every 100 ns, capped at 20 KB: one warning, and
# the capped files together hold at most the cap plus one sample's rows.
expect rdma-sim-traces-cap 0 "^warning: the traces reached 20000 bytes \(--maxTraceBytes\)" -- \
  "$bin/rdma-sim" --topo="$topo_ok" --flows="$work/flow-2s.txt" --out="$work/tr-cap" \
  --traces --sample=100ns --traceNodes=0,3 --qlen --maxTraceBytes=20000
capped=$(cat "$work/tr-cap"/{queue.csv,rate.csv,link.csv,mix.tr,qlen.txt} | wc -c)
if [ "$(wc -l < "$work/rdma-sim-traces-cap.err")" -eq 1 ] && [ "$capped" -le 22000 ] &&
   [ "$capped" -ge 18000 ]; then
  echo "ok   rdma-sim-traces-cap-size"; passed=$((passed + 1))
else
  echo "FAIL rdma-sim-traces-cap-size: $capped bytes"; failed=$((failed + 1))
fi
# A lossy link (1% of frames, both ways) no longer runs lossless: a 1 MB
# flow across it loses some and still completes (go-back-N, timeout).
sed 's/^3 4 100Gbps 0.001ms 0$/3 4 100Gbps 0.001ms 0.01/' "$topo_ok" > "$work/topo-lossy.txt"
printf '1\n0 2 3 100 1000000 0\n' > "$work/flow-1mb.txt"
expect rdma-sim-lossy 0 "" -- "$bin/rdma-sim" --topo="$work/topo-lossy.txt" \
  --flows="$work/flow-1mb.txt" --out="$work/lossy"
if grep -q "completed=1 " "$work/rdma-sim-lossy.out" &&
   [ "$(cut -d, -f9 "$work/lossy/fct.csv" | tail -1)" -gt 0 ]; then
  echo "ok   rdma-sim-lossy-retransmits"; passed=$((passed + 1))
else
  echo "FAIL rdma-sim-lossy-retransmits: $(cat "$work/rdma-sim-lossy.out")"; failed=$((failed + 1))
fi

# Logging: our components exist under their class names (NS_LOG aborts on
# an unknown one). They print with the logging libraries of build/lib/log
# (below) or in a `make NS3_LOG_ENABLE=1` build.
expect minimal-ns-log 0 "" -- env NS_LOG="RdmaNic=all:SwitchNode=all:QbbNetDevice=all" \
  "$bin/minimal" --size=10000

# The fast simulator core and ns-3's DefaultSimulatorImpl give the same
# run, byte for byte: every CSV, the FCT and PFC files, the pcap files and
# the summary except the lines about the run itself (simulator, wall_s,
# packets_per_wall_s, peak_rss_mb); its simulator line says which core ran.
for algo in fncc dcqcn; do
  for impl in fast default; do
    args=(--algo="$algo" --stop=200us --flow1Start=50us --pcap=true --out="$work/sim-$algo-$impl")
    [ "$impl" = default ] && args+=(--SimulatorImplementationType=ns3::DefaultSimulatorImpl)
    expect "dumbbell-$algo-$impl" 0 "" -- "$bin/dumbbell" "${args[@]}"
  done
  a="$work/sim-$algo-fast" b="$work/sim-$algo-default" diffs=""
  run_lines='^simulator=\|^wall_s=\|^packets_per_wall_s=\|^peak_rss_mb='
  grep -v "$run_lines" "$a/summary.txt" > "$work/sum-a"
  grep -v "$run_lines" "$b/summary.txt" > "$work/sum-b"
  cmp -s "$work/sum-a" "$work/sum-b" || diffs+=" summary.txt"
  grep -qx 'simulator=ns3::FastSimulatorImpl' "$a/summary.txt" || diffs+=" (not FastSimulatorImpl)"
  grep -qx 'simulator=ns3::DefaultSimulatorImpl' "$b/summary.txt" || diffs+=" (not DefaultSimulatorImpl)"
  n=0
  for f in "$a"/*; do
    name=${f##*/}
    [ "$name" = summary.txt ] && continue
    n=$((n + 1))
    cmp -s "$f" "$b/$name" || diffs+=" $name"
  done
  if [ -z "$diffs" ] && [ "$n" -ge 8 ] && ls "$a"/*.pcap > /dev/null 2>&1; then
    echo "ok   dumbbell-$algo-same-under-both-simulators ($n files)"; passed=$((passed + 1))
  else
    echo "FAIL dumbbell-$algo-same-under-both-simulators: differ:$diffs ($n files)"
    failed=$((failed + 1))
  fi
done
# --ccLog (docs/decision-log.md): the decisions of the flows it names, in
# cc-log.csv. Both flows at line rate from t=0 into one 100 Gbit/s port:
# flow 1's first CNP, with DCQCN's cut at the CNP and alpha at its initial
# 1, halves its rate: old 100 Gbit/s, new 100 x (1 - 1/2) = 50 Gbit/s; no
# window (-1). Only flow 1 has rows.
expect dumbbell-cclog 0 "" -- "$bin/dumbbell" --algo=dcqcn --cc=cut_on_cnp=1 --flow1Start=0 \
  --stop=100us --traces=false --ccLog=1 --out="$work/cclog"
cclog="$work/cclog/cc-log.csv"
cclog_rows=$(tail -n +2 "$cclog" 2>/dev/null | wc -l)
cclog_other=$(tail -n +2 "$cclog" 2>/dev/null | awk -F, '$2 != 1' | wc -l)
cclog_cnp=$(awk -F, '$3 == "cnp" { print $5 "," $6 "," $7 "," $8; exit }' "$cclog" 2>/dev/null)
if [ "$(head -1 "$cclog" 2>/dev/null)" = "time_ns,flow_id,event,action,old_rate_bps,new_rate_bps,old_window_bytes,new_window_bytes,inputs" ] &&
   [ "$cclog_rows" -gt 0 ] && [ "$cclog_other" -eq 0 ] && [ "$cclog_cnp" = "100000000000,50000000000,-1,-1" ]; then
  echo "ok   dumbbell-cclog-rows ($cclog_rows rows of flow 1)"; passed=$((passed + 1))
else
  echo "FAIL dumbbell-cclog-rows: $cclog_rows rows, $cclog_other of other flows, first cnp '$cclog_cnp'"
  failed=$((failed + 1))
fi
expect dumbbell-cclog-no-such-flow 2 "^dumbbell: --ccLog=2: no flow 2: the flows are 0 \.\. 1$" -- \
  "$bin/dumbbell" --ccLog=2 --stop=10us --traces=false --out="$work/cclog-bad"
expect dumbbell-cclog-bad-range 2 "^dumbbell: --ccLog=3-1: range 3-1 ends before it starts; accepted all, none, or flow ids and ranges" -- \
  "$bin/dumbbell" --ccLog=3-1 --stop=10us --traces=false --out="$work/cclog-bad"
expect rdma-sim-cclog-bad-list 2 "^rdma-sim: --ccLog=0,,1: an empty item; accepted all, none, or flow ids" -- \
  "$bin/rdma-sim" --ccLog=0,,1 --out="$work/cclog-bad"

# --- rdma-sim --config: the HPCC simulator's config.txt, topology and flow
# files (docs/hpcc-sim.md), written here in their form: a dumbbell, senders
# 0 and 1 on switch 3, switch 4, receiver 2; every link 100 Gbps, 1 us.
# Flow A 0->2 100000 B at 2 s, flow B 1->2 50000 B at 2.001 s: one at a
# time, each at line rate (DCQCN starts there; nothing queues).
# Derived by hand: a data packet of 1000 B payload is 1094 B on the wire
# (1074-byte frame + 20): 87.52 ns at 100 Gbps; an ACK 84 B: 6.72 ns. N
# packets leave back to back in N x 87.52 ns, the last crosses 2 more links
# store-and-forward (2 x 87.52) and 3 x 1000 ns of propagation, its ACK 3 x
# (6.72 + 1000) back: FCT = N x 87.52 + 6195.2 ns. A: N = 100 -> 14947.2 ns;
# B: N = 50 -> 10571.2 ns. Tolerance 0.5% (pacing and event rounding).
hs="$work/hpccsim"
mkdir -p "$hs/mix"
abs_bin=$(cd "$bin" && pwd)
cat > "$hs/mix/topology.txt" <<'TOPO'
5 2 4
3 4
0 3 100Gbps 0.001ms 0
1 3 100Gbps 0.001ms 0
3 4 100Gbps 0.001ms 0
4 2 100Gbps 0.001ms 0

First line: total node #, switch node #, link #
TOPO
printf '2\n0 2 3 100 100000 2\n1 2 3 100 50000 2.001\n' > "$hs/mix/flow.txt"
printf '2\n2 3\n' > "$hs/mix/trace.txt"
hpcc_config() { # MODE RATE_AI HAS_WIN: a config.txt as the simulator's run.py writes it
  cat <<CFG
ENABLE_QCN 1
USE_DYNAMIC_PFC_THRESHOLD 1

PACKET_PAYLOAD_SIZE 1000

TOPOLOGY_FILE mix/topology.txt
FLOW_FILE mix/flow.txt
TRACE_FILE mix/trace.txt
TRACE_OUTPUT_FILE mix/mix_$1.tr
FCT_OUTPUT_FILE mix/fct_$1.txt
PFC_OUTPUT_FILE mix/pfc_$1.txt

SIMULATOR_STOP_TIME 2.01

CC_MODE $1
ALPHA_RESUME_INTERVAL 1
RATE_DECREASE_INTERVAL 4
CLAMP_TARGET_RATE 0
RP_TIMER 300
EWMA_GAIN 0.00390625
FAST_RECOVERY_TIMES 1
RATE_AI $2
RATE_HAI 200Mb/s
MIN_RATE 1000Mb/s
DCTCP_RATE_AI 1000Mb/s

ERROR_RATE_PER_LINK 0.0000
L2_CHUNK_SIZE 4000
L2_ACK_INTERVAL 1
L2_BACK_TO_ZERO 0

HAS_WIN $3
GLOBAL_T 1
VAR_WIN $3
FAST_REACT $3
U_TARGET 0.95
MI_THRESH 0
INT_MULTI 4
MULTI_RATE 0
SAMPLE_FEEDBACK 0
PINT_LOG_BASE 1.01
PINT_PROB 1.0

RATE_BOUND 1

ACK_HIGH_PRIO 1

LINK_DOWN 0 0 0

ENABLE_TRACE $3

KMAX_MAP 2 100000000000 1600 400000000000 6400
KMIN_MAP 2 100000000000 400 400000000000 1600
PMAX_MAP 2 100000000000 0.20 400000000000 0.20
BUFFER_SIZE 32
QLEN_MON_FILE mix/qlen_$1.txt
QLEN_MON_START 2000000000
QLEN_MON_END 2000020000
CFG
}
hpcc_config 1 20Mb/s 0 > "$hs/mix/config_dcqcn.txt"
hpcc_config 3 40Mb/s 1 > "$hs/mix/config_hpcc.txt"
# fct_close FILE LINE WANT: column 7 (fct_ns) of LINE within 0.5% of WANT.
fct_close() {
  local got
  got=$(sed -n "$2p" "$1" | awk '{print $7}')
  if [ -n "$got" ] && awk -v g="$got" -v w="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= w * 0.005) }'; then
    echo "ok   $4 (fct $got ns, derived $3 ns)"; passed=$((passed + 1))
  else
    echo "FAIL $4: fct '$got' ns, derived $3 ns +-0.5%"; failed=$((failed + 1))
  fi
}
# FILE LINE DERIVED NAME: the FCT can only be slower than the line-rate
# derivation, by at most 10% (INT or signal bytes, windows, eta < 1).
fct_slower() {
  local got
  got=$(sed -n "$2p" "$1" | awk '{print $7}')
  if [ -n "$got" ] && awk -v g="$got" -v w="$3" 'BEGIN { exit !(g >= w * 0.999 && g <= w * 1.1) }'; then
    echo "ok   $4 ($got ns)"; passed=$((passed + 1))
  else
    echo "FAIL $4: '$got' ns not in [$3, 1.1 x $3]"; failed=$((failed + 1))
  fi
}
# From the simulator's directory, as its users run it; the topology's
# trailing text is a warning.
expect rdma-sim-config-dcqcn 0 "topology.txt:8: 1 line\(s\) after the 4 links of link_count are ignored" -- \
  bash -c 'cd "$1" && exec "$2" --config=mix/config_dcqcn.txt --traces=0' _ "$hs" "$abs_bin/rdma-sim"
fct_close "$hs/mix/fct_1.txt" 1 14947.2 rdma-sim-config-dcqcn-fct-a
fct_close "$hs/mix/fct_1.txt" 2 10571.2 rdma-sim-config-dcqcn-fct-b
# From elsewhere: mix/... is found from the config's parent directory.
rm -f "$hs/mix/fct_1.txt"
expect rdma-sim-config-elsewhere 0 "" -- \
  "$bin/rdma-sim" --config="$hs/mix/config_dcqcn.txt" --traces=0
fct_close "$hs/mix/fct_1.txt" 1 14947.2 rdma-sim-config-elsewhere-fct-a
# HPCC (CC_MODE 3, window, GLOBAL_T): INT bytes and the window can only
# slow it: each FCT between 1 and 1.1 x the DCQCN line-rate value.
expect rdma-sim-config-hpcc 0 "" -- \
  bash -c 'cd "$1" && exec "$2" --config=mix/config_hpcc.txt --traces=0' _ "$hs" "$abs_bin/rdma-sim"
fct_slower "$hs/mix/fct_3.txt" 1 14947.2 rdma-sim-config-hpcc-fct-1
fct_slower "$hs/mix/fct_3.txt" 2 10571.2 rdma-sim-config-hpcc-fct-2
# ENABLE_TRACE 1 (the HPCC config): mix.tr of TRACE_FILE's nodes (receiver 2,
# switch 3) and QLEN_MON_FILE where the config names them.
for f in mix_3.tr qlen_3.txt qlen_1.txt; do
  if [ -s "$hs/mix/$f" ]; then
    echo "ok   rdma-sim-config-output-$f"; passed=$((passed + 1))
  else
    echo "FAIL rdma-sim-config-output-$f: $hs/mix/$f missing or empty"; failed=$((failed + 1))
  fi
done
if [ -e "$hs/mix/mix_1.tr" ]; then
  echo "FAIL rdma-sim-config-no-trace: ENABLE_TRACE 0 wrote mix_1.tr"; failed=$((failed + 1))
else
  echo "ok   rdma-sim-config-no-trace"; passed=$((passed + 1))
fi
# Options given override the file's keys. 2.001005 s is a whole number of
# nanoseconds although the double 2.001005 x 1e9 is not (2001005000.0000002):
# read as decimal text, it stops the run there, before the second flow's end
# at 2001.011 ms.
expect rdma-sim-config-override 0 "" -- \
  "$bin/rdma-sim" --config="$hs/mix/config_dcqcn.txt" --traces=0 --out="$work/override" \
  --stop=2.001005s
if grep -q "completed=1 unfinished=1 simulated_ms=2001.005" "$work/rdma-sim-config-override.out"; then
  echo "ok   rdma-sim-config-override-stop"; passed=$((passed + 1))
else
  echo "FAIL rdma-sim-config-override-stop: $(cat "$work/rdma-sim-config-override.out")"; failed=$((failed + 1))
fi
# ... and flows unfinished at the stop are the normal end: exit 0, counted;
# --unfinishedIsError makes it 1.
expect rdma-sim-unfinished 0 "rdma-sim: 1 of 2 flows unfinished at --stop=2001000000ns" -- \
  "$bin/rdma-sim" --config="$hs/mix/config_dcqcn.txt" --traces=0 --out="$work/override" \
  --stop=2001ms
expect rdma-sim-unfinished-error 1 "1 of 2 flows unfinished .*\(--unfinishedIsError\)" -- \
  "$bin/rdma-sim" --config="$hs/mix/config_dcqcn.txt" --traces=0 --out="$work/override" \
  --stop=2001ms --unfinishedIsError
# Keys we cannot honour: exit 2 naming file:line:key, or a warning each.
sed 's/^MULTI_RATE 0/MULTI_RATE 1/' "$hs/mix/config_hpcc.txt" > "$hs/mix/config_bad.txt"
expect rdma-sim-config-unsupported 2 "config_bad.txt:39: field 'MULTI_RATE': 1 \(a rate per hop\) is not supported" -- \
  "$bin/rdma-sim" --config="$hs/mix/config_bad.txt" --traces=0 --out="$work/bad"
expect rdma-sim-config-ignore 0 "warning: .*config_bad.txt:39:MULTI_RATE: 1 \(a rate per hop\)" -- \
  "$bin/rdma-sim" --config="$hs/mix/config_bad.txt" --configIgnoreUnsupported --traces=0 \
  --out="$work/ignore"
# TIMELY, DCTCP, HPCC-PINT (CC_MODE 7, 8, 10) as run.py writes them at 100G:
# timely RATE_AI 100Mb/s, no window; dctcp DCTCP_RATE_AI 615Mb/s, EWMA_GAIN
# 0.0625, window, kmin = kmax = 300 KB, pmax 1; hpccPint RATE_AI 40Mb/s,
# window. The two flows never overlap, so nothing is cut: both finish, each
# FCT between 1 and 1.1 x the DCQCN line-rate value (TIMELY's 8-byte
# timestamp and PINT's 2-byte field add bytes per packet; the windows and
# PINT's eta < 1 can only slow a flow).
hpcc_config 7 100Mb/s 0 > "$hs/mix/config_timely.txt"
hpcc_config 8 10Mb/s 1 | sed -e 's#^DCTCP_RATE_AI .*#DCTCP_RATE_AI 615Mb/s#' \
  -e 's#^EWMA_GAIN .*#EWMA_GAIN 0.0625#' \
  -e 's#^KMAX_MAP .*#KMAX_MAP 2 100000000000 300 400000000000 1200#' \
  -e 's#^KMIN_MAP .*#KMIN_MAP 2 100000000000 300 400000000000 1200#' \
  -e 's#^PMAX_MAP .*#PMAX_MAP 2 100000000000 1.00 400000000000 1.00#' > "$hs/mix/config_dctcp.txt"
hpcc_config 10 40Mb/s 1 > "$hs/mix/config_pint.txt"
for nm in timely:7 dctcp:8 pint:10; do
  name=${nm%%:*} mode=${nm#*:}
  expect "rdma-sim-config-$name" 0 "" -- \
    bash -c 'cd "$1" && exec "$2" --config="mix/config_$3.txt" --traces=0' _ "$hs" "$abs_bin/rdma-sim" "$name"
  if grep -q "flows=2 completed=2 unfinished=0" "$work/rdma-sim-config-$name.out"; then
    echo "ok   rdma-sim-config-$name-finished"; passed=$((passed + 1))
  else
    echo "FAIL rdma-sim-config-$name-finished: $(cat "$work/rdma-sim-config-$name.out")"; failed=$((failed + 1))
  fi
  fct_slower "$hs/mix/fct_$mode.txt" 1 14947.2 "rdma-sim-config-$name-fct-1"
  fct_slower "$hs/mix/fct_$mode.txt" 2 10571.2 "rdma-sim-config-$name-fct-2"
done
# --cc wins over what --config derives after the topology is built (per-rate
# K, HPCC's W_ai, PINT's switch T). Two 2 MB DCTCP flows meet at switch 3:
# each window is one BDP (78,000 B), so the queue never passes the file's
# K of 300 KB and nothing is cut; with --cc=k=1B every queued packet is
# marked and both flows cut. (Before the fix the per-rate 300 KB replaced it.)
printf '2\n0 2 3 100 2000000 2\n1 2 3 100 2000000 2\n' > "$hs/mix/flow_meet.txt"
sed 's#^FLOW_FILE .*#FLOW_FILE mix/flow_meet.txt#' "$hs/mix/config_dctcp.txt" > "$hs/mix/config_dctcp_meet.txt"
abs_work=$(cd "$work" && pwd)
for cc in file:0 k1:1; do
  name=${cc%%:*} want=${cc#*:}
  extra=$([ "$name" = k1 ] && echo "--cc=k=1B" || true)
  expect "rdma-sim-config-cc-wins-$name" 0 "" -- \
    bash -c 'cd "$1" && exec "$2" --config=mix/config_dctcp_meet.txt --traces=0 --ccVars=1 --out="$3" $4' \
    _ "$hs" "$abs_bin/rdma-sim" "$abs_work/ccwins-$name" "$extra"
  cuts=$(awk -F, 'NR > 1 { n += ($NF > 0) } END { print n + 0 }' "$work/ccwins-$name/fct-cc.csv" 2>/dev/null)
  if { [ "$want" = 0 ] && [ "$cuts" = 0 ]; } || { [ "$want" = 1 ] && [ "$cuts" = 2 ]; }; then
    echo "ok   rdma-sim-config-cc-wins-$name-cuts ($cuts flows cut)"; passed=$((passed + 1))
  else
    echo "FAIL rdma-sim-config-cc-wins-$name-cuts: $cuts flows cut"; failed=$((failed + 1))
  fi
done
# DCTCP with the DCQCN maps (kmin 400 < kmax 1600 KB, pmax 0.2): libcc's
# dctcp marks above one K: exit 2 naming the line and key.
hpcc_config 8 10Mb/s 1 > "$hs/mix/config_dctcp_red.txt"
expect rdma-sim-config-dctcp-red 2 "config_dctcp_red.txt:53: field 'KMIN_MAP': rate 100000000000: kmin 400 KB below kmax 1600 KB with pmax 0.2 \(marking with a probability\) is not supported with CC_MODE 8" -- \
  "$bin/rdma-sim" --config="$hs/mix/config_dctcp_red.txt" --out="$work/bad"
# A switch port rate without a KMIN_MAP row (third.cc asserts): exit 2.
sed 's/^3 4 100Gbps/3 4 200Gbps/' "$hs/mix/topology.txt" > "$hs/mix/topo200.txt"
sed 's#^TOPOLOGY_FILE .*#TOPOLOGY_FILE mix/topo200.txt#' "$hs/mix/config_dcqcn.txt" > "$hs/mix/config_200.txt"
expect rdma-sim-config-no-map-row 2 "config_200.txt:53:KMIN_MAP: no row for link rate 200000000000" -- \
  "$bin/rdma-sim" --config="$hs/mix/config_200.txt" --out="$work/bad"
expect rdma-sim-config-missing 1 "/nonexistent/config.txt: cannot open" -- \
  "$bin/rdma-sim" --config=/nonexistent/config.txt --out="$work/bad"

# ---- A plugin as a built-in (docs/writing-an-algorithm.md) -----------------------
# examples/plugin/aimd-ecn.c built against the tree's header: each program
# loads it before reading its options, and its algorithm then works with
# --algo, --cc, --preset, --help, the LibccConfig attributes, the results
# writers and over MPI ranks.
top=$(cd "$(dirname "$0")/../.." && pwd)
so="$work/aimd-ecn.so"
if gcc -std=c11 -Wall -Wextra -Werror -shared -fPIC -I"$top/libcc/include" \
     -o "$so" "$top/examples/plugin/aimd-ecn.c" 2> "$work/plugin-build.err"; then
  echo "ok   plugin-builds"; passed=$((passed + 1))
else
  echo "FAIL plugin-builds"; sed 's/^/  | /' "$work/plugin-build.err" | head -5; failed=$((failed + 1))
fi
P=(--plugin="$so")
# --help lists its parameters, with units and ranges, and its preset.
"$bin/dumbbell" "${P[@]}" --help > "$work/plugin-help.out" 2>&1
for want in "aimd-ecn parameters" "ai_rate=2Gbps  \[1bps .. 1Tbps\]" "k=40KB" "preset=tcp"; do
  if grep -Eq -- "$want" "$work/plugin-help.out"; then
    echo "ok   plugin-help /$want/"; passed=$((passed + 1))
  else
    echo "FAIL plugin-help: no /$want/"; failed=$((failed + 1))
  fi
done
expect plugin-did-you-mean 2 "did you mean aimd-ecn\?" -- \
  "$bin/dumbbell" "${P[@]}" --algo=aimd-ecm --out="$work/pbad"
expect plugin-cc-range 2 "parameter 'md' of 'aimd-ecn': 1.5 is out of range \\[0.01, 0.99\\]" -- \
  "$bin/dumbbell" "${P[@]}" --algo=aimd-ecn --cc=md=1.5 --stop=10us --out="$work/pbad"
expect plugin-attribute-range 2 "ns3::LibccConfig::aimd-ecn::md" -- \
  "$bin/dumbbell" "${P[@]}" --algo=aimd-ecn --ns3::LibccConfig::aimd-ecn::md=2 --stop=10us \
  --out="$work/pbad"
# A slip in an attribute's type (the algorithm's name) or its own name.
for slip in aimd-ecm::md aimd-ecn::mdd; do
  expect "plugin-attribute-did-you-mean-$slip" 2 \
    "--ns3::LibccConfig::$slip=0.5: no such attribute \(did you mean --ns3::LibccConfig::aimd-ecn::md\?\)" -- \
    "$bin/dumbbell" "${P[@]}" "--ns3::LibccConfig::$slip=0.5" --out="$work/pbad"
done
# --algo before --plugin on the command line: the plugin is loaded first.
expect plugin-dumbbell 0 "" -- \
  "$bin/dumbbell" --algo=aimd-ecn --preset=tcp --ns3::LibccConfig::aimd-ecn::ai_rate=1Gbps \
  "${P[@]}" --stop=100us --traces=false --out="$work/pdumbbell"
if grep -qx "algorithm=aimd-ecn" "$work/pdumbbell/summary.txt" &&
   grep -qx "cc=preset=tcp" "$work/pdumbbell/summary.txt"; then
  echo "ok   plugin-dumbbell-summary"; passed=$((passed + 1))
else
  echo "FAIL plugin-dumbbell-summary"; failed=$((failed + 1))
fi
# Two flows into one port: AIMD converges to equal shares (Chiu and Jain,
# 1989): their goodputs over the last 100 us within 5% of each other.
expect plugin-dumbbell-two 0 "" -- \
  "$bin/dumbbell" "${P[@]}" --algo=aimd-ecn --stop=2ms --traces=false --out="$work/pdumbbell2"
if awk -F= '$1 ~ /^flow[01]_goodput_end_gbps$/ {g[n++] = $2}
     END {d = g[0] - g[1]; if (d < 0) d = -d; exit !(n == 2 && g[0] > 0 && d <= 0.05 * (g[0] + g[1]) / 2)}' \
     "$work/pdumbbell2/summary.txt"; then
  echo "ok   plugin-dumbbell-two-fair"; passed=$((passed + 1))
else
  echo "FAIL plugin-dumbbell-two-fair: $(grep goodput_end "$work/pdumbbell2/summary.txt" | tr '\n' ' ')"
  failed=$((failed + 1))
fi
# Its decisions in cc-log.csv (--ccLog), each as the rule says, by hand:
# a cut is md = 0.8 times the rate before (within the 1 bit/s of
# rounding), an increase 2 Gbit/s more up to the 100 Gbit/s line rate.
expect plugin-cc-log 0 "" -- \
  "$bin/dumbbell" "${P[@]}" --algo=aimd-ecn --stop=1ms --traces=false --ccLog=0 --out="$work/pclog"
if awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
     { o = $col["old_rate_bps"]; n = $col["new_rate_bps"]; a = $col["action"] }
     a == "cut" { cuts++; d = n - 0.8 * o; if (d < -1 || d > 1) bad++ }
     a == "additive-increase" { incs++; w = o + 2e9; if (w > 1e11) w = 1e11; d = n - w; if (d < -1 || d > 1) bad++ }
     END { printf "%d cuts, %d increases, %d off the rule\n", cuts, incs, bad; exit !(cuts > 0 && incs > 0 && bad == 0) }' \
     "$work/pclog/cc-log.csv" > "$work/pclog.txt" 2>&1; then
  echo "ok   plugin-cc-log-rule ($(cat "$work/pclog.txt"))"; passed=$((passed + 1))
else
  echo "FAIL plugin-cc-log-rule: $(cat "$work/pclog.txt")"; failed=$((failed + 1))
fi
printf '2\n0 5 3 100 200000 0\n1 5 3 100 200000 0\n' > "$work/pflows.txt"
expect plugin-rdma-sim 0 "" -- \
  "$bin/rdma-sim" "${P[@]}" --algo=aimd-ecn --fattree=4 --flows="$work/pflows.txt" --ccVars=1 \
  --traces=false --out="$work/prdma"
# The results writers name its variables as a built-in's.
if head -1 "$work/prdma/fct-cc.csv" 2>/dev/null | grep -qx "flow,size_bytes,fct_ns,ideal_fct_ns,rate,cuts" &&
   [ "$(wc -l < "$work/prdma/fct.txt")" -eq 2 ]; then
  echo "ok   plugin-rdma-sim-writers"; passed=$((passed + 1))
else
  echo "FAIL plugin-rdma-sim-writers"; failed=$((failed + 1))
fi
expect plugin-fairness 0 "" -- \
  "$bin/fairness" "${P[@]}" --algo=aimd-ecn --interval=20us --out="$work/pfair"
# Over 2 MPI ranks every rank loads it: the same fct.txt as one process in
# the Node event order.
if command -v mpirun > /dev/null && [ -e "$bin/../lib/libns3-libcc-mpi.so.0" ]; then
  node=--ns3::FastSimulatorImpl::EventOrder=Node
  expect plugin-rdma-sim-1rank 0 "" -- \
    "$bin/rdma-sim" "${P[@]}" --algo=aimd-ecn --fattree=4 --flows="$work/pflows.txt" \
    --traces=false "$node" --out="$work/prdma1"
  expect plugin-rdma-sim-2ranks 0 "" -- \
    bash "$top/scripts/mpirun.sh" -np 2 "$bin/rdma-sim" "${P[@]}" --algo=aimd-ecn --fattree=4 \
    --flows="$work/pflows.txt" --traces=false "$node" --out="$work/prdma2"
  if cmp -s "$work/prdma1/fct.txt" "$work/prdma2/fct.txt"; then
    echo "ok   plugin-rdma-sim-ranks-equal"; passed=$((passed + 1))
  else
    echo "FAIL plugin-rdma-sim-ranks-equal: fct.txt differs over 2 ranks"; failed=$((failed + 1))
  fi
else
  echo "FAIL plugin over ranks: no mpirun or libns3-libcc-mpi (make deps, make)"; failed=$((failed + 1))
fi

echo "examples: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
