// SPDX-License-Identifier: GPL-2.0-only

#include "rdma-trace.h"

#include "hpcc-format.h"
#include "rank-merge.h"

#include "pfc-header.h"

#include <sys/stat.h>

#include <ns3/simulator.h>

#include <algorithm>
#include <cinttypes>
#include <ns3/log.h>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaTraceHelper");

namespace
{

std::FILE*
OpenFile(const std::string& path, const char* header)
{
    if (path.empty())
    {
        return nullptr;
    }
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f)
    {
        throw std::runtime_error("cannot write " + path);
    }
    if (header)
    {
        std::fputs(header, f);
    }
    return f;
}

void
CloseFile(std::FILE*& f)
{
    if (f)
    {
        std::fclose(f);
        f = nullptr;
    }
}

} // namespace

std::FILE*
RdmaTraceHelper::OpenOut(const std::string& path, const char* header, bool capped,
                         size_t recordBytes)
{
    if (m_ranks <= 1 || path.empty())
    {
        return OpenFile(path, header);
    }
    if (capped)
    {
        m_cappedOutputs.push_back(CappedRankFile{path, header ? header : "", recordBytes});
    }
    else
    {
        m_rankOutputs.emplace_back(path, header ? header : "");
    }
    return OpenFile(RankFilePath(path, m_rank), nullptr);
}

void
RdmaTraceHelper::Stamp(std::FILE* f) const
{
    if (m_ranks > 1)
    {
        WriteRankStamp(f);
    }
}

void
RdmaTraceHelper::SampleStamp(std::FILE* f, uint64_t index) const
{
    if (m_ranks > 1)
    {
        WriteRankSampleStamp(f, index);
    }
}

void
RdmaTraceHelper::SetRanks(uint32_t rank, uint32_t ranks, uint64_t lookaheadNs)
{
    m_rank = rank;
    m_ranks = ranks;
    m_lookaheadNs = lookaheadNs;
}

bool
RdmaTraceHelper::MergeRanks(std::string& err, const std::string& endStamp)
{
    for (const auto& o : m_rankOutputs)
    {
        if (!MergeRankFiles(o.first, m_ranks, o.second, err, endStamp))
        {
            return false;
        }
    }
    if (m_cappedOutputs.empty())
    {
        return true;
    }
    RankCapResult cap;
    if (!MergeCappedRankFiles(m_cappedOutputs, m_ranks, m_maxTraceBytes, m_setupTraceBytes, err,
                              endStamp, cap))
    {
        return false;
    }
    m_traceBytes = cap.bytes;
    m_capped = cap.capped;
    if (cap.capped)
    {
        WarnCapped(cap.ts);
    }
    return true;
}

void
RdmaTraceHelper::WarnCapped(uint64_t step) const
{
    std::fprintf(stderr,
                 "warning: the traces reached %" PRIu64 " bytes (--maxTraceBytes) at %.6f s "
                 "simulated: the sampled CSVs, qlen and packet trace stop here; fct and pfc "
                 "files go on\n",
                 m_maxTraceBytes, TimeStep(static_cast<int64_t>(step)).GetSeconds());
}

RdmaTraceHelper::RdmaTraceHelper(RdmaNetwork& net)
    : m_net(net)
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
    CloseFile(m_fct);
    CloseFile(m_fctCsv);
    CloseFile(m_ccVars);
    CloseFile(m_pfc);
    CloseFile(m_pfcCsv);
    // Over ranks the merge decides: this rank may have crossed the whole
    // cap only with what it ran past one process's end (left out).
    if (m_qlen && m_qlenUndumped && (!m_capped || m_ranks > 1))
    {
        QlenDump(m_runEndNs >= 0 ? m_runEndNs : Simulator::Now().GetNanoSeconds(), true);
    }
    m_qlenEvent.Cancel();
    CloseFile(m_qlen);
    CloseFile(m_tr);
    CloseFile(m_queue);
    CloseFile(m_rate);
    CloseFile(m_link);
}

void
RdmaTraceHelper::EnableFct(const std::string& fctPath, const std::string& csvPath)
{
    NS_LOG_FUNCTION(this << fctPath << csvPath);
    m_fct = OpenOut(fctPath, nullptr);
    m_fctCsv = OpenOut(csvPath, "flow,src,dst,size_bytes,start_ns,fct_ns,ideal_fct_ns,slowdown,"
                                "retx_bytes,timeouts\n");
    HookFlowComplete();
}

