// SPDX-License-Identifier: GPL-2.0-only
//
// RdmaTraceHelper: the outputs of a run of an RdmaNetwork.
//   fct file (HPCC format) and fct.csv  one line per finished flow
//   pfc file (HPCC format) and pfc.csv  every PAUSE / RESUME frame, at the
//               device that received it (the paused one), as the HPCC
//               simulator's pfc file reports it; its if_index counts from 1
//               as that simulator's (ns-3 loopback at 0), pfc.csv's from 0
//   qlen file (HPCC format)  per switch port, the cumulative histogram of
//               its egress bytes in KB, sampled every 100 ns in a window,
//               dumped at every multiple of 100 ms (and at the end):
//               HpccQlenWriter (hpcc/hpcc-qlen-writer.h)
//   packet trace (HPCC mix.tr binary format)  every frame received (Recv)
//               and sent (Dequ) by the devices of chosen nodes
//               (analysis/trace_reader.py prints it): HpccPacketTrace
//               (hpcc/hpcc-packet-trace.h)
//   queue.csv   time_ns,node,port,bytes: egress queue of every switch port,
//               sampled every interval, a row only when the value changed
//   rate.csv    time_ns,flow,rate_bps,window_bytes: every active flow, sampled
//               (flows installed before EnableSampling)
//   link.csv    time_ns,node,port,utilization: tracked links' tx share of the
//               line rate over the last interval
// and a progress line on stderr (simulated time, wall time) for long runs.
// The three sampled CSVs are one writer on one sampling clock,
// RdmaSampledCsvs (rdma-sampled-csv.h).
// Every output goes through one RdmaTraceSink (rdma-trace-sink.h): per rank
// in a distributed run, and under one --maxTraceBytes cap.

#ifndef RDMA_TRACE_H
#define RDMA_TRACE_H

