# ns-3 bindings build, included by the top-level Makefile (which defines
# BUILD, CXX, STATIC_LIB, PKG_CONFIG).
#
#   make ns3        $(BUILD)/lib/libns3-libcc.so (every ns3-bindings/model/*.cc and
#                   helper/*.cc, libcc.a linked in), one binary per examples/<n>/<n>.cc,
#                   the GoogleTest runner $(BUILD)/tests/gtest_ns3
#   make test-ns3   run the GoogleTest runner
#
# Binaries find libns3-libcc.so through an rpath: no LD_LIBRARY_PATH needed.

NS3_MODULES := ns3-core ns3-network ns3-internet ns3-traffic-control ns3-applications
# Debian's ns3 .pc files carry a bogus "-I/usr;" token: drop every word with a ';'.
NS3_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(NS3_MODULES) 2>/dev/null | tr ' ' '\n' | grep -v ';' | grep -v '^-I/usr/include/python' | tr '\n' ' ')
NS3_LIBS = $(shell $(PKG_CONFIG) --libs $(NS3_MODULES) 2>/dev/null || echo -lns3-core -lns3-network -lns3-internet -lns3-traffic-control -lns3-applications)

NS3_DIR := ns3-bindings
NS3_INCLUDES := -I$(NS3_DIR)/sim -I$(NS3_DIR)/model -I$(NS3_DIR)/helper -Ilibcc/include
NS3_CXXFLAGS := -std=c++17 -O2 -g -fPIC -fno-semantic-interposition -Wall -Wextra -MMD -MP $(NS3_INCLUDES)

NS3_SRCS := $(sort $(wildcard $(NS3_DIR)/sim/*.cc $(NS3_DIR)/model/*.cc $(NS3_DIR)/helper/*.cc))
NS3_OBJS := $(NS3_SRCS:%.cc=$(BUILD)/ns3/%.o)
NS3_LIB := $(BUILD)/lib/libns3-libcc.so
NS3_RPATH := -Wl,-rpath,$(abspath $(BUILD)/lib)

# examples/<name>/<name>.cc -> $(BUILD)/bin/<name>
NS3_EXAMPLE_NAMES := $(foreach d,$(wildcard examples/*/),$(if $(wildcard $(d)$(notdir $(d:/=)).cc),$(notdir $(d:/=))))
NS3_EXAMPLES := $(NS3_EXAMPLE_NAMES:%=$(BUILD)/bin/%)
# The simulator-core micro-benchmark (docs/simulator-impl.md): a tool, not an experiment.
NS3_BENCH := $(BUILD)/bin/simbench

