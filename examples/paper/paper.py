#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run the FNCC paper's experiments (sections 2.2, 2.3 and 5) and write, per
experiment, a CSV of every run's summary, the plots, and the tables of the
results page.

    paper.py [--full] [--jobs N] [--bin build/bin] [--out out/paper]
             [--only EXP[,EXP...]] [--results docs/results.md]

Experiments (out/paper/<name>/):
  dumbbell-rates  Figs 1b-d, 9, 10: the dumbbell at 100/200/400 Gbps, DCQCN,
                  HPCC, FNCC and RoCC (the figure's four curves)
  pfc-pauses      Fig 3: PAUSE frames at 200/400 Gbps, threshold on the
                  congested egress queue (--pfcScope=egress, see results)
  hop-congestion  Figs 11, 13a-c: congestion at the first, middle, last hop,
                  FNCC with and without LHCS
  lhcs-rates      Fig 13d: both flows' rates under last-hop congestion
  lone-flow       one HPCC/FNCC flow alone on 1-5 switches: its rate against eta
  fairness        Fig 13e: 4 senders join and leave, Jain's index per phase,
                  at a short time scale (1 ms phases; --full adds 100 ms)
  large-scale     Figs 14, 15: fat tree, 100 Gbps, 1.5 us links, WebSearch and
                  FB_Hadoop at 50% load, FCT slowdown per size bin; quick:
                  k=4 (16 hosts), 20 ms of arrivals, 2 seeds; --full: k=8
                  (128 hosts), 50 ms, 5 seeds (the paper's scale)
  all-algos-dumbbell  every algorithm the binaries register (dumbbell
                  --help), default parameters, on Fig 9's dumbbell at 100 Gbps:
                  1 ms as the paper, and 10 ms for how long sharing takes
  all-algos-fattree   every algorithm rdma-sim registers on the large-scale
                  WebSearch flows (same k, seeds and flow files), with traces
                  for the receivers' link utilisation and the queues

A run is skipped when its directory holds a complete result of the same
binary (SHA-256) and arguments (params.json). Progress (runs done/total,
ETA) goes to stderr. Exit status: 0, 1 if a run failed or an output cannot
be written, 2 for bad arguments.
"""
import argparse
import functools
import os
import re
import shutil
import subprocess
import sys
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "analysis"))
import fct_slowdown  # noqa: E402
import paper_numbers as paper  # noqa: E402
from runs import Run, find_cdf, gen_flow_file, read_summary, run_all  # noqa: E402

# Large scale (Figures 14, 15): (fat-tree k, arrival window s, seeds).
SCALE_QUICK = (4, 0.02, [1, 2])
SCALE_FULL = (8, 0.05, [1, 2, 3, 4, 5])
WORKLOADS = {"websearch": "websearch.cdf", "hadoop": "fb_hadoop.cdf"}

ALGOS = ["dcqcn", "hpcc", "fncc"]
# Figure 9's curves: the three above and RoCC, the paper's switch-driven
# baseline (section 5.1).
FIG9_ALGOS = ALGOS + ["rocc"]
LONE_SWITCHES = (1, 2, 3, 5)
COLORS = {"dcqcn": "tab:blue", "hpcc": "tab:orange", "fncc": "tab:green",
          "fncc-nolhcs": "tab:olive", "rocc": "tab:red", "none": "black",
          "hpcc++": "tab:brown", "dctcp": "tab:purple", "timely": "tab:pink",
          "swift": "tab:gray", "powertcp": "tab:cyan", "theta-powertcp": "darkslategray",
          "hpcc-pint": "goldenrod"}
MARKERS = "os^vD<>phX*P8"
# The all-algorithms fat tree's trace sampling (rdma-sim --sample): the
# receivers' link utilisation is measured over intervals this long.
FATTREE_SAMPLE = {False: "10us", True: "100us"}


def registered_algos(bindir, program):
    """The algorithms a binary accepts, from its --help line
    "--algo=<one of a, b, ...>" (the names libcc registers); [] if the
    binary is missing or says nothing parseable."""
    try:
        p = subprocess.run([os.path.join(bindir, program), "--help"], capture_output=True,
                           text=True)
    except OSError:
        return []
    m = re.search(r"--algo=<one of ([^>]+)>", p.stdout + p.stderr)
    return [x.strip() for x in m.group(1).split(",")] if m else []


# Where the binaries are (main() sets it): the analysis quotes their defaults.
BIN = "build/bin"


@functools.lru_cache(maxsize=None)
def algo_defaults(program="dumbbell"):
    """{algo: {parameter: default text}} from the binary's --help tables
    ("  rocc parameters (--cc=...):" then "    q_ref=100KB  [...]  ..."),
    presets left out: the values the runs without --cc used."""
    try:
        p = subprocess.run([os.path.join(BIN, program), "--help"], capture_output=True, text=True)
    except OSError:
        return {}
    res, cur = {}, None
    for line in (p.stdout + p.stderr).splitlines():
        m = re.match(r"  (\S+) parameters \(--cc=", line)
        if m:
            cur = res.setdefault(m.group(1), {})
            continue
        m = re.match(r"    ([a-z_0-9]+)=(\S+)\s+\[", line)
        if m and cur is not None:
            cur[m.group(1)] = m.group(2)
    return res


def rocc_recovery_mbps(rd):
    """RoCC's fair-rate rise per update with an empty queue, alpha x q_ref,
    in Mbit/s, from its parameter texts rd (nan if they are not there)."""
    if "alpha" not in rd or "q_ref" not in rd:
        return float("nan")
    return parse_unit(rd["alpha"]) * parse_unit(rd["q_ref"]) / 1e6


def parse_unit(text):
    """'100KB' -> 1e5 (bytes), '20us' -> 2e-5 (s), '300' -> 300."""
    m = re.fullmatch(r"([0-9.e+-]+)\s*(B|KB|MB|GB|ns|us|ms|s)?", text)
    scale = {None: 1, "B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "ns": 1e-9, "us": 1e-6,
             "ms": 1e-3, "s": 1}
    return float(m.group(1)) * scale[m.group(2)]


# ---- the experiments ---------------------------------------------------------

def dumbbell_runs(full, algos=None):
    """algos: {program: the algorithms it registers} (registered_algos)."""
    algos = algos or {}
    runs = []
    fig9 = [a for a in FIG9_ALGOS if a in (algos.get("dumbbell") or ALGOS)]
    for rate in (100, 200, 400):
        for a in fig9:
            runs.append(Run("dumbbell-rates", "%dg-%s" % (rate, a), "dumbbell",
                            ["--algo=" + a, "--rate=%d" % rate], rate=rate, algo=a,
                            stop="1ms"))
    # The paper: RoCC converges only at the millisecond scale. Its run at
    # 100 Gbps, 10 ms long, says when.
    if "rocc" in fig9:
        runs.append(Run("dumbbell-rates", "100g-rocc-10ms", "dumbbell",
                        ["--algo=rocc", "--rate=100", "--stop=10ms"], rate=100, algo="rocc",
                        stop="10ms"))
    for rate in (200, 400):
        for a in ALGOS:
            runs.append(Run("pfc-pauses", "%dg-%s" % (rate, a), "dumbbell",
                            ["--algo=" + a, "--rate=%d" % rate, "--pfcScope=egress",
                             "--traces=false"], rate=rate, algo=a))
    variants = [("hpcc", "hpcc", []), ("fncc", "fncc", []),
                ("fncc-nolhcs", "fncc", ["--cc=lhcs=0"])]
    for where in ("first", "middle", "last"):
        for label, a, extra in variants:
            runs.append(Run("hop-congestion", "%s-%s" % (where, label), "dumbbell",
                            ["--algo=" + a, "--congestion=" + where] + extra,
                            congestion=where, algo=label))
    # A lone flow on chains of 1 to 5 switches (flow1 never starts): where
    # HPCC and FNCC settle without competition, against eta = 0.95.
    for sw in LONE_SWITCHES:
        for a in ("hpcc", "fncc"):
            runs.append(Run("lone-flow", "%dsw-%s" % (sw, a), "dumbbell",
                            ["--algo=" + a, "--switches=%d" % sw, "--stop=2ms",
                             "--flow1Start=2ms"], switches=sw, algo=a))
    intervals = ["1ms"] + (["100ms"] if full else [])
    for iv in intervals:
        for a in ALGOS:
            runs.append(Run("fairness", "%s-%s" % (iv, a), "fairness",
                            ["--algo=" + a, "--interval=" + iv], interval=iv, algo=a))
    k, window, seeds = SCALE_FULL if full else SCALE_QUICK
    for wl in WORKLOADS:
        for seed in seeds:
            flows = os.path.join("flows", "%s-k%d-s%d.txt" % (wl, k, seed))
            for a in ALGOS:
                cc = ["--cc=preset=paper"] if a == "dcqcn" else []
                cc += ["--ccVars=1"] if a == "fncc" else []
                runs.append(Run("large-scale", "%s-%s-s%d" % (wl, a, seed), "rdma-sim",
                                ["--fattree=%d" % k, "--fattreeDelay=1.5us", "--algo=" + a,
                                 "--traces=false", "--stop=1s", "--flows=@" + flows] + cc,
                                inputs=[flows], workload=wl, algo=a, seed=seed, k=k,
                                window=window))
    # Every registered algorithm with its defaults (dcqcn: the DCQCN paper's
    # values, as everywhere on the page) on Figure 9's dumbbell, 1 ms as
    # the paper and 10 ms for the time sharing takes ...
    for a in algos.get("dumbbell", []):
        for stop in ("1ms", "10ms"):
            runs.append(Run("all-algos-dumbbell", "%s-%s" % (a, stop), "dumbbell",
                            ["--algo=" + a, "--stop=" + stop], algo=a, stop=stop))
    # ... and on the large-scale WebSearch flows, with traces.
    for seed in seeds:
        flows = os.path.join("..", "large-scale", "flows", "websearch-k%d-s%d.txt" % (k, seed))
        for a in algos.get("rdma-sim", []):
            cc = ["--cc=preset=paper"] if a == "dcqcn" else []
            runs.append(Run("all-algos-fattree", "%s-s%d" % (a, seed), "rdma-sim",
                            ["--fattree=%d" % k, "--fattreeDelay=1.5us", "--algo=" + a,
                             "--traces=true", "--sample=" + FATTREE_SAMPLE[full], "--stop=1s",
                             "--flows=@" + flows] + cc,
                            inputs=[flows], workload="websearch", algo=a, seed=seed, k=k,
                            window=window))
    # The FNCC-at-scale question: the same WebSearch flows under FNCC
    # variants (last-hop speedup off, other activity windows for N).
    for seed in seeds:
        flows = os.path.join("..", "large-scale", "flows", "websearch-k%d-s%d.txt" % (k, seed))
        for label, cc in (("lhcs0", "lhcs=0"), ("window10us", "activity_window=10us"),
                          ("window100us", "activity_window=100us"), ("alpha2", "alpha=2"),
                          ("beta1", "beta=1")):
            runs.append(Run("fncc-at-scale", "%s-s%d" % (label, seed), "rdma-sim",
                            ["--fattree=%d" % k, "--fattreeDelay=1.5us", "--algo=fncc",
                             "--traces=false", "--stop=1s", "--flows=@" + flows, "--cc=" + cc,
                             "--ccVars=1"],
                            inputs=[flows], variant=label, seed=seed, k=k))
    return runs


def make_flows(runs, out):
    """The flow files the large-scale and all-algos-fattree runs read
    (the same files): generated once per (workload, k, seed), deterministic
    (gen_flows.py --seed)."""
    made = set()
    for r in runs:
        if r.exp not in ("large-scale", "all-algos-fattree"):
            continue
        path = os.path.normpath(os.path.join(out, r.exp, r.inputs[0]))
        if path in made or os.path.exists(path):
            made.add(path)
            continue
        gen_flow_file(path, find_cdf(WORKLOADS[r.labels["workload"]]), r.labels["k"] ** 3 // 4,
                      0.5, "100e9", r.labels["window"], r.labels["seed"])
        made.add(path)


# ---- analysis ------------------------------------------------------------------

def summaries(runs, out, exp):
    rows = []
    for r in runs:
        if r.exp != exp:
            continue
        s = read_summary(os.path.join(r.dir(out), "summary.txt"))
        s.update({k: v for k, v in r.labels.items()})
        s["run"] = r.name
        rows.append(s)
    df = pd.DataFrame(rows)
    for c in df.columns:
        df[c] = pd.to_numeric(df[c], errors="ignore")
    return df


def cp_queue(d, s):
    q = pd.read_csv(os.path.join(d, "queue.csv"))
    q = q[(q.node == int(s["cp_node"])) & (q.port == int(s["cp_port"]))]
    return q.time_ns / 1e3, q.bytes / 1e3


def plot_rates_and_queues(runs, out, exp, key, values, path):
    fig, ax = plt.subplots(3, len(values), figsize=(5 * len(values), 9), squeeze=False)
    for j, v in enumerate(values):
        for r in (r for r in runs if r.exp == exp and r.labels[key] == v
                  and r.labels.get("stop", "1ms") == "1ms"):
            d = r.dir(out)
            s = read_summary(os.path.join(d, "summary.txt"))
            t, q = cp_queue(d, s)
            c = COLORS.get(r.labels["algo"])
            ax[0][j].step(t, q, where="post", color=c, label=r.labels["algo"])
            rate = pd.read_csv(os.path.join(d, "rate.csv"))
            for flow in (0, 1):
                x = rate[rate.flow == flow]
                ax[1 + flow][j].plot(x.time_ns / 1e3, x.rate_bps / 1e9, color=c,
                                     label=r.labels["algo"])
        ax[0][j].set_title("%s = %s" % (key, v))
        ax[0][j].set_ylabel("queue at CP (KB)")
        ax[1][j].set_ylabel("flow0 rate (Gbps)")
        ax[2][j].set_ylabel("flow1 rate (Gbps)")
        ax[2][j].set_xlabel("time (us)")
        for a in ax[:, j]:
            a.grid(alpha=0.3)
            a.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def num(x):
    """A summary column as numbers ("none" -> NaN)."""
    return pd.to_numeric(x, errors="coerce")


def ordered(df, col, lowest, group):
    """Per group: is fncc the lowest (or highest) of col?"""
    res = {}
    for g, x in df.groupby(group):
        x = x.set_index("algo")[col]
        best = x.idxmin() if lowest else x.idxmax()
        res[g] = (best, best == "fncc" or (x["fncc"] == x.min() if lowest else x["fncc"] == x.max()))
    return res


def md_table(df, cols):
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for _, r in df[cols].iterrows():
        lines.append("| " + " | ".join(str(r[c]) for c in cols) + " |")
    return "\n".join(lines)


def analyse(runs, out, full):
    md = []
    # Figs 1b-d, 9, 10
    df = summaries(runs, out, "dumbbell-rates")
    if not df.empty:
        df.to_csv(os.path.join(out, "dumbbell-rates", "summary.csv"), index=False)
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
                   "%s=%s" % kv for kv in algo_defaults().get("rocc", {}).items()
                   if kv[0] not in ("ack_interval", "max_hops", "activity_window")), "",
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
            md.append("  RoCC's utilisation (%s) is its standing queue's: %s KB on average "
                      "at 100 Gbps with %d PFC pauses, the link never idles because the "
                      "queue never drains. Without RoCC: %s." % (
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
            rd = algo_defaults().get("rocc", {})
            if all(k in rd for k in ("alpha", "q_ref", "interval")):
                q = float(df[(df.rate == 100) & (df.algo == "rocc")].queue_mean_kb.iloc[0]) * 1e3
                step = parse_unit(rd["alpha"]) * (q - parse_unit(rd["q_ref"]))
                iv = parse_unit(rd["interval"])
                md.append("  Why: the PI controller lowers the fair rate by alpha (q - q_ref) + "
                          "beta (q - q_old) per update; with the queue standing at its mean "
                          "of %.0f KB (PFC holds each sender's ingress at 500 KB) that is "
                          "%s x (%.0f KB - %s) = %.2f Gbit/s per %s update, so a 5%% cut "
                          "takes about %.0f us (measured: %.0f us after flow1 joined; while "
                          "the queue grows, the beta term adds to the first updates) and "
                          "halving the rate about %.1f ms (libcc's defaults: alpha=%s, "
                          "q_ref=%s, interval=%s)." % (
                              q / 1e3, rd["alpha"], q / 1e3, rd["q_ref"], step / 1e9,
                              rd["interval"], 5e9 / step * iv * 1e6,
                              first["rocc"] - float(df.flow1_start_us.iloc[0]),
                              50e9 / step * iv * 1e3, rd["alpha"], rd["q_ref"], rd["interval"]))
        slow = df[(df.algo == "rocc") & num(df.flow0_first_decrease_us).isna()]
        if len(slow):
            md.append("- RoCC at %s Gbps: flow0's rate never falls 5%% within the 1 ms. "
                      "libcc's RoCC gains are absolute (bit/s of fair rate per byte of "
                      "queue), chosen for 100 Gbit/s (docs/algorithms/rocc.md), so with the "
                      "same PFC-bound queue a cut per update is the same number of bits/s, "
                      "2 and 4 times smaller a share of a 200 and 400 Gbps rate." %
                      " and ".join(str(r) for r in slow.rate))
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
    # Fig 3
    df = summaries(runs, out, "pfc-pauses")
    if not df.empty:
        df.to_csv(os.path.join(out, "pfc-pauses", "summary.csv"), index=False)
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
    # Figs 11, 13a-c, 13d
    df = summaries(runs, out, "hop-congestion")
    if not df.empty:
        df.to_csv(os.path.join(out, "hop-congestion", "summary.csv"), index=False)
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
    # Fig 13e
    df = summaries(runs, out, "fairness")
    if not df.empty:
        df.to_csv(os.path.join(out, "fairness", "summary.csv"), index=False)
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
    md += analyse_lone_flow(runs, out)
    md += analyse_large(runs, out)
    md += analyse_fncc_at_scale(runs, out)
    md += analyse_all_algos(runs, out, full)
    return md


def analyse_lone_flow(runs, out):
    lr = [r for r in runs if r.exp == "lone-flow"]
    if not lr:
        return []
    rows = []
    for r in lr:
        rate = pd.read_csv(os.path.join(r.dir(out), "rate.csv"))
        x = rate[(rate.flow == 0) & (rate.time_ns >= 1000000)]  # settled: the second ms
        rows.append({"switches": r.labels["switches"], "algo": r.labels["algo"],
                     "rate_gbps_1to2ms": round(float(x.rate_bps.mean()) / 1e9, 2)})
    df = pd.DataFrame(rows).sort_values(["switches", "algo"])
    df.to_csv(os.path.join(out, "lone-flow", "summary.csv"), index=False)
    piv = df.pivot(index="switches", columns="algo", values="rate_gbps_1to2ms").reset_index()
    piv["switches"] = piv.switches.astype(int).astype(str)  # a row of floats would print 1.0
    return ["## A lone flow settles below eta on two or more hops", "",
            "`dumbbell --switches=<s> --flow1Start=2ms --stop=2ms` (flow1 never starts; "
            "100 Gbps, 1.5 us links): flow0's mean pacing rate over the second "
            "millisecond, in Gbps, with eta = 0.95:", "",
            md_table(piv, list(piv.columns)), "",
            "With one switch a lone flow settles at eta, as HPCC's control law says "
            "(U = eta at the fixed point). From two switches on it settles about 4% lower. "
            "The cause is the INT encoding, not the control law: a hop's txBytes travels "
            "in 128-byte units (the HPCC simulator's `IntHop` unit, kept by libcc's HPCC "
            "and FNCC wire formats), and U uses one packet interval per ACK. Each hop's "
            "per-interval byte count is then 128 B too low or too high (e.g. 1024 or 1152 "
            "for a ~1.1 KB frame); averaged over an RTT that is unbiased for one hop, but "
            "U takes the *largest* hop's u' on every ACK, and the maximum of two such "
            "estimates whose 128-byte phases differ is biased upwards. The controller "
            "then holds that biased U at eta, so the real rate sits near 0.91. Evidence: "
            "a diagnostic build with 1-byte txBytes units (only "
            "`hpcc_default`/`fncc_default` in libcc/src/int_wire.c changed, not part "
            "of this page) gave, on 3 switches, FNCC 95.13 and HPCC 93.31 Gbps, and on "
            "1 switch 95.29 and 95.03. HPCC's remaining 2% on 3 switches is its own INT: "
            "each hop appends 8 bytes to the data packet and counts them, so the third "
            "hop counts 24 bytes more per ~1.1 KB frame than the sender paced (about "
            "2%; FNCC's data packets carry no INT). The HPCC simulator has the same unit, the same max "
            "and the same growing header, so the paper's setup would show the same ~0.91 "
            "on its 3-switch dumbbell.", ""]


def analyse_fncc_at_scale(runs, out):
    vr = [r for r in runs if r.exp == "fncc-at-scale"]
    lr = [r for r in runs if r.exp == "large-scale" and r.labels["workload"] == "websearch"
          and r.labels["algo"] in ("hpcc", "fncc")]
    if not vr or not lr:
        return []
    groups = {}
    for r in lr:
        groups.setdefault(r.labels["algo"], []).append(r)
    for r in vr:
        groups.setdefault("fncc " + r.labels["variant"], []).append(r)
    rows = []
    for label, rs in groups.items():
        df = fct_slowdown.pooled([os.path.join(r.dir(out), "fct.txt") for r in rs])
        s = df.slowdown

        def med(mask):
            return round(float(fct_slowdown.pctl(np.sort(s[mask].to_numpy()), 0.5)), 3)

        rows.append({"variant": label, "flows": len(df),
                     "p50 > 1 MB": med(df["size"] > 1000000),
                     "p50 100 KB-1 MB": med((df["size"] > 100000) & (df["size"] <= 1000000)),
                     "p50 < 100 KB": med(df["size"] < 100000)})
    t = pd.DataFrame(rows)
    t.to_csv(os.path.join(out, "fncc-at-scale", "medians.csv"), index=False)
    # When the last-hop speedup fired (libcc's per-flow lhcs* variables,
    # rdma-sim --ccVars) and whether N matched the flows really sharing the
    # receiver, by flow size, under the default and alpha = 2.
    fired = []
    for label, rs in (("fncc", groups.get("fncc", [])), ("fncc alpha2", groups.get("fncc alpha2", []))):
        d = [flows_with_cc_vars(r.dir(out)) for r in rs]
        d = [x for x in d if x is not None]
        if not d:
            continue
        d = pd.concat(d, ignore_index=True)
        for name, m in (("> 1 MB", d.size_bytes > 1000000), ("<= 1 MB", d.size_bytes <= 1000000)):
            x, f = d[m], d[m & (d.lhcs > 0)]
            fired.append({
                "variant": label, "flows": name, "count": len(x),
                "share fired": round(float((x.lhcs > 0).mean()), 3),
                "median firings": float(x.lhcs.median()),
                "mean u' at firing": round(float((f.lhcs_u_mean * f.lhcs).sum() / f.lhcs.sum()), 3)
                if len(f) else None,
                "firings without a queue": round(float(f.lhcs_no_queue.sum() / f.lhcs.sum()), 3)
                if len(f) else None,
                "mean N at firing": round(float(f.lhcs_n_mean.mean()), 2) if len(f) else None,
                "mean flows at the receiver": round(float(f.concurrent.mean()), 2)
                if len(f) else None})
    ft = pd.DataFrame(fired)
    ft.to_csv(os.path.join(out, "fncc-at-scale", "lhcs.csv"), index=False)
    by = t.set_index("variant")["p50 > 1 MB"]

    def vs_hpcc(v):
        return "%.1f%%" % (100 * (1 - by[v] / by["hpcc"])) if v in by and "hpcc" in by else "n/a"

    resets = int(sum(pd.read_csv(os.path.join(r.dir(out), "fct-cc.csv")).resets.sum()
                     for r in groups.get("fncc", [])
                     if os.path.exists(os.path.join(r.dir(out), "fct-cc.csv"))))
    big = ft[(ft.variant == "fncc") & (ft.flows == "> 1 MB")]
    b = big.iloc[0] if len(big) else None
    return ["## The FNCC-at-scale question", "",
            "The same WebSearch flows (the large-scale runs' flow files and seeds) under "
            "FNCC variants: last-hop congestion speedup (LHCS) off; other activity windows "
            "for the receiver's N (default 20 us); LHCS only when the last hop's u' exceeds "
            "alpha = 2 instead of the paper's 1.05; beta = 1 instead of 0.9. Median FCT "
            "slowdown by flow size:", "",
            md_table(t, list(t.columns)), "",
            "When the last-hop speedup fired (`rdma-sim --ccVars`: libcc's per-flow `lhcs`, "
            "`lhcs_u_mean`, `lhcs_n_mean`, `lhcs_no_queue`), and the flows really sharing "
            "the receiver: for each flow, the number of flows to the same host active "
            "during its life, time-averaged over it, itself included (from fct.csv):", "",
            md_table(ft, list(ft.columns)) if not ft.empty else "(no data)", "",
            "The answer, measured:", "",
            "- **N is right.** The N the receiver stamps when LHCS fires (%s on average) "
            "matches the flows really sharing its port (%s); it is a little higher because "
            "the 20 us activity window still counts flows that just finished, and the "
            "window10us/window100us rows show the activity window barely matters."
            % ((b["mean N at firing"], b["mean flows at the receiver"]) if b is not None
               else ("n/a", "n/a")),
            "- **LHCS fires on mild congestion, for almost every large flow.** %.0f%% of flows "
            "above 1 MB had their window set by it (median %g times), at a mean last-hop "
            "u' of %s: just above alpha = 1.05, and in %.0f%% of the firings the last hop had "
            "no queue at all (u' > 1.05 from txRate alone: the 128-byte txBytes "
            "quantization of the lone-flow section, over a one-packet interval, and u' is "
            "not smoothed)." % ((100 * b["share fired"], b["median firings"], b["mean u' at firing"],
                                 100 * b["firings without a queue"]) if b is not None
                                else (float("nan"), float("nan"), "n/a", float("nan"))),
            "- **Each firing sets Wc = B beta / N,** the fair share among every flow at "
            "the receiver, whether or not those flows can use it: a flow that is short, "
            "or limited elsewhere, leaves its share idle, and the large flow gets the "
            "link back only by additive increase (W_ai = W_init (1 - eta) / 100 per "
            "update). Firing this often, that pins large flows below what the link "
            "would give them. FNCC's reduction of the median slowdown above 1 MB, "
            "against HPCC: %s (the paper: 12.4%%; negative means FNCC is slower); with "
            "LHCS off %s, with alpha = 2 %s, with beta = 1 %s." % (
                vs_hpcc("fncc"), vs_hpcc("fncc lhcs0"), vs_hpcc("fncc alpha2"),
                vs_hpcc("fncc beta1")),
            "- **Ours, fixed:** an FNCC switch whose data port sent nothing between two "
            "ACKs stamps the same All_INT_Table record twice; libcc read that as garbage "
            "and reset the telemetry history, losing the other hops' measurement (one k=4 "
            "seed-1 run before the fix: 247,567 resets in about 1.8 M ACKs; the default "
            "FNCC runs above: %d in all; docs/algorithms/hpcc.md, "
            "`test_repeated_record_is_not_a_reset`)." % resets,
            "- **Not reproducible with a faithful reading:** the paper's gain for large "
            "WebSearch flows at its alpha = 1.05. The paper does not say whether u' is "
            "smoothed or what N counts beyond 'concurrent flows'; read literally (per-ACK "
            "u', every active flow) LHCS costs large flows at this scale. libcc keeps the "
            "paper's alpha = 1.05 as the default; `--cc=alpha=2` is the measured "
            "alternative.", ""]


def flows_with_cc_vars(d):
    """fct.csv joined with fct-cc.csv, plus each flow's time-averaged count of
    flows to the same receiver during its life (itself included); None if
    the run wrote no fct-cc.csv."""
    cv = os.path.join(d, "fct-cc.csv")
    if not os.path.exists(cv):
        return None
    f = pd.read_csv(os.path.join(d, "fct.csv"))
    m = f.merge(pd.read_csv(cv).drop(columns=["size_bytes", "fct_ns", "ideal_fct_ns"]),
                on="flow")
    m["end_ns"] = m.start_ns + m.fct_ns
    conc = pd.Series(0.0, index=m.index)
    for _, g in m.groupby("dst"):
        s, e = g.start_ns.to_numpy(), g.end_ns.to_numpy()
        ov = np.minimum(e[:, None], e[None, :]) - np.maximum(s[:, None], s[None, :])
        conc[g.index] = np.clip(ov, 0, None).sum(axis=1) / g.fct_ns.to_numpy()
    m["concurrent"] = conc
    return m


def analyse_large(runs, out):
    lr = [r for r in runs if r.exp == "large-scale"]
    if not lr:
        return []
    exp_dir = os.path.join(out, "large-scale")
    md = []
    k = lr[0].labels["k"]
    seeds = sorted({r.labels["seed"] for r in lr})
    window = lr[0].labels["window"]
    for wl in WORKLOADS:
        tables, pooled = [], {}
        for a in ALGOS:
            files = [os.path.join(r.dir(out), "fct.txt") for r in lr
                     if r.labels["workload"] == wl and r.labels["algo"] == a]
            df = fct_slowdown.pooled(files)
            pooled[a] = df
            t = fct_slowdown.bins(df, step=5)
            t.insert(0, "algo", a)
            tables.append(t)
        table = pd.concat(tables, ignore_index=True)
        table.to_csv(os.path.join(exp_dir, "%s-bins.csv" % wl), index=False, float_format="%.4f")
        fct_slowdown.plot(table.rename(columns={"algo": "label"}),
                          os.path.join(exp_dir, "%s-slowdown.png" % wl))
        unfinished = 0
        for r in lr:
            if r.labels["workload"] == wl:
                with open(os.path.join(r.dir(out), "stdout.txt")) as f:
                    kv = dict(x.split("=", 1) for x in f.read().split() if "=" in x)
                unfinished += int(kv["flows"]) - int(kv["completed"])
        counts = ", ".join("%s %d" % (a, len(pooled[a])) for a in ALGOS)
        counts += "; unfinished at the stop: %d" % unfinished
        md += ["## Figure %s: %s at 50%% load" % ("14" if wl == "websearch" else "15", wl), "",
               "`rdma-sim --fattree=%d --fattreeDelay=1.5us` (%d hosts, 100 Gbps), flows from "
               "`gen_flows.py --load 0.5` over %g ms of arrivals, seeds %s pooled (flows: %s). "
               "Slowdown per 5%% size bin as the HPCC simulator's analysis computes it "
               "(`analysis/fct_slowdown.py`)." % (k, k ** 3 // 4, window * 1e3,
                                                  ",".join(map(str, seeds)), counts), ""]
        if wl == "websearch":
            big = {a: float(np.median(pooled[a][pooled[a]["size"] > 1000000].slowdown))
                   for a in ALGOS if (pooled[a]["size"] > 1000000).any()}
            if "fncc" in big:
                md.append("| flows > 1 MB | median slowdown | FNCC's reduction | the paper's |")
                md.append("|---|---:|---:|---:|")
                for a in ("hpcc", "dcqcn"):
                    if a in big:
                        md.append("| %s | %.3f | %.1f%% | %.1f%% |" % (
                            a, big[a], 100 * (1 - big["fncc"] / big[a]),
                            100 * paper.WEBSEARCH_LARGE_MEDIAN_REDUCTION[a]))
                md.append("| fncc | %.3f | | |" % big["fncc"])
        else:
            small = {a: float(fct_slowdown.pctl(
                np.sort(pooled[a][pooled[a]["size"] < 100000].slowdown.to_numpy()), 0.95))
                for a in ALGOS}
            md.append("| flows < 100 KB | p95 slowdown | FNCC's reduction | the paper's |")
            md.append("|---|---:|---:|---:|")
            for a in ("hpcc", "dcqcn"):
                md.append("| %s | %.3f | %.1f%% | %.1f%% |" % (
                    a, small[a], 100 * (1 - small["fncc"] / small[a]),
                    100 * paper.HADOOP_SMALL_P95_REDUCTION[a]))
            md.append("| fncc | %.3f | | |" % small["fncc"])
        md += ["", "![%s slowdown](../out/paper/large-scale/%s-slowdown.png)" % (wl, wl), ""]
    return md


# ---- every registered algorithm --------------------------------------------------

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


def grid_axes(n, ncols=4, w=4.0, h=2.6, **kw):
    nrows = (n + ncols - 1) // ncols
    fig, ax = plt.subplots(nrows, ncols, figsize=(w * ncols, h * nrows), squeeze=False, **kw)
    for k in range(n, nrows * ncols):
        ax.flat[k].set_visible(False)
    return fig, ax.flat


def analyse_all_algos_dumbbell(runs, out):
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
    defaults = algo_defaults()
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


def analyse_all_algos_fattree(runs, out):
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


def size_label(b):
    return "%.0f KB" % (b / 1e3) if b < 1e6 else "%.1f MB" % (b / 1e6)


def names(xs):
    xs = list(xs)
    return ", ".join(xs) if xs else "no algorithm"


def ticked(a):
    return "`%s`" % a


def analyse_all_algos(runs, out, full):
    dres = analyse_all_algos_dumbbell(runs, out)
    fres = analyse_all_algos_fattree(runs, out)
    if not dres and not fres:
        return []
    algos = list(dict.fromkeys(r.labels["algo"] for r in runs
                               if r.exp in ("all-algos-dumbbell", "all-algos-fattree")))
    defaults = algo_defaults()
    d = {a: defaults.get(a, {}) for a in algos}

    def dflt(a, *keys):
        return ", ".join("%s=%s" % (k, d[a][k]) for k in keys if k in d[a])

    md = ["## Every algorithm on the dumbbell and the fat tree", "",
          "Every algorithm the binaries register (`dumbbell --help` and `rdma-sim --help` "
          "list them; paper.py reads the list from there): %s. Each runs with its default "
          "parameters (no `--cc`), except `dcqcn`, which keeps the DCQCN paper's values as "
          "everywhere on this page (the dumbbell's `--preset=auto`, `rdma-sim "
          "--cc=preset=paper`). The defaults as the binaries print them are in "
          "`out/paper/all-algos-dumbbell/defaults.csv`; each algorithm's page names the "
          "source of every default (its \"Where each default comes from\" table): the "
          "DCQCN paper (`dcqcn`), the HPCC++ draft and the HPCC simulator (`hpcc`, `hpcc++`, "
          "`hpcc-pint`, `dctcp`), the FNCC paper (`fncc`), the TIMELY paper (`timely`), "
          "Google's Isekai simulator (`swift`: %s), the PowerTCP paper and simulator "
          "(`powertcp`, `theta-powertcp`). Some are libcc's own choices, not a source's: "
          "Swift's endpoint target ([swift.md](algorithms/swift.md)) and every RoCC "
          "parameter (%s; "
          "[rocc.md](algorithms/rocc.md)); DCTCP's K (%s: 3 KB per Gbps of the port, 300 KB "
          "at 100 Gbps) is the HPCC simulator's ([dctcp.md](algorithms/dctcp.md)). `hpcc++` with its defaults (INT on every "
          "packet, no Rx-HPCC, no receiver N) is HPCC's controller on HPCC's INT, so its "
          "rows equal `hpcc`'s." % (
              ", ".join("`%s`" % a for a in algos),
              dflt("swift", "base_target", "hop_scale", "fs_range", "fs_max_cwnd", "min_rto"),
              dflt("rocc", "q_ref", "alpha", "beta", "interval", "recovery"),
              dflt("dctcp", "k") or "n/a"), ""]
    if dres:
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
            up = rocc_recovery_mbps(rd)
            bullets.append(
                "- `rocc` keeps the PFC-bound queue until its fair rate has come down (rates "
                "within 10%% of 50 Gbps from %.1f ms after flow1 joined); then the queue "
                "empties, the fair rate is a little below the link's share, and it rises "
                "slowly: by alpha x q_ref = %.0f Mbit/s per %s update with an empty queue, "
                "half that below C/2 (the self-tuning shift). Goodput at 10 ms: %s Gbps; "
                "utilisation over the 10 ms %.3f." % (
                    float(x.rates_fair_from_us_10ms) / 1e3, up, rd.get("interval", "?"),
                    x.goodput_end_gbps_10ms, x.utilization_10ms))
        md += ["What the numbers show:", ""] + bullets + [
               "",
               "![queues, 1 ms](../out/paper/all-algos-dumbbell/queues.png)", "",
               "![goodput, 1 ms](../out/paper/all-algos-dumbbell/goodput.png)", "",
               "![queues, 10 ms](../out/paper/all-algos-dumbbell/queues-10ms.png)", "",
               "![goodput, 10 ms](../out/paper/all-algos-dumbbell/goodput-10ms.png)", ""]
    if fres:
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
                   k, FATTREE_SAMPLE[full], k ** 3 // 4, window * 1e3,
                   ",".join(map(str, seeds)), FATTREE_SAMPLE[full], window * 1e3), "",
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
                "- **`rocc` with libcc's defaults** %s: %d PFC pauses (`none`: %d), the "
                "last flow done at %.1f ms (`none`: %.1f), short-flow p99 %.1f (`none`: "
                "%.1f). Its fair rate moves slowly both ways: down by alpha (q - q_ref) + "
                "beta (q - q_old) per %s update%s, up by alpha x q_ref = %.0f Mbit/s per "
                "update once the queue is empty, while WebSearch's bursts come and go "
                "within microseconds. The paper left RoCC out of its large-scale runs for "
                "'the poor performance of RoCC at the microsecond level'; with libcc's "
                "gains (libcc's choices, docs/algorithms/rocc.md) that is what is seen." % (
                    "is no better than no congestion control here" if worse
                    else "against no congestion control",
                    ro.pfc_pauses, no.pfc_pauses, ro.last_finish_ms, no.last_finish_ms,
                    c0.p99["rocc"], c0.p99["none"], rd.get("interval", "?"),
                    " (on the dumbbell above its rates took %.1f ms to come within 10%% of "
                    "the fair share)" % (conv / 1e3) if conv == conv else "",
                    rocc_recovery_mbps(rd)))
        md += ["", "![slowdown per size bin](../out/paper/all-algos-fattree/slowdown.png)", ""]
    return md

HEADER = """<!-- SPDX-License-Identifier: GPL-2.0-only -->
<!-- Written by `make paper` (examples/paper/paper.py %(full)s) on %(date)s; do not edit. -->
# The FNCC paper, reproduced

Every table below is written by `make paper` from runs it makes itself
(`make paper FULL=1` writes the paper's scale into results-full.md); each
run's directory under `out/paper[-full]/<experiment>/<run>/` holds its `params.json` (binary hash and
arguments), `summary.txt` and CSV files, and `out/paper/<experiment>/summary.csv`
has one row per run. The paper's numbers come from
`examples/paper/paper_numbers.py`, which quotes the sentence each one is from.
Algorithms: `dcqcn` with the DCQCN paper's values (libcc's `paper` preset, as
the FNCC paper compared against), `hpcc` and `fncc` with libcc's defaults
(eta 0.95, 1 ACK per packet, FNCC beta 0.9), and in Figure 9 `rocc`, the
paper's fourth baseline, with libcc's defaults (libcc's own choices: the
RoCC paper's values were not available, docs/algorithms/rocc.md). The last
section runs every algorithm libcc registers, with its defaults, on the
dumbbell and the fat tree.

The quick scale (the default) takes about four minutes on 2 cores; FULL=1
adds the paper's time scale for the fairness experiment and runs the large
scale at k=8 (128 hosts), 50 ms of arrivals, 5 seeds (several hours on 2
cores: run it on a cluster with `examples/paper/paper.py --full` per
experiment, or the sweep tool, docs/sweeps.md). Two questions the paper
leaves open are answered with measurements below: why a lone HPCC or FNCC
flow settles near 0.91 of the line rather than eta = 0.95, and why FNCC's
last-hop speedup slows large WebSearch flows at scale here.

"""


def publish_images(text, out, results):
    """Copy the PNGs the text links to beside the results page (its img/paper/)
    and link the copies: out/ is not part of the repository."""
    stem = os.path.splitext(os.path.basename(results))[0]
    sub = "paper" if stem == "results" else "paper-" + stem.split("-", 1)[-1]
    dest = os.path.join(os.path.dirname(os.path.abspath(results)), "img", sub)
    os.makedirs(dest, exist_ok=True)

    def repl(m):
        src = m.group(2).replace("../out/paper", out)
        name = os.path.relpath(src, out).replace(os.sep, "-")
        shutil.copyfile(src, os.path.join(dest, name))
        return "![%s](img/%s/%s)" % (m.group(1), sub, name)

    return re.sub(r"!\[([^\]]*)\]\(([^)]+\.png)\)", repl, text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--full", action="store_true", help="the paper's time scales too")
    ap.add_argument("--jobs", type=int, default=os.cpu_count(), help="parallel runs (>= 1)")
    ap.add_argument("--bin", default="build/bin", help="directory of the example binaries")
    ap.add_argument("--out", default="out/paper", help="output directory")
    ap.add_argument("--only", default="", help="comma-separated experiment names")
    ap.add_argument("--results", default="", help="write the results tables (markdown) here")
    a = ap.parse_args()
    if a.jobs < 1:
        ap.error("--jobs=%d: accepted 1 or more" % a.jobs)
    global BIN
    BIN = a.bin
    # The algorithms come from the binaries (libcc's registry), not a list here.
    algos = {p: registered_algos(a.bin, p) for p in ("dumbbell", "rdma-sim")}
    runs = dumbbell_runs(a.full, algos)
    known = sorted({r.exp for r in runs} | {"lhcs-rates", "all-algos-dumbbell",
                                            "all-algos-fattree"})
    only = [x for x in a.only.split(",") if x]
    for x in only:
        if x not in known:
            ap.error("--only: unknown experiment '%s'; accepted %s" % (x, ", ".join(known)))
    if only:
        runs = [r for r in runs if r.exp in only or (r.exp == "hop-congestion"
                                                      and "lhcs-rates" in only)]
    for prog in {r.program for r in runs}:
        if not os.access(os.path.join(a.bin, prog), os.X_OK):
            sys.stderr.write("paper: %s/%s is missing: build with `make`\n" % (a.bin, prog))
            return 1
    make_flows(runs, a.out)
    errors = run_all(runs, a.out, a.bin, a.jobs, tag="paper")
    for e in errors:
        sys.stderr.write("paper: %s\n" % e)
    if errors:
        return 1
    md = analyse(runs, a.out, a.full)
    if a.results:
        try:
            text = publish_images("\n".join(md) + "\n", a.out, a.results)
            with open(a.results, "w") as f:
                f.write(HEADER % {"full": "--full" if a.full else "(quick)",
                                  "date": time.strftime("%Y-%m-%d")} + text)
        except OSError as e:
            sys.stderr.write("paper: cannot write %s: %s\n" % (a.results, e))
            return 1
    else:
        print("\n".join(md))
    return 0


if __name__ == "__main__":
    sys.exit(main())
