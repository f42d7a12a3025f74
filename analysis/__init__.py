# SPDX-License-Identifier: GPL-2.0-only
"""The analysis tools as a package: `from analysis import fct_slowdown` from
the repository's top directory (make paper, the tests). Each module that is
a command also runs as `analysis/<name>.py` (docs/sweeps.md, README)."""
