# SPDX-License-Identifier: GPL-2.0-only
"""analysis/sweep.py and analysis/runs.py over MPI ranks: where a run's rank
count comes from (--ranks, [fixed] ranks, a [grid] ranks axis), what it
adds to the run's arguments (the Node event order) and what it does not
change (its identity), the bad values and programs refused (exit 2, one
line), the --jobs budget, the Slurm arrays per rank count, and one real
rdma-sim run over 2 ranks locally. Expected values derived by hand."""
import json
import os
import shutil
import stat
import subprocess
import sys
import time

import pytest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
from analysis import runs, sweep

BIN = os.environ.get("LIBCC_BIN", os.path.join(ROOT, "build", "bin"))
NODE = "--ns3::FastSimulatorImpl::EventOrder=Node"

# A stand-in program: notes when it started and ended and over how many
# ranks (RANKS, from the test's launcher) in the calls file; writes one
# fct line.
FAKE = """#!/bin/sh
[ "$1" = --help ] && { echo "usage: a stand-in"; exit 0; }
out=""
for a in "$@"; do case "$a" in --out=*) out="${a#--out=}";; esac; done
d="$(dirname "$0")"
echo "start $(date +%s.%N) ${RANKS:-1}" >> "$d/calls"
sleep 0.3
echo "0b000001 0b000101 10000 100 5000 0 2000 1000" > "$out/fct.txt"
echo "flows=1 completed=1"
echo "end $(date +%s.%N) ${RANKS:-1}" >> "$d/calls"
"""


def write_grid(tmp_path, body, program="rdma-sim"):
    grid = tmp_path / "g.toml"
    grid.write_text('[sweep]\nname = "t"\nprogram = "%s"\nout = "%s"\n%s'
                    % (program, tmp_path / "out", body))
    return str(grid)


def fake_bin(tmp_path, name):
    bindir = tmp_path / "bin"
    bindir.mkdir(exist_ok=True)
    prog = bindir / name
    prog.write_text(FAKE)
    prog.chmod(prog.stat().st_mode | stat.S_IEXEC)
    return bindir


def make(tmp_path, body, program="rdma-sim", ranks=None):
    return sweep.make_runs(sweep.load_grid(write_grid(tmp_path, body, program)), ranks)


# ---- where the rank count comes from, and what it adds ----------------------------

def test_no_ranks_anywhere_runs_as_before(tmp_path):
    # No ranks: one process, no event-order option (the runs of grids
    # written before ranks existed keep their arguments, so stay done).
    r = make(tmp_path, '[fixed]\nfattree = 4\n[grid]\nalgo = ["hpcc"]\n')
    assert [(x.name, x.ranks, x.args) for x in r] == [
        ("algo_hpcc", 1, ["--fattree=4", "--algo=hpcc"])]


def test_fixed_ranks_is_the_tools_not_an_option(tmp_path):
    # [fixed] ranks = 2: every run over 2 ranks; no --ranks=2 option; the
    # Node order appended after the grid's own options.
    r = make(tmp_path, '[fixed]\nfattree = 4\nranks = 2\n[grid]\nalgo = ["hpcc", "fncc"]\n')
    assert [(x.name, x.ranks) for x in r] == [("algo_hpcc", 2), ("algo_fncc", 2)]
    assert r[0].args == ["--fattree=4", "--algo=hpcc", NODE]
    assert "ranks" not in r[0].labels


def test_command_line_ranks_overrides_fixed(tmp_path):
    r = make(tmp_path, '[fixed]\nranks = 2\n[grid]\nalgo = ["hpcc"]\n', ranks=3)
    assert (r[0].ranks, r[0].args) == (3, ["--algo=hpcc", NODE])


def test_ranks_one_given_still_takes_the_node_order(tmp_path):
    # --ranks 1: one process, but in the order of every other count, so a
    # run done at 2 ranks (same arguments) is done at 1 and back.
    one = make(tmp_path, '[grid]\nalgo = ["hpcc"]\n', ranks=1)[0]
    two = make(tmp_path, '[grid]\nalgo = ["hpcc"]\n', ranks=2)[0]
    assert (one.ranks, two.ranks) == (1, 2)
    assert one.args == two.args == ["--algo=hpcc", NODE]


