// SPDX-License-Identifier: GPL-2.0-only

#include "rdma-trace.h"

#include "hpcc-format.h"
#include "rank-merge.h"

#include <sys/stat.h>

#include <ns3/simulator.h>

#include <algorithm>
#include <cinttypes>
#include <ns3/log.h>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaTraceHelper");

void
RdmaTraceHelper::SetRanks(uint32_t rank, uint32_t ranks, uint64_t lookaheadNs)
{
    m_sink.SetRanks(rank, ranks, lookaheadNs);
}

bool
RdmaTraceHelper::MergeRanks(std::string& err, const std::string& endStamp)
{
    return m_sink.MergeRanks(err, endStamp);
}

RdmaTraceHelper::RdmaTraceHelper(RdmaNetwork& net)
    : m_net(net)
    , m_qlen(net, m_sink)
    , m_packetTrace(net, m_sink)
{
    NS_LOG_FUNCTION(this);
}

RdmaTraceHelper::~RdmaTraceHelper()
{
    Close();
}

void
RdmaTraceHelper::Close()
{
    m_sampleEvent.Cancel();
    m_progressEvent.Cancel();
    RdmaTraceSink::Close(m_fct);
    RdmaTraceSink::Close(m_fctCsv);
    RdmaTraceSink::Close(m_ccVars);
    RdmaTraceSink::Close(m_pfc);
    RdmaTraceSink::Close(m_pfcCsv);
    m_qlen.Close(m_runEndNs);
    m_packetTrace.Close();
    RdmaTraceSink::Close(m_queue);
    RdmaTraceSink::Close(m_rate);
    RdmaTraceSink::Close(m_link);
}

void
RdmaTraceHelper::EnableFct(const std::string& fctPath, const std::string& csvPath)
{
    NS_LOG_FUNCTION(this << fctPath << csvPath);
    m_fct = m_sink.Open(fctPath, nullptr);
    m_fctCsv = m_sink.Open(csvPath, "flow,src,dst,size_bytes,start_ns,fct_ns,ideal_fct_ns,slowdown,"
                                    "retx_bytes,timeouts\n");
    HookFlowComplete();
}

void
RdmaTraceHelper::EnableCcVars(const std::string& csvPath)
{
    NS_LOG_FUNCTION(this << csvPath);
    m_ccVars =
        m_sink.Open(csvPath, nullptr); // the header names libcc's variables: at the first flow
    HookFlowComplete();
}

void
RdmaTraceHelper::HookFlowComplete()
{
    if (m_fctHooked)
    {
        return;
    }
    m_fctHooked = true;
    for (uint32_t id = 0; id < m_net.GetNNodes(); id++)
    {
        if (!m_net.IsSwitch(id))
        {
            m_net.GetNic(id)->TraceConnectWithoutContext(
                "FlowComplete", MakeCallback(&RdmaTraceHelper::OnFlowComplete, this));
        }
    }
}