void
RdmaTraceHelper::EnableCcVars(const std::string& csvPath)
{
    NS_LOG_FUNCTION(this << csvPath);
    m_ccVars = OpenOut(csvPath, nullptr); // the header names libcc's variables: at the first flow
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
    unsigned __int128 wireBytes = f.sizeBytes + static_cast<unsigned __int128>(packets) * r.overheadBytes;
    uint64_t lineNs = f.bottleneckBps ? static_cast<uint64_t>(wireBytes * 8 * 1000000000ull /
                                                              f.bottleneckBps)
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
            if (m_ranks > 1)
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
        Stamp(m_ccVars);
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
        Stamp(m_fct);
        WriteFctLine(m_fct, f.srcNode, f.dstNode, f.sport, f.dport, f.sizeBytes, f.startNs, r.fctNs,
                     idealFctNs);
    }
    if (m_fctCsv)
    {
        double slowdown = idealFctNs ? static_cast<double>(r.fctNs) / idealFctNs : 0;
        Stamp(m_fctCsv);
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
    m_pfc = OpenOut(pfcPath, nullptr);
    m_pfcCsv = OpenOut(csvPath, "time_ns,node,node_type,if_index,prio,pause\n");
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
        self->Stamp(self->m_pfc);
        WritePfcLine(self->m_pfc, ns, node, type, ifIndex + 1, pause);
    }
    if (self->m_pfcCsv)
    {
        self->Stamp(self->m_pfcCsv);
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
    m_queue = OpenOut(queueCsv, "time_ns,node,port,bytes\n", true);
    m_rate = OpenOut(rateCsv, "time_ns,flow,rate_bps,window_bytes\n", true);
    m_link = OpenOut(linkCsv, "time_ns,node,peer,utilization\n", true);
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

bool
RdmaTraceHelper::Spend(uint64_t bytes)
{
    m_traceBytes += bytes;
    // Over ranks each counts its own bytes against the whole cap: its
    // records up to one process's cut are all there, and the merge cuts.
    if (m_maxTraceBytes == 0 || m_traceBytes <= m_maxTraceBytes || m_capped)
    {
        return !m_capped;
    }
    m_capped = true;
    if (m_ranks <= 1)
    {
        WarnCapped(static_cast<uint64_t>(Simulator::Now().GetTimeStep()));
    }
    return false;
}

void
RdmaTraceHelper::Sample()
{
    if (m_capped)
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
                SampleStamp(m_queue, i);
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
            SampleStamp(m_rate, m_activeIndex[i]);
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
            SampleStamp(m_link, i);
            uint64_t tx = l.dev->GetTxBytes();
            double util = secs > 0 ? (tx - l.lastTx) * 8.0 / secs /
                                         static_cast<double>(l.dev->GetDataRate().GetBitRate())
                                   : 0;
            l.lastTx = tx;
            bytes += std::fprintf(m_link, "%" PRIu64 ",%u,%u,%.4f\n", ns, l.node, l.peer, util);
        }
    }
    if (!Spend(bytes))
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
    m_qlen = OpenOut(path, nullptr, true);
    m_qlenEnd = end;
    m_qlenInterval = interval;
    m_qlenDumpNs = dumpEvery.GetNanoSeconds();
    m_qlenPorts.clear();
    m_qlenRecent.clear();
    uint32_t index = 0;
    for (uint32_t id = 0; id < m_net.GetNNodes(); id++)
    {
        if (m_net.IsSwitch(id))
        {
            Ptr<SwitchNode> sw = m_net.GetSwitch(id);
            for (uint32_t p = 0; p < sw->GetNPorts(); p++, index++)
            {
                if (m_net.IsLocal(id)) // over ranks, each its own switches
                {
                    m_qlenPorts.push_back(QlenPort{sw, id, p, {}, index});
                }
            }
        }
    }
    m_qlenEvent.Cancel();
    m_qlenEvent = Simulator::Schedule(std::max(start - Simulator::Now(), Time(0)),
                                      &RdmaTraceHelper::QlenSample, this);
}

