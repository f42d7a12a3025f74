// SPDX-License-Identifier: GPL-2.0-only
#include "ecmp-router.h"

#include "ns3/log.h"
#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EcmpRouter");

EcmpRouter::EcmpRouter()
    : m_index(16)
    , m_mask(15)
    , m_seed(0)
    , m_seedHash(SeedHash(0))
{
}

uint32_t
EcmpRouter::SymmetricHash(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport, uint8_t proto,
                          uint32_t seed)
{
    return HashFrom(SeedHash(seed), src, dst, sport, dport, proto);
}

uint32_t
EcmpRouter::HashFrom(uint32_t h, uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport,
                     uint8_t proto)
{
    // Order each pair so that the reversed tuple hashes identically.
    uint32_t a = std::min(src, dst);
    uint32_t b = std::max(src, dst);
    uint32_t pa = std::min(sport, dport);
    uint32_t pb = std::max(sport, dport);
    h = Mix32(h ^ a);
    h = Mix32(h ^ b);
    h = Mix32(h ^ ((pa << 16) | pb));
    h = Mix32(h ^ proto);
    return h;
}

void
EcmpRouter::Grow()
{
    std::vector<Slot> old;
    old.swap(m_index);
    m_index.assign(old.size() * 2, Slot());
    m_mask = static_cast<uint32_t>(m_index.size() - 1);
    for (const Slot& e : old)
    {
        if (e.group != 0)
        {
            m_index[Find(e.key)] = e;
        }
    }
}

void
EcmpRouter::AddRoute(uint32_t dst, uint32_t port, uint64_t order)
{
    NS_LOG_FUNCTION(this << dst << port << order);
    uint32_t s = Find(dst);
    if (m_index[s].group == 0)
    {
        if ((m_nDestinations + 1) * 2 > m_index.size())
        {
            Grow();
            s = Find(dst);
        }
        m_nDestinations++;
        m_index[s].key = dst;
    }
    // The destination's group with port added: a group of its own only if
    // no other destination has that one (groups are shared, not edited).
    Group g = m_index[s].group != 0 ? m_groups[m_index[s].group - 1] : Group();
    if (std::find(g.ports.begin(), g.ports.end(), port) != g.ports.end())
    {
        return;
    }
    size_t at = std::upper_bound(g.orders.begin(), g.orders.end(), order) - g.orders.begin();
    g.orders.insert(g.orders.begin() + at, order);
    g.ports.insert(g.ports.begin() + at, port);
    m_index[s].group = Intern(g);
}

uint32_t
EcmpRouter::Intern(const Group& g)
{
    GroupKey key;
    key.reserve(g.ports.size());
    for (size_t i = 0; i < g.ports.size(); i++)
    {
        key.emplace_back(g.orders[i], g.ports[i]);
    }
    auto it = m_groupIds.find(key);
    if (it != m_groupIds.end())
    {
        return it->second;
    }
    m_groups.push_back(g);
    m_groups.back().ports.shrink_to_fit();
    m_groups.back().orders.shrink_to_fit();
    uint32_t id = static_cast<uint32_t>(m_groups.size());
    m_groupIds.emplace(std::move(key), id);
    return id;
}

void
EcmpRouter::Clear()
{
    NS_LOG_FUNCTION(this);
    m_groups.clear();
    m_groupIds.clear();
    m_nDestinations = 0;
    m_index.assign(16, Slot());
    m_mask = 15;
}

void
EcmpRouter::SetSeed(uint32_t seed)
{
    NS_LOG_FUNCTION(this << seed);
    m_seed = seed;
    m_seedHash = SeedHash(seed);
}

uint32_t
EcmpRouter::GetSeed() const
{
    return m_seed;
}

uint32_t
EcmpRouter::GetNDestinations() const
{
    return m_nDestinations;
}

} // namespace ns3
