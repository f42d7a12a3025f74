# SPDX-License-Identifier: GPL-2.0-only
"""What the paper's analyses share: the run tables, the congestion point's
queue, the markdown table, the plots' colours, and libcc's defaults (from
libcc-replay --list --json in the binaries' directory, analysis/libcc_info.py)."""
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from analysis import libcc_info  # noqa: E402
from analysis.runs import read_summary  # noqa: E402

ALGOS = ["dcqcn", "hpcc", "fncc"]
COLORS = {"dcqcn": "tab:blue", "hpcc": "tab:orange", "fncc": "tab:green",
          "fncc-nolhcs": "tab:olive", "rocc": "tab:red", "none": "black",
          "hpcc++": "tab:brown", "dctcp": "tab:purple", "timely": "tab:pink",
          "swift": "tab:gray", "powertcp": "tab:cyan", "theta-powertcp": "darkslategray",
          "hpcc-pint": "goldenrod"}
MARKERS = "os^vD<>phX*P8"

# Where the binaries are (the driver sets it): the analyses quote libcc's
# defaults as those binaries' libcc has them.
BIN = "build/bin"


def default_texts():
    """{algo: {parameter: default as libcc formats it}}, each algorithm's own
    parameters in table order: the values the runs without --cc used."""
    return {a: {k: p["default_text"] for k, p in ps.items()}
            for a, ps in libcc_info.defaults(BIN).items()}


def default_value(algo, param):
    """A default in its base unit (bits/s, ns, bytes, plain number); nan if
    libcc has no such parameter."""
    p = libcc_info.defaults(BIN).get(algo, {}).get(param)
    return float(p["default"]) if p else float("nan")


def rocc_recovery_mbps():
    """RoCC's fair-rate rise per update with an empty queue, alpha x q_ref,
    in Mbit/s (nan if libcc has no such parameters)."""
    return default_value("rocc", "alpha") * default_value("rocc", "q_ref") / 1e6


def summaries(runs, out, exp):
    """Every run of exp: its summary.txt and labels, one row each, also
    written to out/exp/summary.csv."""
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
    if not df.empty:
        df.to_csv(os.path.join(out, exp, "summary.csv"), index=False)
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



def grid_axes(n, ncols=4, w=4.0, h=2.6, **kw):
    nrows = (n + ncols - 1) // ncols
    fig, ax = plt.subplots(nrows, ncols, figsize=(w * ncols, h * nrows), squeeze=False, **kw)
    for k in range(n, nrows * ncols):
        ax.flat[k].set_visible(False)
    return fig, ax.flat



def size_label(b):
    return "%.0f KB" % (b / 1e3) if b < 1e6 else "%.1f MB" % (b / 1e6)


def names(xs):
    xs = list(xs)
    return ", ".join(xs) if xs else "no algorithm"


def ticked(a):
    return "`%s`" % a

