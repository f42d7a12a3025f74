#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Instructions per packet-hop inside Simulator::Run(), by callgrind.

    hop_cost.py [--valgrind=valgrind] [--keep=DIR] -- PROGRAM [ARG...]

Runs PROGRAM under callgrind collecting only inside
ns3::FastSimulatorImpl::Run (start-up and tear-down excluded), counts the
frames put on links as the calls to QbbNetDevice::StartFrame (one per frame
a device starts on its line: data, ACK, NACK, CNP, PAUSE), and prints

    run_instructions=<Ir inside Run()>
    link_frames=<frames>
    instructions_per_hop=<the two divided>
    peak_rss_mb=<the program's peak RSS outside valgrind, VmHWM>

The RSS comes from a plain run of PROGRAM before (valgrind's own memory
would hide it), under GNU time (/usr/bin/time, %M: the kernel's peak RSS).
"""
import os
import re
import subprocess
import sys
import tempfile

START_FRAME = re.compile(r"QbbNetDevice::StartFrame\(")


def callgrind(valgrind, prog, keep):
    out = os.path.join(keep, "callgrind.out")
    subprocess.run([valgrind, "--tool=callgrind", "--callgrind-out-file=" + out,
                    "--toggle-collect=ns3::FastSimulatorImpl::Run*"] + prog,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    total = None
    frames = 0
    names = {}
    target = False
    with open(out) as f:
        for line in f:
            if line.startswith("summary:") or line.startswith("totals:"):
                total = int(line.split()[1])
            elif line.startswith("cfn="):
                # cfn=(id) name, or cfn=(id) when the name was given before
                m = re.match(r"cfn=\((\d+)\)(?: (.*))?", line.strip())
                if m.group(2):
                    names[m.group(1)] = m.group(2)
                target = bool(START_FRAME.search(names.get(m.group(1), "")))
            elif line.startswith("fn="):
                m = re.match(r"fn=\((\d+)\)(?: (.*))?", line.strip())
                if m and m.group(2):
                    names[m.group(1)] = m.group(2)
            elif line.startswith("calls=") and target:
                frames += int(line.split("=")[1].split()[0])
                target = False
    return total, frames


def main():
    args = sys.argv[1:]
    valgrind = "valgrind"
    keep = None
    while args and args[0] != "--":
        a = args.pop(0)
        if a.startswith("--valgrind="):
            valgrind = a.split("=", 1)[1]
        elif a.startswith("--keep="):
            keep = a.split("=", 1)[1]
        else:
            sys.exit(__doc__)
    if not args or args[0] != "--" or len(args) < 2:
        sys.exit(__doc__)
    prog = args[1:]
    # The plain run under GNU time: getrusage of our own children would count
    # the forked Python before the exec.
    p = subprocess.run(["/usr/bin/time", "-f", "maxrss_kb=%M"] + prog, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    rss_kb = int(p.stderr.strip().splitlines()[-1].split("=")[1])
    with tempfile.TemporaryDirectory() as tmp:
        total, frames = callgrind(valgrind, prog, keep or tmp)
    print("run_instructions=%d" % total)
    print("link_frames=%d" % frames)
    print("instructions_per_hop=%.0f" % (total / frames if frames else 0))
    print("peak_rss_mb=%.1f" % (rss_kb / 1024.0))


if __name__ == "__main__":
    main()
