#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# libcc must keep no global mutable state: every object file of the library
# has empty .data and .bss (const tables with pointers live in .data.rel.ro).
# A failure names the object and the section.
#
# One exception, and only it: registry.o's `reg`, the table of registered
# algorithms (libcc_algorithm_register). A name must mean the same algorithm
# to every part of a process (command line, ns-3 attributes, replay files)
# and a plugin registers once for all of them, so the table is process-wide;
# a mutex guards it (docs/design.md). Any other writable object in
# registry.o, or `reg` anywhere else, still fails.
set -u
passed=0 failed=0
for o in "$@"; do
  if [ "$(basename "$o")" = registry.o ]; then
    # The writable objects, by name: exactly `reg`.
    names=$(objdump -t "$o" | awk '$0 ~ /\t/ && ($(NF-2)==".data" || $(NF-2)==".bss") && $3=="O" {print $NF}' | sort | tr '\n' ' ')
    if [ "$names" != "reg " ]; then
      echo "no-mutable-globals: $o may hold only the registry table 'reg' as writable data, has: ${names:-nothing}"
      failed=$((failed + 1))
    else
      passed=$((passed + 1))
    fi
    continue
  fi
  bad=$(size -A "$o" | awk '($1==".data" || $1==".bss") && $2>0 {printf "%s %s bytes; ", $1, $2}')
  if [ -n "$bad" ]; then
    echo "no-mutable-globals: $o has writable globals: $bad"
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
done
echo "static: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
