#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Generate an HPCC-format flow file: Poisson arrivals between random host
pairs with sizes drawn from a CDF file (examples/data/*.cdf), at a given
load of the hosts' links, like the HPCC simulator's traffic generator.

    gen_flows.py --cdf examples/data/websearch.cdf --hosts 16 --load 0.3 \
                 --bandwidth 100e9 --time 0.01 --start 2.0 --seed 1 > flows.txt

Hosts are node ids 0..hosts-1 (the fat-tree helper numbers hosts first).
"""
import argparse
import bisect
import random


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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cdf", required=True, help="flow-size CDF: bytes percent per line")
    ap.add_argument("--hosts", type=int, required=True, help="number of hosts (ids 0..n-1)")
    ap.add_argument("--load", type=float, default=0.3, help="offered load per host link, 0..1")
    ap.add_argument("--bandwidth", type=float, default=100e9, help="host link rate, bits/s")
    ap.add_argument("--time", type=float, default=0.01, help="arrivals during this long, s")
    ap.add_argument("--start", type=float, default=2.0, help="first start time, s (HPCC: 2)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pg", type=int, default=3, help="priority group of the flows")
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    pts = read_cdf(a.cdf)
    mean = sum((pts[i][0] + pts[i - 1][0]) / 2 * (pts[i][1] - pts[i - 1][1]) / 100
               for i in range(1, len(pts)))
    # Arrivals per host per second so the offered bytes fill `load` of the link.
    rate = a.load * a.bandwidth / 8 / mean
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
    print(len(flows))
    for t, src, dst, size in flows:
        print("%d %d %d 100 %d %.9f" % (src, dst, a.pg, size, t))


if __name__ == "__main__":
    main()
