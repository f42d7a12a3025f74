#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""FCT slowdown by flow size, with the arguments and text output of the HPCC
simulator's analysis/fct_analysis.py (alibaba-edu/High-Precision-Congestion-
Control), in Python 3, on its fct files and ours alike.

    fct_analysis.py [-p PREFIX] [-s STEP] [-t TYPE] [-T NS] [-b GBPS] CC_OR_FILE...

With -p each argument is a CC name and the file read is PREFIX_CC.txt (that
script read ../simulation/mix/PREFIX_CC.txt for a CC list edited into it);
without -p each argument is an fct file. An fct file has one line per
finished flow: sip dip sport dport size start_ns fct_ns standalone_fct_ns.

Per file: flows of dport 100 (-t 0), 200 (-t 1, incast) or all (-t 2)
that finished before -T ns (start + fct < T); slowdown = fct / standalone
fct, taken as 1 below 1; flows sorted by size (ties in file order) and cut
into 100/STEP equal-count bins, bin i holding flows [i*STEP*n//100,
(i+1)*STEP*n//100). One line per bin:

    "%.3f %d" % (i*STEP/100, largest size in the bin of the first file),
    then per file "\\t%.3f %.3f %.3f": median, 95th, 99th percentile,

with that script's percentile rule: sorted slowdowns s, p -> s[floor(len(s) p)].
Differences from that script: it left the largest flow out of the sample
(its last output line was cut with the trailing newline); --drop-largest
does the same. -b is accepted and unused there and here. Empty bins are
skipped (that script failed on them). The statistics come from
fct_slowdown.py, which also writes a CSV and plots.

Exit status 0; 1 if a file cannot be read; 2 for bad input (file:line).
"""
import argparse
import os
import sys

import pandas as pd

if __package__ in (None, ""):  # run as analysis/fct_analysis.py: the package is the folder above
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from analysis import fct_slowdown as fs  # noqa: E402

DPORT = {0: 100, 1: 200, 2: -1}


def table(df, step=5, kind=0, time_limit=3000000000, drop_largest=False):
    """fct_slowdown.bins of one file's flows, as that script selects them."""
    if kind not in DPORT:
        raise fs.BadInput("-t %s: accepted 0 (dport 100), 1 (dport 200) or 2 (all)" % kind)
    x = df
    if DPORT[kind] >= 0:
        x = x[x.dport == DPORT[kind]]
    x = x[x.start_ns + x.fct_ns < time_limit]
    if drop_largest and len(x):
        x = x.sort_values("size", kind="stable").iloc[:-1]
    return fs.bins(x, step=step, dport=-1)


def render(tables, step):
    """That script's text: one line per bin, the files side by side."""
    first = tables[0]
    lines = []
    for _, row in first.iterrows():
        i = int(row["bin"])
        line = "%.3f %d" % (i * step / 100.0, row["max_size_bytes"])
        for t in tables:
            r = t[t.bin == i]
            if r.empty:
                raise fs.BadInput("bin %d is empty in one file and not in another: "
                                  "give files with enough flows for -s %d" % (i, step))
            r = r.iloc[0]
            line += "\t%.3f %.3f %.3f" % (r.p50, r.p95, r.p99)
        lines.append(line)
    return "".join(l + "\n" for l in lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("inputs", nargs="+", metavar="CC_OR_FILE")
    ap.add_argument("-p", dest="prefix", default=None,
                    help="read PREFIX_CC.txt for each CC argument (e.g. fct_fat)")
    ap.add_argument("-s", dest="step", type=int, default=5, help="bin width, percent of flows")
    ap.add_argument("-t", dest="type", type=int, default=0,
                    help="0: normal (dport 100), 1: incast (dport 200), 2: all")
    ap.add_argument("-T", dest="time_limit", type=int, default=3000000000,
                    help="only flows that finish before T ns")
    ap.add_argument("-b", dest="bw", type=int, default=25,
                    help="edge link Gbps (accepted, unused, as in that script)")
    ap.add_argument("--drop-largest", action="store_true",
                    help="leave the largest flow out, as that script did")
    a = ap.parse_args(argv)
    files = ["%s_%s.txt" % (a.prefix, cc) for cc in a.inputs] if a.prefix else a.inputs
    try:
        tables = [table(fs.read_fct(f), a.step, a.type, a.time_limit, a.drop_largest)
                  for f in files]
        text = render(tables, a.step)
    except fs.BadInput as e:
        sys.stderr.write("fct_analysis: %s\n" % e)
        return 2
    except OSError as e:
        sys.stderr.write("fct_analysis: %s\n" % e)
        return 1
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
