#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""One simulation over MPI ranks: measured points and a scaling model.

    mpi_scaling.py BINDIR DOC.md [--runs N] [--ms T] [--out DIR]

Runs rdma-sim on a k=8 fat tree (128 hosts, 100 Gbps, 1.5 us links) with
WebSearch flows at 50% load for T ms of arrivals, RUNS times in one process
(FastSimulatorImpl, Node order: the files every rank count writes) and
RUNS times over 2 ranks (scripts/mpirun.sh -np 2), alternating, and checks
that both wrote the same fct.txt. Before each run a fixed CPU loop is
timed: its spread is how steady the shared host was. From the 2-rank runs' own accounting
(rdma-sim's per-rank line: events, windows, frames between ranks, seconds
running events and exchanging) it derives the model's inputs and predicts
4 to 64 ranks on a cluster (docs/performance.md, "Distributed runs", says
how). Writes DIR/mpi-scaling.csv (every run), DIR/mpi-model.csv and
DIR/mpi-model.png, and the tables between '<!-- mpi:begin -->' and
'<!-- mpi:end -->' of DOC.md. Wall times are medians with their range: the
machine is shared.
"""
import argparse
import math
import os
import re
import subprocess
import sys
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

BEGIN = "<!-- mpi:begin -->"
END = "<!-- mpi:end -->"
TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RANK_LINE = re.compile(
    r"^rdma-sim: rank (\d+): (\d+) events, (\d+) windows, (\d+) frames to other ranks, "
    r"(\d+) from them, ([0-9.]+) s running events, ([0-9.]+) s exchanging, ([0-9.]+) s in Run$")
# The model's cluster assumptions (not measured here): latency of one
# MPI_Alltoall stage of small messages between nodes. Alltoall over P ranks
# takes about log2(P) stages for small messages.
INTERCONNECTS = {"InfiniBand HDR": 2e-6, "25G Ethernet (TCP)": 20e-6}


def run(np, cmd, i, rows):
    """One run over np ranks (0: alone, no launcher, the default Uid order);
    a row per rank from rdma-sim's accounting."""
    launch = ["bash", os.path.join(TOP, "scripts/mpirun.sh"), "-np", str(np)] if np else []
    p = subprocess.run(launch + cmd + ["--runStats"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("mpi_scaling: rdma-sim over %d rank(s) failed (exit %d): %s" % (
            np, p.returncode, p.stderr.strip()[-400:]))
    n = 0
    for line in p.stderr.splitlines():
        m = RANK_LINE.match(line)
        if m:
            r, ev, win, fs, fr, comp, exch, wall = m.groups()
            rows.append({"ranks": np, "run": i, "rank": int(r), "events": int(ev),
                         "windows": int(win), "frames_sent": int(fs), "compute_s": float(comp),
                         "exchange_s": float(exch), "run_s": float(wall)})
            n += 1
    if n != max(np, 1):
        sys.exit("mpi_scaling: %d of %d rank lines from rdma-sim" % (n, max(np, 1)))
    return max(r["run_s"] for r in rows[-max(np, 1):])


def host_loop_s():
    """Seconds of a fixed CPU loop in a fresh interpreter: the same work
    before every run, so its spread says how steady the host's CPU was
    (a shared VM's vCPU can run a third slower from one minute to the next,
    which load averages inside it do not show)."""
    p = subprocess.run([sys.executable, "-c",
                        "import time\nt = time.perf_counter()\ns = 0\n"
                        "for i in range(3000000):\n    s += i\n"
                        "print(time.perf_counter() - t)"],
                       capture_output=True, text=True, check=True)
    return float(p.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bindir")
    ap.add_argument("doc")
    ap.add_argument("--runs", type=int, default=5, help="runs of each (default 5)")
    ap.add_argument("--ms", type=float, default=2.0, help="ms of flow arrivals (default 2)")
    ap.add_argument("--out", default="out/bench", help="output directory (default out/bench)")
    a = ap.parse_args()
    if a.runs < 1 or not (0 < a.ms <= 1000):
        sys.exit("mpi_scaling: --runs must be >= 1 and --ms in (0, 1000]")
    os.makedirs(a.out, exist_ok=True)
    flows = os.path.join(a.out, "mpi-flows.txt")
    subprocess.run([sys.executable, os.path.join(TOP, "examples/gen_flows.py"), "-c",
                    os.path.join(TOP, "examples/data/websearch.cdf"), "-n", "128", "-l", "0.5",
                    "-b", "100G", "-t", str(a.ms / 1000), "--start", "0", "--seed", "1", "-o",
                    flows], check=True)
    nflows = int(open(flows).readline())
    sim = [os.path.join(a.bindir, "rdma-sim"), "--fattree=8", "--fattreeDelay=1500ns",
           "--flows=" + flows, "--algo=hpcc"]
    rows = []
    steady = []
    for i in range(a.runs):
        steady.append(host_loop_s())
        # Alone (Uid order, the fastest single process); one rank under the
        # launcher (the Node order: the files every rank count writes); two.
        w0 = run(0, sim + ["--out=" + os.path.join(a.out, "mpi0")], i, rows)
        w1 = run(1, sim + ["--out=" + os.path.join(a.out, "mpi1")], i, rows)
        w2 = run(2, sim + ["--out=" + os.path.join(a.out, "mpi2")], i, rows)
        print("run %d: Simulator::Run() alone %.2f s, 1 rank %.2f s, 2 ranks %.2f s; "
              "host loop %.3f s" % (i, w0, w1, w2, steady[-1]), flush=True)
    with open(os.path.join(a.out, "mpi1/fct.txt")) as f1, \
            open(os.path.join(a.out, "mpi2/fct.txt")) as f2:
        same = f1.read() == f2.read()
    if not same:
        sys.exit("mpi_scaling: 1 process and 2 ranks wrote different fct.txt")
    df = pd.DataFrame(rows)
    df["host_loop_s"] = df.run.map(dict(enumerate(steady)))
    df.to_csv(os.path.join(a.out, "mpi-scaling.csv"), index=False)

    alone = df[df.ranks == 0].set_index("run").run_s
    one = df[df.ranks == 1].set_index("run").run_s
    two = df[df.ranks == 2].groupby("run").run_s.max()
    # Each run's three measurements are taken back to back, so a ratio
    # within a run cancels most of the host's slow minutes.
    paired = pd.concat([alone, one], axis=1).min(axis=1) / two
    loop = pd.Series(steady)
    ranks2 = df[df.ranks == 2]
    # The median 2-rank run's per-rank accounting.
    mid = two.sort_values().index[len(two) // 2]
    r2 = ranks2[ranks2.run == mid]
    W = int(r2.windows.iloc[0])
    T1 = one.median()
    busiest = r2.compute_s.max()
    # Remote overhead: work over both ranks beyond one process's, per frame.
    frames = r2.frames_sent.sum()
    h = (r2.compute_s.sum() - T1) / frames if frames else 0.0
    clamped = h < 0
    h = max(0.0, h)
    imbalance = r2.events.max() / r2.events.mean()
    # Synchronisation per window: the busiest rank waits for no one, so its
    # exchange time is the exchange itself.
    s2 = float(r2.loc[r2.compute_s.idxmax(), "exchange_s"]) / W
    # Frames crossing ranks grow like the share of flows whose hosts are on
    # two ranks: 1 - 1/P for traffic between random hosts.
    f2 = frames
    model = []
    for P in [1, 2, 4, 8, 16, 32, 64]:
        F = f2 * (1 - 1 / P) / (1 - 1 / 2)
        compute = (T1 + h * F) / P * (imbalance if P > 1 else 1.0)
        for name, alpha in INTERCONNECTS.items():
            sync = 0.0 if P == 1 else W * alpha * math.log2(P)
            model.append({"ranks": P, "interconnect": name, "compute_s": compute,
                          "sync_s": sync, "wall_s": compute + sync,
                          "speedup": T1 / (compute + sync)})
    mdf = pd.DataFrame(model)
    mdf.to_csv(os.path.join(a.out, "mpi-model.csv"), index=False)

    fig, ax = plt.subplots(figsize=(6, 4))
    for name, g in mdf.groupby("interconnect"):
        ax.plot(g.ranks, g.speedup, marker="o", label="model, " + name)
    ax.plot([1, 2], [1.0, T1 / two.median()], "ks", label="measured here (2 cores, shared)")
    ax.plot([1, 64], [1, 64], "k:", linewidth=0.8, label="ideal")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    ax.set_xlabel("ranks")
    ax.set_ylabel("speed-up over one process")
    ax.set_title("k=8 fat tree, WebSearch 50%%, %g ms of arrivals" % a.ms)
    ax.legend(fontsize=7)
    fig.tight_layout()
    png = os.path.join(a.out, "mpi-model.png")
    fig.savefig(png, dpi=110)
    doc_png = os.path.join(os.path.dirname(a.doc), "img", "mpi-model.png")
    os.makedirs(os.path.dirname(doc_png), exist_ok=True)
    fig.savefig(doc_png, dpi=110)

    def rng(s):
        return "%.2f (%.2f-%.2f)" % (s.median(), s.min(), s.max())

    text = [
        BEGIN,
        "k=8 fat tree (128 hosts, 100 Gbps, 1.5 us links), hpcc, WebSearch at 50%% load, "
        "%d flows arriving in %g ms; %d runs each, alternating, on `%s` (%d cores, shared), "
        "%s. Written by `bench/mpi_scaling.py`." % (nflows, a.ms, a.runs, os.uname().nodename,
                                                  os.cpu_count(), time.strftime("%Y-%m-%d")),
        "",
        "| | Simulator::Run() wall s, median (range) | speed-up |",
        "|---|---:|---:|",
        "| 1 process alone (default Uid order) | %s | %.2f |" % (rng(alone),
                                                               T1 / alone.median()),
        "| 1 process (`scripts/mpirun.sh -np 1`: Node order) | %s | 1.00 |" % rng(one),
        "| 2 ranks (`scripts/mpirun.sh -np 2`) | %s | %.2f |" % (rng(two), T1 / two.median()),
        "",
        "2 ranks against the fastest single process: %.2fx on the medians; within each run "
        "(2 ranks against that run's faster single process) %s (the issue's goal: 1.6x)."
        % (min(alone.median(), one.median()) / two.median(), rng(paired)),
        "",
        "The host: a fixed CPU loop timed before each run took %s s (its slowest %.0f%% "
        "above its fastest); wall times move with it, and 2 ranks, which need both cores at "
        "once, move the most." % (rng(loop), 100 * (loop.max() / loop.min() - 1)),
        "",
        "The median 2-rank run's own accounting, per rank:",
        "",
        "| rank | events | windows | frames to the other rank | s running events | "
        "s exchanging |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for _, r in r2.sort_values("rank").iterrows():
        text.append("| %d | %d | %d | %d | %.2f | %.2f |" % (
            r["rank"], r.events, r.windows, r.frames_sent, r.compute_s, r.exchange_s))
    text += [
        "",
        "Model inputs from these: one process T1 = %.2f s; W = %d windows; a frame "
        "between ranks costs h = %.2f us of extra work (both ends); load imbalance (busiest "
        "rank's events over the mean) %.3f; exchange per window on this host s = %.1f us "
        "(the busiest rank's exchange time over W).%s" % (
            T1, W, h * 1e6, imbalance, s2 * 1e6,
            " h is clamped at 0: the two ranks together ran their events in less time than one "
            "process, each with half the network's state in its core's caches." if clamped
            else ""),
        "",
        "| ranks | " + " | ".join("%s: predicted wall s (speed-up)" % n for n in INTERCONNECTS)
        + " |",
        "|---:|" + "---:|" * len(INTERCONNECTS),
    ]
    for P, g in mdf.groupby("ranks"):
        text.append("| %d | " % P + " | ".join(
            "%.2f (%.1f)" % (g[g.interconnect == n].wall_s.iloc[0],
                             g[g.interconnect == n].speedup.iloc[0]) for n in INTERCONNECTS)
            + " |")
    text += ["", "![speed-up, model and measured](img/mpi-model.png)", END]
    doc = open(a.doc).read()
    if BEGIN in doc and END in doc:
        doc = doc[:doc.index(BEGIN)] + "\n".join(text) + doc[doc.index(END) + len(END):]
    else:
        doc += "\n" + "\n".join(text) + "\n"
    with open(a.doc, "w") as f:
        f.write(doc)
    print("\n".join(text[1:11]))


if __name__ == "__main__":
    main()
