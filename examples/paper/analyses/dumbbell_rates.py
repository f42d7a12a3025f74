# SPDX-License-Identifier: GPL-2.0-only
"""Figures 1b-d, 9, 10: the dumbbell at 100, 200 and 400 Gbps
(experiments/dumbbell-rates.toml)."""
import os

import pandas as pd

import paper_numbers as paper
from analyses.common import (default_texts, md_table, num, ordered,
                             plot_rates_and_queues, summaries)


def analyse(runs, out):
    df = summaries(runs, out, "dumbbell-rates")
    if df.empty:
        return []
    md = []
    long = df[df.stop == "10ms"]
    df = df[df.stop == "1ms"]
    plot_rates_and_queues(runs, out, "dumbbell-rates", "rate", [100, 200, 400],
                          os.path.join(out, "dumbbell-rates", "queues-rates.png"))
    df["paper_first_slowdown_us"] = df.algo.map(paper.FIRST_SLOWDOWN_US)
    cols = ["rate", "algo", "flow0_first_decrease_us", "paper_first_slowdown_us",
            "queue_peak_kb", "queue_mean_kb", "bottleneck_utilization",
            "fair_convergence_us", "pfc_pauses"]
    md += ["## Figures 1b-d, 9, 10: the dumbbell at 100, 200, 400 Gbps", "",
           "`dumbbell --algo=<a> --rate=<r>` (2 senders, 3 switches, 1.5 us links, "
           "flow1 joins at 300 us, PFC 500 KB per ingress, 1 ms). The paper's first "
           "slow-down times are at 100 Gbps (Figure 9b). RoCC, the figure's fourth "
           "curve, runs with libcc's defaults (%s; "
           "[docs/algorithms/rocc.md](algorithms/rocc.md)): the RoCC paper's values, "
           "which the FNCC paper says it used, were not available when libcc's RoCC "
           "was written, so these defaults are libcc's choices, not the paper's "
           "setting. flow0_first_decrease_us: when flow0's rate first fell 5%% below "
           "its rate at flow1's start; fair_convergence_us: from when on (after flow1 "
           "joined) both rates stay within 10%% of half the link." % ", ".join(
               "%s=%s" % kv for kv in default_texts().get("rocc", {}).items()), "",
           md_table(df, cols), ""]
    for name, col, low in (("peak queue", "queue_peak_kb", True),
                           ("utilisation", "bottleneck_utilization", False)):
        o = ordered(df, col, low, "rate")
        md.append("- %s, fncc %s (the paper: %s): %s" % (
            name, "lowest" if low else "highest",
            paper.ORDERINGS["queue_peak" if low else "utilization"],
            "; ".join("%d G: %s" % (g, "holds" if ok else "does not hold (best: %s)" % b)
                      for g, (b, ok) in sorted(o.items()))))
    if "rocc" in set(df.algo):
        o3 = ordered(df[df.algo != "rocc"], "bottleneck_utilization", False, "rate")
        ro = df[df.algo == "rocc"]
        md.append("  RoCC's utilisation: %s, with %s KB of queue on average at 100 Gbps "
                  "and %d PFC pauses. Without RoCC: %s." % (
                      ", ".join("%s at %d G" % (r.bottleneck_utilization, r.rate)
                                for r in ro.itertuples()),
                      ro[ro.rate == 100].queue_mean_kb.iloc[0],
                      ro[ro.rate == 100].pfc_pauses.iloc[0],
                      "; ".join("%d G: %s" % (g, "holds" if ok else
                                              "does not hold (best: %s)" % b)
                                for g, (b, ok) in sorted(o3.items()))))
    first = num(df[df.rate == 100].set_index("algo").flow0_first_decrease_us)
    md.append("- order of reaction at 100 Gbps (the paper: %s): %s" % (
        paper.ORDERINGS["reaction"], ", ".join(
            "%s %s" % (a, "%.0f us" % t if t == t else "never")
            for a, t in first.sort_values().items())))
    if "rocc" in first.index:
        others = first.drop("rocc")
        late = first["rocc"] == first["rocc"] and (first["rocc"] > others).all()
        md.append("- RoCC reacts last (the paper: at %.0f us, after DCQCN at %.0f us): "
                  "%s (RoCC at %.0f us)" % (
                      paper.FIRST_SLOWDOWN_US["rocc"], paper.FIRST_SLOWDOWN_US["dcqcn"],
                      "holds" if late else "does not hold", first["rocc"]))
        rd = default_texts().get("rocc", {})
        if all(k in rd for k in ("q_mid", "interval")) and first["rocc"] == first["rocc"]:
            md.append("  Why: the switch recomputes its fair rate on a timer, every %s "
                      "(its reference model's period), and at the first update after flow1 "
                      "joined the queue had grown by more than q_mid = %s in one period "
                      "while the rate was above an eighth of the link, so it halved the "
                      "rate (the model's multiplicative branch, before any PI step) and "
                      "told each queued flow: %.1f us after flow1 joined, at most one period "
                      "plus the feedback's trip. The paper's 370 us depends on where its "
                      "timer ticks fell and on its parameter file, which is not public "
                      "([rocc.md](algorithms/rocc.md))." % (
                          rd["interval"], rd["q_mid"],
                          first["rocc"] - float(df.flow1_start_us.iloc[0])))
    qmax = default_texts().get("rocc", {}).get("q_max")
    starved = df[(df.algo == "rocc") & (num(df.bottleneck_utilization) < 0.5)]
    if len(starved) and qmax:
        md.append("- RoCC at %s Gbps keeps under half the link (%s): the queue passes q_max "
                  "= %s (peaks %s KB) by the switch's first update after flow1 joined, which sets "
                  "the fair rate to f_min, and from there it climbs by alpha x q_ref per "
                  "update divided by the self-tuning ratio, at its largest (32) so low: "
                  "the reference model's arithmetic. q_max, like q_ref and q_mid, is "
                  "libcc's choice for 100 Gbit/s, where neither source gives one "
                  "([rocc.md](algorithms/rocc.md) has the sensitivity)." % (
                      " and ".join(str(r) for r in starved.rate),
                      ", ".join("%s at %d G" % (r.bottleneck_utilization, r.rate)
                                for r in starved.itertuples()),
                      qmax, " and ".join(str(r) for r in starved.queue_peak_kb)))
    slow = df[(df.algo == "rocc") & num(df.flow0_first_decrease_us).isna()]
    if len(slow):
        md.append("- RoCC at %s Gbps: flow0's rate never falls 5%% within the 1 ms "
                  "(its sensitivity to q_mid, q_max and the gains: "
                  "[rocc.md](algorithms/rocc.md))." % " and ".join(str(r) for r in slow.rate))
    if not long.empty:
        x = long.iloc[0]
        conv = num(pd.Series([x.fair_convergence_us])).iloc[0]
        md.append("- RoCC converges at the millisecond scale, not the microsecond scale "
                  "(the paper: 'hard to converge at the microsecond level', 'requires "
                  "millisecond-level delays to converge'): %s (`--stop=10ms`: both rates "
                  "within 10%% of half the link from %s after flow1 joined; peak queue "
                  "%s KB, PFC pauses %s; both senders' rates at 10 ms: %s and %s Gbps)"
                  % ("holds" if conv != conv or conv >= 1000 else "does not hold",
                     "never" if conv != conv else "%.2f ms" % (conv / 1e3),
                     x.queue_peak_kb, x.pfc_pauses, x.flow0_rate_end_gbps,
                     x.flow1_rate_end_gbps))
    md += ["", "![queues and rates](../out/paper/dumbbell-rates/queues-rates.png)", ""]
    return md
