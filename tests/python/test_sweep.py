# SPDX-License-Identifier: GPL-2.0-only
"""analysis/sweep.py and analysis/runs.py: grid expansion, bad grids named,
resume (a done run is skipped, a changed one redone) and gathering, with a
stand-in program whose outputs are known."""
import os
import stat
import sys

import pytest

from analysis import runs, sweep

# A stand-in simulator: writes one fct line whose slowdown is the --x
# option (fct = 1000 x, standalone 1000) and counts its invocations; its
# --help lists no option in our programs' form, so the sweep checks none.
FAKE = """#!/bin/sh
[ "$1" = --help ] && { echo "usage: fake [anything]"; exit 0; }
out=""; x=1
for a in "$@"; do
  case "$a" in --out=*) out="${a#--out=}";; --x=*) x="${a#--x=}";; esac
done
echo run >> "$(dirname "$0")/calls"
echo "0b000001 0b000101 10000 100 5000 0 $((x * 1000)) 1000" > "$out/fct.txt"
echo "flows=1 completed=1"
"""


@pytest.fixture
def env(tmp_path):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    prog = bindir / "fake"
    prog.write_text(FAKE)
    prog.chmod(prog.stat().st_mode | stat.S_IEXEC)
    grid = tmp_path / "g.toml"
    grid.write_text('[sweep]\nname = "t"\nprogram = "fake"\nout = "%s"\n'
                    '[fixed]\nmode = "a"\n[grid]\nx = [2, 3]\n"cc.eta" = [0.9]\n'
                    '[cc]\n' % (tmp_path / "out"))
    return tmp_path, bindir, grid


def calls(bindir):
    p = bindir / "calls"
    return len(p.read_text().splitlines()) if p.exists() else 0


def test_runs_whose_flows_never_end_gather_without_bins(env):
    """The dumbbell's flows are long-lived: its fct.txt stays empty. Gather
    tabulates its facts and writes no bins (it raised on the empty bins)."""
    tmp, bindir, grid = env
    (bindir / "fake").write_text(FAKE.replace('> "$out/fct.txt"', '> /dev/null; : > "$out/fct.txt"'))
    assert sweep.main(["run", str(grid), "--bin", str(bindir), "--jobs", "1"]) == 0
    import pandas as pd
    t = pd.read_csv(tmp / "out" / "t" / "summary.csv")
    assert list(t.flows) == [1, 1] and "slowdown_avg" not in t
    assert not (tmp / "out" / "t" / "bins.csv").exists()


def test_grid_expands_to_one_run_per_combination(env):
    tmp, bindir, grid = env
    g = sweep.load_grid(str(grid))
    r = sweep.make_runs(g)
    # x in {2, 3} x cc.eta in {0.9}: two runs; fixed options first, the
    # grid's ordinary axes next, cc.X axes folded into one --cc.
    assert [x.name for x in r] == ["x_2-eta_0.9", "x_3-eta_0.9"]
    assert r[0].args == ["--mode=a", "--x=2", "--cc=eta=0.9"]


def test_run_resume_and_gather(env):
    tmp, bindir, grid = env
    assert sweep.main(["run", str(grid), "--bin", str(bindir), "--jobs", "1"]) == 0
    assert calls(bindir) == 2
    # Nothing changed: both runs are skipped.
    assert sweep.main(["run", str(grid), "--bin", str(bindir)]) == 0
    assert calls(bindir) == 2
    # The binary changed: both are redone.
    (bindir / "fake").write_text(FAKE + "# changed\n")
    assert sweep.main(["run", str(grid), "--bin", str(bindir)]) == 0
    assert calls(bindir) == 4
    text = (tmp / "out" / "t" / "summary.csv").read_text().splitlines()
    # One flow each, slowdown = x: 2 and 3 in every statistic.
    assert text[0] == ("x,cc.eta,run,flows,completed,slowdown_avg,slowdown_p50,slowdown_p95,"
                       "slowdown_p99")
    assert text[1] == "2,0.9000,x_2-eta_0.9,1,1,2.0000,2.0000,2.0000,2.0000"
    assert text[2] == "3,0.9000,x_3-eta_0.9,1,1,3.0000,3.0000,3.0000,3.0000"


def test_an_interrupted_run_is_redone(env):
    tmp, bindir, grid = env
    g = sweep.load_grid(str(grid))
    r = sweep.make_runs(g)[0]
    out = str(tmp / "out")
    os.makedirs(r.dir(out))
    (tmp / "out" / "t" / r.name / "fct.txt").write_text("partial\n")  # no params.json
    assert not runs.is_done(r, out, str(bindir / "fake"))
    _, ran, err = runs.execute(r, out, str(bindir / "fake"))
    assert (ran, err) == (True, None)
    assert runs.is_done(r, out, str(bindir / "fake"))


@pytest.mark.parametrize("text,message", [
    ('[sweep]\nname = "t"\n', "[sweep] program: a non-empty string is required"),
    ('[sweep]\nname = "t"\nprogram = "fake"\n[grid]\nx = []\n',
     '[grid] x: a non-empty list (or "registered") is required'),
    ('[sweep]\nname = "t"\nprogram = "fake"\n[grids]\n', "unknown table [grids]"),
    ('[sweep]\nname = "t"\nprogram = "fake"\n[flows]\ncdf = "websearch.cdf"\nhosts = 4\n'
     'bandwidth = 1e11\ntime = 0.01\n', "[flows] load (or a grid axis load) is required"),
    ('[sweep\n', "g.toml"),
])
def test_bad_grids_are_named(tmp_path, capsys, text, message):
    grid = tmp_path / "g.toml"
    grid.write_text(text)
    assert sweep.main(["list", str(grid)]) == 2
    assert message in capsys.readouterr().err


