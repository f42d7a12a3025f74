#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""FCT slowdown per flow-size bin, as the HPCC simulator's analysis
(analysis/fct_analysis.py of alibaba-edu/High-Precision-Congestion-Control)
computes it from an fct file, plus the average the FNCC paper also plots.

    fct_slowdown.py LABEL=FCT[,FCT...] [LABEL=...] [--step 5] [--dport 100]
                    [--before NS] [--csv OUT.csv] [--png OUT.png]

An fct file has one line per finished flow, as rdma-sim and the HPCC
simulator write it: sip dip sport dport size_bytes start_ns fct_ns
standalone_fct_ns. For each LABEL (an algorithm, say), the flows of all its
files are pooled (several seeds make one larger sample) and:

  slowdown  = fct / standalone fct, taken as 1 when below 1 (a flow whose
              last packet is short can beat the standalone estimate);
  flows     = those with dport == --dport (the simulator's "normal" traffic,
              100; -1 for all) that started before --before ns;
  bins      = the flows sorted by size (ties in file order) cut into
              100/step equal-count groups: bin i holds flows
              [floor(i*step*n/100), floor((i+1)*step*n/100));
  per bin   = the largest size in it, the count, the average slowdown and
              the median, 95th and 99th percentiles with the simulator's
              rank rule: sorted slowdowns s, percentile p = s[floor(len(s)*p)].

Writes a CSV (label, bin, max_size_bytes, flows, avg, p50, p95, p99) and a
PNG (four panels, one line per label). Exit status 0; 1 if a file cannot be
read or written; 2 for bad input (named with file and line).
"""
import argparse
import sys

import numpy as np
import pandas as pd

COLUMNS = ["sip", "dip", "sport", "dport", "size", "start_ns", "fct_ns", "ideal_ns"]


class BadInput(Exception):
    pass


def read_fct(path):
    """One fct file as a DataFrame; BadInput names file:line of a bad line."""
    try:
        df = pd.read_csv(path, sep=r"\s+", header=None, names=COLUMNS, dtype=str,
                         comment=None, engine="python")
    except pd.errors.EmptyDataError:
        return pd.DataFrame(columns=COLUMNS)
    except OSError as e:
        raise OSError("%s: %s" % (path, e.strerror or e))
    bad_width = df[COLUMNS].isna().any(axis=1)
    if bad_width.any():
        raise BadInput("%s:%d: expected 8 fields (sip dip sport dport size start_ns fct_ns "
                       "standalone_fct_ns)" % (path, int(bad_width.idxmax()) + 1))
    for c in COLUMNS[2:]:
        num = pd.to_numeric(df[c], errors="coerce")
        bad = num.isna() | (num < 0)
        if c == "ideal_ns":
            bad |= num <= 0
        if bad.any():
            line = int(bad.idxmax()) + 1
            raise BadInput("%s:%d: field %s = '%s': expected a number %s" % (
                path, line, c, df[c][line - 1], "> 0" if c == "ideal_ns" else ">= 0"))
        df[c] = num.astype(np.int64)
    return df


def with_slowdown(df):
    """df plus a slowdown column: fct / standalone fct, taken as 1 below 1."""
    return df.assign(slowdown=np.maximum(df.fct_ns / df.ideal_ns, 1.0))


def pooled(paths, dport=100):
    """The flows of several fct files as one sample (seeds pooled), those
    of dport only (-1: all), with their slowdown."""
    df = pd.concat([read_fct(p) for p in paths], ignore_index=True)
    if dport >= 0:
        df = df[df.dport == dport]
    return with_slowdown(df)


def pctl(sorted_values, p):
    """The HPCC simulator's percentile: element floor(n p) of the sorted values."""
    return sorted_values[int(np.floor(len(sorted_values) * p))]


