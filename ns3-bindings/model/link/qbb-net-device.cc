// SPDX-License-Identifier: GPL-2.0-only
#include "qbb-net-device.h"

#include "event-pool.h"
#include "qbb-channel.h"
#include "sim-fast.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/ethernet-header.h"
#include "ns3/ethernet-trailer.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/trace-helper.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QbbNetDevice");
NS_OBJECT_ENSURE_REGISTERED(QbbNetDevice);

namespace
{
// The MAC control multicast address PAUSE frames are sent to (802.3 Annex 31B).
const Mac48Address PAUSE_DST("01:80:c2:00:00:01");
} // namespace

TypeId
QbbNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::QbbNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("Libcc")
            .AddConstructor<QbbNetDevice>()
            .AddAttribute(
                "DataRate", "Line rate of the link (bits/s); serialization of every frame.",
                DataRateValue(DataRate("100Gbps")),
                MakeDataRateAccessor(&QbbNetDevice::SetDataRate, &QbbNetDevice::GetDataRate),
                MakeDataRateChecker())
            .AddAttribute("Mtu", "IP MTU reported to upper layers (bytes); not enforced.",
                          UintegerValue(1500), MakeUintegerAccessor(&QbbNetDevice::m_mtu),
                          MakeUintegerChecker<uint16_t>())
            .AddTraceSource(
                "PfcTx", "The node asked this device to send PFC (priority, quanta; 0 = resume).",
                MakeTraceSourceAccessor(&QbbNetDevice::m_pfcTxTrace),
                "ns3::QbbNetDevice::PfcTracedCallback")
            .AddTraceSource("PfcRx",
                            "A PFC frame arrived for a priority (priority, quanta; 0 = resume).",
                            MakeTraceSourceAccessor(&QbbNetDevice::m_pfcRxTrace),
                            "ns3::QbbNetDevice::PfcTracedCallback")
            .AddTraceSource(
                "PhyTxBegin", "A frame (Ethernet header and FCS included) starts on the wire.",
                MakeTraceSourceAccessor(&QbbNetDevice::m_txTrace), "ns3::Packet::TracedCallback")
            .AddAttribute("ReceiveErrorRate",
                          "Share of arriving frames dropped at random, [0, 1) (the HPCC "
                          "simulator's per-packet RateErrorModel on receive).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&QbbNetDevice::SetReceiveErrorRate,
                                             &QbbNetDevice::GetReceiveErrorRate),
                          MakeDoubleChecker<double>(0.0, std::nextafter(1.0, 0.0)))
            .AddTraceSource("PhyRxEnd", "A frame was fully received.",
                            MakeTraceSourceAccessor(&QbbNetDevice::m_rxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacTx", "An IPv4 packet from the node's stack was queued to send.",
                            MakeTraceSourceAccessor(&QbbNetDevice::m_macTxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacTxDrop",
                            "An IPv4 packet from the node's stack was refused (queue full, "
                            "not IPv4, above the MTU, no queue).",
                            MakeTraceSourceAccessor(&QbbNetDevice::m_macTxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRx", "An IPv4 packet was handed up to the node's stack.",
                            MakeTraceSourceAccessor(&QbbNetDevice::m_macRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Frame",
                            "A frame starts on the wire (true) or arrived and was not lost "
                            "(false), as parsed fields.",
                            MakeTraceSourceAccessor(&QbbNetDevice::m_frameTrace),
                            "ns3::QbbNetDevice::FrameTracedCallback")

            .AddTraceSource("PromiscSniffer",
                            "Every frame sent or received, Ethernet header without FCS, "
                            "as pcap writes it (a point-to-point link: every frame is "
                            "for this end, promiscuous or not).",
                            MakeTraceSourceAccessor(&QbbNetDevice::m_sniffer),
                            "ns3::Packet::TracedCallback");
    return tid;
}

QbbNetDevice::QbbNetDevice()
    : m_source(nullptr)
    , m_ifIndex(0)
    , m_mtu(1500)
    , m_rate(DataRate("100Gbps"))
    , m_inDequeue(false)
    , m_txEnd(-1)
    , m_txDonePending(false)
    , m_txCarry(0)
    , m_peerMacKnown(false)
    , m_txBytes(0)
    , m_rxBytes(0)
    , m_txPackets(0)
    , m_pfc(this, m_pfcTxTrace, m_pfcRxTrace)
{
}

QbbNetDevice::~QbbNetDevice() = default;

class QbbNetDevice::TxDoneEvent : public FastEvent
{
  public:
    explicit TxDoneEvent(QbbNetDevice* dev)
        : m_dev(dev)
    {
    }

  protected:
    void Notify() override
    {
        m_dev->TransmitComplete();
    }

  private:
    QbbNetDevice* m_dev; //!< raw, as the member-function event it replaces
};

void
QbbNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_pfc.Dispose();
    m_node = nullptr;
    m_channel = nullptr;
    m_source = nullptr;
    m_pendingCounter = nullptr;
    m_qbbRx = QbbReceiveCallback();
    m_frameRx = nullptr;
    m_rxCallback = NetDevice::ReceiveCallback();
    m_promiscCallback = NetDevice::PromiscReceiveCallback();
    m_txDone = nullptr; // a pending one stays alive through the scheduler's reference
    NetDevice::DoDispose();
}

bool
QbbNetDevice::Attach(Ptr<QbbChannel> ch)
{
    NS_LOG_FUNCTION(this << ch);
    if (!ch || !ch->Attach(this))
    {
        return false;
    }
    m_channel = ch;
    return true;
}

void
QbbNetDevice::SetEgressSource(QbbEgressSource* source)
{
    m_source = source;
    m_pendingCounter = source ? source->PendingCounter() : nullptr;
}

void
QbbNetDevice::SetQbbReceiveCallback(QbbReceiveCallback cb)
{
    m_qbbRx = cb;
}

void
QbbNetDevice::SetFrameReceiver(QbbFrameReceiver* receiver)
{
    m_frameRx = receiver;
}

bool
QbbNetDevice::IsPaused(uint8_t prio) const
{
    return prio < QBB_N_PRIO && m_pfc.GetPausedUntil(prio) > SimNowStep();
}

Time
QbbNetDevice::GetPausedUntil(uint8_t prio) const
{
    return prio < QBB_N_PRIO ? TimeStep(m_pfc.GetPausedUntil(prio)) : Time(0);
}

DataRate
QbbNetDevice::GetDataRate() const
{
    return m_rate;
}

void
QbbNetDevice::SetDataRate(DataRate rate)
{
    NS_LOG_FUNCTION(this << rate);
    m_rate = rate;
    m_rateBps = rate.GetBitRate();
    m_stepsPerSecond = 0; // work out the 64-bit bound again at the next frame
}

Time
QbbNetDevice::BitTime(uint64_t bits) const
{
    // Integer arithmetic: a double would round differently from one rate to another.
    unsigned __int128 num =
        static_cast<unsigned __int128>(bits) * static_cast<uint64_t>(Seconds(1).GetTimeStep());
    return TimeStep(static_cast<uint64_t>(num / m_rate.GetBitRate()));
}

Time
QbbNetDevice::LineTime(uint64_t wireBytes) const
{
    return BitTime(wireBytes * 8);
}

bool
QbbNetDevice::IsBusy() const
{
    return m_inDequeue || SimNowStep() < m_txEnd;
}

uint64_t
QbbNetDevice::GetTxDoneEvents() const
{
    return m_txDoneEvents;
}

uint64_t
QbbNetDevice::GetPausesSent(uint8_t prio) const
{
    return prio < QBB_N_PRIO ? m_pfc.GetPausesSent(prio) : 0;
}

uint64_t
QbbNetDevice::GetPausesReceived(uint8_t prio) const
{
    return prio < QBB_N_PRIO ? m_pfc.GetPausesReceived(prio) : 0;
}

uint64_t
QbbNetDevice::GetResumesSent(uint8_t prio) const
{
    return prio < QBB_N_PRIO ? m_pfc.GetResumesSent(prio) : 0;
}

uint64_t
QbbNetDevice::GetResumesReceived(uint8_t prio) const
{
    return prio < QBB_N_PRIO ? m_pfc.GetResumesReceived(prio) : 0;
}

uint64_t
QbbNetDevice::GetTxBytes() const
{
    return m_txBytes;
}

uint64_t
QbbNetDevice::GetRxBytes() const
{
    return m_rxBytes;
}

uint64_t
QbbNetDevice::GetTxPackets() const
{
    return m_txPackets;
}

uint64_t
QbbNetDevice::GetQueueBytes(uint8_t prio) const
{
    return m_source ? m_source->GetQueueBytes(prio) : 0;
}

void
QbbNetDevice::EnablePcap(const std::string& filename)
{
    NS_LOG_FUNCTION(this << filename);
    PcapHelper pcap;
    Ptr<PcapFileWrapper> file =
        pcap.CreateFile(filename, std::ios::out, PcapHelper::DLT_EN10MB, 65535);
    pcap.HookDefaultSink<QbbNetDevice>(this, "PromiscSniffer", file);
}

void
QbbNetDevice::TriggerTransmit()
{
    if (m_inDequeue || m_txDonePending)
    {
        return; // the frame's end will ask the source anyway
    }
    int64_t now = SimNowStep();
    if (now < m_txEnd)
    {
        // A frame is on the line and started with nothing behind it: its end
        // becomes an event only now that there may be something to send.
        ScheduleTxDone(now);
        return;
    }
    TransmitNext(now);
}

void
QbbNetDevice::ScheduleTxDone(int64_t now)
{
    if (!m_txDone)
    {
        m_txDone = Create<TxDoneEvent>(this);
    }
    m_txDonePending = true;
    m_txDoneEvents++;
    ScheduleReusedSteps(SimContext(), m_txEnd - now, PeekPointer(m_txDone));
}

void
QbbNetDevice::SendPfc(uint8_t prio, uint16_t quanta)
{
    NS_LOG_FUNCTION(this << unsigned(prio) << quanta);
    if (prio >= QBB_N_PRIO)
    {
        return;
    }
    m_pfc.Queue(prio, quanta);
    TriggerTransmit();
}

Mac48Address
QbbNetDevice::PeerMac()
{
    if (!m_peerMacKnown && m_channel)
    {
        Ptr<QbbNetDevice> peer = m_channel->GetPeer(this);
        if (peer)
        {
            m_peerMac = Mac48Address::ConvertFrom(peer->GetAddress());
            m_peerMacKnown = true;
        }
    }
    return m_peerMacKnown ? m_peerMac : Mac48Address::GetBroadcast();
}

Ptr<Packet>
QbbNetDevice::MakeFrame(Ptr<const Packet> packet, bool macControl, bool outgoing,
                        bool withFcs) const
{
    Ptr<Packet> frame = packet->Copy();
    EthernetHeader eth(false);
    Mac48Address peer = m_peerMacKnown ? m_peerMac : Mac48Address::GetBroadcast();
    eth.SetSource(outgoing ? m_address : peer);
    eth.SetDestination(macControl ? PAUSE_DST : (outgoing ? peer : m_address));
    eth.SetLengthType(macControl ? ETHERTYPE_MAC_CONTROL : ETHERTYPE_IPV4);
    frame->AddHeader(eth);
    if (withFcs)
    {
        frame->AddTrailer(EthernetTrailer());
    }
    return frame;
}

void
QbbNetDevice::TransmitNext(int64_t now)
{
    if (!m_channel)
    {
        return;
    }
    if (StartQueuedPfc(now) || !m_source)
    {
        return;
    }
    std::array<bool, QBB_N_PRIO> paused{};
    m_pfc.GetPaused(now, paused);
    uint8_t prio = 0;
    // The source may make us send PFC (an XON) while asking: it must queue
    // behind this frame instead of re-entering TransmitNext.
    m_inDequeue = true;
    QbbFramePtr frame = m_source->DequeueFrame(paused, prio);
    m_inDequeue = false;
    if (!frame)
    {
        StartQueuedPfc(now); // asked for while the source had nothing to give
        return;
    }
    uint32_t wire = WireBytes(frame->ipBytes);
    StartFrame(std::move(frame), wire, now);
}

bool
QbbNetDevice::StartQueuedPfc(int64_t now)
{
    if (!m_pfc.HasQueued())
    {
        return false;
    }
    QbbFramePtr pfc = m_pfc.PopQueued();
    StartFrame(std::move(pfc), PAUSE_WIRE_BYTES, now);
    return true;
}

void
QbbNetDevice::StartFrame(QbbFramePtr&& frame, uint32_t wireBytes, int64_t now)
{
    // Exact serialization: carry the sub-step remainder to the next frame so
    // that back-to-back frames average exactly DataRate at any resolution.
    uint64_t rate = m_rateBps;
    if (m_stepsPerSecond == 0)
    {
        m_stepsPerSecond = static_cast<uint64_t>(Seconds(1).GetTimeStep());
        m_maxBits64 = (UINT64_MAX - rate) / m_stepsPerSecond;
    }
    if (now > m_txEnd)
    {
        // The line was idle: this frame starts on a whole time step, nothing is owed.
        m_txCarry = 0;
    }
    uint64_t bits = static_cast<uint64_t>(wireBytes) * 8;
    // Steps, not a Time: Time objects check ns-3's marking flag on every
    // construction and destruction, and this runs per frame.
    int64_t txSteps;
    if (bits <= m_maxBits64)
    {
        // Any frame at ps resolution: a 64-bit division, not a 128-bit library call.
        uint64_t num = bits * m_stepsPerSecond + m_txCarry;
        txSteps = static_cast<int64_t>(num / rate);
        m_txCarry = num % rate;
    }
    else
    {
        // Out of line and cold, as the traces below: inline, their code
        // made the common path save and restore more registers.
        txSteps = [ this, bits, rate ]() __attribute__((cold, noinline))
        {
            unsigned __int128 num =
                static_cast<unsigned __int128>(bits) * m_stepsPerSecond + m_txCarry;
            m_txCarry = static_cast<uint64_t>(num % rate);
            return static_cast<int64_t>(num / rate);
        }
        ();
    }
    m_txEnd = now + txSteps;

    m_txBytes += wireBytes;
    m_txPackets++;
    if (!m_frameTrace.IsEmpty() || !m_sniffer.IsEmpty() || !m_txTrace.IsEmpty())
    {
        [this](QbbFrame & f) __attribute__((cold, noinline))
        {
            if (!m_frameTrace.IsEmpty())
            {
                m_frameTrace(&f, true);
            }
            if (!m_sniffer.IsEmpty() || !m_txTrace.IsEmpty())
            {
                Tap(f, true, m_txTrace);
            }
        }
        (*frame);
    }
    m_channel->Transmit(std::move(frame), this, txSteps);
    if (m_pfc.HasQueued() ||
        (m_pendingCounter ? *m_pendingCounter != 0 : m_source && m_source->HasPending()))
    {
        ScheduleTxDone(now);
    }
}

void
QbbNetDevice::Tap(QbbFrame& frame, bool outgoing, const TracedCallback<Ptr<const Packet>>& trace)
{
    // The Ethernet framing exists on the wire (its bytes are in the line
    // time); build it as packet bytes only for someone who looks at frames.
    // Copies of one Packet per frame and link: one uid at both ends.
    Ptr<Packet> bytes = frame.TracedPacket();
    if (!bytes)
    {
        return;
    }
    PeerMac();
    Ptr<Packet> eth = MakeFrame(bytes, frame.macControl, outgoing, false);
    m_sniffer(eth);
    if (!trace.IsEmpty())
    {
        eth->AddTrailer(EthernetTrailer());
        trace(eth);
    }
}

void
QbbNetDevice::TransmitComplete()
{
    m_txDonePending = false;
    // The event was scheduled for the frame's end, and no frame starts while it is pending.
    TransmitNext(m_txEnd);
}

void
QbbNetDevice::ReceiveFrameFull(QbbFramePtr&& frame)
{
    // Lost on the link: the frame used the wire but nothing above sees it
    // (the HPCC simulator's ReceiveErrorModel, before its PFC handling).
    if (m_rxErrorRate > 0 && m_rxErrorRng->GetValue() < m_rxErrorRate)
    {
        NS_LOG_LOGIC("frame of " << frame->ipBytes << " bytes lost on the link (ReceiveErrorRate)");
        m_rxErrorDrops++;
        return;
    }
    // Traces, PAUSE and listeners out of line and cold: inline, their code
    // made the common path save and restore more registers.
    if (!m_frameTrace.IsEmpty())
    {
        [this](QbbFrame * f) __attribute__((cold, noinline))
        {
            m_frameTrace(f, false);
        }
        (frame.get());
    }
    bool macControl = frame->macControl;
    m_rxBytes += macControl ? PAUSE_WIRE_BYTES : WireBytes(frame->ipBytes);
    if (!m_sniffer.IsEmpty() || !m_rxTrace.IsEmpty())
    {
        [this](QbbFrame & f) __attribute__((cold, noinline))
        {
            Tap(f, false, m_rxTrace);
        }
        (*frame);
    }
    if (macControl)
    {
        [this](QbbFrame & f) __attribute__((cold, noinline))
        {
            if (m_pfc.Receive(f.packet))
            {
                TriggerTransmit();
            }
        }
        (*frame);
        return;
    }
    if (!m_promiscCallback.IsNull())
    {
        [this](QbbFrame & f) __attribute__((cold, noinline))
        {
            // A Packet only for a listener: our own receivers take the frame as fields.
            Ptr<Packet> packet = f.TracedPacket();
            if (packet)
            {
                m_promiscCallback(this, packet, ETHERTYPE_IPV4, PeerMac(), m_address,
                                  NetDevice::PACKET_HOST);
            }
        }
        (*frame);
    }
    if (frame->traced)
    {
        frame->traced = nullptr; // the receiver may change the frame: a new Packet next link
    }
    if (m_frameRx)
    {
        m_frameRx->ReceiveFrame(this, std::move(frame));
        return;
    }
    // A Packet-based receiver (tests, ns-3's own code above a device).
    [this](QbbFramePtr f) __attribute__((cold, noinline))
    {
        if (m_qbbRx.IsNull() && m_rxCallback.IsNull())
        {
            return;
        }
        Ptr<Packet> packet = f->ToPacket();
        f.reset(); // back to the pool before the receiver sends anything
        if (!packet)
        {
            return;
        }
        if (!m_qbbRx.IsNull())
        {
            m_qbbRx(this, packet);
        }
        else
        {
            m_rxCallback(this, packet, ETHERTYPE_IPV4, PeerMac());
        }
    }
    (std::move(frame));
}

bool
QbbNetDevice::ForwardUp(Ptr<Packet> packet)
{
    if (m_rxCallback.IsNull())
    {
        return false;
    }
    m_macRxTrace(packet);
    m_rxCallback(this, packet, ETHERTYPE_IPV4, PeerMac());
    return true;
}

void
QbbNetDevice::SetReceiveErrorRate(double rate)
{
    NS_ABORT_MSG_UNLESS(rate >= 0 && rate < 1, "ReceiveErrorRate must be in [0, 1)");
    m_rxErrorRate = rate;
    if (rate > 0 && !m_rxErrorRng)
    {
        // Created only when used: a stream for every device would shift the
        // automatic streams of everything else in lossless runs.
        m_rxErrorRng = CreateObject<UniformRandomVariable>();
    }
}

double
QbbNetDevice::GetReceiveErrorRate() const
{
    return m_rxErrorRate;
}

int64_t
QbbNetDevice::AssignStreams(int64_t stream)
{
    if (!m_rxErrorRng)
    {
        m_rxErrorRng = CreateObject<UniformRandomVariable>();
    }
    m_rxErrorRng->SetStream(stream);
    return 1;
}

uint64_t
QbbNetDevice::GetRxErrorDrops() const
{
    return m_rxErrorDrops;
}

} // namespace ns3
