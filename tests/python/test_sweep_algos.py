# SPDX-License-Identifier: GPL-2.0-only
"""analysis/sweep.py over every algorithm the binaries register: a tiny
local grid (rdma-sim, three flows on one switch) with algo as the axis.
The gathered summary has one row per algorithm, every flow finished, and
no flow beat the physics of its links (bounds derived by hand below)."""
import math
import os
import re
import subprocess
import sys

import pandas as pd
import pytest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
from analysis import fct_slowdown, sweep

# make test-python passes the build's bin directory; run alone, the tree's.
BIN = os.environ.get("LIBCC_BIN", os.path.join(ROOT, "build", "bin"))

# Hosts 0, 1 and 2 on switch 3; every link 100 Gbit/s, 1 us.
TOPOLOGY = "4 1 3\n3\n0 3 100Gbps 0.001ms 0\n1 3 100Gbps 0.001ms 0\n2 3 100Gbps 0.001ms 0\n"
# src dst pg dport size start_s: two 100 KB flows into host 2 at once (an
# incast on the switch's port to host 2, where every algorithm has
# something to react to) and a 3 KB flow back from host 2 at 10 us.
FLOWS = "3\n0 2 3 100 100000 0\n1 2 3 100 100000 0\n2 0 3 100 3000 0.00001\n"

# The physics, by hand. Link rate C = 100 Gbit/s = 100 bits/ns, so a byte
# takes 0.08 ns on the line; each link delays d = 1000 ns; every path is
# host -> switch -> host, 2 links. rdma-sim's default payload is P = 1000
# bytes, and a data frame puts at least 94 more bytes on the line (IPv4 20,
# UDP 8, BTH 12, RETH 16, Ethernet header and FCS 18, preamble and gap 20;
# docs/ns3-bindings.md; INT only adds). A flow of S bytes is n = ceil(S/P)
# frames, W = S + 94 n line bytes. Its FCT runs from its start to the ACK
# of its last byte at the sender, so it is at least:
#   W * 0.08          the sender's link serialises every frame,
# + L_last * 0.08     the switch stores the last frame (L_last = its payload
#                     S - (n-1) P plus 94) and sends it on,
# + 2 d               the last frame crosses both links,
# + 2 d               and its ACK crosses them back (its own serialisation
#                     left out: the bound only gets weaker).
# The two 100 KB flows share the switch's port to host 2, which starts
# sending no earlier than d (the first bit's propagation) and must carry
# both flows' W: the later of the two finishes no earlier than
# d + (W_a + W_b) * 0.08 + d + 2 d.
NS_PER_BYTE = 8 / 100
D_NS = 1000
PAYLOAD, OVERHEAD = 1000, 94


def line_bytes(size):
    return size + OVERHEAD * math.ceil(size / PAYLOAD)


def min_fct_ns(size):
    n = math.ceil(size / PAYLOAD)
    last = size - (n - 1) * PAYLOAD + OVERHEAD
    return (line_bytes(size) + last) * NS_PER_BYTE + 4 * D_NS


def test_the_bounds_by_hand():
    # 100 KB: 100 frames, 109,400 line bytes = 8752 ns, last frame 87.52 ns,
    # 4 us of flight: 12,839.52 ns. 3 KB: 3282 bytes = 262.56 ns + 87.52 +
    # 4000 = 4350.08 ns. The incast pair: 218,800 bytes = 17,504 ns + 4 us.
    assert min_fct_ns(100000) == pytest.approx(12839.52)
    assert min_fct_ns(3000) == pytest.approx(4350.08)
    assert 2 * line_bytes(100000) * NS_PER_BYTE + 4 * D_NS == pytest.approx(21504)


def registered(program):
    """The algorithms the binary accepts, from its --help (not a copy here)."""
    p = subprocess.run([os.path.join(BIN, program), "--help"], capture_output=True, text=True)
    m = re.search(r"--algo=<one of ([^>]+)>", p.stdout + p.stderr)
    assert m, "%s --help names no --algo choices" % program
    return [a.strip() for a in m.group(1).split(",")]


def test_every_algorithm_through_the_sweep_tool(tmp_path):
    if not os.access(os.path.join(BIN, "rdma-sim"), os.X_OK):
        if "LIBCC_BIN" in os.environ:
            pytest.fail("%s/rdma-sim is not built" % BIN)
        pytest.skip("build/bin/rdma-sim is not built (make)")
    algos = registered("rdma-sim")
    assert {"none", "dcqcn", "hpcc", "fncc", "rocc"} <= set(algos)
    (tmp_path / "topo.txt").write_text(TOPOLOGY)
    (tmp_path / "flows.txt").write_text(FLOWS)
    grid = tmp_path / "g.toml"
    grid.write_text(
        '[sweep]\nname = "algos"\nprogram = "rdma-sim"\nout = "%s"\n'
        '[fixed]\ntopo = "%s"\nflows = "%s"\nstop = "10ms"\ntraces = false\n'
        '[grid]\nalgo = [%s]\n[cc]\ndcqcn = "preset=paper"\n' % (
            tmp_path / "out", tmp_path / "topo.txt", tmp_path / "flows.txt",
            ", ".join('"%s"' % a for a in algos)))
    assert sweep.main(["run", str(grid), "--bin", BIN, "--jobs", "2"]) == 0
    summary = pd.read_csv(tmp_path / "out" / "algos" / "summary.csv")
    assert sorted(summary.algo) == sorted(algos)  # one row per algorithm
    for r in summary.itertuples():
        assert (r.flows, r.completed, r.unfinished) == (3, 3, 0), r.algo
        fct = fct_slowdown.read_fct(str(tmp_path / "out" / "algos" / r.run / "fct.txt"))
        assert len(fct) == 3, r.algo
        for f in fct.itertuples():
            assert f.fct_ns >= min_fct_ns(f.size), (r.algo, f.size, f.fct_ns)
        pair = fct[fct["size"] == 100000]
        assert pair.fct_ns.max() >= 2 * line_bytes(100000) * NS_PER_BYTE + 4 * D_NS, r.algo
