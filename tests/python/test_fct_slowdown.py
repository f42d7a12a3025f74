# SPDX-License-Identifier: GPL-2.0-only
"""analysis/fct_slowdown.py: binning and statistics against values worked
out by hand from small fct files."""
import os
import sys

import pytest

from analysis import fct_slowdown as fs


def write(tmp_path, name, lines):
    p = tmp_path / name
    p.write_text("".join(l + "\n" for l in lines))
    return str(p)


def line(size, fct, ideal, dport=100, start=0):
    return "0b000001 0b000101 10000 %d %d %d %d %d" % (dport, size, start, fct, ideal)


# (size, fct, ideal): slowdowns 3, 0.5 (-> 1), 2, 4, 16, 6, 10, 7, in file order.
EIGHT = [(300, 3000, 1000), (100, 500, 1000), (200, 2000, 1000), (400, 4000, 1000),
         (800, 16000, 1000), (600, 6000, 1000), (500, 10000, 1000), (700, 7000, 1000)]


def test_equal_count_bins_by_size_with_the_simulators_percentiles(tmp_path):
    f = write(tmp_path, "fct.txt", [line(*x) for x in EIGHT])
    t = fs.bins(fs.read_fct(f), step=25)
    # Sorted by size: 100:1 200:2 | 300:3 400:4 | 500:10 600:6 | 700:7 800:16,
    # 8 flows in 4 bins of 2. p = s[floor(2 p)] = s[1] for 0.5, 0.95, 0.99.
    assert list(t.max_size_bytes) == [200, 400, 600, 800]
    assert list(t.flows) == [2, 2, 2, 2]
    assert list(t.avg) == [1.5, 3.5, 8.0, 11.5]
    assert list(t.p50) == [2.0, 4.0, 10.0, 16.0]
    assert list(t.p95) == [2.0, 4.0, 10.0, 16.0]
    assert list(t.p99) == [2.0, 4.0, 10.0, 16.0]


def test_percentile_rank_rule_on_twenty_flows(tmp_path):
    # Slowdowns 1..20 in one bin: p50 = s[10] = 11, p95 = s[19] = 20,
    # p99 = s[floor(19.8)] = s[19] = 20, average 10.5.
    f = write(tmp_path, "fct.txt", [line(1000 + k, 1000 * k, 1000) for k in range(20, 0, -1)])
    t = fs.bins(fs.read_fct(f), step=100)
    assert len(t) == 1
    assert (t.p50[0], t.p95[0], t.p99[0], t.avg[0]) == (11.0, 20.0, 20.0, 10.5)
    assert t.max_size_bytes[0] == 1020


def test_other_dports_and_late_flows_are_left_out(tmp_path):
    lines = [line(*x) for x in EIGHT]
    lines.append(line(50, 90000, 1000, dport=200))          # incast traffic
    lines.append(line(60, 90000, 1000, start=2000000000))   # started too late
    f = write(tmp_path, "fct.txt", lines)
    t = fs.bins(fs.read_fct(f), step=25, dport=100, before=1000000000)
    assert list(t.max_size_bytes) == [200, 400, 600, 800]
    # With every dport and no time limit the two extra flows (sizes 50, 60,
    # slowdown 90) make 10 flows: bins of floor(2.5 k) boundaries 0,2,5,7,10.
    t = fs.bins(fs.read_fct(f), step=25, dport=-1)
    assert list(t.flows) == [2, 3, 2, 3]
    assert list(t.max_size_bytes) == [60, 300, 500, 800]


def test_seeds_are_pooled(tmp_path):
    a = write(tmp_path, "a.txt", [line(*x) for x in EIGHT[:4]])
    b = write(tmp_path, "b.txt", [line(*x) for x in EIGHT[4:]])
    out = tmp_path / "t.csv"
    assert fs.main(["fncc=%s,%s" % (a, b), "--step", "25", "--csv", str(out)]) == 0
    text = out.read_text().splitlines()
    assert text[0] == "label,bin,max_size_bytes,flows,avg,p50,p95,p99"
    assert text[3] == "fncc,2,600,2,8.0000,10.0000,10.0000,10.0000"


def test_bad_input_is_named_with_file_and_line(tmp_path, capsys):
    f = write(tmp_path, "fct.txt", [line(*EIGHT[0]), "0b000001 0b000101 10000 100 300 0 3000"])
    with pytest.raises(fs.BadInput, match=r"fct.txt:2: expected 8 fields"):
        fs.read_fct(f)
    g = write(tmp_path, "g.txt", [line(*EIGHT[0]), line(100, 500, 0)])
    with pytest.raises(fs.BadInput, match=r"g.txt:2: field ideal_ns = '0': expected a number > 0"):
        fs.read_fct(g)
    assert fs.main(["x=" + f]) == 2
    assert "fct.txt:2" in capsys.readouterr().err
    assert fs.main(["x=" + str(tmp_path / "missing.txt")]) == 1
    ok = write(tmp_path, "ok.txt", [line(*x) for x in EIGHT])
    assert fs.main(["x=" + ok, "--step", "7"]) == 2  # 7 does not divide 100
    assert "--step 7: accepted a whole number that divides 100" in capsys.readouterr().err
