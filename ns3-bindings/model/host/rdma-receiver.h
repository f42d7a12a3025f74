// SPDX-License-Identifier: GPL-2.0-only
//
// RdmaReceiver: the receiving side of an RdmaNic. Delivers each queue pair's
// data in order, hands every data and probe packet to libcc's Notification
// Point and sends what its verdict says (ACK with the INT hops, N and Rx
// window libcc put in it; CNPs through libcc's callback), and a NACK when a
// packet is missing (go-back-N at the sender).

#ifndef RDMA_RECEIVER_H
#define RDMA_RECEIVER_H

#include "libcc-agent.h"
#include "rdma-queue-pair.h"
#include "rocev2-packet.h"

#include <memory>
#include <vector>

namespace ns3
{

struct RdmaNicContext;

class RdmaReceiver
{
  public:
    explicit RdmaReceiver(RdmaNicContext& ctx);
    ~RdmaReceiver();
    RdmaReceiver(const RdmaReceiver&) = delete;
    RdmaReceiver& operator=(const RdmaReceiver&) = delete;

    /// A new receiving queue pair for flow; returns its number.
    uint32_t AddQueuePair(const RdmaFlowParams& flow);
    void SetPeer(uint32_t qpn, uint32_t peerQpn)
    {
        m_rx[qpn].peerQpn = peerQpn;
    }
    uint32_t GetNQueuePairs() const
    {
        return static_cast<uint32_t>(m_rx.size());
    }
    const RdmaRxQueuePair& GetQueuePair(uint32_t qpn) const
    {
        return m_rx[qpn];
    }

    /// The sender of queue pair qpn left (out of band, as a QP teardown):
    /// the flow ends at sizeBytes.
    void Shorten(uint32_t qpn, uint64_t sizeBytes);
    /// A data or probe packet for queue pair info.destQp. Queues the ACK,
    /// NACK or CNP it causes; the caller triggers the device.
    void OnData(const RocePacketInfo& info);
    void Dispose();

  private:
    void EnsureNp();
    void SendAck(RdmaRxQueuePair& rx, bool nack, const libcc_np_verdict* verdict, bool ce,
                 uint32_t psn, uint8_t echoFormat);
    void SendCnp(uint64_t rxQpn);
    void FillControlFields(RocePacketInfo& info, RocePktType type, const RdmaRxQueuePair& rx) const;

    RdmaNicContext& m_ctx; //!< what it shares with its RdmaNic, which owns both
    std::vector<RdmaRxQueuePair> m_rx;
    std::unique_ptr<LibccNp> m_np;
    uint32_t m_npCapacity;
};

} // namespace ns3

#endif