void
RdmaTraceHelper::QlenSample()
{
    if (m_capped)
    {
        return;
    }
    int64_t step = Simulator::Now().GetTimeStep();
    QlenRecent* recent = nullptr;
    if (m_ranks > 1)
    {
        // A rank runs at most a lookahead past one process's end: older
        // samples are one process's for sure.
        uint64_t aheadNs = std::min<uint64_t>(m_lookaheadNs, 1000000000000ull); // no cut: all
        int64_t keep = NanoSeconds(static_cast<int64_t>(aheadNs)).GetTimeStep() +
                       m_qlenInterval.GetTimeStep();
        size_t old = 0;
        while (old < m_qlenRecent.size() && m_qlenRecent[old].step < step - keep)
        {
            m_qlenUndumpedBefore = m_qlenRecent[old++].undumpedAfter;
        }
        m_qlenRecent.erase(m_qlenRecent.begin(), m_qlenRecent.begin() + old);
        m_qlenRecent.push_back(QlenRecent{step, true, {}});
        recent = &m_qlenRecent.back();
        recent->kb.reserve(m_qlenPorts.size());
    }
    for (QlenPort& q : m_qlenPorts)
    {
        // Whole KB (1000 bytes), as that simulator counts them.
        uint64_t kb = q.sw->GetPortQueueBytes(q.port) / 1000;
        if (q.countPerKb.size() <= kb)
        {
            q.countPerKb.resize(kb + 1);
        }
        q.countPerKb[kb]++;
        if (recent)
        {
            recent->kb.push_back(static_cast<uint32_t>(kb));
        }
    }
    m_qlenUndumped = true;
    int64_t ns = Simulator::Now().GetNanoSeconds();
    if (m_qlenDumpNs > 0 && ns % m_qlenDumpNs == 0)
    {
        QlenDump(ns);
    }
    if (recent)
    {
        recent->undumpedAfter = m_qlenUndumped;
    }
    if (Simulator::Now() < m_qlenEnd)
    {
        m_qlenEvent = Simulator::Schedule(m_qlenInterval, &RdmaTraceHelper::QlenSample, this);
    }
}

void
RdmaTraceHelper::EndRunAt(uint64_t endStep, bool byNode)
{
    m_runEndNs = TimeStep(static_cast<int64_t>(endStep)).GetNanoSeconds();
    // A sampler runs after the nodes' events of its time: at the time of a
    // node's last vote, one process had stopped before it.
    auto past = [&](int64_t step) {
        return step > static_cast<int64_t>(endStep) ||
               (byNode && step == static_cast<int64_t>(endStep));
    };
    while (!m_qlenRecent.empty() && past(m_qlenRecent.back().step))
    {
        const QlenRecent& r = m_qlenRecent.back();
        for (size_t i = 0; i < m_qlenPorts.size(); i++)
        {
            m_qlenPorts[i].countPerKb[r.kb[i]]--;
        }
        m_qlenRecent.pop_back();
    }
    if (m_qlen)
    {
        m_qlenUndumped =
            m_qlenRecent.empty() ? m_qlenUndumpedBefore : m_qlenRecent.back().undumpedAfter;
    }
}

void
RdmaTraceHelper::QlenDump(uint64_t ns, bool final)
{
    // "time: T", then per switch port "node port n0 n1 ...": n_i samples
    // with i KB queued since the window opened. Ports count from 1 as the
    // HPCC simulator's (its loopback is device 0). Over ranks: each rank's
    // own ports, the time line rank 0's, each stamped with its line's index.
    auto stamp = [&](uint64_t index) {
        if (m_ranks > 1)
        {
            final ? WriteRankTrailerStamp(m_qlen, index, SAMPLER_QLEN)
                  : WriteRankSampleStamp(m_qlen, index, SAMPLER_QLEN);
        }
    };
    uint64_t bytes = 0;
    if (m_rank == 0)
    {
        stamp(0);
        bytes += std::fprintf(m_qlen, "time: %" PRIu64 "\n", ns);
    }
    for (const QlenPort& q : m_qlenPorts)
    {
        stamp(q.index + 1);
        bytes += std::fprintf(m_qlen, "%u %u", q.node, q.port + 1);
        for (uint32_t c : q.countPerKb)
        {
            bytes += std::fprintf(m_qlen, " %u", c);
        }
        bytes += std::fprintf(m_qlen, "\n");
    }
    std::fflush(m_qlen);
    m_qlenUndumped = false;
    Spend(bytes);
}

