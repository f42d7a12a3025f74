// SPDX-License-Identifier: GPL-2.0-only
//
// RdmaSender: the sending side of an RdmaNic. Its queue pairs take turns
// (round robin); each sends when libcc's pacing rate and window allow, goes
// back N on a NACK or a retransmission timeout, and sends the HPCC++ probes
// libcc asks for. Pacing wake-ups are pooled events (one pending at a time,
// for the earliest queue pair that waits); flow starts and timeout checks
// wait in the NIC's own timer queues (qp-timer-queue.h), one event each.

#ifndef RDMA_SENDER_H
#define RDMA_SENDER_H

#include "event-pool.h"
#include "qp-timer-queue.h"
#include "qbb-frame.h"
#include "qbb-net-device.h"
#include "rdma-queue-pair.h"
#include "rocev2-packet.h"

#include <ns3/ptr.h>

#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ns3
{

struct RdmaNicContext;

class RdmaSender
{
  public:
    explicit RdmaSender(RdmaNicContext& ctx);
    ~RdmaSender();
    RdmaSender(const RdmaSender&) = delete;
    RdmaSender& operator=(const RdmaSender&) = delete;

    /// A new sending queue pair towards peerQpn, started at flow.startNs.
    Ptr<RdmaTxQueuePair> AddQueuePair(const RdmaFlowParams& flow, uint32_t peerQpn);
    uint32_t GetNQueuePairs() const
    {
        return static_cast<uint32_t>(m_tx.size());
    }
    Ptr<RdmaTxQueuePair> GetQueuePair(uint32_t qpn) const
    {
        return m_tx[qpn];
    }
    /// A flow has started and not finished.
    bool HasActive() const
    {
        return !m_active.empty();
    }

    /// The next data or probe frame allowed now, from a priority not paused;
    /// nullptr if none (then a wake-up is set for the earliest paced one).
    QbbFramePtr Dequeue(const std::array<bool, QBB_N_PRIO>& paused, uint8_t& prioOut);
    /// An ACK or NACK for queue pair info.destQp.
    void OnAck(const RocePacketInfo& info);
    /// A CNP for queue pair qpn.
    void OnCnp(uint32_t qpn);
    /// A congestion point's feedback for the queue pair connected to
    /// (info.src, info.destQp): the flow's receiver and its queue pair.
    void OnFeedback(const RocePacketInfo& info);
    /// Cancel every event and forget the queue pairs (the NIC is disposed).
    void Dispose();

  private:
    class WakeEvent;

    void StartFlow(RdmaTxQueuePair* qp);
    void LeaveFlow(RdmaTxQueuePair* qp);
    void FinishFlow(RdmaTxQueuePair* qp);
    QbbFramePtr MakeProbe(RdmaTxQueuePair& qp);
    QbbFramePtr MakeData(RdmaTxQueuePair& qp, uint64_t nowPs);
    void FillFlowFields(RocePacketInfo& info, RocePktType type, const RdmaTxQueuePair& qp) const;
    void ArmRto(RdmaTxQueuePair* qp);
    /// The timeout check armed as number gen came due (m_rtos).
    void RtoFired(RdmaTxQueuePair* qp, uint32_t gen);
    /// Stop qp's timeout check (its entry in m_rtos is left to lapse).
    void DisarmRto(RdmaTxQueuePair* qp);
    /// The flow's retransmission timeout (ns): libcc's for its algorithm,
    /// else the NIC's RetransmissionTimeout attribute.
    uint64_t RtoNs(const RdmaTxQueuePair* qp) const;
    void WakeAt(uint64_t ps);
    /// The pacing wake-up scheduled as number seq fired.
    void Wake(uint64_t seq);
    /// qp's start came (m_starts).
    void StartDue(RdmaTxQueuePair* qp, uint32_t unused);
    /// The node's context, for what the sender schedules for itself.
    uint32_t NodeContext() const;

    RdmaNicContext& m_ctx; //!< what it shares with its RdmaNic, which owns both
    std::vector<Ptr<RdmaTxQueuePair>> m_tx;
    /// Local queue pair by (peer IPv4 << 32 | peer queue pair): how a
    /// switch's feedback, which knows the flow only by its data packets,
    /// finds it.
    std::unordered_map<uint64_t, uint32_t> m_byPeer;
    std::vector<RdmaTxQueuePair*> m_active; ///< started, not finished
    size_t m_rr;
    /**
     * Pacing wake-ups, reused once fired instead of an event allocated per
     * paced packet. Moving a wake earlier does not cancel the pending one:
     * it stays queued (as a cancelled event would) and does nothing when it
     * fires, because its number is no longer m_wakeSeq.
     */
    EventPool<WakeEvent> m_wakePool;
    uint64_t m_wakeAtPs; ///< the pending wake-up's time, UINT64_MAX if none
    uint64_t m_wakeSeq;

    /// Flows not started yet, by start time (then in the order added).
    QpTimerQueue<RdmaSender> m_starts;
    /// Armed timeout checks, by time; an entry whose number is not its
    /// queue pair's m_rtoGen any more lapses.
    QpTimerQueue<RdmaSender> m_rtos;
};

} // namespace ns3

#endif
