#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write a pod-based three-tier fat tree in the HPCC simulator's topology format.

    pod_fat_tree.py [--pods=5] [--tors=4] [--aggs=4] [--hosts=16] [--cores=16]
                    [--host-rate=100Gbps] [--fabric-rate=400Gbps] [--delay=1000ns]
                    [--flows=FILE] -o TOPO

The defaults give the shape of the HPCC simulator's own 320-host fat tree
(its simulation/mix/fat.txt, which is not ours to copy): 5 pods, each of
4 ToR switches with 16 hosts at 100 Gbps and 4 aggregation switches, every
ToR linked to every aggregation switch of its pod at 400 Gbps, and 16 core
switches in 4 planes: the i-th aggregation switch of every pod links to the
4 cores of plane i. 376 nodes (hosts first), 56 switches, 480 links, 1 us
each. docs/performance.md measures rdma-sim's peak RSS on it.

--flows also writes that simulator's default flow file's traffic (its
simulation/mix/flow.txt: hosts 2 and 3 each send 200 MB to host 1), starting
at 0 s, in the flow format rdma-sim --flows reads.
"""
import argparse


def build(pods, tors, aggs, hosts, cores, host_rate, fabric_rate, delay):
    n_hosts = pods * tors * hosts
    tor0 = n_hosts
    agg0 = tor0 + pods * tors
    core0 = agg0 + pods * aggs
    n_nodes = core0 + cores
    links = []
    for t in range(pods * tors):
        for h in range(hosts):
            links.append((t * hosts + h, tor0 + t, host_rate))
    for p in range(pods):
        for t in range(tors):
            for a in range(aggs):
                links.append((tor0 + p * tors + t, agg0 + p * aggs + a, fabric_rate))
    per_plane = cores // aggs
    for p in range(pods):
        for a in range(aggs):
            for c in range(per_plane):
                links.append((agg0 + p * aggs + a, core0 + a * per_plane + c, fabric_rate))
    lines = ["%d %d %d" % (n_nodes, n_nodes - n_hosts, len(links)),
             " ".join(str(s) for s in range(n_hosts, n_nodes))]
    lines += ["%d %d %s %s 0" % (a, b, rate, delay) for a, b, rate in links]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pods", type=int, default=5)
    ap.add_argument("--tors", type=int, default=4, help="ToR switches per pod")
    ap.add_argument("--aggs", type=int, default=4, help="aggregation switches per pod")
    ap.add_argument("--hosts", type=int, default=16, help="hosts per ToR")
    ap.add_argument("--cores", type=int, default=16)
    ap.add_argument("--host-rate", default="100Gbps")
    ap.add_argument("--fabric-rate", default="400Gbps")
    ap.add_argument("--delay", default="1000ns")
    ap.add_argument("--flows", help="also write the 2-flow incast (hosts 2, 3 -> 1) here")
    ap.add_argument("-o", required=True, help="topology file to write")
    a = ap.parse_args()
    for name in ("pods", "tors", "aggs", "hosts", "cores"):
        if getattr(a, name) < 1:
            ap.error("--%s=%d: must be at least 1" % (name, getattr(a, name)))
    if a.cores % a.aggs:
        ap.error("--cores=%d: must be a multiple of --aggs=%d (one plane of cores per "
                 "aggregation switch of a pod)" % (a.cores, a.aggs))
    if a.flows and a.pods * a.tors * a.hosts < 4:
        ap.error("--flows: needs at least 4 hosts (it sends from hosts 2 and 3 to host 1)")
    with open(a.o, "w") as f:
        f.write(build(a.pods, a.tors, a.aggs, a.hosts, a.cores, a.host_rate, a.fabric_rate,
                      a.delay))
    if a.flows:
        with open(a.flows, "w") as f:
            f.write("2\n2 1 3 100 200000000 0\n3 1 3 100 200000000 0\n")


if __name__ == "__main__":
    main()
