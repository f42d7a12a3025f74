# SPDX-License-Identifier: GPL-2.0-only
"""make paper's analyses, one module per experiment (its grid is
../experiments/<name>.toml); each analyse(runs, out) returns its section of
the results page as lines, report.py writes the page."""
