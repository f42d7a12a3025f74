#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The error policy (docs/errors.md), table-driven over every option of every
# ns-3 program as its --help lists it: each bad value exits 2 with exactly
# one line on stderr naming the option, and never aborts (134), crashes
# (139) or runs. Usage: error-policy.sh BINDIR WORKDIR
# Ends with "error-policy: N passed, M failed".
set -u
bin=$1
work=$2
rm -rf "$work" && mkdir -p "$work"
passed=0 failed=0

# A tiny fat-tree flow file, so rdma-sim's baseline is a valid run.
printf '1\n0 1 3 100 1000 0\n' > "$work/flows.txt"

# The arguments that make a short valid run of each program (status 1 for
# one not listed); the bad one
# comes last and so overrides its own baseline option.
baseline() {
  case $1 in
    dumbbell) echo "--stop=10us --traces=false --out=$work/run-dumbbell" ;;
    rdma-sim) echo "--fattree=4 --flows=$work/flows.txt --stop=10us --traces=false --out=$work/run-rdma-sim" ;;
    fairness) echo "--interval=5us --out=$work/run-fairness" ;;
    minimal) echo "--size=1000" ;;
    tcp-beside-rdma) echo "--rdmaSize=10KB --tcpSize=10KB --stop=1ms" ;;
    simbench) echo "--events=1000" ;;
    *) return 1 ;;
  esac
}

# check PROGRAM NAME ARG: PROGRAM refuses ARG (about option NAME) as the
# policy says.
check() {
  local prog=$1 name=$2 arg=$3
  local err="$work/err" rc
  # shellcheck disable=SC2046
  timeout 60 "$bin/$prog" $(baseline "$prog") "$arg" > "$work/out" 2> "$err"
  rc=$?
  local lines
  lines=$(wc -l < "$err")
  if [ "$rc" -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -qF -- "--$name" "$err"; then
    echo "FAIL $prog $arg: exit $rc, $lines stderr lines (want 2, one line naming --$name)"
    sed 's/^/  | /' "$err" | head -3
    failed=$((failed + 1))
    return
  fi
  passed=$((passed + 1))
}

# Bad values for an option by what its --help says it accepts.
bad_values() {
  local accepted=$1
  case $accepted in
    "a whole number, "*)
      local max=${accepted##* .. }
      echo "-1" "1.5" "abc" "0x10" "nan" "$((max + 1))" ;;
    "a rate in whole Gbps"*)
      echo "-1" "1.5" "abc" "0x10" "nan" "1601" "100.5Gbps" "10Mbps" "2Tbps" "100gb" ;;
    "bytes, "*)
      echo "-1" "1.5B" "abc" "0x10" "1e400" "10XB" ;;
    "a time with a unit"*)
      echo "-1us" "5" "abc" "0.5ns" "nan" "inf" "1e30s" ;;
    "a boolean"*)
      echo "maybe" "2" ;;
    "one of "*)
      echo "no-such-choice" ;;
    "all, none, or flow ids"*) # --ccLog: not a list, or flows the run does not have
      echo "-1" "abc" "1.5" "3-1" "0,,1" "0-" "4294967296" "1000" "0-1000" ;;
  esac
}

