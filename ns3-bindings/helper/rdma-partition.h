// SPDX-License-Identifier: GPL-2.0-only
//
// Which rank simulates which node of a topology in a distributed run
// (docs/distributed.md). A partition cuts links, never a node: every node
// belongs to one rank, and a link whose ends are on two ranks carries its
// frames between them (QbbChannel::EnableRemote).
#ifndef RDMA_PARTITION_H
#define RDMA_PARTITION_H

#include "rdma-topology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * A partition over `ranks` ranks without hand work. Switches farthest (in
 * hops) from every host form the top layer (a fat tree's cores); removing
 * it leaves blocks (a fat tree's pods, a dumbbell's two ends), which go to
 * the ranks in order of their smallest node id, contiguously and balanced
 * by node count; top-layer switches are dealt round robin. Hosts always go
 * with their switch. A topology with fewer blocks than ranks is cut in
 * breadth-first order of its switches into ranks chunks instead. Result:
 * rank of each node id.
 *
 * With nodeLoad (one figure per node id, e.g. FlowBytesPerNode) whose
 * blocks' total is not 0, blocks are balanced by load instead: heaviest
 * first (ties: smallest node id first), each to the rank with the least
 * load so far (ties: fewer nodes, then the lower rank). Throws
 * std::invalid_argument if nodeLoad is neither empty nor one per node.
 */
std::vector<uint32_t> PartitionTopology(const TopologySpec& topo, uint32_t ranks,
                                        const std::vector<uint64_t>& nodeLoad = {});

/**
 * A rank's expected work from the flows: each flow's bytes counted at its
 * source and at its destination (every byte is sent, switched and
 * acknowledged at both ends' blocks). Flows naming a node >= nNodes are
 * skipped (ReadFlowFile refuses them).
 */
std::vector<uint64_t> FlowBytesPerNode(const std::vector<FlowSpec>& flows, uint32_t nNodes);

/**
 * The user's partition: lines "node rank" (# starts a comment), every node
 * of topo exactly once, rank < ranks. Throws FileFormatError naming
 * file:line:field (FileIoError when it cannot be read).
 */
std::vector<uint32_t> ReadPartitionFile(const std::string& path, const TopologySpec& topo,
                                        uint32_t ranks);

/**
 * The lookahead of a partition: the smallest delay of a link between two
 * ranks (UINT64_MAX if none is cut). Throws std::invalid_argument naming a
 * cut link of zero delay.
 */
uint64_t PartitionLookaheadNs(const TopologySpec& topo, const std::vector<uint32_t>& rankOf);

/// Nodes per rank, for the programs' start-up line.
std::vector<uint32_t> PartitionSizes(const std::vector<uint32_t>& rankOf, uint32_t ranks);

/// nodeLoad summed per rank (nodeLoad one figure per node of rankOf).
std::vector<uint64_t> PartitionLoads(const std::vector<uint32_t>& rankOf, uint32_t ranks,
                                     const std::vector<uint64_t>& nodeLoad);

} // namespace ns3

#endif // RDMA_PARTITION_H
