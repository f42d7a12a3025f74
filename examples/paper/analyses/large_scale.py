# SPDX-License-Identifier: GPL-2.0-only
"""Figures 14 and 15: FCT slowdown on the fat tree, WebSearch and FB_Hadoop
at 50% load (experiments/large-scale.toml)."""
import os

import numpy as np
import pandas as pd

import paper_numbers as paper
from analysis import fct_slowdown
from analyses import run_times
from analyses.common import ALGOS

WORKLOADS = ("websearch", "hadoop")


def analyse(runs, out):
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
                                                  ",".join(map(str, seeds)), counts)
               + run_times.sentence([r for r in lr if r.labels["workload"] == wl], out,
                                    "large-scale"), ""]
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
