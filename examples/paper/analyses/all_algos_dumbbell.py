# SPDX-License-Identifier: GPL-2.0-only
"""Every registered algorithm on Figure 9's dumbbell: the table and plots
(experiments/all-algos-dumbbell.toml); all_algos.py writes the section."""
import os

import numpy as np
import pandas as pd

from analysis.runs import read_summary
from analyses.common import COLORS, cp_queue, default_texts, grid_axes, plt


def goodput_windows(d, start_ns, window_ns=10000):
    """Each flow's goodput (Gbps, payload delivered in order) per window of
    window_ns from start_ns on, full windows only: rows = window, columns =
    flow (from the dumbbell's goodput.csv, whose rows are the sample
    intervals ending at time_ns)."""
    g = pd.read_csv(os.path.join(d, "goodput.csv"))
    times = np.sort(g.time_ns.unique())
    step = int(times[1] - times[0]) if len(times) > 1 else window_ns
    g = g[g.time_ns > start_ns].copy()
    g["window"] = (g.time_ns - start_ns - 1) // window_ns
    piv = g.pivot_table(index="window", columns="flow", values="goodput_gbps", aggfunc="mean")
    full = g.groupby("window").time_ns.nunique() == window_ns // step
    return piv[full.reindex(piv.index, fill_value=False)]


def goodput_fair_from_us(piv, window_us=10):
    """From when on (us after the windows' start) both flows' goodput stays
    within 10% of their mean in every window to the end, |g0 - g1| <= 0.1
    (g0 + g1), with something delivered; None if not by the end."""
    g0, g1 = piv[0].to_numpy(), piv[1].to_numpy()
    fair = (np.abs(g0 - g1) <= 0.1 * (g0 + g1)) & (g0 + g1 > 0)
    bad = np.flatnonzero(~fair)
    if len(bad) == 0:
        return 0.0
    if bad[-1] == len(fair) - 1:
        return None
    return float((bad[-1] + 1) * window_us)


def analyse(runs, out):
    rs = [r for r in runs if r.exp == "all-algos-dumbbell"]
    if not rs:
        return []
    exp_dir = os.path.join(out, "all-algos-dumbbell")
    algos = list(dict.fromkeys(r.labels["algo"] for r in rs))
    by = {(r.labels["algo"], r.labels["stop"]): r for r in rs}
    rows = []
    for a in algos:
        d1, d10 = by[(a, "1ms")].dir(out), by[(a, "10ms")].dir(out)
        s1 = read_summary(os.path.join(d1, "summary.txt"))
        s10 = read_summary(os.path.join(d10, "summary.txt"))
        join = float(s1["flow1_start_us"]) * 1e3
        fair10 = goodput_fair_from_us(goodput_windows(d10, join))
        # The queue's range over the second half of the 10 ms run (where it
        # settled, or how it oscillates there).
        tq, q = cp_queue(d10, s10)
        late = q[tq >= tq.max() / 2]
        rows.append({
            "algo": a,
            "first_decrease_us": s1["flow0_first_decrease_us"],
            "queue_peak_kb": float(s1["queue_peak_kb"]),
            "queue_mean_kb": float(s1["queue_mean_kb"]),
            "utilization": float(s1["bottleneck_utilization"]),
            "pfc_pauses": int(s1["pfc_pauses"]),
            "goodput_end_gbps": "%s / %s" % (s1["flow0_goodput_end_gbps"],
                                             s1["flow1_goodput_end_gbps"]),
            "rate_end_gbps": "%s / %s" % (s1["flow0_rate_end_gbps"], s1["flow1_rate_end_gbps"]),
            "rates_fair_from_us_10ms": s10["fair_convergence_us"],
            "goodput_fair_from_us_10ms": "none" if fair10 is None else "%.0f" % fair10,
            "goodput_end_gbps_10ms": "%s / %s" % (s10["flow0_goodput_end_gbps"],
                                                  s10["flow1_goodput_end_gbps"]),
            "utilization_10ms": float(s10["bottleneck_utilization"]),
            "queue_mean_kb_10ms": float(s10["queue_mean_kb"]),
            "queue_min_kb_5to10ms": round(float(late.min()), 1) if len(late) else 0.0,
            "queue_max_kb_5to10ms": round(float(late.max()), 1) if len(late) else 0.0,
        })
    t = pd.DataFrame(rows)
    t.to_csv(os.path.join(exp_dir, "summary.csv"), index=False)
    defaults = default_texts()
    pd.DataFrame([{"algo": a, "parameter": k, "default": v}
                  for a in algos for k, v in defaults.get(a, {}).items()]).to_csv(
        os.path.join(exp_dir, "defaults.csv"), index=False)
    # Queue at the congestion point over time, and the flows' goodput, one
    # panel per algorithm, the same axes throughout.
    for stop, name in (("1ms", "queues.png"), ("10ms", "queues-10ms.png")):
        fig, axs = grid_axes(len(algos), sharex=True, sharey=True)
        for ax, a in zip(axs, algos):
            d = by[(a, stop)].dir(out)
            tq, q = cp_queue(d, read_summary(os.path.join(d, "summary.txt")))
            ax.step(tq / (1 if stop == "1ms" else 1e3), q, where="post", color=COLORS.get(a, "k"))
            ax.set_title(a)
            ax.grid(alpha=0.3)
        for ax in axs:
            ax.set_xlabel("time (%s)" % ("us" if stop == "1ms" else "ms"))
            ax.set_ylabel("queue at CP (KB)")
        fig.suptitle("Figure 9's dumbbell, 100 Gbps, flow1 joins at 300 us: the congestion "
                     "point's queue, %s" % stop)
        fig.tight_layout()
        fig.savefig(os.path.join(exp_dir, name), dpi=90)
        plt.close(fig)
    for stop, name in (("1ms", "goodput.png"), ("10ms", "goodput-10ms.png")):
        fig, axs = grid_axes(len(algos), sharex=True, sharey=True)
        for ax, a in zip(axs, algos):
            d = by[(a, stop)].dir(out)
            piv = goodput_windows(d, 0)
            tt = (piv.index.to_numpy() + 1) * 10 / (1 if stop == "1ms" else 1e3)
            for flow, ls in ((0, "-"), (1, "--")):
                ax.plot(tt, piv[flow], ls, color=COLORS.get(a, "k"), label="flow%d" % flow)
            ax.set_title(a)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7)
        for ax in axs:
            ax.set_xlabel("time (%s)" % ("us" if stop == "1ms" else "ms"))
            ax.set_ylabel("goodput (Gbps)")
        fig.suptitle("Figure 9's dumbbell, 100 Gbps: each flow's goodput per 10 us, %s" % stop)
        fig.tight_layout()
        fig.savefig(os.path.join(exp_dir, name), dpi=90)
        plt.close(fig)
    return t, defaults
