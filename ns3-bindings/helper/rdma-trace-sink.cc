// SPDX-License-Identifier: GPL-2.0-only

#include "rdma-trace-sink.h"

#include <ns3/log.h>
#include <ns3/nstime.h>
#include <ns3/simulator.h>

#include <cinttypes>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaTraceSink");

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

} // namespace

void
RdmaTraceSink::Close(std::FILE*& f)
{
    if (f)
    {
        std::fclose(f);
        f = nullptr;
    }
}

std::FILE*
RdmaTraceSink::Open(const std::string& path, const char* header, bool capped, size_t recordBytes)
{
    NS_LOG_FUNCTION(this << path << capped);
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
RdmaTraceSink::SetCappedHeader(const std::vector<uint8_t>& header)
{
    m_cappedOutputs.back().header.assign(header.begin(), header.end());
    m_setupTraceBytes = header.size();
}

void
RdmaTraceSink::Stamp(std::FILE* f) const
{
    if (m_ranks > 1)
    {
        WriteRankStamp(f);
    }
}

void
RdmaTraceSink::SampleStamp(std::FILE* f, uint64_t index) const
{
    if (m_ranks > 1)
    {
        WriteRankSampleStamp(f, index);
    }
}

void
RdmaTraceSink::SetRanks(uint32_t rank, uint32_t ranks, uint64_t lookaheadNs)
{
    m_rank = rank;
    m_ranks = ranks;
    m_lookaheadNs = lookaheadNs;
}

bool
RdmaTraceSink::MergeRanks(std::string& err, const std::string& endStamp)
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
RdmaTraceSink::WarnCapped(uint64_t step) const
{
    std::fprintf(stderr,
                 "warning: the traces reached %" PRIu64 " bytes (--maxTraceBytes) at %.6f s "
                 "simulated: the sampled CSVs, qlen and packet trace stop here; fct and pfc "
                 "files go on\n",
                 m_maxTraceBytes, TimeStep(static_cast<int64_t>(step)).GetSeconds());
}

bool
RdmaTraceSink::Spend(uint64_t bytes)
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
        NS_LOG_INFO("trace cap of " << m_maxTraceBytes << " bytes reached");
        WarnCapped(static_cast<uint64_t>(Simulator::Now().GetTimeStep()));
    }
    return false;
}

} // namespace ns3
