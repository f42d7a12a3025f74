# SPDX-License-Identifier: GPL-2.0-only
"""Figures 11 and 13a-d: congestion at the first, middle and last hop
(experiments/hop-congestion.toml)."""
import os

import pandas as pd

import paper_numbers as paper
from analyses.common import md_table, plot_rates_and_queues, summaries


def analyse(runs, out):
    df = summaries(runs, out, "hop-congestion")
    if df.empty:
        return []
    md = []
    rows = []
    for where, key, label in (("first", "first", "fncc"), ("middle", "middle", "fncc"),
                              ("last", "last-nolhcs", "fncc-nolhcs"),
                              ("last", "last", "fncc")):
        x = df[df.congestion == where].set_index("algo")
        red = 1 - x.queue_peak_kb[label] / x.queue_peak_kb["hpcc"]
        rows.append({"congestion": key, "hpcc_peak_kb": x.queue_peak_kb["hpcc"],
                     "fncc_peak_kb": x.queue_peak_kb[label],
                     "reduction": "%.1f%%" % (100 * red),
                     "paper_reduction": "%.1f%%" % (100 * paper.QUEUE_REDUCTION_VS_HPCC[key]),
                     "hpcc_util": x.bottleneck_utilization["hpcc"],
                     "fncc_util": x.bottleneck_utilization[label]})
    t = pd.DataFrame(rows)
    t.to_csv(os.path.join(out, "hop-congestion", "reduction.csv"), index=False)
    plot_rates_and_queues(runs, out, "hop-congestion", "congestion",
                          ["first", "middle", "last"],
                          os.path.join(out, "hop-congestion", "queues-rates.png"))
    md += ["## Figures 11 and 13a-d: congestion at the first, middle and last hop", "",
           "`dumbbell --congestion=first|middle|last`: flow1's sender joins the 3-switch "
           "chain at the first, middle or last switch, so the two flows meet there. Peak "
           "queue at that congestion point, FNCC against HPCC (Figure 13a-c), with and "
           "without LHCS at the last hop:", "",
           md_table(t, list(t.columns)), "",
           "- the paper's order of the gains (first > middle > last without LHCS, and "
           "LHCS making the last hop the largest): ours %s" % ", ".join(
               "%s %s" % (r["congestion"], r["reduction"]) for r in rows),
           "", "Figure 13d (both flows' rates under last-hop congestion, HPCC, FNCC with "
           "and without LHCS) is the right column of the plot below. At the middle and "
           "last hop the two flows' paths differ in length (flow0 crosses 4 links, "
           "flow1 2 at the last hop), so each flow's base RTT T differs; HPCC's window "
           "targets eta B T per flow, and the flows settle at unequal rates (about 64 "
           "and 29 Gbps at the last hop). FNCC's last-hop speedup sets both to the same "
           "fair share from N. The HPCC simulator gives every flow one T (the largest "
           "base RTT, its GLOBAL_T), which hides this; libcc passes each flow its own "
           "(issue #13 adds the simulator's choice).", "",
           "![queues and rates](../out/paper/hop-congestion/queues-rates.png)", ""]
    return md
