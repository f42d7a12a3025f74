// SPDX-License-Identifier: GPL-2.0-only
#include "switch-node.h"

#include "libcc-agent.h"
#include "qbb-channel.h"
#include "rocev2-packet.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/fatal-error.h"
#include "ns3/log.h"
#include "ns3/object-vector.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <unordered_set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchNode");
NS_OBJECT_ENSURE_REGISTERED(SwitchNode);

namespace
{

bool
IsControl(RocePktType t)
{
    return t == RocePktType::ACK || t == RocePktType::NACK || t == RocePktType::CNP ||
           t == RocePktType::FEEDBACK;
}

/// The forwarding fields of a frame carried as header fields (what
/// RocePeekKeyBytes reads from the same frame's bytes).
void
KeyOf(const RocePacketInfo& r, RoceFlowKey& key)
{
    key.src = r.src.Get();
    key.dst = r.dst.Get();
    key.sport = r.sport;
    key.dport = r.dport;
    key.proto = 17; // UDP
    key.prio = r.prio;
    key.ecn = r.ecn;
    key.type = r.type;
    key.hasInt = r.hasInt;
    key.intHops = r.hasInt ? static_cast<int8_t>(r.ints.n_hops) : -1;
}

/// The node at the other end of dev's link (nullptr if none).
Ptr<Node>
PeerNode(Ptr<NetDevice> nd)
{
    Ptr<QbbNetDevice> dev = DynamicCast<QbbNetDevice>(nd);
    Ptr<QbbChannel> ch = dev ? DynamicCast<QbbChannel>(dev->GetChannel()) : nullptr;
    Ptr<QbbNetDevice> peer = ch ? ch->GetPeer(dev) : nullptr;
    return peer ? peer->GetNode() : nullptr;
}

} // namespace

