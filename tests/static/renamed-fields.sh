#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Until 0.4.0 libcc_ack.ints was a libcc_int_list; since then a pointer, so
# 0.4-era code (`libcc_int_list_push(&ack.ints, ...)`) compiled with only a
# warning and crashed. Since 0.7.0 the field is `int_list`: such code must
# fail to compile, naming the field, while the same program written for
# 0.7 compiles with -Werror (so the check can fail).
# Usage: renamed-fields.sh CC
set -u
cc=${1:-cc}
cd "$(dirname "$0")/../.."
flags=(-std=c11 -Wall -Wextra -Werror -Ilibcc/include -fsyntax-only -x c -)
passed=0 failed=0
old='#include <libcc/libcc.h>
int f(const libcc_int_hop *hop) {
    libcc_ack ack = {0};
    libcc_int_list_init(&ack.ints);
    return libcc_int_list_push(&ack.ints, hop, 8);
}'
new='#include <libcc/libcc.h>
int f(const libcc_int_hop *hop) {
    libcc_int_list list;
    libcc_int_list_init(&list);
    libcc_ack ack = {.int_list = &list};
    (void)ack;
    return libcc_int_list_push(&list, hop, 8);
}'
if out=$(echo "$old" | "$cc" "${flags[@]}" 2>&1); then
  echo "renamed-fields: 0.4-style code using libcc_ack.ints still compiles"
  failed=$((failed + 1))
elif ! grep -q "ints" <<<"$out"; then
  echo "renamed-fields: 0.4-style code fails, but the error does not name 'ints':"
  echo "$out" | head -3
  failed=$((failed + 1))
else
  passed=$((passed + 1))
fi
if out=$(echo "$new" | "$cc" "${flags[@]}" 2>&1); then
  passed=$((passed + 1))
else
  echo "renamed-fields: the 0.7 form does not compile:"
  echo "$out" | head -3
  failed=$((failed + 1))
fi
echo "static: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
