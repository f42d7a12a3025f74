// SPDX-License-Identifier: GPL-2.0-only
//
// RDMA queue pairs: the sending side (RdmaTxQueuePair, one per flow, paced
// at libcc's rate and bounded by libcc's window, go-back-N with a
// retransmission timeout) and the receiving side (RdmaRxQueuePair: in-order
// delivery, cumulative ACKs as libcc's NP decides, NACK on a gap).
// The state machines here know nothing of packets; RdmaNic builds and parses
// those. This keeps them testable on their own and the per-packet work small.

#ifndef RDMA_QUEUE_PAIR_H
#define RDMA_QUEUE_PAIR_H

#include "libcc-agent.h"

#include <ns3/object.h>
#include <ns3/traced-callback.h>
#include <ns3/traced-value.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{

/// What a flow is, as the flow helper installs it.
struct RdmaFlowParams
{
    uint32_t flowId = 0; ///< global id (flow file order)
    uint32_t srcNode = 0;
    uint32_t dstNode = 0;
    uint32_t srcIp = 0; ///< host order; set by RdmaNic::Connect
    uint32_t dstIp = 0;
    uint16_t sport = 0;   ///< UDP source port (ECMP entropy, fct file)
    uint16_t dport = 100; ///< flow file's dport (fct file only)
    uint8_t prio = 3;     ///< priority group of the data packets
    uint64_t sizeBytes = 0;
    uint64_t startNs = 0;
    /// When the flow leaves (0: never; it ends after sizeBytes): it sends
    /// nothing new from then on, and its size becomes the bytes it has sent.
    uint64_t stopNs = 0;
    uint64_t baseRttNs = 0; ///< base RTT of the path (libcc T, ideal FCT)
    /// libcc's T when it is not the path's own (one T for every flow, the
    /// HPCC simulator's GLOBAL_T); 0: baseRttNs.
    uint64_t ccBaseRttNs = 0;
    uint64_t bottleneckBps = 0; ///< slowest link on the path (ideal FCT)
};

/// A finished flow, as the FlowComplete trace reports it. The ideal FCT
/// it is compared with is the trace helper's (RdmaIdealFctNs).
struct RdmaFlowRecord
{
    RdmaFlowParams flow;
    uint64_t fctNs;
    uint32_t payloadBytes;  ///< payload of a full data packet
    uint32_t overheadBytes; ///< wire bytes a data packet adds to its payload
    uint64_t retransmittedBytes;
    uint64_t timeouts;
    /// libcc's internal variables of the flow's Reaction Point when it
    /// finished (libcc_rp_vars: names, units; values in that order), e.g.
    /// HPCC's U and W or how often FNCC's last-hop speedup fired.
    const libcc_param_desc* ccVarDescs = nullptr;
    std::vector<double> ccVars;
};

class RdmaTxQueuePair : public Object
{
  public:
    static TypeId GetTypeId();
    RdmaTxQueuePair();
    ~RdmaTxQueuePair() override;

    void Setup(const RdmaFlowParams& flow, uint32_t localQpn, uint32_t peerQpn, uint32_t payload);
    /// Create the libcc RP (at the flow's start time).
    void StartCc(const libcc_params* params, uint64_t lineRateBps, uint32_t mtuWireBytes);

    const RdmaFlowParams& GetFlow() const
    {
        return m_flow;
    }
    uint32_t GetLocalQpn() const
    {
        return m_localQpn;
    }
    uint32_t GetPeerQpn() const
    {
        return m_peerQpn;
    }

    /// Bytes not yet sent (from snd_nxt).
    bool HasDataToSend() const
    {
        return m_sndNxt < m_flow.sizeBytes;
    }
    /// libcc's window allows another packet. One packet may always be in
    /// flight, so a window below one packet cannot stall the flow.
    bool WindowOpen() const
    {
        uint64_t inflight = m_sndNxt - m_sndUna;
        return inflight == 0 || m_window == LIBCC_WINDOW_UNLIMITED || inflight < m_window;
    }
    /// Earliest time (ps) the pacer allows the next packet.
    uint64_t NextAvailPs() const
    {
        return m_nextAvailPs;
    }
    uint64_t GetSndNxt() const
    {
        return m_sndNxt;
    }
    uint64_t GetSndUna() const
    {
        return m_sndUna;
    }
    uint32_t NextPayload() const
    {
        uint64_t left = m_flow.sizeBytes - m_sndNxt;
        return left < m_payload ? static_cast<uint32_t>(left) : m_payload;
    }
    /// The next packet resends bytes sent before (after a go-back).
    bool IsRetransmission() const
    {
        return m_sndNxt < m_maxSent;
    }
    bool IsFinished() const
    {
        return m_finished;
    }

    /// Tell libcc a data packet of `payload` bytes at snd_nxt is about to
    /// leave; returns its tx flags (LIBCC_TX_REQUEST_INT).
    unsigned CcOnTx(uint32_t payload);
    /// That packet left, occupying `wireBytes` of line: advance snd_nxt and
    /// the pacer.
    void OnSent(uint32_t payload, uint32_t wireBytes, uint64_t nowPs);
    /// Free libcc's state (the flow finished).
    void StopCc();
    /// The flow leaves now: its size becomes the bytes sent so far (every
    /// one of them is still delivered). Returns the new size.
    uint64_t Leave();
    /// Everything sent is acknowledged at nowNs (after Leave): finished.
    void CompleteNow(uint64_t nowNs);
    /// Cumulative ACK. Returns true if the flow just completed.
    bool OnAck(const libcc_ack& ack, uint64_t nowNs);
    /// NACK: acknowledges below seq, then goes back to seq.
    bool OnNack(const libcc_ack& nack, uint64_t nowNs);
    void OnCnp();
    /// A congestion point's rate feedback for this flow.
    void OnFeedback(const libcc_feedback& fb);
    /// Retransmission timer check at nowNs: goes back to snd_una if nothing
    /// was acknowledged for rtoNs while data is outstanding. Returns true if
    /// it went back.
    bool CheckTimeout(uint64_t nowNs, uint64_t rtoNs);
    /// When the retransmission timer must be checked next (ns), or
    /// UINT64_MAX if nothing is outstanding.
    uint64_t NextTimeoutCheck(uint64_t rtoNs) const;

