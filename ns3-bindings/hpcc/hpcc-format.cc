// SPDX-License-Identifier: GPL-2.0-only

#include "hpcc-format.h"

#include "ns3/log.h"
#include <libcc/libcc.h>

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <cinttypes>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccFormat");

namespace
{

struct Line
{
    uint32_t number;
    std::vector<std::string> fields;
};

// A field as a message echoes it: printable ASCII as it is, any other byte
// (NUL, control characters, UTF-8 or no encoding at all) as \xHH, and at most
// 40 bytes of it then "...", so a binary file still gives a readable line.
std::string
Quote(const std::string& s)
{
    const size_t kShown = 40;
    std::string out = "'";
    for (size_t i = 0; i < s.size() && i < kShown; i++)
    {
        unsigned char ch = static_cast<unsigned char>(s[i]);
        if (ch >= 0x20 && ch < 0x7f && ch != '\\')
        {
            out += static_cast<char>(ch);
        }
        else
        {
            char hex[5];
            std::snprintf(hex, sizeof hex, "\\x%02x", ch);
            out += hex;
        }
    }
    if (s.size() > kShown)
    {
        out += "...";
    }
    return out + "'";
}

// Lines that carry data: blank lines and '#' comments are skipped (the
// HPCC simulator reads with scanf, which skips blank lines too). A NUL byte
// anywhere means the file is not text.
std::vector<Line>
SplitLines(const std::string& text, const std::string& file)
{
    std::vector<Line> out;
    std::istringstream in(text);
    std::string s;
    uint32_t n = 0;
    while (std::getline(in, s))
    {
        n++;
        auto nul = s.find('\0');
        if (nul != std::string::npos)
        {
            throw FileFormatError(file, n, "",
                                  "a NUL byte at column " + std::to_string(nul + 1) +
                                      ": not a text file");
        }
        auto hash = s.find('#');
        if (hash != std::string::npos)
        {
            s.resize(hash);
        }
        std::istringstream ls(s);
        Line l{n, {}};
        std::string tok;
        while (ls >> tok)
        {
            l.fields.push_back(tok);
        }
        if (!l.fields.empty())
        {
            out.push_back(std::move(l));
        }
    }
    return out;
}

// The file up to its end, or up to its first NUL byte (which SplitLines
// refuses): a text file has none, and /dev/zero would never end.
std::string
ReadWhole(const std::string& path)
{
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f)
    {
        throw FileIoError(path, std::string("cannot open: ") + std::strerror(errno));
    }
    std::string text;
    char buf[1 << 16];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
    {
        const void* nul = std::memchr(buf, '\0', n);
        if (nul)
        {
            text.append(buf, static_cast<const char*>(nul) - buf + 1);
            break;
        }
        text.append(buf, n);
    }
    int err = std::ferror(f) ? errno : 0;
    std::fclose(f);
    if (err != 0)
    {
        throw FileIoError(path, std::string("cannot read: ") + std::strerror(err));
    }
    return text;
}

// A whole number in decimal digits only, as the HPCC simulator's scanf("%u")
// reads a well-formed one: no sign (scanf would wrap "-1" to 4294967295), no
// "0x", no "1e3" (scanf would stop at the 'e'). `tooBig`: digits, but past
// 2^64-1.
bool
ParseWhole(const std::string& s, uint64_t& v, bool& tooBig)
{
    tooBig = false;
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
    {
        return false;
    }
    v = 0;
    for (char ch : s)
    {
        uint64_t d = uint64_t(ch - '0');
        if (v > (UINT64_MAX - d) / 10)
        {
            tooBig = true;
            return false;
        }
        v = v * 10 + d;
    }
    return true;
}

// A decimal number as libcc_parse_value reads one (libcc/src/units.c: an
// optional sign, digits with an optional point and exponent), followed by
// the unit suffix `unit` (may be empty). strtod alone would also take hex
// ("0x64"), "inf" and "nan"; the character set refuses them before libcc sees
// them, and libcc refuses the rest of what is not its form ("1e", "1..2").
bool
ParseDecimal(const std::string& text, const std::string& unit, libcc_unit kind, double& v)
{
    if (text.size() <= unit.size() ||
        text.compare(text.size() - unit.size(), unit.size(), unit) != 0)
    {
        return false;
    }
    std::string number = text.substr(0, text.size() - unit.size());
    if (number.find_first_not_of("0123456789.eE+-") != std::string::npos)
    {
        return false;
    }
    // libcc reads a C string: the check above also refuses an embedded NUL.
    return libcc_parse_value(kind, text.c_str(), &v) == LIBCC_OK && std::isfinite(v);
}

