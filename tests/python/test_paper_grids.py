# SPDX-License-Identifier: GPL-2.0-only
"""The sweep format's argument templates ([sweep] args, docs/sweeps.md), the
paper's experiments written in it (examples/paper/experiments/), and the
registry as libcc-replay --list --json gives it (analysis/libcc_info.py).
Expected runs are written out by hand from the paper's figures."""
import os
import subprocess

import pytest

from analysis import libcc_info, sweep

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
EXP = os.path.join(ROOT, "examples", "paper", "experiments")
BIN = os.environ.get("LIBCC_BIN", os.path.join(ROOT, "build", "bin"))
TWELVE = ["none", "dcqcn", "hpcc", "hpcc++", "fncc", "dctcp", "timely", "swift", "powertcp",
          "theta-powertcp", "hpcc-pint", "rocc"]


def grid(tmp_path, text, full=False):
    p = tmp_path / "g.toml"
    p.write_text(text)
    return sweep.load_grid(str(p), full)


TEMPLATE = """
[sweep]
name = "t"
program = "prog"
run_name = "{rate}g-{algo}{_suffix}"
args = ["--algo={_algo}", "--rate={rate}", "{_extra}", "--fixed=1"]
[labels]
_suffix = ""
_extra = ""
[grid]
rate = [100, 200]
variant = [{algo = "a", _algo = "a"}, {algo = "b-off", _algo = "b", _extra = "--off=1"}]
[[point]]
rate = 100
algo = "a"
_algo = "a"
_suffix = "-long"
_extra = "--stop=10ms"
[cc]
a = "preset=paper"
[full.grid]
rate = [400]
"""


def test_templates_give_the_arguments_in_their_order(tmp_path):
    r = sweep.make_runs(grid(tmp_path, TEMPLATE))
    # 2 rates x 2 variants, the first axis outermost, then the [[point]].
    assert [x.name for x in r] == ["100g-a", "100g-b-off", "200g-a", "200g-b-off", "100g-a-long"]
    # An argument that fills to "" is left out; [cc] of the algo comes last.
    assert r[0].args == ["--algo=a", "--rate=100", "--fixed=1", "--cc=preset=paper"]
    assert r[1].args == ["--algo=b", "--rate=100", "--off=1", "--fixed=1"]
    assert r[4].args == ["--algo=a", "--rate=100", "--stop=10ms", "--fixed=1", "--cc=preset=paper"]
    # Keys with "_" fill templates only; the others label the run.
    assert r[1].labels == {"rate": 100, "algo": "b-off"}


def test_full_tables_replace_their_keys(tmp_path):
    r = sweep.make_runs(grid(tmp_path, TEMPLATE, full=True))
    assert [x.name for x in r] == ["400g-a", "400g-b-off", "100g-a-long"]


def test_registered_axis_and_its_absence(tmp_path):
    g = grid(tmp_path, '[sweep]\nname = "t"\nprogram = "p"\nrun_name = "{algo}"\n'
             'args = ["--algo={algo}"]\n[grid]\nalgo = "registered"\n')
    assert [x.name for x in sweep.make_runs(g, algorithms=["x", "y"])] == ["x", "y"]
    with pytest.raises(sweep.BadGrid, match="registered"):
        sweep.make_runs(g)
    # and in a grid of [fixed] options
    g = grid(tmp_path, '[sweep]\nname = "t"\nprogram = "p"\n[grid]\nalgo = "registered"\n')
    assert [x.args for x in sweep.make_runs(g, algorithms=["x", "y"])] == [["--algo=x"],
                                                                           ["--algo=y"]]


def test_bad_templates_are_named(tmp_path):
    g = grid(tmp_path, '[sweep]\nname = "t"\nprogram = "p"\nrun_name = "{algo}"\n'
             'args = ["--rate={rat}"]\n[grid]\nalgo = ["a"]\n')
    with pytest.raises(sweep.BadGrid, match=r"\[sweep\] args = '--rate=\{rat\}'"):
        sweep.make_runs(g)
    with pytest.raises(sweep.BadGrid, match="run_name template"):
        grid(tmp_path, '[sweep]\nname = "t"\nprogram = "p"\nargs = ["--a=1"]\n')
    with pytest.raises(sweep.BadGrid, match=r"\[full.nonsense\]"):
        grid(tmp_path, '[sweep]\nname = "t"\nprogram = "p"\n[full.nonsense]\nx = 1\n', True)