def bins(df, step=5, dport=100, before=None, finished_before=None):
    """Per-bin statistics of one pooled sample (see the module docstring);
    finished_before keeps flows with start + fct below it (ns), as
    fct_analysis.py's -T."""
    if not 1 <= step <= 100 or 100 % step:
        raise BadInput("--step %s: accepted a whole number that divides 100 (1..100)" % step)
    x = df
    if dport >= 0:
        x = x[x.dport == dport]
    if before is not None:
        x = x[x.start_ns < before]
    if finished_before is not None:
        x = x[x.start_ns + x.fct_ns < finished_before]
    x = with_slowdown(x)
    x = x.sort_values("size", kind="stable")
    n = len(x)
    rows = []
    for i in range(100 // step):
        lo, hi = (i * step * n) // 100, ((i + 1) * step * n) // 100
        part = x.iloc[lo:hi]
        if part.empty:
            continue
        s = np.sort(part.slowdown.to_numpy())
        rows.append({"bin": i, "max_size_bytes": int(part["size"].iloc[-1]), "flows": len(s),
                     "avg": float(s.mean()), "p50": float(pctl(s, 0.5)),
                     "p95": float(pctl(s, 0.95)), "p99": float(pctl(s, 0.99))})
    return pd.DataFrame(rows, columns=["bin", "max_size_bytes", "flows", "avg", "p50", "p95",
                                       "p99"])


# Colour families for plot(family=...): one sequential colormap per family.
FAMILY_MAPS = ["Blues", "Oranges", "Greens", "Reds", "Purples", "Greys", "YlOrBr", "PuRd",
               "BuGn", "RdPu"]


def line_colors(labels, family=None):
    """{label: colour}. Without family, matplotlib's cycle. With family
    ({label: family name}), the labels of one family are shades of one
    colormap (light to dark in label order), so an algorithm's loads read as
    one algorithm."""
    import matplotlib

    if not family:
        cycle = matplotlib.rcParams["axes.prop_cycle"].by_key()["color"]
        return {lab: cycle[i % len(cycle)] for i, lab in enumerate(labels)}
    fams = list(dict.fromkeys(family.get(lab, lab) for lab in labels))
    colors = {}
    for fi, fam in enumerate(fams):
        members = [lab for lab in labels if family.get(lab, lab) == fam]
        cmap = matplotlib.colormaps[FAMILY_MAPS[fi % len(FAMILY_MAPS)]]
        for j, lab in enumerate(members):
            colors[lab] = cmap(0.85 if len(members) == 1 else 0.45 + 0.5 * j / (len(members) - 1))
    return colors


def plot(table, path, family=None):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = list(dict.fromkeys(table.label))
    colors = line_colors(labels, family)
    fig, axes = plt.subplots(1, 4, figsize=(16, 3.6))
    for ax, (col, title) in zip(axes, (("avg", "average"), ("p50", "median"),
                                        ("p95", "95th percentile"), ("p99", "99th percentile"))):
        for label, t in table.groupby("label", sort=False):
            ax.plot(t.max_size_bytes, t[col], marker=".", color=colors[label],
                    label="%s (%d flows/bin)" % (label, int(t.flows.median())))
        ax.set_xscale("log")
        ax.set_xlabel("flow size (bytes, bin's largest)")
        ax.set_ylabel("FCT slowdown")
        ax.set_title(title)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("inputs", nargs="+", metavar="LABEL=FCT[,FCT...]")
    ap.add_argument("--step", type=int, default=5, help="bin width, percent of the flows")
    ap.add_argument("--dport", type=int, default=100, help="flows of this dport only (-1: all)")
    ap.add_argument("--before", type=int, default=None, help="flows started before, ns")
    ap.add_argument("--csv", default="", help="write the table here (default: stdout)")
    ap.add_argument("--png", default="", help="write the plot here")
    a = ap.parse_args(argv)
    tables = []
    try:
        for item in a.inputs:
            if "=" not in item:
                raise BadInput("'%s': expected LABEL=FILE[,FILE...]" % item)
            label, files = item.split("=", 1)
            df = pd.concat([read_fct(f) for f in files.split(",") if f], ignore_index=True)
            t = bins(df, a.step, a.dport, a.before)
            t.insert(0, "label", label)
            tables.append(t)
    except BadInput as e:
        sys.stderr.write("fct_slowdown: %s\n" % e)
        return 2
    except OSError as e:
        sys.stderr.write("fct_slowdown: %s\n" % e)
        return 1
    table = pd.concat(tables, ignore_index=True)
    try:
        if a.csv:
            table.to_csv(a.csv, index=False, float_format="%.4f")
        else:
            table.to_csv(sys.stdout, index=False, float_format="%.4f")
        if a.png:
            plot(table, a.png)
    except OSError as e:
        sys.stderr.write("fct_slowdown: cannot write: %s\n" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
