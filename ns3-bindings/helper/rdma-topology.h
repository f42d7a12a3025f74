// SPDX-License-Identifier: GPL-2.0-only
//
// The vocabulary of an RdmaNetwork's inputs: its topology (nodes, which
// are switches, links), its flows, its hosts' addresses, and the error a
// bad input raises. The network builder (rdma-network.h) owns these types;
// the file readers (the HPCC simulator's formats, hpcc/hpcc-format.h; a
// partition file, rdma-partition.h) fill them.

#ifndef RDMA_TOPOLOGY_H
#define RDMA_TOPOLOGY_H

#include <cstdint>
#include <stdexcept>
#include <string>
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

/// A network's nodes and links: node ids 0..nNodes-1, the switches marked.
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

/// One flow between two hosts of the topology.
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

/**
 * A chain of switches (ids nSenders+1 ...) ending at one receiver (id
 * nSenders); sender i (id i) attaches to switch senderSwitch[i] of the chain
 * (0: the first). Every link rateBps and delayNs. With all senders on switch
 * 0 it is the dumbbell; a sender joining further on congests a later hop
 * (the FNCC paper's Figure 11: first, middle, last hop).
 */
TopologySpec MakeChainTopology(const std::vector<uint32_t>& senderSwitch, uint32_t nSwitches,
                               uint64_t rateBps, uint64_t delayNs);
/// A dumbbell: nSenders hosts (ids 0..nSenders-1) on the first switch, one
/// receiver (id nSenders) on the last, nSwitches in a chain (ids after).
TopologySpec MakeDumbbellTopology(uint32_t nSenders, uint32_t nSwitches, uint64_t rateBps,
                                  uint64_t delayNs);
/// A k-ary fat-tree (k even): k^3/4 hosts (ids first), then k^2/2 edge,
/// k^2/2 aggregation and k^2/4 core switches; every link rateBps, delayNs.
TopologySpec MakeFatTreeTopology(uint32_t k, uint64_t rateBps, uint64_t delayNs);

/// The IPv4 address of host node id: 11.x.y.1 as a 32-bit value (the HPCC
/// simulator's, so its files name the same hosts; printed %08x in fct files).
inline uint32_t
RdmaNodeIp(uint32_t id)
{
    return 0x0b000001u + ((id / 256) * 0x00010000u) + ((id % 256) * 0x00000100u);
}

} // namespace ns3

#endif