def test_a_rebuilt_library_makes_a_run_not_done(tmp_path):
    """A run's fingerprint covers the shared libraries its binary loads from
    the tree: the same binary over a changed library is a different run."""
    import shutil
    import subprocess
    if not shutil.which("gcc"):
        pytest.skip("gcc is not installed")
    (tmp_path / "lib").mkdir()
    (tmp_path / "bin").mkdir()
    lib_c = tmp_path / "l.c"
    main_c = tmp_path / "m.c"
    main_c.write_text("int f(void);\nint main(void) { return f(); }\n")

    def build_lib(value):
        lib_c.write_text("int f(void) { return %d; }\n" % value)
        subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(tmp_path / "lib" / "libx.so"),
                        str(lib_c)], check=True)

    build_lib(0)
    prog = tmp_path / "bin" / "prog"
    subprocess.run(["gcc", "-o", str(prog), str(main_c), "-L" + str(tmp_path / "lib"), "-lx",
                    "-Wl,-rpath," + str(tmp_path / "lib")], check=True)
    assert runs.own_libraries(str(prog)) == [str(tmp_path / "lib" / "libx.so")]
    out = tmp_path / "out"
    r = runs.Run("e", "r", "prog", [])
    os.makedirs(r.dir(str(out)))
    with open(os.path.join(r.dir(str(out)), "params.json"), "w") as f:
        import json
        json.dump(runs.params_of(r, str(out), str(prog)), f)
    assert runs.is_done(r, str(out), str(prog))
    build_lib(1)
    assert not runs.is_done(r, str(out), str(prog))


# A stand-in that lists its options as our programs' --help does.
LISTED = """#!/bin/sh
if [ "$1" = --help ]; then
  printf 'Options:\\n  --stop=<a time>\\n      when\\n  --x=<a number>\\n      x\\n'
  exit 0
fi
""" + FAKE.split("\n", 2)[2]


def test_an_option_the_program_lacks_is_refused_before_any_run(env, capsys):
    tmp, bindir, grid = env
    (bindir / "fake").write_text(LISTED)
    grid.write_text('[sweep]\nname = "t"\nprogram = "fake"\nout = "%s"\n'
                    '[fixed]\nstpo = "1s"\n[grid]\nx = [2, 3]\n' % (tmp / "out"))
    assert sweep.main(["run", str(grid), "--bin", str(bindir)]) == 2
    err = capsys.readouterr().err
    assert "[fixed] stpo: fake has no option --stpo (did you mean stop?)" in err
    assert calls(bindir) == 0
    # Spelt right, both runs go.
    grid.write_text(grid.read_text().replace("stpo", "stop"))
    assert sweep.main(["run", str(grid), "--bin", str(bindir)]) == 0
    assert calls(bindir) == 2


def test_gather_leaves_out_runs_of_other_parameters(env, capsys):
    tmp, bindir, grid = env
    assert sweep.main(["run", str(grid), "--bin", str(bindir)]) == 0
    # The grid's [fixed] mode changes: the runs on disk were made with
    # --mode=a, so gathering the new grid without running has nothing current.
    grid.write_text(grid.read_text().replace('mode = "a"', 'mode = "b"'))
    capsys.readouterr()
    assert sweep.main(["gather", str(grid), "--bin", str(bindir)]) == 0
    err = capsys.readouterr().err
    assert "2 of 2 runs left out" in err and "x_2-eta_0.9" in err
    text = (tmp / "out" / "t" / "summary.csv").read_text()
    assert text.strip() == ""  # no row
    # Running the new grid redoes both, and gather has both again.
    assert sweep.main(["run", str(grid), "--bin", str(bindir)]) == 0
    assert calls(bindir) == 4
    lines = (tmp / "out" / "t" / "summary.csv").read_text().splitlines()
    assert len(lines) == 3


def test_bin_step_sets_the_bins_and_names_small_ones(env, capsys):
    tmp, bindir, grid = env
    # 2 runs of one flow each, pooled per (x, eta): a 50% step makes 1 bin
    # of 1 flow per label (bin 0 is empty: floor(0.5 x 1) = 0).
    assert sweep.main(["run", str(grid), "--bin", str(bindir), "--bin-step", "50"]) == 0
    import pandas as pd
    b = pd.read_csv(tmp / "out" / "t" / "bins.csv")
    assert list(b.flows) == [1, 1] and list(b.bin) == [1, 1]
    assert "bins of 50% hold 1 to 1 flows" in capsys.readouterr().err
    assert sweep.main(["gather", str(grid), "--bin-step", "7"]) == 2
    assert "--bin-step 7: accepted a whole number that divides 100" in capsys.readouterr().err


def test_one_algorithm_one_colour_family():
    from analysis import fct_slowdown
    labels = ["algo=hpcc load=0.3", "algo=hpcc load=0.5", "algo=fncc load=0.3"]
    fam = {labels[0]: "hpcc", labels[1]: "hpcc", labels[2]: "fncc"}
    c = fct_slowdown.line_colors(labels, fam)
    import matplotlib
    blues, oranges = matplotlib.colormaps["Blues"], matplotlib.colormaps["Oranges"]
    # hpcc's two loads: the Blues map's two ends of [0.45, 0.95]; fncc alone: Oranges at 0.85.
    assert c[labels[0]] == blues(0.45) and c[labels[1]] == blues(0.95)
    assert c[labels[2]] == oranges(0.85)
