// SPDX-License-Identifier: GPL-2.0-only
//
// SwitchCc: a switch's congestion-control glue. One libcc Congestion Point
// per egress port and, when the algorithm asks for one, the switch's shared
// INT table. It hands libcc each frame at enqueue and at dequeue and applies
// what libcc decided (a CE mark, an INT hop); every decision is libcc's.

#ifndef SWITCH_CC_H
#define SWITCH_CC_H

#include "libcc-agent.h"
#include "qbb-frame.h"
#include "qbb-net-device.h"
#include "switch-port.h"

#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include "libcc/libcc.h"

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class SwitchCc
{
  public:
    SwitchCc();
    ~SwitchCc();
    SwitchCc(const SwitchCc&) = delete;
    SwitchCc& operator=(const SwitchCc&) = delete;

    /// Use a copy of params; nullptr: no congestion control. Drops the CPs.
    void SetParams(const libcc_params* params);
    const libcc_params* GetParams() const
    {
        return m_params;
    }
    /// Ports of link rate rateBps use a copy of params instead of the base
    /// set (per-rate marking thresholds, for example); nullptr removes the
    /// override. Drops the CPs.
    void SetRateParams(uint64_t rateBps, const libcc_params* params);
    /// The parameter set port's CP was built with (nullptr: none).
    const libcc_params* GetPortParams(uint32_t port) const
    {
        return port < m_portParams.size() ? m_portParams[port] : nullptr;
    }
    /// CPs draw from rng (nullptr: libcc's own generator). Drops the CPs.
    void SetRandom(Ptr<UniformRandomVariable> rng);

    /**
     * Create the CPs: portRates[i] is the rate of port i (0: no port there).
     * False when libcc refuses a port (a rate the algorithm's INT format
     * cannot carry): err names the switch, the port and the rate.
     */
    bool Build(uint32_t switchId, const std::vector<uint64_t>& portRates, std::string& err);
    bool IsBuilt() const
    {
        return m_built;
    }
    /// The CPs are out of date (a port was added): Build again before use.
    void Invalidate()
    {
        m_built = false;
    }
    void Free();

    /// e is about to join queue (port, prio) holding queueBytes (portBytes in
    /// the whole port): libcc may CE-mark it. Returns whether libcc asks for
    /// a feedback packet to e's source (LIBCC_SIGNAL_CP_FEEDBACK; data
    /// frames only), with its rate in fbRateBps.
    bool OnEnqueue(uint32_t port, SwitchPort::Entry& e, uint64_t queueBytes, uint64_t portBytes,
                   uint64_t& fbRateBps);
    /// e left queue (port, prio), which now holds queueBytes (portBytes in
    /// the whole port): libcc may CE-mark it or append an INT hop. Feedback
    /// as OnEnqueue.
    bool OnDequeue(uint32_t port, SwitchPort::Entry& e, uint64_t queueBytes, uint64_t portBytes,
                   uint64_t& fbRateBps);

    /// Where a flow's feedback goes: the addresses of its data, reversed
    /// by the sender of the feedback, and the port its data came in on.
    struct FlowAddr
    {
        RoceAddr src;
        RoceAddr dst;
        uint16_t sport = 0;
        uint16_t dport = 0;
        uint32_t destQp = 0;
        uint32_t inPort = 0;
    };
    /// Port's CP has a timer (libcc_cp_deadline_ns): when it is due, in
    /// ns of the simulation clock; LIBCC_NO_DEADLINE: none.
    uint64_t GetDeadline(uint32_t port) const
    {
        return libcc_cp_deadline_ns(GetCp(port));
    }
    /// Run port's CP timer at now; the feedback it asks for is in
    /// GetTimerFeedback()[0 .. return value).
    size_t OnTimer(uint32_t port, uint64_t nowNs);
    const std::vector<libcc_cp_feedback>& GetTimerFeedback() const
    {
        return m_timerFb;
    }
    /// The flow a libcc_cp_feedback names (flow_id: an index SwitchCc gave).
    const FlowAddr& GetFlowAddr(uint64_t flowId) const
    {
        return m_flowAddr[flowId];
    }

    const libcc_cp* GetCp(uint32_t port) const
    {
        return port < m_cps.size() ? m_cps[port] : nullptr;
    }
    const libcc_int_table* GetIntTable() const
    {
        return m_intTable;
    }
    uint64_t GetEcnMarks() const
    {
        return m_ecnMarks;
    }
    uint64_t GetIntStamps() const
    {
        return m_intStamps;
    }

  private:
    static uint64_t Rand(void* self);
    static libcc_pkt_kind KindOf(RocePktType t);
    /// CE-mark an ECN-capable frame; false if not ECT or already CE.
    static bool MarkCe(QbbFrame& f);
    /// What libcc sees of a queued frame.
    static libcc_cp_pkt CpPacket(SwitchPort::Entry& e, uint64_t queueBytes, uint64_t portBytes);
    /// Apply libcc's decisions on e's frame; returns whether it asks for
    /// feedback to e's source (rate in pkt.feedback_rate_bps).
    bool Apply(SwitchPort::Entry& e, const libcc_cp_pkt& pkt);
    using CpHook = int (*)(libcc_cp*, uint64_t, libcc_cp_pkt*);
    /// Hand e to port's CP through Hook (enqueue or dequeue, as Enqueue
    /// says), apply the verdict (feedback as OnEnqueue). A template
    /// argument, so the call is direct and inlined.
    template <CpHook Hook, bool Enqueue>
    bool Run(uint32_t port, SwitchPort::Entry& e, uint64_t queueBytes, uint64_t portBytes,
             uint64_t& fbRateBps);
    /// The index of data frame e's flow, recorded on first sight.
    uint32_t FlowIndex(const SwitchPort::Entry& e);

    struct FlowKeyHash
    {
        size_t operator()(const std::pair<uint64_t, uint64_t>& k) const
        {
            return std::hash<uint64_t>()(k.first * 0x9e3779b97f4a7c15ull ^ k.second);
        }
    };

    libcc_params* m_params;
    std::map<uint64_t, libcc_params*> m_rateParams; //!< per link rate, overriding m_params
    std::vector<const libcc_params*> m_portParams;  //!< what each port's CP was built with
    std::vector<libcc_cp*> m_cps;                   //!< by port index; nullptr: no port
    libcc_int_table* m_intTable;
    Ptr<UniformRandomVariable> m_rng;
    bool m_built;
    uint32_t m_hopBytes; //!< wire bytes of a hop libcc stamps
    uint64_t m_ecnMarks;
    uint64_t m_intStamps;
    /// The algorithm's CPs send feedback (LIBCC_SIGNAL_CP_FEEDBACK): data
    /// frames carry their flow's index to libcc (libcc_cp_pkt.flow_id).
    bool m_flowIds;
    /// The algorithm's CPs act at enqueue (libcc_algorithm_info.cp_on_enqueue):
    /// without it, and without flows to index, OnEnqueue asks libcc nothing.
    bool m_enqueueWork = false;
    std::unordered_map<std::pair<uint64_t, uint64_t>, uint32_t, FlowKeyHash> m_flowIndex;
    std::vector<FlowAddr> m_flowAddr; //!< by flow index
    std::vector<libcc_cp_feedback> m_timerFb;
};

