# SPDX-License-Identifier: GPL-2.0-only
"""libns3-libcc.so's hot-first layout (ns3-bindings/ns3.mk, docs/performance.md,
Memory) and the programs' QuickExit."""
import os
import subprocess
import sys

import pytest

from tests.python.conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "bench"))
from hot_sections import function_of, sections_of, symbols, thunk_target  # noqa: E402

BIN = os.environ.get("LIBCC_BIN", os.path.join(ROOT, "build", "bin"))
LIB = os.path.join(BIN, "..", "lib", "libns3-libcc.so")
LIST = os.path.join(ROOT, "ns3-bindings", "layout", "hot-sections.txt")

needs_lib = pytest.mark.skipif(not os.path.exists(LIB), reason="bindings not built")


def listed():
    with open(LIST) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def functions(lib):
    """name -> (address, size) of every function nm sees in lib."""
    return {name: (start, size) for start, size, names in symbols(lib) for name in names}


def text_section(lib):
    """(address, size) of lib's .text."""
    out = subprocess.run(["readelf", "-SW", lib], check=True, capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        parts = line.replace("[ ", "[").split()
        if len(parts) > 5 and parts[1] == ".text":
            return int(parts[3], 16), int(parts[5], 16)
    raise AssertionError("no .text in " + lib)


@needs_lib
def test_the_list_names_the_library_s_code():
    # A list gone stale (functions renamed or removed since `make layout`)
    # would leave the run's code spread over the text again.
    sections = listed()
    funcs = functions(LIB)
    missing = [s for s in sections
               if function_of(s) not in funcs and function_of(s) + ".cold" not in funcs]
    assert len(sections) > 300
    assert len(missing) <= len(sections) // 20, "regenerate with make layout: %s" % missing[:5]


@needs_lib
def test_listed_code_is_packed_first():
    start, size = text_section(LIB)
    funcs = functions(LIB)
    spans = {funcs[function_of(s)] for s in listed()
             if not s.startswith(".text.unlikely.") and function_of(s) in funcs}
    listed_bytes = sum(n for _, n in spans)
    # The run's code first in .text: all but a few of the listed functions
    # (aliases nm lists under another name) within the first listed_bytes
    # of it, 16-byte alignment allowed for. Unordered, they spread over the
    # whole 0.9 MB.
    head = start + listed_bytes + 16 * len(spans) + 4096
    inside = [a for a, _ in spans if a < head]
    assert 200 * 1024 < listed_bytes < size / 2
    assert len(inside) >= 0.95 * len(spans)


AWK = os.path.join(ROOT, "ns3-bindings", "layout", "hot-first.awk")
BAR = "=" * 50


def hot_first(tmp_path, verbose):
    lst = tmp_path / "hot.txt"
    lst.write_text("# a comment\n.text._Z1av\n\n.text.unlikely._Z1bv\n")
    return subprocess.run(["awk", "-v", "list=%s" % lst, "-f", AWK], input=verbose,
                          capture_output=True, text=True)


def test_hot_first_puts_the_list_first_in_text(tmp_path):
    verbose = ("GNU ld\n%s\nSECTIONS\n{\n  .text           :\n  {\n"
               "    *(.text.unlikely .text.unlikely.*)\n  }\n}\n%s\n" % (BAR, BAR))
    p = hot_first(tmp_path, verbose)
    assert p.returncode == 0
    assert p.stdout == ("SECTIONS\n{\n  .text           :\n  {\n"
                        "    *crtbegin*.o(.text)\n    *(.text._Z1av)\n"
                        "    *(.text.unlikely._Z1bv)\n"
                        "    *(.text.unlikely .text.unlikely.*)\n  }\n}\n")


def test_a_thunk_without_a_section_is_in_its_target_s():
    # SwitchPort::PendingCounter, an inline virtual called only through its
    # thunk (the QbbEgressSource base is at offset 32): the thunk shares the
    # target's section. Left out of the list, it sat 500 KB past the hot
    # code and made the run map another 64 KB of the library.
    thunk = "_ZThn32_NK3ns310SwitchPort14PendingCounterEv"
    target = "_ZNK3ns310SwitchPort14PendingCounterEv"
    assert thunk_target(thunk) == target
    assert thunk_target("_ZTv0_n24_N3ns36Object9DoDisposeEv") == "_ZN3ns36Object9DoDisposeEv"
    assert thunk_target(target) is None
    where = {target: {".text." + target}}
    assert sections_of({thunk}, where) == {".text." + target}
    # a thunk with a section of its own keeps it
    where[thunk] = {".text." + thunk}
    assert sections_of({thunk}, where) == {".text." + thunk}


def test_hot_first_fails_without_a_text_statement(tmp_path):
    # lld and gold print no default script: the build then links without it.
    p = hot_first(tmp_path, "LLD 14.0.6\n")
    assert p.returncode == 1
    assert p.stdout == ""


@needs_lib
def test_quick_exit_keeps_the_output_and_the_exit_status(tmp_path):
    # The programs end through QuickExit: stdout, a pipe here (fully
    # buffered), must still reach the reader, and the status be main's.
    p = subprocess.run([os.path.join(BIN, "dumbbell"), "--algo=hpcc", "--stop=20us",
                        "--traces=false", "--out=%s" % tmp_path], capture_output=True, text=True)
    assert p.returncode == 0
    # The summary goes to stdout and to summary.txt, whole: its last line
    # is the RP state size.
    assert p.stdout.splitlines()[-1].startswith("libcc_rp_bytes_per_flow=")
    assert p.stdout == (tmp_path / "summary.txt").read_text()
    bad = subprocess.run([os.path.join(BIN, "dumbbell"), "--stop=0us"],
                         capture_output=True, text=True)
    assert bad.returncode == 2
    assert "--stop" in bad.stderr
