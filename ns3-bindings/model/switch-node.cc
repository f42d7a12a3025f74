// SPDX-License-Identifier: GPL-2.0-only
#include "switch-node.h"

#include "fifo-ring.h"
#include "libcc-agent.h"
#include "qbb-channel.h"
#include "rocev2-packet.h"
#include "sim-fast.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/fatal-error.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstring>
#include <unordered_set>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(SwitchNode);

namespace
{

constexpr uint32_t CLASS_CONTROL = 0;
constexpr uint32_t CLASS_DATA = 1;

uint32_t
Mix32(uint32_t h)
{
    // murmur3 finalizer: every input bit affects every output bit.
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

libcc_pkt_kind
KindOf(RocePktType t)
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
    default:
        return LIBCC_PKT_OTHER;
    }
}

bool
IsControl(RocePktType t)
{
    return t == RocePktType::ACK || t == RocePktType::NACK || t == RocePktType::CNP;
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

/// CE-mark an ECN-capable packet; false if not ECT or already CE.
bool
MarkCe(QbbFrame& f)
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

} // namespace

/// One egress port: its queues, its CP, and the device's view of them.
class SwitchNode::Port : public QbbEgressSource
{
  public:
    struct Entry
    {
        QbbFramePtr frame;
        uint32_t inPort = 0;
        uint32_t frameBytes = 0;
        RocePktType type = RocePktType::OTHER;
        bool ecnCapable = false;
        bool hasInt = false;
        int8_t intHops = -1; //!< RoceFlowKey::intHops
    };

    Port(SwitchNode* sw, uint32_t index, Ptr<QbbNetDevice> dev)
        : m_sw(sw)
        , m_index(index)
        , m_dev(dev)
    {
    }

    QbbFramePtr DequeueFrame(const std::array<bool, QBB_N_PRIO>& paused, uint8_t& prioOut) override
    {
        return m_sw->Dequeue(m_index, paused, prioOut);
    }

    uint64_t GetQueueBytes(uint8_t prio) const override
    {
        return prio < QBB_N_PRIO ? m_bytes[prio] : 0;
    }

    bool HasPending() const override
    {
        return m_total > 0;
    }

    SwitchNode* m_sw;
    uint32_t m_index;
    Ptr<QbbNetDevice> m_dev;
    std::array<std::array<FifoRing<Entry>, 2>, QBB_N_PRIO> m_q;
    std::array<uint64_t, QBB_N_PRIO> m_bytes{};
    uint64_t m_total = 0;
    uint8_t m_rrNext = 0;
    std::array<uint32_t, 2> m_nonEmpty{}; //!< per class, bit p: queue of priority p has packets
    libcc_cp* m_cp = nullptr;
    std::array<EventId, QBB_N_PRIO> m_refresh; //!< PAUSE refresh while XOFF (as ingress)
};

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
    : m_routeMask(0)
    , m_routesDirty(false)
    , m_ccParams(nullptr)
    , m_intTable(nullptr)
    , m_cpsBuilt(false)
    , m_maxHops(LIBCC_INT_MAX_HOPS)
    , m_ecmpSeed(0)
    , m_ecmpTierSalt(true)
    , m_tier(0)
    , m_ecmpSeedEff(0)
    , m_pauseQuanta(0xFFFF)
    , m_bufferBytes(12 * 1024 * 1024)
    , m_pfcStaticThreshold(0)
    , m_pfcAlpha(0.125)
    , m_headroomBytes(64 * 1024)
    , m_xonOffsetBytes(2 * 1538)
    , m_lossyQueueLimit(256 * 1024)
    , m_losslessMask(0xFF)
    , m_mmuConfigured(false)
    , m_drops(0)
    , m_ecnMarks(0)
    , m_intStamps(0)
    , m_noRoute(0)
    , m_intEncodeErrors(0)
{
    libcc_int_list_init(&m_cpInts);
}

SwitchNode::~SwitchNode()
{
    FreeCps();
    libcc_params_del(m_ccParams);
    m_ccParams = nullptr;
}

void
SwitchNode::DoInitialize()
{
    // The topology is complete now: the tier (and so the ECMP seed) is final.
    m_routesDirty = true;
    EnsureSetup();
    Node::DoInitialize();
}

