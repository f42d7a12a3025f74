# SPDX-License-Identifier: GPL-2.0-only
"""The section on every registered algorithm: the dumbbell's and the fat
tree's tables (all_algos_dumbbell.py, all_algos_fattree.py) and what the
numbers show."""
import pandas as pd

from analyses import all_algos_dumbbell, all_algos_fattree
from analyses.common import (default_texts, md_table, names, num, rocc_recovery_mbps,
                             size_label, ticked)


def analyse(runs, out):
    dres = all_algos_dumbbell.analyse(runs, out)
    fres = all_algos_fattree.analyse(runs, out)
    if not dres and not fres:
        return []
    algos = list(dict.fromkeys(r.labels["algo"] for r in runs
                               if r.exp in ("all-algos-dumbbell", "all-algos-fattree")))
    defaults = default_texts()
    d = {a: defaults.get(a, {}) for a in algos}

    def dflt(a, *keys):
        return ", ".join("%s=%s" % (k, d[a][k]) for k in keys if k in d[a])

    md = ["## Every algorithm on the dumbbell and the fat tree", "",
          "Every algorithm libcc registers (`libcc-replay --list`; paper.py reads the "
          "list and the defaults from `libcc-replay --list --json`): %s. Each runs with "
          "its default parameters (no `--cc`), except `dcqcn`, which keeps the DCQCN paper's "
          "values as "
          "everywhere on this page (the dumbbell's `--preset=auto`, `rdma-sim "
          "--cc=preset=paper`). The defaults as libcc prints them are in "
          "`out/paper/all-algos-dumbbell/defaults.csv`; each algorithm's page names the "
          "source of every default (its \"Where each default comes from\" table): the "
          "DCQCN paper (`dcqcn`), the HPCC++ draft and the HPCC simulator (`hpcc`, `hpcc++`, "
          "`hpcc-pint`, `dctcp`), the FNCC paper (`fncc`), the TIMELY paper (`timely`), "
          "Google's Isekai simulator (`swift`: %s), the PowerTCP paper and simulator "
          "(`powertcp`, `theta-powertcp`), Cisco's patent and the public OMNeT++ model "
          "(`rocc`: %s). Some are libcc's own choices, not a source's: Swift's endpoint "
          "target ([swift.md](algorithms/swift.md)) and RoCC's queue thresholds q_ref, "
          "q_mid and q_max ([rocc.md](algorithms/rocc.md)); DCTCP's K (%s: 3 KB per Gbps of the port, 300 KB "
          "at 100 Gbps) is the HPCC simulator's ([dctcp.md](algorithms/dctcp.md)). `hpcc++` with its defaults (INT on every "
          "packet, no Rx-HPCC, no receiver N) is HPCC's controller on HPCC's INT, so its "
          "rows equal `hpcc`'s." % (
              ", ".join("`%s`" % a for a in algos),
              dflt("swift", "base_target", "hop_scale", "fs_range", "fs_max_cwnd", "min_rto"),
              dflt("rocc", "alpha", "beta", "interval", "recovery", "q_ref", "q_mid", "q_max"),
              dflt("dctcp", "k") or "n/a"), ""]
    if dres:
        md += dumbbell_section(dres, d)
    if fres:
        md += fattree_section(fres, dres, d)
    return md


