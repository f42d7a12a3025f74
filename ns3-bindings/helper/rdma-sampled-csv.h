// SPDX-License-Identifier: GPL-2.0-only
//
// RdmaSampledCsvs: the sampled CSVs of a run on one sampling clock (one
// event every interval writes all three): queue.csv (every switch port's
// egress bytes, a row when the value changed), rate.csv (every active
// flow's rate and window; a finished flow gets one last row) and link.csv
// (tracked links' tx share of the line rate over the last interval).
// Capped outputs of an RdmaTraceSink; over ranks each rank samples its own
// nodes and flows.

#ifndef RDMA_SAMPLED_CSV_H
#define RDMA_SAMPLED_CSV_H

#include "rdma-network.h"
#include "rdma-trace-sink.h"

#include <ns3/event-id.h>
#include <ns3/nstime.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace ns3
{

class RdmaSampledCsvs
{
  public:
    RdmaSampledCsvs(RdmaNetwork& net, RdmaTraceSink& sink);

    /// The CSVs ("" to skip one), sampled every interval from start.
    void Enable(Time interval, const std::string& queueCsv, const std::string& rateCsv,
                const std::string& linkCsv, Time start);
    /// Track the utilisation of the egress of node a towards node b.
    void TrackLink(uint32_t a, uint32_t b);
    /// Track every switch egress (both directions of switch-switch links).
    void TrackAllSwitchLinks();
    /// Stop sampling and close the files.
    void Close();

  private:
    void Sample();

    RdmaNetwork& m_net;
    RdmaTraceSink& m_sink;
    std::FILE* m_queue = nullptr;
    std::FILE* m_rate = nullptr;
    std::FILE* m_link = nullptr;
    Time m_interval;
    EventId m_sampleEvent;
    struct PortRef
    {
        Ptr<SwitchNode> sw;
        uint32_t node;
        uint32_t port;
        uint64_t last;
        bool local; ///< simulated by this rank (always, in one process)
    };
    std::vector<PortRef> m_ports;
    struct LinkRef
    {
        Ptr<QbbNetDevice> dev;
        uint32_t node;
        uint32_t peer;
        uint64_t lastTx;
    };
    std::vector<LinkRef> m_links;
    // Flows for rate.csv: not yet started (by start time) and active, so a
    // sample costs the active flows, not every flow of the run.
    std::vector<Ptr<RdmaTxQueuePair>> m_pending;
    size_t m_nextPending = 0;
    std::vector<Ptr<RdmaTxQueuePair>> m_activeFlows;
    std::vector<uint32_t> m_activeIndex; ///< each active flow's place in m_pending
};

} // namespace ns3

#endif