void
SwitchNode::DoDispose()
{
    for (auto& port : m_ports)
    {
        if (port)
        {
            for (auto& e : port->m_refresh)
            {
                e.Cancel();
            }
            for (auto& pq : port->m_q)
            {
                pq[0].Clear();
                pq[1].Clear();
            }
            port->m_dev = nullptr;
        }
    }
    FreeCps();
    m_rng = nullptr;
    Node::DoDispose();
}

void
SwitchNode::AttachPort(Ptr<QbbNetDevice> dev)
{
    uint32_t idx = dev->GetIfIndex();
    if (idx >= m_ports.size())
    {
        m_ports.resize(idx + 1);
    }
    m_ports[idx] = std::make_unique<Port>(this, idx, dev);
    dev->SetEgressSource(m_ports[idx].get());
    dev->SetFrameReceiver(this);
    // A port added after setup: size the MMU and the CPs again.
    m_mmuConfigured = false;
    m_cpsBuilt = false;
    m_routesDirty = true;
}

uint32_t
SwitchNode::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

Ptr<QbbNetDevice>
SwitchNode::GetPort(uint32_t port) const
{
    return port < m_ports.size() && m_ports[port] ? m_ports[port]->m_dev : nullptr;
}

// ---- routing -----------------------------------------------------------------

uint32_t
SwitchNode::SymmetricHash(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport, uint8_t proto,
                          uint32_t seed)
{
    // Order each pair so that the reversed tuple hashes identically.
    uint32_t a = std::min(src, dst);
    uint32_t b = std::max(src, dst);
    uint32_t pa = std::min(sport, dport);
    uint32_t pb = std::max(sport, dport);
    uint32_t h = Mix32(seed ^ 0x9e3779b9u);
    h = Mix32(h ^ a);
    h = Mix32(h ^ b);
    h = Mix32(h ^ ((pa << 16) | pb));
    h = Mix32(h ^ proto);
    return h;
}

void
SwitchNode::AddRoute(Ipv4Address dst, uint32_t port)
{
    uint32_t key = dst.Get();
    size_t g = 0;
    while (g < m_groupDst.size() && m_groupDst[g] != key)
    {
        g++;
    }
    if (g == m_groupDst.size())
    {
        m_groupDst.push_back(key);
        m_groups.emplace_back();
    }
    auto& ports = m_groups[g];
    if (std::find(ports.begin(), ports.end(), port) == ports.end())
    {
        ports.push_back(port);
    }
    m_routesDirty = true;
}

void
SwitchNode::ClearRoutes()
{
    m_groups.clear();
    m_groupDst.clear();
    m_routesDirty = true;
}

void
SwitchNode::RebuildRouteIndex()
{
    // Equal-cost ports sorted by the node at the other end, so that switches
    // with the same next-hop set agree on which one a hash value selects.
    auto peerId = [this](uint32_t port) -> uint64_t {
        Ptr<QbbNetDevice> dev = GetPort(port);
        Ptr<QbbChannel> ch = dev ? DynamicCast<QbbChannel>(dev->GetChannel()) : nullptr;
        Ptr<QbbNetDevice> peer = ch ? ch->GetPeer(dev) : nullptr;
        uint64_t id = peer && peer->GetNode() ? peer->GetNode()->GetId() : 0xFFFFFFFFu;
        return (id << 32) | port;
    };
    for (auto& ports : m_groups)
    {
        std::sort(ports.begin(), ports.end(),
                  [&](uint32_t x, uint32_t y) { return peerId(x) < peerId(y); });
    }
    m_tier = ComputeTier();
    m_ecmpSeedEff = m_ecmpTierSalt ? Mix32(m_ecmpSeed ^ (m_tier * 0x9e3779b9u)) : m_ecmpSeed;
    size_t cap = 16;
    while (cap < m_groupDst.size() * 2)
    {
        cap *= 2;
    }
    m_routeIndex.assign(cap, RouteSlot());
    m_routeMask = static_cast<uint32_t>(cap - 1);
    for (size_t g = 0; g < m_groupDst.size(); g++)
    {
        uint32_t s = Mix32(m_groupDst[g]) & m_routeMask;
        while (m_routeIndex[s].group != 0)
        {
            s = (s + 1) & m_routeMask;
        }
        m_routeIndex[s].key = m_groupDst[g];
        m_routeIndex[s].group = static_cast<uint32_t>(g + 1);
    }
    m_routesDirty = false;
}

