#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Generate an HPCC-format flow file: Poisson arrivals between random host
pairs with sizes drawn from a CDF file (examples/data/*.cdf), at a given
load of the hosts' links, like the HPCC simulator's traffic generator.

    gen_flows.py --cdf examples/data/websearch.cdf --hosts 16 --load 0.3 \
                 --bandwidth 100e9 --time 0.01 --start 2.0 --seed 1 > flows.txt

Hosts are node ids 0..hosts-1 (the fat-tree helper numbers hosts first).

The HPCC simulator's traffic_gen.py arguments work too, in its units:

    gen_flows.py -c examples/data/websearch.cdf -n 16 -l 0.3 -b 25G -t 0.01 -o flows.txt

-c/--cdf, -n/--nhost, -l/--load, -b/--bandwidth (bits/s, or with a suffix
G, M or K: 25G, 100G, 10M), -t/--time (seconds), -o/--output (a file;
default stdout). Its defaults differ: -b 10G and -t 10 there, 100G and
0.01 here (10 s of a 16-host websearch load is millions of flows).

Load arithmetic, as that generator: mean flow size = the CDF's trapezoid
mean, sum over its segments of (x0 + x1) / 2 x (p1 - p0) / 100; each host
starts flows as a Poisson process of rate load x bandwidth / 8 / mean per
second (mean gap 1 / rate); sizes by linear interpolation of the inverse
CDF, at least 1 byte; destinations uniform among the other hosts. The
first line is the number of flows (that script could leave a stale digit
there when its estimate was longer than the final count).
"""
import argparse
import bisect
import random
import sys


def read_cdf(path):
    pts = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if len(line) >= 2:
                pts.append((float(line[0]), float(line[1])))
    if not pts or pts[-1][1] != 100:
        raise SystemExit("%s: the last point must be at 100 percent" % path)
    return pts


def sample(pts, u):
    # Linear interpolation of the inverse CDF at u in [0, 100).
    ps = [p for _, p in pts]
    i = bisect.bisect_right(ps, u)
    if i == 0:
        return pts[0][0]
    if i >= len(pts):
        return pts[-1][0]
    (x0, p0), (x1, p1) = pts[i - 1], pts[i]
    return x0 if p1 == p0 else x0 + (x1 - x0) * (u - p0) / (p1 - p0)


def bandwidth(text):
    """bits/s from "25G", "100G", "10M", "1K" (traffic_gen.py's suffixes) or a number."""
    scale = {"G": 1e9, "M": 1e6, "K": 1e3}
    t = text.strip()
    try:
        v = float(t[:-1]) * scale[t[-1]] if t and t[-1] in scale else float(t)
    except ValueError:
        v = float("nan")
    if not v > 0 or v == float("inf"):
        raise argparse.ArgumentTypeError(
            "'%s': accepted bits/s > 0, a number or one with G, M or K (25G)" % text)
    return v


def mean_size(pts):
    """The CDF's mean flow size (bytes): trapezoids between its points."""
    return sum((pts[i][0] + pts[i - 1][0]) / 2 * (pts[i][1] - pts[i - 1][1]) / 100
               for i in range(1, len(pts)))


def arrival_rate(load, bandwidth_bps, mean_bytes):
    """Flows per second per host so their bytes fill `load` of the link."""
    return load * bandwidth_bps / 8 / mean_bytes


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-c", "--cdf", required=True, help="flow-size CDF: bytes percent per line")
    ap.add_argument("-n", "--hosts", "--nhost", dest="hosts", type=int, required=True,
                    help="number of hosts (ids 0..n-1)")
    ap.add_argument("-l", "--load", type=float, default=0.3, help="offered load per host link, 0..1")
    ap.add_argument("-b", "--bandwidth", type=bandwidth, default=100e9,
                    help="host link rate, bits/s or with G/M/K (25G)")
    ap.add_argument("-t", "--time", type=float, default=0.01, help="arrivals during this long, s")
    ap.add_argument("-o", "--output", default="", help="write here (default: stdout)")
    ap.add_argument("--start", type=float, default=2.0, help="first start time, s (HPCC: 2)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pg", type=int, default=3, help="priority group of the flows")
    a = ap.parse_args(argv)
    rnd = random.Random(a.seed)
    pts = read_cdf(a.cdf)
    rate = arrival_rate(a.load, a.bandwidth, mean_size(pts))
    flows = []
    for src in range(a.hosts):
        t = a.start + rnd.expovariate(rate)
        while t < a.start + a.time:
            dst = rnd.randrange(a.hosts - 1)
            dst += dst >= src
            size = max(1, int(sample(pts, rnd.uniform(0, 100))))
            flows.append((t, src, dst, size))
            t += rnd.expovariate(rate)
    flows.sort()
    lines = ["%d\n" % len(flows)]
    lines += ["%d %d %d 100 %d %.9f\n" % (src, dst, a.pg, size, t) for t, src, dst, size in flows]
    if a.output:
        with open(a.output, "w") as f:
            f.writelines(lines)
    else:
        sys.stdout.writelines(lines)


if __name__ == "__main__":
    main()
