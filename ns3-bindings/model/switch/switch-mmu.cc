// SPDX-License-Identifier: GPL-2.0-only
#include "switch-mmu.h"

#include "ns3/log.h"
#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchMmu");

SwitchMmu::SwitchMmu()
    : m_nPorts(0)
    , m_sharedPool(0)
    , m_sharedUsed(0)
    , m_lossyDrops(0)
    , m_headroomDrops(0)
{
    Configure(Config(), 0);
}

bool
SwitchMmu::Configure(const Config& cfg, uint32_t nPorts)
{
    NS_LOG_FUNCTION(this << nPorts);
    m_cfg = cfg;
    m_nPorts = nPorts;
    m_sharedPool = SharedPoolBytes(cfg, nPorts);
    m_sharedUsed = 0;
    m_inShared.assign(nPorts, {});
    m_inHeadroom.assign(nPorts, {});
    m_portHeadroom.assign(nPorts, 0);
    m_egress.assign(nPorts, {});
    m_xoff.assign(nPorts, {});
    m_xoffFor.assign(nPorts, {});
    m_lossyDrops = 0;
    m_headroomDrops = 0;
    return nPorts == 0 || m_sharedPool > 0;
}

uint64_t
SwitchMmu::SharedPoolBytes(const Config& cfg, uint32_t nPorts)
{
    bool anyLossless = (cfg.losslessMask & 0xFF) != 0;
    uint64_t reserved = anyLossless ? static_cast<uint64_t>(nPorts) * cfg.headroomBytes : 0;
    return cfg.bufferBytes > reserved ? cfg.bufferBytes - reserved : 0;
}

const SwitchMmu::Config&
SwitchMmu::GetConfig() const
{
    return m_cfg;
}

uint32_t
SwitchMmu::GetNPorts() const
{
    return m_nPorts;
}

bool
SwitchMmu::IsLossless(uint8_t prio) const
{
    return prio < N_PRIO && (m_cfg.losslessMask & (1u << prio)) != 0;
}

uint64_t
SwitchMmu::GetThreshold() const
{
    if (m_cfg.pfcStaticThreshold > 0)
    {
        return m_cfg.pfcStaticThreshold;
    }
    uint64_t freeBytes = m_sharedPool > m_sharedUsed ? m_sharedPool - m_sharedUsed : 0;
    return static_cast<uint64_t>(m_cfg.pfcAlpha * static_cast<double>(freeBytes));
}

SwitchMmu::Result
SwitchMmu::Admit(uint32_t in, uint32_t out, uint8_t prio, uint32_t bytes)
{
    Result r;
    if (in >= m_nPorts || out >= m_nPorts || prio >= N_PRIO)
    {
        return r;
    }
    bool poolRoom = m_sharedUsed + bytes <= m_sharedPool;
    if (!IsLossless(prio))
    {
        if (!poolRoom || m_egress[out][prio] + bytes > m_cfg.lossyQueueLimit)
        {
            m_lossyDrops++;
            return r;
        }
        r.charge = Charge::SHARED;
    }
    else if (poolRoom && (m_cfg.egressScope ? m_egress[out][prio] : m_inShared[in][prio]) + bytes <=
                             GetThreshold())
    {
        r.charge = Charge::SHARED;
    }
    else if (m_portHeadroom[in] + bytes <= m_cfg.headroomBytes)
    {
        r.charge = Charge::HEADROOM;
        if (!m_xoff[in][prio])
        {
            m_xoff[in][prio] = true;
            m_xoffFor[in][prio] = out;
            r.pfc = Pfc::XOFF;
        }
    }
    else
    {
        m_headroomDrops++;
        return r;
    }
    if (r.charge == Charge::SHARED)
    {
        m_sharedUsed += bytes;
        m_inShared[in][prio] += bytes;
    }
    else
    {
        m_inHeadroom[in][prio] += bytes;
        m_portHeadroom[in] += bytes;
    }
    m_egress[out][prio] += bytes;
    return r;
}