uint32_t
SwitchNode::ComputeTier() const
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
                Ptr<QbbNetDevice> dev = DynamicCast<QbbNetDevice>(sw->GetDevice(i));
                Ptr<QbbChannel> ch = dev ? DynamicCast<QbbChannel>(dev->GetChannel()) : nullptr;
                Ptr<QbbNetDevice> peer = ch ? ch->GetPeer(dev) : nullptr;
                Ptr<Node> n = peer ? peer->GetNode() : nullptr;
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
SwitchNode::GetTier() const
{
    if (m_routesDirty)
    {
        const_cast<SwitchNode*>(this)->RebuildRouteIndex();
    }
    return m_tier;
}

uint32_t
SwitchNode::GetEffectiveEcmpSeed() const
{
    if (m_routesDirty)
    {
        const_cast<SwitchNode*>(this)->RebuildRouteIndex();
    }
    return m_ecmpSeedEff;
}

int32_t
SwitchNode::LookupRoute(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport,
                        uint8_t proto) const
{
    if (m_routesDirty)
    {
        const_cast<SwitchNode*>(this)->RebuildRouteIndex();
    }
    if (m_routeIndex.empty())
    {
        return -1;
    }
    uint32_t s = Mix32(dst) & m_routeMask;
    while (m_routeIndex[s].group != 0)
    {
        if (m_routeIndex[s].key == dst)
        {
            const auto& ports = m_groups[m_routeIndex[s].group - 1];
            if (ports.size() == 1)
            {
                return static_cast<int32_t>(ports[0]);
            }
            uint32_t h = SymmetricHash(src, dst, sport, dport, proto, m_ecmpSeedEff);
            return static_cast<int32_t>(ports[h % ports.size()]);
        }
        s = (s + 1) & m_routeMask;
    }
    return -1;
}

// ---- congestion control --------------------------------------------------------

int
SwitchNode::TrySetCongestionControl(const std::string& algo, const std::string& params,
                                    std::string& err)
{
    libcc_params* p = nullptr;
    int rc = libcc_params_new(&p, algo.c_str());
    if (rc != LIBCC_OK)
    {
        err = "congestion control '" + algo + "': " + libcc_strerror(rc);
        return rc;
    }
    if (!params.empty())
    {
        rc = libcc_params_parse(p, params.c_str());
        if (rc != LIBCC_OK)
        {
            const char* msg = libcc_params_error(p);
            err = "congestion control '" + algo + "' parameters: " +
                  (msg && *msg ? std::string(msg) : std::string(libcc_strerror(rc)));
            libcc_params_del(p);
            return rc;
        }
    }
    libcc_params_del(m_ccParams);
    m_ccParams = p;
    m_cpsBuilt = false;
    err.clear();
    return LIBCC_OK;
}

void
SwitchNode::SetCongestionControl(const std::string& algo, const std::string& params)
{
    std::string err;
    if (TrySetCongestionControl(algo, params, err) != LIBCC_OK)
    {
        NS_FATAL_ERROR("SwitchNode " << GetId() << ": " << err);
    }
}

uint64_t
SwitchNode::RandForCp(void* user)
{
    auto* sw = static_cast<SwitchNode*>(user);
    uint64_t hi = sw->m_rng->GetInteger(0, 0xFFFFFFFFu);
    uint64_t lo = sw->m_rng->GetInteger(0, 0xFFFFFFFFu);
    return (hi << 32) | lo;
}

int64_t
SwitchNode::AssignStreams(int64_t stream)
{
    // Only with a fixed stream do the CPs draw from ns-3's generator; by
    // default they use libcc's own, seeded from RngSeed/RngRun (creating an
    // ns-3 stream costs more than a small simulation's whole set-up).
    if (!m_rng)
    {
        m_rng = CreateObject<UniformRandomVariable>();
    }
    m_rng->SetStream(stream);
    m_cpsBuilt = false;
    return 1;
}

void
SwitchNode::FreeCps()
{
    for (auto& port : m_ports)
    {
        if (port && port->m_cp)
        {
            libcc_cp_del(port->m_cp);
            port->m_cp = nullptr;
        }
    }
    libcc_int_table_del(m_intTable);
    m_intTable = nullptr;
}