// Per packet: inline, so the switch's path has no call it does not need.

inline libcc_pkt_kind
SwitchCc::KindOf(RocePktType t)
{
    switch (t)
    {
    case RocePktType::DATA:
        return LIBCC_PKT_DATA;
    case RocePktType::ACK:
        return LIBCC_PKT_ACK;
    case RocePktType::NACK:
        return LIBCC_PKT_NACK;
    case RocePktType::CNP:
        return LIBCC_PKT_CNP;
    case RocePktType::PROBE:
        return LIBCC_PKT_PROBE;
    default: // FEEDBACK, a switch's own control packet, is OTHER too
        return LIBCC_PKT_OTHER;
    }
}

inline bool
SwitchCc::MarkCe(QbbFrame& f)
{
    if (f.packet)
    {
        return RoceMarkCe(f.packet);
    }
    uint8_t& ecn = f.roce.ecn;
    if (ecn == ROCE_ECN_NOT_ECT || ecn == ROCE_ECN_CE)
    {
        return false;
    }
    ecn = ROCE_ECN_CE; // the IPv4 checksum is computed when bytes are built
    return true;
}

inline libcc_cp_pkt
SwitchCc::CpPacket(SwitchPort::Entry& e, uint64_t queueBytes, uint64_t portBytes)
{
    QbbFrame& f = *e.frame;
    libcc_cp_pkt pkt{};
    pkt.kind = KindOf(e.type);
    pkt.bytes = QbbNetDevice::WireBytes(f.ipBytes);
    pkt.ingress_port = e.inPort; // FNCC Algorithm 1, line 3: where an ACK came in
    pkt.queue_bytes = queueBytes;
    pkt.port_queue_bytes = portBytes;
    pkt.ecn_capable = e.ecnCapable;
    // libcc writes a hop, already in the header's wire format, straight into
    // the frame's list; whether to is its decision (by kind and algorithm).
    pkt.int_list = e.hasInt ? &f.roce.ints : nullptr;
    if (!f.packet && f.roce.hasPint)
    {
        pkt.has = LIBCC_PKT_HAS_PINT;
        pkt.pint = f.roce.pint;
    }
    return pkt;
}

