# SPDX-License-Identifier: GPL-2.0-only
# ns-3's MPI engine, built by us (Debian's ns-3 has no MPI module; issue #19).
# Included at the end of ns3-bindings/ns3.mk, whose variables it uses (NS3_DIR, NS3_MODULES,
# NS3_CXXFLAGS, NS3_CFLAGS, NS3_LIB, NS3_PROG_LIBS, HAVE_NS3, PC_BUILD_PREFIX).
#
#   make ns3-mpi    $(BUILD)/lib/libns3-libcc-mpi.so: ns-3's src/mpi/model/*.cc from
#                   Debian's ns-3 source package (under NS3_SRC_DIR) and every
#                   ns3-bindings/mpi/*.cc, compiled with -DNS3_MPI and Debian's
#                   OpenMPI (pkg-config ompi-cxx, what `mpicxx --showme` gives),
#                   linked to libns3-libcc.so, libcc.so, ns-3 core and network, MPI;
#                   their headers as $(BUILD)/include/ns3/*.h plus ns3/mpi-module.h,
#                   ns3-libcc-mpi.pc, the test program $(BUILD)/tests/mpi-smoke.
#                   Part of `make`; without ns-3, MPI or the source one line says
#                   what is missing and nothing fails.
#   make test-mpi   tests/mpi/run.sh: mpi-smoke as a 2-rank job (scripts/mpirun.sh)
#                   under each of ns-3's parallel simulators.

