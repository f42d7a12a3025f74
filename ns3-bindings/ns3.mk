# ns-3 bindings build, included by the top-level Makefile.
# PLACEHOLDER until the bindings land: defines the targets the top level uses.
.PHONY: ns3 test-ns3 demo-run bench-run
ns3:
test-ns3:
	@echo "ns-3 bindings: not built yet"
demo-run: tools
	$(BUILD)/bin/libcc-replay --algo dcqcn examples/traces/dcqcn.trace
bench-run:
	@echo "bench: not written yet"