# Every program the build made (libcc-replay, libcc's own tool, below): a
# new one without a baseline here fails, so none is left out.
for path in "$bin"/*; do
  # bin/static/: the same programs' code with ns-3 linked in (tests/ns3-static).
  [ -f "$path" ] || continue
  prog=$(basename "$path")
  case $prog in libcc-replay|libcc-conformance) continue ;; esac
  if ! baseline "$prog" > /dev/null; then
    echo "FAIL $prog: no baseline in error-policy.sh"; failed=$((failed + 1)); continue
  fi
  n_opts=0
  while IFS= read -r line; do
    name=${line#*--}; name=${name%%=*}
    accepted=${line#*=<}; accepted=${accepted%>}
    n_opts=$((n_opts + 1))
    for v in $(bad_values "$accepted"); do
      check "$prog" "$name" "--$name=$v"
    done
    # An empty value is bad for every kind but text.
    case $accepted in text) ;; *) check "$prog" "$name" "--$name=" ;; esac
  done < <("$bin/$prog" --help | grep -E '^  --[A-Za-z0-9]+=<')
  if [ "$n_opts" -lt 3 ]; then
    echo "FAIL $prog: --help lists $n_opts options"; failed=$((failed + 1))
  fi
  # What is not an option of the program, nor ns-3's.
  check "$prog" "bogus" "--bogus=1"
  check "$prog" "bogus" "--bogus"
  check "$prog" "RngRun" "--RngRun=abc"
  check "$prog" "RngRun" "--RngRun=-1"
  check "$prog" "SimulatorImplementationType" "--SimulatorImplementationType=ns3::Nope"
  check "$prog" "ns3::SwitchNode::BufferSize" "--ns3::SwitchNode::BufferSize=abc"
  check "$prog" "ns3::SwitchNode::Nope" "--ns3::SwitchNode::Nope=1"
  check "$prog" "ns3::LibccConfig::dcqcn::kmin" "--ns3::LibccConfig::dcqcn::kmin=2.5"
  check "$prog" "ns3::LibccConfig::hpcc::eta" "--ns3::LibccConfig::hpcc::eta=nan"
  check "$prog" "ns3::LibccConfig::dcqcn::rpg_threshold" \
    "--ns3::LibccConfig::dcqcn::rpg_threshold=2.5"
  check "$prog" "cc" "--cc=no_such_param=1"
done

# A libcc tool run with a bad option: exit 2, one stderr line naming it.
# Usage: libcc_tool_check TOOL OPTION ARG...
libcc_tool_check() {
  local tool=$1 opt=$2; shift 2
  timeout 60 "$bin/$tool" "$@" > /dev/null 2> "$work/err"
  local rc=$?
  if [ "$rc" -eq 2 ] && [ "$(wc -l < "$work/err")" -eq 1 ] && grep -qF -- "$opt" "$work/err"; then
    passed=$((passed + 1))
  else
    echo "FAIL $tool $*: exit $rc (want 2, one line naming $opt)"
    sed 's/^/  | /' "$work/err" | head -3; failed=$((failed + 1))
  fi
}

# libcc-replay (space-separated options, libcc's own tool): each option with
# bad values, on a valid trace.
trace=$(dirname "$0")/../../examples/traces/hpcc.trace
while read -r opt bad; do
  libcc_tool_check libcc-replay "$opt" "$opt" "$bad" "$trace"
done <<'EOF'
--line-rate -1Gbps
--line-rate 100
--line-rate 0x10Gbps
--base-rtt abc
--base-rtt 1.5ns
--mtu 1.5B
--mtu -1B
--sample 0
--sample nan
--until -1us
--max-timers -1
--max-timers 1.5
--algo reno
--param eta=2
--param nonsense
--param rpg_threshold=2.5
--base-rtt 2s
--line-rate 20Tbps
--mtu 63
--plugin /nonexistent/libcc-plugin.so
EOF

# libcc-conformance (--opt=VALUE): each option with bad values; nothing runs.
while read -r arg; do
  # shellcheck disable=SC2086 # some lines are two options
  libcc_tool_check libcc-conformance "${arg%%=*}" --trace-dir="$work" $arg
done <<'EOF'
--algo=reno
--events=0
--events=-1
--events=1.5
--duration=abc
--duration=0s
--duration=-1s
--seed=-1
--seed=abc
--params=eta=0.9
--params=eta=2 --algo=hpcc
--plugin=/nonexistent/libcc-plugin.so
--trace-dir=
--bogus=1
--events
EOF

# Relations between parameters are named before the run, both of them.
check dumbbell "cc" "--cc=kmin=500KB,kmax=400KB"
if ! grep -q "kmin.*kmax" "$work/err"; then
  echo "FAIL dumbbell kmin>kmax: does not name both"; failed=$((failed + 1))
fi
# RoCC's fair rate is a whole number of rate units: an f_min below one unit
# is refused, naming both.
timeout 60 "$bin/dumbbell" --algo=rocc --cc=f_min=1Mbps > /dev/null 2> "$work/err"
if [ $? -eq 2 ] && [ "$(wc -l < "$work/err")" -eq 1 ] && grep -q "f_min.*rate_unit" "$work/err"; then
  passed=$((passed + 1))
else
  echo "FAIL dumbbell rocc f_min<rate_unit: want exit 2, one line naming f_min and rate_unit"
  failed=$((failed + 1))
fi
# A stray word is refused too.
timeout 60 "$bin/dumbbell" stray > /dev/null 2> "$work/err"
if [ $? -eq 2 ] && grep -q "unexpected argument 'stray'" "$work/err"; then
  passed=$((passed + 1))
else
  echo "FAIL dumbbell stray argument"; failed=$((failed + 1))
fi
# An --out whose parent is a file is an I/O failure: exit 1, named.
for prog in dumbbell rdma-sim fairness; do
  # shellcheck disable=SC2046
  timeout 60 "$bin/$prog" $(baseline "$prog") --out=/etc/passwd/x > /dev/null 2> "$work/err"
  if [ $? -eq 1 ] && grep -q -- "--out=/etc/passwd/x" "$work/err"; then
    passed=$((passed + 1))
  else
    echo "FAIL $prog --out under a file: not exit 1 naming --out"; failed=$((failed + 1))
  fi
done
# A buffer that is all headroom is refused before the run, not aborted in it.
check dumbbell "senders=1000" "--senders=1000"
if ! grep -q "leaves no shared buffer" "$work/err"; then
  echo "FAIL dumbbell --senders=1000: buffer not named"; failed=$((failed + 1))
fi
# --traceNodes is text: node ids, and ids of the topology (k=4: nodes 0..35).
check rdma-sim traceNodes "--traceNodes=abc"
check rdma-sim traceNodes "--traceNodes=1,,2"
check rdma-sim traceNodes "--traceNodes=-1"
check rdma-sim traceNodes "--traceNodes=36"
if ! grep -q "not a node of the topology (0..35)" "$work/err"; then
  echo "FAIL rdma-sim --traceNodes=36: range not named"; failed=$((failed + 1))
fi
# shellcheck disable=SC2046
timeout 60 "$bin/rdma-sim" $(baseline rdma-sim) --qlenMonStart=2s --qlenMonEnd=1s \
  > /dev/null 2> "$work/err"
if [ $? -eq 2 ] && [ "$(wc -l < "$work/err")" -eq 1 ] && grep -q -- "--qlenMonEnd" "$work/err"; then
  passed=$((passed + 1))
else
  echo "FAIL rdma-sim --qlenMonEnd before --qlenMonStart: not exit 2 naming it"
  failed=$((failed + 1))
fi

# --plugin: a file that does not load or register is one line naming
# --plugin=FILE and why, exit 2, before anything runs (the same for every
# program with --algo). The plugins are built here from libcc's header.
inc=$(cd "$(dirname "$0")/../../libcc/include" && pwd)
plugin() { # NAME C-BODY: $work/NAME.so from a C file including <libcc/algorithm.h>
  printf '#include <libcc/algorithm.h>\n%s\n' "$2" > "$work/$1.c" &&
    gcc -std=c11 -shared -fPIC -I"$inc" -o "$work/$1.so" "$work/$1.c"
}
# register(): one RP-only algorithm NAME built against ABI version ABI.
register='static const libcc_rp_ops ops = {0};
static const libcc_algorithm a = {.abi_version = ABI, .name = NAME, .roles = LIBCC_ROLE_RP, .rp = &ops};
int libcc_plugin_init(char *err, size_t len) { return libcc_algorithm_register(&a, err, len); }'
plugin noentry 'int not_the_entry(void) { return 0; }'
plugin clash "#define ABI LIBCC_ALGORITHM_ABI_VERSION
#define NAME \"dcqcn\"
$register"
plugin oldabi "#define ABI (LIBCC_ALGORITHM_ABI_VERSION + 1000u)
#define NAME \"oldabi\"
$register"
plugin badname "#define ABI LIBCC_ALGORITHM_ABI_VERSION
#define NAME \"Bad Name\"
$register"
for prog in dumbbell rdma-sim fairness; do
  for what in /nonexistent/x.so:nonexistent "$work/flows.txt":flows.txt "$work/noentry.so":noentry.so \
              "$work/clash.so":dcqcn "$work/oldabi.so":ABI "$work/badname.so":"Bad Name"; do
    file=${what%%:*} named=${what#*:}
    check "$prog" "plugin=$file" "--plugin=$file"
    if ! grep -qF -- "$named" "$work/err"; then
      echo "FAIL $prog --plugin=$file: '$named' not named"; failed=$((failed + 1))
    fi
  done
  # Before any other option is read: a plugin that fails wins over --help.
  timeout 60 "$bin/$prog" --help --plugin="$work/noentry.so" > /dev/null 2> "$work/err"
  if [ $? -eq 2 ] && grep -qF -- "--plugin=$work/noentry.so" "$work/err"; then
    passed=$((passed + 1))
  else
    echo "FAIL $prog --help --plugin=noentry.so: not exit 2 naming the plugin"; failed=$((failed + 1))
  fi
done

# A path whose base RTT is beyond libcc's flow range (1 s: a 600 ms link,
# crossed twice) is refused with the flow file's line before the run, not
# aborted when the flow starts.
data=$(dirname "$0")/../../examples/data
sed 's/^0 3 100Gbps 0.001ms 0$/0 3 100Gbps 600ms 0/' "$data/dumbbell-topology.txt" > "$work/slow-topology.txt"
timeout 60 "$bin/rdma-sim" --topo="$work/slow-topology.txt" --flows="$data/dumbbell-flows.txt" \
  --stop=10us --traces=false --out="$work/run-slow" > /dev/null 2> "$work/err"
if [ $? -eq 2 ] && [ "$(wc -l < "$work/err")" -eq 1 ] &&
   grep -q "dumbbell-flows.txt:2: flow 0: its base_rtt .* is outside \[0ns, 1s\]" "$work/err"; then
  passed=$((passed + 1))
else
  echo "FAIL rdma-sim with a 1.2 s base RTT: not exit 2 naming the flow, base_rtt and its range"
  sed 's/^/  | /' "$work/err" | head -3; failed=$((failed + 1))
fi

echo "error-policy: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
