# libFuzzer harnesses (docs/fuzzing.md), included by the top-level Makefile.
#   make fuzz [FUZZ_SECONDS=60]   each harness: its corpus once, then fuzz that long
#   make fuzz-ci                   the same, 5 s each (part of make test)
# Harness fuzz/fuzz_<name>.c or .cc, seed corpus fuzz/corpus/<name>/. What libFuzzer
# finds goes to $(BUILD)/fuzz/{work,artifacts}, never into the tree.

FUZZ_CC ?= clang-14
FUZZ_SECONDS ?= 60
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_NAMES := $(patsubst fuzz/fuzz_%.c,%,$(wildcard fuzz/fuzz_*.c))
FUZZ_BINS := $(FUZZ_NAMES:%=$(FUZZ_DIR)/bin/fuzz_%)
FUZZ_SAN := -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all \
            -fno-omit-frame-pointer
FUZZ_CFLAGS := -std=c11 $(WARN) -g -O1 $(FUZZ_SAN) -D_POSIX_C_SOURCE=200809L -Ilibcc/include
FUZZ_LIB_OBJS := $(LIB_SRCS:%.c=$(FUZZ_DIR)/obj/%.o)

.PHONY: fuzz fuzz-ci fuzz-build

$(FUZZ_DIR)/obj/%.o: %.c $(LIB_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -DLIBCC_BUILDING -Ilibcc/src -c $< -o $@

$(FUZZ_DIR)/libcc-fuzz.a: $(FUZZ_LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

# The whole tool as a function (libcc-replay.h), without its main.
$(FUZZ_DIR)/replay-nomain.o: libcc/tools/libcc-replay.c libcc/tools/libcc-replay.h $(LIB_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -DLIBCC_REPLAY_NO_MAIN -c $< -o $@

$(FUZZ_DIR)/bin/fuzz_replay: $(FUZZ_DIR)/replay-nomain.o

$(FUZZ_DIR)/bin/fuzz_%: fuzz/fuzz_%.c $(FUZZ_DIR)/libcc-fuzz.a
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -Ilibcc/tools -o $@ $< \
	    $(filter %.o,$^) $(FUZZ_DIR)/libcc-fuzz.a $(LIBCC_LIBS)

# C++ harnesses (fuzz/fuzz_<name>.cc) exercise bindings code: the sources
# listed for each are built instrumented, ns-3's own libraries are linked as
# they are.
FUZZ_CXX ?= clang++-14
FUZZ_CXX_NAMES := $(patsubst fuzz/fuzz_%.cc,%,$(wildcard fuzz/fuzz_*.cc))
FUZZ_CXXFLAGS = -std=c++17 $(WARN) -g -O1 $(FUZZ_SAN) $(NS3_INCLUDES) $(NS3_CFLAGS)
FUZZ_SRCS_rocev2 := ns3-bindings/model/codec/rocev2-codec.cc ns3-bindings/model/codec/rocev2-header.cc
FUZZ_SRCS_hpcc_files := ns3-bindings/hpcc/hpcc-format.cc ns3-bindings/helper/rdma-topology.cc
FUZZ_SRCS_hpcc_config := ns3-bindings/hpcc/hpcc-config.cc ns3-bindings/hpcc/hpcc-config-reader.cc \
                         ns3-bindings/hpcc/hpcc-config-files.cc ns3-bindings/hpcc/hpcc-format.cc \
                         ns3-bindings/helper/rdma-topology.cc
FUZZ_NAMES += $(FUZZ_CXX_NAMES)
FUZZ_BINS += $(FUZZ_CXX_NAMES:%=$(FUZZ_DIR)/bin/fuzz_%)

$(FUZZ_DIR)/cxx/%.o: %.cc
	@mkdir -p $(dir $@)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

define FUZZ_CXX_RULE
$(FUZZ_DIR)/bin/fuzz_$(1): fuzz/fuzz_$(1).cc $(FUZZ_SRCS_$(1):%.cc=$(FUZZ_DIR)/cxx/%.o) $(FUZZ_DIR)/libcc-fuzz.a
	@mkdir -p $$(dir $$@)
	$$(FUZZ_CXX) $$(FUZZ_CXXFLAGS) -fsanitize=fuzzer -o $$@ $$< \
	    $$(filter %.o,$$^) $(FUZZ_DIR)/libcc-fuzz.a $$(NS3_LIBS) $(LIBCC_LIBS)
endef
$(foreach n,$(FUZZ_CXX_NAMES),$(eval $(call FUZZ_CXX_RULE,$(n))))
-include $(wildcard $(FUZZ_DIR)/cxx/*/*/*.d $(FUZZ_DIR)/cxx/*/*/*/*.d)

fuzz-build: $(FUZZ_BINS)

fuzz: $(FUZZ_BINS)
	@bash fuzz/run.sh $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_NAMES)

fuzz-ci: $(FUZZ_BINS)
	@bash fuzz/run.sh $(FUZZ_DIR) 5 $(FUZZ_NAMES)