// v as a whole count of its unit (ns, bits/s) within [0, max], if it is one:
// a decimal fraction times a power of ten may miss the integer by an ulp or
// two ("0.3ms" = 299999.99999999994 ns), but a fractional "1.5ns" is refused
// rather than rounded.
bool
WholeInRange(double v, double max, uint64_t& out)
{
    if (!(v >= 0 && v <= max))
    {
        return false;
    }
    double r = std::nearbyint(v);
    if (std::fabs(v - r) > 4 * DBL_EPSILON * v)
    {
        return false;
    }
    out = static_cast<uint64_t>(r);
    return true;
}

const double kMaxRateBps = 1e15; // 1000 Tbps
const double kMaxTimeNs = 1e15;  // 1000000 s, for delays and start times

class Checker
{
  public:
    Checker(const std::string& file)
        : m_file(file)
    {
    }

    [[noreturn]] void Fail(uint32_t line, const std::string& field, const std::string& msg) const
    {
        throw FileFormatError(m_file, line, field, msg);
    }

    void FieldCount(const Line& l, size_t want, const char* layout) const
    {
        if (l.fields.size() != want)
        {
            Fail(l.number, "",
                 "expected " + std::to_string(want) + " fields (" + layout + "), found " +
                     std::to_string(l.fields.size()));
        }
    }

    uint64_t U64(const Line& l, size_t i, const char* field, uint64_t min, uint64_t max) const
    {
        uint64_t v;
        bool tooBig;
        std::string range = "[" + std::to_string(min) + ", " + std::to_string(max) + "]";
        if (!ParseWhole(l.fields[i], v, tooBig) && !tooBig)
        {
            Fail(l.number, field,
                 Quote(l.fields[i]) + " is not a whole number in decimal digits in " + range);
        }
        if (tooBig || v < min || v > max)
        {
            Fail(l.number, field, Quote(l.fields[i]) + " is outside " + range);
        }
        return v;
    }

  private:
    std::string m_file;
};

} // namespace

bool
ParseRate(const std::string& text, uint64_t& bps)
{
    // Spelled as ns-3's DataRate spells bits/s: "GBps" there is gigabytes/s,
    // so libcc's case-blind units are not taken.
    for (const char* unit : {"bps", "kbps", "Kbps", "Mbps", "Gbps", "Tbps"})
    {
        double v;
        if (ParseDecimal(text, unit, LIBCC_UNIT_BPS, v))
        {
            return WholeInRange(v, kMaxRateBps, bps) && bps >= 1;
        }
    }
    return false;
}

bool
ParseDelay(const std::string& text, uint64_t& ns)
{
    // "0" alone is a delay too (libcc takes 0 in any unit).
    for (const char* unit : {"ns", "us", "ms", "s", ""})
    {
        double v;
        if (ParseDecimal(text, unit, LIBCC_UNIT_NS, v))
        {
            return WholeInRange(v, kMaxTimeNs, ns);
        }
    }
    return false;
}