void
SwitchNode::BuildCps()
{
    FreeCps();
    m_cpsBuilt = true;
    if (!m_ccParams)
    {
        return;
    }
    uint32_t nPorts = GetNPorts();
    double maxHops = LIBCC_INT_MAX_HOPS;
    libcc_params_get(m_ccParams, "max_hops", &maxHops);
    m_maxHops = static_cast<uint32_t>(maxHops);
    if (std::strcmp(libcc_params_algorithm(m_ccParams), "fncc") == 0 && nPorts > 0)
    {
        int rc = libcc_int_table_new(&m_intTable, nPorts);
        if (rc != LIBCC_OK)
        {
            NS_FATAL_ERROR("SwitchNode " << GetId() << ": All_INT_Table: " << libcc_strerror(rc));
        }
    }
    for (auto& port : m_ports)
    {
        if (!port)
        {
            continue;
        }
        libcc_cp_info info{};
        info.switch_id = GetId();
        info.port_id = port->m_index;
        info.link_rate_bps = port->m_dev->GetDataRate().GetBitRate();
        // Different per port and switch, and per ns-3 run (RngSeed, RngRun).
        uint64_t run =
            (static_cast<uint64_t>(RngSeedManager::GetSeed()) << 32) ^ RngSeedManager::GetRun();
        info.seed = (static_cast<uint64_t>(Mix32(static_cast<uint32_t>(run) ^
                                                 Mix32(static_cast<uint32_t>(run >> 32))))
                     << 32) ^
                    (static_cast<uint64_t>(GetId()) << 16) ^ port->m_index;
        info.rand = m_rng ? &SwitchNode::RandForCp : nullptr;
        info.rand_user_data = this;
        info.int_table = m_intTable;
        int rc = libcc_cp_new(&port->m_cp, m_ccParams, &info);
        if (rc != LIBCC_OK)
        {
            NS_FATAL_ERROR("SwitchNode " << GetId() << " port " << port->m_index
                                         << ": libcc_cp_new: " << libcc_strerror(rc));
        }
    }
}

void
SwitchNode::EnsureSetup()
{
    if (!m_mmuConfigured)
    {
        SwitchMmu::Config cfg;
        cfg.bufferBytes = m_bufferBytes;
        cfg.pfcStaticThreshold = m_pfcStaticThreshold;
        cfg.pfcAlpha = m_pfcAlpha;
        cfg.headroomBytes = m_headroomBytes;
        cfg.xonOffsetBytes = m_xonOffsetBytes;
        cfg.lossyQueueLimit = m_lossyQueueLimit;
        cfg.losslessMask = m_losslessMask;
        if (!m_mmu.Configure(cfg, GetNPorts()))
        {
            NS_FATAL_ERROR("SwitchNode " << GetId() << ": HeadroomBytes (" << m_headroomBytes
                                         << ") x " << GetNPorts()
                                         << " ports leaves no shared buffer of BufferSize ("
                                         << m_bufferBytes << " bytes)");
        }
        m_mmuConfigured = true;
    }
    if (!m_cpsBuilt)
    {
        BuildCps();
    }
    if (m_routesDirty)
    {
        RebuildRouteIndex();
    }
}

const libcc_cp*
SwitchNode::GetCp(uint32_t port) const
{
    return port < m_ports.size() && m_ports[port] ? m_ports[port]->m_cp : nullptr;
}

const libcc_int_table*
SwitchNode::GetIntTable() const
{
    return m_intTable;
}

// ---- PFC -----------------------------------------------------------------------

void
SwitchNode::OnMmuPfc(uint32_t port, uint8_t prio, bool pause)
{
    Port* p = m_ports[port].get();
    if (!p)
    {
        return;
    }
    p->m_refresh[prio].Cancel();
    if (pause)
    {
        p->m_dev->SendPfc(prio, m_pauseQuanta);
        // Refresh at half the pause so the upstream never resumes while we are XOFF.
        Time half = p->m_dev->BitTime(static_cast<uint64_t>(m_pauseQuanta) * 512) / 2;
        p->m_refresh[prio] = Simulator::Schedule(half, &SwitchNode::RefreshPause, this, port, prio);
    }
    else
    {
        p->m_dev->SendPfc(prio, 0);
    }
    m_pfcTrace(Simulator::Now(), GetId(), port, prio, pause);
}

void
SwitchNode::RefreshPause(uint32_t port, uint8_t prio)
{
    if (m_mmu.IsXoff(port, prio))
    {
        Port* p = m_ports[port].get();
        p->m_dev->SendPfc(prio, m_pauseQuanta);
        Time half = p->m_dev->BitTime(static_cast<uint64_t>(m_pauseQuanta) * 512) / 2;
        p->m_refresh[prio] = Simulator::Schedule(half, &SwitchNode::RefreshPause, this, port, prio);
    }
}