def test_flow_file_template(tmp_path):
    g = grid(tmp_path, '[sweep]\nname = "t"\nprogram = "p"\nrun_name = "s{seed}"\n'
             'args = ["--flows=@{_flows}"]\n[labels]\nk = 4\n_hosts = 16\n'
             '[grid]\nseed = [1, 2]\n[flows]\nfile = "../o/flows/k{k}-s{seed}.txt"\n'
             'cdf = "websearch.cdf"\nhosts = "{_hosts}"\nload = 0.5\nbandwidth = "100e9"\n'
             'time = 0.001\nseed = "{seed}"\n')
    r = sweep.make_runs(g)
    assert r[1].inputs == ["../o/flows/k4-s2.txt"]
    assert r[1].args == ["--flows=@../o/flows/k4-s2.txt"]
    assert r[1].flow_spec == {"cdf": "websearch.cdf", "hosts": "16", "load": 0.5,
                              "bandwidth": "100e9", "time": 0.001, "seed": "2", "start": 0}
    sweep.make_flow_files(r, str(tmp_path / "out"))
    # Both runs' files, under out/o/ (the name is relative to out/t/).
    for s in (1, 2):
        lines = (tmp_path / "out" / "o" / "flows" / ("k4-s%d.txt" % s)).read_text().splitlines()
        assert int(lines[0]) == len(lines) - 1 > 0


FLOWS_GRID = ('[sweep]\nname = "t"\nprogram = "p"\nrun_name = "{w}"\nargs = ["--flows=@{_flows}"]\n'
              '[grid]\nw = [%s]\n[flows]\nfile = "%s"\ncdf = "websearch.cdf"\nhosts = 4\n'
              'load = 0.5\nbandwidth = "100e9"\ntime = "{w}"\nseed = 1\n')


def test_flow_file_remade_when_its_spec_changes(tmp_path):
    # One file name, two windows: 2 then 10 ms of arrivals from t = 0. The
    # file of the first window must not serve the second (the sweep once
    # reused it: the name was the same).
    out = str(tmp_path / "out")
    path = tmp_path / "out" / "t" / "f.txt"
    def starts(text):
        return [float(line.split()[5]) for line in text.splitlines()[1:]]

    sweep.make_flow_files(sweep.make_runs(grid(tmp_path, FLOWS_GRID % ("0.002", "f.txt"))), out)
    short = path.read_text()
    sweep.make_flow_files(sweep.make_runs(grid(tmp_path, FLOWS_GRID % ("0.01", "f.txt"))), out)
    long = path.read_text()
    assert max(starts(short)) < 0.002 < max(starts(long)) < 0.01
    # The same spec again: the file is kept (its inode and time unchanged).
    before = os.stat(path)
    sweep.make_flow_files(sweep.make_runs(grid(tmp_path, FLOWS_GRID % ("0.01", "f.txt"))), out)
    assert os.stat(path).st_mtime_ns == before.st_mtime_ns and os.stat(path).st_ino == before.st_ino
    # A file without its record (written by an older sweep) is made again.
    os.remove(str(path) + ".spec.json")
    path.write_text("0\n")
    sweep.make_flow_files(sweep.make_runs(grid(tmp_path, FLOWS_GRID % ("0.01", "f.txt"))), out)
    assert path.read_text() == long


def test_flow_file_shared_by_two_specs_is_refused(tmp_path):
    g = grid(tmp_path, FLOWS_GRID % ("0.0004, 0.002", "f.txt"))
    with pytest.raises(sweep.BadGrid, match=r"runs 0.0004 and 0.002 name one file .*f.txt"):
        sweep.make_flow_files(sweep.make_runs(g), str(tmp_path / "out"))


def paper_runs(name, full=False, algorithms=TWELVE):
    return sweep.make_runs(sweep.load_grid(os.path.join(EXP, name + ".toml"), full),
                           algorithms=algorithms)


def test_paper_dumbbell_rates():
    # Figure 9: 3 rates x the figure's 4 curves at 1 ms, RoCC 10 ms at 100 G.
    r = paper_runs("dumbbell-rates")
    assert len(r) == 13
    assert r[0].name == "100g-dcqcn" and r[0].args == ["--algo=dcqcn", "--rate=100"]
    assert r[-1].name == "100g-rocc-10ms"
    assert r[-1].args == ["--algo=rocc", "--rate=100", "--stop=10ms"]
    assert r[-1].labels == {"stop": "10ms", "rate": 100, "algo": "rocc"}


def test_paper_large_scale_scales():
    # Quick: k=4, 2 seeds; --full: the paper's k=8, 5 seeds; 2 workloads x
    # 3 algorithms each.
    quick, full = paper_runs("large-scale"), paper_runs("large-scale", True)
    assert (len(quick), len(full)) == (12, 30)
    assert full[0].args == ["--fattree=8", "--fattreeDelay=1.5us", "--algo=dcqcn",
                            "--traces=false", "--stop=1s", "--flows=@flows/websearch-k8-s1.txt",
                            "--cc=preset=paper"]
    assert full[0].flow_spec["hosts"] == "128" and full[0].flow_spec["time"] == "0.02"
    assert quick[2].args[-1] == "--ccVars=1" and quick[2].labels["algo"] == "fncc"