TopologySpec
ParseTopology(const std::string& text, const std::string& name)
{
    Checker c(name);
    auto lines = SplitLines(text, name);
    if (lines.empty())
    {
        c.Fail(0, "", "empty topology file (expected 'N S L' on the first line)");
    }
    const Line& head = lines[0];
    c.FieldCount(head, 3, "node_count switch_count link_count");
    TopologySpec t;
    t.file = name;
    t.nNodes = c.U64(head, 0, "node_count", 2, 1u << 24);
    uint32_t nSw = c.U64(head, 1, "switch_count", 0, t.nNodes - 1);
    uint64_t nLinks = c.U64(head, 2, "link_count", 1, 1u << 26);
    // Every table here grows with what is read, never with the counts the
    // header claims: a 10-byte file may claim 2^24 nodes and 2^26 links.
    // isSwitch is sized once every node is known to have a link, so by at
    // most twice the links read.
    std::unordered_set<uint32_t> switches;

    // Switch ids may run over several lines, as scanf would read them.
    size_t li = 1;
    uint32_t got = 0;
    while (got < nSw)
    {
        if (li >= lines.size())
        {
            c.Fail(lines.back().number, "switch_id",
                   "file ends after " + std::to_string(got) + " of " + std::to_string(nSw) +
                       " switch ids");
        }
        const Line& l = lines[li++];
        for (size_t i = 0; i < l.fields.size(); i++)
        {
            if (got == nSw)
            {
                c.Fail(l.number, "switch_id",
                       "more switch ids than switch_count=" + std::to_string(nSw));
            }
            uint32_t id = c.U64(l, i, "switch_id", 0, t.nNodes - 1);
            if (!switches.insert(id).second)
            {
                c.Fail(l.number, "switch_id", "switch " + std::to_string(id) + " listed twice");
            }
            got++;
        }
    }

    std::unordered_set<uint32_t> linked;
    std::unordered_map<uint32_t, uint32_t> hostLinkLine; // host -> the line of its link
    for (uint64_t k = 0; k < nLinks; k++)
    {
        if (li >= lines.size())
        {
            c.Fail(lines.back().number, "",
                   "file ends after " + std::to_string(k) + " of " + std::to_string(nLinks) +
                       " links (link_count on line " + std::to_string(head.number) + ")");
        }
        const Line& l = lines[li++];
        c.FieldCount(l, 5, "node_a node_b rate delay error_rate");
        TopologyLinkSpec s;
        s.line = l.number;
        s.a = c.U64(l, 0, "node_a", 0, t.nNodes - 1);
        s.b = c.U64(l, 1, "node_b", 0, t.nNodes - 1);
        if (s.a == s.b)
        {
            c.Fail(l.number, "node_b", "link from node " + std::to_string(s.a) + " to itself");
        }
        if (!ParseRate(l.fields[2], s.rateBps))
        {
            c.Fail(l.number, "rate",
                   Quote(l.fields[2]) +
                       " is not a rate in [1bps, 1000Tbps], whole bits/s, like 100Gbps "
                       "(a decimal number, then bps, Kbps, Mbps, Gbps or Tbps)");
        }
        if (!ParseDelay(l.fields[3], s.delayNs))
        {
            c.Fail(l.number, "delay",
                   Quote(l.fields[3]) +
                       " is not a delay in [0ns, 1000000s], whole ns, like 0.001ms "
                       "(a decimal number, then s, ms, us or ns)");
        }
        // The share of frames lost at random at each end of the link (the
        // HPCC simulator's per-packet receive error model): [0, 1).
        if (!ParseDecimal(l.fields[4], "", LIBCC_UNIT_RATIO, s.errorRate) ||
            !(s.errorRate >= 0 && s.errorRate < 1))
        {
            c.Fail(l.number, "error_rate",
                   Quote(l.fields[4]) +
                       " is not accepted: a decimal number in [0, 1), the share of packets "
                       "lost at random on the link");
        }
        s.errorRate += 0.0; // not -0
        for (uint32_t end : {s.a, s.b})
        {
            if (switches.count(end) == 0)
            {
                auto first = hostLinkLine.emplace(end, l.number);
                if (!first.second)
                {
                    c.Fail(l.number, end == s.a ? "node_a" : "node_b",
                           "host " + std::to_string(end) + " already has a link (line " +
                               std::to_string(first.first->second) +
                               "): dual-homed hosts are not supported (an RdmaNic drives one "
                               "QbbNetDevice, and routes and base RTTs assume one first hop); "
                               "give each host one link");
                }
            }
            linked.insert(end);
        }
        t.links.push_back(s);
    }
    if (li < lines.size())
    {
        // The HPCC simulator reads link_count links and stops (its own
        // mix/topology.txt has more lines after them).
        t.warnings.push_back(name + ":" + std::to_string(lines[li].number) + ": " +
                             std::to_string(lines.size() - li) + " line(s) after the " +
                             std::to_string(nLinks) +
                             " links of link_count are ignored, as the HPCC simulator does");
    }
    // At most 2 x links nodes are linked, so this stops at the first
    // unlinked id long before a huge claimed node_count.
    for (uint32_t id = 0; id < t.nNodes; id++)
    {
        if (linked.count(id) == 0)
        {
            c.Fail(head.number, "node_count",
                   std::string(switches.count(id) ? "switch " : "host ") + std::to_string(id) +
                       " has no link");
        }
    }
    t.isSwitch.assign(t.nNodes, false);
    for (uint32_t id : switches)
    {
        t.isSwitch[id] = true;
    }
    return t;
}

TopologySpec
ReadTopologyFile(const std::string& path)
{
    return ParseTopology(ReadWhole(path), path);
}

