#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The Python analysis tests (pytest, Debian's python3-pytest), ending with a
# "python: N passed, M failed" line that scripts/run-tests.sh counts.
set -u
py=${PYTHON:-/usr/bin/python3}
cd "$(dirname "$0")/../.."
out=$("$py" -m pytest -q -p no:cacheprovider tests/python 2>&1)
rc=$?
echo "$out"
passed=$(echo "$out" | grep -oE '[0-9]+ passed' | tail -1 | cut -d' ' -f1)
failed=$(echo "$out" | grep -oE '[0-9]+ (failed|error)' | awk '{n += $1} END {print n + 0}')
echo "python: ${passed:-0} passed, ${failed:-0} failed"
[ "$rc" -eq 0 ]
