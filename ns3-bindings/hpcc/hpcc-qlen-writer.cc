// SPDX-License-Identifier: GPL-2.0-only

#include "hpcc-qlen-writer.h"

#include <ns3/log.h>
#include <ns3/simulator.h>

#include <algorithm>
#include <cinttypes>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccQlenWriter");

HpccQlenWriter::HpccQlenWriter(RdmaNetwork& net, RdmaTraceSink& sink)
    : m_net(net)
    , m_sink(sink)
{
}

void
HpccQlenWriter::Enable(const std::string& path, Time start, Time end, Time interval, Time dumpEvery)
{
    NS_LOG_FUNCTION(this << path << start << end << interval << dumpEvery);
    m_file = m_sink.Open(path, nullptr, true);
    m_end = end;
    m_interval = interval;
    m_dumpNs = dumpEvery.GetNanoSeconds();
    m_ports.clear();
    m_recent.clear();
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
                    m_ports.push_back(Port{sw, id, p, {}, index});
                }
            }
        }
    }
    m_event.Cancel();
    m_event = Simulator::Schedule(std::max(start - Simulator::Now(), Time(0)),
                                  &HpccQlenWriter::Sample, this);
}

void
HpccQlenWriter::Sample()
{
    if (m_sink.IsCapped())
    {
        return;
    }
    int64_t step = Simulator::Now().GetTimeStep();
    Recent* recent = nullptr;
    if (m_sink.IsDistributed())
    {
        // A rank runs at most a lookahead past one process's end: older
        // samples are one process's for sure.
        uint64_t aheadNs = std::min<uint64_t>(m_sink.GetLookaheadNs(), 1000000000000ull);
        int64_t keep =
            NanoSeconds(static_cast<int64_t>(aheadNs)).GetTimeStep() + m_interval.GetTimeStep();
        size_t old = 0;
        while (old < m_recent.size() && m_recent[old].step < step - keep)
        {
            m_undumpedBefore = m_recent[old++].undumpedAfter;
        }
        m_recent.erase(m_recent.begin(), m_recent.begin() + old);
        m_recent.push_back(Recent{step, true, {}});
        recent = &m_recent.back();
        recent->kb.reserve(m_ports.size());
    }
    for (Port& q : m_ports)
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
    m_undumped = true;
    int64_t ns = Simulator::Now().GetNanoSeconds();
    if (m_dumpNs > 0 && ns % m_dumpNs == 0)
    {
        Dump(ns);
    }
    if (recent)
    {
        recent->undumpedAfter = m_undumped;
    }
    if (Simulator::Now() < m_end)
    {
        m_event = Simulator::Schedule(m_interval, &HpccQlenWriter::Sample, this);
    }
}

void
HpccQlenWriter::EndRunAt(uint64_t endStep, bool byNode)
{
    // A sampler runs after the nodes' events of its time: at the time of a
    // node's last vote, one process had stopped before it.
    auto past = [&](int64_t step) {
        return step > static_cast<int64_t>(endStep) ||
               (byNode && step == static_cast<int64_t>(endStep));
    };
    while (!m_recent.empty() && past(m_recent.back().step))
    {
        const Recent& r = m_recent.back();
        for (size_t i = 0; i < m_ports.size(); i++)
        {
            m_ports[i].countPerKb[r.kb[i]]--;
        }
        m_recent.pop_back();
    }
    if (m_file)
    {
        m_undumped = m_recent.empty() ? m_undumpedBefore : m_recent.back().undumpedAfter;
    }
}

void
HpccQlenWriter::Close(int64_t runEndNs)
{
    // Over ranks the merge decides: this rank may have crossed the whole
    // cap only with what it ran past one process's end (left out).
    if (m_file && m_undumped && (!m_sink.IsCapped() || m_sink.IsDistributed()))
    {
        Dump(runEndNs >= 0 ? runEndNs : Simulator::Now().GetNanoSeconds(), true);
    }
    m_event.Cancel();
    RdmaTraceSink::Close(m_file);
}

void
HpccQlenWriter::Dump(uint64_t ns, bool final)
{
    // "time: T", then per switch port "node port n0 n1 ...": n_i samples
    // with i KB queued since the window opened. Over ranks: each rank's
    // own ports, the time line rank 0's, each stamped with its line's index.
    auto stamp = [&](uint64_t index) {
        if (m_sink.IsDistributed())
        {
            final ? WriteRankTrailerStamp(m_file, index, SAMPLER_QLEN)
                  : WriteRankSampleStamp(m_file, index, SAMPLER_QLEN);
        }
    };
    uint64_t bytes = 0;
    if (m_sink.GetRank() == 0)
    {
        stamp(0);
        bytes += std::fprintf(m_file, "time: %" PRIu64 "\n", ns);
    }
    for (const Port& q : m_ports)
    {
        stamp(q.index + 1);
        bytes += std::fprintf(m_file, "%u %u", q.node, q.port + 1);
        for (uint32_t c : q.countPerKb)
        {
            bytes += std::fprintf(m_file, " %u", c);
        }
        bytes += std::fprintf(m_file, "\n");
    }
    std::fflush(m_file);
    m_undumped = false;
    m_sink.Spend(bytes);
}

} // namespace ns3
