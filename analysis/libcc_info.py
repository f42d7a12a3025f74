# SPDX-License-Identifier: GPL-2.0-only
"""What libcc says about its algorithms, asked of libcc itself rather than
read from --help text: the registry as `libcc-replay --list --json` prints
it (docs/replay.md), values in base units (bits/s, ns, bytes) beside the
text libcc formats them as, so no second unit parser is needed here."""
import functools
import json
import os
import subprocess

@functools.lru_cache(maxsize=None)
def registry(bindir, plugins=()):
    """libcc-replay [--plugin=P ...] --list --json of bindir as a dict
    ({"algorithms": [...], "common_params": [...]}), the plugins' (a tuple
    of paths) algorithms after libcc's own; None if the tool is missing or
    fails without plugins. Raises RuntimeError with the tool's one-line
    message when a plugin does not load, or when plugins are given and the
    tool is missing (their algorithms would silently go unlisted)."""
    cmd = [os.path.join(bindir, "libcc-replay")] + ["--plugin=" + x for x in plugins] + \
        ["--list", "--json"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        if plugins:
            raise RuntimeError("%s: %s (needed to list the plugins' algorithms)" % (cmd[0], e))
        return None
    if p.returncode != 0:
        if plugins:
            raise RuntimeError((p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1])
        return None
    return json.loads(p.stdout)


def algorithms(bindir, plugins=()):
    """The names libcc registers, in its order, then those of the plugins
    (paths, loaded with --plugin); [] if unknown."""
    reg = registry(bindir, tuple(plugins))
    return [a["name"] for a in reg["algorithms"]] if reg else []


def defaults(bindir, plugins=()):
    """{algo: {parameter: its row of the listing}} for each algorithm's own
    parameters (the common ones left out), plugins' included, in table
    order: "default" in the base unit (bits/s, ns, bytes), "default_text"
    as libcc formats it."""
    reg = registry(bindir, tuple(plugins)) or {"algorithms": []}
    return {a["name"]: {p["name"]: p for p in a["params"]} for a in reg["algorithms"]}
