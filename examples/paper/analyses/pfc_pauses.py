# SPDX-License-Identifier: GPL-2.0-only
"""Figure 3: PFC pause frames at 200 and 400 Gbps
(experiments/pfc-pauses.toml)."""
import os

import paper_numbers as paper
from analyses.common import ALGOS, COLORS, md_table, ordered, plt, summaries


def analyse(runs, out):
    df = summaries(runs, out, "pfc-pauses")
    if df.empty:
        return []
    md = []
    fig, ax = plt.subplots(figsize=(6, 4))
    piv = df.pivot(index="rate", columns="algo", values="pfc_pauses")[ALGOS]
    piv.plot.bar(ax=ax, color=[COLORS[a] for a in ALGOS])
    ax.set_ylabel("PAUSE frames at the congestion point")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "pfc-pauses", "pauses.png"), dpi=100)
    plt.close(fig)
    o = ordered(df, "pfc_pauses", True, "rate")
    md += ["## Figure 3: PFC pause frames at 200 and 400 Gbps", "",
           "The dumbbell with the 500 KB threshold on the congested egress queue "
           "(`--pfcScope=egress`): with the per-ingress threshold each sender holds half "
           "the queue and no algorithm ever pauses, which contradicts Figure 3; read as "
           "a bound on the congestion point's queue, the paper's sentence 'we enable PFC "
           "and set the PFC threshold to 500KB' gives pauses where the queue passes "
           "500 KB.", "", md_table(df, ["rate", "algo", "pfc_pauses", "queue_peak_kb"]),
           "", "- fncc fewest pauses (the paper: %s): %s" % (
               paper.ORDERINGS["pfc_pauses"],
               "; ".join("%d G: %s" % (g, "holds" if ok else "does not hold")
                         for g, (b, ok) in sorted(o.items()))),
           "", "![pauses](../out/paper/pfc-pauses/pauses.png)", ""]
    return md
