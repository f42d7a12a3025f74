# libcc: top-level build. `make demo` and `make test` each work alone on a
# fresh Debian 12 machine: both depend on `deps`, which installs what is missing.
# `make` and `make install` never install packages or run tests.
#
#   make            libcc.a, libcc.so, tools, ns-3 bindings, ns-3's MPI module (with ns-3),
#                   self-contained programs in build/bin/static (ns-3 linked in)
#   make test       every suite, normally and under ASan+UBSan
#   make demo       the main demo
#   make bench      benchmarks into docs/performance.md
#   make fuzz       libFuzzer harnesses, FUZZ_SECONDS=60 each (docs/fuzzing.md)
#   make install PREFIX=/usr/local [LIBDIR=$(PREFIX)/lib] [DESTDIR=]    (uninstall: the same)
#   make test-contrib   the bindings as a contrib module of Debian's ns-3 source (slow)
#
# Honoured from the command line or the environment: CC CXX CPPFLAGS CFLAGS
# CXXFLAGS LDFLAGS DESTDIR PKG_CONFIG; WERROR=1 adds -Werror (CI sets it).
# Changing any of them rebuilds everything ($(BUILD)/flags.stamp).

PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR ?= $(PREFIX)/bin
DESTDIR ?=
BUILD ?= build

# make's built-in defaults (cc, g++) are replaced by gcc/g++; anything set
# on the command line or in the environment is kept.
ifeq ($(origin CC),default)
CC := gcc
endif
ifeq ($(origin CXX),default)
CXX := g++
endif
CFLAGS ?= -O2 -g
CXXFLAGS ?= -O2 -g
CPPFLAGS ?=
LDFLAGS ?=
PKG_CONFIG ?= pkg-config
WERROR ?=

VERSION := $(shell sed -n 's/^\#define LIBCC_VERSION "\(.*\)"/\1/p' libcc/include/libcc/version.h)
SOVERSION := $(firstword $(subst ., ,$(VERSION)))

# No absolute path of this checkout in any binary (debug info, __FILE__): a
# build tree may be copied or moved (and is tested so by test-relocate).
PREFIX_MAP := -ffile-prefix-map=$(CURDIR)=.
WARN := -Wall -Wextra $(if $(filter 1 yes true,$(WERROR)),-Werror)
# Every C file of the tree: $(C_STD) <what is its own> $(C_USER), the user's
# flags last so they can override ours (the sanitizer build's -O1 after them).
C_STD = -std=c11 $(WARN) $(PREFIX_MAP)
C_USER = $(CPPFLAGS) $(CFLAGS)
LIBCC_CFLAGS = $(C_STD) -fPIC -fvisibility=hidden -DLIBCC_BUILDING -Ilibcc/include -Ilibcc/src $(C_USER)
# float-cast-overflow is not part of GCC's -fsanitize=undefined: a double too large
# for a uint64_t is undefined behaviour libcc must not have (issue #11).
SAN_FLAGS := -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all -fno-omit-frame-pointer
SAN_CFLAGS = $(C_STD) -DLIBCC_BUILDING -Ilibcc/include -Ilibcc/src $(C_USER) -O1 $(SAN_FLAGS)
# Programs in $(BUILD)/bin, $(BUILD)/tests, $(BUILD)/bench find the tree's
# shared libraries relative to themselves.
RPATH_BIN := -Wl,-rpath,'$$ORIGIN/../lib'

# Every flag that changes what is built, in one file; objects depend on it,
# so a change rebuilds (and an unchanged make rebuilds nothing).
FLAGS_STAMP := $(BUILD)/flags.stamp
# PREFIX_MAP is left out: it maps whatever the checkout's path is to ".",
# so a copied or moved checkout builds the same objects and must not rebuild.
FLAGS_TEXT := CC=$(CC) CXX=$(CXX) CPPFLAGS=$(CPPFLAGS) CFLAGS=$(CFLAGS) CXXFLAGS=$(CXXFLAGS) \
              LDFLAGS=$(LDFLAGS) WERROR=$(WERROR) PKG_CONFIG=$(PKG_CONFIG) \
              NS3_LOG_ENABLE=$(NS3_LOG_ENABLE)
ifneq ($(file <$(FLAGS_STAMP)),$(FLAGS_TEXT))
$(shell mkdir -p $(BUILD))
$(file >$(FLAGS_STAMP),$(FLAGS_TEXT))
endif

