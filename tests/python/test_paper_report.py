# SPDX-License-Identifier: GPL-2.0-only
"""The results pages' bookkeeping (examples/paper/analyses/report.py and
run_times.py): what the last make paper that made runs took, and each
experiment's run times from the runs' params.json. Values written by hand."""
import json
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "examples", "paper"))

from analyses import report, run_times  # noqa: E402
from analysis.runs import Run  # noqa: E402


def test_the_last_invocation_that_made_runs_is_reported(tmp_path):
    out = str(tmp_path)
    assert "no invocation recorded" in report.made_sentence(out)
    report.record_invocation(out, {"made": 10, "runs": 12, "reused": 2, "wall_s": 600,
                                   "jobs": 2})
    report.record_invocation(out, {"made": 125, "runs": 125, "reused": 0, "wall_s": 3900,
                                   "jobs": 2})
    s = report.made_sentence(out)
    # 3,900 s is 65 min; the second record is the last.
    assert "made 125 of its 125 runs (0 were complete from an earlier one) in 65 min" in s
    assert "2 at a time on %d cores" % os.cpu_count() in s


def fake_run(out, exp, name, wall_s):
    r = Run.__new__(Run)
    r.exp, r.name = exp, name
    d = os.path.join(out, exp, name)
    os.makedirs(d)
    if wall_s is not None:
        with open(os.path.join(d, "params.json"), "w") as f:
            json.dump({"launch": {"ranks": 1, "wall_s": wall_s}}, f)
    return r


def test_run_times_per_experiment(tmp_path, monkeypatch):
    out = str(tmp_path)
    monkeypatch.setattr(Run, "dir", lambda self, o: os.path.join(o, self.exp, self.name))
    runs = [fake_run(out, "large-scale", "a", 120.0), fake_run(out, "large-scale", "b", 240.0),
            fake_run(out, "large-scale", "c", 360.0), fake_run(out, "lone-flow", "d", 6.0),
            fake_run(out, "lone-flow", "e", None)]  # no launch record: left out
    md = "\n".join(run_times.analyse(runs, out))
    # large-scale: 3 runs, 720 s = 12.0 min, median 240 s, longest 360 s.
    assert "| large-scale | 3 | 12.0 | 240.0 | 360.0 |" in md
    assert "| lone-flow | 1 | 0.1 | 6.0 | 6.0 |" in md
    # 726 s in all (the run without a record adds nothing): 12.1 min.
    assert "12.1 min of runs in all" in md
    assert run_times.sentence(runs, out, "large-scale") == (
        " Its 3 runs took 12.0 min of wall time one after another (median 240 s per run, "
        "longest 360 s; one process each).")
    assert os.path.exists(os.path.join(out, "run-times.csv"))


def test_results_page_header_is_written(tmp_path):
    # The header is a %-template: a stray "%" in its prose (it once said
    # "50% load") fails here, not after an hour of runs.
    out, page = str(tmp_path / "out"), str(tmp_path / "results-full.md")
    os.makedirs(out)
    report.record_invocation(out, {"made": 3, "runs": 3, "reused": 0, "wall_s": 120, "jobs": 2})
    report.write(["## A section", "", "text"], out, page, True)
    text = open(page).read()
    assert "examples/paper/paper.py --full" in text and "50% load" in text
    assert "made 3 of its 3 runs (0 were complete from an earlier one) in 2 min" in text
    assert text.endswith("## A section\n\ntext\n")
