# SPDX-License-Identifier: GPL-2.0-only
"""Every registered algorithm on the fat tree's WebSearch flows: the tables
and the slowdown plot (experiments/all-algos-fattree.toml); all_algos.py
writes the section."""
import os

import numpy as np
import pandas as pd

from analysis import fct_slowdown
from analysis.runs import read_summary
from analyses.common import COLORS, MARKERS, plt


def receiver_link_util(d, hosts, senders=2):
    """A receiver's link utilisation while it is shared: the switch-to-host
    links' utilisation (link.csv, per sample interval) over the intervals in
    which flows from at least `senders` different hosts to that host were
    active from the interval's start to its end (fct.csv), averaged over
    those intervals of every host. With two or more senders the receiver's
    link is where their flows meet, so what it leaves idle the algorithms
    left idle (a lone flow may be held back elsewhere, by its sender's
    other flows). None without a link.csv or such intervals."""
    lp = os.path.join(d, "link.csv")
    if not os.path.exists(lp):
        return None
    link = pd.read_csv(lp)
    link = link[link.peer < hosts]
    times = np.sort(link.time_ns.unique())
    if len(times) < 2:
        return None
    step = int(times[1] - times[0])
    f = pd.read_csv(os.path.join(d, "fct.csv"))
    used = []
    for h, x in link.groupby("peer"):
        g = f[f.dst == h]
        if g.empty:
            continue
        t = x.time_ns.to_numpy()[:, None]
        active = ((g.start_ns.to_numpy()[None, :] <= t - step)
                  & ((g.start_ns.to_numpy() + g.fct_ns.to_numpy())[None, :] >= t))
        src = g.src.to_numpy()
        n_senders = sum(active[:, src == s_].any(axis=1).astype(int) for s_ in np.unique(src))
        used.append(x.utilization.to_numpy()[n_senders >= senders])
    used = np.concatenate(used) if used else np.array([])
    return float(used.mean()) if len(used) else None


def analyse(runs, out):
    rs = [r for r in runs if r.exp == "all-algos-fattree"]
    if not rs:
        return None
    exp_dir = os.path.join(out, "all-algos-fattree")
    algos = list(dict.fromkeys(r.labels["algo"] for r in rs))
    k = rs[0].labels["k"]
    hosts = k ** 3 // 4
    per_run, tables, coarse = [], [], []
    for r in rs:
        d = r.dir(out)
        kv = read_summary(os.path.join(d, "stdout.txt"))
        q = pd.read_csv(os.path.join(d, "queue.csv"))
        per_run.append({"algo": r.labels["algo"], "seed": r.labels["seed"],
                        "flows": int(kv["flows"]), "completed": int(kv["completed"]),
                        "simulated_ms": float(kv["simulated_ms"]),
                        "pfc_pauses": int(kv["pfc_pauses"]),
                        "pfc_deadlock": kv["pfc_deadlock"],
                        "queue_peak_kb": float(q.bytes.max()) / 1e3 if len(q) else 0.0,
                        "shared_link_util": receiver_link_util(d, hosts)})
    pr = pd.DataFrame(per_run)
    pr.to_csv(os.path.join(exp_dir, "summary.csv"), index=False)
    for a in algos:
        files = [os.path.join(r.dir(out), "fct.txt") for r in rs if r.labels["algo"] == a]
        df = fct_slowdown.pooled(files)
        for step, acc in ((5, tables), (20, coarse)):
            t = fct_slowdown.bins(df, step=step)
            t.insert(0, "algo", a)
            acc.append(t)
    bins = pd.concat(tables, ignore_index=True)
    bins.to_csv(os.path.join(exp_dir, "bins.csv"), index=False, float_format="%.4f")
    coarse = pd.concat(coarse, ignore_index=True)
    coarse.to_csv(os.path.join(exp_dir, "bins20.csv"), index=False, float_format="%.4f")
    fig, axs = plt.subplots(1, 3, figsize=(17, 4.6))
    for ax, (col, title) in zip(axs, (("p50", "median"), ("p95", "95th percentile"),
                                      ("p99", "99th percentile"))):
        for j, a in enumerate(algos):
            t = bins[bins.algo == a]
            ax.plot(t.max_size_bytes, t[col], marker=MARKERS[j % len(MARKERS)], ms=4,
                    color=COLORS.get(a), label=a)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("flow size (bytes, bin's largest)")
        ax.set_ylabel("FCT slowdown")
        ax.set_title(title)
        ax.grid(alpha=0.3, which="both")
    axs[-1].legend(fontsize=7, ncol=2)
    fig.suptitle("WebSearch, 50%% load, k=%d fat tree: FCT slowdown per 5%% size bin, "
                 "seeds pooled" % k)
    fig.tight_layout()
    fig.savefig(os.path.join(exp_dir, "slowdown.png"), dpi=90)
    plt.close(fig)
    pr["unfinished"] = pr.flows - pr.completed
    pr["deadlocks"] = (pr.pfc_deadlock == "yes").astype(int)
    agg = pr.groupby("algo", sort=False).agg(
        flows=("flows", "sum"), unfinished=("unfinished", "sum"),
        deadlocks=("deadlocks", "sum"), pfc_pauses=("pfc_pauses", "sum"),
        queue_peak_kb=("queue_peak_kb", "max"),
        shared_link_util=("shared_link_util", "mean"),
        last_finish_ms=("simulated_ms", "mean")).reset_index()
    agg.to_csv(os.path.join(exp_dir, "algos.csv"), index=False, float_format="%.4f")
    return agg, coarse, rs
