// SPDX-License-Identifier: GPL-2.0-only
//
// RdmaNic: an RDMA host NIC on one QbbNetDevice, aggregated to its Node.
// Sends: queue pairs scheduled round robin, each paced at libcc's rate and
// bounded by libcc's window; control packets (ACK, NACK, CNP) first.
// Receives: in-order delivery per queue pair, ACK/CNP/INT echo/N/Rx window
// as libcc's Notification Point decides (libcc_np_on_data verdict), NACK on
// a gap, go-back-N at the sender, retransmission timeout for lost tails.
// Per packet: no string work, no map lookups (queue pair numbers index
// vectors, as the BTH destination QP does in a real NIC).

#ifndef RDMA_NIC_H
#define RDMA_NIC_H

#include "event-pool.h"
#include "libcc-config.h"
#include "qbb-net-device.h"
#include "rdma-queue-pair.h"
#include "rocev2-packet.h"

#include <ns3/ipv4-address.h>
#include <ns3/node.h>
#include <ns3/object.h>
#include <ns3/traced-callback.h>

#include <deque>
#include <memory>
#include <vector>

namespace ns3
{

class RdmaNic : public Object, public QbbEgressSource, public QbbFrameReceiver
{
  public:
    /// BTH PSN of HPCC++ probes and of the ACKs answering them: how the
    /// sender tells a probe response from a data ACK. Data PSNs skip it.
    static constexpr uint32_t PROBE_PSN = 0xffffff;

    static TypeId GetTypeId();
    RdmaNic();
    ~RdmaNic() override;

    /// Bind to the host's device: become its egress source and receiver.
    void Setup(Ptr<Node> node, Ptr<QbbNetDevice> dev, Ipv4Address ip);
    Ptr<QbbNetDevice> GetDevice() const
    {
        return m_dev;
    }
    Ipv4Address GetAddress() const
    {
        return m_ip;
    }
    /// The congestion control every queue pair of this NIC uses (shared).
    void SetCcConfig(Ptr<LibccConfig> cfg);
    Ptr<LibccConfig> GetCcConfig() const
    {
        return m_cc;
    }

    /// Open a flow from src to dst (both NICs, out-of-band set-up like
    /// RDMA CM) starting at flow.startNs. Returns the sending queue pair.
    static Ptr<RdmaTxQueuePair> Connect(Ptr<RdmaNic> src, Ptr<RdmaNic> dst,
                                        const RdmaFlowParams& flow);

    /// Wire bytes of a full data packet (no INT) and of its per-packet
    /// overhead (headers, FCS, preamble, gap): what the ideal FCT counts.
    uint32_t DataWireBytes() const;
    uint32_t DataOverheadBytes() const;
    /// Wire bytes of an ACK without INT hops.
    static uint32_t AckWireBytes();
    uint32_t GetPayloadSize() const
    {
        return m_payload;
    }

    // QbbEgressSource
    QbbFramePtr DequeueFrame(const std::array<bool, QBB_N_PRIO>& pausedPrio,
                             uint8_t& prioOut) override;
    uint64_t GetQueueBytes(uint8_t prio) const override;
    /// Control packets queued or a flow still sending (paced or window-bound flows count).
    bool HasPending() const override;

    uint32_t GetNTxQueuePairs() const
    {
        return m_tx.size();
    }
    Ptr<RdmaTxQueuePair> GetTxQueuePair(uint32_t qpn) const
    {
        return m_tx[qpn];
    }
    uint32_t GetNRxQueuePairs() const
    {
        return m_rx.size();
    }
    const RdmaRxQueuePair& GetRxQueuePair(uint32_t qpn) const
    {
        return m_rx[qpn];
    }

    struct Counters
    {
        uint64_t dataSent = 0;
        uint64_t probesSent = 0;
        uint64_t dataRcvd = 0;
        uint64_t acksSent = 0;
        uint64_t nacksSent = 0;
        uint64_t cnpsSent = 0;
        uint64_t acksRcvd = 0;
        uint64_t nacksRcvd = 0;
        uint64_t cnpsRcvd = 0;
        uint64_t timeouts = 0;
        uint64_t badPackets = 0; ///< not RoCEv2 or unknown queue pair
        uint64_t ccErrors = 0;   ///< calls libcc refused (NP side)
    };
    const Counters& GetCounters() const
    {
        return m_counters;
    }