std::vector<FlowSpec>
ParseFlows(const std::string& text, const std::string& name, const TopologySpec* topo,
           std::vector<std::string>* warnings)
{
    Checker c(name);
    auto lines = SplitLines(text, name);
    if (lines.empty())
    {
        c.Fail(0, "", "empty flow file (expected the flow count on the first line)");
    }
    c.FieldCount(lines[0], 1, "flow_count");
    uint64_t n = c.U64(lines[0], 0, "flow_count", 0, UINT32_MAX);
    uint64_t maxNode = topo ? topo->nNodes - 1 : UINT32_MAX;
    std::vector<FlowSpec> flows;
    // By the lines there are, never by the count claimed (4e9 flows would
    // ask for 192 GB before the first line is read).
    flows.reserve(std::min<uint64_t>(n, lines.size() - 1));
    uint64_t prevStart = 0;
    for (uint64_t k = 0; k < n; k++)
    {
        if (k + 1 >= lines.size())
        {
            c.Fail(lines.back().number, "",
                   "file ends after " + std::to_string(k) + " of " + std::to_string(n) +
                       " flows (flow_count on line " + std::to_string(lines[0].number) + ")");
        }
        const Line& l = lines[k + 1];
        c.FieldCount(l, 6, "src dst pg dport size start_s");
        FlowSpec f;
        f.line = l.number;
        f.src = c.U64(l, 0, "src", 0, maxNode);
        f.dst = c.U64(l, 1, "dst", 0, maxNode);
        if (topo)
        {
            if (topo->isSwitch[f.src])
            {
                c.Fail(l.number, "src",
                       "node " + std::to_string(f.src) + " is a switch, not a host");
            }
            if (topo->isSwitch[f.dst])
            {
                c.Fail(l.number, "dst",
                       "node " + std::to_string(f.dst) + " is a switch, not a host");
            }
        }
        if (f.src == f.dst)
        {
            c.Fail(l.number, "dst", "flow from host " + std::to_string(f.src) + " to itself");
        }
        f.pg = c.U64(l, 2, "pg", 0, 7);
        f.dport = c.U64(l, 3, "dport", 0, 65535);
        f.sizeBytes = c.U64(l, 4, "size", 1, UINT64_MAX >> 8);
        // Seconds, read as libcc reads "<number>s".
        double start;
        if (!ParseDecimal(l.fields[5] + "s", "s", LIBCC_UNIT_NS, start) ||
            !WholeInRange(start, kMaxTimeNs, f.startNs))
        {
            c.Fail(l.number, "start_s",
                   Quote(l.fields[5]) +
                       " is not a start time in [0, 1000000] seconds, whole ns (a decimal "
                       "number)");
        }
        if (f.startNs < prevStart)
        {
            c.Fail(l.number, "start_s", "flows must be sorted by start time");
        }
        prevStart = f.startNs;
        flows.push_back(f);
    }
    if (n + 1 < lines.size())
    {
        std::string msg = "more flow lines than flow_count=" + std::to_string(n) + " (line " +
                          std::to_string(lines[0].number) + ")";
        if (!warnings)
        {
            c.Fail(lines[n + 1].number, "", msg);
        }
        // The HPCC simulator reads flow_count flows and stops.
        warnings->push_back(name + ":" + std::to_string(lines[n + 1].number) + ": " + msg + ": " +
                            std::to_string(lines.size() - n - 1) +
                            " line(s) ignored, as the HPCC simulator does");
    }
    return flows;
}

std::vector<FlowSpec>
ReadFlowFile(const std::string& path, const TopologySpec* topo, std::vector<std::string>* warnings)
{
    return ParseFlows(ReadWhole(path), path, topo, warnings);
}

std::string
ReadHpccTextFile(const std::string& path)
{
    return ReadWhole(path);
}

std::vector<std::pair<uint32_t, std::vector<std::string>>>
SplitHpccTextLines(const std::string& text, const std::string& file)
{
    std::vector<std::pair<uint32_t, std::vector<std::string>>> out;
    for (Line& l : SplitLines(text, file))
    {
        out.emplace_back(l.number, std::move(l.fields));
    }
    return out;
}

void
WriteFctLine(std::FILE* f, uint32_t srcNode, uint32_t dstNode, uint32_t sport, uint32_t dport,
             uint64_t size, uint64_t startNs, uint64_t fctNs, uint64_t idealFctNs)
{
    std::fprintf(f, "%08x %08x %u %u %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
                 HpccNodeIp(srcNode), HpccNodeIp(dstNode), sport, dport, size, startNs, fctNs,
                 idealFctNs);
}

void
WritePfcLine(std::FILE* f, uint64_t timeNs, uint32_t node, uint32_t nodeType, uint32_t ifIndex,
             bool pause)
{
    std::fprintf(f, "%" PRIu64 " %u %u %u %u\n", timeNs, node, nodeType, ifIndex, pause ? 1u : 0u);
}

uint64_t
IdealFctNs(uint64_t baseRttNs, uint64_t sizeBytes, uint32_t payloadBytes, uint32_t headerBytes,
           uint64_t bottleneckBps)
{
    uint64_t packets = (sizeBytes + payloadBytes - 1) / payloadBytes;
    long double wireBits = (long double)(sizeBytes + packets * headerBytes) * 8.0L;
    return baseRttNs + static_cast<uint64_t>(wireBits * 1e9L / (long double)bottleneckBps);
}

} // namespace ns3