# tests/gtest/*.cc -> one runner; our own main (time resolution) if present.
GTEST_SRCS := $(sort $(wildcard tests/gtest/*.cc))
GTEST_OBJS := $(GTEST_SRCS:%.cc=$(BUILD)/ns3/%.o)
GTEST_LIBS := /usr/lib/x86_64-linux-gnu/libgtest.a $(if $(wildcard tests/gtest/gtest_main.cc),,/usr/lib/x86_64-linux-gnu/libgtest_main.a) -pthread
GTEST_BIN := $(BUILD)/tests/gtest_ns3

NS3_PC := $(BUILD)/lib/pkgconfig/ns3-libcc.pc

.PHONY: ns3 test-ns3 test-ns3-san format-ns3

ns3: $(NS3_LIB) $(NS3_EXAMPLES) $(NS3_BENCH) $(GTEST_BIN) $(NS3_PC)

$(BUILD)/ns3/%.o: %.cc
	@mkdir -p $(dir $@)
	$(CXX) $(NS3_CXXFLAGS) $(NS3_CFLAGS) -c $< -o $@

$(NS3_LIB): $(NS3_OBJS) $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CXX) -shared -Wl,-soname,libns3-libcc.so -Wl,-Bsymbolic-functions -o $@ $(NS3_OBJS) $(STATIC_LIB) $(NS3_LIBS)

define NS3_EXAMPLE_RULE
$(BUILD)/bin/$(1): examples/$(1)/$(1).cc $(NS3_LIB)
	@mkdir -p $$(dir $$@) $(BUILD)/ns3/examples
	$$(CXX) $$(NS3_CXXFLAGS) -MF $(BUILD)/ns3/examples/$(1).d $$(NS3_CFLAGS) -o $$@ $$< $(NS3_LIB) $$(NS3_RPATH) $$(NS3_LIBS)
endef
$(foreach n,$(NS3_EXAMPLE_NAMES),$(eval $(call NS3_EXAMPLE_RULE,$(n))))

$(NS3_BENCH): bench/simbench.cc $(NS3_LIB)
	@mkdir -p $(dir $@) $(BUILD)/ns3/bench
	$(CXX) $(NS3_CXXFLAGS) -MF $(BUILD)/ns3/bench/simbench.d $(NS3_CFLAGS) -o $@ $< $(NS3_LIB) $(NS3_RPATH) $(NS3_LIBS)

$(GTEST_BIN): $(GTEST_OBJS) $(NS3_LIB)
	@mkdir -p $(dir $@)
	$(CXX) -o $@ $(GTEST_OBJS) $(NS3_LIB) $(NS3_RPATH) $(NS3_LIBS) $(GTEST_LIBS)

test-ns3: $(GTEST_BIN)
	$(GTEST_BIN) --gtest_brief=1

# The same GoogleTest suites under ASan+UBSan: bindings and libcc built
# instrumented and linked statically into one runner (ns-3's own libraries
# stay uninstrumented, which ASan supports).
NS3_SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
NS3_SAN_OBJS := $(NS3_SRCS:%.cc=$(BUILD)/ns3-san/%.o) $(GTEST_SRCS:%.cc=$(BUILD)/ns3-san/%.o)
GTEST_SAN_BIN := $(BUILD)/tests/gtest_ns3_san
NS3_SAN_BUILD := $(GTEST_SAN_BIN)
NS3_SAN_SUITES := test-ns3-san

$(BUILD)/ns3-san/%.o: %.cc
	@mkdir -p $(dir $@)
	$(CXX) $(NS3_CXXFLAGS) -O1 $(NS3_SAN_FLAGS) $(NS3_CFLAGS) -c $< -o $@

$(GTEST_SAN_BIN): $(NS3_SAN_OBJS) $(SAN_LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(NS3_SAN_FLAGS) -o $@ $(NS3_SAN_OBJS) $(SAN_LIB) $(NS3_LIBS) $(GTEST_LIBS)

test-ns3-san: $(GTEST_SAN_BIN)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	$(GTEST_SAN_BIN) --gtest_brief=1

# pkg-config file for using the bindings from this build tree.
$(NS3_PC): $(NS3_DIR)/ns3.mk
	@mkdir -p $(dir $@)
	@printf '%s\n' \
	  'srcdir=$(CURDIR)' 'libdir=$(abspath $(BUILD)/lib)' '' \
	  'Name: ns3-libcc' 'Description: ns-3 RoCEv2 fabric and RDMA hosts driven by libcc' \
	  'Version: $(VERSION)' 'Requires: $(NS3_MODULES)' \
	  'Cflags: -I$${srcdir}/$(NS3_DIR)/sim -I$${srcdir}/$(NS3_DIR)/model -I$${srcdir}/$(NS3_DIR)/helper -I$${srcdir}/libcc/include' \
	  'Libs: -L$${libdir} -Wl,-rpath,$${libdir} -lns3-libcc' > $@

format-ns3:
	clang-format -i --style=file:$(NS3_DIR)/.clang-format $(NS3_SRCS) $(wildcard $(NS3_DIR)/sim/*.h $(NS3_DIR)/model/*.h $(NS3_DIR)/helper/*.h)

-include $(NS3_OBJS:.o=.d) $(GTEST_OBJS:.o=.d) $(NS3_SAN_OBJS:.o=.d) $(NS3_EXAMPLE_NAMES:%=$(BUILD)/ns3/examples/%.d) $(BUILD)/ns3/bench/simbench.d

# demo-run and bench-run (the host helper's examples).
-include examples/examples.mk
