#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Instructions per packet-hop inside Simulator::Run(), by callgrind.

    hop_cost.py [--valgrind=valgrind] [--keep=DIR] -- PROGRAM [ARG...]
    hop_cost.py --table BIN_DIR DOC.md     (make bench)

Runs PROGRAM under callgrind collecting only inside
ns3::FastSimulatorImpl::Run (start-up and tear-down excluded), counts the
frames put on links as the calls to QbbNetDevice::StartFrame (one per frame
a device starts on its line: data, ACK, NACK, CNP, PAUSE), and prints

    run_instructions=<Ir inside Run()>
    link_frames=<frames>
    instructions_per_hop=<the two divided>
    peak_rss_mb=<the program's peak RSS outside valgrind (GNU time), median of 9 runs>

--table runs the two scenes of docs/performance.md (the hpcc dumbbell and a
k=4 fat tree) and writes their table between '<!-- hops:begin -->' and
'<!-- hops:end -->' of DOC.md, beside the ns-3.18 HPCC simulator's figures,
then the peak RSS table of rss_scale.py (fat trees up to 1,024 hosts).

The RSS comes from plain runs of PROGRAM before (valgrind's own memory
would hide it), under GNU time (/usr/bin/time, %M: the kernel's peak RSS),
the median of 9.
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rss_scale  # noqa: E402
from benchdoc import peak_rss_mb, write_block  # noqa: E402

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


# The scenes: name, the HPCC simulator's instructions per packet-hop on it
# (issue #19), the command (after the binary directory), a flow file to
# write first (gen_flows.py arguments) or None.
HERE = os.path.dirname(os.path.abspath(__file__))
SCENES = [
    ("dumbbell (examples/dumbbell's defaults: 3 switches, 100 Gbps), hpcc, 300 us", 7600,
     ["dumbbell", "--algo=hpcc", "--stop=300us", "--traces=false", "--out={tmp}/db"], None),
    ("fat tree k=4: 16 hosts, 20 switches, 100 Gbps, hpcc, websearch at 0.6 load, 500 us",
     7370,
     ["rdma-sim", "--fattree=4", "--algo=hpcc", "--flows={tmp}/ft4.txt", "--stop=500us",
      "--out={tmp}/ft4"],
     ["-c", os.path.join(HERE, "..", "examples", "data", "websearch.cdf"), "-n", "16",
      "-l", "0.6", "-b", "100G", "-t", "0.0005", "--start", "0", "--seed", "1",
      "-o", "{tmp}/ft4.txt"]),
]
BEGIN = "<!-- hops:begin -->"
END = "<!-- hops:end -->"


def scene_program(bindir, cmd, flows, tmp):
    """A scene's command line, its {tmp} filled in, after writing its flow
    file (gen_flows.py with the arguments flows) if it has one."""
    if flows:
        subprocess.run([sys.executable, os.path.join(HERE, "..", "examples", "gen_flows.py")]
                       + [a.format(tmp=tmp) for a in flows], check=True)
    return [os.path.join(bindir, cmd[0])] + [a.format(tmp=tmp) for a in cmd[1:]]


def table(bindir, doc):
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, hpcc, cmd, flows in SCENES:
            prog = scene_program(bindir, cmd, flows, tmp)
            rss = peak_rss_mb(prog, runs=9)
            total, frames = callgrind("valgrind", prog, tmp)
            rows.append((name, frames, total, total / frames, hpcc, rss))
    lines = [BEGIN,
             "Instructions inside `Simulator::Run()` (callgrind) per frame put on a link; "
             "written by `make bench` (bench/hop_cost.py).",
             "",
             "| scene | frames on links | instructions in Run() | per packet-hop "
             "| HPCC simulator per packet-hop | peak RSS MB (median of 9 runs) |",
             "|---|---:|---:|---:|---:|---:|"]
    for name, frames, total, per, hpcc, rss in rows:
        lines.append("| %s | %d | %d | %.0f | %d | %.1f |" % (name, frames, total, per, hpcc, rss))
    lines.append(END)
    write_block(doc, BEGIN, END, lines)
    rss_scale.table(bindir, doc)


def main():
    args = sys.argv[1:]
    if args and args[0] == "--table":
        if len(args) != 3:
            sys.exit(__doc__)
        table(args[1], args[2])
        return
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
    rss = peak_rss_mb(prog, runs=9)
    with tempfile.TemporaryDirectory() as tmp:
        total, frames = callgrind(valgrind, prog, keep or tmp)
    print("run_instructions=%d" % total)
    print("link_frames=%d" % frames)
    print("instructions_per_hop=%.0f" % (total / frames if frames else 0))
    print("peak_rss_mb=%.1f" % rss)


if __name__ == "__main__":
    main()
