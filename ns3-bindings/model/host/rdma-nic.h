// SPDX-License-Identifier: GPL-2.0-only
//
// RdmaNic: an RDMA host NIC on one QbbNetDevice, aggregated to its Node. It
// composes the two sides of a NIC, each in its own file:
//   RdmaSender   (rdma-sender.h)    queue pairs scheduled round robin, each
//                paced at libcc's rate and bounded by libcc's window,
//                go-back-N, retransmission timeout, HPCC++ probes
//   RdmaReceiver (rdma-receiver.h)  in-order delivery per queue pair,
//                libcc's Notification Point, ACK / NACK / CNP
// and owns what both use, handed to them as an RdmaNicContext
// (rdma-nic-context.h): the device, the congestion control, the control
// queue (ACK, NACK and CNP go out before data), counters and traces.
//
// The NIC also carries the node's own IPv4 traffic (InternetStackHelper on
// the host; see docs/ns3-bindings.md, "IP traffic beside RDMA"): packets the
// stack sends through the device (QbbNetDevice::Send) wait in an ns-3
// Queue<Packet> (IpQueueSize; the device's NetDeviceQueueInterface stops and
// wakes the stack's queue disc by it, as on PointToPointNetDevice) and leave
// on IpPriority, written into their DSCP. The egress scheduler serves
// control frames first, then shares the line between RDMA data (the queue
// pairs' own round robin) and IP byte-fairly, neither banking credit while
// idle. Received frames that are not RoCEv2 go up to the node's stack.
// Per packet: no string work, no map lookups (queue pair numbers index
// vectors, as the BTH destination QP does in a real NIC).

#ifndef RDMA_NIC_H
#define RDMA_NIC_H

#include "libcc-config.h"
#include "qbb-net-device.h"
#include "rdma-nic-context.h"
#include "rdma-queue-pair.h"
#include "rdma-receiver.h"
#include "rdma-sender.h"
#include "rocev2-packet.h"