def test_grid_axis_ranks_names_and_labels_the_runs(tmp_path):
    # algo x ranks = 1 x 2: two runs, named and labelled by ranks like any
    # axis, the same arguments (ranks changes no output).
    r = make(tmp_path, '[grid]\nalgo = ["hpcc"]\nranks = [1, 2]\n')
    assert [(x.name, x.ranks, x.labels) for x in r] == [
        ("algo_hpcc-ranks_1", 1, {"algo": "hpcc", "ranks": 1}),
        ("algo_hpcc-ranks_2", 2, {"algo": "hpcc", "ranks": 2})]
    assert r[0].args == r[1].args == ["--algo=hpcc", NODE]


def test_a_given_node_order_is_not_repeated(tmp_path):
    r = make(tmp_path, '[fixed]\n"ns3::FastSimulatorImpl::EventOrder" = "Node"\nranks = 2\n')
    assert r[0].args == [NODE]


def test_other_programs_at_one_rank_are_untouched(tmp_path):
    # ranks = 1 for a program that cannot run over ranks: accepted, and no
    # event-order option it may not have.
    r = make(tmp_path, '[fixed]\nranks = 1\n[grid]\nx = [2]\n', program="minimal")
    assert (r[0].ranks, r[0].args) == (1, ["--x=2"])


# ---- refused: one line, exit 2 -----------------------------------------------------

@pytest.mark.parametrize("body,program,argv,message", [
    ('[fixed]\nranks = 0\n', "rdma-sim", [],
     "[fixed] ranks = 0: accepted a whole number, 1 or more"),
    ('[fixed]\nranks = "2"\n', "rdma-sim", [],
     "[fixed] ranks = 2: accepted a whole number, 1 or more"),
    ('[fixed]\nranks = true\n', "rdma-sim", [],
     "[fixed] ranks = True: accepted a whole number, 1 or more"),
    ('[grid]\nranks = [1, 0]\n', "rdma-sim", [],
     "[grid] ranks = 0: accepted a whole number, 1 or more"),
    ('[grid]\nranks = [1, 2.5]\n', "rdma-sim", [],
     "[grid] ranks = 2.5: accepted a whole number, 1 or more"),
    ('[grid]\nranks = [1, 2]\n', "rdma-sim", ["--ranks", "2"],
     "--ranks 2: the grid file has a ranks axis ([grid] ranks); accepted only without one"),
    ('[grid]\nx = [2]\n', "minimal", ["--ranks", "2"],
     "run x_2: program 'minimal' cannot run over ranks (--ranks 2); accepted ranks 1 "
     "(over MPI ranks: rdma-sim, dumbbell, fairness)"),
    ('[fixed]\nranks = 4\n[grid]\nx = [2]\n', "tcp-beside-rdma", [],
     "run x_2: program 'tcp-beside-rdma' cannot run over ranks ([fixed] ranks = 4)"),
    ('[grid]\nx = [2]\nranks = [1, 3]\n', "minimal", [],
     "run x_2-ranks_3: program 'minimal' cannot run over ranks ([grid] ranks = 3)"),
    ('[fixed]\n"ns3::FastSimulatorImpl::EventOrder" = "Uid"\n[grid]\nx = [2]\n', "rdma-sim",
     ["--ranks", "2"],
     "run x_2: ns3::FastSimulatorImpl::EventOrder=Uid over ranks: accepted only Node"),
    ('', "rdma-sim", ["--ranks", "0"], "--ranks 0: accepted a whole number, 1 or more"),
    ('', "rdma-sim", ["--jobs", "0"], "--jobs 0: accepted a whole number, 1 or more"),
])
def test_bad_ranks_are_named_in_one_line(tmp_path, capsys, body, program, argv, message):
    grid = write_grid(tmp_path, body, program)
    assert sweep.main(["list", grid] + argv) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1


def test_ranks_beyond_the_jobs_budget_are_refused(tmp_path, capsys):
    # 3 ranks cannot fit in --jobs 2 (each rank is a process on a core).
    bindir = fake_bin(tmp_path, "rdma-sim")
    grid = write_grid(tmp_path, '[grid]\nx = [2]\n')
    assert sweep.main(["run", grid, "--bin", str(bindir), "--jobs", "2", "--ranks", "3"]) == 2
    err = capsys.readouterr().err
    assert err == ("sweep: run x_2: ranks = 3 exceed --jobs 2 (local runs times their ranks "
                   "share it); accepted ranks 1..2, or a larger --jobs\n")
    assert not (bindir / "calls").exists()


