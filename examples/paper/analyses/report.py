# SPDX-License-Identifier: GPL-2.0-only
"""The results page: its header, the sections the analyses wrote, and the
plots they link copied beside it."""
import os
import re
import shutil
import time

import pandas as pd

HEADER = """<!-- SPDX-License-Identifier: GPL-2.0-only -->
<!-- Written by `make paper` (examples/paper/paper.py %(full)s) on %(date)s; do not edit. -->
# The FNCC paper, reproduced

Every table below is written by `make paper` from runs it makes itself
(`make paper FULL=1` writes the paper's scale into [results-full.md](results-full.md)); each
run's directory under `out/paper[-full]/<experiment>/<run>/` holds its `params.json` (binary hash and
arguments), `summary.txt` and CSV files, and `out/paper/<experiment>/summary.csv`
has one row per run. The paper's numbers come from
`examples/paper/paper_numbers.py`, which quotes the sentence each one is from.
Algorithms: `dcqcn` with the DCQCN paper's values (libcc's `paper` preset, as
the FNCC paper compared against), `hpcc` and `fncc` with libcc's defaults
(eta 0.95, 1 ACK per packet, FNCC beta 0.9), and in Figure 9 `rocc`, the
paper's fourth baseline, with libcc's defaults: its reference model's and
Cisco's patent's rule and gains, and libcc's choices for the queue thresholds
q_ref, q_mid and q_max, which neither source gives (docs/algorithms/rocc.md,
with their sensitivity). Every algorithm's page names the source of each of
its defaults. The section before the run times runs every algorithm libcc
registers, with its defaults, on the dumbbell and the fat tree.

The quick scale (the default) takes about four minutes on 2 cores. FULL=1
([results-full.md](results-full.md)) runs the paper's scale where the paper has one: Figures
14 and 15 at k=8 (128 hosts), 100 Gbps, 1.5 us links, 50%% load, 5 seeds,
over 20 ms of arrivals (the paper does not give its window), FNCC with
its last-hop speedup off on the same k=8 flows, and the fairness
experiment's 100 ms phases; the other experiments, every-algorithm fat
tree included, are the quick scale's. On a cluster, run the experiments
apart with `examples/paper/paper.py --full --only EXP`, or the sweep tool
(docs/sweeps.md). %(made)s
Two questions the paper
leaves open are answered with measurements below: why a lone HPCC or FNCC
flow settles near 0.91 of the line rather than eta = 0.95, and what FNCC's
last-hop speedup does to large WebSearch flows at scale.

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



INVOCATIONS = "invocations.csv"


def record_invocation(out, inv):
    """Append one make paper that made runs to out/invocations.csv: its date,
    runs made and reused, wall time, jobs and cores."""
    path = os.path.join(out, INVOCATIONS)
    row = dict(date=time.strftime("%Y-%m-%dT%H:%M:%S"), cores=os.cpu_count(), **inv)
    cols = ["date", "made", "reused", "runs", "wall_s", "jobs", "cores"]
    pd.DataFrame([row], columns=cols).to_csv(path, mode="a", index=False, float_format="%.0f",
                                            header=not os.path.exists(path))


def made_sentence(out):
    """What the last make paper that made runs took (out/invocations.csv)."""
    try:
        inv = pd.read_csv(os.path.join(out, INVOCATIONS)).iloc[-1]
    except (OSError, IndexError, pd.errors.EmptyDataError):
        return "The runs were complete before this page was written (no invocation recorded)."
    return ("The last `make paper` that made runs for this page (%s) made %d of its %d runs "
            "(%d were complete from an earlier one) in %.0f min of wall time, %d at a time on "
            "%d cores; each experiment's run times are in the last section."
            % (inv.date, inv.made, inv.runs, inv.reused, inv.wall_s / 60, inv.jobs, inv.cores))


def write(md, out, results, full):
    """docs/results.md (or results): the header and the sections md (lines),
    the plots copied beside it."""
    text = publish_images("\n".join(md) + "\n", out, results)
    with open(results, "w") as f:
        f.write(HEADER % {"full": "--full" if full else "(quick)", "made": made_sentence(out),
                          "date": time.strftime("%Y-%m-%d")} + text)