def dumbbell_section(dres, d):
    """The dumbbell's table and what it shows; d: each algorithm's default texts."""
    md = []
    t, _ = dres
    t1 = t.drop(columns=["queue_min_kb_5to10ms", "queue_max_kb_5to10ms"])
    md += ["### Figure 9's dumbbell", "",
           "`dumbbell --algo=<a>` (2 senders, 3 switches, 100 Gbps, 1.5 us links, flow1 "
           "joins at 300 us, PFC 500 KB per ingress), 1 ms as the paper, and the same "
           "for 10 ms (`--stop=10ms`, the `_10ms` columns). first_decrease_us: when "
           "flow0's rate first fell 5% below its rate at flow1's start (none: not in "
           "1 ms); queue at the congestion point and utilisation of its link after "
           "flow1 joined; goodput_end_gbps: each flow's payload delivered in order in "
           "the last 100 us (1000-byte payloads in 1094 line bytes: a 100 Gbps link "
           "carries at most 91.4 Gbps of goodput, 45.7 per flow); rate_end_gbps: the "
           "senders' pacing rates at the end (a window-bound flow can pace at line "
           "rate); rates_fair_from_us: from when on (after flow1 joined) both pacing "
           "rates stay within 10% of 50 Gbps (the dumbbell's fair_convergence_us); "
           "goodput_fair_from_us: from when on both flows' goodput per 10 us stays "
           "within 10% of their mean. PFC alone equalises goodput (it pauses both "
           "senders' ingress ports alike), so a fair goodput with a standing queue "
           "of ~1 MB is PFC's doing, not the algorithm's.", "",
           md_table(t1, list(t1.columns)), ""]
    fd = num(t.first_decrease_us)
    lowq = t[t.queue_mean_kb < 10]
    mid = t[(t.queue_mean_kb >= 10) & (t.pfc_pauses == 0)]
    pfc = t[t.pfc_pauses > 0]
    lossy = t[t.utilization < 0.9].sort_values("utilization")
    lossy10 = t[t.utilization_10ms < 0.9].sort_values("utilization_10ms")
    nocut = [a for a in ("dctcp",) if a in set(t[fd.isna()].algo)]
    fair_rates = num(t.rates_fair_from_us_10ms)
    g10 = t.goodput_end_gbps_10ms.str.split(" / ", expand=True).astype(float)
    unfair10 = t[(g10[0] - g10[1]).abs() > 0.1 * (g10[0] + g10[1])]
    by_algo = t.set_index("algo")
    bullets = [
        "- **Queue near zero** (mean below 10 KB after flow1 joined): %s, with peaks "
        "of %.0f-%.0f KB while flow1 ramps up." % (
            names(map(ticked, lowq.algo)), lowq.queue_peak_kb.min(),
            lowq.queue_peak_kb.max()),
        "- **A standing queue without PFC**: %s." % names(
            "%s %.0f KB mean" % (ticked(r.algo), r.queue_mean_kb) for r in mid.itertuples())
        + (" %s never cuts in the first ms: each flow's window is capped at one BDP "
           "(its start window), so two flows hold about one BDP of queue, below DCTCP's "
           "K, and nothing signals congestion (with a smaller K, `--cc=k=50KB`, DCTCP "
           "reacts)." % " and ".join(map(ticked, nocut)) if nocut else "")
        + (" `swift` cuts its window once the shared queue passes its delay target "
           "([swift.md](algorithms/swift.md)) but paces at line rate above one packet, "
           "so first_decrease_us, a rate, shows none." if "swift" in set(t[fd.isna()].algo)
           else ""),
        "- **PFC holds the queue** (pauses in the first ms): %s." % names(
            "%s %d pauses, %.0f KB mean" % (ticked(r.algo), r.pfc_pauses, r.queue_mean_kb)
            for r in pfc.itertuples()),
        "- **Utilisation lost** (below 0.9 of the link after flow1 joined): in the "
        "first ms %s; over 10 ms %s. HPCC, HPCC++ and FNCC sit at 0.91 in the first ms "
        "for the reason the lone-flow section gives (the 128-byte txBytes unit)." % (
            names("%s %.2f" % (ticked(r.algo), r.utilization) for r in lossy.itertuples()),
            names("%s %.2f" % (ticked(r.algo), r.utilization_10ms)
                  for r in lossy10.itertuples())),
        "- **Sharing**: both pacing rates are within 10%% of 50 Gbps for good within "
        "the first ms for %s; later for %s (after flow1 joined); not within 10 ms for "
        "%s.%s At 10 ms the two flows' goodput still differs by more than 10%% for "
        "%s." % (
            names(map(ticked, t[fair_rates < 700].algo)),
            names("%s %.1f ms" % (ticked(r.algo), float(r.rates_fair_from_us_10ms) / 1e3)
                  for r in t[fair_rates >= 700].itertuples()),
            names(map(ticked, t[fair_rates.isna()].algo)),
            " Window-bound flows pace at line rate, so for %s the goodput columns "
            "tell: equal within 10%% from %s after flow1 joined." % (
                " and ".join(map(ticked, nocut)),
                "; ".join("%s us (%s)" % (by_algo.goodput_fair_from_us_10ms[a], a)
                          for a in nocut))
            if nocut else "",
            names("%s (%s Gbps)" % (ticked(r.algo), r.goodput_end_gbps_10ms)
                  for r in unfair10.itertuples()))]
    if "timely" in by_algo.index and "t_low" in d.get("timely", {}):
        x = by_algo.loc["timely"]
        bullets.append(
            "- `timely` does not settle: from 5 to 10 ms its queue swings between %.0f "
            "and %.0f KB (%.0f-%.0f us of queueing at 100 Gbps on a ~12 us base RTT), "
            "around where the RTT crosses its t_low=%s, below which it only adds delta." % (
                x.queue_min_kb_5to10ms, x.queue_max_kb_5to10ms,
                x.queue_min_kb_5to10ms * 8e3 / 100e9 * 1e6,
                x.queue_max_kb_5to10ms * 8e3 / 100e9 * 1e6, d["timely"]["t_low"]))
    if "rocc" in by_algo.index:
        x = by_algo.loc["rocc"]
        rd = d.get("rocc", {})
        up = rocc_recovery_mbps()
        bullets.append(
            "- `rocc`: the switch recomputes each port's fair rate every %s and tells "
            "each flow queued there (rates within 10%% of 50 Gbps from %.1f ms after "
            "flow1 joined); with an empty queue the rate rises by alpha x q_ref = %.0f "
            "Mbit/s per update divided by the self-tuning ratio (2^k below C/2^k). "
            "Goodput at 10 ms: %s Gbps; utilisation over the 10 ms %.3f." % (
                rd.get("interval", "?"), float(x.rates_fair_from_us_10ms) / 1e3, up,
                x.goodput_end_gbps_10ms, x.utilization_10ms))
    md += ["What the numbers show:", ""] + bullets + [
           "",
           "![queues, 1 ms](../out/paper/all-algos-dumbbell/queues.png)", "",
           "![goodput, 1 ms](../out/paper/all-algos-dumbbell/goodput.png)", "",
           "![queues, 10 ms](../out/paper/all-algos-dumbbell/queues-10ms.png)", "",
           "![goodput, 10 ms](../out/paper/all-algos-dumbbell/goodput-10ms.png)", ""]
    return md


