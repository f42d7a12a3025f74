#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""One flow's rate over time with libcc's decisions marked, from the
cc-log.csv the ns-3 programs write with --ccLog (docs/decision-log.md).

    plot_cc_log.py CC_LOG.csv --flow ID [--start US] [--end US]
                   [--png OUT.png] [--csv OUT.csv] [--title TEXT]

cc-log.csv has one row per decision record: time_ns, flow_id, event,
action, old_rate_bps, new_rate_bps, old_window_bytes, new_window_bytes
(-1: no window) and inputs (`name=value;...`, empty without). For the
flow ID (rows between --start and --end, in microseconds):

  PNG  its rate (a step line through each record's new rate: every change
       of rate is a record; before the first one, that record's old rate,
       drawn from --start or 0) with every record a point coloured by its
       action (the event when the algorithm named none); a second panel for
       its window when it has one;
  CSV  its records, time in us, rates in Gbit/s, and one column per input
       name (empty where a record did not give that input).

Exit status 0; 1 if a file cannot be read or written; 2 for bad input (a
missing column, a flow with no records), named on one line.
"""
import argparse
import sys

import pandas as pd

COLUMNS = ["time_ns", "flow_id", "event", "action", "old_rate_bps", "new_rate_bps",
           "old_window_bytes", "new_window_bytes", "inputs"]
NUMERIC = ["time_ns", "flow_id", "old_rate_bps", "new_rate_bps", "old_window_bytes",
           "new_window_bytes"]


class BadInput(Exception):
    pass


def read_log(path):
    """cc-log.csv as a DataFrame (action and inputs "" when empty)."""
    try:
        df = pd.read_csv(path, dtype={"event": str, "action": str, "inputs": str},
                         keep_default_na=False)
    except pd.errors.EmptyDataError:
        raise BadInput("%s: empty (no header)" % path)
    except OSError as e:
        raise OSError("%s: %s" % (path, e.strerror or e))
    missing = [c for c in COLUMNS if c not in df.columns]
    if missing:
        raise BadInput("%s: no column %s (a cc-log.csv has %s)"
                       % (path, ", ".join(missing), ",".join(COLUMNS)))
    for c in NUMERIC:
        num = pd.to_numeric(df[c], errors="coerce")
        if num.isna().any():
            row = int(num.isna().to_numpy().argmax())
            raise BadInput("%s:%d: %s is not a number: %r" % (path, row + 2, c, df[c].iloc[row]))
        df[c] = num.astype("int64") if c != "time_ns" else num
    return df


def inputs_table(inputs):
    """The `name=value;...` column as one column per name (NaN where absent)."""
    pairs = inputs.str.split(";").explode()
    pairs = pairs[pairs != ""]
    if pairs.empty:
        return pd.DataFrame(index=inputs.index)
    kv = pairs.str.split("=", n=1, expand=True).reindex(columns=[0, 1])
    bad = kv[1].isna().to_numpy()
    if bad.any():
        raise BadInput("input %r is not name=value" % pairs.to_numpy()[bad][0])
    kv.columns = ["name", "value"]
    kv["value"] = pd.to_numeric(kv["value"], errors="coerce")
    kv["row"] = kv.index
    wide = kv.pivot_table(index="row", columns="name", values="value", aggfunc="last")
    wide.columns.name = None
    return wide.reindex(inputs.index)


def flow_records(df, flow, start_us=None, end_us=None):
    """The flow's records, in time order, as the CSV output has them."""
    f = df[df.flow_id == flow]
    if f.empty:
        flows = sorted(df.flow_id.unique())
        raise BadInput("flow %d has no records (the log has flows %s)"
                       % (flow, ", ".join(str(x) for x in flows) if flows else "none"))
    t_us = f.time_ns / 1000.0
    keep = pd.Series(True, index=f.index)
    if start_us is not None:
        keep &= t_us >= start_us
    if end_us is not None:
        keep &= t_us <= end_us
    f = f[keep]
    out = pd.DataFrame({
        "time_us": f.time_ns / 1000.0,
        "event": f.event,
        "action": f.action,
        "old_rate_gbps": f.old_rate_bps / 1e9,
        "new_rate_gbps": f.new_rate_bps / 1e9,
        "old_window_bytes": f.old_window_bytes,
        "new_window_bytes": f.new_window_bytes,
    })
    return pd.concat([out, inputs_table(f.inputs)], axis=1).reset_index(drop=True)


def plot(rec, flow, png, title=None, start_us=None):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    has_window = (rec.new_window_bytes >= 0).any()
    fig, axes = plt.subplots(2 if has_window else 1, 1, figsize=(8, 5.5 if has_window else 3.6),
                             sharex=True, squeeze=False)
    ax = axes[0][0]
    # Every change of rate is a record: the step line through the new rates
    # is the rate; before the first record it was that record's old rate.
    t0 = min(start_us if start_us is not None else 0.0, rec.time_us.iloc[0])
    ax.step([t0] + list(rec.time_us), [rec.old_rate_gbps.iloc[0]] + list(rec.new_rate_gbps),
            where="post", color="0.6", lw=1, zorder=1)
    label = rec.action.where(rec.action != "", "(" + rec.event + ")")
    cmap = plt.get_cmap("tab10")
    for i, (name, g) in enumerate(rec.groupby(label, sort=True)):
        ax.scatter(g.time_us, g.new_rate_gbps, s=14, color=cmap(i % 10), label=name, zorder=2)
        if has_window:
            w = g[g.new_window_bytes >= 0]
            axes[1][0].scatter(w.time_us, w.new_window_bytes / 1e3, s=14, color=cmap(i % 10),
                               zorder=2)
    ax.set_ylabel("rate (Gbit/s)")
    ax.set_ylim(bottom=0)
    ax.legend(fontsize=7, loc="best", title="decision", title_fontsize=7)
    ax.set_title(title or "flow %d: rate and libcc's decisions" % flow, fontsize=10)
    if has_window:
        w = rec[rec.new_window_bytes >= 0]
        axes[1][0].step(w.time_us, w.new_window_bytes / 1e3, where="post", color="0.6", lw=1,
                        zorder=1)
        axes[1][0].set_ylabel("window (KB)")
        axes[1][0].set_ylim(bottom=0)
    axes[-1][0].set_xlabel("time (us)")
    fig.tight_layout()
    fig.savefig(png, dpi=90)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("log", help="cc-log.csv of a run with --ccLog")
    ap.add_argument("--flow", type=int, required=True, help="flow id to plot")
    ap.add_argument("--start", type=float, help="first time shown, us")
    ap.add_argument("--end", type=float, help="last time shown, us")
    ap.add_argument("--png", help="plot to write")
    ap.add_argument("--csv", help="the flow's records to write")
    ap.add_argument("--title", help="plot title")
    a = ap.parse_args(argv)
    try:
        rec = flow_records(read_log(a.log), a.flow, a.start, a.end)
        if rec.empty:
            raise BadInput("flow %d has no records between --start and --end" % a.flow)
    except BadInput as e:
        print("plot_cc_log: %s" % e, file=sys.stderr)
        return 2
    except OSError as e:
        print("plot_cc_log: %s" % e, file=sys.stderr)
        return 1
    try:
        if a.csv:
            rec.to_csv(a.csv, index=False)
        if a.png:
            plot(rec, a.flow, a.png, a.title, a.start)
    except OSError as e:
        print("plot_cc_log: %s" % e, file=sys.stderr)
        return 1
    if not a.csv and not a.png:
        print(rec.to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
