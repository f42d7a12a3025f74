#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# usage: tests/install/run.sh STAGE OUTDIR [MAKE...]
#
# Proves an installed libcc (make install PREFIX=STAGE) is usable by a
# consumer that knows nothing but pkg-config: tiny.c (gcc) and tiny.cpp (g++)
# are built with only `pkg-config --cflags --libs libcc`, against the shared
# library and statically, and run; the shared library must export nothing
# but libcc_* symbols, and the example of docs/libcc-api.md must build and
# run.
#
# When the ns-3 bindings were installed too: the program and CMakeLists.txt
# of docs/ns3-bindings.md ("Using the bindings") are built in OUTDIR,
# outside the tree, once with pkg-config (ns3-libcc.pc) and once with CMake
# (find_package(libcc) beside Debian's find_package(ns3)), and run: FNCC on
# their own dumbbell, the FCT within 1% of the ideal derived by hand. The
# bindings must link libcc.so, not carry libcc; installed header names must
# not be Debian's ns-3 ones.
#
# When ns-3's MPI module was installed too (ns3-libcc-mpi.pc): the smoke
# program of make test-mpi (tests/mpi/mpi-smoke.cc) is built in OUTDIR once
# with pkg-config ns3-libcc-mpi and once with the CMakeLists.txt of
# docs/ns3-bindings.md (ns3::libcc-mpi), each run as a 2-rank job through
# scripts/mpirun.sh, every hand-derived check ok on both ranks.
#
# The worked plugin of examples/plugin/ (docs/writing-an-algorithm.md) is
# built in OUTDIR from its own Makefile (pkg-config) and CMakeLists.txt
# (find_package(libcc), libcc::headers), against the stage only; with
# LIBCC_BIN (the tree's ns-3 programs) the dumbbell runs each build: one
# flow alone, never marked, stays at line rate, derived by hand: a
# 1000-byte payload is 1094 line bytes (docs/ns3-bindings.md, framing),
# 87.52 ns at 100 Gbps, which the sender's pacer, waking on the programs'
# 1 ns time step and never early, spaces by 88 ns: 8000 bits / 88 ns =
# 90.91 Gbps of goodput.
#
# With MAKE (the command running this tree's Makefile), also: an install
# with DESTDIR and LIBDIR set is the same file list, relocated, and usable;
# `make uninstall` leaves no file in either prefix (this runs last: STAGE is
# empty afterwards). Ends with "install: N passed, M failed".
set -u