def fattree_section(fres, dres, d):
    """The fat tree's tables and what they show (RoCC's line quotes the dumbbell's
    dres)."""
    md = []
    agg, coarse, rs = fres
    k = rs[0].labels["k"]
    seeds = sorted({r.labels["seed"] for r in rs})
    window = rs[0].labels["window"]
    edges = coarse[coarse.algo == agg.algo.iloc[0]].max_size_bytes.tolist()
    same = all(coarse[coarse.algo == a].max_size_bytes.tolist() == edges for a in agg.algo)
    cells = coarse.assign(cell=coarse.apply(
        lambda r: "%.2f / %.2f / %.2f" % (r.p50, r.p95, r.p99), axis=1))
    piv = cells.pivot(index="algo", columns="bin", values="cell").loc[agg.algo]
    piv.columns = ["<= %s" % size_label(e) for e in edges]
    a2 = agg.copy()
    a2["shared_link_util"] = a2.shared_link_util.round(3)
    a2["queue_peak_kb"] = a2.queue_peak_kb.round(1)
    a2["last_finish_ms"] = a2.last_finish_ms.round(2)
    md += ["### The fat tree", "",
           "`rdma-sim --fattree=%d --fattreeDelay=1.5us --traces=true --sample=%s "
           "--stop=1s` (%d hosts, 100 Gbps) on the WebSearch flow files of Figure 14's "
           "runs (`gen_flows.py --load 0.5`, %g ms of arrivals, seeds %s pooled). "
           "pfc_pauses: PAUSE frames, seeds summed; queue_peak_kb: the largest egress "
           "queue of any switch port; shared_link_util: a receiver's link utilisation "
           "over the %s intervals in which flows from two or more senders to it were "
           "active throughout (there the receiver's link is where they meet, so what "
           "stays idle the algorithm left idle), mean of the seeds; last_finish_ms: when "
           "the last flow finished (mean of the seeds; arrivals end at %g ms)." % (
               k, rs[0].labels["sample"], k ** 3 // 4, window * 1e3,
               ",".join(map(str, seeds)), rs[0].labels["sample"], window * 1e3), "",
           md_table(a2, list(a2.columns)), "",
           "FCT slowdown as `analysis/fct_slowdown.py` computes it (FCT over the "
           "standalone FCT, at least 1; flows sorted by size and cut into equal-count "
           "bins; percentiles by the HPCC simulator's rank rule), here in bins of 20%% "
           "of the flows, headed by the bin's largest flow, each cell median / p95 / "
           "p99 (5%% bins: `out/paper/all-algos-fattree/bins.csv` and the plot)%s:" % (
               "" if same else "; the bins' edges differ between algorithms (flows "
               "unfinished), the headers are %s's" % agg.algo.iloc[0]), "",
           md_table(piv.reset_index(), ["algo"] + list(piv.columns)), ""]
    first, last = piv.columns[0], piv.columns[-1]
    c0 = coarse[coarse.bin == coarse.bin.min()].set_index("algo")
    cl = coarse[coarse.bin == coarse.bin.max()].set_index("algo")
    best_small = c0.p99.sort_values()
    best_large = cl.p50.sort_values()
    pf = agg[agg.pfc_pauses > 0]
    md += ["What the numbers show:", "",
           "- **Short flows** (%s): the lowest p99 slowdown %s; the highest %s." % (
               first, names("%s %.2f" % (ticked(a), v) for a, v in best_small.head(4).items()),
               names("%s %.2f" % (ticked(a), v)
                     for a, v in best_small.tail(3)[::-1].items())),
           "- **Long flows** (%s): the lowest median slowdown %s; the highest %s." % (
               last, names("%s %.2f" % (ticked(a), v) for a, v in best_large.head(4).items()),
               names("%s %.2f" % (ticked(a), v)
                     for a, v in best_large.tail(3)[::-1].items())),
           "- **PFC**: %s; no other algorithm sent a PAUSE." % names(
               "%s %d pauses (peak queue %.0f KB)" % (ticked(r.algo), r.pfc_pauses,
                                                      r.queue_peak_kb)
               for r in pf.itertuples()),
           "- **The shared receiver link**: %s used it most; %s least." % (
               names("%s %.2f" % (ticked(r.algo), r.shared_link_util) for r in
                     agg.sort_values("shared_link_util", ascending=False).head(3)
                     .itertuples()),
               names("%s %.2f" % (ticked(r.algo), r.shared_link_util) for r in
                     agg.sort_values("shared_link_util").head(3).itertuples())),
           ]
    pk = agg.set_index("algo")
    small4, large2 = list(best_small.head(4).index), list(best_large.head(2).index)
    if (pk.loc[small4].queue_peak_kb.max() < pk.loc[large2].queue_peak_kb.min()
            and pk.loc[small4].shared_link_util.max() < pk.loc[large2].shared_link_util.min()):
        md.append(
            "- **Queue against throughput**: the lowest short-flow tails (%s) come with "
            "peak queues of %.0f-%.0f KB; the fastest long flows "
            "(%s) with more queue (peaks %.0f-%.0f KB) and the receivers' shared links "
            "busier (%s)." % (
                names(map(ticked, small4)), pk.loc[small4].queue_peak_kb.min(),
                pk.loc[small4].queue_peak_kb.max(), names(map(ticked, large2)),
                pk.loc[large2].queue_peak_kb.min(), pk.loc[large2].queue_peak_kb.max(),
                ", ".join("%.2f" % pk.shared_link_util[a] for a in large2)))
    if "rocc" in agg.algo.values and "none" in agg.algo.values:
        ro, no = agg.set_index("algo").loc["rocc"], agg.set_index("algo").loc["none"]
        rd = d.get("rocc", {})
        worse = (ro.pfc_pauses >= no.pfc_pauses and ro.last_finish_ms >= no.last_finish_ms
                 and c0.p99["rocc"] >= c0.p99["none"])
        conv = (num(pd.Series([dres[0].set_index("algo").rates_fair_from_us_10ms["rocc"]]))
                .iloc[0] if dres and "rocc" in dres[0].algo.values else float("nan"))
        md.append(
            "- **`rocc` with its sources' defaults** (Cisco's patent and the public "
            "OMNeT++ model; q_ref, q_mid and q_max are libcc's choices) %s: %d PFC pauses "
            "(`none`: %d), the last flow done at %.1f ms (`none`: %.1f), short-flow p99 "
            "%.1f (`none`: %.1f). Each port's fair rate is recomputed every %s: halved "
            "when its queue grew by q_mid in one period, f_min past q_max, else the PI "
            "step%s; it rises by at most alpha x q_ref = %.0f Mbit/s per update once the "
            "queue is empty. The paper left RoCC out of its large-scale runs for 'the "
            "poor performance of RoCC at the microsecond level'; %s "
            "([rocc.md](algorithms/rocc.md) has its sensitivity to those choices)." % (
                "is no better than no congestion control here" if worse
                else "against no congestion control",
                ro.pfc_pauses, no.pfc_pauses, ro.last_finish_ms, no.last_finish_ms,
                c0.p99["rocc"], c0.p99["none"], rd.get("interval", "?"),
                " (on the dumbbell above its rates came within 10%% of the fair share "
                "%.1f ms after flow1 joined)" % (conv / 1e3) if conv == conv else "",
                rocc_recovery_mbps(),
                "with these parameters that is what is seen" if worse
                else "here it does better than no congestion control"))
    md += ["", "![slowdown per size bin](../out/paper/all-algos-fattree/slowdown.png)", ""]
    return md
