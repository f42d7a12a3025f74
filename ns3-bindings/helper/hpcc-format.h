// SPDX-License-Identifier: GPL-2.0-only
//
// Readers and writers for the plain-text formats of the HPCC ns-3 simulator
// (topology, flow, fct and pfc files; see docs/ns3-bindings.md), so inputs
// written for that simulator run here unchanged and its analysis scripts read
// our outputs. A bad input raises FileFormatError naming file, line and field;
// a file that cannot be read raises FileIoError (a FileFormatError too).

#ifndef LIBCC_HPCC_FORMAT_H
#define LIBCC_HPCC_FORMAT_H

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/// A malformed input file: what(), file(), line() (1-based; 0 = whole file),
/// field() (the column's name, "" when the line as a whole is wrong).
class FileFormatError : public std::runtime_error
{
  public:
    FileFormatError(const std::string& file, uint32_t line, const std::string& field,
                    const std::string& message);
    const std::string& File() const
    {
        return m_file;
    }
    uint32_t Line() const
    {
        return m_line;
    }
    const std::string& Field() const
    {
        return m_field;
    }

  private:
    std::string m_file;
    uint32_t m_line;
    std::string m_field;
};

/// The file could not be opened or read (an I/O failure, exit status 1 in
/// the tools; docs/errors.md), as opposed to a bad line in it. File() names
/// it, Line() is 0.
class FileIoError : public FileFormatError
{
  public:
    FileIoError(const std::string& file, const std::string& message)
        : FileFormatError(file, 0, "", message)
    {
    }
};

struct TopologyLinkSpec
{
    uint32_t a;
    uint32_t b;
    uint64_t rateBps;
    uint64_t delayNs;
    double errorRate; ///< share of frames lost at random on receive, [0, 1)
    uint32_t line;    ///< where it was declared, for later error messages
};

/// The topology file: "N S L", the S switch ids, L links "a b rate delay err".
struct TopologySpec
{
    uint32_t nNodes = 0;
    std::vector<bool> isSwitch; ///< indexed by node id
    std::vector<TopologyLinkSpec> links;
    std::string file;
    /// Harmless oddities the reader tolerated, as the HPCC simulator does
    /// ("file:line: ..."), for the program to print.
    std::vector<std::string> warnings;

    uint32_t NumSwitches() const;
};

/// One flow: "src dst pg dport size start_s".
struct FlowSpec
{
    uint32_t src;
    uint32_t dst;
    uint32_t pg;
    uint32_t dport;
    uint64_t sizeBytes;
    uint64_t startNs;
    uint32_t line;
    /// When the flow leaves: it sends nothing new from then on and completes
    /// once what it sent is acknowledged (0: it runs until sizeBytes are sent).
    uint64_t stopNs = 0;
};

/// Parse a rate "100Gbps" (a decimal number as libcc_parse_value reads it,
/// then bps, kbps/Kbps, Mbps, Gbps or Tbps) into bits/s; false unless it is
/// a whole number of bits/s in [1, 10^15]. No hex, inf, nan, no rounding.
bool ParseRate(const std::string& text, uint64_t& bps);
/// Parse a delay "0.001ms", "1us", "500ns", "1s" (or "0") into ns; false
/// unless it is a whole number of ns in [0, 10^15].
bool ParseDelay(const std::string& text, uint64_t& ns);

/// Read a topology file. Checks: counts, ids in range, switch ids distinct,
/// no self links, each host has exactly one link (one NIC per host); every
/// field's form and range as in docs/ns3-bindings.md. Lines after the links
/// are ignored, as the HPCC simulator does, with one line in warnings.
TopologySpec ReadTopologyFile(const std::string& path);
TopologySpec ParseTopology(const std::string& text, const std::string& name);

/// Read a flow file: flow_count flow lines, sorted by start time; lines
/// after them are ignored, as the HPCC simulator does, with a line in
/// *warnings (an error when warnings is nullptr). When topo is given,
/// src/dst must be hosts of it.
std::vector<FlowSpec> ReadFlowFile(const std::string& path, const TopologySpec* topo = nullptr,
                                   std::vector<std::string>* warnings = nullptr);
std::vector<FlowSpec> ParseFlows(const std::string& text, const std::string& name,
                                 const TopologySpec* topo = nullptr,
                                 std::vector<std::string>* warnings = nullptr);

/// The text of a file as the readers take it (up to a first NUL byte);
/// FileIoError if it cannot be opened or read. For readers of the other
/// files of that simulator (its config.txt).
std::string ReadHpccTextFile(const std::string& path);
/// The lines that carry data, as (line number, whitespace-separated words):
/// blank lines and '#' comments skipped; a NUL byte is a FileFormatError.
std::vector<std::pair<uint32_t, std::vector<std::string>>> SplitHpccTextLines(
    const std::string& text, const std::string& file);

/// The HPCC simulator's host address for a node id: 11.x.y.1 as a 32-bit
/// value (printed %08x in fct files).
inline uint32_t
HpccNodeIp(uint32_t id)
{
    return 0x0b000001u + ((id / 256) * 0x00010000u) + ((id % 256) * 0x00000100u);
}

/// One fct line: "sip dip sport dport size start_ns fct_ns standalone_fct_ns".
void WriteFctLine(std::FILE* f, uint32_t srcNode, uint32_t dstNode, uint32_t sport, uint32_t dport,
                  uint64_t size, uint64_t startNs, uint64_t fctNs, uint64_t idealFctNs);
/// One pfc line: "time_ns node node_type if_index 1=pause|0=resume"
/// (node_type 0 host, 1 switch).
void WritePfcLine(std::FILE* f, uint64_t timeNs, uint32_t node, uint32_t nodeType, uint32_t ifIndex,
                  bool pause);

/// The HPCC simulator's per-packet header bytes in its standalone FCT
/// (CustomHeader::GetStaticWholeHeaderSize() minus the INT header): 14 (its
/// L2 header) + 20 IPv4 + 8 UDP + 2 (pg) + 4 (seq).
constexpr uint32_t HPCC_SIM_HEADER_BYTES = 48;

/// Ideal ("standalone") FCT as the HPCC simulator defines it: base RTT plus
/// every byte on the wire (payload plus per-packet headers, INT excluded) at
/// the bottleneck rate. Rounded down to whole ns, like that simulator.
uint64_t IdealFctNs(uint64_t baseRttNs, uint64_t sizeBytes, uint32_t payloadBytes,
                    uint32_t headerBytes, uint64_t bottleneckBps);

} // namespace ns3

#endif