# ---- the budget, identity and launchers -------------------------------------------

def test_local_runs_times_ranks_stay_within_jobs(tmp_path, monkeypatch):
    """Runs of 2, 1, 1, 2, 1 ranks with --jobs 3: at no time more than 3
    ranks at once (2+1 fit, 2+1+1 does not); every run ran once."""
    bindir = fake_bin(tmp_path, "rdma-sim")
    # The real launcher would be mpirun; this one tells the stand-in its
    # rank count (the pool's workers are forked: they see the patch).
    monkeypatch.setattr(runs, "launcher", lambda n, slurm=False: ["env", "RANKS=%d" % n])
    rs = [runs.Run("e", "r%d" % i, "rdma-sim", []) for i in range(5)]
    for r, n in zip(rs, (2, 1, 1, 2, 1)):
        r.ranks = n
    made = []
    assert runs.run_all(rs, str(tmp_path / "out"), str(bindir), 3, made=made) == []
    assert sorted(r.name for r in made) == ["r0", "r1", "r2", "r3", "r4"]
    # Again: every run is complete, none is made.
    again = []
    assert runs.run_all(rs, str(tmp_path / "out"), str(bindir), 3, made=again) == []
    assert again == []
    events = []
    for line in (bindir / "calls").read_text().splitlines():
        kind, t, n = line.split()
        start = kind == "start"
        events.append((float(t), 1 if start else 0, int(n) if start else -int(n)))
    events.sort()  # at equal times an end before a start
    level, peak = 0, 0
    for _, _, d in events:
        level += d
        peak = max(peak, level)
    assert sorted(n for _, k, n in events if k == 1) == [1, 1, 1, 2, 2]
    assert 2 <= peak <= 3
    with pytest.raises(ValueError):
        runs.run_all(rs, str(tmp_path / "out2"), str(bindir), 1)


def test_rank_count_is_recorded_but_not_identity(tmp_path):
    """params.json says how many ranks ran the run (launch), and is_done
    ignores it: a run done over 2 ranks is done for 1 and for 4; a
    params.json written before launch existed still counts."""
    bindir = fake_bin(tmp_path, "rdma-sim")
    out = str(tmp_path / "out")
    r = runs.Run("e", "r", "rdma-sim", ["--x=1"])
    r.ranks = 2
    binary = str(bindir / "rdma-sim")
    orig = runs.launcher
    try:
        runs.launcher = lambda n, slurm=False: ["env", "RANKS=%d" % n]
        assert runs.execute(r, out, binary)[1:] == (True, None)
    finally:
        runs.launcher = orig
    pfile = os.path.join(r.dir(out), "params.json")
    with open(pfile) as f:
        p = json.load(f)
    assert p["launch"]["ranks"] == 2 and p["launch"]["wall_s"] >= 0.3
    assert p["args"] == ["--x=1"]
    for n in (1, 4):
        r.ranks = n
        assert runs.is_done(r, out, binary)
    del p["launch"]
    with open(pfile, "w") as f:
        json.dump(p, f)
    assert runs.is_done(r, out, binary)
    # What the run is did change: not done.
    assert not runs.is_done(runs.Run("e", "r", "rdma-sim", ["--x=2"]), out, binary)


def test_launchers(monkeypatch):
    monkeypatch.delenv("SLURM_MPI_TYPE", raising=False)
    assert runs.launcher(1) == [] and runs.launcher(1, slurm=True) == []
    assert runs.launcher(2) == ["bash", os.path.join(runs.ROOT, "scripts", "mpirun.sh"), "-np", "2"]
    assert runs.launcher(4, slurm=True) == ["srun", "--mpi=pmix", "--ntasks=4"]
    monkeypatch.setenv("SLURM_MPI_TYPE", "pmi2")
    assert runs.launcher(4, slurm=True) == ["srun", "--mpi=pmi2", "--ntasks=4"]


@pytest.mark.parametrize("indices,spec", [
    ([0, 1, 2, 5, 7, 8], "0-2,5,7-8"), ([3], "3"), ([0, 2, 4], "0,2,4"), ([0, 1], "0-1")])
