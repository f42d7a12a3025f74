# SPDX-License-Identifier: GPL-2.0-only
"""Running simulations as experiments: one run = one invocation of an
example binary into its own directory. A run is done when its directory
holds a params.json equal to what the run would write (the SHA-256 of the
binary and of every input file, and the arguments); it is written only
after the binary exited successfully, so an interrupted run is redone and an
unchanged one is skipped. A run may be one simulation over MPI ranks
(Run.ranks > 1; only the programs of RANKED_PROGRAMS): the rank count is how
it runs, not what it is (its outputs do not depend on it), so params.json
records it under "launch" and is_done leaves it out. Shared by the sweep
tool (sweep.py) and make paper (examples/paper/paper.py)."""
import concurrent.futures
import hashlib
import json
import os
import re
import subprocess
import sys
import time

# Exit statuses that still make a complete run: 3 is a PFC deadlock (the run
# reports it). rdma-sim exits 0 when --stop leaves flows unfinished (the
# normal end of an open-loop flow file; its stdout counts them as
# unfinished=N); its 1 is then only --unfinishedIsError's, which asked for a
# failure, or an I/O failure.
OK_STATUS = {"rdma-sim": (0, 3)}
DEFAULT_OK = (0, 3)
# Programs that run one simulation over MPI ranks under mpirun or srun
# (docs/sweeps.md), their outputs byte for byte those of one process in the
# Node event order: that option's value over ranks.
RANKED_PROGRAMS = ("rdma-sim", "dumbbell", "fairness")
EVENT_ORDER, EVENT_ORDER_RANKS = "ns3::FastSimulatorImpl::EventOrder", "Node"
# The MPI plugin srun uses inside a Slurm allocation unless SLURM_MPI_TYPE
# names another: Debian 12's OpenMPI 4.1 takes PMIx; pmi2 fails in MPI_Init
# and none starts N separate one-process runs (docs/sweeps.md).
SRUN_MPI = "pmix"
# Libraries under these come from Debian packages, not from this tree's build.
SYSTEM_LIB_DIRS = ("/lib", "/usr/lib", "/lib64", "/usr/lib64")


class Run:
    """exp/name: where it lives (out/exp/name); program: a binary name under
    the bin directory; args: its options (an argument "--x=@file" names
    out/exp/file); inputs: files under out/exp that are part of what the run
    is; labels: what the analysis groups by. ranks (an attribute, default
    1): MPI ranks the run is launched over, not part of what it is.
    plugins (an attribute): absolute paths of the libcc plugins its
    arguments load (--plugin=...), part of what it is."""

    ranks = 1
    plugins = ()

    def __init__(self, exp, name, program, args, inputs=(), **labels):
        self.exp, self.name, self.program, self.args = exp, name, program, list(args)
        self.inputs = list(inputs)
        self.labels = labels

    def dir(self, out):
        return os.path.join(out, self.exp, self.name)


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def find_cdf(name):
    """A flow-size CDF by name: the repository's examples/data (websearch.cdf,
    fb_hadoop.cdf: the HPCC simulator's traffic_gen distributions, its
    README says), then ../shared/data beside the repository, then as a path;
    None if none of them has it."""
    for d in (os.path.join(ROOT, "examples", "data"), os.path.join(ROOT, "..", "shared", "data")):
        if os.path.exists(os.path.join(d, name)):
            return os.path.join(d, name)
    return name if os.path.exists(name) else None


def gen_flow_file(path, cdf, hosts, load, bandwidth, time_s, seed, start=0):
    """A flow file from examples/gen_flows.py (deterministic for a seed),
    written whole or not at all."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w") as f:
        subprocess.run([sys.executable, os.path.join(ROOT, "examples", "gen_flows.py"),
                        "--cdf", cdf, "--hosts", str(hosts), "--load", str(load), "--bandwidth",
                        str(bandwidth), "--time", str(time_s), "--start", str(start), "--seed",
                        str(seed)], stdout=f, check=True)
    os.replace(path + ".tmp", path)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def read_summary(path):
    """key=value lines (summary.txt), or the key=value words of one line."""
    with open(path) as f:
        return dict(w.split("=", 1) for w in f.read().split() if "=" in w)


def own_libraries(binary):
    """The shared libraries the binary loads from outside the system's
    directories (libns3-libcc.so, libcc.so), as ldd resolves them: a rebuilt
    library changes a run as much as a rebuilt binary does."""
    try:
        p = subprocess.run(["ldd", binary], capture_output=True, text=True)
    except OSError:
        return []
    libs = []
    for line in p.stdout.splitlines():
        m = re.search(r"=>\s*(/\S+)", line)
        if m and not m.group(1).startswith(SYSTEM_LIB_DIRS):
            libs.append(m.group(1))
    return sorted(libs)


def input_hashes(run, out):
    """{input file: its SHA-256}, the inputs a run's identity covers."""
    exp_dir = os.path.join(out, run.exp)
    return {i: sha256(os.path.join(exp_dir, i)) for i in run.inputs}


