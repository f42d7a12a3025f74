# SPDX-License-Identifier: GPL-2.0-only
# The tests import the analysis package from the repository's top directory,
# which `python3 -m pytest` (run.sh) puts on the path and a bare `pytest
# tests/python` does not.
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
