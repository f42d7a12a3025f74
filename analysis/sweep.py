#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run a grid of simulations, on this machine or on a Slurm cluster, and
gather their results into one table.

    sweep.py run GRID.toml [--jobs N] [--bin build/bin] [--ranks N] [--plugin PATH.so ...]
    sweep.py run GRID.toml --slurm [--partition P] [--account A] [--time-limit T]
                           [--no-wait] [--sbatch-arg ARG ...]
    sweep.py gather GRID.toml
    sweep.py list GRID.toml

The grid file (TOML, docs/sweeps.md):

    [sweep]
    name = "websearch-quick"        # runs go to <out>/<name>/<run>/
    program = "rdma-sim"            # a binary of --bin (build/bin)
    out = "out/sweeps"
    bin_step = 5                    # slowdown bins: percent of the flows each (--bin-step)
    plugin = "aimd-ecn.so"          # libcc plugins every run loads (a path or a list; --plugin)
    [fixed]                         # every run: --name=value
    fattree = 4
    stop = "1s"
    ranks = 1                       # the tool's: MPI ranks per run (--ranks)
    [grid]                          # one run per combination
    algo = ["hpcc", "fncc"]
    seed = [1, 2]
    "cc.eta" = [0.9, 0.95]          # "cc.X" axes go into --cc as X=value
    [cc]                            # per-algorithm --cc text, before cc.X axes
    dcqcn = "preset=paper"
    [flows]                         # optional: one flow file per (load, seed)
    cdf = "websearch.cdf"           # examples/data/, ../shared/data/ or a path
    hosts = 16
    bandwidth = 100e9
    time = 0.02                     # seconds of arrivals
    load = 0.5                      # unless "load" is a grid axis

A grid may instead spell its command lines: [sweep] args (templates such as
"--rate={rate}" over the point), run_name, [labels], axis values that are
tables, [[point]] runs, [full.X] tables for --full, an axis "registered"
(libcc's algorithms, libcc-replay --list); make paper's grids are written
so (examples/paper/experiments/, docs/sweeps.md).

Plugins ([sweep] plugin, --plugin, repeatable) are passed to every run as
--plugin=<absolute path>, their SHA-256 is part of each run's identity (a
rebuilt plugin runs again), and an axis "registered" takes their algorithms
too.

