// SPDX-License-Identifier: GPL-2.0-only
//
// HpccPacketTrace: the HPCC simulator's binary packet trace (mix.tr, its
// TRACE_OUTPUT_FILE) of the devices of chosen nodes: its header (every
// port's node, interface and rate; the largest BDP of a host pair), then a
// 56-byte record per frame received (Recv) or sent (Dequ), as that
// simulator's analysis/trace_reader reads them (ours: analysis/
// trace_reader.py). A capped output of an RdmaTraceSink.

#ifndef HPCC_PACKET_TRACE_H
#define HPCC_PACKET_TRACE_H

#include "rdma-network.h"
#include "rdma-trace-sink.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class HpccPacketTrace
{
  public:
    HpccPacketTrace(RdmaNetwork& net, RdmaTraceSink& sink);

    /// Trace the devices of these topology nodes into path; throws
    /// std::invalid_argument for an unknown id.
    void Enable(const std::string& path, const std::vector<uint32_t>& nodes);
    void Close();

  private:
    static void OnFrame(HpccPacketTrace* self, const QbbNetDevice* dev, uint32_t node,
                        const QbbFrame* frame, bool outgoing);

    RdmaNetwork& m_net;
    RdmaTraceSink& m_sink;
    std::FILE* m_file = nullptr;
    /// (dst address << 32 | dest QP) of a data or ACK frame -> its flow
    std::unordered_map<uint64_t, const RdmaFlowParams*> m_flows;
};

} // namespace ns3

#endif
