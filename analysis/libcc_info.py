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


def algorithms(bindir):
    """The names libcc registers, in its order; [] if unknown."""
    reg = registry(bindir)
    return [a["name"] for a in reg["algorithms"]] if reg else []


def defaults(bindir):
    """{algo: {parameter: its row of the listing}} for each algorithm's own
    parameters (the common ones left out), in table order: "default" in the
    base unit (bits/s, ns, bytes), "default_text" as libcc formats it."""
    reg = registry(bindir) or {"algorithms": []}
    return {a["name"]: {p["name"]: p for p in a["params"]} for a in reg["algorithms"]}
