# ns-3 bindings build, included by the top-level Makefile (which defines
# BUILD, CXX, CPPFLAGS, CXXFLAGS, LDFLAGS, WARN, PREFIX_MAP, RPATH_BIN,
# FLAGS_STAMP, SHARED_LIB, PKG_CONFIG, gen_file and the install directories).
#
#   make ns3        $(BUILD)/lib/libns3-libcc.so (every .cc of NS3_CODE_DIRS
#                   but the IP support, linked to libcc.so), $(BUILD)/lib/libns3-libcc-ip.so
#                   (IP support: helper/rdma-network-ip.cc, linked to ns-3's internet and
#                   traffic-control modules), the headers as $(BUILD)/include/ns3/*.h plus
#                   ns3/libcc-module.h, ns3-libcc.pc, one binary per
#                   examples/<n>/<n>.cc, the GoogleTest runner $(BUILD)/tests/gtest_ns3
#   make test-ns3   run the GoogleTest runner
#
# Binaries find the tree's libraries through an $ORIGIN-relative rpath: no
# LD_LIBRARY_PATH, and a copied build tree uses its own copies.

# What the libraries and the tree's programs link. libns3-libcc.so needs core
# and network only (ns3-libcc.pc, cmake/libccConfig.cmake.in); the IP support
# library adds internet and traffic-control (ns3-libcc-ip.pc); the programs
# that run IP applications (NS3_IP_PROGS, the GoogleTest runner) also
# applications. RDMA-only programs load none of those three: their start-up
# binds none of their symbols (docs/performance.md).
NS3_CORE_MODULES := ns3-core ns3-network
NS3_IP_MODULES := ns3-internet ns3-traffic-control
NS3_MODULES := $(NS3_CORE_MODULES) $(NS3_IP_MODULES) ns3-applications
HAVE_NS3 := $(shell $(PKG_CONFIG) --exists $(NS3_MODULES) && echo 1)
# Debian's ns3 .pc files carry a bogus "-I/usr;" token: drop every word with a ';'.
NS3_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(NS3_MODULES) 2>/dev/null | tr ' ' '\n' | grep -v ';' | grep -v '^-I/usr/include/python' | tr '\n' ' ')
NS3_LIBS := $(shell $(PKG_CONFIG) --libs $(NS3_MODULES) 2>/dev/null || echo -lns3-core -lns3-network -lns3-internet -lns3-traffic-control -lns3-applications)
NS3_CORE_LIBS := $(shell $(PKG_CONFIG) --libs $(NS3_CORE_MODULES) 2>/dev/null || echo -lns3-core -lns3-network)
NS3_IP_LIBS := $(shell $(PKG_CONFIG) --libs $(NS3_IP_MODULES) 2>/dev/null || echo -lns3-internet -lns3-traffic-control)

NS3_DIR := ns3-bindings
# The bindings' source folders (docs/design.md draws them): the model by role
# (the lossless link, the RDMA host, the switch, the RoCEv2 codec), the
# simulator core, the helpers. Each is an include directory (sources include
# each other as "x.h", as installed in one ns3/ directory), its .cc files
# are the library's and its headers are public.
NS3_CODE_DIRS := sim model/link model/codec model/host model/switch helper hpcc
NS3_INCLUDES := $(addprefix -I$(NS3_DIR)/,$(NS3_CODE_DIRS)) -Ilibcc/include
# make NS3_LOG_ENABLE=1: our NS_LOG statements are compiled in (ns-3 drops
# them unless NS3_LOG_ENABLE is defined). The setting is part of the flags
# stamp (Makefile), so a change rebuilds every object.
NS3_LOG_DEFS := $(if $(filter-out 0,$(NS3_LOG_ENABLE)),-DNS3_LOG_ENABLE)
# -fno-plt: calls into libcc.so and ns-3 (EventImpl::Invoke per event, libcc's
# CP/NP/RP per packet) go through the GOT, not a PLT stub: 12,159 PLT calls in
# the library before, 1 (__cxa_finalize) now; -4 and -3 instructions per
# packet-hop (dumbbell, k=4 fat tree), +0.19 M at start-up (eager binding).
# -ffunction-sections: each function its own section, for the layout below.
NS3_CXXFLAGS = -std=c++17 -fPIC -fno-semantic-interposition -fvisibility-inlines-hidden -fno-plt -ffunction-sections \
               $(WARN) $(PREFIX_MAP) -MMD -MP $(NS3_INCLUDES) $(NS3_LOG_DEFS) $(CPPFLAGS) $(CXXFLAGS)

