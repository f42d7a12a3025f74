# SPDX-License-Identifier: GPL-2.0-only
# Self-contained programs: the RDMA-only programs with ns-3, the bindings,
# libcc and libstdc++ linked in (docs/static-programs.md). Included at the
# end of ns3-bindings/ns3.mk, after mpi.mk, whose NS3_SRC_DIR and
# NS3_MPI_VERSION it uses.
#
#   make ns3-static  $(BUILD)/bin/static/<name> for every program of
#                    NS3_EXAMPLE_NAMES but NS3_IP_PROGS. ns-3's core, network
#                    and stats modules are compiled from Debian's ns-3 source
#                    package (the installed version, as for the MPI module)
#                    into $(BUILD)/ns3-static/libns3-static.a and linked
#                    whole, so every TypeId of those modules is registered as
#                    with Debian's libraries. They load no ns-3 library and
#                    bind no ns-3 symbol at start-up: 7 M instructions to
#                    start against 18.6 M (docs/performance.md, Start-up),
#                    and they run where no ns-3 is installed. One process
#                    only: under an MPI launcher asking for more than one
#                    rank they refuse (exit 2). Part of `make`; without ns-3
#                    or its source one line says what is missing and nothing
#                    fails.
#   make test-ns3-static  tests/ns3-static/run.sh

