// SPDX-License-Identifier: GPL-2.0-only

#include "rdma-nic.h"

#include <ns3/boolean.h>
#include <ns3/log.h>
#include <ns3/simulator.h>
#include <ns3/string.h>
#include <ns3/uinteger.h>

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
                          UintegerValue(1000), MakeUintegerAccessor(&RdmaNic::m_payload),
                          MakeUintegerChecker<uint32_t>(1, 9000))
            .AddAttribute("AckPriority", "Priority (0..7) of ACK, NACK and CNP packets",
                          UintegerValue(0), MakeUintegerAccessor(&RdmaNic::m_ackPrio),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddAttribute("RetransmitTimeout",
                          "Go back to the first unacknowledged byte when nothing was "
                          "acknowledged for this long while data is outstanding, time",
                          TimeValue(MilliSeconds(1)), MakeTimeAccessor(&RdmaNic::m_rto),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("NackInterval",
                          "Minimum time between two NACKs for the same missing byte, time",
                          TimeValue(MicroSeconds(100)), MakeTimeAccessor(&RdmaNic::m_nackInterval),
                          MakeTimeChecker(Time(0)))
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
    : m_dataHasInt(false)
    , m_dataIntFormat(RoceIntHeader::FORMAT_HPCC)
    , m_ackIntFormat(RoceIntHeader::FORMAT_HPCC)
    , m_sender(this)
    , m_receiver(this)
    , m_ctrlBytes(0)
    , m_payload(1000)
    , m_ackPrio(0)
{
}

RdmaNic::~RdmaNic() = default;

void
RdmaNic::DoDispose()
{
    m_sender.Dispose();
    m_receiver.Dispose();
    m_ctrl.clear();
    if (m_dev)
    {
        m_dev->SetEgressSource(nullptr);
        m_dev->SetFrameReceiver(nullptr);
    }
    m_dev = nullptr;
    m_node = nullptr;
    m_cc = nullptr;
    Object::DoDispose();
}

void
RdmaNic::Setup(Ptr<Node> node, Ptr<QbbNetDevice> dev, Ipv4Address ip)
{
    m_node = node;
    m_dev = dev;
    m_ip = ip;
    m_ipBits = RoceAddr(ip);
    dev->SetEgressSource(this);
    dev->SetFrameReceiver(this);
}

void
RdmaNic::SetCcConfig(Ptr<LibccConfig> cfg)
{
    m_cc = cfg;
    libcc_algorithm_info ai{};
    if (cfg)
    {
        libcc_algorithm_info_get(cfg->GetAlgorithm().c_str(), &ai);
    }
    m_dataHasInt = ai.data_int != LIBCC_INT_FORMAT_NONE;
    m_dataIntFormat = RoceIntHeader::WireFormat(ai.data_int);
    m_ackIntFormat = RoceIntHeader::WireFormat(ai.ack_int);
}

void
RdmaNic::EnsureCc()
{
    if (!m_cc)
    {
        SetCcConfig(LibccConfig::Create("none"));
    }
}

uint32_t
RdmaNic::DataWireBytes() const
{
    return QbbNetDevice::WireBytes(RoceDataHeaderBytes(false, 0) + m_payload);
}

uint32_t
RdmaNic::DataOverheadBytes() const
{
    return DataWireBytes() - m_payload;
}

uint32_t
RdmaNic::AckWireBytes()
{
    RocePacketInfo a;
    a.type = RocePktType::ACK;
    return QbbNetDevice::WireBytes(RocePacketBytes(a));
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
    return qp;
}

void
RdmaNic::Kick()
{
    if (m_dev)
    {
        m_dev->TriggerTransmit();
    }
}

uint64_t
RdmaNic::GetQueueBytes(uint8_t prio) const
{
    return prio == m_ackPrio ? m_ctrlBytes : 0;
}

bool
RdmaNic::HasPending() const
{
    return !m_ctrl.empty() || m_sender.HasActive();
}

void
RdmaNic::EnqueueControl(QbbFramePtr f)
{
    m_ctrlBytes += f->ipBytes;
    m_ctrl.push_back(std::move(f));
}

QbbFramePtr
RdmaNic::DequeueFrame(const std::array<bool, QBB_N_PRIO>& paused, uint8_t& prioOut)
{
    if (!m_ctrl.empty() && !paused[m_ackPrio])
    {
        QbbFramePtr f = std::move(m_ctrl.front());
        m_ctrl.pop_front();
        m_ctrlBytes -= f->ipBytes;
        prioOut = m_ackPrio;
        return f;
    }
    return m_sender.Dequeue(paused, prioOut);
}

void
RdmaNic::ReceiveFrame(QbbNetDevice*, QbbFramePtr frame)
{
    if (!frame->packet)
    {
        Dispatch(frame->roce);
        return;
    }
    // A frame that arrived as Packet bytes (a Packet-based sender).
    RocePacketInfo info;
    if (!RoceParse(frame->packet, info))
    {
        m_counters.badPackets++;
        return;
    }
    Dispatch(info);
}

void
RdmaNic::Dispatch(const RocePacketInfo& info)
{
    switch (info.type)
    {
    case RocePktType::DATA:
    case RocePktType::PROBE:
        m_receiver.OnData(info);
        if (!m_ctrl.empty())
        {
            Kick(); // an ACK, NACK or CNP was queued
        }
        break;
    case RocePktType::ACK:
    case RocePktType::NACK:
        m_sender.OnAck(info);
        break;
    case RocePktType::CNP:
        m_sender.OnCnp(info.destQp);
        break;
    default:
        m_counters.badPackets++;
        break;
    }
}

} // namespace ns3
