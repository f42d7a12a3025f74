# SPDX-License-Identifier: GPL-2.0-only
"""scripts/run-tests.sh, make test's summary: it adds up the suites'
"NAME: N passed, M failed" lines, and a suite that prints none fails
instead of counting 0."""
import os
import subprocess

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "run-tests.sh")

MAKEFILE = """\
two:
\t@echo "two: 2 passed, 0 failed"
gt:
\t@echo "[  PASSED  ] 5 tests."
\t@echo "gtest: 5 passed, 0 failed"
skips:
\t@echo "py: 3 passed, 1 failed, 2 skipped"
\t@false
silent:
\t@echo "100%: Checks: 9, Failures: 0, Errors: 0"
"""


def run(tmp_path, *targets):
    (tmp_path / "Makefile").write_text(MAKEFILE)
    return subprocess.run(["bash", os.path.abspath(SCRIPT), str(tmp_path / "logs"), *targets],
                          cwd=tmp_path, capture_output=True, text=True)


def test_tallies_add_up(tmp_path):
    p = run(tmp_path, "two", "gt")
    assert p.returncode == 0
    # 2 + 5, the gtest runner's own "[  PASSED  ]" line not counted twice.
    assert p.stdout.splitlines()[-1] == "7 passed, 0 failed"


def test_a_failed_suite_counts_its_failures(tmp_path):
    p = run(tmp_path, "two", "skips")
    assert p.returncode == 1
    assert "make test: FAILED in: skips" in p.stdout
    assert p.stdout.splitlines()[-1] == "5 passed, 1 failed"


def test_a_suite_that_reports_nothing_fails(tmp_path):
    # Check's own summary alone is not the tally format: the suite failed to
    # report (a runner whose format changed would otherwise count 0).
    p = run(tmp_path, "two", "silent")
    assert p.returncode == 1
    assert 'silent printed no "NAME: N passed, M failed" line' in p.stdout
    assert "make test: FAILED in: silent" in p.stdout
    assert p.stdout.splitlines()[-1] == "2 passed, 1 failed"