LIB_SRCS := $(sort $(wildcard libcc/src/*.c libcc/src/algo/*.c))
LIB_PUB_HDRS := $(wildcard libcc/include/libcc/*.h)
LIB_HDRS := $(LIB_PUB_HDRS) $(wildcard libcc/src/*.h libcc/src/algo/*.h)
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
SAN_OBJS := $(LIB_SRCS:%.c=$(BUILD)/san/%.o)

STATIC_LIB := $(BUILD)/lib/libcc.a
# What libcc itself links: libm, and dlopen (libcc_plugin_load) and
# pthreads (the algorithm registry's lock), both in libc since glibc 2.34
# but named for older ones (and in libcc.pc's Libs.private).
LIBCC_LIBS := -lm -ldl -lpthread
SHARED_LIB := $(BUILD)/lib/libcc.so.$(VERSION)
SAN_LIB := $(BUILD)/san/libcc-san.a

# The build tree is laid out like an installed prefix: $(BUILD)/include
# (copies of the public headers), $(BUILD)/lib (libraries, pkgconfig/,
# cmake/libcc/). Its .pc and CMake files name paths relative to themselves.
BUILD_INC := $(BUILD)/include
LIBCC_BUILD_HDRS := $(LIB_PUB_HDRS:libcc/include/%=$(BUILD_INC)/%)
LIBCC_PC := $(BUILD)/lib/pkgconfig/libcc.pc
CMAKE_PKG := $(BUILD)/lib/cmake/libcc/libccConfig.cmake $(BUILD)/lib/cmake/libcc/libccConfigVersion.cmake

# Command-line tools: libcc/tools/<name>.c -> build/bin/<name>
TOOL_SRCS := $(wildcard libcc/tools/*.c)
TOOLS := $(TOOL_SRCS:libcc/tools/%.c=$(BUILD)/bin/%)
# The property checks libcc-conformance runs and tests/check links too
# (docs/conformance.md): one implementation for both.
CONF_SRCS := $(wildcard libcc/tools/conformance/*.c)
CONF_HDRS := $(wildcard libcc/tools/conformance/*.h)
TOOL_CFLAGS = $(C_STD) -D_POSIX_C_SOURCE=200809L -Ilibcc/include $(C_USER)
# The tools carry all of libcc and export its API (-rdynamic): a plugin they
# load binds to that copy, whatever the tool itself calls.
TOOL_LIBCC = -rdynamic -Wl,--whole-archive $(STATIC_LIB) -Wl,--no-whole-archive

# Check suites: tests/check/check_<module>.c exports `Suite *<module>_suite(void)`.
CHECK_SRCS := $(filter-out tests/check/check_main.c,$(wildcard tests/check/check_*.c))
CHECK_NAMES := $(CHECK_SRCS:tests/check/check_%.c=%)
CHECK_HELPERS := $(filter-out tests/check/check_%.c,$(wildcard tests/check/*.c))
# Test plugins (tests/check/plugins/<name>.c -> $(BUILD)/tests/plugins/<name>.so),
# built as a user builds one: against the public headers, not linked with
# libcc (the program that loads them provides it).
CHECK_PLUGIN_SRCS := $(wildcard tests/check/plugins/*.c)
CHECK_PLUGINS := $(CHECK_PLUGIN_SRCS:tests/check/plugins/%.c=$(BUILD)/tests/plugins/%.so)
CHECK_CFLAGS := $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
CHECK_LIBS := $(shell $(PKG_CONFIG) --libs check 2>/dev/null || echo -lcheck) $(LIBCC_LIBS)
TEST_CFLAGS = $(C_STD) -D_POSIX_C_SOURCE=200809L \
              -Ilibcc/include -Ilibcc/src -Itests/check -Ilibcc/tools/conformance \
              -I$(BUILD)/gen \
              $(C_USER)

.PHONY: all lib tools deps paper test test-docs test-python test-slurm test-static test-check test-check-san test-conformance test-install test-ns3 test-examples test-errors demo bench bench-libcc \
        install install-lib uninstall clean format help test-relocate test-contrib

all: lib tools ns3

# The comment block this file starts with, however long it grows.
help:
	@sed -n '/^#/!q; s/^# \{0,1\}//p' Makefile

deps:
	@bash scripts/deps.sh $(NS3_SRC_DIR)

lib: $(STATIC_LIB) $(SHARED_LIB) $(LIBCC_BUILD_HDRS) $(LIBCC_PC) $(CMAKE_PKG)

tools: $(TOOLS)

$(BUILD)/obj/%.o: %.c $(LIB_HDRS) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(LIBCC_CFLAGS) -c $< -o $@

$(BUILD)/san/%.o: %.c $(LIB_HDRS) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(SAN_CFLAGS) -c $< -o $@

$(STATIC_LIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# -Bsymbolic-functions: libcc's calls to its own exported functions (the
# INT list's wrap-around difference per hop of an HPCC ACK, the CP's INT
# record per stamped packet) are direct calls, not through the PLT.
$(SHARED_LIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,libcc.so.$(SOVERSION) -Wl,-Bsymbolic-functions \
	  -Wl,--no-undefined -o $@ $^ $(LIBCC_LIBS)
	ln -sf libcc.so.$(VERSION) $(BUILD)/lib/libcc.so.$(SOVERSION)
	ln -sf libcc.so.$(SOVERSION) $(BUILD)/lib/libcc.so

$(SAN_LIB): $(SAN_OBJS)
	rm -f $@ && ar rcs $@ $^

$(BUILD_INC)/libcc/%.h: libcc/include/libcc/%.h
	@mkdir -p $(dir $@)
	cp $< $@

# -rdynamic: the tools link libcc.a, and a plugin they load binds to that
# copy of libcc (its registry), so they export its symbols.
$(BUILD)/bin/%: libcc/tools/%.c $(STATIC_LIB) $(LIB_HDRS) $(wildcard libcc/tools/*.h) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(TOOL_CFLAGS) $(LDFLAGS) -o $@ $< $(TOOL_LIBCC) $(LIBCC_LIBS)

$(BUILD)/bin/libcc-conformance: libcc/tools/libcc-conformance.c $(CONF_SRCS) $(CONF_HDRS) $(STATIC_LIB) $(LIB_HDRS) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(TOOL_CFLAGS) $(LDFLAGS) -o $@ $< $(CONF_SRCS) $(TOOL_LIBCC) $(LIBCC_LIBS)

# ---- pkg-config and CMake files ---------------------------------------------
# gen_file TEMPLATE OUT PREFIX LIBDIR INCLUDEDIR [RPATH]: fill a template. In the
# build tree PREFIX is ${pcfiledir}/../.. (pkg-config's own variable), so a
# copied tree's .pc points into the copy. CMake files get the paths of the
# library and include directories relative to the CMake file's directory.
# $(call cmake_rel,FROM,TO)
cmake_rel = $(shell realpath -m --relative-to='$(1)' '$(2)')
define gen_file
	@mkdir -p $(dir $(2))
	sed -e 's|@PREFIX@|$(3)|g' -e 's|@LIBDIR@|$(4)|g' -e 's|@INCLUDEDIR@|$(5)|g' \
	    -e 's|@VERSION@|$(VERSION)|g' -e 's|@SOVERSION@|$(SOVERSION)|g' \
	    -e 's|@RPATH@|$(6)|g' \
	    -e 's|@CMAKE_REL_LIBDIR@|$(call cmake_rel,$(4)/cmake/libcc,$(4))|g' \
	    -e 's|@CMAKE_REL_INCLUDEDIR@|$(call cmake_rel,$(4)/cmake/libcc,$(5))|g' \
	    $(1) > $(2).tmp && mv $(2).tmp $(2)
endef
PC_BUILD_PREFIX := $${pcfiledir}/../..
comma := ,

$(LIBCC_PC): libcc/libcc.pc.in Makefile
	$(call gen_file,$<,$@,$(PC_BUILD_PREFIX),$${prefix}/lib,$${prefix}/include,-Wl$(comma)-rpath$(comma)$${libdir})

# For the CMake files only the relative paths matter; /BUILD stands for the tree.
$(BUILD)/lib/cmake/libcc/%.cmake: cmake/%.cmake.in Makefile
	$(call gen_file,$<,$@,/BUILD,/BUILD/lib,/BUILD/include)

# ---- Check ----------------------------------------------------------------
$(BUILD)/gen/check_suites.h: $(CHECK_SRCS) Makefile
	@mkdir -p $(dir $@)
	@printf '/* generated by the Makefile from tests/check/check_*.c */\n' > $@.tmp
	@for n in $(CHECK_NAMES); do printf 'LIBCC_SUITE(%s)\n' $$n >> $@.tmp; done
	@mv $@.tmp $@

CHECK_ALL_SRCS = tests/check/check_main.c $(CHECK_SRCS) $(CHECK_HELPERS) $(CONF_SRCS)

$(BUILD)/tests/plugins/%.so: tests/check/plugins/%.c $(LIB_PUB_HDRS) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(C_STD) -fPIC -shared -Ilibcc/include $(C_USER) $(LDFLAGS) -o $@ $<

$(BUILD)/tests/check_libcc: $(CHECK_ALL_SRCS) $(BUILD)/gen/check_suites.h $(STATIC_LIB) $(wildcard tests/check/*.h) $(CONF_HDRS) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) $(CHECK_CFLAGS) $(LDFLAGS) -rdynamic -o $@ $(CHECK_ALL_SRCS) $(STATIC_LIB) $(CHECK_LIBS)

$(BUILD)/tests/check_libcc_san: $(CHECK_ALL_SRCS) $(BUILD)/gen/check_suites.h $(SAN_LIB) $(wildcard tests/check/*.h) $(CONF_HDRS) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -O1 $(SAN_FLAGS) $(CHECK_CFLAGS) $(LDFLAGS) -rdynamic -o $@ $(CHECK_ALL_SRCS) $(SAN_LIB) $(CHECK_LIBS)

# The runners export libcc's symbols (-rdynamic): plugins bind to the copy
# of libcc linked into them, as in any program that links libcc.a.
test-check: $(BUILD)/tests/check_libcc tools $(CHECK_PLUGINS)
	LIBCC_TOOLS=$(BUILD)/bin LIBCC_SRCDIR=$(CURDIR) LIBCC_TEST_PLUGINS=$(BUILD)/tests/plugins $(BUILD)/tests/check_libcc

# CK_FORK=no: ASan and fork()ed children disagree about leaks; one process is simpler.
test-check-san: $(BUILD)/tests/check_libcc_san tools $(CHECK_PLUGINS)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	CK_FORK=no LIBCC_TOOLS=$(BUILD)/bin LIBCC_SRCDIR=$(CURDIR) LIBCC_TEST_PLUGINS=$(BUILD)/tests/plugins \
	$(BUILD)/tests/check_libcc_san

# libcc-conformance over every registered algorithm (docs/conformance.md):
# CONFORMANCE_EVENTS RP events each (NP and CP a quarter), seed 1, about 10 s
# on one core; a failing run's replay script goes to $(BUILD).
CONFORMANCE_EVENTS ?= 1000000
test-conformance: $(BUILD)/bin/libcc-conformance
	@$(BUILD)/bin/libcc-conformance --events=$(CONFORMANCE_EVENTS) --seed=1 --trace-dir=$(BUILD)

# No global mutable state in libcc but the algorithm registry, checked on
# the objects themselves; no algorithm name (so no congestion-control
# decision) in the ns-3 bindings; built-in modules use only the accessors of
# <libcc/algorithm.h>; 0.4-era uses of the renamed INT list field fail to
# compile.
# The C programs of README and docs/, built from the pages and run: their
# output must be the ```output block the page shows; docs/design.md's map
# of the folders names every folder of ns3-bindings/ (tests/docs).
test-docs: lib
	@$(firstword $(wildcard /usr/bin/python3) python3) tests/docs/check_examples.py $(BUILD) $(BUILD)/docs-examples
	@$(firstword $(wildcard /usr/bin/python3) python3) tests/docs/check_folder_map.py

test-static: $(LIB_OBJS)
	@bash tests/static/no-mutable-globals.sh $(LIB_OBJS)
	@bash tests/static/no-algorithm-names.sh
	@bash tests/static/module-view.sh $(CC)
	@bash tests/static/renamed-fields.sh $(CC)

# ---- install, uninstall ------------------------------------------------------
# Installs what `make` built (it builds nothing but the .pc and CMake files,
# which name PREFIX and are written by every install). The bindings' part
# (install-ns3, uninstall-ns3 in ns3-bindings/ns3.mk) only when ns-3 is there.
INST_INC := $(DESTDIR)$(INCLUDEDIR)
INST_LIB := $(DESTDIR)$(LIBDIR)
INST_BIN := $(DESTDIR)$(BINDIR)
INST_GEN := $(BUILD)/install-files

install: install-lib

# Every file install-lib puts under the prefix, named once: uninstall
# removes exactly these (test-install checks that nothing is left).
LIB_INST_FILES := $(addprefix $(INST_INC)/libcc/,$(notdir $(LIB_PUB_HDRS))) \
                  $(addprefix $(INST_LIB)/,libcc.a libcc.so.$(VERSION) libcc.so.$(SOVERSION) libcc.so) \
                  $(INST_LIB)/pkgconfig/libcc.pc \
                  $(addprefix $(INST_LIB)/cmake/libcc/,libccConfig.cmake libccConfigVersion.cmake) \
                  $(addprefix $(INST_BIN)/,$(notdir $(TOOLS)))

install-lib: lib tools
	$(call gen_file,libcc/libcc.pc.in,$(INST_GEN)/libcc.pc,$(PREFIX),$(LIBDIR),$(INCLUDEDIR))
	$(call gen_file,cmake/libccConfig.cmake.in,$(INST_GEN)/libccConfig.cmake,$(PREFIX),$(LIBDIR),$(INCLUDEDIR))
	$(call gen_file,cmake/libccConfigVersion.cmake.in,$(INST_GEN)/libccConfigVersion.cmake,$(PREFIX),$(LIBDIR),$(INCLUDEDIR))
	install -d $(INST_INC)/libcc $(INST_LIB)/pkgconfig $(INST_LIB)/cmake/libcc $(INST_BIN)
	install -m 644 $(LIB_PUB_HDRS) $(INST_INC)/libcc/
	install -m 644 $(STATIC_LIB) $(INST_LIB)/
	install -m 755 $(SHARED_LIB) $(INST_LIB)/
	ln -sf libcc.so.$(VERSION) $(INST_LIB)/libcc.so.$(SOVERSION)
	ln -sf libcc.so.$(SOVERSION) $(INST_LIB)/libcc.so
	install -m 644 $(INST_GEN)/libcc.pc $(INST_LIB)/pkgconfig/
	install -m 644 $(INST_GEN)/libccConfig.cmake $(INST_GEN)/libccConfigVersion.cmake $(INST_LIB)/cmake/libcc/
	$(if $(TOOLS),install -m 755 $(TOOLS) $(INST_BIN)/)

# Removes exactly what install put there (never a whole shared directory
# such as include/ns3, which Debian's ns-3 headers share when PREFIX=/usr),
# then our own directories if they are empty.
uninstall: uninstall-ns3
	rm -f $(LIB_INST_FILES)
	-rmdir $(INST_INC)/libcc $(INST_LIB)/cmake/libcc 2>/dev/null
	-rmdir $(INST_LIB)/cmake $(INST_LIB)/pkgconfig 2>/dev/null

# A staging prefix filled by `make install`, and consumers outside the tree
# using only it: libcc from C and C++ through pkg-config, the bindings
# through pkg-config and CMake running FNCC on their own topology
# (tests/install/run.sh), the worked plugin of examples/plugin/ built with
# its Makefile and CMakeLists.txt and run by the tree's dumbbell (LIBCC_BIN);
# then `make uninstall` must leave no file behind.
STAGE := $(abspath $(BUILD))/stage
test-install:
	@rm -rf $(STAGE)
	@$(MAKE) --no-print-directory install PREFIX=$(STAGE)/prefix >/dev/null
	@$(if $(filter 1,$(HAVE_NS3)),LIBCC_BIN=$(abspath $(BUILD))/bin) bash tests/install/run.sh $(STAGE)/prefix $(BUILD)/install-test \
	  $(MAKE) -C $(CURDIR) --no-print-directory BUILD=$(BUILD)

# A copy of the build tree runs its own libraries and its .pc builds a
# program: no path of this checkout is left in it (tests/install/relocate.sh).
# The copy lives outside the tree, which is renamed while the copy runs.
test-relocate: all
	@bash tests/install/relocate.sh $(BUILD) $${TMPDIR:-/tmp}/libcc-relocate-test

# ---- libFuzzer harnesses (fuzz/fuzz.mk defines fuzz, fuzz-ci) --------------
include fuzz/fuzz.mk

# ---- ns-3 bindings (ns3-bindings/ns3.mk defines ns3, test-ns3, demo-ns3) ----
include ns3-bindings/ns3.mk

# ---- the examples' runs (examples/examples.mk: demo-run, bench-run, paper-run) ----
include examples/examples.mk

# The examples as a user runs them: exit statuses and the messages naming
# what went wrong (PFC deadlock, a link rate INT cannot carry).
test-examples: $(NS3_EXAMPLES)
	@bash tests/examples/run.sh $(BUILD)/bin $(BUILD)/examples-test

# Every option of every program with bad values: exit 2, one line naming it
# (docs/errors.md).
test-errors: $(NS3_EXAMPLES)
	@bash tests/examples/error-policy.sh $(BUILD)/bin $(BUILD)/errors-test

# The bindings as a contrib module of Debian's ns-3 source tree (the
# repository's CMakeLists.txt): unpack, configure --enable-modules=libcc,
# build, run a scratch program (tests/contrib/run.sh). About an hour on 2
# cores the first time, so not part of `make test`; CI runs it with
# TEST_CONTRIB=1. May add a deb-src entry and run apt-get (as root).
LIBCC_CONTRIB_DIR ?= $(or $(TMPDIR),/tmp)/libcc-contrib
test-contrib:
	@bash tests/contrib/run.sh $(LIBCC_CONTRIB_DIR)

# ---- the two commands --------------------------------------------------------
NPROC := $(shell nproc 2>/dev/null || echo 2)
TEST_SUITES := test-static test-docs test-check test-check-san test-conformance fuzz-ci test-install test-relocate test-ns3 test-mpi test-distributed test-ns3-static test-examples test-errors test-python test-slurm $(NS3_SAN_SUITES)

test: deps
	@$(MAKE) --no-print-directory -j$(NPROC) all $(NS3_SAN_BUILD)
	@bash scripts/run-tests.sh $(BUILD)/test-logs $(TEST_SUITES)

demo: deps
	@$(MAKE) --no-print-directory -j$(NPROC) all
	@$(MAKE) --no-print-directory demo-run

# The analysis scripts' tests (analysis/, examples/paper/): pytest. The
# sweep tool's test runs rdma-sim over every registered algorithm (~3 s).
test-python: $(NS3_EXAMPLES) tools
	@LIBCC_BIN=$(BUILD)/bin bash tests/python/run.sh

# The sweep tool on a single-host Slurm started in a temporary directory
# (root; slurm-wlm and munge from make deps), and one simulation over 2 MPI
# ranks through it (libns3-libcc-mpi): about 45 s on 2 cores.
test-slurm: $(NS3_EXAMPLES)
	@bash tests/slurm/run.sh $(BUILD)/bin

# The FNCC paper's experiments, results in docs/results.md (FULL=1: paper scale;
# PLUGIN=path.so: every run loads a libcc plugin, docs/writing-an-algorithm.md).
paper: deps
	@$(MAKE) --no-print-directory -j$(NPROC) all
	@$(MAKE) --no-print-directory paper-run

bench: deps
	@$(MAKE) --no-print-directory -j$(NPROC) all
	@$(MAKE) --no-print-directory bench-libcc bench-run bench-hops bench-startup bench-mpi

# libcc alone: cost per event of each algorithm's hot paths.
$(BUILD)/bench/bench_libcc: bench/bench_libcc.c $(STATIC_LIB) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(C_STD) -Ilibcc/include $(C_USER) $(LDFLAGS) -o $@ $< $(STATIC_LIB) $(LIBCC_LIBS)

bench-libcc: $(BUILD)/bench/bench_libcc
	@{ echo "# libcc per-event cost"; echo; \
	   echo "Written by \`make bench\` ($(BUILD)/bench/bench_libcc) on $$(nproc) cores of $$(uname -m), gcc -O2."; \
	   echo "Each case replays 2 million events through one object; wall time divided by events. The rp_on_ack rows include filling the 3-hop ACK, the np_on_data rows the 1-in-16 CE marks."; echo; \
	   $(BUILD)/bench/bench_libcc; } > docs/performance-libcc.md
	@cat docs/performance-libcc.md

format:
	clang-format -i $(LIB_SRCS) $(LIB_HDRS) $(TOOL_SRCS) tests/check/*.c

clean:
	rm -rf $(BUILD) out
