#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Run every test suite (each a make target), even after one fails, keep each
# log, and finish with one summary line adding up the suites' tally lines
# ("NAME: N passed, M failed", the one format every suite prints).
# Usage: run-tests.sh LOGDIR TARGET...
set -u
logdir=$1; shift
mkdir -p "$logdir"
passed=0 failed=0 bad_targets=()
for t in "$@"; do
  log="$logdir/$t.log"
  echo "=== $t"
  make --no-print-directory "$t" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  # Every suite ends with "NAME: N passed, M failed" lines (Check's and
  # GoogleTest's runners print one beside their own summaries); a suite that
  # prints none has run nothing this script can count: a failure, not a 0.
  tallies=0
  while read -r p f; do
    passed=$((passed + p)); failed=$((failed + f)); tallies=$((tallies + 1))
  done < <(sed -n 's/^[A-Za-z0-9_-]*: \([0-9]*\) passed, \([0-9]*\) failed\(, [0-9]* skipped\)\{0,1\}$/\1 \2/p' "$log")
  if [ "$tallies" -eq 0 ]; then
    echo "run-tests: $t printed no \"NAME: N passed, M failed\" line: counted as failed"
    rc=1
  fi
  if [ "$rc" -ne 0 ]; then bad_targets+=("$t"); fi
done
echo
if [ ${#bad_targets[@]} -gt 0 ]; then
  echo "make test: FAILED in: ${bad_targets[*]} (logs in $logdir)"
  [ "$failed" -eq 0 ] && failed=${#bad_targets[@]}
fi
echo "$passed passed, $failed failed"
[ ${#bad_targets[@]} -eq 0 ]