namespace
{

// The HPCC simulator's TraceFormat (its trace-format.h), as its
// analysis/trace_reader reads it with fread on x86-64: 56 bytes, little
// endian, the union of per-type fields at offset 32.
constexpr size_t TR_BYTES = 56;
constexpr uint8_t TR_RECV = 0;
constexpr uint8_t TR_DEQU = 2;

template <typename T>
void
Put(uint8_t* b, size_t off, T v)
{
    for (size_t i = 0; i < sizeof(T); i++)
    {
        b[off + i] = static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * i));
    }
}

} // namespace

void
RdmaTraceHelper::EnablePacketTrace(const std::string& path, const std::vector<uint32_t>& nodes)
{
    for (uint32_t id : nodes)
    {
        if (id >= m_net.GetNNodes())
        {
            throw std::invalid_argument("trace node " + std::to_string(id) +
                                        " is not a node of the topology (0.." +
                                        std::to_string(m_net.GetNNodes() - 1) + ")");
        }
    }
    m_tr = OpenOut(path, nullptr, true, TR_BYTES);
    // The header that simulator writes (its SimSetting): the count of
    // ports, then per port node (u16), interface (u8, from 1) and bits/s
    // (u64), packed; then the largest BDP of any host pair (u32), by its
    // pairRtt x bottleneck / 8.
    std::vector<uint8_t> head(4);
    uint32_t nPorts = 0;
    for (const Ptr<QbbNetDevice>& d : m_net.GetDevices())
    {
        uint8_t e[11];
        Put<uint16_t>(e, 0, m_net.TopoId(d->GetNode()));
        Put<uint8_t>(e, 2, d->GetIfIndex() + 1);
        Put<uint64_t>(e, 3, d->GetDataRate().GetBitRate());
        head.insert(head.end(), e, e + 11);
        nPorts++;
    }
    Put<uint32_t>(head.data(), 0, nPorts);
    uint64_t maxBdp = 0;
    std::vector<uint32_t> hosts;
    for (uint32_t id = 0; id < m_net.GetNNodes(); id++)
    {
        if (!m_net.IsSwitch(id))
        {
            hosts.push_back(id);
        }
    }
    for (uint32_t a : hosts)
    {
        for (uint32_t b : hosts)
        {
            if (a != b)
            {
                RdmaNetwork::PathInfo p = m_net.GetPath(a, b);
                maxBdp =
                    std::max<uint64_t>(maxBdp, p.hpccBaseRttNs * p.bottleneckBps / 8000000000ull);
            }
        }
    }
    uint8_t w[4];
    Put<uint32_t>(w, 0, static_cast<uint32_t>(std::min<uint64_t>(maxBdp, UINT32_MAX)));
    head.insert(head.end(), w, w + 4);
    if (m_ranks > 1)
    {
        // Written once by the merge; every rank counts it, as one process.
        m_cappedOutputs.back().header.assign(head.begin(), head.end());
        m_setupTraceBytes = head.size();
    }
    else
    {
        std::fwrite(head.data(), 1, head.size(), m_tr);
    }
    Spend(head.size());
    // Flow ports: frames carry the flow's source port, not its dport.
    m_trFlows.clear();
    for (const Ptr<RdmaTxQueuePair>& qp : m_net.GetFlows())
    {
        const RdmaFlowParams& f = qp->GetFlow();
        m_trFlows[uint64_t(HpccNodeIp(f.dstNode)) << 32 | qp->GetPeerQpn()] = &f;
        m_trFlows[uint64_t(HpccNodeIp(f.srcNode)) << 32 | qp->GetLocalQpn()] = &f;
    }
    for (uint32_t id : nodes)
    {
        for (const Ptr<QbbNetDevice>& d : m_net.GetDevices())
        {
            if (m_net.TopoId(d->GetNode()) == id)
            {
                // A raw pointer: a Ptr bound into the device's own trace
                // source would keep the device alive forever (a cycle).
                d->TraceConnectWithoutContext(
                    "Frame", MakeBoundCallback(&RdmaTraceHelper::OnFrame, this,
                                               static_cast<const QbbNetDevice*>(PeekPointer(d)), id));
            }
        }
    }
}

