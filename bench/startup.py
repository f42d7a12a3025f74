#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Start-up instructions and peak RSS of the dumbbell, on Debian's shared
ns-3 and with ns-3 linked in (docs/static-programs.md).

    startup.py BIN_DIR DOC.md     (make bench)

For BIN_DIR/dumbbell and BIN_DIR/static/dumbbell (when built): the
instructions of the whole process (callgrind, the dynamic linker included)
of `dumbbell --algo=hpcc --stop=1us --traces=false`, where Run() is about
0.9 M of it, and the peak RSS (GNU time) of the same program run for 300 us,
RUNS runs of each program alternating, median and range. Writes the table
between '<!-- startup:begin -->' and '<!-- startup:end -->' of DOC.md.
"""
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchdoc import one_peak_rss_mb, write_block  # noqa: E402
from hop_cost import read_callgrind  # noqa: E402

RUNS = 15
BEGIN = "<!-- startup:begin -->"
END = "<!-- startup:end -->"
ARGS = ["--algo=hpcc", "--traces=false"]
PROGRAMS = [("`build/bin/dumbbell` (Debian's shared ns-3)", "dumbbell"),
            ("`build/bin/static/dumbbell` (ns-3 linked in)", os.path.join("static", "dumbbell"))]


def process_instructions(prog, tmp):
    """Instructions of the whole process of prog (callgrind's total)."""
    out = os.path.join(tmp, "callgrind.out")
    subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + prog,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    total = read_callgrind(out)[0]
    if total is None:
        sys.exit("startup.py: no instruction count in callgrind's file for " + prog[0])
    return total


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    bindir, doc = sys.argv[1:]
    progs = [(label, os.path.join(bindir, rel)) for label, rel in PROGRAMS
             if os.access(os.path.join(bindir, rel), os.X_OK)]
    with tempfile.TemporaryDirectory() as tmp:
        out = ["--out=" + os.path.join(tmp, "out")]
        ins = {path: process_instructions([path] + ARGS + ["--stop=1us"] + out, tmp)
               for _, path in progs}
        rss = {path: [] for _, path in progs}
        for _ in range(RUNS):
            for _, path in progs:
                rss[path].append(one_peak_rss_mb([path] + ARGS + ["--stop=300us"] + out))
    lines = [BEGIN,
             "Start-up: instructions of the whole process of `dumbbell --algo=hpcc --stop=1us "
             "--traces=false` (callgrind, the dynamic linker included), and peak RSS of the "
             "same program run for 300 us (GNU time, %d runs of each alternating, median and "
             "range, MB of 1,024 KB); written by `make bench` (bench/startup.py)." % RUNS,
             "",
             "| program | instructions, whole process | peak RSS MB, 300 us |",
             "|---|---:|---:|"]
    for label, path in progs:
        r = rss[path]
        lines.append("| %s | %.2f M | %.2f (%.2f-%.2f) |"
                     % (label, ins[path] / 1e6, statistics.median(r), min(r), max(r)))
    lines.append(END)
    write_block(doc, BEGIN, END, lines)


if __name__ == "__main__":
    main()
