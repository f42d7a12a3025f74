#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# usage: tests/ns3-static/run.sh BINDIR WORKDIR
#
# The self-contained programs (BINDIR/static/, ns3-bindings/static.mk,
# docs/static-programs.md): they need no ns-3, libcc or libstdc++ library
# at run time; ns-3's TypeIds are all registered, as with Debian's
# libraries; on the same inputs they write the shared programs' files byte
# for byte (rdma-sim on a fat tree with PFC, the dumbbell, fairness, the
# minimal program), also with a libcc plugin; under an MPI launcher asking
# for two ranks they refuse in one line, exit 2, before any output. Ends
# with "ns3-static: N passed, M failed".
set -u
bin=$(cd "${1:?usage: $0 BINDIR WORKDIR}" && pwd)
work=${2:?usage: $0 BINDIR WORKDIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$work" && mkdir -p "$work"
work=$(cd "$work" && pwd)
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
names=(rdma-sim dumbbell fairness minimal)

# What the loader must find besides the program: glibc only.
for n in "${names[@]}"; do
  p="$bin/static/$n"
  if [ ! -x "$p" ]; then bad "$n: $p built"; continue; fi
  if libs=$(ldd "$p" 2>&1) && ! grep -Eq 'libns3|libcc|libstdc\+\+|libgcc_s|not found' <<<"$libs"; then
    ok "$n: loads no ns-3, libcc or libstdc++ library"
  else
    bad "$n: needs a library beyond glibc:"; sed 's/^/  | /' <<<"$libs"
  fi
done

# Every TypeId of ns-3's core, network and stats modules and ours.
if diff <("$bin/static/rdma-sim" --PrintTypeIds) <("$bin/rdma-sim" --PrintTypeIds) >"$work/typeids.diff"; then
  ok "rdma-sim: --PrintTypeIds lists the shared program's TypeIds"
else
  bad "rdma-sim: TypeIds differ"; head -5 "$work/typeids.diff" | sed 's/^/  | /'
fi

# Runs one program both ways in two directories (relative output paths),
# then compares every file each wrote, less the lines that measure the
# process, not the network: wall time, memory, progress reports.
measured='^(wall_s|packets_per_wall_s|peak_rss_mb)=|^progress: '
same_run() { # label name args...
  local label=$1 name=$2; shift 2
  local d="$work/$label"
  mkdir -p "$d/static" "$d/shared"
  (cd "$d/static" && "$bin/static/$name" "$@" >stdout.txt 2>stderr.txt); local rs=$?
  (cd "$d/shared" && "$bin/$name" "$@" >stdout.txt 2>stderr.txt); local rd=$?
  if [ "$rs" -ne 0 ] || [ "$rs" -ne "$rd" ]; then
    bad "$label: exit $rs (shared program: $rd)"; sed 's/^/  | /' "$d/static/stderr.txt" | head -5; return
  fi
  local files
  files=$(cd "$d/shared" && find . -type f | sort)
  if [ "$files" != "$(cd "$d/static" && find . -type f | sort)" ]; then
    bad "$label: not the same files"; return
  fi
  local f diffs=0
  for f in $files; do
    if ! diff -q <(grep -Ev "$measured" "$d/static/$f") <(grep -Ev "$measured" "$d/shared/$f") >/dev/null; then
      bad "$label: $f differs"; diffs=1
    fi
  done
  [ "$diffs" -eq 0 ] && ok "$label: the shared program's $(wc -w <<<"$files") files, byte for byte"
}

# A k=4 fat tree at 80% WebSearch load: incast enough for PAUSE frames.
python3 "$top/examples/gen_flows.py" -c "$top/examples/data/websearch.cdf" -n 16 -l 0.8 -b 100G \
  -t 0.001 --start 0 --seed 2 -o "$work/flows.txt"
same_run rdma-sim-dcqcn rdma-sim --fattree=4 --flows="$work/flows.txt" --algo=dcqcn --traces --qlen \
  --qlenMonStart=0 --qlenMonEnd=1s --out=out
if [ -s "$work/rdma-sim-dcqcn/static/out/pfc.txt" ]; then ok "rdma-sim-dcqcn: PFC events in pfc.txt"; else bad "rdma-sim-dcqcn: no PFC event to compare"; fi
same_run rdma-sim-hpcc rdma-sim --fattree=4 --flows="$work/flows.txt" --algo=hpcc --stop=1ms --out=out
same_run dumbbell-fncc dumbbell --algo=fncc --stop=2ms --out=out
same_run fairness-hpcc fairness --algo=hpcc --senders=3 --interval=200us --out=out
same_run minimal-timely minimal --algo=timely --size=1000000

# A plugin's libcc_* calls bind to the libcc linked into the program.
so="$work/aimd-ecn.so"
if gcc -std=c11 -Wall -Wextra -Werror -shared -fPIC -I"$top/libcc/include" \
     -o "$so" "$top/examples/plugin/aimd-ecn.c" 2>"$work/plugin-build.err"; then
  same_run dumbbell-plugin dumbbell --plugin="$so" --algo=aimd-ecn --stop=1ms --out=out
else
  bad "plugin builds"; head -5 "$work/plugin-build.err" | sed 's/^/  | /'
fi

# Two ranks asked of a one-process program: one line, exit 2, no output.
(cd "$work" && OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=0 "$bin/static/rdma-sim" --fattree=4 \
  --flows="$work/flows.txt" --out=ranks >ranks.out 2>ranks.err); rc=$?
if [ "$rc" -eq 2 ] && [ "$(wc -l <"$work/ranks.err")" -eq 1 ] &&
   grep -q "^rdma-sim: .*ns-3 linked in.*for 2 ranks run the same program from bin/" "$work/ranks.err" &&
   [ ! -e "$work/ranks" ] && [ ! -s "$work/ranks.out" ]; then
  ok "two ranks refused: exit 2, one line"
else
  bad "two ranks: exit $rc"; sed 's/^/  | /' "$work/ranks.err" | head -3
fi

echo "ns3-static: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
