#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Benchmark the dumbbell example and write the table into a markdown file.

    bench_dumbbell.py DUMBBELL_BINARY DOC.md ALGO [ALGO...]

Each algorithm runs 2 ms of simulated time without CSV traces, RUNS times;
the median run (by wall time) is reported, with the range of the rate over
all runs (wall time on a shared VM moves by tens of percent), and the rate
as a multiple of the ns-3.18 HPCC simulator's (HPCC_SIM_TX_PER_S, the
issue's figure for this dumbbell on this kind of machine). The table goes between the
markers '<!-- bench:begin -->' and '<!-- bench:end -->' of DOC.md.
"""
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time

RUNS = 5
HPCC_SIM_TX_PER_S = 0.8e6
BEGIN = "<!-- bench:begin -->"
END = "<!-- bench:end -->"


def run(binary, algo, outdir):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(
        [binary, "--algo=" + algo, "--stop=2ms", "--traces=false", "--out=" + outdir],
        capture_output=True, text=True, check=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    s = dict(l.split("=", 1) for l in p.stdout.splitlines() if "=" in l)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {
        "algo": algo,
        "packets": int(s["link_packets"]),
        "sim_wall": float(s["wall_s"]),
        "proc_wall": wall,
        "cpu": cpu,
        "rss": float(s["peak_rss_mb"]),
        "rp_bytes": int(s["libcc_rp_bytes_per_flow"]),
    }


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    binary, doc, algos = sys.argv[1], sys.argv[2], sys.argv[3:]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for a in algos:
            runs = sorted((run(binary, a, os.path.join(tmp, a)) for _ in range(RUNS)),
                          key=lambda r: r["sim_wall"])
            med = dict(runs[RUNS // 2])
            med["rate_max"] = runs[0]["packets"] / runs[0]["sim_wall"]
            med["rate_min"] = runs[-1]["packets"] / runs[-1]["sim_wall"]
            rows.append(med)
    links = 5  # dumbbell: 2 + 2 + 1 links, both directions carry packets
    lines = [
        "Dumbbell (2 senders, 3 switches, 100 Gbps), 2 ms simulated, no CSV traces, "
        "the example's defaults (FastSimulatorImpl; dcqcn with the `paper` preset); "
        "median of %d runs on `%s` (%d CPUs), %s." % (RUNS, platform.node(), os.cpu_count(),
                                                       time.strftime("%Y-%m-%d")),
        "",
        "| algorithm | link packet tx | wall s (Simulator::Run) | CPU s (process) "
        "| tx per wall s | range over runs | x HPCC sim | tx per CPU s | peak RSS MB "
        "| libcc_rp_size B/flow |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        rate = r["packets"] / r["sim_wall"]
        lines.append("| %s | %d | %.3f | %.3f | %.0f | %.2f-%.2f M | %.1f | %.0f | %.1f | %d |" % (
            r["algo"], r["packets"], r["sim_wall"], r["cpu"], rate, r["rate_min"] / 1e6,
            r["rate_max"] / 1e6, rate / HPCC_SIM_TX_PER_S, r["packets"] / r["cpu"], r["rss"],
            r["rp_bytes"]))
    lines.append("")
    lines.append("link packet tx = frames put on any link by any device (data, ACK, CNP, "
                 "PAUSE), summed over the %d links and both directions; x HPCC sim = tx per "
                 "wall s / %.1f M (the ns-3.18 HPCC simulator on this dumbbell, issue #4); "
                 "libcc_rp_size = bytes of one flow's libcc Reaction Point for the run's "
                 "parameters (libcc_rp_size(params))."
                 % (links, HPCC_SIM_TX_PER_S / 1e6))
    table = "\n".join(lines)
    print(table)
    text = open(doc).read() if os.path.exists(doc) else ""
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        text = head + BEGIN + "\n" + table + "\n" + END + tail
    else:
        text += "\n" + BEGIN + "\n" + table + "\n" + END + "\n"
    with open(doc, "w") as f:
        f.write(text)
    print("table written to", doc)


if __name__ == "__main__":
    main()
