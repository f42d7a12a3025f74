#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Built-in algorithm modules use only <libcc/algorithm.h>'s accessors, never
# the objects' fields, so the layouts stay private and a module reads as a
# plugin would be written. Each libcc/src/algo/*.c must compile with
# LIBCC_MODULE_VIEW, which hides the object structs (and the in-line
# accessors built on them) in cc_internal.h. A control that touches a field
# must fail there, so this check can fail. Usage: module-view.sh CC
set -u
cc=${1:-cc}
cd "$(dirname "$0")/../.."
flags=(-std=c11 -Wall -Wextra -Werror -DLIBCC_BUILDING -DLIBCC_MODULE_VIEW -Ilibcc/include -Ilibcc/src -fsyntax-only)
passed=0 failed=0
for f in libcc/src/algo/*.c; do
  if out=$("$cc" "${flags[@]}" "$f" 2>&1); then
    passed=$((passed + 1))
  else
    echo "module-view: $f touches libcc's private object layout:"
    echo "$out" | grep -m3 'error'
    failed=$((failed + 1))
  fi
done
control='#include "cc_internal.h"
uint64_t f(libcc_rp *rp) { return rp->rate_bps; }'
if echo "$control" | "$cc" "${flags[@]}" -x c - 2>/dev/null; then
  echo "module-view: a module reading rp->rate_bps compiled: LIBCC_MODULE_VIEW hides nothing"
  failed=$((failed + 1))
else
  passed=$((passed + 1))
fi
echo "static: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
