#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# libcc must keep no global mutable state: every object file of the library
# has empty .data and .bss (const tables with pointers live in .data.rel.ro).
# A failure names the object and the section.
set -u
passed=0 failed=0
for o in "$@"; do
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