# Debian's ns-3 source package as scripts/ns3-source.sh unpacks it (`make deps`
# does): outside the build tree, so `make clean` keeps it, and shared by every
# checkout of the same user. Only its src/mpi/model is read.
NS3_SRC_DIR ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/libcc/ns3-source
# The source must be the installed ns-3's version (3.37: ns3-3.37/ns-3.37/).
NS3_MPI_VERSION := $(shell $(PKG_CONFIG) --modversion ns3-core 2>/dev/null)
NS3_MPI_MODEL := $(patsubst %/mpi-interface.cc,%,$(firstword \
                   $(wildcard $(NS3_SRC_DIR)/*/ns-$(NS3_MPI_VERSION)/src/mpi/model/mpi-interface.cc)))
# OpenMPI's C++ flavour: OpenMPI's mpi.h pulls in its C++ bindings when
# included from C++, so whatever includes ns3/mpi-interface.h links
# libmpi_cxx too. ns3-libcc-mpi.pc names the same module.
NS3_MPI_PKG := ompi-cxx
HAVE_MPI := $(shell $(PKG_CONFIG) --exists $(NS3_MPI_PKG) && echo 1)
# OpenMPI's headers as system headers: its C++ bindings (mpicxx.h) warn
# under -Wextra (cast-function-type); not our code, nor ns-3's.
MPI_CFLAGS := $(patsubst -I%,-isystem %,$(shell $(PKG_CONFIG) --cflags $(NS3_MPI_PKG) 2>/dev/null))
MPI_LIBS := $(shell $(PKG_CONFIG) --libs $(NS3_MPI_PKG) 2>/dev/null)
# What is missing, each ending in ';' (empty: build it).
NS3_MPI_MISSING := $(strip $(if $(filter 1,$(HAVE_NS3)),,ns-3 ($(PKG_CONFIG) $(NS3_MODULES));) \
                     $(if $(HAVE_MPI),,MPI ($(PKG_CONFIG) $(NS3_MPI_PKG));) \
                     $(if $(NS3_MPI_MODEL),,the ns-3 $(NS3_MPI_VERSION) source under NS3_SRC_DIR=$(NS3_SRC_DIR);))

# ns-3's files: every .cc of src/mpi/model; its headers by name (uninstall
# needs them without the source).
NS3_MPI_UPSTREAM_HDR_NAMES := distributed-simulator-impl.h granted-time-window-mpi-interface.h \
    mpi-interface.h mpi-receiver.h null-message-mpi-interface.h null-message-simulator-impl.h \
    parallel-communication-interface.h remote-channel-bundle.h remote-channel-bundle-manager.h
NS3_MPI_UPSTREAM_SRCS := $(if $(NS3_MPI_MODEL),$(sort $(wildcard $(NS3_MPI_MODEL)/*.cc)))
NS3_MPI_UPSTREAM_OBJS := $(NS3_MPI_UPSTREAM_SRCS:$(NS3_MPI_MODEL)/%.cc=$(BUILD)/ns3-mpi/ns-3/%.o)
# Ours: ns3-bindings/mpi/ (may be empty or absent).
NS3_MPI_OWN_SRCS := $(sort $(wildcard $(NS3_DIR)/mpi/*.cc))
NS3_MPI_OWN_HDRS := $(sort $(wildcard $(NS3_DIR)/mpi/*.h))
NS3_MPI_OWN_OBJS := $(NS3_MPI_OWN_SRCS:%.cc=$(BUILD)/ns3-mpi/%.o)
NS3_MPI_HDR_NAMES := $(NS3_MPI_UPSTREAM_HDR_NAMES) $(notdir $(NS3_MPI_OWN_HDRS))
NS3_MPI_BUILD_HDRS := $(addprefix $(BUILD_INC)/ns3/,$(NS3_MPI_HDR_NAMES))
# Named as ns-3 names the module header of its mpi module (Debian has none).
NS3_MPI_MODULE_HDR := $(BUILD_INC)/ns3/mpi-module.h

NS3_MPI_LIB := $(BUILD)/lib/libns3-libcc-mpi.so.$(VERSION)
NS3_MPI_PC := $(BUILD)/lib/pkgconfig/ns3-libcc-mpi.pc
NS3_MPI_SMOKE := $(BUILD)/tests/mpi-smoke
# The fabric on ns-3's MPI engines (tests/distributed/run.sh).
NS3_MPI_STOCK := $(BUILD)/tests/stock-engine
NS3_MPI_NS3_LIBS := $(shell $(PKG_CONFIG) --libs ns3-core ns3-network 2>/dev/null || echo -lns3-core -lns3-network)

# Sources include each other as "x.h" and "ns3/x.h": the copies in
# $(BUILD)/include/ns3 serve both. ns-3's files are named ns-<version>/ in
# debug info, not by where NS3_SRC_DIR happens to be (they build with our
# warnings, WERROR=1 included).
NS3_MPI_CXXFLAGS = $(NS3_CXXFLAGS) -I$(BUILD_INC)/ns3 -I$(BUILD_INC) -DNS3_MPI $(MPI_CFLAGS) $(NS3_CFLAGS)
NS3_MPI_UPSTREAM_FLAGS := -ffile-prefix-map=$(abspath $(NS3_MPI_MODEL)/../../..)=ns-$(NS3_MPI_VERSION)

# What the MPI objects depend on beyond the top-level flags: the MPI flags,
# which source tree and which of our files; a change rebuilds them (and a
# file removed from ns3-bindings/mpi/ leaves the library and mpi-module.h).
NS3_MPI_STAMP := $(BUILD)/ns3-mpi/flags.stamp
NS3_MPI_STAMP_TEXT := MPI_CFLAGS=$(MPI_CFLAGS) MPI_LIBS=$(MPI_LIBS) NS3_MPI_MODEL=$(NS3_MPI_MODEL) \
                      OWN=$(NS3_MPI_OWN_SRCS) $(NS3_MPI_OWN_HDRS)
ifneq ($(file <$(NS3_MPI_STAMP)),$(NS3_MPI_STAMP_TEXT))
$(shell mkdir -p $(dir $(NS3_MPI_STAMP)))
$(file >$(NS3_MPI_STAMP),$(NS3_MPI_STAMP_TEXT))
endif

.PHONY: ns3-mpi test-mpi test-distributed bench-mpi install-ns3-mpi uninstall-ns3-mpi

all: ns3-mpi
uninstall: uninstall-ns3-mpi

ifeq ($(NS3_MPI_MISSING),)
ns3-mpi: $(NS3_MPI_LIB) $(NS3_MPI_BUILD_HDRS) $(NS3_MPI_MODULE_HDR) $(NS3_MPI_PC) $(NS3_MPI_SMOKE) $(NS3_MPI_STOCK)
install: install-ns3-mpi
test-mpi: $(NS3_MPI_SMOKE)
	@bash tests/mpi/run.sh $(BUILD) $(BUILD)/mpi-test
test-distributed: $(NS3_MPI_STOCK) $(NS3_EXAMPLES)
	@bash tests/distributed/run.sh $(BUILD)/bin $(BUILD)/distributed-test
# 1 process against 2 ranks and the scaling model, into docs/performance.md.
bench-mpi: $(NS3_MPI_LIB) $(NS3_EXAMPLES)
	@$(DEMO_PYTHON) bench/mpi_scaling.py $(BUILD)/bin docs/performance.md --out $(BUILD)/bench
else
bench-mpi:
	@echo "bench-mpi: skipped, missing: $(NS3_MPI_MISSING) make deps provides them"
test-distributed:
	@echo "test-distributed: skipped, missing: $(NS3_MPI_MISSING) make deps provides them"
ns3-mpi:
	@echo "ns3-mpi: libns3-libcc-mpi not built, missing: $(NS3_MPI_MISSING) make deps provides them"
test-mpi:
	@echo "test-mpi: skipped, missing: $(NS3_MPI_MISSING) make deps provides them"
endif

$(NS3_MPI_UPSTREAM_OBJS): $(BUILD)/ns3-mpi/ns-3/%.o: $(NS3_MPI_MODEL)/%.cc $(NS3_MPI_BUILD_HDRS) $(FLAGS_STAMP) $(NS3_MPI_STAMP)
	@mkdir -p $(dir $@)
	$(CXX) $(NS3_MPI_CXXFLAGS) $(NS3_MPI_UPSTREAM_FLAGS) -c $< -o $@

$(NS3_MPI_OWN_OBJS): $(BUILD)/ns3-mpi/%.o: %.cc $(NS3_MPI_BUILD_HDRS) $(FLAGS_STAMP) $(NS3_MPI_STAMP)
	@mkdir -p $(dir $@)
	$(CXX) $(NS3_MPI_CXXFLAGS) -c $< -o $@

$(NS3_MPI_LIB): $(NS3_MPI_UPSTREAM_OBJS) $(NS3_MPI_OWN_OBJS) $(NS3_LIB) $(SHARED_LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $(LDFLAGS) -shared -Wl,-soname,libns3-libcc-mpi.so.$(SOVERSION) -Wl,-Bsymbolic-functions \
	  -Wl,--no-undefined -Wl,-rpath,'$$ORIGIN' -o $@ $(NS3_MPI_UPSTREAM_OBJS) $(NS3_MPI_OWN_OBJS) \
	  $(NS3_LIB) $(SHARED_LIB) $(NS3_MPI_NS3_LIBS) $(MPI_LIBS)
	ln -sf libns3-libcc-mpi.so.$(VERSION) $(BUILD)/lib/libns3-libcc-mpi.so.$(SOVERSION)
	ln -sf libns3-libcc-mpi.so.$(SOVERSION) $(BUILD)/lib/libns3-libcc-mpi.so

$(addprefix $(BUILD_INC)/ns3/,$(NS3_MPI_UPSTREAM_HDR_NAMES)): $(BUILD_INC)/ns3/%.h: $(NS3_MPI_MODEL)/%.h
	@mkdir -p $(dir $@)
	cp $< $@

$(addprefix $(BUILD_INC)/ns3/,$(notdir $(NS3_MPI_OWN_HDRS))): $(BUILD_INC)/ns3/%.h: $(NS3_DIR)/mpi/%.h
	@mkdir -p $(dir $@)
	cp $< $@

$(NS3_MPI_MODULE_HDR): $(NS3_DIR)/mpi.mk $(NS3_MPI_STAMP)
	@mkdir -p $(dir $@)
	@{ echo '// SPDX-License-Identifier: GPL-2.0-only'; \
	   echo '// Module header of libns3-libcc-mpi (ns3-bindings/mpi.mk): ns-3'"'"'s mpi module, as ns-3 names it, and libcc'"'"'s MPI code.'; \
	   echo '#ifndef NS3_MODULE_MPI'; echo '#define NS3_MODULE_MPI'; \
	   printf '#include "ns3/%s"\n' $(NS3_MPI_HDR_NAMES); echo '#endif'; } > $@.tmp && mv $@.tmp $@

# Test programs include the headers as an outside program does (ns3/<name>.h).
# $(call NS3_MPI_TEST_RULE,name,source)
define NS3_MPI_TEST_RULE
$(BUILD)/tests/$(1): $(2) $(NS3_MPI_LIB) $(NS3_MPI_BUILD_HDRS) $(NS3_MPI_MODULE_HDR) $(NS3_BUILD_HDRS) $(FLAGS_STAMP) $(NS3_MPI_STAMP)
	@mkdir -p $$(dir $$@) $(BUILD)/ns3-mpi/tests
	$$(CXX) $$(NS3_MPI_CXXFLAGS) -MF $(BUILD)/ns3-mpi/tests/$(1).d \
	  -o $$@ $$< $(NS3_MPI_LIB) $$(NS3_PROG_LIBS) $$(MPI_LIBS)
endef
$(eval $(call NS3_MPI_TEST_RULE,mpi-smoke,tests/mpi/mpi-smoke.cc))
$(eval $(call NS3_MPI_TEST_RULE,stock-engine,tests/distributed/stock-engine.cc))

$(NS3_MPI_PC): $(NS3_DIR)/ns3-libcc-mpi.pc.in $(NS3_DIR)/mpi.mk
	$(call gen_file,$<,$@,$(PC_BUILD_PREFIX),$${prefix}/lib,$${prefix}/include,-Wl$(comma)-rpath$(comma)$${libdir})

# ---- install, uninstall (install: only when built; uninstall: always) --------
install-ns3-mpi: $(NS3_MPI_LIB) $(NS3_MPI_BUILD_HDRS) $(NS3_MPI_MODULE_HDR)
	$(call gen_file,$(NS3_DIR)/ns3-libcc-mpi.pc.in,$(INST_GEN)/ns3-libcc-mpi.pc,$(PREFIX),$(LIBDIR),$(INCLUDEDIR))
	install -d $(INST_INC)/ns3 $(INST_LIB)/pkgconfig
	install -m 644 $(NS3_MPI_BUILD_HDRS) $(NS3_MPI_MODULE_HDR) $(INST_INC)/ns3/
	install -m 755 $(NS3_MPI_LIB) $(INST_LIB)/
	ln -sf libns3-libcc-mpi.so.$(VERSION) $(INST_LIB)/libns3-libcc-mpi.so.$(SOVERSION)
	ln -sf libns3-libcc-mpi.so.$(SOVERSION) $(INST_LIB)/libns3-libcc-mpi.so
	install -m 644 $(INST_GEN)/ns3-libcc-mpi.pc $(INST_LIB)/pkgconfig/

uninstall-ns3-mpi:
	rm -f $(addprefix $(INST_INC)/ns3/,$(NS3_MPI_HDR_NAMES) mpi-module.h)
	rm -f $(INST_LIB)/libns3-libcc-mpi.so.$(VERSION) $(INST_LIB)/libns3-libcc-mpi.so.$(SOVERSION) $(INST_LIB)/libns3-libcc-mpi.so
	rm -f $(INST_LIB)/pkgconfig/ns3-libcc-mpi.pc
	-rmdir $(INST_INC)/ns3 2>/dev/null

-include $(NS3_MPI_UPSTREAM_OBJS:.o=.d) $(NS3_MPI_OWN_OBJS:.o=.d) $(BUILD)/ns3-mpi/tests/mpi-smoke.d \
  $(BUILD)/ns3-mpi/tests/stock-engine.d
