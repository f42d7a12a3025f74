# SPDX-License-Identifier: GPL-2.0-only
"""What the page cost: each experiment's runs and the wall time they took,
from the wall_s each run's params.json records (analysis/runs.py), so a
resumed `make paper` still reports every run's own time."""
import json
import os

import pandas as pd

from analyses.common import md_table


def walls(runs, out):
    """One row per run: experiment, run, ranks, wall_s (runs without a
    recorded launch, e.g. from an older tree, are left out)."""
    rows = []
    for r in runs:
        try:
            with open(os.path.join(r.dir(out), "params.json")) as f:
                launch = json.load(f).get("launch")
        except (OSError, ValueError):
            continue
        if launch:
            rows.append({"experiment": r.exp, "run": r.name, "ranks": launch["ranks"],
                         "wall_s": float(launch["wall_s"])})
    return pd.DataFrame(rows, columns=["experiment", "run", "ranks", "wall_s"])


def sentence(runs, out, exp):
    """'Its N runs took ...' for one experiment's parameter paragraph."""
    w = walls(runs, out)
    w = w[w.experiment == exp].wall_s
    if w.empty:
        return ""
    return (" Its %d runs took %.1f min of wall time one after another (median %.0f s per "
            "run, longest %.0f s; one process each)." % (len(w), w.sum() / 60, w.median(), w.max()))


def analyse(runs, out):
    w = walls(runs, out)
    if w.empty:
        return []
    t = w.groupby("experiment", sort=False).wall_s.agg(["count", "sum", "median", "max"])
    t = t.reset_index().rename(columns={"count": "runs", "sum": "run wall time (min)",
                                        "median": "median per run (s)", "max": "longest (s)"})
    t["run wall time (min)"] = (t["run wall time (min)"] / 60).round(1)
    t["median per run (s)"] = t["median per run (s)"].round(1)
    t["longest (s)"] = t["longest (s)"].round(1)
    total = w.wall_s.sum() / 60
    w.to_csv(os.path.join(out, "run-times.csv"), index=False)
    return ["## Run times", "",
            "Each run's wall time as its params.json records it (`out/paper[-full]/run-times.csv`), "
            "on this machine (%d cores), summed per experiment: %.1f min of runs in all; "
            "`make paper` runs them `--jobs` (default: one per core) at a time."
            % (os.cpu_count(), total), "",
            md_table(t, list(t.columns)), ""]