    /// Signature of "FlowComplete".
    typedef void (*FlowCompleteCallback)(const RdmaFlowRecord& record);
    /// Signature of "RxDeliver": flow id, first byte, bytes (in-order data only).
    typedef void (*RxDeliverCallback)(uint32_t flowId, uint64_t seq, uint32_t bytes);
    /// Signature of "TxData": flow id, first byte, payload bytes, retransmission?
    typedef void (*TxDataCallback)(uint32_t flowId, uint64_t seq, uint32_t bytes, bool retx);

  protected:
    void DoDispose() override;

  private:
    uint32_t AddRx(const RdmaFlowParams& flow);
    void StartFlow(RdmaTxQueuePair* qp);
    void FinishFlow(RdmaTxQueuePair* qp);
    void ReceiveFrame(QbbNetDevice* dev, QbbFramePtr frame) override;
    /// A frame that arrived as Packet bytes (a Packet-based sender).
    void ReceiveBytes(Ptr<const Packet> p);
    void Dispatch(const RocePacketInfo& info);
    void OnData(const RocePacketInfo& info);
    void OnAckPacket(const RocePacketInfo& info);
    /// echoFormat: the INT format of the data packet whose hops the verdict echoes.
    void SendAck(RdmaRxQueuePair& rx, bool nack, const libcc_np_verdict* verdict, bool ce,
                 uint32_t psn, uint8_t echoFormat);
    void Kick();
    void SendCnp(uint64_t rxQpn);
    void EnqueueControl(QbbFramePtr f);
    void ArmRto(RdmaTxQueuePair* qp);
    void RtoFired(RdmaTxQueuePair* qp);
    void WakeAt(uint64_t ps);
    /// The pacing wake-up scheduled as number seq fired.
    void Wake(uint64_t seq);
    void EnsureNp();

    Ptr<Node> m_node;
    Ptr<QbbNetDevice> m_dev;
    Ipv4Address m_ip;
    RoceAddr m_ipBits; ///< m_ip as frames carry it (no call into ns-3 per packet)
    Ptr<LibccConfig> m_cc;
    std::unique_ptr<LibccNp> m_np;
    uint32_t m_npCapacity;

    std::vector<Ptr<RdmaTxQueuePair>> m_tx;
    std::vector<RdmaTxQueuePair*> m_active; ///< started, not finished
    size_t m_rr;
    std::vector<RdmaRxQueuePair> m_rx;
    std::deque<QbbFramePtr> m_ctrl;
    void FillControlFields(RocePacketInfo& info, RocePktType type, const RdmaRxQueuePair& rx) const;
    void FillFlowFields(RocePacketInfo& info, RocePktType type, const RdmaFlowParams& f,
                        const RdmaTxQueuePair& qp) const;

    libcc_ack m_rxAck{};
    uint64_t m_ctrlBytes;
    /**
     * Pacing wake-ups, reused once fired instead of an event allocated per
     * paced packet. Moving a wake earlier does not cancel the pending one:
     * it stays queued (as a cancelled event would) and does nothing when it
     * fires, because its number is no longer m_wakeSeq.
     */
    class WakeEvent;
    EventPool<WakeEvent> m_wakePool;
    uint64_t m_wakeAtPs; ///< the pending wake-up's time, UINT64_MAX if none
    uint64_t m_wakeSeq = 0;
    Counters m_counters;

    // attributes
    uint32_t m_payload;
    uint8_t m_ackPrio;
    Time m_rto;
    Time m_nackInterval;
    uint8_t m_ackIntFormat;

    TracedCallback<const RdmaFlowRecord&> m_flowComplete;
    TracedCallback<uint32_t, uint64_t, uint32_t> m_rxDeliver;
    TracedCallback<uint32_t, uint64_t, uint32_t, bool> m_txData;
};

} // namespace ns3

#endif
