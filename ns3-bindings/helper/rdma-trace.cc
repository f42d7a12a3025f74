// SPDX-License-Identifier: GPL-2.0-only

#include "rdma-trace.h"

#include "event-pool.h"
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
    , m_samples(net, m_sink)
{
    NS_LOG_FUNCTION(this);
}

RdmaTraceHelper::~RdmaTraceHelper()
{
    Close();
}

void
RdmaTraceHelper::StopProgress()
{
    if (m_progressEvent)
    {
        m_progressEvent->Cancel();
        m_progressEvent = nullptr;
    }
}

void
RdmaTraceHelper::Close()
{
    StopProgress();
    RdmaTraceSink::Close(m_fct);
    RdmaTraceSink::Close(m_fctCsv);
    RdmaTraceSink::Close(m_ccVars);
    RdmaTraceSink::Close(m_pfc);
    RdmaTraceSink::Close(m_pfcCsv);
    m_qlen.Close(m_runEndNs);
    m_packetTrace.Close();
    m_samples.Close();
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
    m_samples.TrackLink(a, b);
}

void
RdmaTraceHelper::TrackAllSwitchLinks()
{
    m_samples.TrackAllSwitchLinks();
}

void
RdmaTraceHelper::EnableSampling(Time interval, const std::string& queueCsv,
                                const std::string& rateCsv, const std::string& linkCsv, Time start)
{
    m_samples.Enable(interval, queueCsv, rateCsv, linkCsv, start);
}

class RdmaTraceHelper::ProgressEvent : public FastEvent
{
  public:
    explicit ProgressEvent(RdmaTraceHelper* helper)
        : m_helper(helper)
    {
    }

  protected:
    void Notify() override
    {
        m_helper->Progress();
    }

  private:
    RdmaTraceHelper* m_helper; //!< raw: Close cancels the event
};

void
RdmaTraceHelper::EnableProgress(Time stop)
{
    NS_LOG_FUNCTION(this << stop);
    m_stopStep = stop.GetTimeStep();
    // A thousandth of the run, but at least one time step: a run shorter
    // than 1000 steps (--stop=1ns at ns resolution) made it 0, and the check
    // rescheduled itself at the same time forever.
    m_progressSteps = std::max<int64_t>(m_stopStep / 1000, 1);
    m_wallStart = std::chrono::steady_clock::now();
    m_lastPrint = m_wallStart;
    StopProgress();
    m_progressEvent = Create<ProgressEvent>(this);
    ScheduleReusedSteps(SimContext(), m_progressSteps, PeekPointer(m_progressEvent));
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
            Simulator::Now().GetSeconds() * 1e3, TimeStep(m_stopStep).GetSeconds() * 1e3, wall, m_completed);
    }
    if (SimNowStep() + m_progressSteps <= m_stopStep)
    {
        ScheduleReusedSteps(SimContext(), m_progressSteps, PeekPointer(m_progressEvent));
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