"seed" and "load" are flow-generation axes when [flows] is given (they pick
the flow file) and ordinary options otherwise. "ranks" (in [fixed], as a
[grid] axis, or --ranks N, which overrides [fixed]) is never an option: it
runs each point as one simulation over N MPI ranks (rdma-sim, dumbbell, fairness), locally
through scripts/mpirun.sh, each run taking N of the --jobs budget, and on
Slurm as tasks of N ranks (sbatch --ntasks=N, srun --mpi=pmix). Given ranks,
rdma-sim runs take the Node event order (1 rank too), so their outputs do
not depend on N, and N is not part of a run's identity. A run already done
with the same binary, inputs and arguments is skipped (analysis/runs.py), so
a sweep resumes after an interruption. Before anything runs, every option
the grid names must be one the program lists in its --help (a typo in
[fixed] would otherwise fail every run). `gather` tabulates only the runs
whose recorded arguments and inputs are the grid's (a run not done, failed,
or done with other parameters is left out and named), and writes
<out>/<name>/summary.csv (one row per run: its axes, exit facts, flows,
completed, FCT slowdown average, median, p95, p99) and, when runs wrote
fct.txt, bins.csv and bins.png (FCT slowdown per size bin for each
combination of axes other than seed, seeds pooled, bin_step percent of the
flows per bin, each bin's flow count in its "flows" column;
analysis/fct_slowdown.py; the lines of one algorithm share a colour family).
Exit status: 0; 1 if a run or the cluster failed,
or a file cannot be written; 2 for a bad grid file or option.
"""
import argparse
import difflib
import importlib.util
import itertools
import json
import os
import re
import subprocess
import sys
import time

import numpy as np
import pandas as pd

if __package__ in (None, ""):  # run as analysis/sweep.py: the package is the folder above
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from analysis import fct_slowdown, libcc_info  # noqa: E402
from analysis.runs import (EVENT_ORDER, EVENT_ORDER_RANKS, RANKED_PROGRAMS, ROOT, Run,  # noqa: E402
                  execute, find_cdf, gen_flow_file, is_done, read_summary, recorded_as, run_all)

try:
    import tomllib
except ImportError:  # Python < 3.11
    sys.exit("sweep: needs Python 3.11 (tomllib)")


class BadGrid(Exception):
    pass


def load_grid(path, full=False):
    """The grid file as a dict, checked; full: with its [full] tables merged
    over the others (--full)."""
    try:
        with open(path, "rb") as f:
            g = tomllib.load(f)
    except OSError as e:
        raise OSError("%s: %s" % (path, e.strerror))
    except tomllib.TOMLDecodeError as e:
        raise BadGrid("%s: %s" % (path, e))
    known = {"sweep", "fixed", "grid", "cc", "flows", "labels", "point", "full"}
    for k in g:
        if k not in known:
            raise BadGrid("%s: unknown table [%s]; accepted %s" % (path, k, ", ".join(sorted(known))))
    over = g.pop("full", {})
    if full:
        for table, values in over.items():
            if table not in known - {"full", "point"} or not isinstance(values, dict):
                raise BadGrid("%s: [full.%s]: accepted [full.X] for X in %s" % (
                    path, table, ", ".join(sorted(known - {"full", "point"}))))
            g.setdefault(table, {}).update(values)
    sw = g.get("sweep", {})
    for k in ("name", "program"):
        if not isinstance(sw.get(k), str) or not sw[k]:
            raise BadGrid("%s: [sweep] %s: a non-empty string is required" % (path, k))
    for k, v in g.get("grid", {}).items():
        if v != "registered" and (not isinstance(v, list) or not v):
            raise BadGrid("%s: [grid] %s: a non-empty list (or \"registered\") is required"
                          % (path, k))
    fl = g.get("flows")
    template = "args" in sw
    if template and (not isinstance(sw["args"], list) or not isinstance(sw.get("run_name"), str)
                     or "fixed" in g):
        raise BadGrid("%s: [sweep] args: a list of argument templates, with a run_name template "
                      "and no [fixed] table (the templates say every option)" % path)
    if fl is not None:
        for k in ("cdf", "hosts", "bandwidth", "time") + (("file",) if template else ()):
            if k not in fl:
                raise BadGrid("%s: [flows] %s is required" % (path, k))
        if "load" not in fl and "load" not in g.get("grid", {}):
            raise BadGrid("%s: [flows] load (or a grid axis load) is required" % path)
    step = sw.get("bin_step", 5)
    if isinstance(step, bool) or not isinstance(step, int) or not 1 <= step <= 100 or 100 % step:
        raise BadGrid("%s: [sweep] bin_step = %s: accepted a whole number that divides 100 "
                      "(1..100)" % (path, step))
    plug = sw.get("plugin", [])
    if isinstance(plug, str):
        plug = [plug]
    if not isinstance(plug, list) or not all(isinstance(x, str) and x for x in plug):
        raise BadGrid("%s: [sweep] plugin: accepted the path of a plugin (.so) or a list of them"
                      % path)
    if "plugin" in g.get("fixed", {}) or "plugin" in g.get("grid", {}):
        raise BadGrid("%s: plugin: accepted in [sweep] (every run loads it), not as an option "
                      "or an axis" % path)
    sw["plugin"] = plug
    fixed_ranks = g.get("fixed", {}).get("ranks")
    for where, vals in (("[fixed] ranks", [] if fixed_ranks is None else [fixed_ranks]),
                        ("[grid] ranks", g.get("grid", {}).get("ranks", []))):
        for v in vals:
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise BadGrid("%s: %s = %s: accepted a whole number, 1 or more" % (path, where, v))
    g["_path"] = path
    return g


def fmt(v):
    return ("1" if v else "0") if isinstance(v, bool) else str(v)


def cdf_path(name):
    path = find_cdf(name)
    if path is None:
        raise BadGrid("[flows] cdf = '%s': not in examples/data, ../shared/data, nor a path" % name)
    return path


def axis_values(k, v, algorithms):
    if v != "registered":
        return v
    if not algorithms:
        raise BadGrid("[grid] %s = \"registered\": no algorithm list (libcc-replay --list in "
                      "--bin)" % k)
    return list(algorithms)


def expand_axes(g, algorithms):
    """The grid's points: every combination of the [grid] axes (the first
    axis outermost), then the [[point]] tables. An axis given as the string
    "registered" takes every algorithm libcc registers (algorithms); a value
    that is a table sets several keys of the point at once."""
    axes = [[v_ if isinstance(v_, dict) else {k: v_} for v_ in axis_values(k, v, algorithms)]
            for k, v in g.get("grid", {}).items()]
    points = [{kk: vv for part in combo for kk, vv in part.items()}
              for combo in itertools.product(*axes)]
    return points + [dict(p) for p in g.get("point", [])]


def fill(template, point, where):
    try:
        return template.format(**point) if isinstance(template, str) else template
    except (KeyError, IndexError, ValueError) as e:
        raise BadGrid("%s = '%s': %s is not a key of the point" % (where, template, e))


def make_template_runs(g, algorithms):
    """[sweep] args mode: each point's command line is the args templates
    filled from the point ([labels], then its axes), an argument that fills
    to "" left out, then --cc=<the [cc] text of its algo>; run_name names
    it; [flows] file names its flow file (the point's _flows). A key that
    starts with "_" is for the templates only, the others label the run."""
    sw, flows = g["sweep"], g.get("flows")
    runs = []
    for axes in expand_axes(g, algorithms):
        point = dict(g.get("labels", {}))
        point.update(axes)
        inputs, spec = [], None
        if flows is not None:
            point["_flows"] = fill(flows["file"], point, "[flows] file")
            inputs.append(point["_flows"])
            spec = {k: fill(flows.get(k, d), point, "[flows] %s" % k) for k, d in (
                ("cdf", None), ("hosts", None), ("load", None), ("bandwidth", None),
                ("time", None), ("seed", 1), ("start", 0))}
        args = [a for a in (fill(t, point, "[sweep] args") for t in sw["args"]) if a != ""]
        if point.get("algo") in g.get("cc", {}):
            args.append("--cc=" + g["cc"][point["algo"]])
        run = Run(sw["name"], fill(sw["run_name"], point, "[sweep] run_name"), sw["program"],
                  args, inputs, **{k: v for k, v in point.items() if not k.startswith("_")})
        run.flow_spec = spec
        runs.append(run)
    return runs


def grid_plugins(g, extra=()):
    """The plugins every run loads: [sweep] plugin, then extra (--plugin),
    as absolute paths (relative ones are taken from the current directory,
    as the tool's other paths are), each once."""
    plugins = []
    for p in list(g["sweep"].get("plugin", [])) + list(extra):
        if not os.path.isfile(p):
            raise BadGrid("%s: plugin '%s': no such file (build it first: "
                          "docs/writing-an-algorithm.md)" % (g["_path"], p))
        if os.path.abspath(p) not in plugins:
            plugins.append(os.path.abspath(p))
    return plugins


def make_runs(g, ranks=None, algorithms=None, plugins=()):
    """The grid's runs, in a fixed order (the order of the file's axes);
    ranks: --ranks N (None: the file's ranks, else 1); algorithms: what an
    axis "registered" takes; plugins: absolute paths every run loads
    (--plugin=..., before its other arguments)."""
    runs = make_runs_of(g, ranks, algorithms)
    for r in runs:
        r.args = ["--plugin=" + p for p in plugins] + r.args
        r.plugins = list(plugins)
    return runs


def make_runs_of(g, ranks, algorithms):
    if "args" in g["sweep"]:
        if ranks is not None:
            raise BadGrid("--ranks %d: a grid of [sweep] args templates runs each point once, "
                          "in one process; accepted only without --ranks" % ranks)
        return make_template_runs(g, algorithms)
    sw, grid, flows = g["sweep"], g.get("grid", {}), g.get("flows")
    fixed = dict(g.get("fixed", {}))
    if ranks is not None and "ranks" in grid:
        raise BadGrid("--ranks %d: the grid file has a ranks axis ([grid] ranks); accepted only "
                      "without one" % ranks)
    where = "--ranks %d" if ranks is not None else "[fixed] ranks = %d"
    # Ranks given at all (1 included): a program that runs over ranks takes
    # their event order at every count, so the count changes no output.
    node_order = sw["program"] in RANKED_PROGRAMS and (
        ranks is not None or "ranks" in fixed or "ranks" in grid)
    ranks = ranks if ranks is not None else fixed.get("ranks", 1)
    fixed.pop("ranks", None)
    axes = [(k, axis_values(k, v, algorithms)) for k, v in grid.items()]
    runs = []
    for combo in itertools.product(*[v for _, v in axes]):
        point = dict(zip([k for k, _ in axes], combo))
        args = ["--%s=%s" % (k, fmt(v)) for k, v in fixed.items()]
        cc = []
        algo = point.get("algo", fixed.get("algo"))
        if algo is not None and algo in g.get("cc", {}):
            cc.append(g["cc"][algo])
        inputs = []
        for k, v in point.items():
            if k.startswith("cc."):
                cc.append("%s=%s" % (k[3:], fmt(v)))
            elif k == "ranks" or (flows is not None and k in ("seed", "load")):
                continue
            else:
                args.append("--%s=%s" % (k, fmt(v)))
        spec = None
        if flows is not None:
            fname = "flows/load%s-seed%s.txt" % (point.get("load", flows.get("load")),
                                                 point.get("seed", flows.get("seed", 1)))
            inputs.append(fname)
            spec = {"cdf": flows["cdf"], "hosts": flows["hosts"],
                    "load": point.get("load", flows.get("load")),
                    "bandwidth": flows["bandwidth"], "time": flows["time"],
                    "seed": point.get("seed", flows.get("seed", 1)),
                    "start": flows.get("start", 0)}
            args.append("--flows=@" + fname)
        if cc:
            args.append("--cc=" + ",".join(cc))
        name = "-".join("%s_%s" % (k.replace("cc.", ""), fmt(v)) for k, v in point.items()) or "run"
        n = point.get("ranks", ranks)
        if n > 1:
            check_ranked(sw["program"], name, "[grid] ranks = %d" % n if "ranks" in point else
                         where % n)
        if node_order:
            args = ranked_args(args, name)
        run = Run(sw["name"], name, sw["program"], args, inputs, **point)
        run.ranks, run.flow_spec = n, spec
        runs.append(run)
    return runs


def check_ranked(program, name, where):
    if program not in RANKED_PROGRAMS:
        raise BadGrid("run %s: program '%s' cannot run over ranks (%s); accepted ranks 1 (over "
                      "MPI ranks: %s)" % (name, program, where, ", ".join(RANKED_PROGRAMS)))


def ranked_args(args, name):
    """A run over ranks takes the Node event order (the launcher imposes it);
    its arguments say so, so they say what its outputs are: those of one
    process with the same arguments, which a run of the same grid point at 1
    rank is. A grid that asks for another order is refused."""
    opt = "--%s=" % EVENT_ORDER
    given = [a for a in args if a.startswith(opt)]
    if not given:
        return args + [opt + EVENT_ORDER_RANKS]
    if given[-1] != opt + EVENT_ORDER_RANKS:
        raise BadGrid("run %s: %s over ranks: accepted only %s" % (name, given[-1][2:],
                                                                   EVENT_ORDER_RANKS))
    return args


# ns-3's global values, which the programs take beside their own options.
NS3_GLOBALS = {"RngRun", "RngSeed", "SimulatorImplementationType", "SchedulerType",
               "ChecksumEnabled"}


def program_options(binary):
    """The option names a program lists in --help ("  --name=<...>"), or
    None if it lists none (not one of this tree's programs)."""
    try:
        p = subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    names = set(re.findall(r"^\s+--([A-Za-z][\w.+-]*)=<", p.stdout, re.M))
    return names or None


def check_options(g, binary):
    """Every [fixed] and [grid] key that becomes an option is one the program
    takes (ns-3's --ns3::... attributes and global values aside): a typo is
    refused before any run, not repeated as one failure per run."""
    known = program_options(binary)
    if known is None:
        return
    for t in g["sweep"].get("args", []):
        m = re.match(r"--([A-Za-z][\w.+-]*)=", t)
        if m and m.group(1) not in known and not m.group(1).startswith("ns3::"):
            close = difflib.get_close_matches(m.group(1), sorted(known), n=1)
            raise BadGrid("%s: [sweep] args '%s': %s has no option --%s%s (see %s --help)" % (
                g["_path"], t, g["sweep"]["program"], m.group(1),
                " (did you mean %s?)" % close[0] if close else "", binary))
    if "args" in g["sweep"]:
        return  # the templates name every option; the axes are labels
    flows = g.get("flows") is not None
    for table in ("fixed", "grid"):
        for k in g.get(table, {}):
            if (k == "ranks" or k.startswith("cc.") or k.startswith("ns3::") or k in NS3_GLOBALS
                    or (flows and k in ("seed", "load")) or k in known):
                continue
            close = difflib.get_close_matches(k, sorted(known), n=1)
            raise BadGrid("%s: [%s] %s: %s has no option --%s%s (see %s --help)" % (
                g["_path"], table, k, g["sweep"]["program"], k,
                " (did you mean %s?)" % close[0] if close else "", binary))


def make_flow_files(runs, out):
    """Each run's flow file (run.flow_spec, from [flows]), runs sharing one
    given it once. A file is kept only if the spec it was made from,
    recorded beside it in <file>.spec.json, is this one: the name alone
    (load and seed, say) does not tell a 20 ms window from a 50 ms one."""
    made = {}
    for r in runs:
        spec = getattr(r, "flow_spec", None)
        if spec is None:
            continue
        path = os.path.normpath(os.path.join(out, r.exp, r.inputs[0]))
        record = json.dumps(spec, sort_keys=True)
        if path in made:
            if made[path][1] != record:
                raise BadGrid("[flows] file: runs %s and %s name one file %s with different "
                              "specs; put the differing label in the file name"
                              % (made[path][0], r.name, path))
            continue
        made[path] = (r.name, record)
        try:
            with open(path + ".spec.json") as f:
                if os.path.exists(path) and f.read() == record:
                    continue
        except OSError:
            pass
        gen_flow_file(path, cdf_path(spec["cdf"]), spec["hosts"], spec["load"],
                      spec["bandwidth"], spec["time"], spec["seed"], spec["start"])
        with open(path + ".spec.json.tmp", "w") as f:
            f.write(record)
        os.replace(path + ".spec.json.tmp", path + ".spec.json")


def gen_flows():
    """examples/gen_flows.py as a module (its parsers: the flow files'
    specs are what it reads)."""
    mod = sys.modules.get("gen_flows")
    if mod is None:
        path = os.path.join(ROOT, "examples", "gen_flows.py")
        spec = importlib.util.spec_from_file_location("gen_flows", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        sys.modules["gen_flows"] = mod
    return mod


def offered_bits(run):
    """The bits a run's generated flows offer (hosts x load x bandwidth x
    time of its [flows] spec), 0 for a run without one: what its run time
    grows with, to start the long runs first."""
    spec = getattr(run, "flow_spec", None)
    if spec is None:
        return 0.0
    try:
        rate = gen_flows().bandwidth(str(spec["bandwidth"]))
        return float(spec["hosts"]) * float(spec["load"]) * rate * float(spec["time"])
    except (ValueError, argparse.ArgumentTypeError):
        return 0.0


def longest_first(runs):
    """runs with the most offered bits first (stable otherwise): with a few
    runs far longer than the rest (make paper FULL=1: 35 k=8 runs of 3 to 5
    minutes, 90 of seconds), a core that would sit idle beside the last long
    run takes short ones instead."""
    return sorted(runs, key=lambda r: -offered_bits(r))


# ---- Slurm ------------------------------------------------------------------------

def array_spec(indices):
    """sbatch --array's list for these run indices (ascending): runs of
    consecutive ones as ranges, [0, 1, 2, 5, 7, 8] -> "0-2,5,7-8"."""
    parts, i = [], 0
    while i < len(indices):
        j = i
        while j + 1 < len(indices) and indices[j + 1] == indices[j] + 1:
            j += 1
        parts.append(str(indices[i]) if i == j else "%d-%d" % (indices[i], indices[j]))
        i = j + 1
    return ",".join(parts)


def submit_slurm(g, runs, out, bindir, a):
    """One array job per rank count, one task per run, task i running run i
    (`sweep.py task`); the tasks of runs over N > 1 ranks get --ntasks=N,
    which the run's srun takes (runs.launcher)."""
    d = os.path.join(out, g["sweep"]["name"], "slurm")
    os.makedirs(d, exist_ok=True)
    script = os.path.join(d, "array.sh")
    with open(script, "w") as f:
        f.write("#!/bin/bash\n# Written by sweep.py: task i runs run i of %s.\n"
                "exec %s %s task %s --index \"$SLURM_ARRAY_TASK_ID\" --bin %s%s%s\n" % (
                    g["_path"], sys.executable, os.path.abspath(__file__),
                    os.path.abspath(g["_path"]), os.path.abspath(bindir),
                    "" if a.ranks is None else " --ranks %d" % a.ranks,
                    "".join(" --plugin %s" % os.path.abspath(p) for p in a.plugin)))
    os.chmod(script, 0o755)
    jobs = []
    for n in sorted({r.ranks for r in runs}):
        idx = [i for i, r in enumerate(runs) if r.ranks == n]
        cmd = ["sbatch", "--parsable", "--array=" + array_spec(idx),
               "--job-name=sweep-%s" % g["sweep"]["name"], "--output=%s/task-%%a.log" % d,
               "--chdir=%s" % os.getcwd()]
        if n > 1:
            cmd.append("--ntasks=%d" % n)
        if a.partition:
            cmd.append("--partition=" + a.partition)
        if a.account:
            cmd.append("--account=" + a.account)
        if a.time_limit:
            cmd.append("--time=" + a.time_limit)
        cmd += a.sbatch_arg + [script]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError("sbatch failed: %s" % p.stderr.strip())
        jobs.append(p.stdout.strip().split(";")[0])
        sys.stderr.write("sweep: submitted array job %s (%d tasks%s), logs in %s\n" % (
            jobs[-1], len(idx), "" if n == 1 else " of %d ranks" % n, d))
    if a.no_wait:
        return []
    t0 = time.monotonic()
    while True:
        q = subprocess.run(["squeue", "--noheader", "--job=" + ",".join(jobs), "--format=%T"],
                           capture_output=True, text=True)
        left = [x for x in q.stdout.split() if x]
        done = sum(is_done(r, out, os.path.join(bindir, r.program)) for r in runs)
        el = time.monotonic() - t0
        sys.stderr.write("sweep: %d/%d runs done, %d tasks queued or running, %.0f s   %s" % (
            done, len(runs), len(left), el, "\r" if sys.stderr.isatty() else "\n"))
        if not left:
            break
        time.sleep(2)
    errors = ["%s/%s: not done (see %s/task-*.log)" % (r.exp, r.name, d) for r in runs
              if not is_done(r, out, os.path.join(bindir, r.program))]
    return errors


# ---- gathering -------------------------------------------------------------------

def gather(g, runs, out, step=None):
    """The tables of the runs whose params.json records the grid's arguments
    and inputs; the others (not run, failed, or run with other parameters,
    e.g. before a [fixed] value changed) are left out and named on stderr."""
    step = step or g["sweep"].get("bin_step", 5)
    rows = []
    flows_all = {}
    matches = [recorded_as(r, out) for r in runs]  # hashes each run's inputs once
    current = [r for r, ok in zip(runs, matches) if ok]
    stale = [r.name for r, ok in zip(runs, matches) if not ok]
    if stale:
        sys.stderr.write("sweep: gather: %d of %d runs left out (not done, failed, or done with "
                         "other arguments or inputs than the grid's): %s%s\n" % (
                             len(stale), len(runs), ", ".join(stale[:8]),
                             " ..." if len(stale) > 8 else ""))
    for r in current:
        d = r.dir(out)
        row = dict(r.labels)
        row["run"] = r.name
        so = os.path.join(d, "stdout.txt")
        if os.path.exists(so):
            row.update(read_summary(so))
        if os.path.exists(os.path.join(d, "summary.txt")):
            row.update(read_summary(os.path.join(d, "summary.txt")))
        fct = os.path.join(d, "fct.txt")
        if os.path.exists(fct):
            df = fct_slowdown.read_fct(fct)
            s = np.sort(fct_slowdown.with_slowdown(df).slowdown.to_numpy())
            if len(s):  # a run whose flows never end (the dumbbell's) has no bins
                row.update({"slowdown_avg": s.mean(), "slowdown_p50": fct_slowdown.pctl(s, 0.5),
                            "slowdown_p95": fct_slowdown.pctl(s, 0.95),
                            "slowdown_p99": fct_slowdown.pctl(s, 0.99)})
                key = tuple((k, v) for k, v in r.labels.items() if k != "seed")
                flows_all.setdefault(key, []).append(df)
        rows.append(row)
    table = pd.DataFrame(rows)
    base = os.path.join(out, g["sweep"]["name"])
    os.makedirs(base, exist_ok=True)
    table.to_csv(os.path.join(base, "summary.csv"), index=False, float_format="%.4f")
    if flows_all:
        parts, family = [], {}
        for key, dfs in flows_all.items():
            t = fct_slowdown.bins(pd.concat(dfs, ignore_index=True), step=step, dport=-1)
            label = " ".join("%s=%s" % kv for kv in key) or "all"
            t.insert(0, "label", label)
            parts.append(t)
            # One colour family per algorithm (else per value of the first
            # axis): its loads or other settings are shades of it.
            keys = dict(key)
            family[label] = keys.get("algo", key[0][1] if key else "all")
        bins = pd.concat(parts, ignore_index=True)
        bins.to_csv(os.path.join(base, "bins.csv"), index=False, float_format="%.4f")
        fct_slowdown.plot(bins, os.path.join(base, "bins.png"), family=family)
        few = int(bins.flows.min())
        if few < 100:
            sys.stderr.write(
                "sweep: slowdown bins of %d%% hold %d to %d flows (bins.csv, column flows): a "
                "bin's p99 is its largest slowdown below 100 flows, its p95 below 20; pool more "
                "seeds or set [sweep] bin_step / --bin-step\n"
                % (step, few, int(bins.flows.max())))
    return table


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("command", choices=["run", "gather", "list", "task"])
    ap.add_argument("grid", help="the grid file (TOML)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count(), help="parallel local runs (>= 1)")
    ap.add_argument("--bin", default="build/bin", help="directory of the binaries")
    ap.add_argument("--bin-step", type=int, default=None,
                    help="slowdown bins: percent of the flows each, dividing 100 "
                         "(overrides [sweep] bin_step; default 5)")
    ap.add_argument("--ranks", type=int, default=None,
                    help="MPI ranks per run (>= 1; rdma-sim, dumbbell, fairness; overrides [fixed] ranks)")
    ap.add_argument("--plugin", action="append", default=[], metavar="PATH.so",
                    help="a libcc plugin every run loads (--plugin=PATH, beside [sweep] plugin; "
                         "repeatable)")
    ap.add_argument("--full", action="store_true", help="merge the grid's [full] tables")
    ap.add_argument("--slurm", action="store_true", help="submit to Slurm as a job array")
    ap.add_argument("--partition", default="", help="Slurm partition")
    ap.add_argument("--account", default="", help="Slurm account")
    ap.add_argument("--time-limit", default="", help="Slurm time limit per task (e.g. 1:00:00)")
    ap.add_argument("--sbatch-arg", action="append", default=[], help="extra sbatch argument")
    ap.add_argument("--no-wait", action="store_true", help="with --slurm: submit and return")
    ap.add_argument("--index", type=int, default=-1, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    for opt, v in (("--jobs", a.jobs), ("--ranks", a.ranks)):
        if v is not None and v < 1:
            sys.stderr.write("sweep: %s %d: accepted a whole number, 1 or more\n" % (opt, v))
            return 2
    if a.bin_step is not None and not (1 <= a.bin_step <= 100 and 100 % a.bin_step == 0):
        sys.stderr.write("sweep: --bin-step %d: accepted a whole number that divides 100 "
                         "(1..100)\n" % a.bin_step)
        return 2
    try:
        g = load_grid(a.grid, a.full)
        plugins = grid_plugins(g, a.plugin)
        wants = "registered" in g.get("grid", {}).values()  # else no need to ask libcc
        try:
            algorithms = libcc_info.algorithms(a.bin, plugins) if wants else None
        except RuntimeError as e:  # a plugin the programs refuse: bad input
            raise BadGrid(str(e))
        runs = make_runs(g, a.ranks, algorithms, plugins)
        out = g["sweep"].get("out", "out/sweeps")
        binary = os.path.join(a.bin, g["sweep"]["program"])
        if a.command in ("run", "task") and not os.access(binary, os.X_OK):
            raise BadGrid("[sweep] program = '%s': %s is not an executable (build with make)"
                          % (g["sweep"]["program"], binary))
        if a.command == "list":
            for r in runs:
                print(r.name, *(["ranks=%d" % r.ranks] if r.ranks > 1 else []), " ".join(r.args))
            return 0
        if a.command == "run" and not a.slurm:
            for r in runs:
                if r.ranks > a.jobs:
                    raise BadGrid("run %s: ranks = %d exceed --jobs %d (local runs times their "
                                  "ranks share it); accepted ranks 1..%d, or a larger --jobs"
                                  % (r.name, r.ranks, a.jobs, a.jobs))
        if a.command == "run":
            check_options(g, binary)
        if a.command == "task":
            if not 0 <= a.index < len(runs):
                raise BadGrid("--index %d: accepted 0..%d" % (a.index, len(runs) - 1))
            _, _, err = execute(runs[a.index], out, binary, slurm="SLURM_JOB_ID" in os.environ)
            if err:
                sys.stderr.write("sweep: %s\n" % err)
                return 1
            return 0
        if a.command == "run":
            make_flow_files(runs, out)
            errors = submit_slurm(g, runs, out, a.bin, a) if a.slurm else \
                run_all(runs, out, a.bin, a.jobs, tag="sweep")
            for e in errors:
                sys.stderr.write("sweep: %s\n" % e)
            if errors:
                return 1
            if a.slurm and a.no_wait:
                return 0
        gather(g, runs, out, a.bin_step)
        sys.stderr.write("sweep: %s\n" % os.path.join(out, g["sweep"]["name"], "summary.csv"))
        return 0
    except BadGrid as e:
        sys.stderr.write("sweep: %s\n" % e)
        return 2
    except (OSError, RuntimeError) as e:
        sys.stderr.write("sweep: %s\n" % e)
        return 1


if __name__ == "__main__":
    sys.exit(main())
