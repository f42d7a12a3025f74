// SPDX-License-Identifier: GPL-2.0-only
//
// Readers and writers for the plain-text formats of the HPCC ns-3 simulator
// (topology, flow, fct and pfc files; see docs/ns3-bindings.md), so inputs
// written for that simulator run here unchanged and its analysis scripts read
// our outputs. The readers fill the network's own types (rdma-topology.h); a
// bad input raises FileFormatError naming file, line and field; a file that
// cannot be read raises FileIoError (a FileFormatError too).

#ifndef LIBCC_HPCC_FORMAT_H
#define LIBCC_HPCC_FORMAT_H

#include "rdma-topology.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

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

/// The HPCC simulator's host address for a node id: 11.x.y.1, the same as
/// ours (RdmaNodeIp).
inline uint32_t
HpccNodeIp(uint32_t id)
{
    return RdmaNodeIp(id);
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
