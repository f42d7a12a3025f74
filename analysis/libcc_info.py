# SPDX-License-Identifier: GPL-2.0-only
"""What libcc says about its algorithms, asked of libcc itself rather than
read from --help text: the registry as `libcc-replay --list --json` prints
it (docs/replay.md), values in base units (bits/s, ns, bytes) beside the
text libcc formats them as, so no second unit parser is needed here."""
import functools
import json
import os
import re
import subprocess

@functools.lru_cache(maxsize=None)
def registry(bindir):
    """libcc-replay --list --json of bindir as a dict ({"algorithms": [...],
    "common_params": [...]}); None if the tool is missing or fails."""
    try:
        p = subprocess.run([os.path.join(bindir, "libcc-replay"), "--list", "--json"],
                           capture_output=True, text=True)
    except OSError:
        return None
    if p.returncode != 0:
        return None
    return json.loads(p.stdout)


@functools.lru_cache(maxsize=None)
def plugin_algorithms(bindir, plugins):
    """The names the plugins (a tuple of paths) register, in libcc's order:
    what the dumbbell's --algo accepts with them loaded beyond what it
    accepts without. Raises RuntimeError with the program's message when a
    plugin does not load."""
    def accepted(extra):
        cmd = [os.path.join(bindir, "dumbbell")] + ["--plugin=" + x for x in extra] + ["--help"]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True)
        except OSError as e:
            raise RuntimeError("%s: %s" % (cmd[0], e))
        if p.returncode != 0:
            raise RuntimeError((p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1])
        m = re.search(r"^\s+--algo=<one of ([^>]*)>", p.stdout, re.M)
        return m.group(1).split(", ") if m else []
    built_in = set(accepted(()))
    return [a for a in accepted(plugins) if a not in built_in]


def algorithms(bindir, plugins=()):
    """The names libcc registers, in its order, then those of the plugins
    (paths, loaded with --plugin); [] if unknown."""
    reg = registry(bindir)
    names = [a["name"] for a in reg["algorithms"]] if reg else []
    if plugins:
        names += [a for a in plugin_algorithms(bindir, tuple(plugins)) if a not in names]
    return names


def defaults(bindir):
    """{algo: {parameter: its row of the listing}} for each algorithm's own
    parameters (the common ones left out), in table order: "default" in the
    base unit (bits/s, ns, bytes), "default_text" as libcc formats it."""
    reg = registry(bindir) or {"algorithms": []}
    return {a["name"]: {p["name"]: p for p in a["params"]} for a in reg["algorithms"]}