void
RdmaTraceHelper::OnFrame(RdmaTraceHelper* self, const QbbNetDevice* dev, uint32_t node,
                         const QbbFrame* frame, bool outgoing)
{
    if (self->m_capped || !self->m_tr)
    {
        return;
    }
    uint8_t b[TR_BYTES] = {};
    const RocePacketInfo& r = frame->roce;
    uint8_t prio = frame->macControl || frame->packet ? 0 : r.prio;
    uint8_t qidx = outgoing ? prio : 0;
    Put<uint64_t>(b, 0, Simulator::Now().GetNanoSeconds());
    Put<uint16_t>(b, 8, node);
    Put<uint8_t>(b, 10, dev->GetIfIndex() + 1);
    Put<uint8_t>(b, 11, qidx);
    Put<uint32_t>(b, 12, static_cast<uint32_t>(dev->GetQueueBytes(qidx)));
    Put<uint16_t>(b, 24, 14 + frame->ipBytes); // Ethernet header + IP packet
    Put<uint8_t>(b, 27, outgoing ? TR_DEQU : TR_RECV);
    Put<uint8_t>(b, 29, self->m_net.IsSwitch(node) ? 1 : 0);
    if (frame->macControl)
    {
        PfcPauseHeader pfc;
        Ptr<Packet> body = frame->packet->Copy();
        body->RemoveHeader(pfc);
        for (uint8_t p = 0; p < QBB_N_PRIO; p++)
        {
            if (pfc.IsEnabled(p))
            {
                Put<uint32_t>(b, 32, pfc.GetQuanta(p)); // pfc.time
                Put<uint8_t>(b, 40, p);                 // pfc.qIndex
                break;
            }
        }
        Put<uint8_t>(b, 26, 0xFE);
    }
    else if (!frame->packet)
    {
        Put<uint32_t>(b, 16, r.src.Get());
        Put<uint32_t>(b, 20, r.dst.Get());
        Put<uint8_t>(b, 28, r.ecn & 3);
        auto it = self->m_trFlows.find(uint64_t(r.dst.Get()) << 32 | r.destQp);
        const RdmaFlowParams* f = it == self->m_trFlows.end() ? nullptr : it->second;
        uint16_t sport = f ? f->sport : r.sport;
        uint16_t dport = f ? f->dport : r.dport;
        switch (r.type)
        {
        case RocePktType::DATA:
        case RocePktType::PROBE:
            Put<uint8_t>(b, 26, 0x11);
            Put<uint16_t>(b, 32, sport);
            Put<uint16_t>(b, 34, dport);
            Put<uint32_t>(b, 36, static_cast<uint32_t>(r.seq));
            Put<uint16_t>(b, 48, r.prio);
            Put<uint16_t>(b, 50, r.payloadBytes);
            break;
        case RocePktType::ACK:
        case RocePktType::NACK:
            // From the receiver: its ports swapped, as that simulator's ACKs.
            Put<uint8_t>(b, 26, r.type == RocePktType::ACK ? 0xFC : 0xFD);
            Put<uint16_t>(b, 32, dport);
            Put<uint16_t>(b, 34, sport);
            Put<uint16_t>(b, 36, r.ecnEcho ? 1 : 0);
            Put<uint16_t>(b, 38, r.prio);
            Put<uint32_t>(b, 40, static_cast<uint32_t>(r.ackSeq));
            break;
        case RocePktType::CNP:
            Put<uint8_t>(b, 26, 0xFF);
            Put<uint16_t>(b, 32, sport); // cnp.fid
            Put<uint8_t>(b, 34, r.prio); // cnp.qIndex
            break;
        default:
            Put<uint8_t>(b, 26, 0x11);
            break;
        }
    }
    else
    {
        return; // a Packet-based test host's frame: not RoCEv2 fields
    }
    if (self->Spend(TR_BYTES))
    {
        self->Stamp(self->m_tr);
        std::fwrite(b, 1, TR_BYTES, self->m_tr);
    }
}

} // namespace ns3
