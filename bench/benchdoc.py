# SPDX-License-Identifier: GPL-2.0-only
"""What the bench scripts share: a program's peak RSS, and a table written
between two markers of a Markdown page."""
import statistics
import subprocess


def one_peak_rss_mb(cmd):
    """Peak RSS of one run of cmd, by GNU time (/usr/bin/time, %M: the
    kernel's peak RSS; getrusage of our own children would count the forked
    Python before the exec), in MB of 1,024 KB."""
    p = subprocess.run(["/usr/bin/time", "-f", "maxrss_kb=%M"] + cmd, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return int(p.stderr.strip().splitlines()[-1].split("=")[1]) / 1024.0


def peak_rss_mb(cmd, runs=1):
    """Peak RSS of cmd: the median of runs runs, since the page cache moves
    a small program's figure by 0.1-0.2 MB from run to run."""
    return statistics.median(one_peak_rss_mb(cmd) for _ in range(runs))


def write_block(doc, begin, end, lines):
    """Put lines (the first is begin, the last end) in place of doc's block
    between begin and end, or at its end if it has none; print them."""
    text = open(doc).read()
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        text = head + "\n".join(lines) + rest.split(end, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + "\n".join(lines) + "\n"
    open(doc, "w").write(text)
    print("\n".join(lines))
