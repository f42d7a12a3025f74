// SPDX-License-Identifier: GPL-2.0-only
//
// RdmaTraceHelper: the outputs of a run of an RdmaNetwork.
//   fct file (HPCC format) and fct.csv  one line per finished flow
//   pfc file (HPCC format) and pfc.csv  every PAUSE / RESUME frame, at the
//               device that received it (the paused one), as the HPCC
//               simulator's pfc file reports it
//   queue.csv   time_ns,node,port,bytes: egress queue of every switch port,
//               sampled every interval, a row only when the value changed
//   rate.csv    time_ns,flow,rate_bps,window_bytes: every active flow, sampled
//               (flows installed before EnableSampling)
//   link.csv    time_ns,node,port,utilization: tracked links' tx share of the
//               line rate over the last interval
// and a progress line on stderr (simulated time, wall time) for long runs.

#ifndef RDMA_TRACE_H
#define RDMA_TRACE_H

#include "rdma-network.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace ns3
{

/**
 * The ideal FCT of a finished flow: its base RTT plus its bytes on the wire
 * (payload and every packet's overhead) at the path's bottleneck rate, i.e.
 * the FCT of a flow alone on an idle path. Slowdown = FCT / this.
 */
uint64_t RdmaIdealFctNs(const RdmaFlowRecord& r);

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
    /// HPCC-format pfc file and a CSV twin.
    void EnablePfc(const std::string& pfcPath, const std::string& csvPath);
    /// Sampled CSVs ("" to skip one), every interval.
    void EnableSampling(Time interval, const std::string& queueCsv, const std::string& rateCsv,
                        const std::string& linkCsv);
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

  private:
    void OnFlowComplete(const RdmaFlowRecord& r);
    static void OnPfcRx(RdmaTraceHelper* self, uint32_t node, uint32_t type, uint32_t ifIndex,
                        uint8_t prio, uint16_t quanta);
    void Sample();
    void Progress();

    RdmaNetwork& m_net;
    std::FILE* m_fct = nullptr;
    std::FILE* m_fctCsv = nullptr;
    std::FILE* m_ccVars = nullptr;
    bool m_ccVarsHeader = false;
    void HookFlowComplete();
    std::FILE* m_pfc = nullptr;
    std::FILE* m_pfcCsv = nullptr;
    std::FILE* m_queue = nullptr;
    std::FILE* m_rate = nullptr;
    std::FILE* m_link = nullptr;
    bool m_fctHooked = false;
    bool m_pfcHooked = false;
    Time m_interval;
    EventId m_sampleEvent;
    struct PortRef
    {
        Ptr<SwitchNode> sw;
        uint32_t node;
        uint32_t port;
        uint64_t last;
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
    uint64_t m_completed = 0;
    uint64_t m_pauses = 0;
    Time m_stop;
    EventId m_progressEvent;
    std::chrono::steady_clock::time_point m_wallStart;
    std::chrono::steady_clock::time_point m_lastPrint;
};

} // namespace ns3

#endif
