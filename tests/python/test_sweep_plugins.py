# SPDX-License-Identifier: GPL-2.0-only
"""The sweep tool and make paper pass libcc plugins through: [sweep] plugin
and --plugin put --plugin=<absolute path> first in every run's arguments,
each file once; the plugin's SHA-256 is part of a run's identity (a rebuilt
plugin runs again, a run without one keeps the params it had); an axis
"registered" takes the plugin's algorithms after libcc's; a missing file or
a plugin key elsewhere is refused in one line, exit 2."""
import os
import stat

from analysis import libcc_info, runs, sweep


def write_grid(tmp_path, body, sweep_extra=""):
    grid = tmp_path / "g.toml"
    grid.write_text('[sweep]\nname = "t"\nprogram = "dumbbell"\nout = "%s"\n%s\n%s'
                    % (tmp_path / "out", sweep_extra, body))
    return str(grid)


def plugin_file(tmp_path, name="p.so", text="v1"):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def test_grid_and_command_line_plugins_lead_every_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    a = plugin_file(tmp_path, "a.so")
    b = plugin_file(tmp_path, "b.so")
    g = sweep.load_grid(write_grid(tmp_path, '[grid]\nalgo = ["x", "y"]\n', 'plugin = "a.so"'))
    # b given twice, a again by its absolute path: each loads once, grid's first.
    plugins = sweep.grid_plugins(g, ["b.so", b, a])
    assert plugins == [a, b]
    rs = sweep.make_runs(g, plugins=plugins)
    assert [r.args for r in rs] == [["--plugin=" + a, "--plugin=" + b, "--algo=x"],
                                    ["--plugin=" + a, "--plugin=" + b, "--algo=y"]]
    assert all(r.plugins == [a, b] for r in rs)


def test_template_grids_take_plugins_too(tmp_path):
    a = plugin_file(tmp_path)
    g = sweep.load_grid(write_grid(
        tmp_path, '[grid]\nalgo = ["x"]\n',
        'run_name = "{algo}"\nargs = ["--algo={algo}", "--stop=1ms"]\nplugin = ["%s"]' % a))
    (r,) = sweep.make_runs(g, plugins=sweep.grid_plugins(g))
    assert r.args == ["--plugin=" + a, "--algo=x", "--stop=1ms"]


def test_bad_plugin_keys_are_named(tmp_path, capsys):
    grid = write_grid(tmp_path, '[grid]\nalgo = ["x"]\n', 'plugin = "%s"' % (tmp_path / "no.so"))
    assert sweep.main(["list", grid]) == 2
    assert "plugin '%s': no such file" % (tmp_path / "no.so") in capsys.readouterr().err
    grid = write_grid(tmp_path, '[fixed]\nplugin = "a.so"\n[grid]\nalgo = ["x"]\n')
    assert sweep.main(["list", grid]) == 2
    assert "plugin: accepted in [sweep]" in capsys.readouterr().err
    grid = write_grid(tmp_path, '[grid]\nalgo = ["x"]\n', "plugin = 3")
    assert sweep.main(["list", grid]) == 2
    assert "[sweep] plugin: accepted the path of a plugin" in capsys.readouterr().err
    assert sweep.main(["list", write_grid(tmp_path, '[grid]\nalgo = ["x"]\n'),
                       "--plugin", str(tmp_path / "gone.so")]) == 2
    assert "gone.so': no such file" in capsys.readouterr().err


def test_a_rebuilt_plugin_makes_a_run_not_done(tmp_path):
    prog = tmp_path / "prog"
    prog.write_text("#!/bin/sh\n")
    out = str(tmp_path / "out")
    p = plugin_file(tmp_path)
    r = runs.Run("e", "r", "prog", ["--plugin=" + p])
    r.plugins = [p]
    plain = runs.Run("e", "plain", "prog", [])
    for run in (r, plain):
        os.makedirs(run.dir(out))
        with open(os.path.join(run.dir(out), "params.json"), "w") as f:
            import json
            json.dump(runs.params_of(run, out, str(prog)), f)
        assert runs.is_done(run, out, str(prog))
    # A run without plugins records nothing about them: its params are as before.
    assert "plugins_sha256" not in runs.params_of(plain, out, str(prog))
    plugin_file(tmp_path, text="v2")
    assert not runs.is_done(r, out, str(prog))
    assert runs.is_done(plain, out, str(prog))


# A stand-in libcc-replay: --list --json lists "a, b", and "mine" after
# them when a --plugin is given; a plugin named bad.so does not load (exit 2).
REPLAY = """#!/bin/sh
extra=""
for x in "$@"; do
  case "$x" in
    --plugin=*bad.so) echo "libcc-replay: --plugin '${x#--plugin=}': no entry point" >&2; exit 2 ;;
    --plugin=*) extra=', {"name": "mine", "params": []}' ;;
  esac
done
printf '{"algorithms": [{"name": "a", "params": []}, {"name": "b", "params": []}%s], "common_params": []}\\n' "$extra"
"""


def test_registered_takes_the_plugins_algorithms(tmp_path):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    d = bindir / "libcc-replay"
    d.write_text(REPLAY)
    d.chmod(d.stat().st_mode | stat.S_IEXEC)
    p = plugin_file(tmp_path)
    libcc_info.registry.cache_clear()
    assert libcc_info.algorithms(str(bindir)) == ["a", "b"]
    assert libcc_info.algorithms(str(bindir), [p]) == ["a", "b", "mine"]
    g = sweep.load_grid(write_grid(tmp_path, '[grid]\nalgo = "registered"\n'))
    rs = sweep.make_runs(g, algorithms=["a", "b", "mine"], plugins=[p])
    assert [r.labels["algo"] for r in rs] == ["a", "b", "mine"]
    bad = plugin_file(tmp_path, "bad.so")
    try:
        libcc_info.algorithms(str(bindir), [bad])
        assert False, "a plugin that does not load was accepted"
    except RuntimeError as e:
        assert "no entry point" in str(e)
    # Without the tool a plugin's algorithms cannot be listed: an error, not [].
    try:
        libcc_info.algorithms(str(tmp_path), [p])
        assert False, "plugins listed without libcc-replay"
    except RuntimeError as e:
        assert "libcc-replay" in str(e)


def test_make_paper_plugin_loads_in_every_run_and_joins_registered(tmp_path):
    """paper.py --plugin (make paper PLUGIN=): every experiment's runs load
    it first; the all-algos grids ("registered") run its algorithm too."""
    import importlib.util
    import sys
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    sys.path.insert(0, os.path.join(root, "examples", "paper"))  # its analyses package
    spec = importlib.util.spec_from_file_location(
        "paper", os.path.join(root, "examples", "paper", "paper.py"))
    paper = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(paper)
    p = plugin_file(tmp_path)
    rs = paper.experiment_runs({"all-algos-dumbbell", "lone-flow"}, False, ["hpcc", "mine"], [p])
    assert rs and all(r.args[0] == "--plugin=" + p and r.plugins == [p] for r in rs)
    assert {r.labels["algo"] for r in rs if r.exp == "all-algos-dumbbell"} == {"hpcc", "mine"}
