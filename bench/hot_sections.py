#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The code sections of libns3-libcc.so that typical runs execute, for its layout.

    hot_sections.py [--valgrind=valgrind] BIN_DIR OUT.txt     (make layout)

Runs the scenes below under callgrind (--dump-instr: every instruction
executed, set-up and tear-down included), maps each executed address of
libns3-libcc.so to the function holding it (nm: every name at that address,
aliases included: a constructor's C1 and C2, GCC's .localalias), and each
function to the input section the compiler put it in (-ffunction-sections:
.text.NAME, or .text.unlikely.NAME for a function declared cold and for
the cold part NAME.cold split from NAME, .text.startup.NAME for a static
initialiser; read from the library's objects beside BIN_DIR). Writes those
section names, one a line: first those every scene ran, then those fewer
scenes ran, each group by name.

The build links the library with these sections first inside its .text
(ns3-bindings/ns3.mk, layout/hot-first.awk): the kernel maps a library's
file pages 64 KB around each page a process touches, so run code spread
over the whole text made all of it resident (docs/performance.md, Memory).
A stale list costs memory only, never correctness: a section not listed
lands after the listed ones, as before.
tests/python/test_hot_layout.py checks that the list still names the
library's code.
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
# The code sections of libns3-libcc.so that typical runs execute, put first in
# its text by ns3-bindings/ns3.mk (docs/performance.md, Memory). Written by
# `make layout` (bench/hot_sections.py): do not edit by hand.
"""
PREFIXES = (".text.unlikely.", ".text.startup.", ".text.hot.", ".text.exit.", ".text.")


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


def function_of(section):
    """The function an input section holds: .text.unlikely.NAME holds NAME
    (declared cold) or NAME.cold (split from NAME)."""
    prefix = next(p for p in PREFIXES if section.startswith(p))
    return section[len(prefix):]


def code_sections(objdir):
    """function name -> the input sections holding it, over every object
    file under objdir: one for a comdat function, one per object for a
    local one of the same name in several (GCC's .constprop clones)."""
    where = collections.defaultdict(set)
    for top, _, files in os.walk(objdir):
        for name in files:
            if not name.endswith(".o"):
                continue
            out = subprocess.run(["readelf", "-SW", os.path.join(top, name)], check=True,
                                 capture_output=True, text=True).stdout
            for m in re.finditer(r"\] (\.text\.\S+)", out):
                where[function_of(m.group(1))].add(m.group(1))
    return where


_THUNK = re.compile(r"^_ZT(?:hn?\d+_|vn?\d+_n?\d+_)(.+)$")


def thunk_target(name):
    """The function a this-adjusting thunk (_ZThn32_NAME, _ZTv0_n24_NAME)
    jumps to, mangled (_ZNAME); None for any other name. GCC emits the
    thunk of an inline virtual in its target's section, with no section of
    its own: a run that only ever calls the thunk executes that section."""
    m = _THUNK.match(name)
    return "_Z" + m.group(1) if m else None


def sections_of(names, where):
    """The sections holding the functions names. .text.unlikely.NAME holds
    NAME.cold, the part GCC split from NAME, or NAME itself if NAME has no
    other section (declared cold). A thunk without a section of its own is
    in its target's."""
    out = set()
    for name in names:
        if name.endswith(".cold"):
            out.add(".text.unlikely." + name[:-len(".cold")])
            continue
        own = where.get(name, set())
        if not own and thunk_target(name):
            own = where.get(thunk_target(name), set())
        warm = {s for s in own if not s.startswith(".text.unlikely.")}
        out |= warm or own
    return out


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
    where = code_sections(os.path.join(bindir, "..", "ns3", "ns3-bindings"))
    runs = collections.Counter()
    todo = scenes(bindir)
    with tempfile.TemporaryDirectory() as tmp:
        for n, (cmd, flows) in enumerate(todo, 1):
            prog = hop_cost.scene_program(bindir, cmd, flows, tmp)
            print("[%d/%d] %s" % (n, len(todo), " ".join(prog)), file=sys.stderr)
            names = functions_at(syms, executed(valgrind, prog, os.path.join(tmp, "cg.out")))
            runs.update(sections_of(names, where))
    order = sorted(runs, key=lambda section: (-runs[section], section))
    if len(order) < 100:
        # A run executes hundreds of the library's functions: this few means
        # callgrind did not attribute its code to the library (a library
        # whose code is outside .text), and the list would undo the layout.
        sys.exit("hot_sections.py: only %d sections of %s executed: list not written"
                 % (len(order), LIB))
    with open(dest, "w") as f:
        f.write(HEADER)
        f.write("".join(section + "\n" for section in order))
    print("%s: %d sections from %d runs" % (dest, len(order), len(todo)), file=sys.stderr)


if __name__ == "__main__":
    main()
