# SPDX-License-Identifier: GPL-2.0-only
"""Every analysis/*.py that README and docs/ run directly (`analysis/x.py
...`) is executable, starts with a python3 shebang and answers --help with
exit 0, as a user typing the documented command gets it."""
import glob
import os
import re
import subprocess

import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))


def documented_scripts():
    """The analysis scripts a document shows as a command: the path at the
    start of a code line or after "$ " (imports like runs.py are not)."""
    found = set()
    for doc in [os.path.join(ROOT, "README.md")] + glob.glob(os.path.join(ROOT, "docs", "*.md")):
        with open(doc) as f:
            for line in f:
                m = re.match(r"\s*(?:\$ )?(analysis/[a-z_]+\.py)\s", line)
                if m:
                    found.add(m.group(1))
    return sorted(found)


def test_some_scripts_are_documented_as_commands():
    # fct_slowdown, fct_analysis, trace_reader and sweep at least (README).
    assert {"analysis/fct_slowdown.py", "analysis/fct_analysis.py",
            "analysis/trace_reader.py", "analysis/sweep.py"} <= set(documented_scripts())


@pytest.mark.parametrize("script", documented_scripts())
def test_documented_script_runs_as_a_command(script):
    path = os.path.join(ROOT, script)
    assert os.access(path, os.X_OK), "%s is run directly in the docs but is not executable" % script
    with open(path) as f:
        assert f.readline().startswith("#!/usr/bin/python3"), script
    p = subprocess.run([path, "--help"], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    assert "usage" in p.stdout.lower()