# ns-3's own modules that libns3-libcc needs (core, network) and what
# network needs (stats), from the source tree of the installed version.
NS3_STATIC_TREE := $(patsubst %/src/core/model/simulator.cc,%,$(firstword \
                     $(wildcard $(NS3_SRC_DIR)/*/ns-$(NS3_MPI_VERSION)/src/core/model/simulator.cc)))
# Debian's build (debian/rules: release profile, --enable-logs,
# --enable-examples, --enable-build-version, int128) compiles these files of
# the three modules (their CMakeLists.txt). Left out: other platforms'
# files, the other int64x64 implementations, and stats' SQLite output
# (SqliteDataOutput), which an RDMA program has no use for and which would
# need SQLite linked in.
NS3_STATIC_DIRS := core/model core/helper network/model network/helper network/utils stats/model stats/helper
NS3_STATIC_EXCLUDE := core/model/int64x64-cairo.cc core/model/int64x64-double.cc core/model/win32-fd-reader.cc \
                      stats/model/sqlite-output.cc stats/model/sqlite-data-output.cc
NS3_STATIC_UPSTREAM_SRCS := $(if $(NS3_STATIC_TREE),$(filter-out $(addprefix $(NS3_STATIC_TREE)/src/,$(NS3_STATIC_EXCLUDE)), \
                              $(sort $(foreach d,$(NS3_STATIC_DIRS),$(wildcard $(NS3_STATIC_TREE)/src/$(d)/*.cc)))))
NS3_STATIC_UPSTREAM_OBJS := $(NS3_STATIC_UPSTREAM_SRCS:$(NS3_STATIC_TREE)/src/%.cc=$(BUILD)/ns3-static/ns-3/%.o)
NS3_STATIC_ARCHIVE := $(BUILD)/ns3-static/libns3-static.a
# As Debian built them: logging compiled in (ns-3's own NS_LOG components
# work as with its libraries), the release profile's macros. Not our code:
# no warnings of ours. -ffunction-sections: the programs' --gc-sections
# drops what nothing calls (the whole archive is linked, for its TypeIds).
# -g0 after CXXFLAGS: ns-3's debug information would be 78 MB of each
# program (Debian keeps its own in the -dbgsym packages) and a third of
# the compile time; function names stay in the symbol table.
NS3_STATIC_UPSTREAM_FLAGS = -std=c++17 -fPIC -ffunction-sections -DNS3_LOG_ENABLE -DNS3_BUILD_PROFILE_RELEASE \
                            -ffile-prefix-map=$(abspath $(NS3_STATIC_TREE)/..)=. $(NS3_CFLAGS) $(CPPFLAGS) $(CXXFLAGS) -g0

# The bindings' objects are the shared library's (position-independent),
# but for DistributedRun, compiled again to refuse more than one rank: the
# MPI library it would load links Debian's shared ns-3, a second copy.
NS3_STATIC_DRUN_SRC := $(NS3_DIR)/helper/distributed-run.cc
NS3_STATIC_DRUN_OBJ := $(BUILD)/ns3-static/distributed-run.o
NS3_STATIC_BINDING_OBJS := $(filter-out $(NS3_STATIC_DRUN_SRC:%.cc=$(BUILD)/ns3/%.o),$(NS3_OBJS)) $(NS3_STATIC_DRUN_OBJ)

NS3_STATIC_NAMES := $(filter-out $(NS3_IP_PROGS),$(NS3_EXAMPLE_NAMES))
NS3_STATIC_BIN := $(BUILD)/bin/static
NS3_STATIC_PROGS := $(NS3_STATIC_NAMES:%=$(NS3_STATIC_BIN)/%)
# libc, libm and the dynamic linker stay shared (a plugin is loaded with
# dlopen, which a fully static glibc program cannot do reliably);
# everything else is in the file. All of libcc, its API exported (as the
# tools do): a plugin's libcc_* calls bind to this copy, so its algorithm
# registers in the program's registry (docs/writing-an-algorithm.md).
NS3_STATIC_LINK = -Wl,--gc-sections $(NS3_STATIC_BINDING_OBJS) \
                  -Wl,--whole-archive $(STATIC_LIB) $(NS3_STATIC_ARCHIVE) -Wl,--no-whole-archive \
                  -Wl,--export-dynamic-symbol='libcc_*' -static-libstdc++ -static-libgcc -ldl -pthread $(LDFLAGS)

NS3_STATIC_MISSING := $(strip $(if $(filter 1,$(HAVE_NS3)),,ns-3 ($(PKG_CONFIG) $(NS3_MODULES));) \
                        $(if $(NS3_STATIC_TREE),,the ns-3 $(NS3_MPI_VERSION) source under NS3_SRC_DIR=$(NS3_SRC_DIR);))

.PHONY: ns3-static test-ns3-static

all: ns3-static

ifeq ($(NS3_STATIC_MISSING),)
ns3-static: $(NS3_STATIC_PROGS)
test-ns3-static: $(NS3_STATIC_PROGS) $(NS3_EXAMPLES)
	@bash tests/ns3-static/run.sh $(BUILD)/bin $(BUILD)/ns3-static-test
else
ns3-static:
	@echo "ns3-static: self-contained programs not built, missing: $(NS3_STATIC_MISSING) make deps provides them"
test-ns3-static:
	@echo "test-ns3-static: skipped, missing: $(NS3_STATIC_MISSING) make deps provides them"
endif

$(NS3_STATIC_UPSTREAM_OBJS): $(BUILD)/ns3-static/ns-3/%.o: $(NS3_STATIC_TREE)/src/%.cc $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CXX) $(NS3_STATIC_UPSTREAM_FLAGS) -MMD -MP -c $< -o $@

$(NS3_STATIC_ARCHIVE): $(NS3_STATIC_UPSTREAM_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(NS3_STATIC_DRUN_OBJ): $(NS3_STATIC_DRUN_SRC) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CXX) $(NS3_CXXFLAGS) -DLIBCC_NS3_STATIC -MF $(@:.o=.d) $(NS3_CFLAGS) -c $< -o $@

# The program's object is the shared program's (ns3.mk).
$(NS3_STATIC_PROGS): $(NS3_STATIC_BIN)/%: $(BUILD)/ns3/examples/%.o $(NS3_DIR)/static.mk $(NS3_STATIC_BINDING_OBJS) $(STATIC_LIB) $(NS3_STATIC_ARCHIVE)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -o $@ $< $(NS3_STATIC_LINK)

-include $(NS3_STATIC_UPSTREAM_OBJS:.o=.d) $(NS3_STATIC_DRUN_OBJ:.o=.d)
