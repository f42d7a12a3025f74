#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# No congestion-control decision in the ns-3 bindings: the binding asks libcc
# (libcc_algorithm_info_get, the CP's verdicts) instead of testing an
# algorithm's name. Every algorithm libcc registers (libcc/src/algo/*.c
# `.name = "..."`) but "none", the default that does nothing, must not appear
# as a string literal in the bindings' code, with no exception: the HPCC
# simulator's config translator finds the algorithm of a CC_MODE through
# libcc_algorithm_info.hpcc_sim_cc_mode. A failure names file and line.
# A second check makes the first one able to fail: it must find the names in
# libcc's own registry.
set -u
cd "$(dirname "$0")/../.."
mapfile -t names < <(sed -n 's/^ *\.name *= *"\([^"]*\)",.*/\1/p' libcc/src/algo/*.c | grep -vx none)
passed=0 failed=0
if [ "${#names[@]}" -lt 4 ]; then
  echo "no-algorithm-names: found only ${#names[@]} algorithm names in libcc/src/algo (expected >= 4)"
  failed=$((failed + 1))
else
  passed=$((passed + 1))
fi
for n in "${names[@]}"; do
  hits=$(grep -rnF "\"$n\"" ns3-bindings --include=*.cc --include=*.h || true)
  if [ -n "$hits" ]; then
    echo "no-algorithm-names: \"$n\" in the bindings:"
    echo "$hits"
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
done
echo "static: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
