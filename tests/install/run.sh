#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# usage: tests/install/run.sh STAGE OUTDIR
#
# Proves an installed libcc (make install PREFIX=STAGE) is usable by a
# consumer that knows nothing but pkg-config: tiny.c (gcc) and tiny.cpp (g++)
# are built with only `pkg-config --cflags --libs libcc`, against the shared
# library and statically, and run; the shared library must export nothing
# but libcc_* symbols, and the example of docs/libcc-api.md must build and
# run. Ends with "install: N passed, M failed".
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 STAGE OUTDIR" >&2
    exit 2
fi
STAGE=$(cd "$1" && pwd) || exit 2
mkdir -p "$2" || exit 2
OUT=$(cd "$2" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
export PKG_CONFIG_PATH="$STAGE/lib/pkgconfig"
# Only the staged copy may be found: no system libcc.pc.
export PKG_CONFIG_LIBDIR="$STAGE/lib/pkgconfig"

passed=0
failed=0

# run NAME COMMAND...: one check; its output goes to OUTDIR/NAME.log and is
# shown only on failure.
run() {
    local name=$1
    shift
    if "$@" >"$OUT/$name.log" 2>&1; then
        echo "install: $name ok"
        passed=$((passed + 1))
    else
        echo "install: $name FAILED"
        sed 's/^/    /' "$OUT/$name.log"
        failed=$((failed + 1))
    fi
}

# Exactly the flags pkg-config gives; word splitting intended.
shared_flags() { pkg-config --cflags --libs libcc; }
# Static: the same -L and Libs.private, with -lcc pinned to the archive
# (plain -lcc would pick libcc.so when both are installed).
static_flags() {
    pkg-config --cflags libcc
    pkg-config --static --libs libcc | sed -e 's/-lcc\b/-l:libcc.a/'
}

needs_libcc_so() { readelf -d "$1" | grep -q 'NEEDED.*libcc\.so'; }

c_shared() {
    gcc -std=c11 -Wall -Wextra -Werror -pedantic "$HERE/tiny.c" $(shared_flags) -o "$OUT/tiny-c" &&
        needs_libcc_so "$OUT/tiny-c" &&
        LD_LIBRARY_PATH="$STAGE/lib" "$OUT/tiny-c"
}

cxx_shared() {
    g++ -std=c++11 -Wall -Wextra -Werror -pedantic "$HERE/tiny.cpp" $(shared_flags) -o "$OUT/tiny-cpp" &&
        needs_libcc_so "$OUT/tiny-cpp" &&
        LD_LIBRARY_PATH="$STAGE/lib" "$OUT/tiny-cpp"
}

# Static binaries must run with no LD_LIBRARY_PATH and not need libcc.so.
c_static() {
    gcc -std=c11 -Wall -Wextra -Werror -pedantic "$HERE/tiny.c" $(static_flags) -o "$OUT/tiny-c-static" &&
        ! needs_libcc_so "$OUT/tiny-c-static" &&
        env -u LD_LIBRARY_PATH "$OUT/tiny-c-static"
}

cxx_static() {
    g++ -std=c++11 -Wall -Wextra -Werror -pedantic "$HERE/tiny.cpp" $(static_flags) -o "$OUT/tiny-cpp-static" &&
        ! needs_libcc_so "$OUT/tiny-cpp-static" &&
        env -u LD_LIBRARY_PATH "$OUT/tiny-cpp-static"
}

# Every dynamic symbol the library defines is libcc_*, apart from the
# linker's own section markers; and the API is really there (an empty
# list would pass the first test vacuously).
exports() {
    local so="$STAGE/lib/libcc.so" syms foreign
    syms=$(nm -D --defined-only "$so" | awk '{print $3}') || return 1
    foreign=$(printf '%s\n' "$syms" | grep -v -e '^libcc_' -e '^_init$' -e '^_fini$' \
        -e '^_edata$' -e '^_end$' -e '^__bss_start$' -e '^$')
    if [ -n "$foreign" ]; then
        echo "libcc.so exports symbols without the libcc_ prefix:"
        printf '%s\n' "$foreign"
        return 1
    fi
    for s in libcc_version libcc_strerror libcc_rp_new libcc_np_new libcc_cp_new libcc_params_parse; do
        printf '%s\n' "$syms" | grep -qx "$s" || { echo "missing export: $s"; return 1; }
    done
}

# The example program of docs/libcc-api.md builds against the installed
# copy and runs: the reference's example cannot rot.
doc_example() {
    local doc="$HERE/../../docs/libcc-api.md"
    [ -f "$doc" ] || { echo "no $doc"; return 1; }
    awk '/^## Example/ {ex = 1} ex && /^```c$/ {on = 1; next} on && /^```$/ {exit} on {print}' \
        "$doc" >"$OUT/doc-example.c"
    [ -s "$OUT/doc-example.c" ] || { echo "no C block under '## Example' in $doc"; return 1; }
    gcc -std=c11 -Wall -Wextra -Werror "$OUT/doc-example.c" $(shared_flags) -o "$OUT/doc-example" &&
        LD_LIBRARY_PATH="$STAGE/lib" "$OUT/doc-example" >"$OUT/doc-example.out" &&
        cat "$OUT/doc-example.out" &&
        grep -q '^final rate ' "$OUT/doc-example.out"
}

# The .pc version is the installed header's version.
pc_version() {
    local hdr pc
    hdr=$(sed -n 's/^#define LIBCC_VERSION "\(.*\)"/\1/p' "$STAGE/include/libcc/version.h")
    pc=$(pkg-config --modversion libcc)
    echo "header $hdr, pkg-config $pc"
    [ -n "$hdr" ] && [ "$hdr" = "$pc" ]
}

run pc-version pc_version
run c-shared c_shared
run c++-shared cxx_shared
run c-static c_static
run c++-static cxx_static
run exports exports
run doc-example doc_example

echo "install: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
