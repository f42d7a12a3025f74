# SPDX-License-Identifier: GPL-2.0-only
"""The HPCC simulator's user tools, ported: analysis/fct_analysis.py (its
fct_analysis.py), analysis/trace_reader.py (its trace_reader) and
examples/gen_flows.py with its traffic_gen.py arguments. Values by hand."""
import os
import struct
import sys

import pytest

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, "..", "..", "examples"))
import gen_flows as gf  # noqa: E402
from analysis import fct_analysis as fa  # noqa: E402
from analysis import trace_reader as trd  # noqa: E402
import test_fct_slowdown as tfs  # noqa: E402


# The fct lines and the eight flows of fct_slowdown's tests (slowdowns 3,
# 0.5 -> 1, 2, 4, 16, 6, 10, 7), as both simulators write them.
write, fct_line, EIGHT = tfs.write, tfs.line, tfs.EIGHT


def test_fct_analysis_bins_and_its_text(tmp_path, capsys):
    lines = [fct_line(*x) for x in EIGHT]
    lines.append(fct_line(50, 90000, 1000, dport=200))                 # incast: not -t 0
    lines.append(fct_line(60, 200000000, 1000, start=2900000000))      # ends after -T 3e9
    f = write(tmp_path, "fct.txt", lines)
    # Sorted by size: 100:1 200:2 | 300:3 400:4 | 500:10 600:6 | 700:7 800:16;
    # 2 flows a bin, p = s[floor(2 p)] = s[1] for 0.5, 0.95 and 0.99.
    assert fa.main(["-s", "25", f]) == 0
    assert capsys.readouterr().out == (
        "0.000 200\t2.000 2.000 2.000\n"
        "0.250 400\t4.000 4.000 4.000\n"
        "0.500 600\t10.000 10.000 10.000\n"
        "0.750 800\t16.000 16.000 16.000\n")
    # -t 1: only the incast flow (slowdown 90), one bin of one flow.
    assert fa.main(["-s", "100", "-t", "1", f]) == 0
    assert capsys.readouterr().out == "0.000 50\t90.000 90.000 90.000\n"
    # -t 2 -T 4e9: all 10 flows; bins at floor(2.5 k): 0, 2, 5, 7, 10.
    # Sizes 50:90 60:1e5 | 100:1 200:2 300:3 | 400:4 500:10 | 600:6 700:7 800:16.
    assert fa.main(["-s", "25", "-t", "2", "-T", "4000000000", f]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "0.000 60\t200000.000 200000.000 200000.000"
    # Bin 1 holds 3 flows, slowdowns 1 2 3: s[floor(1.5)] = 2, s[floor(2.85)] = 3.
    assert out[1] == "0.250 300\t2.000 3.000 3.000"


def test_fct_analysis_prefix_and_cc_names_side_by_side(tmp_path, capsys):
    write(tmp_path, "fct_fat_a.txt", [fct_line(*x) for x in EIGHT])
    # b: every fct doubled: slowdowns 6, 1, 4, 8, 32, 12, 20, 14.
    write(tmp_path, "fct_fat_b.txt", [fct_line(s, 2 * f, i) for s, f, i in EIGHT])
    assert fa.main(["-p", str(tmp_path / "fct_fat"), "-s", "50", "a", "b"]) == 0
    # 4 flows a bin, s[floor(4 p)] = s[2] for p50, s[3] for p95, p99.
    # a: 1 2 3 4 | 6 7 10 16; b: 1 4 6 8 | 12 14 20 32.
    assert capsys.readouterr().out == (
        "0.000 400\t3.000 4.000 4.000\t6.000 8.000 8.000\n"
        "0.500 800\t10.000 16.000 16.000\t20.000 32.000 32.000\n")


def test_fct_analysis_drop_largest_as_that_script(tmp_path, capsys):
    f = write(tmp_path, "fct.txt", [fct_line(*x) for x in EIGHT])
    # Without 800: 7 flows, bins at floor(1.75 k): 0, 1, 3, 5, 7.
    assert fa.main(["-s", "25", "--drop-largest", f]) == 0
    assert capsys.readouterr().out == (
        "0.000 100\t1.000 1.000 1.000\n"
        "0.250 300\t3.000 3.000 3.000\n"
        "0.500 500\t10.000 10.000 10.000\n"
        "0.750 700\t7.000 7.000 7.000\n")


def test_fct_analysis_errors(tmp_path, capsys):
    bad = write(tmp_path, "bad.txt", ["0b000001 0b000101 10000 100 300 0 3000"])
    assert fa.main([bad]) == 2
    assert "bad.txt:1" in capsys.readouterr().err
    assert fa.main([str(tmp_path / "none.txt")]) == 1
    ok = write(tmp_path, "ok.txt", [fct_line(*x) for x in EIGHT])
    assert fa.main(["-t", "3", ok]) == 2
    assert "-t 3" in capsys.readouterr().err


# ---- trace_reader ---------------------------------------------------------

def record(time, node, intf, qidx, qlen, sip, dip, size, prot, event, ecn, ntype, body):
    head = struct.pack("<QHBBIIIHBBBB", time, node, intf, qidx, qlen, sip, dip, size, prot,
                       event, ecn, ntype)
    assert len(head) == 30
    rec = head + b"\0\0" + body
    return rec + b"\0" * (56 - len(rec))


def make_trace(tmp_path, extra=b""):
    hdr = struct.pack("<I", 2) + struct.pack("<HBQ", 0, 1, 25000000000) + \
        struct.pack("<HBQ", 2, 1, 100000000000) + struct.pack("<I", 1234)
    data = record(2000000000, 0, 1, 3, 1070, 0x0b000001, 0x0b000101, 1070, 0x11, 2, 0, 0,
                  struct.pack("<HHIQHH", 10000, 100, 1000, 0, 3, 1000))
    ack = record(2000005000, 0, 1, 0, 0, 0x0b000101, 0x0b000001, 74, 0xFC, 0, 2, 0,
                 struct.pack("<HHHHIxxxxQ", 100, 10000, 1, 3, 3000, 0))
    pfc = record(2000006000, 2, 1, 0, 0, 0, 0, 64, 0xFE, 0, 0, 1,
                 struct.pack("<IIB", 65535, 0, 3))
    cnp = record(2000007000, 0, 1, 0, 0, 0x0b000101, 0x0b000001, 60, 0xFF, 0, 0, 0,
                 struct.pack("<HBBI", 10000, 3, 1, 0))
    p = tmp_path / "mix.tr"
    p.write_bytes(hdr + data + ack + pfc + cnp + extra)
    return str(p)


# That program's lines for the four records, derived from its printf formats.
LINES = [
    "2000000000 n:0 1:3 1070 Dequ ecn:0 0b000001 0b000101 10000 100 U 1000 0 3 1070(1000)",
    "2000005000 n:0 1:0 0 Recv ecn:2 0b000101 0b000001 100 10000 A 0x01 3 3000 0 74",
    "2000006000 n:2 1:0 0 Recv ecn:0 00000000 00000000 P 65535 0 3 64",
    "2000007000 n:0 1:0 0 Recv ecn:0 0b000101 0b000001 C 10000 3 1 0 60",
]


def run_reader(capsys, *args):
    rc = trd.main(list(args))
    return rc, capsys.readouterr().out.splitlines()


def test_trace_reader_header_and_records(tmp_path, capsys):
    f = make_trace(tmp_path)
    speeds, win, recs = trd.read_trace(f)
    assert speeds == {(0, 1): 25000000000, (2, 1): 100000000000}
    assert win == 1234
    assert len(recs) == 4
    assert run_reader(capsys, f) == (0, LINES)


def test_trace_reader_filters(tmp_path, capsys):
    f = make_trace(tmp_path)
    assert run_reader(capsys, f, "l3Prot=0xFC") == (0, [LINES[1]])
    # flow = sip,dip,sport,dport: the data one way; rflow the ACK; biflow both.
    fl = "0x0b000001,0x0b000101,10000,100"
    assert run_reader(capsys, f, "flow=" + fl) == (0, [LINES[0]])
    assert run_reader(capsys, f, "rflow=" + fl) == (0, [LINES[1]])
    assert run_reader(capsys, f, "biflow=" + fl) == (0, LINES[:2])
    assert run_reader(capsys, f, "queue=2,1,0") == (0, [LINES[2]])
    # Right to left: a & (b | c); parentheses group.
    assert run_reader(capsys, f, "node=0 & event=2 | l3Prot=0xFF") == (0, [LINES[0], LINES[3]])
    assert run_reader(capsys, f, "(time>=2000005000 & node!=2)") == (0, [LINES[1], LINES[3]])
    assert run_reader(capsys, f, "(event=0 | qidx=3) & size<70") == (0, [LINES[2], LINES[3]])
    # C notation: 010 is octal 8.
    assert run_reader(capsys, f, "qidx<010") == (0, LINES)


def test_trace_reader_errors(tmp_path, capsys):
    f = make_trace(tmp_path, extra=b"\1\2\3")  # a cut-off last record is not read
    assert run_reader(capsys, f)[1] == LINES
    assert trd.main([f, "nosuchfield=1"]) == 2
    assert "unknown field" in capsys.readouterr().err
    assert trd.main([str(tmp_path / "none.tr")]) == 1
    short = tmp_path / "short.tr"
    short.write_bytes(struct.pack("<I", 5))
    assert trd.main([str(short)]) == 2


# ---- gen_flows with traffic_gen.py's arguments ----------------------------

def test_bandwidth_units():
    assert gf.bandwidth("25G") == 25e9
    assert gf.bandwidth("100G") == 100e9
    assert gf.bandwidth("10M") == 10e6
    assert gf.bandwidth("1.5K") == 1500
    assert gf.bandwidth("100e9") == 100e9
    for bad in ("25X", "G", "-1G", "0", "nan", "inf"):
        with pytest.raises(Exception):
            gf.bandwidth(bad)


def test_load_arithmetic_by_hand(tmp_path):
    # Sizes uniform in 1000..3000 B: mean 2000 B. At load 0.5 of 25 Gbps a
    # host offers 1.5625 GB/s: 781,250 flows/s, a gap of 1.28 us.
    pts = [(1000.0, 0.0), (3000.0, 100.0)]
    assert gf.mean_size(pts) == 2000.0
    assert gf.arrival_rate(0.5, 25e9, 2000.0) == 781250.0
    # Three segments: (0+10)/2*50% + (10+30)/2*25% + (30+100)/2*25% = 23.75.
    assert gf.mean_size([(0, 0), (10, 50), (30, 75), (100, 100)]) == pytest.approx(23.75)


def test_output_format_and_rates(tmp_path):
    cdf = write(tmp_path, "u.cdf", ["1000 0", "3000 100"])
    out = tmp_path / "flows.txt"
    gf.main(["-c", cdf, "-n", "4", "-l", "0.5", "-b", "25G", "-t", "0.01", "-o", str(out),
             "--seed", "1"])
    lines = out.read_text().splitlines()
    n = int(lines[0])
    assert n == len(lines) - 1
    # 4 hosts x 0.01 s x 781,250 = 31,250 flows expected; Poisson sd 177.
    assert abs(n - 31250) < 900
    starts, sizes = [], []
    for l in lines[1:]:
        src, dst, pg, dport, size, start = l.split()
        assert pg == "3" and dport == "100"
        assert 0 <= int(src) < 4 and 0 <= int(dst) < 4 and src != dst
        assert 1000 <= int(size) <= 3000
        assert len(start.split(".")[1]) == 9
        starts.append(float(start))
        sizes.append(int(size))
    assert starts == sorted(starts) and 2.0 <= starts[0] and starts[-1] < 2.01
    # Offered bytes / time / hosts = load x bandwidth / 8 = 1.5625e9 B/s.
    assert sum(sizes) / 0.01 / 4 == pytest.approx(1.5625e9, rel=0.04)
    # The long names give the same file.
    out2 = tmp_path / "flows2.txt"
    gf.main(["--cdf", cdf, "--hosts", "4", "--load", "0.5", "--bandwidth", "25e9", "--time",
             "0.01", "--output", str(out2), "--seed", "1"])
    assert out2.read_text() == out.read_text()
