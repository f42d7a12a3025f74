#!/usr/bin/env bash
# Run each libFuzzer harness: first every file of its checked-in corpus once
# (the regression inputs must still pass), then fuzz for SECONDS from that
# corpus. New inputs go to DIR/work/NAME and crashes to DIR/artifacts/, both
# outside the tree. Ends with "fuzz: P passed, F failed" (harnesses).
# Usage: run.sh DIR SECONDS NAME...
set -u
dir=$1 seconds=$2; shift 2
passed=0 failed=0
for name in "$@"; do
  bin="$dir/bin/fuzz_$name" corpus="fuzz/corpus/$name" work="$dir/work/$name"
  mkdir -p "$work" "$dir/artifacts"
  echo "--- fuzz_$name: corpus, then ${seconds}s"
  ok=1
  if ! "$bin" -runs=0 -artifact_prefix="$dir/artifacts/$name-" "$corpus" >"$dir/$name.log" 2>&1; then
    ok=0
  elif ! "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
         -artifact_prefix="$dir/artifacts/$name-" -print_final_stats=1 \
         "$work" "$corpus" >>"$dir/$name.log" 2>&1; then
    ok=0
  fi
  if [ "$ok" -eq 1 ]; then
    passed=$((passed + 1))
    grep -E '^stat::number_of_executed_units' "$dir/$name.log" | tail -1 | sed "s/^/    /"
  else
    failed=$((failed + 1))
    tail -40 "$dir/$name.log"
    echo "    FAILED: log $dir/$name.log; reproduce: $bin $dir/artifacts/$name-<crash file>"
  fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
