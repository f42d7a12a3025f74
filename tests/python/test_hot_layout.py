# SPDX-License-Identifier: GPL-2.0-only
"""libns3-libcc.so's hot-first layout (ns3-bindings/ns3.mk, docs/performance.md,
Memory) and the programs' QuickExit."""
import os
import subprocess

import pytest

from tests.python.conftest import ROOT

BIN = os.environ.get("LIBCC_BIN", os.path.join(ROOT, "build", "bin"))
LIB = os.path.join(BIN, "..", "lib", "libns3-libcc.so")
LIST = os.path.join(ROOT, "ns3-bindings", "layout", "hot-functions.txt")

needs_lib = pytest.mark.skipif(not os.path.exists(LIB), reason="bindings not built")


def listed():
    with open(LIST) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def functions(lib):
    """name -> (address, size) of every function nm sees in lib."""
    out = subprocess.run(["nm", "-S", "--defined-only", lib], check=True,
                         capture_output=True, text=True).stdout
    funcs = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tTwW":
            funcs[parts[3].removesuffix(".localalias")] = (int(parts[0], 16), int(parts[1], 16))
    return funcs


def linked_by_gold(lib):
    out = subprocess.run(["readelf", "-SW", lib], check=True, capture_output=True,
                         text=True).stdout
    return ".note.gnu.gold-version" in out


@needs_lib
def test_the_list_names_the_library_s_functions():
    # A list gone stale (functions renamed or removed since `make layout`)
    # would leave the run's code spread over the text again.
    names = listed()
    funcs = functions(LIB)
    missing = [n for n in names if n not in funcs]
    assert len(names) > 300
    assert len(missing) <= len(names) // 20, "regenerate with make layout: %s" % missing[:5]


@needs_lib
def test_listed_functions_are_packed_together():
    if not linked_by_gold(LIB):
        pytest.skip("linked without gold: no ordering")
    funcs = functions(LIB)
    spans = sorted(set(funcs[n] for n in set(listed()) if n in funcs))
    total = sum(s for _, s in spans)
    # The stretch from the end of the listed code back until it holds 95%
    # of the listed bytes (the rest: a few cold parts and static
    # initialisers that gold groups apart). Spread as unordered code is,
    # that stretch would be most of the 0.9 MB text.
    held = 0
    for start, size in reversed(spans):
        held += size
        if held >= 0.95 * total:
            break
    end = max(a + s for a, s in spans)
    assert total > 200 * 1024
    assert end - start <= 1.15 * held


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
