// SPDX-License-Identifier: GPL-2.0-only

#include "rdma-sampled-csv.h"

#include <ns3/log.h>
#include <ns3/simulator.h>

#include <algorithm>
#include <cinttypes>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaSampledCsvs");

RdmaSampledCsvs::RdmaSampledCsvs(RdmaNetwork& net, RdmaTraceSink& sink)
    : m_net(net)
    , m_sink(sink)
{
}

void
RdmaSampledCsvs::Close()
{
    m_sampleEvent.Cancel();
    RdmaTraceSink::Close(m_queue);
    RdmaTraceSink::Close(m_rate);
    RdmaTraceSink::Close(m_link);
}

void
RdmaSampledCsvs::TrackLink(uint32_t a, uint32_t b)
{
    NS_LOG_FUNCTION(this << a << b);
    Ptr<QbbNetDevice> d = m_net.GetLinkDevice(a, b);
    if (!d)
    {
        throw std::invalid_argument("no link " + std::to_string(a) + " -> " + std::to_string(b));
    }
    m_links.push_back(LinkRef{d, a, b, d->GetTxBytes()});
}

void
RdmaSampledCsvs::TrackAllSwitchLinks()
{
    for (const TopologyLinkSpec& l : m_net.GetTopology().links)
    {
        if (m_net.IsSwitch(l.a))
        {
            TrackLink(l.a, l.b);
        }
        if (m_net.IsSwitch(l.b))
        {
            TrackLink(l.b, l.a);
        }
    }
}

void
RdmaSampledCsvs::Enable(Time interval, const std::string& queueCsv, const std::string& rateCsv,
                        const std::string& linkCsv, Time start)
{
    NS_LOG_FUNCTION(this << interval << queueCsv);
    m_interval = interval;
    m_queue = m_sink.Open(queueCsv, "time_ns,node,port,bytes\n", true);
    m_rate = m_sink.Open(rateCsv, "time_ns,flow,rate_bps,window_bytes\n", true);
    m_link = m_sink.Open(linkCsv, "time_ns,node,peer,utilization\n", true);
    m_ports.clear();
    for (uint32_t id = 0; id < m_net.GetNNodes(); id++)
    {
        if (m_net.IsSwitch(id))
        {
            Ptr<SwitchNode> sw = m_net.GetSwitch(id);
            for (uint32_t p = 0; p < sw->GetNPorts(); p++)
            {
                m_ports.push_back(PortRef{sw, id, p, UINT64_MAX, m_net.IsLocal(id)});
            }
        }
    }
    m_pending = m_net.GetFlows();
    std::stable_sort(m_pending.begin(), m_pending.end(),
                     [](const Ptr<RdmaTxQueuePair>& a, const Ptr<RdmaTxQueuePair>& b) {
                         return a->GetFlow().startNs < b->GetFlow().startNs;
                     });
    m_nextPending = 0;
    m_activeFlows.clear();
    m_activeIndex.clear();
    m_sampleEvent.Cancel();
    m_sampleEvent = Simulator::Schedule(std::max(start - Simulator::Now(), Time(0)),
                                        &RdmaSampledCsvs::Sample, this);
}

void
RdmaSampledCsvs::Sample()
{
    if (m_sink.IsCapped())
    {
        return;
    }
    uint64_t ns = Simulator::Now().GetNanoSeconds();
    uint64_t bytes = 0;
    if (m_queue)
    {
        for (size_t i = 0; i < m_ports.size(); i++)
        {
            PortRef& p = m_ports[i];
            uint64_t b = p.local ? p.sw->GetPortQueueBytes(p.port) : p.last;
            if (b != p.last)
            {
                m_sink.SampleStamp(m_queue, i);
                bytes +=
                    std::fprintf(m_queue, "%" PRIu64 ",%u,%u,%" PRIu64 "\n", ns, p.node, p.port, b);
                p.last = b;
            }
        }
    }
    if (m_rate)
    {
        while (m_nextPending < m_pending.size() &&
               m_pending[m_nextPending]->GetFlow().startNs <= ns)
        {
            // Over ranks, a flow is sampled by the rank of its sender.
            if (m_net.IsLocal(m_pending[m_nextPending]->GetFlow().srcNode))
            {
                m_activeFlows.push_back(m_pending[m_nextPending]);
                m_activeIndex.push_back(static_cast<uint32_t>(m_nextPending));
            }
            m_nextPending++;
        }
        size_t keep = 0;
        for (size_t i = 0; i < m_activeFlows.size(); i++)
        {
            const Ptr<RdmaTxQueuePair>& qp = m_activeFlows[i];
            uint64_t w = qp->GetWindow();
            // A finished flow gets one last row with rate 0, then leaves.
            m_sink.SampleStamp(m_rate, m_activeIndex[i]);
            bytes += std::fprintf(m_rate, "%" PRIu64 ",%u,%" PRIu64 ",%" PRId64 "\n", ns,
                                  qp->GetFlow().flowId, qp->IsFinished() ? 0 : qp->GetRate(),
                                  w == LIBCC_WINDOW_UNLIMITED ? int64_t(-1) : int64_t(w));
            if (!qp->IsFinished())
            {
                m_activeIndex[keep] = m_activeIndex[i];
                m_activeFlows[keep++] = qp;
            }
        }
        m_activeFlows.resize(keep);
        m_activeIndex.resize(keep);
    }
    if (m_link)
    {
        double secs = m_interval.GetSeconds();
        for (size_t i = 0; i < m_links.size(); i++)
        {
            LinkRef& l = m_links[i];
            if (!m_net.IsLocal(l.node))
            {
                continue;
            }
            m_sink.SampleStamp(m_link, i);
            uint64_t tx = l.dev->GetTxBytes();
            double util = secs > 0 ? (tx - l.lastTx) * 8.0 / secs /
                                         static_cast<double>(l.dev->GetDataRate().GetBitRate())
                                   : 0;
            l.lastTx = tx;
            bytes += std::fprintf(m_link, "%" PRIu64 ",%u,%u,%.4f\n", ns, l.node, l.peer, util);
        }
    }
    if (!m_sink.Spend(bytes))
    {
        return;
    }
    m_sampleEvent = Simulator::Schedule(m_interval, &RdmaSampledCsvs::Sample, this);
}

} // namespace ns3