bool
MakeOutputDir(const std::string& path)
{
    for (size_t i = 1; i <= path.size(); i++)
    {
        if (i == path.size() || path[i] == '/')
        {
            mkdir(path.substr(0, i).c_str(), 0755);
        }
    }
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

uint64_t
RdmaIdealFctNs(const RdmaFlowRecord& r)
{
    const RdmaFlowParams& f = r.flow;
    if (r.payloadBytes == 0)
    {
        return f.baseRttNs;
    }
    uint64_t packets = (f.sizeBytes + r.payloadBytes - 1) / r.payloadBytes;
    unsigned __int128 wireBytes =
        f.sizeBytes + static_cast<unsigned __int128>(packets) * r.overheadBytes;
    uint64_t lineNs = f.bottleneckBps
                          ? static_cast<uint64_t>(wireBytes * 8 * 1000000000ull / f.bottleneckBps)
                          : 0;
    return f.baseRttNs + lineNs;
}

uint64_t
HpccSimIdealFctNs(const RdmaNetwork& net, const RdmaFlowRecord& r)
{
    const RdmaFlowParams& f = r.flow;
    RdmaNetwork::PathInfo path = net.GetPath(f.srcNode, f.dstNode);
    uint32_t payload = r.payloadBytes ? r.payloadBytes : 1;
    return IdealFctNs(path.hpccBaseRttNs, f.sizeBytes, payload, HPCC_SIM_HEADER_BYTES,
                      f.bottleneckBps);
}

void
RdmaTraceHelper::OnFlowComplete(const RdmaFlowRecord& r)
{
    m_completed++;
    const RdmaFlowParams& f = r.flow;
    uint64_t idealFctNs =
        m_idealKind == IdealFctKind::HPCC_SIM ? HpccSimIdealFctNs(m_net, r) : RdmaIdealFctNs(r);
    if (m_ccVars)
    {
        if (!m_ccVarsHeader)
        {
            if (m_sink.IsDistributed())
            {
                WriteRankHeaderStamp(m_ccVars);
            }
            std::fprintf(m_ccVars, "flow,size_bytes,fct_ns,ideal_fct_ns");
            for (size_t i = 0; i < r.ccVars.size(); i++)
            {
                std::fprintf(m_ccVars, ",%s", r.ccVarDescs[i].name);
            }
            std::fprintf(m_ccVars, "\n");
            m_ccVarsHeader = true;
        }
        m_sink.Stamp(m_ccVars);
        std::fprintf(m_ccVars, "%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64, f.flowId, f.sizeBytes,
                     r.fctNs, idealFctNs);
        for (double v : r.ccVars)
        {
            std::fprintf(m_ccVars, ",%.6g", v);
        }
        std::fprintf(m_ccVars, "\n");
    }
    if (m_fct)
    {
        m_sink.Stamp(m_fct);
        WriteFctLine(m_fct, f.srcNode, f.dstNode, f.sport, f.dport, f.sizeBytes, f.startNs, r.fctNs,
                     idealFctNs);
    }
    if (m_fctCsv)
    {
        double slowdown = idealFctNs ? static_cast<double>(r.fctNs) / idealFctNs : 0;
        m_sink.Stamp(m_fctCsv);
        std::fprintf(m_fctCsv,
                     "%u,%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.4f,%" PRIu64
                     ",%" PRIu64 "\n",
                     f.flowId, f.srcNode, f.dstNode, f.sizeBytes, f.startNs, r.fctNs, idealFctNs,
                     slowdown < 1 ? 1.0 : slowdown, r.retransmittedBytes, r.timeouts);
    }
}

void
RdmaTraceHelper::EnablePfc(const std::string& pfcPath, const std::string& csvPath)
{
    NS_LOG_FUNCTION(this << pfcPath << csvPath);
    m_pfc = m_sink.Open(pfcPath, nullptr);
    m_pfcCsv = m_sink.Open(csvPath, "time_ns,node,node_type,if_index,prio,pause\n");
    if (m_pfcHooked)
    {
        return;
    }
    m_pfcHooked = true;
    for (const auto& d : m_net.GetDevices())
    {
        uint32_t node = m_net.TopoId(d->GetNode());
        uint32_t type = m_net.IsSwitch(node) ? 1 : 0;
        d->TraceConnectWithoutContext("PfcRx", MakeBoundCallback(&RdmaTraceHelper::OnPfcRx, this,
                                                                 node, type, d->GetIfIndex()));
    }
}

void
RdmaTraceHelper::OnPfcRx(RdmaTraceHelper* self, uint32_t node, uint32_t type, uint32_t ifIndex,
                         uint8_t prio, uint16_t quanta)
{
    bool pause = quanta > 0;
    self->m_pauses += pause ? 1 : 0;
    uint64_t ns = Simulator::Now().GetNanoSeconds();
    if (self->m_pfc)
    {
        // The HPCC simulator's nodes have ns-3's loopback as device 0, so its
        // links' devices count from 1; ours have no loopback.
        self->m_sink.Stamp(self->m_pfc);
        WritePfcLine(self->m_pfc, ns, node, type, ifIndex + 1, pause);
    }
    if (self->m_pfcCsv)
    {
        self->m_sink.Stamp(self->m_pfcCsv);
        std::fprintf(self->m_pfcCsv, "%" PRIu64 ",%u,%u,%u,%u,%d\n", ns, node, type, ifIndex, prio,
                     pause ? 1 : 0);
    }
}

void
RdmaTraceHelper::TrackLink(uint32_t a, uint32_t b)
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
RdmaTraceHelper::TrackAllSwitchLinks()
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
RdmaTraceHelper::EnableSampling(Time interval, const std::string& queueCsv,
                                const std::string& rateCsv, const std::string& linkCsv, Time start)
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
                                        &RdmaTraceHelper::Sample, this);
}

void
RdmaTraceHelper::Sample()
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
    m_sampleEvent = Simulator::Schedule(m_interval, &RdmaTraceHelper::Sample, this);
}

void
RdmaTraceHelper::EnableProgress(Time stop)
{
    NS_LOG_FUNCTION(this << stop);
    m_stop = stop;
    // A thousandth of the run, but at least one time step: a run shorter
    // than 1000 steps (--stop=1ns at ns resolution) made it 0, and the check
    // rescheduled itself at the same time forever.
    m_progressPeriod = std::max(stop / 1000, TimeStep(1));
    m_wallStart = std::chrono::steady_clock::now();
    m_lastPrint = m_wallStart;
    m_progressEvent = Simulator::Schedule(m_progressPeriod, &RdmaTraceHelper::Progress, this);
}

void
RdmaTraceHelper::Progress()
{
    auto now = std::chrono::steady_clock::now();
    if (now - m_lastPrint >= std::chrono::seconds(2))
    {
        m_lastPrint = now;
        double wall = std::chrono::duration<double>(now - m_wallStart).count();
        std::fprintf(
            stderr, "progress: simulated %.3f of %.3f ms, wall %.1f s, %" PRIu64 " flows done\n",
            Simulator::Now().GetSeconds() * 1e3, m_stop.GetSeconds() * 1e3, wall, m_completed);
    }
    if (Simulator::Now() + m_progressPeriod <= m_stop)
    {
        m_progressEvent = Simulator::Schedule(m_progressPeriod, &RdmaTraceHelper::Progress, this);
    }
}

void
RdmaTraceHelper::EnableQlen(const std::string& path, Time start, Time end, Time interval,
                            Time dumpEvery)
{
    m_qlen.Enable(path, start, end, interval, dumpEvery);
}

void
RdmaTraceHelper::EndRunAt(uint64_t endStep, bool byNode)
{
    m_runEndNs = TimeStep(static_cast<int64_t>(endStep)).GetNanoSeconds();
    m_qlen.EndRunAt(endStep, byNode);
}

void
RdmaTraceHelper::EnablePacketTrace(const std::string& path, const std::vector<uint32_t>& nodes)
{
    m_packetTrace.Enable(path, nodes);
}

} // namespace ns3
