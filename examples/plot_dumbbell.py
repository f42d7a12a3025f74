#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compare dumbbell runs: print the summaries side by side and plot the
queue at the congestion point, the two flows' rates and the bottleneck
utilisation over time, one curve per algorithm.

    plot_dumbbell.py OUTDIR ALGO [ALGO...]

reads OUTDIR/dumbbell-ALGO/{summary.txt,queue.csv,rate.csv,link.csv} and
writes OUTDIR/dumbbell-queue.png, dumbbell-rates.png, dumbbell-util.png.
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROWS = [
    ("flow0_first_decrease_us", "flow0 first slows down (us)"),
    ("queue_peak_kb", "peak queue at CP (KB)"),
    ("queue_mean_kb", "mean queue at CP (KB)"),
    ("pfc_pauses", "PFC pause frames"),
    ("bottleneck_utilization", "bottleneck utilisation"),
    ("fair_convergence_us", "fair share within 10% after (us)"),
    ("flow0_rate_end_gbps", "flow0 rate at end (Gbps)"),
    ("flow1_rate_end_gbps", "flow1 rate at end (Gbps)"),
    ("wall_s", "wall time (s)"),
]


def read_summary(path):
    s = {}
    with open(path) as f:
        for line in f:
            if "=" in line:
                k, v = line.strip().split("=", 1)
                s[k] = v
    return s


def read_csv(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out = sys.argv[1]
    algos = sys.argv[2:]
    runs = {}
    for a in algos:
        d = os.path.join(out, "dumbbell-" + a)
        runs[a] = {"dir": d, "summary": read_summary(os.path.join(d, "summary.txt"))}

    # Summaries side by side.
    w = max(len(label) for _, label in ROWS) + 2
    print("".ljust(w) + "".join(a.rjust(12) for a in algos))
    for key, label in ROWS:
        print(label.ljust(w) + "".join(runs[a]["summary"].get(key, "-").rjust(12) for a in algos))

    # Queue at the congestion point.
    plt.figure(figsize=(8, 4))
    for a in algos:
        s = runs[a]["summary"]
        node, port = s["cp_node"], s["cp_port"]
        t, q = [], []
        for r in read_csv(os.path.join(runs[a]["dir"], "queue.csv")):
            if r["node"] == node and r["port"] == port:
                t.append(int(r["time_ns"]) / 1e3)
                q.append(int(r["bytes"]) / 1e3)
        plt.step(t, q, where="post", label=a)
    plt.xlabel("time (us)")
    plt.ylabel("queue at congestion point (KB)")
    plt.title("Dumbbell: queue of switch 1's port towards switch 2")
    plt.legend()
    plt.grid(alpha=0.3)
    plt.tight_layout()
    plt.savefig(os.path.join(out, "dumbbell-queue.png"), dpi=110)
    plt.close()

    # Rates of the two flows.
    fig, axes = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
    for a in algos:
        rows = read_csv(os.path.join(runs[a]["dir"], "rate.csv"))
        for flow, ax in zip(("0", "1"), axes):
            t = [int(r["time_ns"]) / 1e3 for r in rows if r["flow"] == flow]
            v = [int(r["rate_bps"]) / 1e9 for r in rows if r["flow"] == flow]
            ax.plot(t, v, label=a, linewidth=1)
    for flow, ax in zip(("0", "1"), axes):
        ax.set_ylabel("flow%s rate (Gbps)" % flow)
        ax.grid(alpha=0.3)
        ax.legend(loc="lower left")
    axes[1].set_xlabel("time (us)")
    axes[0].set_title("Dumbbell: sending rate set by the congestion control")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "dumbbell-rates.png"), dpi=110)
    plt.close(fig)

    # Bottleneck utilisation, averaged over 10 samples.
    plt.figure(figsize=(8, 3.5))
    for a in algos:
        rows = read_csv(os.path.join(runs[a]["dir"], "link.csv"))
        t = [int(r["time_ns"]) / 1e3 for r in rows]
        u = [float(r["utilization"]) for r in rows]
        k = 10
        ts = [t[i + k - 1] for i in range(0, len(t) - k + 1, k)]
        us = [sum(u[i:i + k]) / k for i in range(0, len(u) - k + 1, k)]
        plt.plot(ts, us, label=a, linewidth=1)
    plt.xlabel("time (us)")
    plt.ylabel("bottleneck utilisation")
    plt.ylim(0, 1.1)
    plt.legend(loc="lower left")
    plt.grid(alpha=0.3)
    plt.tight_layout()
    plt.savefig(os.path.join(out, "dumbbell-util.png"), dpi=110)
    plt.close()
    print("plots: %s/dumbbell-{queue,rates,util}.png" % out)


if __name__ == "__main__":
    main()
