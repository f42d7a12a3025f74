#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run the FNCC paper's experiments (sections 2.2, 2.3 and 5) and write, per
experiment, a CSV of every run's summary, the plots, and the tables of the
results page.

    paper.py [--full] [--jobs N] [--bin build/bin] [--out out/paper]
             [--only EXP[,EXP...]] [--results docs/results.md] [--plugin PATH.so ...]

Each experiment is a grid in examples/paper/experiments/<name>.toml (the
sweep tool's format, docs/sweeps.md; `analysis/sweep.py run` runs one
alone), its analysis examples/paper/analyses/<name>.py, the page
analyses/report.py. Experiments (out/paper/<name>/):
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
                  (128 hosts), 5 seeds (the paper's scale), 20 ms
  all-algos-dumbbell  every algorithm libcc registers (libcc-replay --list),
                  default parameters, on Fig 9's dumbbell at 100 Gbps:
                  1 ms as the paper, and 10 ms for how long sharing takes
  all-algos-fattree   every algorithm libcc registers on the large-scale
                  WebSearch flows (same k, seeds and flow files), with traces
                  for the receivers' link utilisation and the queues
  fncc-at-scale   FNCC variants on the large-scale WebSearch flows

--plugin (make paper PLUGIN=path): every run loads the plugin, and its
algorithms join "every algorithm libcc registers" (the all-algos
experiments); a grid may name them in its algo list too.

A run is skipped when its directory holds a complete result of the same
binary (SHA-256) and arguments (params.json). Progress (runs done/total,
ETA) goes to stderr. Exit status: 0, 1 if a run failed or an output cannot
be written, 2 for bad arguments.
"""
import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
if ROOT not in sys.path:  # the analysis package, from the repository's top
    sys.path.insert(0, ROOT)
from analysis import libcc_info, sweep  # noqa: E402
from analysis.runs import run_all  # noqa: E402
from analyses import (all_algos, common, dumbbell_rates, fairness, fncc_at_scale,  # noqa: E402
                      hop_congestion, large_scale, lone_flow, pfc_pauses, report,
                      run_times)

# The grids, in the order they run.
EXPERIMENTS = ["dumbbell-rates", "pfc-pauses", "hop-congestion", "lone-flow", "fairness",
               "large-scale", "all-algos-dumbbell", "all-algos-fattree", "fncc-at-scale"]
# The results page's sections, in order.
SECTIONS = [dumbbell_rates, pfc_pauses, hop_congestion, fairness, lone_flow, large_scale,
            fncc_at_scale, all_algos, run_times]
# --only names without a grid of their own: the grid whose runs they read.
ALIASES = {"lhcs-rates": "hop-congestion"}


def experiment_runs(names, full, algorithms, plugins=()):
    """The runs of these experiments' grids, in EXPERIMENTS order, each
    loading the plugins."""
    runs = []
    for name in EXPERIMENTS:
        if name in names:
            g = sweep.load_grid(os.path.join(HERE, "experiments", name + ".toml"), full)
            runs += sweep.make_runs(g, algorithms=algorithms,
                                    plugins=sweep.grid_plugins(g, plugins))
    return runs


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
    ap.add_argument("--plugin", action="append", default=[], metavar="PATH.so",
                    help="a libcc plugin every run loads (repeatable)")
    a = ap.parse_args()
    t0 = time.monotonic()
    if a.jobs < 1:
        ap.error("--jobs=%d: accepted 1 or more" % a.jobs)
    known = sorted(set(EXPERIMENTS) | set(ALIASES))
    only = [x for x in a.only.split(",") if x]
    for x in only:
        if x not in known:
            ap.error("--only: unknown experiment '%s'; accepted %s" % (x, ", ".join(known)))
    names = {ALIASES.get(x, x) for x in only} if only else set(EXPERIMENTS)
    for p in a.plugin:
        if not os.path.isfile(p):
            ap.error("--plugin=%s: no such file (build it first: docs/writing-an-algorithm.md)" % p)
    common.BIN = a.bin
    # The algorithms come from libcc's registry (and the plugins'), not a list here.
    try:
        algorithms = libcc_info.algorithms(a.bin, [os.path.abspath(p) for p in a.plugin])
        runs = experiment_runs(names, a.full, algorithms, a.plugin)
    except RuntimeError as e:
        sys.stderr.write("paper: --plugin: %s\n" % e)
        return 2
    except sweep.BadGrid as e:
        sys.stderr.write("paper: %s (is %s/libcc-replay built? make tools)\n" % (e, a.bin))
        return 1
    for prog in {r.program for r in runs}:
        if not os.access(os.path.join(a.bin, prog), os.X_OK):
            sys.stderr.write("paper: %s/%s is missing: build with `make`\n" % (a.bin, prog))
            return 1
    try:
        sweep.make_flow_files(runs, a.out)
    except sweep.BadGrid as e:
        sys.stderr.write("paper: %s\n" % e)
        return 2
    made = []
    errors = run_all(sweep.longest_first(runs), a.out, a.bin, a.jobs, tag="paper", made=made)
    if made and not errors:
        report.record_invocation(a.out, {"made": len(made), "runs": len(runs),
                                         "reused": len(runs) - len(made),
                                         "wall_s": time.monotonic() - t0, "jobs": a.jobs})
    for e in errors:
        sys.stderr.write("paper: %s\n" % e)
    if errors:
        return 1
    md = [line for section in SECTIONS for line in section.analyse(runs, a.out)]
    if not a.results:
        print("\n".join(md))
        return 0
    try:
        report.write(md, a.out, a.results, a.full)
    except OSError as e:
        sys.stderr.write("paper: cannot write %s: %s\n" % (a.results, e))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