TypeId
SwitchNode::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SwitchNode")
            .SetParent<Node>()
            .SetGroupName("Libcc")
            .AddConstructor<SwitchNode>()
            .AddAttribute("EcmpSeed",
                          "Seed of the symmetric ECMP hash. Keep it equal on all switches for "
                          "data and ACKs to share a path.",
                          UintegerValue(0), MakeUintegerAccessor(&SwitchNode::m_ecmpSeed),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("EcmpTierSalt",
                          "Mix the switch's tier (hops to the nearest host) into the ECMP seed: "
                          "tiers choose independently, one tier's switches stay symmetric.",
                          BooleanValue(true), MakeBooleanAccessor(&SwitchNode::m_ecmpTierSalt),
                          MakeBooleanChecker())
            .AddAttribute("PauseQuanta",
                          "Quanta of the PAUSE frames sent at XOFF (units of 512 bit times at "
                          "the ingress link's rate); refreshed every half of that while XOFF.",
                          UintegerValue(0xFFFF), MakeUintegerAccessor(&SwitchNode::m_pauseQuanta),
                          MakeUintegerChecker<uint16_t>(1, 0xFFFF))
            .AddAttribute("BufferSize", "Total shared packet buffer (bytes of frames).",
                          UintegerValue(12 * 1024 * 1024),
                          MakeUintegerAccessor(&SwitchNode::m_bufferBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("PfcStaticThreshold",
                          "Per (ingress, priority) PFC threshold in bytes; 0 selects the dynamic "
                          "threshold PfcAlpha x free shared buffer.",
                          UintegerValue(0), MakeUintegerAccessor(&SwitchNode::m_pfcStaticThreshold),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute(
                "PfcAlpha",
                "Dynamic threshold factor (dimensionless): T = alpha x free shared bytes.",
                DoubleValue(0.125), MakeDoubleAccessor(&SwitchNode::m_pfcAlpha),
                MakeDoubleChecker<double>(0.0))
            .AddAttribute("HeadroomBytes",
                          "PFC headroom reserved per ingress port, bytes, for its lossless "
                          "priorities: absorbs what is in flight after XOFF (>= 2 x BDP + 2 MTU).",
                          UintegerValue(64 * 1024),
                          MakeUintegerAccessor(&SwitchNode::m_headroomBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("XonOffsetBytes",
                          "Hysteresis, bytes: XON once the ingress's bytes fall this far below "
                          "the threshold (and its headroom is empty).",
                          UintegerValue(2 * 1538),
                          MakeUintegerAccessor(&SwitchNode::m_xonOffsetBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("LossyQueueLimit",
                          "Per (egress port, lossy priority) queue limit in bytes; tail drop.",
                          UintegerValue(256 * 1024),
                          MakeUintegerAccessor(&SwitchNode::m_lossyQueueLimit),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("LosslessPriorities",
                          "Bit mask of PFC-enabled (lossless) priorities; others are lossy.",
                          UintegerValue(0xFF), MakeUintegerAccessor(&SwitchNode::m_losslessMask),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("PfcEgressScope",
                          "PfcStaticThreshold applies to the egress queue a lossless packet "
                          "joins (pausing every ingress that feeds it past the threshold) "
                          "instead of each ingress's share; see switch-mmu.h",
                          BooleanValue(false), MakeBooleanAccessor(&SwitchNode::m_pfcEgressScope),
                          MakeBooleanChecker())
            .AddAttribute("FeedbackPriority",
                          "Priority (0..7) of the rate feedback packets the switch's congestion "
                          "points send to sources (algorithms whose signals include "
                          "LIBCC_SIGNAL_CP_FEEDBACK); like RdmaNic::AckPriority",
                          UintegerValue(0), MakeUintegerAccessor(&SwitchNode::m_feedbackPrio),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddAttribute(
                "PortList", "The switch's ports (SwitchPort), by port number.", ObjectVectorValue(),
                MakeObjectVectorAccessor(&SwitchNode::GetNPorts, &SwitchNode::GetSwitchPort),
                MakeObjectVectorChecker<SwitchPort>())
            .AddTraceSource("QueueBytes",
                            "Bytes in an egress (port, priority) queue after every change.",
                            MakeTraceSourceAccessor(&SwitchNode::m_queueTrace),
                            "ns3::SwitchNode::QueueBytesCallback")
            .AddTraceSource("PfcEvent", "XOFF (1) / XON (0) sent out of a port for a priority.",
                            MakeTraceSourceAccessor(&SwitchNode::m_pfcTrace),
                            "ns3::SwitchNode::PfcEventCallback")
            .AddTraceSource("Drop", "A packet was dropped (no route, lossy limit, buffer full).",
                            MakeTraceSourceAccessor(&SwitchNode::m_dropTrace),
                            "ns3::SwitchNode::DropCallback");
    return tid;
}

SwitchNode::SwitchNode()
    : SwitchNode(0)
{
}

SwitchNode::SwitchNode(uint32_t systemId)
    : Node(systemId)
    , m_routerSeeded(false)
    , m_mmuConfigured(false)
    , m_ecmpSeed(0)
    , m_ecmpTierSalt(true)
    , m_pauseQuanta(0xFFFF)
    , m_bufferBytes(12 * 1024 * 1024)
    , m_pfcStaticThreshold(0)
    , m_pfcAlpha(0.125)
    , m_headroomBytes(64 * 1024)
    , m_xonOffsetBytes(2 * 1538)
    , m_lossyQueueLimit(256 * 1024)
    , m_losslessMask(0xFF)
    , m_pfcEgressScope(false)
    , m_feedbackPrio(0)
    , m_feedbackFlushPending(false)
    , m_drops(0)
    , m_noRoute(0)
    , m_feedbackSent(0)
    , m_ttlDrops(0)
{
}

SwitchNode::~SwitchNode() = default;

void
SwitchNode::DoInitialize()
{
    // The topology is complete now: the tier (and so the ECMP seed) is final.
    m_routerSeeded = false;
    EnsureSetup();
    Node::DoInitialize();
}

void
SwitchNode::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& port : m_ports)
    {
        if (port)
        {
            if (Ptr<QbbNetDevice> dev = port->GetDevice())
            {
                dev->SetEgressSource(nullptr);
            }
            port->Dispose();
        }
    }
    m_ports.clear();
    m_feedback.clear();
    m_cpTimerGen++; // timers still scheduled do nothing
    m_cc.Free();
    Node::DoDispose();
}

void
SwitchNode::AttachPort(Ptr<QbbNetDevice> dev)
{
    NS_LOG_FUNCTION(this << dev);
    uint32_t idx = dev->GetIfIndex();
    if (idx >= m_ports.size())
    {
        m_ports.resize(idx + 1);
    }
    m_ports[idx] = CreateObject<SwitchPort>(static_cast<SwitchPort::Owner*>(this), idx, dev);
    dev->SetEgressSource(PeekPointer(m_ports[idx]));
    dev->SetFrameReceiver(this);
    // A port added after setup: size the MMU and the CPs again.
    m_mmuConfigured = false;
    m_cc.Invalidate();
    m_routerSeeded = false;
}

uint32_t
SwitchNode::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

Ptr<QbbNetDevice>
SwitchNode::GetPort(uint32_t port) const
{
    return port < m_ports.size() && m_ports[port] ? m_ports[port]->GetDevice() : nullptr;
}

Ptr<SwitchPort>
SwitchNode::GetSwitchPort(uint32_t port) const
{
    return port < m_ports.size() ? m_ports[port] : nullptr;
}

// ---- routing -----------------------------------------------------------------

uint32_t
SwitchNode::SymmetricHash(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport, uint8_t proto,
                          uint32_t seed)
{
    return EcmpRouter::SymmetricHash(src, dst, sport, dport, proto, seed);
}

void
SwitchNode::AddRoute(Ipv4Address dst, uint32_t port)
{
    if (!m_routerSeeded)
    {
        m_router.SetSeed(GetEffectiveEcmpSeed());
        m_routerSeeded = true;
    }
    // Equal-cost ports ordered by the node at the other end, so that
    // switches with the same next-hop set agree on which one a hash selects.
    Ptr<Node> peer = PeerNode(GetPort(port));
    uint64_t order = (static_cast<uint64_t>(peer ? peer->GetId() : 0xFFFFFFFFu) << 32) | port;
    m_router.AddRoute(dst.Get(), port, order);
}

void
SwitchNode::ClearRoutes()
{
    m_router.Clear();
}

int32_t
SwitchNode::LookupRoute(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport,
                        uint8_t proto) const
{
    return m_router.Lookup(src, dst, sport, dport, proto);
}

uint32_t
SwitchNode::GetTier() const
{
    // Breadth-first over the links until a node that is not a switch.
    std::vector<const SwitchNode*> frontier{this};
    std::unordered_set<const SwitchNode*> seen{this};
    for (uint32_t dist = 1; !frontier.empty(); dist++)
    {
        std::vector<const SwitchNode*> next;
        for (const SwitchNode* sw : frontier)
        {
            for (uint32_t i = 0; i < sw->GetNDevices(); i++)
            {
                Ptr<Node> n = PeerNode(sw->GetDevice(i));
                if (!n)
                {
                    continue;
                }
                const SwitchNode* psw = dynamic_cast<const SwitchNode*>(PeekPointer(n));
                if (!psw)
                {
                    return dist;
                }
                if (seen.insert(psw).second)
                {
                    next.push_back(psw);
                }
            }
        }
        frontier.swap(next);
    }
    return 0;
}

uint32_t
SwitchNode::GetEffectiveEcmpSeed() const
{
    return m_ecmpTierSalt ? Mix32(m_ecmpSeed ^ (GetTier() * 0x9e3779b9u)) : m_ecmpSeed;
}

SwitchMmu::Config
SwitchNode::MmuConfig() const
{
    SwitchMmu::Config cfg;
    cfg.bufferBytes = m_bufferBytes;
    cfg.pfcStaticThreshold = m_pfcStaticThreshold;
    cfg.pfcAlpha = m_pfcAlpha;
    cfg.headroomBytes = m_headroomBytes;
    cfg.xonOffsetBytes = m_xonOffsetBytes;
    cfg.lossyQueueLimit = m_lossyQueueLimit;
    cfg.losslessMask = m_losslessMask;
    cfg.egressScope = m_pfcEgressScope;
    return cfg;
}

bool
SwitchNode::CheckBuffer(std::string& err) const
{
    if (GetNPorts() == 0 || SwitchMmu::SharedPoolBytes(MmuConfig(), GetNPorts()) > 0)
    {
        return true;
    }
    err = "switch " + std::to_string(GetId()) + ": HeadroomBytes (" +
          std::to_string(m_headroomBytes) + ") x " + std::to_string(GetNPorts()) +
          " ports leaves no shared buffer of BufferSize (" + std::to_string(m_bufferBytes) +
          " bytes): raise the buffer, lower the headroom, or use fewer ports";
    return false;
}

void
SwitchNode::EnsureSetup()
{
    if (!m_mmuConfigured)
    {
        std::string err;
        if (!CheckBuffer(err) || !m_mmu.Configure(MmuConfig(), GetNPorts()))
        {
            NS_FATAL_ERROR(err);
        }
        m_mmuConfigured = true;
    }
    if (!m_cc.IsBuilt())
    {
        SetupCc();
    }
    if (!m_routerSeeded)
    {
        m_router.SetSeed(GetEffectiveEcmpSeed());
        m_routerSeeded = true;
    }
}

// ---- PFC -----------------------------------------------------------------------

void
SwitchNode::OnMmuPfc(uint32_t port, uint8_t prio, bool pause)
{
    SwitchPort* p = PeekPointer(m_ports[port]);
    if (!p)
    {
        return;
    }
    p->PauseRefresh(prio).Cancel();
    if (pause)
    {
        p->GetDevice()->SendPfc(prio, m_pauseQuanta);
        // Refresh at half the pause so the upstream never resumes while we are XOFF.
        Time half = p->GetDevice()->BitTime(static_cast<uint64_t>(m_pauseQuanta) * 512) / 2;
        p->PauseRefresh(prio) =
            Simulator::Schedule(half, &SwitchNode::RefreshPause, this, port, prio);
    }
    else
    {
        p->GetDevice()->SendPfc(prio, 0);
    }
    NS_LOG_LOGIC("port " << port << " prio " << unsigned(prio) << (pause ? " XOFF" : " XON"));
    m_pfcTrace(Simulator::Now(), GetId(), port, prio, pause);
}

void
SwitchNode::RefreshPause(uint32_t port, uint8_t prio)
{
    if (m_mmu.IsXoff(port, prio))
    {
        SwitchPort* p = PeekPointer(m_ports[port]);
        p->GetDevice()->SendPfc(prio, m_pauseQuanta);
        Time half = p->GetDevice()->BitTime(static_cast<uint64_t>(m_pauseQuanta) * 512) / 2;
        p->PauseRefresh(prio) =
            Simulator::Schedule(half, &SwitchNode::RefreshPause, this, port, prio);
    }
}

// ---- data path -------------------------------------------------------------------

void
SwitchNode::Drop(const QbbFrame& f, uint32_t in, uint32_t out, uint8_t prio)
{
    m_drops++;
    NS_LOG_DEBUG("switch " << GetId() << " drops a frame: in " << in << " out " << out << " prio "
                           << unsigned(prio));
    if (!m_dropTrace.IsEmpty())
    {
        m_dropTrace(f.ToPacket(), in, out, prio);
    }
}

// The queue's bytes are read only for a sink: most runs have none.
inline bool
SwitchNode::TraceQueue(SwitchPort& port, uint32_t idx, uint8_t prio)
{
    bool traced = false;
    if (!m_queueTrace.IsEmpty())
    {
        m_queueTrace(idx, prio, port.GetQueueBytes(prio));
        traced = true;
    }
    if (port.IsQueueBytesTraced())
    {
        port.NotifyQueueBytes(prio);
        traced = true;
    }
    return traced;
}

void
SwitchNode::ReceiveFrame(QbbNetDevice* dev, QbbFramePtr&& f)
{
    if (!m_mmuConfigured || !m_cc.IsBuilt())
    {
        EnsureSetup();
    }
    uint32_t in = dev->QbbNetDevice::GetIfIndex(); // not virtual: dev is ours
    // Bytes from a Packet-based sender go on as header fields from here; a
    // packet that does not parse as RoCEv2 is forwarded as it is (by its
    // IPv4 5-tuple; never INT-stamped).
    if (f->packet && RoceParse(f->packet, f->roce))
    {
        f->packet = nullptr;
    }
    if (!f->packet)
    {
        // A router's hop: receivers count switches from it (LIBCC_SIGNAL_ACK_HOPS).
        if (f->roce.ttl <= 1)
        {
            m_ttlDrops++;
            Drop(*f, in, 0xFFFFFFFFu, f->roce.prio);
            return;
        }
        f->roce.ttl--;
    }
    Forward(std::move(f), in);
    if (!m_feedback.empty())
    {
        FlushFeedback();
    }
}

// In line in ReceiveFrame, its caller per frame (FlushFeedback's copy is rare).
[[gnu::always_inline]] inline void
SwitchNode::Forward(QbbFramePtr f, uint32_t in)
{
    RoceFlowKey key;
    int32_t out = -1;
    bool keyed = true;
    if (!f->packet)
    {
        KeyOf(f->roce, key);
    }
    else
    {
        // Its own key: key's address never escapes, so the fields Forward
        // does not read are never written.
        RoceFlowKey bytesKey;
        keyed = RocePeekKey(f->packet, bytesKey);
        key = bytesKey;
        key.hasInt = false;
    }
    if (keyed)
    {
        out = LookupRoute(key.src, key.dst, key.sport, key.dport, key.proto);
    }
    if (out < 0 || static_cast<uint32_t>(out) >= m_ports.size() || !m_ports[out])
    {
        m_noRoute++;
        Drop(*f, in, 0xFFFFFFFFu, key.prio);
        return;
    }
    SwitchPort* port = PeekPointer(m_ports[out]);
    uint8_t prio = key.prio;
    uint32_t frameBytes = QbbNetDevice::FrameBytes(f->ipBytes);
    SwitchMmu::Result r = m_mmu.Admit(in, out, prio, frameBytes);
    if (r.charge == SwitchMmu::Charge::DROPPED)
    {
        Drop(*f, in, out, prio);
        return;
    }
    if (r.pfc == SwitchMmu::Pfc::XOFF)
    {
        OnMmuPfc(in, prio, true);
    }
    // Built in its queue slot (no Entry moved), queued by Commit below. A
    // frame that finds its port empty and the line free leaves at once,
    // through the same steps in the same order as queuing it and the
    // device's dequeue, without the ring (SwitchPort::DirectSlot).
    const bool control = IsControl(key.type);
    QbbNetDevice* dev = port->PeekDevice();
    const int64_t now = SimNowStep();
    const bool direct = port->GetPortBytes() == 0 && dev->IsFreeFor(prio, now);
    SwitchPort::Entry& e = direct ? port->DirectSlot() : port->Reserve(prio, control);
    e.frame = std::move(f);
    e.inPort = in;
    e.frameBytes = frameBytes;
    e.type = key.type;
    e.ecnCapable = key.ecn != ROCE_ECN_NOT_ECT;
    e.hasInt = key.hasInt;
    e.ccFlow = 0;
    uint64_t fbRate;
#ifdef NS3_LOG_ENABLE
    const uint64_t marks = m_cc.GetEcnMarks(); // only the logging build looks
#endif
    if (m_cc.OnEnqueue(out, e, port->GetQueueBytes(prio), port->GetPortBytes(), fbRate))
    {
        QueueFeedback(e.frame->roce, in, static_cast<uint32_t>(out), fbRate);
    }
#ifdef NS3_LOG_ENABLE
    if (m_cc.GetEcnMarks() != marks)
    {
        NS_LOG_LOGIC("switch " << GetId() << " port " << out << " prio " << unsigned(prio)
                               << ": ECN CE marked at enqueue, queue "
                               << port->GetQueueBytes(prio) << " bytes");
    }
#endif
    if (!direct)
    {
        port->Commit(prio, control);
    }
    else
    {
        port->CommitDirect(prio);
    }
    const bool traced = TraceQueue(*port, static_cast<uint32_t>(out), prio);
    // A trace sink could have sent on the device meanwhile: look again if one ran.
    if (direct && (!traced || dev->IsFreeFor(prio, now)))
    {
        dev->BeginDirect();
        port->DequeueDirect(prio, control);
        SwitchNode::OnDequeued(*port, e, prio);
        dev->FinishDirect(std::move(e.frame), now);
        return;
    }
    if (direct)
    {
        port->QueueDirect(prio, control);
    }
    dev->TriggerTransmit();
}

void
SwitchNode::QueueFeedback(const RocePacketInfo& data, uint32_t in, uint32_t port, uint64_t rateBps)
{
    SwitchCc::FlowAddr to;
    to.src = data.src;
    to.dst = data.dst;
    to.sport = data.sport;
    to.dport = data.dport;
    to.destQp = data.destQp;
    to.inPort = in;
    QueueFeedbackTo(to, port, rateBps);
}

void
SwitchNode::QueueFeedbackTo(const SwitchCc::FlowAddr& to, uint32_t port, uint64_t rateBps)
{
    QbbFramePtr fb = QbbFrameNew();
    RocePacketInfo& r = fb->roce;
    // Addressed as the flow's ACKs are: it takes their path back, and the
    // source NIC finds the queue pair by (IP source, dest QP).
    r.type = RocePktType::FEEDBACK;
    r.src = to.dst;
    r.dst = to.src;
    r.sport = to.sport;
    r.dport = to.dport;
    r.prio = m_feedbackPrio;
    r.ecn = ROCE_ECN_NOT_ECT;
    r.destQp = to.destQp;
    r.fbRateBps = rateBps;
    r.fbSwitchId = GetId();
    r.fbPortId = port;
    fb->ipBytes = RocePacketBytes(r);
    NS_LOG_LOGIC("switch " << GetId() << " port " << port << ": feedback of " << rateBps
                           << " bit/s to " << to.src << " QP " << to.destQp);
    m_feedback.emplace_back(std::move(fb), to.inPort);
}

void
SwitchNode::FlushFeedback()
{
    m_feedbackFlushPending = false;
    // By index, each entry moved out before Forward: Forward could queue
    // more (it never does for a feedback packet). The list keeps its
    // capacity, so a flush allocates nothing once warm.
    for (size_t i = 0; i < m_feedback.size(); i++)
    {
        QbbFramePtr f = std::move(m_feedback[i].first);
        uint32_t in = m_feedback[i].second;
        m_feedbackSent++;
        Forward(std::move(f), in);
    }
    m_feedback.clear();
}

void
SwitchNode::OnDequeued(SwitchPort& port, SwitchPort::Entry& e, uint8_t prio)
{
    uint32_t idx = port.GetIndex();
    SwitchMmu::Pfc pfc = m_mmu.Release(e.inPort, idx, prio, e.frameBytes);
    uint64_t fbRate;
#ifdef NS3_LOG_ENABLE
    const uint64_t marks = m_cc.GetEcnMarks(); // only the logging build looks
#endif
    bool feedback = m_cc.OnDequeue(idx, e, port.GetQueueBytes(prio), port.GetPortBytes(), fbRate);
#ifdef NS3_LOG_ENABLE
    if (m_cc.GetEcnMarks() != marks)
    {
        NS_LOG_LOGIC("switch " << GetId() << " port " << idx << " prio " << unsigned(prio)
                               << ": ECN CE marked at dequeue, queue "
                               << port.GetQueueBytes(prio) << " bytes");
    }
#endif
    if (feedback)
    {
        QueueFeedback(e.frame->roce, e.inPort, idx, fbRate);
        if (!m_feedbackFlushPending)
        {
            // Not from inside this port's dequeue: the feedback may leave
            // by any port, this one included.
            m_feedbackFlushPending = true;
            Simulator::ScheduleNow(&SwitchNode::FlushFeedback, this);
        }
    }
    TraceQueue(port, idx, prio);
    // Last: sending the XON can re-enter the device of another port.
    if (pfc == SwitchMmu::Pfc::XON)
    {
        OnMmuPfc(e.inPort, prio, false);
    }
    if (m_pfcEgressScope)
    {
        m_resumed.clear();
        m_mmu.TakeResumes(idx, prio, m_resumed);
        for (uint32_t in : m_resumed)
        {
            OnMmuPfc(in, prio, false);
        }
    }
}

// ---- counters ------------------------------------------------------------------------

const SwitchMmu&
SwitchNode::GetMmu() const
{
    return m_mmu;
}

uint64_t
SwitchNode::GetQueueBytes(uint32_t port, uint8_t prio) const
{
    return port < m_ports.size() && m_ports[port] && prio < QBB_N_PRIO
               ? m_ports[port]->GetQueueBytes(prio)
               : 0;
}

uint64_t
SwitchNode::GetPortQueueBytes(uint32_t port) const
{
    return port < m_ports.size() && m_ports[port] ? m_ports[port]->GetPortBytes() : 0;
}

uint64_t
SwitchNode::GetPortPeakQueueBytes(uint32_t port) const
{
    return port < m_ports.size() && m_ports[port] ? m_ports[port]->GetPeakPortBytes() : 0;
}

void
SwitchNode::ResetPortPeakQueueBytes(uint32_t port)
{
    if (port < m_ports.size() && m_ports[port])
    {
        m_ports[port]->ResetPeakPortBytes();
    }
}

uint64_t
SwitchNode::GetDequeuedFrames(uint32_t port) const
{
    return port < m_ports.size() && m_ports[port] ? m_ports[port]->GetDequeuedFrames() : 0;
}

Time
SwitchNode::GetLastDequeueTime(uint32_t port) const
{
    return TimeStep(port < m_ports.size() && m_ports[port] ? m_ports[port]->GetLastDequeueStep()
                                                           : 0);
}

uint64_t
SwitchNode::GetDrops() const
{
    return m_drops;
}

uint64_t
SwitchNode::GetEcnMarks() const
{
    return m_cc.GetEcnMarks();
}

uint64_t
SwitchNode::GetIntStamps() const
{
    return m_cc.GetIntStamps();
}

uint64_t
SwitchNode::GetNoRouteDrops() const
{
    return m_noRoute;
}

} // namespace ns3