// ---- data path -------------------------------------------------------------------

void
SwitchNode::ReceiveFrame(QbbNetDevice* dev, QbbFramePtr f)
{
    if (!m_mmuConfigured || !m_cpsBuilt)
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
    RoceFlowKey key;
    int32_t out = -1;
    bool keyed = true;
    if (!f->packet)
    {
        KeyOf(f->roce, key);
    }
    else
    {
        keyed = RocePeekKey(f->packet, key);
        key.hasInt = false;
        key.intHops = -1;
    }
    if (keyed)
    {
        out = LookupRoute(key.src, key.dst, key.sport, key.dport, key.proto);
    }
    if (out < 0 || static_cast<uint32_t>(out) >= m_ports.size() || !m_ports[out])
    {
        m_noRoute++;
        m_drops++;
        if (!m_dropTrace.IsEmpty())
        {
            m_dropTrace(f->ToPacket(), in, 0xFFFFFFFFu, key.prio);
        }
        return;
    }
    Port* port = m_ports[out].get();
    uint8_t prio = key.prio;
    uint32_t frameBytes = QbbNetDevice::FrameBytes(f->ipBytes);
    SwitchMmu::Result r = m_mmu.Admit(in, out, prio, frameBytes);
    if (r.charge == SwitchMmu::Charge::DROPPED)
    {
        m_drops++;
        if (!m_dropTrace.IsEmpty())
        {
            m_dropTrace(f->ToPacket(), in, out, prio);
        }
        return;
    }
    if (r.pfc == SwitchMmu::Pfc::XOFF)
    {
        OnMmuPfc(in, prio, true);
    }
    // FNCC Algorithm 1, line 3 (remember where an ACK came in) is the queue
    // entry's inPort: no packet tag to add here and take off at egress.
    bool isAck = key.type == RocePktType::ACK || key.type == RocePktType::NACK;
    bool ecnCapable = key.ecn != ROCE_ECN_NOT_ECT;
    if (port->m_cp)
    {
        libcc_cp_pkt cpk{};
        cpk.kind = KindOf(key.type);
        cpk.bytes = QbbNetDevice::WireBytes(f->ipBytes);
        cpk.ingress_port = in;
        cpk.ecn_capable = ecnCapable;
        cpk.request_int = key.hasInt && !isAck;
        libcc_cp_on_enqueue(port->m_cp, LibccNow(), port->m_bytes[prio], &cpk);
        if (cpk.mark_ce && ecnCapable && key.ecn != ROCE_ECN_CE && MarkCe(*f))
        {
            m_ecnMarks++;
        }
    }
    Port::Entry e;
    e.frame = std::move(f);
    e.inPort = in;
    e.frameBytes = frameBytes;
    e.type = key.type;
    e.ecnCapable = ecnCapable;
    e.hasInt = key.hasInt;
    e.intHops = key.intHops;
    uint32_t cls = IsControl(key.type) ? CLASS_CONTROL : CLASS_DATA;
    port->m_q[prio][cls].Push(std::move(e));
    port->m_nonEmpty[cls] |= 1u << prio;
    port->m_bytes[prio] += frameBytes;
    port->m_total += frameBytes;
    m_queueTrace(static_cast<uint32_t>(out), prio, port->m_bytes[prio]);
    port->m_dev->TriggerTransmit();
}

