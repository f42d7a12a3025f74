# SPDX-License-Identifier: GPL-2.0-only
# demo-run, bench-run and paper-run for the ns-3 examples (included by the top-level Makefile).
#
#   make demo    the FNCC paper's dumbbell for dcqcn, hpcc and fncc: summaries side
#                by side, CSVs in out/dumbbell-<algo>/, plots in out/dumbbell-*.png
#   make bench   the dumbbell for 2 ms per algorithm: wall time, packets per wall
#                second, peak RSS; and instructions per packet-hop (callgrind) on the
#                dumbbell and a k=4 fat tree; both written into docs/performance.md
#   make layout  the hot-section list of libns3-libcc.so's layout (callgrind; valgrind)

.PHONY: demo-run bench-run bench-hops bench-startup layout paper-run

DEMO_ALGOS ?= dcqcn hpcc fncc
DEMO_OUT ?= out
# Every algorithm libcc registers, asked of libcc when the rule runs (an
# empty BENCH_ALGOS= on the command line is taken as "every one" too).
BENCH_ALGOS ?=
# Debian's interpreter, which has python3-matplotlib (a pyenv or venv python3
# earlier in PATH may not).
DEMO_PYTHON ?= $(firstword $(wildcard /usr/bin/python3) python3)

demo-run: $(BUILD)/bin/dumbbell
	@mkdir -p $(DEMO_OUT)
	@for a in $(DEMO_ALGOS); do \
	  echo "== dumbbell --algo=$$a"; \
	  $(BUILD)/bin/dumbbell --algo=$$a --out=$(DEMO_OUT)/dumbbell-$$a > $(DEMO_OUT)/dumbbell-$$a.log || exit 1; \
	done
	@$(DEMO_PYTHON) examples/plot_dumbbell.py $(DEMO_OUT) $(DEMO_ALGOS)

bench-run: $(BUILD)/bin/dumbbell $(BUILD)/bin/libcc-replay
	@$(DEMO_PYTHON) examples/bench_dumbbell.py $(BUILD)/bin/dumbbell docs/performance.md \
	  $(or $(BENCH_ALGOS),$$($(BUILD)/bin/libcc-replay --list))

# Instructions per packet-hop inside Simulator::Run() (valgrind's callgrind,
# one process at a time) and peak RSS, beside the HPCC simulator's.
bench-hops: $(BUILD)/bin/dumbbell $(BUILD)/bin/rdma-sim
	@command -v valgrind >/dev/null || { echo "bench-hops: no valgrind (apt-get install valgrind): skipped"; exit 0; }; \
	$(DEMO_PYTHON) bench/hop_cost.py --table $(BUILD)/bin docs/performance.md

# Start-up instructions and peak RSS of the dumbbell, shared and with ns-3
# linked in (docs/static-programs.md; the latter only when built).
bench-startup: $(BUILD)/bin/dumbbell
	@command -v valgrind >/dev/null || { echo "bench-startup: no valgrind (apt-get install valgrind): skipped"; exit 0; }; \
	$(DEMO_PYTHON) bench/startup.py $(BUILD)/bin docs/performance.md

# The code sections typical runs execute, which ns3-bindings/ns3.mk puts together
# in libns3-libcc.so's text (docs/performance.md, Memory); rerun after large
# changes to the bindings (test_hot_layout.py says when the list went stale).
layout: $(BUILD)/bin/dumbbell $(BUILD)/bin/rdma-sim $(BUILD)/bin/libcc-replay
	@command -v valgrind >/dev/null || { echo "layout: needs valgrind (apt-get install valgrind)"; exit 1; }
	$(DEMO_PYTHON) bench/hot_sections.py $(BUILD)/bin $(NS3_LAYOUT)

# The FNCC paper's experiments (examples/paper/paper.py, the grids in
# examples/paper/experiments/): runs under out/paper/, tables and plots into
# docs/results.md and docs/img/paper/. libcc-replay lists libcc's algorithms.
# FULL=1: the paper's scale, into out/paper-full/ and docs/results-full.md.
# Unchanged runs are not run again. PLUGIN=path.so (several: space-separated):
# every run loads it (--plugin), and its algorithms join the all-algos
# experiments' "every algorithm libcc registers".
PAPER_FLAGS := $(if $(FULL),--full,) $(foreach p,$(PLUGIN),--plugin $(abspath $(p)))
PAPER_OUT := $(DEMO_OUT)/paper$(if $(FULL),-full,)
PAPER_RESULTS := docs/results$(if $(FULL),-full,).md
paper-run: $(NS3_EXAMPLES) $(BUILD)/bin/libcc-replay
	@$(DEMO_PYTHON) examples/paper/paper.py $(PAPER_FLAGS) --bin $(BUILD)/bin --out $(PAPER_OUT) \
	  --results $(PAPER_RESULTS)
	@echo "paper: $(PAPER_RESULTS) written"