SwitchMmu::Pfc
SwitchMmu::Release(uint32_t in, uint32_t out, uint8_t prio, uint32_t bytes)
{
    if (in >= m_nPorts || out >= m_nPorts || prio >= N_PRIO)
    {
        return Pfc::NONE;
    }
    m_egress[out][prio] -= bytes;
    // Counters, not per-packet charges: whichever packet leaves, the bytes
    // come off the headroom first (as an ASIC's ingress counters and the
    // HPCC simulator's MMU do). The headroom-charged packets arrived last and
    // sit at the tail; releasing them last would hold XOFF until the queue
    // had nearly drained and idle the paused link.
    uint64_t fromHeadroom = std::min<uint64_t>(bytes, m_inHeadroom[in][prio]);
    uint64_t fromShared = bytes - fromHeadroom;
    m_inHeadroom[in][prio] -= fromHeadroom;
    m_portHeadroom[in] -= fromHeadroom;
    m_inShared[in][prio] -= fromShared;
    m_sharedUsed -= fromShared;
    // The threshold is looked at only for an XOFF ingress whose headroom
    // emptied: not on every release.
    if (m_xoff[in][prio] && m_inHeadroom[in][prio] == 0 &&
        (m_cfg.egressScope ? EgressAllowsXon(in, prio)
                           : m_inShared[in][prio] == 0 ||
                                 m_inShared[in][prio] + m_cfg.xonOffsetBytes <= GetThreshold()))
    {
        m_xoff[in][prio] = false;
        return Pfc::XON;
    }
    return Pfc::NONE;
}

bool
SwitchMmu::EgressAllowsXon(uint32_t in, uint8_t prio) const
{
    uint64_t q = m_egress[m_xoffFor[in][prio]][prio];
    return q == 0 || q + m_cfg.xonOffsetBytes <= GetThreshold();
}

void
SwitchMmu::TakeResumes(uint32_t out, uint8_t prio, std::vector<uint32_t>& resumed)
{
    if (!m_cfg.egressScope || out >= m_nPorts || prio >= N_PRIO)
    {
        return;
    }
    for (uint32_t in = 0; in < m_nPorts; in++)
    {
        if (m_xoff[in][prio] && m_xoffFor[in][prio] == out && m_inHeadroom[in][prio] == 0 &&
            EgressAllowsXon(in, prio))
        {
            m_xoff[in][prio] = false;
            resumed.push_back(in);
        }
    }
}

bool
SwitchMmu::IsXoff(uint32_t in, uint8_t prio) const
{
    return in < m_nPorts && prio < N_PRIO && m_xoff[in][prio];
}

uint64_t
SwitchMmu::GetSharedPoolBytes() const
{
    return m_sharedPool;
}

uint64_t
SwitchMmu::GetSharedUsed() const
{
    return m_sharedUsed;
}

uint64_t
SwitchMmu::GetIngressShared(uint32_t in, uint8_t prio) const
{
    return in < m_nPorts && prio < N_PRIO ? m_inShared[in][prio] : 0;
}

uint64_t
SwitchMmu::GetIngressHeadroom(uint32_t in, uint8_t prio) const
{
    return in < m_nPorts && prio < N_PRIO ? m_inHeadroom[in][prio] : 0;
}

uint64_t
SwitchMmu::GetPortHeadroom(uint32_t in) const
{
    return in < m_nPorts ? m_portHeadroom[in] : 0;
}

uint64_t
SwitchMmu::GetEgressBytes(uint32_t out, uint8_t prio) const
{
    return out < m_nPorts && prio < N_PRIO ? m_egress[out][prio] : 0;
}

uint64_t
SwitchMmu::GetLossyDrops() const
{
    return m_lossyDrops;
}

uint64_t
SwitchMmu::GetHeadroomDrops() const
{
    return m_headroomDrops;
}

} // namespace ns3
