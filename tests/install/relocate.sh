#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# usage: tests/install/relocate.sh BUILD OUTDIR
#
# A build tree is relocatable: no binary or .pc names the checkout's or the
# build tree's absolute path; a copy of the tree (OUTDIR/copy), with the
# original made unreachable (renamed for the duration), runs its own
# libraries (ldd and LD_DEBUG show the copy's), and the copy's .pc files
# build a program that runs. Ends with "relocate: N passed, M failed".
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 BUILD OUTDIR" >&2
    exit 2
fi
BUILD=$(cd "$1" && pwd) || exit 2
SRC=$(pwd)
mkdir -p "$2" || exit 2
OUT=$(cd "$2" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
COPY=$OUT/copy
HIDDEN=$BUILD.relocate-hidden

SUITE=relocate
# shellcheck source=checks.sh
. "$HERE/checks.sh"

# The tree's programs and libraries (and .pc/.cmake files) never name the
# checkout: not in rpath, debug info, __FILE__ or pkg-config variables.
no_abs_paths() {
    local f bad=0
    for f in "$BUILD"/lib/*.so.* "$BUILD"/bin/* "$BUILD"/bin/static/* "$BUILD"/tests/gtest_ns3 "$BUILD"/lib/pkgconfig/*.pc \
        "$BUILD"/lib/cmake/libcc/*.cmake; do
        [ -f "$f" ] && [ ! -L "$f" ] || continue
        if grep -q -a -F -e "$SRC" -e "$BUILD" "$f"; then
            echo "names an absolute build path: ${f#"$BUILD"/}"
            bad=1
        fi
    done
    readelf -d "$BUILD/bin/dumbbell" | grep -E 'RPATH|RUNPATH'
    readelf -d "$BUILD/lib/libns3-libcc.so" | grep -E 'RPATH|RUNPATH'
    [ $bad -eq 0 ]
}

# Copy the tree, hide the original, and look at the copy alone.
copy_tree() {
    rm -rf "$COPY" && mkdir -p "$COPY" &&
        (cd "$BUILD" && tar cf - bin lib include tests/gtest_ns3) | (cd "$COPY" && tar xf -)
}

# The paths the loader used, made canonical ($ORIGIN/../lib -> .../lib).
canon() { while read -r f; do realpath -m "$f"; done; }

loads_copy() {
    local bin=$COPY/bin/minimal
    ldd "$bin" | awk '/libns3-libcc|libcc\.so/ {print $3}' | canon | tee "$OUT/ldd.txt"
    [ "$(grep -c "^$COPY/lib/" "$OUT/ldd.txt")" -eq 2 ] || { echo "ldd: not the copy's libraries"; return 1; }
    LD_DEBUG=libs "$bin" --size=10000 --algo=none >"$OUT/minimal.out" 2>"$OUT/ld-debug.txt" || return 1
    cat "$OUT/minimal.out"
    sed -n 's/.*calling init: \(.*\(libns3-libcc\|libcc\.so\).*\)/\1/p' "$OUT/ld-debug.txt" | canon | tee "$OUT/init.txt"
    [ "$(grep -c "^$COPY/lib/" "$OUT/init.txt")" -eq 2 ] || { echo "LD_DEBUG: not the copy's libraries"; return 1; }
    grep -q '^flow 0: 10000 bytes' "$OUT/minimal.out"
}

pc_builds() {
    local d=$OUT/pc
    rm -rf "$d" && mkdir -p "$d" && cd "$d" || return 1
    export PKG_CONFIG_PATH=$COPY/lib/pkgconfig
    pkg-config --cflags --libs ns3-libcc
    pkg-config --cflags --libs ns3-libcc | grep -q -F "$COPY/lib" || { echo ".pc does not point into the copy"; return 1; }
    printf '%s\n' '#include "ns3/libcc-module.h"' '#include <libcc/libcc.h>' '#include <cstdio>' \
        'int main() { ns3::RdmaNetwork net; std::printf("libcc %s\n", libcc_version()); return 0; }' >p.cc
    g++ -std=c++17 p.cc $(pkg-config --cflags --libs ns3-libcc) -o p && ./p &&
        ldd ./p | grep -q "libns3-libcc.* => $COPY/lib/"
}

# A copy of the whole checkout with its build tree (mtimes kept, as cp -a
# or tar do) is up to date where it lands: nothing in the flags names the
# checkout's path, so `make` there compiles nothing (it rebuilt everything
# when the -ffile-prefix-map of the old path was part of the flags stamp).
checkout_copy_builds_nothing() {
    local rel=${BUILD#"$SRC"/} d=$OUT/checkout
    [ "$rel" != "$BUILD" ] || { echo "skipped: the build tree is outside the checkout"; return 0; }
    rm -rf "$d" && mkdir -p "$d" || return 1
    { (cd "$SRC" && git ls-files -z | tar --null -T - -cf -) | (cd "$d" && tar xf -); } || return 1
    (cd "$SRC" && tar cf - --exclude="$rel/stage" "$rel") | (cd "$d" && tar xf -) || return 1
    make -C "$d" -n all BUILD="$rel" >"$OUT/checkout-make-n.txt" 2>&1 || { tail -3 "$OUT/checkout-make-n.txt"; return 1; }
    local n
    n=$(grep -cE '^(gcc|g\+\+|cc|c\+\+|mpicxx|ar) ' "$OUT/checkout-make-n.txt")
    rm -rf "$d"
    echo "compiler or archiver commands make would run in the copy: $n"
    [ "$n" -eq 0 ]
}

restore() { [ -d "$HIDDEN" ] && mv "$HIDDEN" "$BUILD"; }

run no-absolute-paths no_abs_paths
run checkout-copy-builds-nothing checkout_copy_builds_nothing
run copy copy_tree
# From here the original tree is out of reach.
trap restore EXIT
mv "$BUILD" "$HIDDEN" || exit 1
run loads-copy loads_copy
run pc-builds-from-copy pc_builds
restore
trap - EXIT

summary
