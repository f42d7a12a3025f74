#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Print a binary packet trace (mix.tr) as text, like the HPCC simulator's
analysis/trace_reader (alibaba-edu/High-Precision-Congestion-Control).

    trace_reader.py TRACE [FILTER]

TRACE is what `rdma-sim --traceNodes=...` writes (OUT/mix.tr) or that
simulator's own trace: both are its format, so either simulator's trace
prints the same way. The file starts with the port speeds (u32 count, then
per port u16 node, u8 interface, u64 bits/s) and a u32 window, then 56-byte
records (little endian): time u64, node u16, intf u8, qidx u8, qlen u32, sip
u32, dip u32, size u16, l3Prot u8, event u8, ecn u8, nodeType u8, and at
offset 32 the fields of the packet's type.

One line per record, in that program's printf formats; FILTER is its
expression language: `field op value` with op one of = != > >= < <=, joined
by & and | (right to left, as that program groups them) and parentheses;
fields time node nodeType intf qidx qlen sip dip size l3Prot event ecn
data.sport data.dport data.seq ack.sport ack.dport ack.flags qp.sport
qp.dport; values in C notation (0x hex, leading 0 octal); shorthands
flow=sip,dip,sport,dport (also biflow, rflow) and queue=node,intf,qidx.
Exit status 0; 1 if the file cannot be read; 2 for a bad filter or a file
that is not such a trace.
"""
import re
import struct
import sys

import numpy as np

RECORD = np.dtype({
    "names": ["time", "node", "intf", "qidx", "qlen", "sip", "dip", "size", "l3Prot", "event",
              "ecn", "nodeType", "u16_32", "u16_34", "u32_36", "u64_40", "u16_48", "u16_50",
              "u8_34", "u8_35", "u16_36", "u16_38", "u32_40", "u64_48", "u32_32", "u8_40"],
    "formats": ["<u8", "<u2", "u1", "u1", "<u4", "<u4", "<u4", "<u2", "u1", "u1", "u1", "u1",
                "<u2", "<u2", "<u4", "<u8", "<u2", "<u2", "u1", "u1", "<u2", "<u2", "<u4", "<u8",
                "<u4", "u1"],
    "offsets": [0, 8, 10, 11, 12, 16, 20, 24, 26, 27, 28, 29, 32, 34, 36, 40, 48, 50, 34, 35, 36,
                38, 40, 48, 32, 40],
    "itemsize": 56,
})

# Filter fields: the record column and its width in bits (values are cast
# to it, as that program's sscanf into a typed field does).
FIELDS = {
    "time": ("time", 64), "node": ("node", 16), "nodeType": ("nodeType", 8),
    "intf": ("intf", 8), "qidx": ("qidx", 8), "qlen": ("qlen", 32), "sip": ("sip", 32),
    "dip": ("dip", 32), "size": ("size", 16), "l3Prot": ("l3Prot", 8), "event": ("event", 8),
    "ecn": ("ecn", 8), "data.sport": ("u16_32", 16), "data.dport": ("u16_34", 16),
    "data.seq": ("u32_36", 32), "ack.sport": ("u16_32", 16), "ack.dport": ("u16_34", 16),
    "ack.flags": ("u16_36", 16), "qp.sport": ("u16_32", 16), "qp.dport": ("u16_34", 16),
}
EVENTS = {0: "Recv", 1: "Enqu", 2: "Dequ", 3: "Drop"}
PROT_CHAR = {0x6: "T", 0x11: "U", 0xFC: "A", 0xFD: "N", 0xFE: "P", 0xFF: "C"}


class BadInput(Exception):
    pass


def c_int(text):
    """A number as C's %i reads it: 0x hex, leading 0 octal, else decimal."""
    t = text.strip().lower()
    if t.startswith("0x"):
        return int(t, 16)
    if len(t) > 1 and t.startswith("0"):
        return int(t, 8)
    return int(t, 10)


def read_trace(path):
    """(port_speed {(node, intf): bps}, window bytes, records as a numpy array)."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        (n,) = struct.unpack_from("<I", data, 0)
        speeds = {}
        for i in range(n):
            node, intf, bps = struct.unpack_from("<HBQ", data, 4 + 11 * i)
            speeds[(node, intf)] = bps
        (win,) = struct.unpack_from("<I", data, 4 + 11 * n)
    except struct.error:
        raise BadInput("%s: not a packet trace (its port table is cut short)" % path)
    start = 8 + 11 * n
    whole = (len(data) - start) // RECORD.itemsize
    recs = np.frombuffer(data, dtype=RECORD, count=whole, offset=start)
    return speeds, win, recs


def format_record(r):
    """One record as that program's print_trace prints it."""
    p = int(r["l3Prot"])
    ev = EVENTS.get(int(r["event"]), "????")
    head = "%d n:%d %d:%d %d %s ecn:%x %08x %08x" % (
        r["time"], r["node"], r["intf"], r["qidx"], r["qlen"], ev, r["ecn"], r["sip"], r["dip"])
    if p in (0x6, 0x11):
        return head + " %d %d %s %d %d %d %d(%d)" % (
            r["u16_32"], r["u16_34"], PROT_CHAR[p], r["u32_36"], r["u64_40"], r["u16_48"],
            r["size"], r["u16_50"])
    if p in (0xFC, 0xFD):
        return head + " %d %d %s 0x%02X %d %d %d %d" % (
            r["u16_32"], r["u16_34"], PROT_CHAR[p], r["u16_36"], r["u16_38"], r["u32_40"],
            r["u64_48"], r["size"])
    if p == 0xFE:
        return head + " P %d %d %d %d" % (r["u32_32"], r["u32_36"], r["u8_40"], r["size"])
    if p == 0xFF:
        return head + " C %d %d %d %d %d" % (r["u16_32"], r["u8_34"], r["u8_35"], r["u32_36"],
                                             r["size"])
    if p == 0x0:
        return "%d n:%d %d:%d %s %08x %08x %d %d" % (
            r["time"], r["node"], r["intf"], r["qidx"], ev, r["sip"], r["dip"], r["u16_32"],
            r["u16_34"])
    return head + " %x %d" % (p, r["size"])


