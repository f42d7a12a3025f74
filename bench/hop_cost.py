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
    per_hop[<part>]=<the instructions per hop of one part (PARTS), largest first>
    peak_rss_mb=<the program's peak RSS outside valgrind (GNU time), median of 9 runs>

--table runs the two scenes of docs/performance.md (the hpcc dumbbell and a
k=4 fat tree) and writes their table between '<!-- hops:begin -->' and
'<!-- hops:end -->' of DOC.md, beside the ns-3.18 HPCC simulator's figures,
the split of each scene's per-hop figure into PARTS between
'<!-- hop-parts:begin -->' and '<!-- hop-parts:end -->', then the peak RSS
table of rss_scale.py (fat trees up to 1,024 hosts).

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


# Where a packet-hop's instructions go: each function's own instructions
# (inlined code counted where it runs) by the first part whose test it
# passes, in this order. libcc is whatever runs in libcc.so; the others go
# by the function's qualified name (its parameters left out: a switch
# function taking a QbbFrame is the switch's).
PARTS = [
    ("libcc", None, "CP, NP and RP of libcc.so (HPCC's per-ACK work the largest)"),
    ("event core", re.compile(r"FastSimulatorImpl|SimSchedule|EventWheel|EventHeap|FastEvent"
                              r"|ScheduleReused"),
     "the event loop: the queue's pop and pushes, the dispatch"),
    ("switch", re.compile(r"Switch|Ecmp"),
     "ingress (TTL, key, ECMP, MMU admit, CP enqueue), egress (scheduler, MMU release, "
     "CP dequeue, INT hop)"),
    ("device, frame pool", re.compile(r"QbbNetDevice|QbbPfc|QbbFrame|QbbEgressSource"),
     "QbbNetDevice (line time, PFC, transmit-complete), the QbbFrame free list"),
    ("channel", re.compile(r"QbbChannel"), "QbbChannel: frames in flight, arrivals"),
    ("NIC", re.compile(r"Rdma|LibccRp|LibccNp|QpTimer|Roce|DelayUntilPs|Libcc"),
     "RdmaNic, queue pairs, pacing, ACK building, the libcc agents"),
]
OTHER = ("the rest", "the program's own callbacks and traces, malloc, libstdc++")
_NAME = re.compile(r"(fn|cfn|ob|cob)=\((\d+)\)(?: (.*))?")


def part_of(function, obj):
    """The PARTS name of a function (callgrind's name) in object obj."""
    if os.path.basename(obj).startswith("libcc.so"):
        return PARTS[0][0]
    name = function.split("(", 1)[0]
    for part, pattern, _ in PARTS[1:]:
        if pattern.search(name):
            return part
    return OTHER[0]


def read_callgrind(out):
    """(total, frames, by_part) of callgrind output file out: the
    instructions collected, the calls to QbbNetDevice::StartFrame, and the
    instructions by part (self costs: a call's line, which carries the
    callee's inclusive cost, is skipped)."""
    names, objs, by_part = {}, {}, {}
    total = None
    frames = 0
    part = OTHER[0]
    obj = ""
    after_calls = False
    start_frame = False
    with open(out) as f:
        for line in f:
            if line.startswith("summary:") or line.startswith("totals:"):
                total = int(line.split()[1])
                continue
            # fn=(id) name, or fn=(id) when the name was given before
            m = _NAME.match(line)
            if m:
                kind, ident, text = m.groups()
                table = objs if kind in ("ob", "cob") else names
                if text:
                    table[ident] = text
                if kind == "ob":
                    obj = objs[ident]
                elif kind == "fn":
                    part = part_of(names[ident], obj)
                elif kind == "cfn":
                    start_frame = bool(START_FRAME.search(names.get(ident, "")))
                continue
            if line.startswith("calls="):
                if start_frame:
                    frames += int(line.split("=")[1].split()[0])
                    start_frame = False
                after_calls = True
                continue
            fields = line.split()
            if len(fields) >= 2 and (line[0].isdigit() or line[0] in "+-*"):
                if after_calls:
                    after_calls = False
                    continue
                by_part[part] = by_part.get(part, 0) + int(fields[1])
    return total, frames, by_part


def callgrind(valgrind, prog, keep):
    """Run prog under callgrind (inside Run() only) into keep/callgrind.out:
    read_callgrind's (total, frames, by_part)."""
    out = os.path.join(keep, "callgrind.out")
    subprocess.run([valgrind, "--tool=callgrind", "--callgrind-out-file=" + out,
                    "--toggle-collect=ns3::FastSimulatorImpl::Run*"] + prog,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return read_callgrind(out)


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
PARTS_BEGIN = "<!-- hop-parts:begin -->"
PARTS_END = "<!-- hop-parts:end -->"


def scene_program(bindir, cmd, flows, tmp):
    """A scene's command line, its {tmp} filled in, after writing its flow
    file (gen_flows.py with the arguments flows) if it has one."""
    if flows:
        subprocess.run([sys.executable, os.path.join(HERE, "..", "examples", "gen_flows.py")]
                       + [a.format(tmp=tmp) for a in flows], check=True)
    return [os.path.join(bindir, cmd[0])] + [a.format(tmp=tmp) for a in cmd[1:]]


def table(bindir, doc):
    rows = []
    split = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, hpcc, cmd, flows in SCENES:
            prog = scene_program(bindir, cmd, flows, tmp)
            rss = peak_rss_mb(prog, runs=9)
            total, frames, by_part = callgrind("valgrind", prog, tmp)
            rows.append((name, frames, total, total / frames, hpcc, rss))
            split.append({p: n / frames for p, n in by_part.items()})
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
    lines = [PARTS_BEGIN,
             "Where a packet-hop's instructions go, by part (each function's own instructions "
             "inside `Run()`, inlined code counted where it runs); written by `make bench` "
             "(bench/hop_cost.py, `PARTS`).",
             "",
             "| part | " + " | ".join(name.split(" (")[0].split(":")[0] for name, *_ in SCENES)
             + " | what is in it |",
             "|---|" + "---:|" * len(SCENES) + "---|"]
    for part, _, what in PARTS[1:] + [PARTS[0], (OTHER[0], None, OTHER[1])]:
        lines.append("| %s | %s | %s |" % (part, " | ".join("%.0f" % s.get(part, 0) for s in split),
                                          what))
    lines.append("| total | %s | |" % " | ".join("%.0f" % r[3] for r in rows))
    lines.append(PARTS_END)
    write_block(doc, PARTS_BEGIN, PARTS_END, lines)
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
        total, frames, split = callgrind(valgrind, prog, keep or tmp)
    print("run_instructions=%d" % total)
    print("link_frames=%d" % frames)
    print("instructions_per_hop=%.0f" % (total / frames if frames else 0))
    for part, n in sorted(split.items(), key=lambda kv: -kv[1]):
        print("per_hop[%s]=%.0f" % (part, n / frames if frames else 0))
    print("peak_rss_mb=%.1f" % rss)


if __name__ == "__main__":
    main()
