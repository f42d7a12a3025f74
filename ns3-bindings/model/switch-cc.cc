// SPDX-License-Identifier: GPL-2.0-only
#include "switch-cc.h"

#include "ecmp-router.h"
#include "libcc-agent.h"
#include "qbb-net-device.h"

#include "ns3/rng-seed-manager.h"

namespace ns3
{

namespace
{

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

/// CE-mark an ECN-capable frame; false if not ECT or already CE.
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

SwitchCc::SwitchCc()
    : m_params(nullptr)
    , m_intTable(nullptr)
    , m_built(false)
    , m_hopBytes(0)
    , m_ecnMarks(0)
    , m_intStamps(0)
{
}

SwitchCc::~SwitchCc()
{
    Free();
    libcc_params_del(m_params);
}

void
SwitchCc::SetParams(const libcc_params* params)
{
    Free();
    libcc_params_del(m_params);
    m_params = nullptr;
    if (params && libcc_params_copy(&m_params, params) != LIBCC_OK)
    {
        m_params = nullptr;
    }
}

void
SwitchCc::SetRandom(Ptr<UniformRandomVariable> rng)
{
    Free();
    m_rng = rng;
}

uint64_t
SwitchCc::Rand(void* self)
{
    auto* me = static_cast<SwitchCc*>(self);
    uint64_t hi = me->m_rng->GetInteger(0, 0xFFFFFFFFu);
    uint64_t lo = me->m_rng->GetInteger(0, 0xFFFFFFFFu);
    return (hi << 32) | lo;
}

void
SwitchCc::Free()
{
    for (libcc_cp*& cp : m_cps)
    {
        libcc_cp_del(cp);
        cp = nullptr;
    }
    m_cps.clear();
    libcc_int_table_del(m_intTable);
    m_intTable = nullptr;
    m_built = false;
}

bool
SwitchCc::Build(uint32_t switchId, const std::vector<uint64_t>& portRates, std::string& err)
{
    Free();
    m_built = true;
    if (!m_params)
    {
        return true;
    }
    libcc_algorithm_info ai{};
    libcc_algorithm_info_get(libcc_params_algorithm(m_params), &ai);
    m_hopBytes = ai.int_hop_bytes;
    if (m_hopBytes != 0 && m_hopBytes != RoceIntHeader::HOP_BYTES)
    {
        err = std::string(libcc_params_algorithm(m_params)) + ": INT hops of " +
              std::to_string(m_hopBytes) + " bytes; the RoCEv2 codec writes " +
              std::to_string(RoceIntHeader::HOP_BYTES);
        return false;
    }
    if (ai.cp_needs_int_table && !portRates.empty())
    {
        int rc = libcc_int_table_new(&m_intTable, static_cast<uint32_t>(portRates.size()));
        if (rc != LIBCC_OK)
        {
            err = "switch " + std::to_string(switchId) + ": INT table: " + libcc_strerror(rc);
            return false;
        }
    }
    // Different per port and switch, and per ns-3 run (RngSeed, RngRun).
    uint64_t run =
        (static_cast<uint64_t>(RngSeedManager::GetSeed()) << 32) ^ RngSeedManager::GetRun();
    uint64_t runMix = static_cast<uint64_t>(
        Mix32(static_cast<uint32_t>(run) ^ Mix32(static_cast<uint32_t>(run >> 32))));
    m_cps.assign(portRates.size(), nullptr);
    for (uint32_t port = 0; port < portRates.size(); port++)
    {
        if (portRates[port] == 0)
        {
            continue;
        }
        libcc_cp_info info{};
        info.switch_id = switchId;
        info.port_id = port;
        info.link_rate_bps = portRates[port];
        info.seed = (runMix << 32) ^ (static_cast<uint64_t>(switchId) << 16) ^ port;
        info.rand = m_rng ? &SwitchCc::Rand : nullptr;
        info.rand_user_data = this;
        info.int_table = m_intTable;
        int rc = libcc_cp_new(&m_cps[port], m_params, &info);
        if (rc != LIBCC_OK)
        {
            err = "switch " + std::to_string(switchId) + " port " + std::to_string(port) + " (" +
                  std::to_string(portRates[port] / 1000000) + " Mbps): " +
                  libcc_params_algorithm(m_params) + " cannot run there: " + libcc_strerror(rc);
            if (rc == LIBCC_ERR_OUT_OF_RANGE)
            {
                err += " (its INT format cannot carry this link rate; see docs/int-telemetry.md "
                       "for the rates it can)";
            }
            Free();
            m_built = true;
            return false;
        }
    }
    return true;
}

namespace
{

/// What libcc sees of a queued frame.
libcc_cp_pkt
CpPacket(SwitchPort::Entry& e, uint64_t queueBytes, uint64_t portBytes)
{
    QbbFrame& f = *e.frame;
    libcc_cp_pkt pkt{};
    pkt.kind = KindOf(e.type);
    pkt.bytes = QbbNetDevice::WireBytes(f.ipBytes);
    pkt.ingress_port = e.inPort; // FNCC Algorithm 1, line 3: where an ACK came in
    pkt.queue_bytes = queueBytes;
    pkt.port_queue_bytes = portBytes;
    pkt.ecn_capable = e.ecnCapable;
    // libcc writes a hop, already in the header's wire format, straight into
    // the frame's list; whether to is its decision (by kind and algorithm).
    pkt.ints = e.hasInt ? &f.roce.ints : nullptr;
    return pkt;
}

} // namespace

void
SwitchCc::Apply(SwitchPort::Entry& e, const libcc_cp_pkt& pkt)
{
    QbbFrame& f = *e.frame;
    if (pkt.int_stamped)
    {
        f.ipBytes += m_hopBytes;
        m_intStamps++;
    }
    if (pkt.mark_ce && e.ecnCapable && MarkCe(f))
    {
        m_ecnMarks++;
    }
}

void
SwitchCc::OnEnqueue(uint32_t port, SwitchPort::Entry& e, uint64_t queueBytes, uint64_t portBytes)
{
    if (port >= m_cps.size() || !m_cps[port])
    {
        return;
    }
    libcc_cp_pkt pkt = CpPacket(e, queueBytes, portBytes);
    libcc_cp_on_enqueue(m_cps[port], LibccNow(), &pkt);
    Apply(e, pkt);
}

void
SwitchCc::OnDequeue(uint32_t port, SwitchPort::Entry& e, uint64_t queueBytes, uint64_t portBytes)
{
    if (port >= m_cps.size() || !m_cps[port])
    {
        return;
    }
    libcc_cp_pkt pkt = CpPacket(e, queueBytes, portBytes);
    libcc_cp_on_dequeue(m_cps[port], LibccNow(), &pkt);
    Apply(e, pkt);
}

} // namespace ns3
