#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The functions of libns3-libcc.so that typical runs execute, for its layout.

    hot_functions.py [--valgrind=valgrind] BIN_DIR OUT.txt     (make layout)

Runs the scenes below under callgrind (--dump-instr: every instruction
executed, set-up and tear-down included), maps each executed address of
libns3-libcc.so to the function holding it (nm: every name at that address,
aliases included: a constructor's C1 and C2, GCC's .localalias) and writes
their mangled names, one a line: first those every scene ran, then those
fewer scenes ran, each group by name.

The build links the library with the list first in its text
(ns3-bindings/ns3.mk, gold's --section-ordering-file): the kernel maps a
library's file pages 64 KB around each page a process touches, so run code
spread over the whole text made all of it resident (docs/performance.md,
Memory). A stale list costs memory only, never correctness: a function not
listed lands after the listed ones. tests/python/test_hot_layout.py checks
that the list still names the library's functions.
"""
import bisect
import collections
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hop_cost  # noqa: E402

LIB = "libns3-libcc.so"
HEADER = """\
# The functions of libns3-libcc.so that typical runs execute, put first in its
# text by ns3-bindings/ns3.mk (docs/performance.md, Memory). Written by
# `make layout` (bench/hot_functions.py): do not edit by hand.
"""


def algorithms(bindir):
    """The algorithms libcc registers, by libcc-replay --list."""
    out = subprocess.run([os.path.join(bindir, "libcc-replay"), "--list"], check=True,
                         capture_output=True, text=True).stdout
    return [line.split()[0] for line in out.splitlines() if line.strip()]


def scenes(bindir):
    """(command, gen_flows arguments or None): make bench's two scenes, the
    dumbbell as make demo runs it (its defaults: traces, the second flow's
    start), and the dumbbell under every algorithm."""
    out = [(cmd, flows) for _, _, cmd, flows in hop_cost.SCENES]
    out.append((["dumbbell", "--out={tmp}/demo"], None))
    for algo in algorithms(bindir):
        out.append((["dumbbell", "--algo=" + algo, "--stop=100us", "--traces=false",
                     "--out={tmp}/db-" + re.sub(r"\W", "_", algo)], None))
    return out


def symbols(lib):
    """(start, size, names) of every function of lib, by address."""
    by_addr = {}
    nm = subprocess.run(["nm", "-S", "--defined-only", lib], check=True,
                        capture_output=True, text=True).stdout
    for line in nm.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tTwW":
            start, size = int(parts[0], 16), int(parts[1], 16)
            entry = by_addr.setdefault(start, [max(size, 1), set()])
            entry[0] = max(entry[0], size)
            entry[1].add(re.sub(r"\.localalias$", "", parts[3]))
    return sorted((a, s, names) for a, (s, names) in by_addr.items())


def executed(valgrind, prog, out):
    """The offsets in libns3-libcc.so of the instructions prog executes."""
    subprocess.run([valgrind, "--tool=callgrind", "--dump-instr=yes", "--compress-pos=no",
                    "--compress-strings=no", "--callgrind-out-file=" + out] + prog,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    offsets = set()
    obj = None
    with open(out) as f:
        for line in f:
            if line.startswith("ob="):
                obj = line[3:].strip()
            elif line.startswith("0x") and obj and os.path.basename(obj).startswith(LIB):
                offsets.add(int(line.split()[0], 16))
    return offsets


def functions_at(syms, offsets):
    """Every name of the functions holding offsets."""
    starts = [s[0] for s in syms]
    names = set()
    for off in offsets:
        i = bisect.bisect_right(starts, off) - 1
        if i >= 0 and off < syms[i][0] + syms[i][1]:
            names |= syms[i][2]
    return names


def main():
    args = sys.argv[1:]
    valgrind = "valgrind"
    if args and args[0].startswith("--valgrind="):
        valgrind = args.pop(0).split("=", 1)[1]
    if len(args) != 2:
        sys.exit(__doc__)
    bindir, dest = args
    lib = os.path.realpath(os.path.join(bindir, "..", "lib", LIB))
    syms = symbols(lib)
    runs = collections.Counter()
    todo = scenes(bindir)
    with tempfile.TemporaryDirectory() as tmp:
        for n, (cmd, flows) in enumerate(todo, 1):
            if flows:
                subprocess.run([sys.executable, os.path.join(hop_cost.HERE, "..", "examples",
                                                             "gen_flows.py")]
                               + [a.format(tmp=tmp) for a in flows], check=True)
            prog = [os.path.join(bindir, cmd[0])] + [a.format(tmp=tmp) for a in cmd[1:]]
            print("[%d/%d] %s" % (n, len(todo), " ".join(prog)), file=sys.stderr)
            runs.update(functions_at(syms, executed(valgrind, prog, os.path.join(tmp, "cg.out"))))
    order = sorted(runs, key=lambda name: (-runs[name], name))
    with open(dest, "w") as f:
        f.write(HEADER)
        f.write("".join(name + "\n" for name in order))
    print("%s: %d functions from %d runs" % (dest, len(order), len(todo)), file=sys.stderr)


if __name__ == "__main__":
    main()