def test_array_spec(indices, spec):
    assert sweep.array_spec(indices) == spec


def test_slurm_submits_one_array_per_rank_count(tmp_path, monkeypatch):
    """x = [2, 3] x ranks = [1, 2] gives runs 0 x_2-ranks_1, 1 x_2-ranks_2,
    2 x_3-ranks_1, 3 x_3-ranks_2: array 0,2 of one task each and array 1,3
    of 2 tasks each (--ntasks=2), the same script (task i runs run i)."""
    bindir = fake_bin(tmp_path, "rdma-sim")
    grid = write_grid(tmp_path, '[grid]\nx = [2, 3]\nranks = [1, 2]\n')
    calls = []

    class Done:
        returncode, stdout, stderr = 0, "", ""

    def fake_run(cmd, **kw):
        calls.append(cmd)
        d = Done()
        d.stdout = "%d\n" % (100 + len(calls))
        return d

    monkeypatch.setattr(sweep.subprocess, "run", fake_run)
    assert sweep.main(["run", grid, "--bin", str(bindir), "--slurm", "--no-wait"]) == 0
    # The program's --help (the grid's options checked) runs first, then the
    # submissions.
    assert calls.pop(0) == [str(bindir / "rdma-sim"), "--help"]
    assert [c[0] for c in calls] == ["sbatch", "sbatch"]
    assert "--array=0,2" in calls[0] and not any(a.startswith("--ntasks") for a in calls[0])
    assert "--array=1,3" in calls[1] and "--ntasks=2" in calls[1]
    assert calls[0][-1] == calls[1][-1]
    script = open(calls[0][-1]).read()
    assert "--ranks" not in script
    # --ranks on the command line reaches the tasks, which expand the grid
    # again; one array of 2-task tasks.
    calls.clear()
    grid = write_grid(tmp_path, '[grid]\nx = [2, 3]\n')
    assert sweep.main(["run", grid, "--bin", str(bindir), "--slurm", "--no-wait",
                       "--ranks", "2"]) == 0
    assert calls.pop(0)[1:] == ["--help"]
    assert len(calls) == 1 and "--array=0-1" in calls[0] and "--ntasks=2" in calls[0]
    assert open(calls[0][-1]).read().rstrip().endswith(" --ranks 2")


# ---- one real run over 2 ranks -----------------------------------------------------

@pytest.mark.skipif(not shutil.which("mpirun") or
                    not os.path.exists(os.path.join(BIN, "..", "lib", "libns3-libcc-mpi.so.0")),
                    reason="no mpirun or no libns3-libcc-mpi (make deps, make)")
def test_rdma_sim_over_two_ranks_equals_one(tmp_path):
    """A ranks = [1, 2] axis on a k=4 fat tree: the 2-rank run went through
    mpirun (its rank line), and both wrote the same fct.txt byte for byte,
    as both took the Node order."""
    flows = tmp_path / "flows.txt"
    # Four flows across pods (hosts 0-3 are pod 0, 12-15 pod 3), 20 KB each.
    flows.write_text("4\n0 12 3 100 20000 0\n1 13 3 100 20000 0\n14 2 3 100 20000 0.000001\n"
                     "15 3 3 100 20000 0.000002\n")
    grid = write_grid(tmp_path, '[fixed]\nfattree = 4\nflows = "%s"\nstop = "10ms"\n'
                      '[grid]\nranks = [1, 2]\n' % flows)
    t0 = time.monotonic()
    assert sweep.main(["run", grid, "--bin", BIN, "--jobs", "2"]) == 0
    d = tmp_path / "out" / "t"
    assert "rdma-sim: 2 ranks" in (d / "ranks_2" / "stderr.txt").read_text()
    assert "ranks" not in (d / "ranks_1" / "stderr.txt").read_text()
    one = (d / "ranks_1" / "fct.txt").read_bytes()
    assert len(one.splitlines()) == 4
    assert one == (d / "ranks_2" / "fct.txt").read_bytes()
    assert time.monotonic() - t0 < 120
    summary = (d / "summary.csv").read_text().splitlines()
    assert summary[0].startswith("ranks,run,flows,completed")
    assert summary[1].split(",")[2:4] == summary[2].split(",")[2:4] == ["4", "4"]
