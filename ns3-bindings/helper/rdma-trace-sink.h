// SPDX-License-Identifier: GPL-2.0-only
//
// RdmaTraceSink: where the writers of RdmaTraceHelper (rdma-trace.h) and
// the HPCC-format writers (hpcc/) put their records. It opens each output
// for this process or, in a distributed run, for this rank (<path>.rank<r>,
// each record stamped so that MergeRanks can rebuild the file one process
// writes), and it keeps the --maxTraceBytes cap that stops the sampled CSVs,
// the qlen file and the packet trace together.

#ifndef RDMA_TRACE_SINK_H
#define RDMA_TRACE_SINK_H

#include "rank-merge.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class RdmaTraceSink
{
  public:
    /// This process is rank `rank` of `ranks`, whose windows are lookaheadNs long.
    void SetRanks(uint32_t rank, uint32_t ranks, uint64_t lookaheadNs);
    uint32_t GetRank() const
    {
        return m_rank;
    }
    /// More than one rank: outputs are per rank and merged after the run.
    bool IsDistributed() const
    {
        return m_ranks > 1;
    }
    uint64_t GetLookaheadNs() const
    {
        return m_lookaheadNs;
    }

    /// The capped outputs stop, with one warning, past this many bytes (0: no cap).
    void SetMaxTraceBytes(uint64_t bytes)
    {
        m_maxTraceBytes = bytes;
    }
    uint64_t GetTraceBytes() const
    {
        return m_traceBytes;
    }
    bool IsCapped() const
    {
        return m_capped;
    }

    /**
     * An output file ("" : none, nullptr): <path>.rank<r> in a distributed
     * run (header kept for the merge); capped: under --maxTraceBytes, with
     * text lines (recordBytes 0) or binary records of recordBytes.
     */
    std::FILE* Open(const std::string& path, const char* header, bool capped = false,
                    size_t recordBytes = 0);
    /// Over ranks, the binary header of the capped output opened last: the
    /// merge writes it once, and every rank counts it as one process does.
    void SetCappedHeader(const std::vector<uint8_t>& header);
    /// Before each record of an event-driven output (a no-op alone).
    void Stamp(std::FILE* f) const;
    /// Before each sampled record: its index in one process's loop (a no-op alone).
    void SampleStamp(std::FILE* f, uint64_t index) const;
    /// Count bytes written to a capped output; false once over the cap.
    bool Spend(uint64_t bytes);
    /// After the run, on one rank: every output merged (RdmaTraceHelper::MergeRanks).
    bool MergeRanks(std::string& err, const std::string& endStamp);

    /// Close f if open and forget it.
    static void Close(std::FILE*& f);

  private:
    /// The cap's warning, once, at the time step that crossed it.
    void WarnCapped(uint64_t step) const;

    uint32_t m_rank = 0;
    uint32_t m_ranks = 1;
    uint64_t m_lookaheadNs = 0;
    std::vector<std::pair<std::string, std::string>> m_rankOutputs; ///< path, header
    std::vector<CappedRankFile> m_cappedOutputs;
    uint64_t m_setupTraceBytes = 0; ///< spent before the run (mix.tr's header)
    uint64_t m_maxTraceBytes = 0;
    uint64_t m_traceBytes = 0;
    bool m_capped = false;
};

} // namespace ns3

#endif
