#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# usage: tests/contrib/run.sh WORKDIR      (make test-contrib; run from the repository root)
#
# The bindings as a contrib module of Debian's own ns-3 source tree, as an
# ns-3 user builds them: Debian's ns3 source package is unpacked in WORKDIR
# (scripts/ns3-source.sh; kept for the next run), this repository's files
# are copied in as contrib/libcc (WORKDIR must be outside the repository),
# the program of docs/ns3-bindings.md ("Using the bindings") becomes
# scratch/fncc-flow.cc, `./ns3 configure --enable-modules=libcc` (only our
# module and the ns-3 modules it needs), `./ns3 build`, `./ns3 run fncc-flow`,
# whose FCT must be within 1% of the hand-derived ideal. Slow the first
# time (ns-3's core, network, internet: about an hour on 2 cores), under
# nice with LIBCC_CONTRIB_JOBS (default 2) jobs. Ends with
# "contrib: N passed, M failed".
set -u

if [ $# -ne 1 ]; then
    echo "usage: $0 WORKDIR" >&2
    exit 2
fi
SRC=$(pwd)
mkdir -p "$1" || exit 2
WORK=$(cd "$1" && pwd)
case "$WORK/" in
"$SRC"/*)
    echo "contrib: $WORK is inside the repository; use a directory outside it" >&2
    exit 2
    ;;
esac
JOBS=${LIBCC_CONTRIB_JOBS:-2}
LOG=$WORK/logs
mkdir -p "$LOG"

passed=0
failed=0
run() {
    local name=$1
    shift
    echo "contrib: $name ... (log $LOG/$name.log)"
    if ("$@") >"$LOG/$name.log" 2>&1; then
        echo "contrib: $name ok"
        passed=$((passed + 1))
    else
        echo "contrib: $name FAILED"
        tail -40 "$LOG/$name.log" | sed 's/^/    /'
        failed=$((failed + 1))
        finish
    fi
}
finish() {
    echo "contrib: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit $?
}

NS3=
source_tree() {
    bash "$SRC/scripts/ns3-source.sh" "$WORK/source" >"$WORK/tree.txt" && cat "$WORK/tree.txt"
}

# Tracked and new (not ignored) files only, modification times kept, so an
# unchanged file is not rebuilt on the next run.
copy_repo() {
    local dst=$NS3/contrib/libcc
    rm -rf "$dst" && mkdir -p "$dst" || return 1
    if git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
        (cd "$SRC" && git ls-files -z -co --exclude-standard | tar --null -T - -cf -) | (cd "$dst" && tar xf -)
    else
        (cd "$SRC" && tar --exclude=./build --exclude=./out --exclude=./.git -cf - .) | (cd "$dst" && tar xf -)
    fi || return 1
    du -sh "$dst"
    # The scratch program: the documented one (rewritten only if it changed).
    awk '$0 == "<!-- file: fncc-flow.cc -->" {armed = 1; next}
         armed && /^```/ && !on {on = 1; next}
         on && /^```$/ {exit}
         on {print}' "$SRC/docs/ns3-bindings.md" >"$WORK/fncc-flow.cc"
    [ -s "$WORK/fncc-flow.cc" ] || { echo "no fncc-flow.cc block in docs/ns3-bindings.md"; return 1; }
    cmp -s "$WORK/fncc-flow.cc" "$NS3/scratch/fncc-flow.cc" || cp "$WORK/fncc-flow.cc" "$NS3/scratch/fncc-flow.cc"
}

configure() {
    # ns-3 writes build/include/ns3/<name>.h (an #include of the real header)
    # only when it is missing: drop ours so a changed CMakeLists.txt counts.
    local h
    for h in $(find "$SRC/ns3-bindings" -name '*.h') libcc-module.h; do
        rm -f "$NS3/build/include/ns3/$(basename "$h")"
    done
    cd "$NS3" && nice -n 19 ./ns3 configure --enable-modules=libcc --disable-examples --disable-tests \
        --disable-python-bindings && grep -q 'libcc' cmake-cache/CMakeCache.txt
}

# What `./ns3 build` runs, but with our job count: ns3 caps it at the
# number of CPUs minus one (1 on a 2-core machine).
build() {
    cd "$NS3" && nice -n 19 cmake --build cmake-cache -j "$JOBS"
}

run_scratch() {
    cd "$NS3" || return 1
    ./ns3 run --no-build fncc-flow >"$WORK/fncc-flow.out" || { cat "$WORK/fncc-flow.out"; return 1; }
    cat "$WORK/fncc-flow.out"
    grep -q '^fncc flow: FCT [0-9]* ns, ideal 95710 ns .*: ok$' "$WORK/fncc-flow.out"
}

# Only libcc and its dependencies were built; the program links the module.
what_was_built() {
    cd "$NS3" || return 1
    ls build/lib
    ls build/lib | grep -q 'libns3.*-libcc-' || { echo "no libcc module library"; return 1; }
    ! ls build/lib | grep -q -e '-wifi-' -e '-lte-' || { echo "more than the needed modules built"; return 1; }
    ls build/include/ns3/libcc-module.h
    ldd build/scratch/ns3*-fncc-flow-* | grep -E 'libns3.*-libcc-'
}

run ns3-source source_tree
NS3=$(cat "$WORK/tree.txt")
run copy copy_repo
run configure configure
run build build
run scratch run_scratch
run built what_was_built
finish