inline bool
SwitchCc::Apply(SwitchPort::Entry& e, const libcc_cp_pkt& pkt)
{
    QbbFrame& f = *e.frame;
    if (pkt.int_stamped)
    {
        f.ipBytes += m_hopBytes;
        m_intStamps++;
    }
    if (pkt.mark_ce && e.ecnCapable && MarkCe(f))
    {
        m_ecnMarks++;
    }
    if (pkt.has & LIBCC_PKT_HAS_PINT)
    {
        f.roce.pint = pkt.pint;
    }
    // Feedback goes to the sources of data packets only: a CP answering a
    // feedback packet with another would never stop.
    return pkt.send_feedback && e.type == RocePktType::DATA;
}

template <SwitchCc::CpHook Hook, bool Enqueue>
inline bool
SwitchCc::Run(uint32_t port, SwitchPort::Entry& e, uint64_t queueBytes, uint64_t portBytes,
              uint64_t& fbRateBps)
{
    if (port >= m_cps.size() || !m_cps[port])
    {
        return false;
    }
    libcc_cp_pkt pkt = CpPacket(e, queueBytes, portBytes);
    // Only algorithms whose CPs send feedback per flow see flows: one test
    // per packet for the others.
    if (m_flowIds && e.type == RocePktType::DATA)
    {
        if constexpr (Enqueue)
        {
            e.ccFlow = FlowIndex(e);
        }
        pkt.has |= LIBCC_PKT_HAS_FLOW_ID;
        pkt.flow_id = e.ccFlow;
    }
    Hook(m_cps[port], LibccNow(), &pkt);
    fbRateBps = pkt.feedback_rate_bps;
    return Apply(e, pkt);
}

inline bool
SwitchCc::OnEnqueue(uint32_t port, SwitchPort::Entry& e, uint64_t queueBytes, uint64_t portBytes,
                    uint64_t& fbRateBps)
{
    if (!m_enqueueWork && !m_flowIds)
    {
        return false; // libcc_cp_on_enqueue would only check its arguments
    }
    return Run<&libcc_cp_on_enqueue, true>(port, e, queueBytes, portBytes, fbRateBps);
}

inline bool
SwitchCc::OnDequeue(uint32_t port, SwitchPort::Entry& e, uint64_t queueBytes, uint64_t portBytes,
                    uint64_t& fbRateBps)
{
    return Run<&libcc_cp_on_dequeue, false>(port, e, queueBytes, portBytes, fbRateBps);
}

} // namespace ns3

#endif