# Hot code first (docs/performance.md, Memory): libns3-libcc.so is linked
# with ld's own default script plus, first in its .text, the input sections
# typical runs execute (NS3_LAYOUT, written by `make layout`; the script by
# layout/hot-first.awk). The kernel maps a library's file pages 64 KB around
# each page a process touches: run code spread over the whole text made all
# 0.9 MB of it resident. A linker that prints no default script (lld, gold)
# links the library as before, with a warning.
NS3_LAYOUT := $(NS3_DIR)/layout/hot-sections.txt
NS3_LAYOUT_SCRIPT := $(BUILD)/ns3/hot-first.ld

# The IP support: its own library (what needs ns-3's internet module).
NS3_IP_SRCS := $(NS3_DIR)/helper/rdma-network-ip.cc
NS3_ALL_SRCS := $(sort $(foreach d,$(NS3_CODE_DIRS),$(wildcard $(NS3_DIR)/$(d)/*.cc)))
NS3_SRCS := $(filter-out $(NS3_IP_SRCS),$(NS3_ALL_SRCS))
NS3_OBJS := $(NS3_SRCS:%.cc=$(BUILD)/ns3/%.o)
NS3_IP_OBJS := $(NS3_IP_SRCS:%.cc=$(BUILD)/ns3/%.o)
# Versioned like libcc.so; it needs libcc.so (found beside it: rpath $ORIGIN).
NS3_LIB := $(BUILD)/lib/libns3-libcc.so.$(VERSION)
NS3_LIB_LINKS := $(BUILD)/lib/libns3-libcc.so.$(SOVERSION) $(BUILD)/lib/libns3-libcc.so
NS3_IP_LIB := $(BUILD)/lib/libns3-libcc-ip.so.$(VERSION)
# What a program of the tree links: the bindings, libcc, ns-3 (core and
# network); a program of NS3_IP_PROGS the IP support and the IP modules too.
NS3_PROG_LIBS = $(NS3_LIB) $(SHARED_LIB) $(RPATH_BIN) $(LDFLAGS) $(NS3_CORE_LIBS)
NS3_IP_PROG_LIBS = $(NS3_IP_LIB) $(NS3_PROG_LIBS) $(NS3_LIBS)
NS3_IP_PROGS := tcp-beside-rdma

# Public headers: every header of NS3_CODE_DIRS, installed flat as
# ns3/<name>.h (ns-3's module convention; they include each other as "x.h",
# which resolves in that same directory) plus the module header
# ns3/libcc-module.h. No name may be one of Debian's ns-3 headers
# (tests/install/run.sh checks).
NS3_PUB_HDRS := $(sort $(foreach d,$(NS3_CODE_DIRS),$(wildcard $(NS3_DIR)/$(d)/*.h)))
NS3_BUILD_HDRS := $(addprefix $(BUILD_INC)/ns3/,$(notdir $(NS3_PUB_HDRS)))
NS3_MODULE_HDR := $(BUILD_INC)/ns3/libcc-module.h

# examples/<name>/<name>.cc -> $(BUILD)/bin/<name>
NS3_EXAMPLE_NAMES := $(foreach d,$(wildcard examples/*/),$(if $(wildcard $(d)$(notdir $(d:/=)).cc),$(notdir $(d:/=))))
NS3_EXAMPLES := $(NS3_EXAMPLE_NAMES:%=$(BUILD)/bin/%)
# The simulator-core micro-benchmark (docs/simulator-impl.md): a tool, not an experiment.
NS3_BENCH := $(BUILD)/bin/simbench

# tests/gtest/*.cc -> one runner; our own main (time resolution) if present.
# GoogleTest through its pkg-config files (Debian's libgtest-dev).
GTEST_SRCS := $(sort $(wildcard tests/gtest/*.cc))
GTEST_OBJS := $(GTEST_SRCS:%.cc=$(BUILD)/ns3/%.o)
GTEST_PC := gtest $(if $(wildcard tests/gtest/gtest_main.cc),,gtest_main)
GTEST_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(GTEST_PC) 2>/dev/null)
GTEST_LIBS := $(shell $(PKG_CONFIG) --libs $(GTEST_PC) 2>/dev/null || echo -lgtest) -pthread
GTEST_BIN := $(BUILD)/tests/gtest_ns3

# The logging build, beside the fast one as ns-3's own debug and optimized
# libraries are: the same libraries with NS_LOG compiled in (NS3_LOG_ENABLE),
# same sonames, in lib/log/. A program picks it at run time, with no rebuild:
# LD_LIBRARY_PATH=build/lib/log (installed: $(LIBDIR)/libcc-log), searched
# before the programs' RUNPATH. (make NS3_LOG_ENABLE=1 still compiles the
# logs into the main build.)
NS3_LOG_OBJS := $(NS3_SRCS:%.cc=$(BUILD)/ns3-log/%.o)
NS3_LOG_IP_OBJS := $(NS3_IP_SRCS:%.cc=$(BUILD)/ns3-log/%.o)
NS3_LOG_DIR := $(BUILD)/lib/log
NS3_LOG_LIB := $(NS3_LOG_DIR)/libns3-libcc.so.$(VERSION)
NS3_LOG_IP_LIB := $(NS3_LOG_DIR)/libns3-libcc-ip.so.$(VERSION)

NS3_PC := $(BUILD)/lib/pkgconfig/ns3-libcc.pc
NS3_IP_PC := $(BUILD)/lib/pkgconfig/ns3-libcc-ip.pc

.PHONY: ns3 test-ns3 test-ns3-san format-ns3 install-ns3 uninstall-ns3

ifeq ($(HAVE_NS3),1)
ns3: $(NS3_LIB) $(NS3_IP_LIB) $(NS3_LOG_LIB) $(NS3_LOG_IP_LIB) $(NS3_BUILD_HDRS) $(NS3_MODULE_HDR) $(NS3_PC) $(NS3_IP_PC) $(NS3_EXAMPLES) $(NS3_BENCH) $(GTEST_BIN)
else
ns3:
	@echo "ns3: no ns-3 found by $(PKG_CONFIG) ($(NS3_MODULES)): bindings not built (make deps installs libns3-dev)"
endif

$(BUILD)/ns3/%.o: %.cc $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CXX) $(NS3_CXXFLAGS) $(NS3_CFLAGS) -c $< -o $@

$(BUILD)/ns3-log/%.o: %.cc $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CXX) $(NS3_CXXFLAGS) -DNS3_LOG_ENABLE -MF $(@:.o=.d) $(NS3_CFLAGS) -c $< -o $@

$(BUILD)/ns3/tests/gtest/%.o: tests/gtest/%.cc $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CXX) $(NS3_CXXFLAGS) $(NS3_CFLAGS) $(GTEST_CFLAGS) -c $< -o $@

$(NS3_LAYOUT_SCRIPT): $(NS3_LAYOUT) $(NS3_DIR)/layout/hot-first.awk $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@$(CXX) $(CXXFLAGS) $(LDFLAGS) -shared -Wl,--verbose -o $@.so -x c++ /dev/null 2>/dev/null \
	  | awk -v list=$(NS3_LAYOUT) -f $(NS3_DIR)/layout/hot-first.awk > $@ \
	  || { echo "warning: the linker printed no default script: libns3-libcc.so is linked without its hot-first layout"; : > $@; }
	@rm -f $@.so

# -z pack-relative-relocs (DT_RELR, glibc 2.36): the 1,100 relative
# relocations as a bitmap, not 24 bytes each: 27 KB less of the library's
# first segment, which every process reads whole at load.
$(NS3_LIB): $(NS3_OBJS) $(SHARED_LIB) $(NS3_LAYOUT_SCRIPT)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $(LDFLAGS) $$([ -s $(NS3_LAYOUT_SCRIPT) ] && echo -Wl,-T,$(NS3_LAYOUT_SCRIPT)) -shared -Wl,-soname,libns3-libcc.so.$(SOVERSION) -Wl,-Bsymbolic-functions -Wl,-z,pack-relative-relocs \
	  -Wl,--no-undefined -Wl,-rpath,'$$ORIGIN' -o $@ $(NS3_OBJS) $(SHARED_LIB) $(NS3_CORE_LIBS)
	ln -sf libns3-libcc.so.$(VERSION) $(BUILD)/lib/libns3-libcc.so.$(SOVERSION)
	ln -sf libns3-libcc.so.$(SOVERSION) $(BUILD)/lib/libns3-libcc.so

$(NS3_IP_LIB): $(NS3_IP_OBJS) $(NS3_LIB) $(SHARED_LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $(LDFLAGS) -shared -Wl,-soname,libns3-libcc-ip.so.$(SOVERSION) -Wl,-Bsymbolic-functions \
	  -Wl,--no-undefined -Wl,-rpath,'$$ORIGIN' -o $@ $(NS3_IP_OBJS) $(NS3_LIB) $(SHARED_LIB) $(NS3_CORE_LIBS) $(NS3_IP_LIBS)
	ln -sf libns3-libcc-ip.so.$(VERSION) $(BUILD)/lib/libns3-libcc-ip.so.$(SOVERSION)
	ln -sf libns3-libcc-ip.so.$(SOVERSION) $(BUILD)/lib/libns3-libcc-ip.so

# The logging libraries find libcc.so one directory up ($ORIGIN/..).
$(NS3_LOG_LIB): $(NS3_LOG_OBJS) $(SHARED_LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $(LDFLAGS) -shared -Wl,-soname,libns3-libcc.so.$(SOVERSION) -Wl,-Bsymbolic-functions -Wl,-z,pack-relative-relocs \
	  -Wl,--no-undefined -Wl,-rpath,'$$ORIGIN/..' -o $@ $(NS3_LOG_OBJS) $(SHARED_LIB) $(NS3_CORE_LIBS)
	ln -sf libns3-libcc.so.$(VERSION) $(NS3_LOG_DIR)/libns3-libcc.so.$(SOVERSION)

$(NS3_LOG_IP_LIB): $(NS3_LOG_IP_OBJS) $(NS3_LOG_LIB) $(SHARED_LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $(LDFLAGS) -shared -Wl,-soname,libns3-libcc-ip.so.$(SOVERSION) -Wl,-Bsymbolic-functions \
	  -Wl,--no-undefined -Wl,-rpath,'$$ORIGIN:$$ORIGIN/..' -o $@ $(NS3_LOG_IP_OBJS) $(NS3_LOG_LIB) $(SHARED_LIB) \
	  $(NS3_CORE_LIBS) $(NS3_IP_LIBS)
	ln -sf libns3-libcc-ip.so.$(VERSION) $(NS3_LOG_DIR)/libns3-libcc-ip.so.$(SOVERSION)

# One rule per header, from where it is now: a vpath search would also
# find a header's old place through the stale dependency files of a moved
# header (their phony targets), and copy from there.
define NS3_HDR_RULE
$(BUILD_INC)/ns3/$(notdir $(1)): $(1)
	@mkdir -p $$(dir $$@)
	cp $$< $$@
endef
$(foreach h,$(NS3_PUB_HDRS),$(eval $(call NS3_HDR_RULE,$(h))))

$(NS3_MODULE_HDR): $(NS3_PUB_HDRS) $(NS3_DIR)/ns3.mk
	@mkdir -p $(dir $@)
	@{ printf '%s\n' '// SPDX-License-Identifier: GPL-2.0-only' \
	    '// The libcc module header, generated by ns3-bindings/ns3.mk (ns-3 writes the same' \
	    '// file for the contrib build): every public header of the bindings.' \
	    '#ifdef NS3_MODULE_COMPILATION' \
	    '#error "Do not include ns3 module aggregator headers from other modules; these are meant only for end user scripts."' \
	    '#endif' '#ifndef NS3_MODULE_LIBCC' '#define NS3_MODULE_LIBCC'; \
	  for h in $(notdir $(NS3_PUB_HDRS)); do echo "#include \"ns3/$$h\""; done; \
	  echo '#endif'; } > $@.tmp && mv $@.tmp $@

# Examples may include the bindings as an outside program does ("ns3/x.h",
# from $(BUILD)/include) or as the library's own sources do ("x.h").
# The object is kept: the self-contained programs (static.mk) link it too.
define NS3_EXAMPLE_RULE
$(BUILD)/ns3/examples/$(1).o: examples/$(1)/$(1).cc $(NS3_BUILD_HDRS) $(NS3_MODULE_HDR) $(FLAGS_STAMP)
	@mkdir -p $(BUILD)/ns3/examples
	$$(CXX) $$(NS3_CXXFLAGS) -I$(BUILD_INC) -MF $(BUILD)/ns3/examples/$(1).d $$(NS3_CFLAGS) -c $$< -o $$@
$(BUILD)/bin/$(1): $(BUILD)/ns3/examples/$(1).o $(NS3_LIB) $(if $(filter $(1),$(NS3_IP_PROGS)),$(NS3_IP_LIB))
	@mkdir -p $$(dir $$@)
	$$(CXX) $$(CXXFLAGS) -o $$@ $$< $$(if $$(filter $(1),$$(NS3_IP_PROGS)),$$(NS3_IP_PROG_LIBS),$$(NS3_PROG_LIBS))
endef
$(foreach n,$(NS3_EXAMPLE_NAMES),$(eval $(call NS3_EXAMPLE_RULE,$(n))))

$(NS3_BENCH): bench/simbench.cc $(NS3_LIB) $(FLAGS_STAMP)
	@mkdir -p $(dir $@) $(BUILD)/ns3/bench
	$(CXX) $(NS3_CXXFLAGS) -MF $(BUILD)/ns3/bench/simbench.d $(NS3_CFLAGS) -o $@ $< $(NS3_PROG_LIBS)

$(GTEST_BIN): $(GTEST_OBJS) $(NS3_LIB) $(NS3_IP_LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -o $@ $(GTEST_OBJS) $(NS3_IP_PROG_LIBS) $(GTEST_LIBS)

test-ns3: $(GTEST_BIN)
	$(GTEST_BIN) --gtest_brief=1

# The same GoogleTest suites under ASan+UBSan: bindings and libcc built
# instrumented and linked statically into one runner (ns-3's own libraries
# stay uninstrumented, which ASan supports).
NS3_SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
NS3_SAN_OBJS := $(NS3_ALL_SRCS:%.cc=$(BUILD)/ns3-san/%.o) $(GTEST_SRCS:%.cc=$(BUILD)/ns3-san/%.o)
GTEST_SAN_BIN := $(BUILD)/tests/gtest_ns3_san
NS3_SAN_BUILD := $(GTEST_SAN_BIN)
NS3_SAN_SUITES := test-ns3-san

# GCC 12 under ASan at -O1 warns maybe-uninitialized inside libstdc++'s
# <regex> (a known false positive, fatal with WERROR=1): not checked here,
# the normal build checks it.
$(BUILD)/ns3-san/%.o: %.cc $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CXX) $(NS3_CXXFLAGS) -O1 $(NS3_SAN_FLAGS) -Wno-maybe-uninitialized $(NS3_CFLAGS) $(GTEST_CFLAGS) -c $< -o $@

$(GTEST_SAN_BIN): $(NS3_SAN_OBJS) $(SAN_LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $(NS3_SAN_FLAGS) $(LDFLAGS) -o $@ $(NS3_SAN_OBJS) $(SAN_LIB) $(NS3_LIBS) $(GTEST_LIBS)

test-ns3-san: $(GTEST_SAN_BIN)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	$(GTEST_SAN_BIN) --gtest_brief=1

# pkg-config file of the build tree: paths relative to the file itself
# (${pcfiledir}), so a copied tree's .pc names the copy.
$(NS3_PC): $(NS3_DIR)/ns3-libcc.pc.in $(NS3_DIR)/ns3.mk
	$(call gen_file,$<,$@,$(PC_BUILD_PREFIX),$${prefix}/lib,$${prefix}/include,-Wl$(comma)-rpath$(comma)$${libdir})
$(NS3_IP_PC): $(NS3_DIR)/ns3-libcc-ip.pc.in $(NS3_DIR)/ns3.mk
	$(call gen_file,$<,$@,$(PC_BUILD_PREFIX),$${prefix}/lib,$${prefix}/include,-Wl$(comma)-rpath$(comma)$${libdir})

# ---- install (called by the top-level install when ns-3 is there) -----------
# Every file install-ns3 puts under the prefix, named once: install-ns3
# installs these names, uninstall-ns3 removes exactly them (test-install
# checks that nothing is left).
NS3_INST_LIB_NAMES := libns3-libcc libns3-libcc-ip
NS3_INST_HDRS := $(addprefix $(INST_INC)/ns3/,$(notdir $(NS3_PUB_HDRS)) libcc-module.h)
NS3_INST_LIBS := $(foreach l,$(NS3_INST_LIB_NAMES),$(INST_LIB)/$(l).so.$(VERSION))
NS3_INST_LINKS := $(foreach l,$(NS3_INST_LIB_NAMES),$(INST_LIB)/$(l).so.$(SOVERSION) $(INST_LIB)/$(l).so)
NS3_INST_PCS := $(INST_LIB)/pkgconfig/ns3-libcc.pc $(INST_LIB)/pkgconfig/ns3-libcc-ip.pc
NS3_INST_LOG_LIBS := $(foreach l,$(NS3_INST_LIB_NAMES),$(INST_LIB)/libcc-log/$(l).so.$(VERSION))
NS3_INST_LOG_LINKS := $(foreach l,$(NS3_INST_LIB_NAMES),$(INST_LIB)/libcc-log/$(l).so.$(SOVERSION))
NS3_INST_FILES := $(NS3_INST_HDRS) $(NS3_INST_LIBS) $(NS3_INST_LINKS) $(NS3_INST_PCS) \
                  $(NS3_INST_LOG_LIBS) $(NS3_INST_LOG_LINKS)
install-ns3: $(NS3_LIB) $(NS3_IP_LIB) $(NS3_LOG_LIB) $(NS3_LOG_IP_LIB) $(NS3_BUILD_HDRS) $(NS3_MODULE_HDR)
	$(call gen_file,$(NS3_DIR)/ns3-libcc.pc.in,$(INST_GEN)/ns3-libcc.pc,$(PREFIX),$(LIBDIR),$(INCLUDEDIR))
	$(call gen_file,$(NS3_DIR)/ns3-libcc-ip.pc.in,$(INST_GEN)/ns3-libcc-ip.pc,$(PREFIX),$(LIBDIR),$(INCLUDEDIR))
	install -d $(INST_INC)/ns3 $(INST_LIB)/pkgconfig $(INST_LIB)/libcc-log
	install -m 644 $(NS3_BUILD_HDRS) $(NS3_MODULE_HDR) $(INST_INC)/ns3/
	install -m 755 $(NS3_LIB) $(NS3_IP_LIB) $(INST_LIB)/
	install -m 755 $(NS3_LOG_LIB) $(NS3_LOG_IP_LIB) $(INST_LIB)/libcc-log/
	install -m 644 $(INST_GEN)/ns3-libcc.pc $(INST_GEN)/ns3-libcc-ip.pc $(INST_LIB)/pkgconfig/
	$(foreach l,$(NS3_INST_LIB_NAMES),ln -sf $(l).so.$(VERSION) $(INST_LIB)/$(l).so.$(SOVERSION) && \
	  ln -sf $(l).so.$(SOVERSION) $(INST_LIB)/$(l).so && \
	  ln -sf $(l).so.$(VERSION) $(INST_LIB)/libcc-log/$(l).so.$(SOVERSION) &&) true

ifeq ($(HAVE_NS3),1)
install: install-ns3
endif

uninstall-ns3:
	rm -f $(NS3_INST_FILES)
	-rmdir $(INST_LIB)/libcc-log 2>/dev/null
	-rmdir $(INST_INC)/ns3 2>/dev/null

format-ns3:
	clang-format -i --style=file:$(NS3_DIR)/.clang-format $(NS3_ALL_SRCS) $(NS3_PUB_HDRS)

-include $(NS3_OBJS:.o=.d) $(NS3_IP_OBJS:.o=.d) $(NS3_LOG_OBJS:.o=.d) $(NS3_LOG_IP_OBJS:.o=.d) $(GTEST_OBJS:.o=.d) $(NS3_SAN_OBJS:.o=.d) $(NS3_EXAMPLE_NAMES:%=$(BUILD)/ns3/examples/%.d) $(BUILD)/ns3/bench/simbench.d

include $(NS3_DIR)/mpi.mk
include $(NS3_DIR)/static.mk
