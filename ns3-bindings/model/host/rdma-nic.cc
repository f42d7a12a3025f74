// SPDX-License-Identifier: GPL-2.0-only

#include "rdma-nic.h"

#include <ns3/boolean.h>
#include <ns3/drop-tail-queue.h>
#include <ns3/log.h>
#include <ns3/net-device-queue-interface.h>
#include <ns3/object-vector.h>
#include <ns3/simulator.h>
#include <ns3/string.h>
#include <ns3/uinteger.h>

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaNic");
NS_OBJECT_ENSURE_REGISTERED(RdmaNic);

TypeId
RdmaNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaNic")
            .SetParent<Object>()
            .SetGroupName("Libcc")
            .AddConstructor<RdmaNic>()
            .AddAttribute("PayloadSize",
                          "Payload bytes of a full data packet (the MTU's payload), bytes",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&RdmaNic::SetPayloadSize, &RdmaNic::GetPayloadSize),
                          MakeUintegerChecker<uint32_t>(1, 9000))
            .AddAttribute("AckPriority", "Priority (0..7) of ACK, NACK and CNP packets",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaNic::SetAckPriority, &RdmaNic::GetAckPriority),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddAttribute("IpPriority",
                          "Priority (0..7) the node's own IPv4 packets (InternetStackHelper "
                          "traffic) leave on; written into their DSCP (priority x 8, the bits "
                          "switches classify by). Lossless or lossy as the switches' "
                          "LosslessPriorities say",
                          UintegerValue(0), MakeUintegerAccessor(&RdmaNic::m_ipPrio),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddAttribute("IpQueueSize",
                          "Size of the NIC's queue of the node's IPv4 packets, packets (\"100p\") "
                          "or bytes (\"150KB\"); full, it stops the stack's queue disc",
                          QueueSizeValue(QueueSize("100p")),
                          MakeQueueSizeAccessor(&RdmaNic::SetIpQueueSize, &RdmaNic::GetIpQueueSize),
                          MakeQueueSizeChecker())
            .AddAttribute(
                "RetransmitTimeout",
                "Go back to the first unacknowledged byte when nothing was "
                "acknowledged for this long while data is outstanding, unless the "
                "flow's congestion control sets its own (libcc_rp_rto_ns), time",
                TimeValue(MilliSeconds(1)),
                MakeTimeAccessor(&RdmaNic::SetRetransmitTimeout, &RdmaNic::GetRetransmitTimeout),
                MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("NackInterval",
                          "Minimum time between two NACKs for the same missing byte, time",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&RdmaNic::SetNackInterval, &RdmaNic::GetNackInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute(
                "QueuePairList",
                "The sending queue pairs (RdmaTxQueuePair), by queue pair number: "
                "Config paths .../$ns3::RdmaNic/QueuePairList/<qpn>/Rate",
                ObjectVectorValue(),
                MakeObjectVectorAccessor(&RdmaNic::GetNTxQueuePairs, &RdmaNic::GetTxQueuePair),
                MakeObjectVectorChecker<RdmaTxQueuePair>())
            .AddTraceSource("FlowComplete",
                            "A flow sent by this NIC was fully acknowledged: size, start, "
                            "FCT and ideal FCT",
                            MakeTraceSourceAccessor(&RdmaNic::m_flowComplete),
                            "ns3::RdmaNic::FlowCompleteCallback")
            .AddTraceSource("RxDeliver",
                            "In-order data delivered to the receiving application: flow id, "
                            "first byte, bytes",
                            MakeTraceSourceAccessor(&RdmaNic::m_rxDeliver),
                            "ns3::RdmaNic::RxDeliverCallback")
            .AddTraceSource("TxData",
                            "A data packet left: flow id, first byte, payload bytes, "
                            "retransmission",
                            MakeTraceSourceAccessor(&RdmaNic::m_txData),
                            "ns3::RdmaNic::TxDataCallback");
    return tid;
}

RdmaNic::RdmaNic()
    : m_sender(m_ctx)
    , m_receiver(m_ctx)
    , m_ipPrio(0)
    , m_ipQueueSize("100p")
{
    m_ctx.flowComplete = &m_flowComplete;
    m_ctx.rxDeliver = &m_rxDeliver;
    m_ctx.txData = &m_txData;
}

void
RdmaNic::SetPayloadSize(uint32_t bytes)
{
    m_ctx.payload = bytes;
}

void
RdmaNic::SetAckPriority(uint8_t prio)
{
    m_ctx.ackPrio = prio;
}

uint8_t
RdmaNic::GetAckPriority() const
{
    return m_ctx.ackPrio;
}

void
RdmaNic::SetRetransmitTimeout(Time rto)
{
    m_ctx.rto = rto;
}

Time
RdmaNic::GetRetransmitTimeout() const
{
    return m_ctx.rto;
}

void
RdmaNic::SetNackInterval(Time interval)
{
    m_ctx.nackInterval = interval;
}

Time
RdmaNic::GetNackInterval() const
{
    return m_ctx.nackInterval;
}

RdmaNic::~RdmaNic() = default;

void
RdmaNic::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_sender.Dispose();
    m_receiver.Dispose();
    m_ctx.ctrl.Clear();
    m_ipQueue = nullptr;
    m_ipQueued = 0;
    if (m_ctx.dev)
    {
        m_ctx.dev->SetEgressSource(nullptr);
        m_ctx.dev->SetFrameReceiver(nullptr);
    }
    m_ctx.dev = nullptr;
    m_ctx.node = nullptr;
    m_ctx.cc = nullptr;
    Object::DoDispose();
}

void
RdmaNic::Setup(Ptr<Node> node, Ptr<QbbNetDevice> dev, Ipv4Address ip)
{
    NS_LOG_FUNCTION(this << node << dev << ip);
    m_ctx.node = node;
    m_ctx.dev = dev;
    m_ip = ip;
    m_ctx.ipBits = RoceAddr(ip);
    dev->SetEgressSource(this);
    dev->SetFrameReceiver(this);
    // The node's IP traffic: a device queue the stack's traffic control
    // layer sees through the device's NetDeviceQueueInterface, as
    // PointToPointHelper sets one up (stop when full, wake on dequeue).
    m_ipQueue = CreateObject<DropTailQueue<Packet>>();
    m_ipQueue->SetMaxSize(m_ipQueueSize);
    Ptr<NetDeviceQueueInterface> ndqi = dev->GetObject<NetDeviceQueueInterface>();
    if (!ndqi)
    {
        ndqi = CreateObject<NetDeviceQueueInterface>();
        dev->AggregateObject(ndqi);
    }
    ndqi->GetTxQueue(0)->ConnectQueueTraces(m_ipQueue);
}

void
RdmaNic::SetCcConfig(Ptr<LibccConfig> cfg)
{
    NS_LOG_FUNCTION(this << cfg);
    m_ctx.SetCc(cfg);
}

void
RdmaNicContext::SetCc(Ptr<LibccConfig> cfg)
{
    cc = cfg;
    libcc_algorithm_info ai{};
    if (cfg)
    {
        libcc_algorithm_info_get(cfg->GetAlgorithm().c_str(), &ai);
    }
    dataHasInt = ai.data_int != LIBCC_INT_FORMAT_NONE;
    dataIntFormat = RoceIntHeader::WireFormat(ai.data_int);
    ackIntFormat = RoceIntHeader::WireFormat(ai.ack_int);
    signals = ai.signals;
}

void
RdmaNicContext::EnsureCc()
{
    if (!cc)
    {
        SetCc(LibccConfig::Create("none"));
    }
}

RocePacketInfo
RdmaNicContext::WithSignals(RocePktType type) const
{
    // The fields a type does not carry are not counted (RoceSignalBytes).
    RocePacketInfo p;
    p.type = type;
    p.hasTxTs = (signals & LIBCC_SIGNAL_ACK_TX_TS) != 0;
    p.hasNicTs = (signals & LIBCC_SIGNAL_ACK_NIC_TS) != 0;
    p.hasPint = (signals & LIBCC_SIGNAL_DATA_PINT) != 0;
    p.hasHops = (signals & LIBCC_SIGNAL_ACK_HOPS) != 0;
    return p;
}

uint32_t
RdmaNicContext::DataWireBytes() const
{
    RocePacketInfo d = WithSignals(RocePktType::DATA);
    d.payloadBytes = payload;
    return QbbNetDevice::WireBytes(RocePacketBytes(d));
}

uint32_t
RdmaNicContext::DataOverheadBytes() const
{
    return DataWireBytes() - payload;
}

uint32_t
RdmaNic::DataWireBytes() const
{
    return m_ctx.DataWireBytes();
}

uint32_t
RdmaNic::DataOverheadBytes() const
{
    return m_ctx.DataOverheadBytes();
}

uint32_t
RdmaNic::AckWireBytes()
{
    RocePacketInfo a;
    a.type = RocePktType::ACK;
    return QbbNetDevice::WireBytes(RocePacketBytes(a));
}

uint32_t
RdmaNic::GetAckWireBytes() const
{
    return QbbNetDevice::WireBytes(RocePacketBytes(m_ctx.WithSignals(RocePktType::ACK)));
}

Ptr<RdmaTxQueuePair>
RdmaNic::Connect(Ptr<RdmaNic> src, Ptr<RdmaNic> dst, const RdmaFlowParams& flowIn)
{
    if (flowIn.sizeBytes == 0)
    {
        throw std::invalid_argument("RdmaNic::Connect: a flow needs at least one byte");
    }
    RdmaFlowParams flow = flowIn;
    flow.srcIp = src->m_ip.Get();
    flow.dstIp = dst->m_ip.Get();
    uint32_t rxQpn = dst->m_receiver.AddQueuePair(flow);
    Ptr<RdmaTxQueuePair> qp = src->m_sender.AddQueuePair(flow, rxQpn);
    dst->m_receiver.SetPeer(rxQpn, qp->GetLocalQpn());
    qp->m_leaveNotify = MakeCallback(&RdmaReceiver::Shorten, &dst->m_receiver);
    NS_LOG_INFO("flow " << flow.flowId << ": " << flow.sizeBytes << " bytes, " << src->m_ip
                        << " QP " << qp->GetLocalQpn() << " -> " << dst->m_ip << " QP " << rxQpn
                        << ", start " << flow.startNs << " ns");
    return qp;
}

uint64_t
RdmaNic::GetQueueBytes(uint8_t prio) const
{
    return (prio == m_ctx.ackPrio ? m_ctx.ctrlBytes : 0) +
           (prio == m_ipPrio && m_ipQueue ? m_ipQueue->GetNBytes() : 0);
}

bool
RdmaNic::HasPending() const
{
    return !m_ctx.ctrl.Empty() || m_sender.HasActive() || m_ipQueued != 0;
}

void
RdmaNic::SetIpQueueSize(QueueSize size)
{
    m_ipQueueSize = size;
    if (m_ipQueue)
    {
        m_ipQueue->SetMaxSize(size);
    }
}

QueueSize
RdmaNic::GetIpQueueSize() const
{
    return m_ipQueueSize;
}

RdmaNic::IpPriorityMarker RdmaNic::s_ipPriorityMarker = nullptr;

void
RdmaNic::SetIpPriorityMarker(IpPriorityMarker marker)
{
    s_ipPriorityMarker = marker;
}

bool
RdmaNic::EnqueuePacket(Ptr<Packet> packet)
{
    if (!m_ipQueue)
    {
        return false;
    }
    // The priority travels in the DSCP class selector, as RoCEv2's does.
    if (s_ipPriorityMarker)
    {
        s_ipPriorityMarker(*packet, m_ipPrio);
    }
    if (!m_ipQueue->Enqueue(packet))
    {
        NS_LOG_LOGIC("IP packet of " << packet->GetSize() << " bytes dropped: IP queue full");
        m_ctx.counters.ipDrops++;
        return false;
    }
    m_ipQueued++;
    NS_LOG_LOGIC("IP packet of " << packet->GetSize() << " bytes queued, prio "
                                 << unsigned(m_ipPrio));
    return true;
}

QbbFramePtr
RdmaNic::DequeueIp(uint8_t& prioOut)
{
    Ptr<Packet> p = m_ipQueue->Dequeue();
    m_ipQueued--;
    m_ipServed += p->GetSize();
    m_ctx.counters.ipSent++;
    prioOut = m_ipPrio;
    return QbbFrameFromPacket(p, false);
}

QbbFramePtr
RdmaNic::DequeueFrame(const std::array<bool, QBB_N_PRIO>& paused, uint8_t& prioOut)
{
    if (!m_ctx.ctrl.Empty() && !paused[m_ctx.ackPrio])
    {
        QbbFramePtr f = m_ctx.ctrl.Pop();
        m_ctx.ctrlBytes -= f->ipBytes;
        if (f->roce.hasNicTs)
        {
            f->roce.remoteTxNs = LibccNow(); // the ACK leaves the NIC now
        }
        prioOut = m_ctx.ackPrio;
        return f;
    }
    // RDMA data and IP share the line byte-fairly: the class served less
    // goes first; a class with nothing it may send now is brought level,
    // so it cannot bank the line time it did not use.
    bool ipReady = m_ipQueued != 0 && !paused[m_ipPrio];
    if (!ipReady)
    {
        m_ipServed = std::max(m_ipServed, m_rdmaServed);
    }
    else if (m_ipServed <= m_rdmaServed)
    {
        return DequeueIp(prioOut);
    }
    QbbFramePtr f = m_sender.Dequeue(paused, prioOut);
    if (f)
    {
        m_rdmaServed += f->ipBytes;
        return f;
    }
    m_rdmaServed = std::max(m_rdmaServed, m_ipServed);
    return ipReady ? DequeueIp(prioOut) : nullptr;
}

void
RdmaNic::ReceiveFrame(QbbNetDevice*, QbbFramePtr&& frame)
{
    if (!frame->packet)
    {
        Dispatch(frame->roce);
        return;
    }
    // A frame that arrived as Packet bytes: the node's IP traffic, or RoCEv2
    // from a Packet-based sender.
    RocePacketInfo info;
    if (RoceParse(frame->packet, info))
    {
        Dispatch(info);
        return;
    }
    RoceFlowKey key;
    if (!RocePeekKey(frame->packet, key) ||
        (key.proto == 17 && (key.dport == ROCEV2_UDP_PORT || key.sport == ROCEV2_UDP_PORT)))
    {
        m_ctx.counters.badPackets++; // not IPv4, or RoCEv2 that does not parse
        return;
    }
    // The stack edits what it receives: give it its own copy.
    Ptr<Packet> p = frame->packet->Copy();
    frame.reset();
    m_ctx.counters.ipRcvd++;
    if (m_ctx.dev)
    {
        m_ctx.dev->ForwardUp(p);
    }
}

void
RdmaNic::Dispatch(const RocePacketInfo& info)
{
    switch (info.type)
    {
    case RocePktType::DATA:
    case RocePktType::PROBE:
        m_receiver.OnData(info);
        if (!m_ctx.ctrl.Empty())
        {
            m_ctx.Kick(); // an ACK, NACK or CNP was queued
        }
        break;
    case RocePktType::ACK:
    case RocePktType::NACK:
        m_sender.OnAck(info);
        break;
    case RocePktType::CNP:
        m_sender.OnCnp(info.destQp);
        break;
    case RocePktType::FEEDBACK:
        m_sender.OnFeedback(info);
        break;
    default:
        m_ctx.counters.badPackets++;
        break;
    }
}

} // namespace ns3
