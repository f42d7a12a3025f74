// SPDX-License-Identifier: GPL-2.0-only
//
// CcLogWriter: libcc's decision log of chosen flows (--ccLog) as one CSV,
// cc-log.csv (docs/decision-log.md):
//
//   time_ns,flow_id,event,action,old_rate_bps,new_rate_bps,
//   old_window_bytes,new_window_bytes,inputs
//
// one row per record libcc delivers: after an event (init, ack, nack, cnp,
// tx, timer, feedback, timeout) in which the flow's algorithm explained
// itself (action, inputs) or its rate or window moved. A window of -1 is
// none (as in rate.csv); action is empty when the algorithm said nothing;
// inputs is `name=value;name=value` (empty without inputs).
//
// Over MPI ranks each rank logs the flows it sends, stamped with their
// events' keys, and MergeRanks makes the file one process writes.

#ifndef CC_LOG_WRITER_H
#define CC_LOG_WRITER_H

#include <libcc/libcc.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class RdmaNetwork;

/// The flows an option names: `all`, `none`, or ids and ranges `0-3,7`.
struct FlowIdSet
{
    bool all = false;
    std::string text; ///< as given, for messages
    std::vector<std::pair<uint32_t, uint32_t>> ranges; ///< inclusive [first, last]

    bool Empty() const
    {
        return !all && ranges.empty();
    }
    bool Contains(uint32_t id) const;
    /// Reads `all`, `none` or a comma list of ids and ranges (first <= last, ids
    /// up to 2^32 - 2); false with why ("range 5-3 ends before it starts").
    static bool Parse(const std::string& text, FlowIdSet& out, std::string& why);
    /// What Parse accepts, for messages and --help.
    static const char* Accepted();
};

class CcLogWriter
{
  public:
    CcLogWriter() = default;
    ~CcLogWriter();
    CcLogWriter(const CcLogWriter&) = delete;
    CcLogWriter& operator=(const CcLogWriter&) = delete;

    /// An id of flows that no flow of nFlows has (ids 0 .. nFlows-1): false
    /// with why ("no flow 9: the flows are 0 .. 1"). `all` always fits.
    static bool CheckFlows(const FlowIdSet& flows, size_t nFlows, std::string& why);
    /**
     * What a program does with its --ccLog (after its flows were added):
     * nothing for no flows; else check them against net's flows, open path
     * (<path>.rank<r> when ranks > 1) and log each chosen flow from its
     * start. Returns -1 to go on, else the status to exit with after a
     * one-line message starting with `program`: 2 (a flow that does not
     * exist), 1 (path cannot be written).
     */
    int Start(const std::string& program, RdmaNetwork& net, const FlowIdSet& flows,
              const std::string& path, uint32_t rank = 0, uint32_t ranks = 1);
    /// Rows written by this process so far.
    uint64_t GetRows() const
    {
        return m_rows;
    }
    /// Close the file (also done by the destructor); records after it are
    /// dropped. The logged RPs keep a pointer to this writer: keep it until
    /// the simulation has run (events after Run deliver nothing).
    void Close();
    /// After Close on every rank (a barrier between), on one rank: merge the
    /// ranks' files into path (MergeRankFiles). False with err on failure.
    bool MergeRanks(std::string& err, const std::string& endStamp = "");

  private:
    static void OnCcStart(CcLogWriter* self, uint32_t flowId, libcc_rp* rp);
    static void OnDecision(const libcc_rp* rp, const libcc_decision* d, void* self);

    std::FILE* m_file = nullptr;
    std::string m_path;
    uint32_t m_rank = 0;
    uint32_t m_ranks = 1;
    uint64_t m_rows = 0;
};

} // namespace ns3

#endif // CC_LOG_WRITER_H
