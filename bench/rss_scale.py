#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Peak RSS of rdma-sim against the fabric's size and the number of flows.

    rss_scale.py BIN_DIR DOC.md     (also run by hop_cost.py --table: make bench)

Runs rdma-sim (hpcc, 20 us simulated) on k-ary fat trees, k = 4 to 16, with
one flow and with 10,000 and 100,000 flows that start after the run ends (so
what they cost is their set-up: queue pairs, start events), and on the
HPCC simulator's 320-host fat tree shape (bench/pod_fat_tree.py, with that
simulator's 2-flow input), each under GNU time (/usr/bin/time, %M: the
kernel's peak RSS), and writes the table between '<!-- rss:begin -->' and
'<!-- rss:end -->' of DOC.md.
"""
import os
import random
import subprocess
import sys
import tempfile

from benchdoc import peak_rss_mb, write_block

HERE = os.path.dirname(os.path.abspath(__file__))
BEGIN = "<!-- rss:begin -->"
END = "<!-- rss:end -->"
STOP = "20us"
# (k, flow counts measured); "" where a cell is not run.
TREES = [(4, (1, 10000, 100000)), (8, (1,)), (12, (1,)), (16, (1, 10000, 100000))]
COUNTS = (1, 10000, 100000)


def write_flows(path, hosts, n):
    """n flows between random distinct hosts, 1 MB each; the first starts at
    0 s, the others at 1 s (after the run's end) unless n is 1."""
    rng = random.Random(1)
    lines = ["%d" % n, "0 1 3 100 1000000 0"]
    for _ in range(n - 1):
        src = rng.randrange(hosts)
        dst = (src + 1 + rng.randrange(hosts - 1)) % hosts
        lines.append("%d %d 3 100 1000000 1" % (src, dst))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def table(bindir, doc):
    sim = os.path.join(bindir, "rdma-sim")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        for k, counts in TREES:
            hosts = k ** 3 // 4
            cells = []
            for n in COUNTS:
                if n not in counts:
                    cells.append("")
                    continue
                flows = os.path.join(tmp, "flows-%d-%d.txt" % (k, n))
                write_flows(flows, hosts, n)
                mb = peak_rss_mb([sim, "--fattree=%d" % k, "--algo=hpcc", "--flows=" + flows,
                                  "--stop=" + STOP, "--out=" + out])
                cells.append("%.1f MB" % mb)
            rows.append("| k=%d | %s | %s | %s |" % (k, "{:,}".format(hosts),
                                                     "{:,}".format(5 * k * k // 4),
                                                     " | ".join(cells)))
        topo = os.path.join(tmp, "fat320.txt")
        flows = os.path.join(tmp, "fat320-flows.txt")
        subprocess.run([sys.executable, os.path.join(HERE, "pod_fat_tree.py"), "-o", topo,
                        "--flows=" + flows], check=True)
        pod = peak_rss_mb([sim, "--topo=" + topo, "--flows=" + flows, "--algo=hpcc",
                           "--stop=1ms", "--out=" + out])
    lines = [BEGIN,
             "Peak RSS of `rdma-sim` (hpcc, %s simulated; GNU time), written by "
             "`make bench` (bench/rss_scale.py)." % STOP,
             "",
             "| fat tree | hosts | switches | 1 flow | 10,000 flows not started yet "
             "| 100,000 flows not started yet |",
             "|---|---:|---:|---:|---:|---:|"] + rows + [
             "",
             "The HPCC simulator's own 320-host fat tree (its shape from "
             "bench/pod_fat_tree.py: 5 pods of 4 ToRs with 16 hosts each and 4 "
             "aggregation switches, 16 cores; 56 switches, 480 links) with its "
             "2-flow input, 1 ms simulated: **%.1f MB** (libcc 0.4: 33 MB)." % pod,
             END]
    write_block(doc, BEGIN, END, lines)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    table(sys.argv[1], sys.argv[2])


if __name__ == "__main__":
    main()
