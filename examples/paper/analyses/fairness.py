# SPDX-License-Identifier: GPL-2.0-only
"""Figure 13e: 4 senders joining and leaving, Jain's index per phase
(experiments/fairness.toml)."""
import os

import pandas as pd

from analyses.common import md_table, plt, summaries


def analyse(runs, out):
    df = summaries(runs, out, "fairness")
    if df.empty:
        return []
    md = []
    phases = []
    for r in (r for r in runs if r.exp == "fairness"):
        p = pd.read_csv(os.path.join(r.dir(out), "phases.csv"))
        p = p.groupby("phase").agg(active=("active_flows", "first"), jain=("jain", "first"),
                                   utilization=("utilization", "first")).reset_index()
        p["algo"], p["interval"] = r.labels["algo"], r.labels["interval"]
        phases.append(p)
        g = pd.read_csv(os.path.join(r.dir(out), "goodput.csv"))
        fig, ax = plt.subplots(figsize=(7, 3.5))
        for flow, x in g.groupby("flow"):
            ax.plot(x.time_ns / 1e6, x.goodput_gbps, label="flow%d" % flow)
        ax.set_xlabel("time (ms)")
        ax.set_ylabel("goodput (Gbps)")
        ax.set_title("%s, %s phases" % (r.labels["algo"], r.labels["interval"]))
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(os.path.join(out, "fairness", "%s.png" % r.name), dpi=100)
        plt.close(fig)
    ph = pd.concat(phases)
    ph.to_csv(os.path.join(out, "fairness", "jain.csv"), index=False)
    piv = ph.pivot_table(index=["interval", "phase", "active"], columns="algo",
                         values="jain").reset_index().round(4)
    md += ["## Figure 13e: fairness, 4 senders joining and leaving", "",
           "`fairness --interval=<T>`: a sender joins every T and they leave in the same "
           "order; Jain's index of the flows' goodput over the second half of each "
           "phase (the paper shows the throughput only, and says FNCC 'can achieve good "
           "fairness even in a short time scale'):", "",
           md_table(piv, list(piv.columns)), "",
           "![fairness](../out/paper/fairness/1ms-fncc.png)", ""]
    return md
