#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The tables of docs/writing-an-algorithm.md: aimd-ecn against HPCC, as
markdown, from the summaries the sweep tool gathered for
examples/plugin/dumbbell.toml and fattree.toml.

    examples/plugin/compare.py [OUT]     # OUT: the grids' out (out/sweeps)
"""
import argparse
import os
import sys

import pandas as pd


def markdown(df, cols):
    """cols: (heading, column or function of the row) pairs."""
    lines = ["| " + " | ".join(h for h, _ in cols) + " |", "|" + "---|" * len(cols)]
    for _, r in df.iterrows():
        cells = [c(r) if callable(c) else r[c] for _, c in cols]
        lines.append("| " + " | ".join(str(x) for x in cells) + " |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", nargs="?", default="out/sweeps", help="the grids' out directory")
    out = ap.parse_args().out
    d = pd.read_csv(os.path.join(out, "aimd-ecn-dumbbell", "summary.csv"))
    f = pd.read_csv(os.path.join(out, "aimd-ecn-fattree", "summary.csv"))
    print(markdown(d, [
        ("algorithm", "algo"), ("queue peak (KB)", "queue_peak_kb"),
        ("queue mean (KB)", "queue_mean_kb"), ("bottleneck utilisation", "bottleneck_utilization"),
        ("goodput flow0 / flow1, last 100 us (Gbps)",
         lambda r: "%.2f / %.2f" % (r.flow0_goodput_end_gbps, r.flow1_goodput_end_gbps)),
        ("PFC pauses", "pfc_pauses")]))
    print()
    print(markdown(f, [
        ("algorithm", "algo"), ("seed", "seed"), ("flows", "flows"),
        ("FCT slowdown avg", lambda r: "%.2f" % r.slowdown_avg),
        ("p50", lambda r: "%.2f" % r.slowdown_p50), ("p95", lambda r: "%.2f" % r.slowdown_p95),
        ("p99", lambda r: "%.2f" % r.slowdown_p99), ("PFC pauses", "pfc_pauses")]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