def params_of(run, out, binary):
    params = {"program": run.program, "binary_sha256": sha256(binary),
              "libraries_sha256": {os.path.basename(p): sha256(p) for p in own_libraries(binary)},
              "args": run.args,
              "inputs": input_hashes(run, out)}
    if run.plugins:  # a rebuilt plugin changes the run; a run without one keeps its params
        params["plugins_sha256"] = {p: sha256(p) for p in run.plugins}
    return params


def is_done(run, out, binary):
    """params.json equals what the run would write, its "launch" entry (how
    many ranks, how long) aside: a run done over 4 ranks is done for 1."""
    pfile = os.path.join(run.dir(out), "params.json")
    try:
        with open(pfile) as f:
            done = json.load(f)
        done.pop("launch", None)
        return done == params_of(run, out, binary)
    except (OSError, ValueError, AttributeError):  # absent, or another process's run not done
        return False


def recorded_as(run, out):
    """Whether the run's params.json records this run's arguments and the
    current inputs (the binary aside: gather tabulates what a grid point's
    parameters gave, whichever build ran it). False when not done."""
    try:
        with open(os.path.join(run.dir(out), "params.json")) as f:
            done = json.load(f)
        return done.get("args") == run.args and done.get("inputs") == input_hashes(run, out)
    except (OSError, ValueError, AttributeError):
        return False


def launcher(ranks, slurm=False):
    """The command that starts a program over this many MPI ranks: nothing
    for one; inside a Slurm allocation (a sweep task) srun, which starts the
    allocation's tasks; else scripts/mpirun.sh (mpirun -np)."""
    if ranks <= 1:
        return []
    if slurm:
        mpi = os.environ.get("SLURM_MPI_TYPE", SRUN_MPI)
        return ["srun", "--mpi=" + mpi, "--ntasks=%d" % ranks]
    return ["bash", os.path.join(ROOT, "scripts", "mpirun.sh"), "-np", str(ranks)]


def execute(run, out, binary, slurm=False):
    """Run it unless done (over run.ranks ranks, srun's inside a Slurm
    allocation when slurm). Returns (run, ran, error message or None)."""
    if is_done(run, out, binary):
        return run, False, None
    d = run.dir(out)
    pfile = os.path.join(d, "params.json")
    if os.path.exists(pfile):
        os.remove(pfile)
    os.makedirs(d, exist_ok=True)
    exp_dir = os.path.join(out, run.exp)
    args = [a.replace("=@", "=" + exp_dir + "/", 1) if "=@" in a else a for a in run.args]
    t0 = time.monotonic()
    p = subprocess.run(launcher(run.ranks, slurm) + [binary] + args + ["--out=" + d],
                       capture_output=True, text=True)
    wall = time.monotonic() - t0
    if p.returncode not in OK_STATUS.get(run.program, DEFAULT_OK):
        last = (p.stderr.strip().splitlines() or [""])[-1]
        return run, True, "%s %s: exit %d: %s" % (run.program, " ".join(args), p.returncode, last)
    for name, text in (("stdout.txt", p.stdout), ("stderr.txt", p.stderr)):
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
    # Written whole or not at all: a poller (sweep.py --slurm) may read it
    # while a task writes it.
    params = params_of(run, out, binary)
    params["launch"] = {"ranks": run.ranks, "wall_s": round(wall, 3)}
    with open(pfile + ".tmp", "w") as f:
        json.dump(params, f, indent=1)
    os.replace(pfile + ".tmp", pfile)
    return run, True, None


def run_all(runs, out, bindir, jobs, tag="runs", made=None):
    """Every run, in order, with progress (done/total, ETA) on stderr, as
    many at once as fit in a budget of jobs processes: a run over N ranks
    takes N of it (each rank is a process on a core). Returns the error
    messages of the runs that failed; the runs it ran (not found complete)
    are appended to made, if given."""
    for r in runs:
        if r.ranks > jobs:
            raise ValueError("%s/%s: %d ranks exceed the budget of %d" % (r.exp, r.name, r.ranks,
                                                                          jobs))
    errors, t0, n = [], time.monotonic(), len(runs)
    tty = sys.stderr.isatty()
    todo, busy, used, k = list(runs), {}, 0, 0
    with concurrent.futures.ProcessPoolExecutor(max_workers=jobs) as pool:
        while todo or busy:
            while todo and used + todo[0].ranks <= jobs:
                r = todo.pop(0)
                busy[pool.submit(execute, r, out, os.path.join(bindir, r.program))] = r.ranks
                used += r.ranks
            finished, _ = concurrent.futures.wait(
                busy, return_when=concurrent.futures.FIRST_COMPLETED)
            for fut in finished:
                used -= busy.pop(fut)
                k += 1
                run, ran, err = fut.result()
                if ran and made is not None:
                    made.append(run)
                if err:
                    errors.append(err)
                el = time.monotonic() - t0
                sys.stderr.write("%s: %d/%d runs (%s/%s %s) elapsed %.0f s, ETA %.0f s   %s" % (
                    tag, k, n, run.exp, run.name, "ran" if ran else "unchanged", el,
                    el / k * (n - k), "\r" if tty else "\n"))
    if tty and n:
        sys.stderr.write("\n")
    return errors