QbbFramePtr
SwitchNode::Dequeue(uint32_t portIdx, const std::array<bool, QBB_N_PRIO>& paused, uint8_t& prioOut)
{
    Port* port = m_ports[portIdx].get();
    uint32_t open = 0xFF;
    // Nothing paused is the common case: one 8-byte test instead of a loop.
    uint64_t anyPaused;
    static_assert(sizeof(paused) == sizeof(anyPaused), "8 one-byte flags");
    std::memcpy(&anyPaused, paused.data(), sizeof(anyPaused));
    if (anyPaused != 0)
    {
        for (uint32_t p = 0; p < QBB_N_PRIO; p++)
        {
            open &= ~(static_cast<uint32_t>(paused[p]) << p);
        }
    }
    int prio;
    uint32_t cls;
    if (uint32_t ctl = port->m_nonEmpty[CLASS_CONTROL] & open)
    {
        // Control class first, highest priority first.
        cls = CLASS_CONTROL;
        prio = 31 - __builtin_clz(ctl);
    }
    else if (uint32_t data = port->m_nonEmpty[CLASS_DATA] & open)
    {
        // Data: round-robin among priorities that are not paused, starting
        // at the one after the last served.
        cls = CLASS_DATA;
        uint32_t rr = port->m_rrNext;
        uint32_t rot = ((data >> rr) | (data << (QBB_N_PRIO - rr))) & 0xFF;
        prio = static_cast<int>((rr + __builtin_ctz(rot)) % QBB_N_PRIO);
        port->m_rrNext = static_cast<uint8_t>((prio + 1) % QBB_N_PRIO);
    }
    else
    {
        return nullptr;
    }
    Port::Entry e = port->m_q[prio][cls].Pop();
    if (port->m_q[prio][cls].Empty())
    {
        port->m_nonEmpty[cls] &= ~(1u << prio);
    }
    port->m_bytes[prio] -= e.frameBytes;
    port->m_total -= e.frameBytes;
    QbbFramePtr f = std::move(e.frame);
    uint8_t p8 = static_cast<uint8_t>(prio);

    SwitchMmu::Pfc pfc = m_mmu.Release(e.inPort, portIdx, p8, e.frameBytes);

    bool isAck = e.type == RocePktType::ACK || e.type == RocePktType::NACK;
    uint32_t ingress = e.inPort;
    if (port->m_cp)
    {
        libcc_cp_pkt cpk{};
        cpk.kind = KindOf(e.type);
        cpk.bytes = QbbNetDevice::WireBytes(f->ipBytes);
        cpk.ingress_port = ingress;
        cpk.ecn_capable = e.ecnCapable;
        cpk.request_int = e.hasInt && !isAck;
        // A CP only appends to the list (it reads n_hops, never an upstream
        // hop), so it runs on a scratch list of the frame's hop count; the
        // slots below n_hops are never read.
        libcc_int_list& ints = m_cpInts;
        bool intOk = e.hasInt && e.intHops >= 0;
        if (intOk)
        {
            ints.n_hops = static_cast<uint8_t>(e.intHops);
            cpk.ints = &ints;
            // The CP adds cpk.bytes to its tx counter before we can stamp;
            // count the hop it is about to add so txBytes matches the wire.
            // (FNCC stamps ACKs only; the HPCC family, packets that asked.)
            if (ints.n_hops < m_maxHops && (m_intTable ? isAck : cpk.request_int))
            {
                cpk.bytes += RoceIntHeader::HOP_BYTES;
            }
        }
        libcc_cp_on_dequeue(port->m_cp, LibccNow(), port->m_total, &cpk);
        if (intOk && cpk.int_stamped && ints.n_hops > 0)
        {
            // The hop as the wire keeps it (8 bytes: units, wrap), i.e. as
            // the receiver will read it.
            libcc_int_list& carried = f->roce.ints;
            libcc_int_hop hop = ints.hop[ints.n_hops - 1];
            if (carried.n_hops < LIBCC_INT_MAX_HOPS &&
                RoceIntHeader::QuantizeHop(f->roce.intFormat, hop))
            {
                carried.hop[carried.n_hops++] = hop;
                f->ipBytes += RoceIntHeader::HOP_BYTES;
                m_intStamps++;
            }
            else
            {
                m_intEncodeErrors++;
            }
        }
        if (cpk.mark_ce && e.ecnCapable && MarkCe(*f))
        {
            m_ecnMarks++;
        }
    }
    m_queueTrace(portIdx, p8, port->m_bytes[prio]);
    // Last: sending the XON can re-enter Dequeue for another port.
    if (pfc == SwitchMmu::Pfc::XON)
    {
        OnMmuPfc(e.inPort, p8, false);
    }
    prioOut = p8;
    return f;
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
               ? m_ports[port]->m_bytes[prio]
               : 0;
}

uint64_t
SwitchNode::GetPortQueueBytes(uint32_t port) const
{
    return port < m_ports.size() && m_ports[port] ? m_ports[port]->m_total : 0;
}

uint64_t
SwitchNode::GetDrops() const
{
    return m_drops;
}

uint64_t
SwitchNode::GetEcnMarks() const
{
    return m_ecnMarks;
}

uint64_t
SwitchNode::GetIntStamps() const
{
    return m_intStamps;
}

uint64_t
SwitchNode::GetNoRouteDrops() const
{
    return m_noRoute;
}

uint64_t
SwitchNode::GetIntEncodeErrors() const
{
    return m_intEncodeErrors;
}

} // namespace ns3
