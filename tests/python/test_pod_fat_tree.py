# SPDX-License-Identifier: GPL-2.0-only
"""bench/pod_fat_tree.py: the HPCC simulator's 320-host fat tree shape,
counted by hand from its description (5 pods x 4 ToRs x 16 hosts, 4
aggregation switches per pod, 16 cores in 4 planes)."""
import collections
import os
import subprocess
import sys

import pytest

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "..", "bench", "pod_fat_tree.py")


def generate(tmp_path, *args):
    topo = tmp_path / "topo.txt"
    subprocess.run([sys.executable, SCRIPT, "-o", str(topo)] + list(args), check=True)
    lines = topo.read_text().splitlines()
    n, s, l = map(int, lines[0].split())
    switches = [int(x) for x in lines[1].split()]
    links = [ln.split() for ln in lines[2:]]
    return n, s, l, switches, links


def test_default_is_the_320_host_tree(tmp_path):
    n, s, l, switches, links = generate(tmp_path)
    # 320 hosts + 20 ToRs + 20 aggregation + 16 core switches.
    assert (n, s) == (376, 56)
    assert switches == list(range(320, 376))
    # 320 host links + 5 pods x 4 x 4 ToR-agg + 20 aggs x 4 cores each.
    assert l == len(links) == 320 + 80 + 80
    degree = collections.Counter()
    for a, b, rate, delay, err in links:
        degree[int(a)] += 1
        degree[int(b)] += 1
        assert delay == "1000ns" and err == "0"
        assert rate == ("100Gbps" if int(a) < 320 else "400Gbps")
    assert all(degree[h] == 1 for h in range(320))
    assert all(degree[t] == 16 + 4 for t in range(320, 340))    # hosts + its pod's aggs
    assert all(degree[a] == 4 + 4 for a in range(340, 360))     # its pod's ToRs + a plane
    assert all(degree[c] == 5 for c in range(360, 376))         # one agg of every pod
    # Host 17 sits under the second ToR; the first pod's third agg (342)
    # reaches plane 2's cores 368..371.
    assert ["17", "321"] in [x[:2] for x in links]
    assert [x[1] for x in links if x[0] == "342"] == ["368", "369", "370", "371"]


def test_flows_are_the_two_flow_incast(tmp_path):
    flows = tmp_path / "flows.txt"
    generate(tmp_path, "--flows=" + str(flows))
    assert flows.read_text().splitlines() == ["2", "2 1 3 100 200000000 0",
                                              "3 1 3 100 200000000 0"]


def test_cores_must_split_into_planes(tmp_path):
    p = subprocess.run([sys.executable, SCRIPT, "-o", str(tmp_path / "t"), "--cores=6"],
                       capture_output=True, text=True)
    assert p.returncode == 2  # bad input
    assert "--cores=6" in p.stderr


@pytest.mark.parametrize("bad", ["--pods=0", "--hosts=0"])
def test_counts_must_be_positive(tmp_path, bad):
    p = subprocess.run([sys.executable, SCRIPT, "-o", str(tmp_path / "t"), bad],
                       capture_output=True, text=True)
    assert p.returncode == 2  # bad input
    assert bad in p.stderr