    uint64_t GetRate() const
    {
        return m_rate;
    }
    uint64_t GetWindow() const
    {
        return m_window;
    }
    uint64_t GetRetransmittedBytes() const
    {
        return m_retxBytes;
    }
    uint64_t GetTimeouts() const
    {
        return m_timeouts;
    }
    uint64_t GetFinishNs() const
    {
        return m_finishNs;
    }
    LibccRp* GetCc() const
    {
        return m_cc.get();
    }
    /**
     * libcc set a new pacing rate. The departure of the next packet is
     * re-timed from the start of the last packet's gap at the new rate, in
     * both directions: a rise must not wait out the old, longer gap and a
     * cut must not let the next packet leave at the old, shorter one (as the
     * HPCC simulator's RdmaHw::ChangeRate does). Only records: the NIC looks
     * at NextAvailPs when the libcc call that changed the rate returned.
     */
    void OnRateChanged(uint64_t bps);
    /// libcc set a new window (bytes in flight; LIBCC_WINDOW_UNLIMITED: none).
    void OnWindowChanged(uint64_t bytes);

    /// HPCC++ probe mode asked for a probe on this flow (send_probe).
    bool ProbePending() const
    {
        return m_probePending;
    }
    void ClearProbe()
    {
        m_probePending = false;
    }

    /// Scheduling state owned by RdmaSender: a timeout check is armed
    /// (asked per data packet sent: a flag), as number m_rtoGen in the
    /// sender's timer queue; disarming moves the number on.
    bool m_rtoArmed = false;
    uint32_t m_rtoGen = 0;
    /// The flow's leave, scheduled in the sending node's context
    /// (ScheduleWithContext hands out no EventId: the event itself, to
    /// cancel). Its start waits in RdmaSender's start queue instead.
    Ptr<EventImpl> m_stopEvent;
    /// Tells the receiving queue pair (its number, the flow's new size) that
    /// this flow left; set by RdmaNic::Connect.
    Callback<void, uint32_t, uint64_t> m_leaveNotify;
    /// Called when a libcc call the NIC did not make itself (a timer) changed
    /// what this QP may send: the rate, the window or a probe request.
    Callback<void> m_kick;

    /// CcStart trace: the flow's libcc Reaction Point, just created (at the
    /// flow's start, before its first event), for hosts that configure it
    /// further (a decision logger, CcLogWriter).
    typedef void (*CcStartCallback)(uint32_t flowId, libcc_rp* rp);

  private:
    void ProbeRequested();
    bool Advance(uint64_t seq, uint64_t nowNs);

    RdmaFlowParams m_flow;
    uint32_t m_localQpn;
    uint32_t m_peerQpn;
    uint32_t m_payload;
    uint64_t m_sndNxt;
    uint64_t m_sndUna;
    uint64_t m_maxSent; ///< highest byte ever sent (retransmission accounting)
    uint64_t m_nextAvailPs;
    uint64_t m_gapStartPs;   ///< when the last packet's pacing gap began
    uint32_t m_gapWireBytes; ///< wire bytes that gap paces (0: nothing sent yet)
    uint64_t m_lastProgressNs;
    uint64_t m_retxBytes;
    uint64_t m_timeouts;
    uint64_t m_finishNs;
    bool m_finished;
    bool m_probePending;
    std::unique_ptr<LibccRp> m_cc;
    TracedValue<uint64_t> m_rate;
    TracedValue<uint64_t> m_window;
    TracedCallback<uint32_t, libcc_rp*> m_ccStart;
};

/// The receiving end of one flow.
struct RdmaRxQueuePair
{
    RdmaFlowParams flow;
    uint32_t localQpn = 0;
    uint32_t peerQpn = 0;
    uint64_t expected = 0; ///< next byte expected (cumulative ACK)
    uint64_t duplicateBytes = 0;
    uint64_t outOfOrderPkts = 0;
    uint64_t nackSeq = UINT64_MAX; ///< seq of the last NACK sent
    uint64_t nackNs = 0;           ///< when it was sent
    bool done = false;

    enum Verdict
    {
        IN_ORDER,  ///< delivered: expected advanced
        DUPLICATE, ///< already had it: re-acknowledge
        GAP,       ///< a packet is missing: NACK (if due)
    };
    /// Classify a data packet and advance on in-order data.
    Verdict OnData(uint64_t seq, uint32_t bytes)
    {
        if (seq == expected)
        {
            expected += bytes;
            return IN_ORDER;
        }
        if (seq < expected)
        {
            duplicateBytes += bytes;
            return DUPLICATE;
        }
        outOfOrderPkts++;
        return GAP;
    }
    /// A NACK for `expected` is due: the first for this gap, or the last
    /// one is older than intervalNs (it or its retransmission was lost).
    bool NackDue(uint64_t nowNs, uint64_t intervalNs) const
    {
        return nackSeq != expected || nowNs >= nackNs + intervalNs;
    }
};

} // namespace ns3

#endif