if [ $# -lt 2 ]; then
    echo "usage: $0 STAGE OUTDIR [MAKE...]" >&2
    exit 2
fi
STAGE=$(cd "$1" && pwd) || exit 2
mkdir -p "$2" || exit 2
OUT=$(cd "$2" && pwd)
shift 2
MAKE_CMD=("$@")
HERE=$(cd "$(dirname "$0")" && pwd)
DOCS=$(cd "$HERE/../../docs" && pwd)
export PKG_CONFIG_PATH="$STAGE/lib/pkgconfig"
# Only the staged copy of libcc may be found: the stage first, then only
# the system's own directories (Debian's ns3-*.pc), no PKG_CONFIG_PATH.
export PKG_CONFIG_LIBDIR="$STAGE/lib/pkgconfig:$(pkg-config --variable pc_path pkg-config)"

SUITE=install
# shellcheck source=checks.sh
. "$HERE/checks.sh"

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

# ---- the ns-3 bindings --------------------------------------------------------
have_ns3() { [ -f "$STAGE/lib/pkgconfig/ns3-libcc.pc" ]; }

# doc_file NAME DEST: the fenced block after "<!-- file: NAME -->" in
# docs/ns3-bindings.md, so the documented example is the tested one.
doc_file() {
    awk -v want="<!-- file: $1 -->" '
        $0 == want {armed = 1; next}
        armed && /^```/ && !on {on = 1; next}
        on && /^```$/ {exit}
        on {print}' "$DOCS/ns3-bindings.md" >"$2"
    [ -s "$2" ] || { echo "no block for $1 in docs/ns3-bindings.md"; return 1; }
}

# The bindings need libcc.so and define none of libcc's symbols.
ns3_links_libcc() {
    local so="$STAGE/lib/libns3-libcc.so"
    readelf -d "$so" | grep -q 'NEEDED.*\[libcc\.so\.' || { echo "libns3-libcc.so does not need libcc.so"; return 1; }
    if nm -D --defined-only "$so" | awk '{print $3}' | grep -q '^libcc_'; then
        echo "libns3-libcc.so defines libcc_* symbols (libcc embedded):"
        nm -D --defined-only "$so" | grep ' libcc_' | head
        return 1
    fi
    readelf -d "$so" | grep SONAME
}

# Installed as ns3/<name>.h; none is a header of Debian's ns-3 (which shares
# include/ns3 when PREFIX=/usr); a module header names every one:
# libcc-module.h, or mpi-module.h for ns-3's MPI module (when installed).
ns3_headers() {
    local h b n=0 sys=/usr/include/ns3 modules=("$STAGE/include/ns3/libcc-module.h")
    have_mpi && modules+=("$STAGE/include/ns3/mpi-module.h")
    for h in "$STAGE"/include/ns3/*.h; do
        n=$((n + 1))
        b=$(basename "$h")
        if [ -e "$sys/$b" ]; then
            echo "clash: $b is also $sys/$b"
            return 1
        fi
        case $b in libcc-module.h | mpi-module.h) continue ;; esac
        grep -q "\"ns3/$b\"" "${modules[@]}" || { echo "no module header names $b"; return 1; }
    done
    echo "$n headers in include/ns3, no clash with $sys"
}

# check_flow OUTPUT STATUS: the program's line, "ok" (and status 0) only if
# the FCT is within 1% of the hand-derived ideal.
check_flow() {
    cat "$1"
    [ "$2" -eq 0 ] && grep -q '^fncc flow: FCT [0-9]* ns, ideal 95710 ns .*: ok$' "$1"
}

ns3_pkgconfig() {
    local d="$OUT/pkgconfig"
    rm -rf "$d" && mkdir -p "$d" && cd "$d" || return 1
    doc_file fncc-flow.cc fncc-flow.cc || return 1
    # The command of docs/ns3-bindings.md, plus -Werror.
    g++ -std=c++17 -Wall -Werror fncc-flow.cc $(pkg-config --cflags --libs ns3-libcc) -o fncc-flow || return 1
    readelf -d fncc-flow | grep -q 'NEEDED.*libns3-libcc\.so\.' || { echo "not linked to libns3-libcc.so"; return 1; }
    # Both libraries resolve into the stage.
    LD_LIBRARY_PATH="$STAGE/lib" ldd ./fncc-flow | grep -E 'libns3-libcc|libcc\.so' | tee ldd.txt
    [ "$(grep -c "=> $STAGE/lib/" ldd.txt)" -eq 2 ] || { echo "libraries not from $STAGE/lib"; return 1; }
    LD_LIBRARY_PATH="$STAGE/lib" ./fncc-flow >out.txt
    check_flow out.txt $?
}

ns3_cmake() {
    local d="$OUT/cmake"
    rm -rf "$d" && mkdir -p "$d" && cd "$d" || return 1
    doc_file fncc-flow.cc fncc-flow.cc && doc_file CMakeLists.txt CMakeLists.txt || return 1
    cmake -S . -B build -DCMAKE_PREFIX_PATH="$STAGE" -DCMAKE_CXX_FLAGS="-Wall -Werror" >cmake.log 2>&1 ||
        { cat cmake.log; return 1; }
    cmake --build build >build.log 2>&1 || { cat build.log; return 1; }
    # CMake puts the stage's lib directory in the build tree's RUNPATH.
    ./build/fncc-flow >out.txt
    check_flow out.txt $?
}

# examples/minimal/minimal.cc with the command line in its header comment.
ns3_minimal() {
    local d="$OUT/minimal" cmd
    rm -rf "$d" && mkdir -p "$d" && cd "$d" || return 1
    cp "$HERE/../../examples/minimal/minimal.cc" . || return 1
    cmd=$(sed -n 's|^//   \(g++ .*pkg-config.*\)$|\1|p' minimal.cc)
    [ -n "$cmd" ] || { echo "no g++ line in minimal.cc"; return 1; }
    echo "$cmd"
    eval "$cmd" && LD_LIBRARY_PATH="$STAGE/lib" ./minimal --algo=fncc --size=100000 | tee out.txt &&
        grep -q '^flow 0: 100000 bytes' out.txt
}

# ---- ns-3's MPI module ----------------------------------------------------------
have_mpi() { [ -f "$STAGE/lib/pkgconfig/ns3-libcc-mpi.pc" ]; }
# shellcheck source=../mpi/smoke-job.sh
. "$HERE/../mpi/smoke-job.sh"

# The command of docs/ns3-bindings.md, plus -Werror; the libraries from the stage.
mpi_pkgconfig() {
    local d="$OUT/mpi-pkgconfig"
    rm -rf "$d" && mkdir -p "$d" && cd "$d" || return 1
    cp "$HERE/../mpi/mpi-smoke.cc" . || return 1
    g++ -std=c++17 -Wall -Werror mpi-smoke.cc $(pkg-config --cflags --libs ns3-libcc-mpi) -o mpi-smoke || return 1
    LD_LIBRARY_PATH="$STAGE/lib" ldd ./mpi-smoke | grep 'libns3-libcc-mpi' | tee ldd.txt
    grep -q "=> $STAGE/lib/libns3-libcc-mpi\.so" ldd.txt || { echo "libns3-libcc-mpi not from $STAGE/lib"; return 1; }
    smoke_job ns3::DistributedSimulatorImpl env LD_LIBRARY_PATH="$STAGE/lib" ./mpi-smoke
}

mpi_cmake() {
    local d="$OUT/mpi-cmake"
    rm -rf "$d" && mkdir -p "$d" && cd "$d" || return 1
    cp "$HERE/../mpi/mpi-smoke.cc" . && doc_file mpi-smoke/CMakeLists.txt CMakeLists.txt || return 1
    cmake -S . -B build -DCMAKE_PREFIX_PATH="$STAGE" -DCMAKE_CXX_FLAGS="-Wall -Werror" >cmake.log 2>&1 ||
        { cat cmake.log; return 1; }
    cmake --build build >build.log 2>&1 || { cat build.log; return 1; }
    smoke_job ns3::NullMessageSimulatorImpl ./build/mpi-smoke
}

# libcc::libcc from CMake: the C program tiny.c (a project of its own).
c_cmake() {
    local d="$OUT/cmake-c"
    rm -rf "$d" && mkdir -p "$d" && cd "$d" || return 1
    cp "$HERE/tiny.c" . && cat >CMakeLists.txt <<'CMK'
cmake_minimum_required(VERSION 3.16)
project(tiny C)
find_package(libcc 0.4 REQUIRED)
add_executable(tiny tiny.c)
target_link_libraries(tiny PRIVATE libcc::libcc)
add_executable(tiny-static tiny.c)
target_link_libraries(tiny-static PRIVATE libcc::libcc_static)
CMK
    cmake -S . -B build -DCMAKE_PREFIX_PATH="$PREFIX_FOR_CMAKE" >cmake.log 2>&1 || { cat cmake.log; return 1; }
    cmake --build build >build.log 2>&1 || { cat build.log; return 1; }
    ./build/tiny && ./build/tiny-static && ! needs_libcc_so build/tiny-static
}

# ---- the worked plugin (examples/plugin/) ----------------------------------------
EXAMPLES=$(cd "$HERE/../../examples" && pwd)

# A plugin defines its entry point and no libcc_* function, and needs no
# libcc.so: the program that loads it brings libcc.
plugin_symbols() {
    local so=$1
    nm -D --defined-only "$so" | awk '{print $3}' | grep -qx libcc_plugin_init ||
        { echo "$so does not export libcc_plugin_init"; return 1; }
    if nm -D --defined-only "$so" | awk '{print $3}' | grep '^libcc_' | grep -vqx libcc_plugin_init; then
        echo "$so defines libcc functions (libcc built in)"; return 1
    fi
    if readelf -d "$so" | grep -q 'NEEDED.*libcc\.so'; then
        echo "$so needs libcc.so (a second libcc beside the program's)"; return 1
    fi
}

# plugin_runs SO DIR: the dumbbell with the plugin, flow0 alone (flow1
# starts after the end): its goodput over the last 100 us within 0.5% of
# one 1000-byte payload per 88 ns (above).
plugin_runs() {
    local so=$1 d=$2
    [ -n "${LIBCC_BIN:-}" ] || { echo "plugin built; LIBCC_BIN not set: not run"; return 0; }
    "$LIBCC_BIN/dumbbell" --plugin="$so" --algo=aimd-ecn --flow1Start=2ms --stop=1ms \
        --traces=false --out="$d/run" >"$d/run.txt" || { cat "$d/run.txt"; return 1; }
    awk -F= -v want="$(awk 'BEGIN {printf "%.4f", 1000 * 8 / 88}')" '
        $1 == "algorithm" {algo = $2}
        $1 == "flow0_goodput_end_gbps" {g = $2}
        END {
            ok = algo == "aimd-ecn" && g >= want * 0.995 && g <= want * 1.005
            printf "aimd-ecn alone: goodput %s Gbps, by hand %s Gbps: %s\n", g, want, ok ? "ok" : "FAILED"
            exit !ok
        }' "$d/run.txt"
}

plugin_pkgconfig() {
    local d="$OUT/plugin-pkgconfig"
    rm -rf "$d" && mkdir -p "$d" && cd "$d" || return 1
    cp "$EXAMPLES/plugin/aimd-ecn.c" "$EXAMPLES/plugin/Makefile" . || return 1
    make CFLAGS="-O2 -Werror" >build.log 2>&1 || { cat build.log; return 1; }
    grep -q -- "-I$STAGE/include" build.log || { echo "not built with the stage's headers:"; cat build.log; return 1; }
    plugin_symbols aimd-ecn.so && plugin_runs "$d/aimd-ecn.so" "$d"
}

plugin_cmake() {
    local d="$OUT/plugin-cmake"
    rm -rf "$d" && mkdir -p "$d" && cd "$d" || return 1
    cp "$EXAMPLES/plugin/aimd-ecn.c" "$EXAMPLES/plugin/CMakeLists.txt" . || return 1
    cmake -S . -B build -DCMAKE_PREFIX_PATH="$STAGE" -DCMAKE_C_FLAGS="-Werror" >cmake.log 2>&1 ||
        { cat cmake.log; return 1; }
    cmake --build build --verbose >build.log 2>&1 || { cat build.log; return 1; }
    grep -q -- "-I$STAGE/include\|-isystem $STAGE/include" build.log ||
        { echo "not built with the stage's headers:"; cat build.log; return 1; }
    plugin_symbols build/aimd-ecn.so && plugin_runs "$d/build/aimd-ecn.so" "$d"
}

# ---- make install DESTDIR= LIBDIR=, make uninstall ------------------------------
files_of() { (cd "$1" && find . \( -type f -o -type l \) | sort); }

# PREFIX=/opt/libcc-test LIBDIR=.../lib/<multiarch> (Debian's layout)
# staged under DESTDIR: the same files (lib/ -> lib/<multiarch>/), .pc
# files naming the final paths, and the CMake package still usable from
# the staged copy (its paths are relative to itself); then uninstall with
# the same variables leaves no file.
destdir() {
    local dd="$OUT/destdir" p=/opt/libcc-test ma
    ma=$(gcc -print-multiarch)
    [ -n "$ma" ] || ma=lib64
    rm -rf "$dd"
    "${MAKE_CMD[@]}" install PREFIX=$p LIBDIR=$p/lib/$ma DESTDIR="$dd" >"$OUT/destdir-make.log" 2>&1 ||
        { cat "$OUT/destdir-make.log"; return 1; }
    diff <(files_of "$STAGE" | sed "s|^\./lib/|./lib/$ma/|" | sort) <(files_of "$dd$p") || return 1
    grep -qx "libdir=$p/lib/$ma" "$dd$p/lib/$ma/pkgconfig/libcc.pc" || { echo "libcc.pc libdir"; return 1; }
    grep -qx "prefix=$p" "$dd$p/lib/$ma/pkgconfig/ns3-libcc.pc" || { echo "ns3-libcc.pc prefix"; return 1; }
    PREFIX_FOR_CMAKE="$dd$p" c_cmake || return 1
    "${MAKE_CMD[@]}" uninstall PREFIX=$p LIBDIR=$p/lib/$ma DESTDIR="$dd" >>"$OUT/destdir-make.log" 2>&1 || return 1
    [ -z "$(files_of "$dd")" ] || { echo "left after uninstall:"; files_of "$dd"; return 1; }
    echo "DESTDIR=$dd PREFIX=$p LIBDIR=$p/lib/$ma: same files, usable, uninstalled"
}

uninstall() {
    local n
    n=$(files_of "$STAGE" | wc -l)
    "${MAKE_CMD[@]}" uninstall PREFIX="$STAGE" >"$OUT/uninstall.log" 2>&1 || { cat "$OUT/uninstall.log"; return 1; }
    if [ -n "$(files_of "$STAGE")" ]; then
        echo "left after make uninstall:"
        files_of "$STAGE"
        return 1
    fi
    echo "$n files and links installed, none left; directories left: $(cd "$STAGE" && find . -mindepth 1 -type d | sort | tr '\n' ' ')"
}

run pc-version pc_version
run c-shared c_shared
run c++-shared cxx_shared
run c-static c_static
run c++-static cxx_static
run exports exports
run doc-example doc_example
PREFIX_FOR_CMAKE="$STAGE" run c-cmake c_cmake
run plugin-pkgconfig plugin_pkgconfig
run plugin-cmake plugin_cmake
if have_ns3; then
    run ns3-links-libcc ns3_links_libcc
    run ns3-headers ns3_headers
    run ns3-pkgconfig ns3_pkgconfig
    run ns3-cmake ns3_cmake
    run ns3-minimal ns3_minimal
    if have_mpi; then
        run mpi-pkgconfig mpi_pkgconfig
        run mpi-cmake mpi_cmake
    else
        echo "install: ns-3's MPI module was not installed: its checks skipped"
    fi
else
    echo "install: the ns-3 bindings were not installed (no ns-3): their checks skipped"
fi
if [ ${#MAKE_CMD[@]} -gt 0 ]; then
    run destdir destdir
    run uninstall uninstall
fi

summary
