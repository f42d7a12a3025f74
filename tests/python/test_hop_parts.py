# SPDX-License-Identifier: GPL-2.0-only
"""bench/hop_cost.py's split of a packet-hop's instructions into parts
(docs/performance.md, Instructions per packet-hop), on a callgrind file
written by hand."""
import os
import sys

from tests.python.conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "bench"))
from hop_cost import OTHER, part_of, read_callgrind  # noqa: E402

# Callgrind's format with name compression: "fn=(id) name" defines, "fn=(id)"
# reuses; a "calls=" line is followed by the call's line, which carries the
# callee's inclusive cost and is not the caller's own.
CALLGRIND = """\
version: 1
creator: callgrind-3.19.0
positions: line
events: Ir
summary: 610
ob=(1) /x/lib/libns3-libcc.so.0.7.0
fl=(1) switch-node.cc
fn=(1) ns3::SwitchNode::Forward(std::unique_ptr<ns3::QbbFrame, ns3::QbbFrameRelease>, unsigned int)
10 300
cob=(2) /x/lib/libcc.so.0.7.0
cfi=(2) cp.c
cfn=(2) libcc_cp_on_enqueue
calls=1 5
11 120
12 20
cfn=(5) ns3::QbbNetDevice::StartFrame(std::unique_ptr<ns3::QbbFrame, ns3::QbbFrameRelease>, unsigned int, long)
calls=2 40
14 50
fn=(3) ns3::QbbChannel::Arrive(unsigned int)
5 100
ob=(2)
fl=(2)
fn=(2)
5 120
ob=(3) /x/bin/dumbbell
fl=(3) dumbbell.cc
fn=(4) (anonymous namespace)::OnQueue(Watch*, unsigned int)
+2 40
* 10
ob=(1)
fl=(1)
fn=(1)
13 0
"""


def test_parts_sum_each_functions_own_instructions(tmp_path):
    out = tmp_path / "callgrind.out"
    out.write_text(CALLGRIND)
    total, frames, got = read_callgrind(str(out))
    # Forward's own 300 + 20 (the 120 after calls= is libcc's, counted
    # there; the 50 after the StartFrame calls= is StartFrame's); Arrive
    # 100; libcc_cp_on_enqueue 120 in libcc.so; OnQueue 40 + 10 (relative
    # and repeated line numbers).
    assert got == {"switch": 320, "channel": 100, "libcc": 120, OTHER[0]: 50}
    assert sum(got.values()) == 590
    assert total == 610  # the summary line
    assert frames == 2  # the calls to StartFrame: frames put on links


def test_part_goes_by_name_without_parameters_and_by_object_for_libcc():
    frame = "(std::unique_ptr<ns3::QbbFrame, ns3::QbbFrameRelease>, unsigned int)"
    lib = "/usr/lib/libns3-libcc.so.0"
    assert part_of("ns3::SwitchNode::Forward" + frame, lib) == "switch"
    assert part_of("ns3::QbbNetDevice::StartFrame" + frame, lib) == "device, frame pool"
    assert part_of("ns3::FastSimulatorImpl::Run()", lib) == "event core"
    assert part_of("ns3::RdmaNic::DequeueFrame(std::array<bool, 8ul> const&)", lib) == "NIC"
    assert part_of("hpcc_measure_inflight", "/usr/lib/libcc.so.0.7.0") == "libcc"
    assert part_of("malloc", "/usr/lib/x86_64-linux-gnu/libc.so.6") == OTHER[0]
