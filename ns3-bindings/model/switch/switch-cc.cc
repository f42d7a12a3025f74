// SPDX-License-Identifier: GPL-2.0-only
#include "switch-cc.h"

#include "ecmp-router.h"
#include "qbb-net-device.h"

#include "ns3/log.h"
#include "ns3/rng-seed-manager.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchCc");

SwitchCc::SwitchCc()
    : m_params(nullptr)
    , m_intTable(nullptr)
    , m_built(false)
    , m_hopBytes(0)
    , m_ecnMarks(0)
    , m_intStamps(0)
    , m_flowIds(false)
{
}

SwitchCc::~SwitchCc()
{
    Free();
    libcc_params_del(m_params);
    for (auto& r : m_rateParams)
    {
        libcc_params_del(r.second);
    }
}

void
SwitchCc::SetRateParams(uint64_t rateBps, const libcc_params* params)
{
    Free();
    auto it = m_rateParams.find(rateBps);
    if (it != m_rateParams.end())
    {
        libcc_params_del(it->second);
        m_rateParams.erase(it);
    }
    libcc_params* copy = nullptr;
    if (params && libcc_params_copy(&copy, params) == LIBCC_OK)
    {
        m_rateParams[rateBps] = copy;
    }
}

void
SwitchCc::SetParams(const libcc_params* params)
{
    NS_LOG_FUNCTION(this << params);
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
    NS_LOG_FUNCTION(this);
    for (libcc_cp*& cp : m_cps)
    {
        libcc_cp_del(cp);
        cp = nullptr;
    }
    m_cps.clear();
    m_portParams.clear();
    m_flowIndex.clear();
    m_flowAddr.clear();
    m_timerFb.clear();
    m_flowIds = false;
    m_enqueueWork = false;
    libcc_int_table_del(m_intTable);
    m_intTable = nullptr;
    m_built = false;
}

namespace
{

/// Why libcc_cp_new refused a port, for a person: an INT format that cannot
/// carry the link rate is named with the rates it can carry.
std::string
CpRefusal(int rc, const libcc_algorithm_info& ai)
{
    std::string algo = ai.name ? ai.name : "?";
    if (rc != LIBCC_ERR_OUT_OF_RANGE)
    {
        return algo + " cannot run there: " + libcc_strerror(rc);
    }
    std::string msg = algo + "'s INT cannot carry this link rate; accepted:";
    const uint64_t candidates[] = {1,  2,   5,   10,  25,  40,   50,   100,
                                   200, 400, 800, 1600, 3200};
    for (uint64_t g : candidates)
    {
        uint64_t bps = g * 1000000000ull;
        if ((ai.data_int == LIBCC_INT_FORMAT_NONE || libcc_int_rate_supported(ai.data_int, bps)) &&
            (ai.ack_int == LIBCC_INT_FORMAT_NONE || libcc_int_rate_supported(ai.ack_int, bps)))
        {
            msg += " " + std::to_string(g) + "G";
        }
    }
    return msg + " (docs/int-telemetry.md)";
}

} // namespace

bool
SwitchCc::Build(uint32_t switchId, const std::vector<uint64_t>& portRates, std::string& err)
{
    NS_LOG_FUNCTION(this << switchId << portRates.size());
    Free();
    m_built = true;
    if (!m_params)
    {
        return true;
    }
    libcc_algorithm_info ai{};
    libcc_algorithm_info_get(libcc_params_algorithm(m_params), &ai);
    m_hopBytes = ai.int_hop_bytes;
    m_flowIds = (ai.signals & LIBCC_SIGNAL_CP_FEEDBACK) != 0;
    m_enqueueWork = ai.cp_on_enqueue != 0;
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
    m_portParams.assign(portRates.size(), nullptr);
    for (uint32_t port = 0; port < portRates.size(); port++)
    {
        if (portRates[port] == 0)
        {
            continue;
        }
        auto rate = m_rateParams.find(portRates[port]);
        const libcc_params* params = rate != m_rateParams.end() ? rate->second : m_params;
        m_portParams[port] = params;
        libcc_cp_info info{};
        info.switch_id = switchId;
        info.port_id = port;
        info.link_rate_bps = portRates[port];
        info.seed = (runMix << 32) ^ (static_cast<uint64_t>(switchId) << 16) ^ port;
        info.rand = m_rng ? &SwitchCc::Rand : nullptr;
        info.rand_user_data = this;
        info.int_table = m_intTable;
        int rc = libcc_cp_new(&m_cps[port], params, &info);
        if (rc != LIBCC_OK)
        {
            err = "switch " + std::to_string(switchId) + " port " + std::to_string(port) + " (" +
                  std::to_string(portRates[port] / 1000000) + " Mbps): " + CpRefusal(rc, ai);
            Free();
            m_built = true;
            return false;
        }
        m_timerFb.resize(std::max(m_timerFb.size(), libcc_cp_max_feedback(m_cps[port])));
    }
    return true;
}

uint32_t
SwitchCc::FlowIndex(const SwitchPort::Entry& e)
{
    const RocePacketInfo& r = e.frame->roce;
    // What tells two flows apart at this switch: addresses, ports and the
    // destination queue pair (two QPs of one host pair may share ports).
    std::pair<uint64_t, uint64_t> key(
        (static_cast<uint64_t>(r.src.Get()) << 32) | r.dst.Get(),
        (static_cast<uint64_t>(r.sport) << 48) | (static_cast<uint64_t>(r.dport) << 32) |
            r.destQp);
    auto it = m_flowIndex.try_emplace(key, static_cast<uint32_t>(m_flowAddr.size())).first;
    if (it->second == m_flowAddr.size())
    {
        FlowAddr a;
        a.src = r.src;
        a.dst = r.dst;
        a.sport = r.sport;
        a.dport = r.dport;
        a.destQp = r.destQp;
        m_flowAddr.push_back(a);
    }
    m_flowAddr[it->second].inPort = e.inPort;
    return it->second;
}

size_t
SwitchCc::OnTimer(uint32_t port, uint64_t nowNs)
{
    if (port >= m_cps.size() || !m_cps[port])
    {
        return 0;
    }
    size_t n = 0;
    int rc = libcc_cp_on_timer(m_cps[port], nowNs, m_timerFb.data(), m_timerFb.size(), &n);
    NS_ASSERT_MSG(rc == LIBCC_OK, "libcc_cp_on_timer: " << libcc_strerror(rc));
    (void)rc;
    return n;
}

} // namespace ns3