def test_paper_fncc_at_scale_full_is_lhcs_off_on_the_large_scale_files():
    # --full asks the paper-scale question alone: FNCC with LHCS off, 5 seeds,
    # on the very flow files of large-scale's k=8 WebSearch runs (one spec,
    # so make_flow_files accepts the sharing).
    full = paper_runs("fncc-at-scale", True)
    assert [r.name for r in full] == ["lhcs0-s%d" % s for s in range(1, 6)]
    assert full[0].inputs == ["../large-scale/flows/websearch-k8-s1.txt"]
    ls = [r for r in paper_runs("large-scale", True) if r.labels["workload"] == "websearch"]
    assert full[0].flow_spec == ls[0].flow_spec
    # all-algos-fattree has no full scale: k=4 at --full too.
    assert paper_runs("all-algos-fattree", True)[0].inputs == \
        ["../large-scale/flows/websearch-k4-s1.txt"]


def test_longest_runs_first():
    # A k=8 run offers 128 hosts x 0.5 x 100 Gbit/s x 20 ms = 1.28e11 bits,
    # a k=4 one 16 x 0.5 x 100e9 x 0.02 = 1.6e10; a run without generated
    # flows 0. make paper FULL=1 starts every k=8 run before any other, and
    # keeps the grids' order among equals.
    full = paper_runs("large-scale", True)
    assert sweep.offered_bits(full[0]) == pytest.approx(1.28e11)
    assert sweep.offered_bits(paper_runs("large-scale")[0]) == pytest.approx(1.6e10)
    r = sweep.Run("e", "n", "prog", [])
    r.flow_spec = {"hosts": "4", "load": 0.25, "bandwidth": "25G", "time": "0.001"}
    assert sweep.offered_bits(r) == pytest.approx(4 * 0.25 * 25e9 * 0.001)
    runs = (paper_runs("dumbbell-rates", True) + paper_runs("all-algos-fattree", True) + full
            + paper_runs("fncc-at-scale", True))
    order = sweep.longest_first(runs)
    k8 = [x.name for x in order[:35]]
    assert k8 == [x.name for x in full] + ["lhcs0-s%d" % i for i in range(1, 6)]
    assert order[-1].name == paper_runs("dumbbell-rates", True)[-1].name


def test_paper_all_algos_take_the_registry():
    r = paper_runs("all-algos-dumbbell")
    assert [x.name for x in r[:2]] == ["none-1ms", "none-10ms"] and len(r) == 24
    f = paper_runs("all-algos-fattree")
    # The large-scale WebSearch files, seed outermost.
    assert f[0].inputs == ["../large-scale/flows/websearch-k4-s1.txt"] and len(f) == 24


def test_every_paper_grid_loads():
    names = sorted(n[:-5] for n in os.listdir(EXP) if n.endswith(".toml"))
    for n in names:
        for full in (False, True):
            assert paper_runs(n, full), n


def tool():
    path = os.path.join(BIN, "libcc-replay")
    if not os.access(path, os.X_OK):
        if "LIBCC_BIN" in os.environ:
            pytest.fail("%s is not built" % path)
        pytest.skip("build/bin/libcc-replay is not built (make tools)")
    return path


def test_registry_from_libcc():
    tool()
    libcc_info.registry.cache_clear()
    assert libcc_info.algorithms(BIN) == TWELVE
    d = libcc_info.defaults(BIN)
    # dcqcn's g: the firmware keeps 1019/1024 of alpha, so g = 5/1024.
    assert d["dcqcn"]["g"]["default"] == 5 / 1024
    # RoCC's gain, its reference model's 0.3 units of 10 Mbit/s per 600 B of
    # queue: 3e6 / 600 = 5,000 bit/s per byte; times q_ref 120 KB, the rise
    # per update with an empty queue is 600 Mbit/s; its period T = 40 us =
    # 40,000 ns as libcc prints it.
    assert d["rocc"]["alpha"]["default"] == 0.3 * 10e6 / 600
    assert d["rocc"]["alpha"]["default"] * d["rocc"]["q_ref"]["default"] == 600e6
    assert (d["rocc"]["interval"]["default"], d["rocc"]["interval"]["default_text"]) == \
        (40000, "40us")
    assert "ack_interval" not in d["rocc"]  # the common ones are apart


def test_registry_missing_tool(tmp_path):
    libcc_info.registry.cache_clear()
    assert libcc_info.algorithms(str(tmp_path)) == []


def test_libcc_replay_json_parses():
    p = subprocess.run([tool(), "--list", "--json"], capture_output=True, text=True)
    assert p.returncode == 0
    import json
    reg = json.loads(p.stdout)
    assert [c["name"] for c in reg["common_params"]] == ["ack_interval", "max_hops",
                                                        "activity_window"]