# ---- filter: a tree of ("leaf", column, op, value) / (op, left, right) ----

BASE = r"\s*([a-zA-Z0-9\.]+)\s*(=|>=|>|<=|<|!=)\s*([x,0-9a-fA-F]+)\s*"
OPS = {"=": np.equal, "!=": np.not_equal, ">": np.greater, ">=": np.greater_equal,
       "<": np.less, "<=": np.less_equal}


def _closing(s):
    """Index of the ')' matching the '(' that starts s, or -1."""
    depth = 0
    for i, ch in enumerate(s):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0:
            return i
    return -1


def _strip_brackets(e):
    s = e.strip()
    while s.startswith("("):
        i = _closing(s)
        if i < 0 or s[i + 1:].strip():
            return s
        s = s[1:i].strip()
    return s


def _leaf(field, op, value):
    if field in FIELDS:
        col, bits = FIELDS[field]
        return ("leaf", col, op, c_int(value) & ((1 << bits) - 1))
    if op != "=":
        return None
    parts = value.split(",")
    if field in ("flow", "rflow", "biflow") and len(parts) == 4:
        sip, dip, sport, dport = (c_int(x) for x in parts)

        def one(s, d, sp, dp):
            return ("sip=%d&dip=%d&((l3Prot=17&data.sport=%d&data.dport=%d)|"
                    "((l3Prot=0xFC|l3Prot=0xFD)&ack.sport=%d&ack.dport=%d)|"
                    "(l3Prot=0x0&qp.sport=%d&qp.dport=%d))" % (s, d, sp, dp, sp, dp, sp, dp))
        if field == "flow":
            return parse_filter(one(sip, dip, sport, dport))
        if field == "rflow":
            return parse_filter(one(dip, sip, dport, sport))
        return parse_filter("(%s)|(%s)" % (one(sip, dip, sport, dport),
                                           one(dip, sip, dport, sport)))
    if field == "queue" and len(parts) == 3:
        node, intf, qidx = (c_int(x) for x in parts)
        return parse_filter("node=%d&intf=%d&qidx=%d" % (node, intf, qidx))
    return None


def parse_filter(expr):
    """The filter's tree; BadInput if it cannot be read."""
    e = _strip_brackets(expr)
    m = re.fullmatch(BASE, e)
    if m:
        node = _leaf(*m.groups())
        if node is None:
            raise BadInput("filter: unknown field or shorthand in '%s'" % e.strip())
        return node
    m = re.match(BASE + r"(&|\|)(.*)$", e, re.S)
    if m:
        left = _leaf(m.group(1), m.group(2), m.group(3))
        if left is None:
            raise BadInput("filter: unknown field or shorthand in '%s'" % m.group(0).strip())
        op, rest = m.group(4), m.group(5)
    else:
        s = e.lstrip()
        if not s.startswith("("):
            raise BadInput("filter: cannot read '%s'" % e.strip())
        i = _closing(s)
        if i < 0:
            raise BadInput("filter: unbalanced parentheses in '%s'" % e.strip())
        left = parse_filter(s[1:i])
        m = re.fullmatch(r"\s*(&|\|)(.*)", s[i + 1:], re.S)
        if not m:
            raise BadInput("filter: expected & or | after '%s'" % s[:i + 1])
        op, rest = m.group(1), m.group(2)
    return (op, left, parse_filter(rest))


def apply_filter(tree, recs):
    """Boolean mask of the records the filter keeps."""
    if tree[0] == "leaf":
        _, col, op, value = tree
        return OPS[op](recs[col].astype(np.uint64), np.uint64(value))
    a, b = apply_filter(tree[1], recs), apply_filter(tree[2], recs)
    return a & b if tree[0] == "&" else a | b


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    usage = "usage: trace_reader.py TRACE [FILTER]\n"
    if argv and argv[0] in ("-h", "--help"):
        sys.stdout.write(usage + (__doc__ or ""))
        return 0
    if len(argv) not in (1, 2):
        sys.stderr.write(usage)
        return 2
    try:
        tree = parse_filter(argv[1]) if len(argv) == 2 else None
        _, _, recs = read_trace(argv[0])
    except BadInput as e:
        sys.stderr.write("trace_reader: %s\n" % e)
        return 2
    except OSError as e:
        sys.stderr.write("trace_reader: %s: %s\n" % (argv[0], e.strerror or e))
        return 1
    if tree is not None:
        recs = recs[apply_filter(tree, recs)]
    out = sys.stdout
    for r in recs:
        out.write(format_record(r) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