#include "event-heap.h"
#include "hpcc-packet-trace.h"
#include "hpcc-qlen-writer.h"
#include "rdma-network.h"
#include "rdma-sampled-csv.h"
#include "rdma-trace-sink.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * The ideal FCT of a finished flow: its base RTT plus its bytes on the wire
 * (payload and every packet's overhead) at the path's bottleneck rate, i.e.
 * the FCT of a flow alone on an idle path. Slowdown = FCT / this.
 */
uint64_t RdmaIdealFctNs(const RdmaFlowRecord& r);

/// Which ideal FCT the fct files carry (docs/ns3-bindings.md, "ideal FCT").
enum class IdealFctKind
{
    OURS,     ///< RdmaIdealFctNs: our base RTT, our wire bytes per packet
    HPCC_SIM, ///< the HPCC simulator's standalone_fct (its base RTT, 48 header bytes)
};
/// The HPCC simulator's standalone FCT of a flow of this network:
/// hpccBaseRttNs of its path + (size + packets x HPCC_SIM_HEADER_BYTES) x 8
/// / bottleneck, rounded down.
uint64_t HpccSimIdealFctNs(const RdmaNetwork& net, const RdmaFlowRecord& r);

/// Create an output directory and its missing parents (mode 0755); true if
/// it exists afterwards.
bool MakeOutputDir(const std::string& path);

class RdmaTraceHelper
{
  public:
    explicit RdmaTraceHelper(RdmaNetwork& net);
    ~RdmaTraceHelper();

    /// HPCC-format fct file and a CSV twin (either path may be "").
    void EnableFct(const std::string& fctPath, const std::string& csvPath);
    /// Per finished flow, libcc's internal variables of its Reaction Point at
    /// the end (flow,size_bytes,fct_ns,ideal_fct_ns, then one column per
    /// variable of the algorithm, named by libcc: fct-cc.csv).
    void EnableCcVars(const std::string& csvPath);
    /// The ideal FCT written to the fct files from now on (default OURS).
    void SetIdealFct(IdealFctKind kind)
    {
        m_idealKind = kind;
    }
    /// HPCC-format pfc file and a CSV twin.
    void EnablePfc(const std::string& pfcPath, const std::string& csvPath);
    /// Sampled CSVs ("" to skip one), every interval from start.
    void EnableSampling(Time interval, const std::string& queueCsv, const std::string& rateCsv,
                        const std::string& linkCsv, Time start = Time(0));
    /// HPCC-format qlen file: every switch port's egress bytes every
    /// interval in [start, end], a cumulative per-KB histogram dumped when
    /// the time is a multiple of dumpEvery (HPCC: 100 ns, 100 ms) and at Close.
    void EnableQlen(const std::string& path, Time start, Time end, Time interval = NanoSeconds(100),
                    Time dumpEvery = MilliSeconds(100));
    /// The HPCC simulator's binary packet trace (mix.tr) of the devices of
    /// these topology nodes; throws std::invalid_argument for an unknown id.
    void EnablePacketTrace(const std::string& path, const std::vector<uint32_t>& nodes);
    /// Stop the sampled CSVs, qlen file and packet trace, with one warning on
    /// stderr, once together they have written this many bytes (0: no cap).
    void SetMaxTraceBytes(uint64_t bytes)
    {
        m_sink.SetMaxTraceBytes(bytes);
    }
    /// Bytes the capped outputs wrote so far; whether the cap stopped them.
    uint64_t GetTraceBytes() const
    {
        return m_sink.GetTraceBytes();
    }
    bool IsTraceCapped() const
    {
        return m_sink.IsCapped();
    }
    /// Track the utilisation of the egress of node a towards node b.
    void TrackLink(uint32_t a, uint32_t b);
    /// Track every switch egress (both directions of switch-switch links).
    void TrackAllSwitchLinks();
    /// Print progress to stderr every ~2 s of wall time until stop.
    void EnableProgress(Time stop);

    uint64_t GetFlowsCompleted() const
    {
        return m_completed;
    }
    /// PAUSE frames (quanta > 0) received by any device so far.
    uint64_t GetPfcPauses() const
    {
        return m_pauses;
    }
    /// Close the files (also done by the destructor).
    void Close();

    /**
     * A distributed run (docs/distributed.md): before any Enable*, this
     * process is rank `rank` of `ranks`, whose windows are lookaheadNs long.
     * Every output goes to <path>.rank<r> with each record stamped for
     * MergeRanks: the event-driven ones (fct, fct CSV, cc variables, pfc and
     * its CSV, mix.tr) by their event's key, the sampled ones (queue, rate
     * and link CSVs, qlen) by their index in one process's loop; each rank
     * samples and traces its own nodes. Each rank writes up to the whole
     * --maxTraceBytes; the merge cuts where one process would have.
     */
    void SetRanks(uint32_t rank, uint32_t ranks, uint64_t lookaheadNs);
    /**
     * Over ranks, after Run and before Close: one process ended at this
     * time step, at a node's event (byNode: a flow's end) or at a stop for
     * no node. qlen samples taken after it (the ranks ran on to the end of
     * their window) are taken back, and the last qlen dump carries this time.
     */
    void EndRunAt(uint64_t endStep, bool byNode);
    /**
     * After Close on every rank (a barrier between), on one rank: merge each
     * output into the file one process writes, without the records stamped
     * after endStamp ("" keeps all; MergeRankFiles), the capped outputs cut
     * as one process's (with its one warning). False with err on failure.
     */
    bool MergeRanks(std::string& err, const std::string& endStamp = "");

  private:
    int64_t m_runEndNs = -1; ///< EndRunAt's time (-1: the simulator's)
    void OnFlowComplete(const RdmaFlowRecord& r);
    static void OnPfcRx(RdmaTraceHelper* self, uint32_t node, uint32_t type, uint32_t ifIndex,
                        uint8_t prio, uint16_t quanta);
    void Progress();
    /// Cancel the pending progress check, if any.
    void StopProgress();

    RdmaNetwork& m_net;
    RdmaTraceSink m_sink; ///< before the writers, which hold it
    HpccQlenWriter m_qlen;
    HpccPacketTrace m_packetTrace;
    RdmaSampledCsvs m_samples;
    std::FILE* m_fct = nullptr;
    std::FILE* m_fctCsv = nullptr;
    std::FILE* m_ccVars = nullptr;
    bool m_ccVarsHeader = false;
    void HookFlowComplete();
    IdealFctKind m_idealKind = IdealFctKind::OURS;
    std::FILE* m_pfc = nullptr;
    std::FILE* m_pfcCsv = nullptr;
    bool m_fctHooked = false;
    bool m_pfcHooked = false;
    uint64_t m_completed = 0;
    uint64_t m_pauses = 0;
    /// Between progress checks, in time steps: stop / 1000, at least one.
    int64_t m_progressSteps = 1;
    int64_t m_stopStep = 0; ///< EnableProgress's stop, in time steps
    /// The check, one event object scheduled again each time (no
    /// allocation and no Time arithmetic per check: a short run makes a
    /// thousand of them).
    class ProgressEvent;
    Ptr<FastEvent> m_progressEvent;
    std::chrono::steady_clock::time_point m_wallStart;
    std::chrono::steady_clock::time_point m_lastPrint;
};

} // namespace ns3

#endif