#include <ns3/ipv4-address.h>
#include <ns3/node.h>
#include <ns3/object.h>
#include <ns3/queue-size.h>
#include <ns3/queue.h>
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
    static constexpr uint32_t PROBE_PSN = RdmaNicContext::PROBE_PSN;

    static TypeId GetTypeId();
    RdmaNic();
    ~RdmaNic() override;

    /// Bind to the host's device: become its egress source and receiver.
    void Setup(Ptr<Node> node, Ptr<QbbNetDevice> dev, Ipv4Address ip);
    Ptr<QbbNetDevice> GetDevice() const
    {
        return m_ctx.dev;
    }
    Ipv4Address GetAddress() const
    {
        return m_ip;
    }
    /// The congestion control every queue pair of this NIC uses (shared).
    /// Which INT headers data and ACKs carry is libcc's description of the
    /// algorithm (libcc_algorithm_info_get).
    void SetCcConfig(Ptr<LibccConfig> cfg);
    Ptr<LibccConfig> GetCcConfig() const
    {
        return m_ctx.cc;
    }

    /// Open a flow from src to dst (both NICs, out-of-band set-up like
    /// RDMA CM) starting at flow.startNs. Returns the sending queue pair.
    static Ptr<RdmaTxQueuePair> Connect(Ptr<RdmaNic> src, Ptr<RdmaNic> dst,
                                        const RdmaFlowParams& flow);

    /// Wire bytes of a full data packet (no INT) and of its per-packet
    /// overhead (headers, FCS, preamble, gap): what the ideal FCT counts.
    uint32_t DataWireBytes() const;
    uint32_t DataOverheadBytes() const;
    /// Wire bytes of an ACK without INT hops or signal fields.
    static uint32_t AckWireBytes();
    /// Wire bytes of this NIC's ACKs without INT hops: with the signal
    /// fields its algorithm's ACKs carry (libcc_algorithm_info.signals).
    uint32_t GetAckWireBytes() const;
    /// libcc_algorithm_info.signals of the algorithm this NIC runs.
    uint32_t GetSignals() const
    {
        return m_ctx.signals;
    }
    uint32_t GetPayloadSize() const
    {
        return m_ctx.payload;
    }

    // QbbEgressSource
    QbbFramePtr DequeueFrame(const std::array<bool, QBB_N_PRIO>& pausedPrio,
                             uint8_t& prioOut) override;
    uint64_t GetQueueBytes(uint8_t prio) const override;
    /// Control or IP packets queued or a flow still sending (paced or window-bound flows count).
    bool HasPending() const override;
    /// An IPv4 packet of the node's stack: marked with IpPriority, queued (false if full).
    bool EnqueuePacket(Ptr<Packet> packet) override;

    /// Writes prio into the DSCP class selector of an IPv4 packet.
    using IpPriorityMarker = void (*)(Packet& packet, uint8_t prio);
    /**
     * The marker EnqueuePacket applies. IPv4 headers are ns-3's internet
     * module, which RDMA-only programs do not load: the IP support library
     * (libns3-libcc-ip, RdmaNetwork::InstallInternetStack) installs its
     * marker when it is loaded. Without one, IP packets keep the DSCP their
     * stack gave them (they still leave on IpPriority).
     */
    static void SetIpPriorityMarker(IpPriorityMarker marker);

    /// The queue of the node's IPv4 packets (nullptr before Setup), to
    /// read: packets go in by EnqueuePacket and out by DequeueFrame only
    /// (the NIC counts them itself instead of asking the queue per frame).
    Ptr<Queue<Packet>> GetIpQueue() const
    {
        return m_ipQueue;
    }
    /// The IpQueueSize attribute (also resizes a queue that exists).
    void SetIpQueueSize(QueueSize size);
    QueueSize GetIpQueueSize() const;
    /// The priority IP packets leave on (the IpPriority attribute).
    uint8_t GetIpPriority() const
    {
        return m_ipPrio;
    }

    uint32_t GetNTxQueuePairs() const
    {
        return m_sender.GetNQueuePairs();
    }
    Ptr<RdmaTxQueuePair> GetTxQueuePair(uint32_t qpn) const
    {
        return m_sender.GetQueuePair(qpn);
    }
    uint32_t GetNRxQueuePairs() const
    {
        return m_receiver.GetNQueuePairs();
    }
    const RdmaRxQueuePair& GetRxQueuePair(uint32_t qpn) const
    {
        return m_receiver.GetQueuePair(qpn);
    }

    using Counters = RdmaNicCounters;
    const Counters& GetCounters() const
    {
        return m_ctx.counters;
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
    void ReceiveFrame(QbbNetDevice* dev, QbbFramePtr&& frame) override;
    void Dispatch(const RocePacketInfo& info);
    /// The next IP packet as a frame (the queue is not empty).
    QbbFramePtr DequeueIp(uint8_t& prioOut);
    // Accessors of the attributes kept in m_ctx.
    void SetPayloadSize(uint32_t bytes);
    void SetAckPriority(uint8_t prio);
    uint8_t GetAckPriority() const;
    void SetRetransmitTimeout(Time rto);
    Time GetRetransmitTimeout() const;
    void SetNackInterval(Time interval);
    Time GetNackInterval() const;

    Ipv4Address m_ip;
    /// The device, libcc's description, attributes, counters, control
    /// queue: what the sender and receiver share with the NIC.
    RdmaNicContext m_ctx;
    RdmaSender m_sender;
    RdmaReceiver m_receiver;
    static IpPriorityMarker s_ipPriorityMarker;
    Ptr<Queue<Packet>> m_ipQueue;
    /// Packets in m_ipQueue: QueueBase::IsEmpty is a call into ns-3 per frame.
    uint32_t m_ipQueued = 0;
    /// Bytes each class (RDMA data, IP) was served: the scheduler picks the
    /// class behind; a class with nothing to send is brought level.
    uint64_t m_rdmaServed = 0;
    uint64_t m_ipServed = 0;

    // attributes (the others are m_ctx's)
    uint8_t m_ipPrio;
    QueueSize m_ipQueueSize;

    TracedCallback<const RdmaFlowRecord&> m_flowComplete;
    TracedCallback<uint32_t, uint64_t, uint32_t> m_rxDeliver;
    TracedCallback<uint32_t, uint64_t, uint32_t, bool> m_txData;
};

} // namespace ns3

#endif
