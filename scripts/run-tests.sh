#!/usr/bin/env bash
# Run every test suite (each a make target), even after one fails, keep each
# log, and finish with one summary line counting the runners' own tallies.
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
  # Check: "100%: Checks: 184, Failures: 0, Errors: 0"
  while read -r c f e; do
    passed=$((passed + c - f - e)); failed=$((failed + f + e))
  done < <(sed -n 's/^[0-9]*%: Checks: \([0-9]*\), Failures: \([0-9]*\), Errors: \([0-9]*\)$/\1 \2 \3/p' "$log")
  # GoogleTest: "[  PASSED  ] 77 tests." / "[  FAILED  ] 2 tests, listed below:"
  p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
  f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
  # plain "NAME: 7 passed, 0 failed" lines (install test)
  while read -r p f; do
    passed=$((passed + p)); failed=$((failed + f))
  done < <(sed -n 's/^[a-z-]*: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$log")
  if [ "$rc" -ne 0 ]; then bad_targets+=("$t"); fi
done
echo
if [ ${#bad_targets[@]} -gt 0 ]; then
  echo "make test: FAILED in: ${bad_targets[*]} (logs in $logdir)"
  [ "$failed" -eq 0 ] && failed=${#bad_targets[@]}
fi
echo "$passed passed, $failed failed"
[ ${#bad_targets[@]} -eq 0 ]
