// SPDX-License-Identifier: GPL-2.0-only
//
// EcmpRouter: a switch's forwarding table. Destination IPv4 address -> a
// group of equal-cost egress ports; a flow picks one port of the group by a
// SYMMETRIC 5-tuple hash (SymmetricHash), so its data and its ACKs take the
// same switches in reverse order when the topology is symmetric. A group is
// kept sorted by an order key the caller gives (the id of the node at the
// port's other end), so two switches that see the same set of next-hop
// nodes pick the same one for a flow.
//
// The index (open addressing on the destination) is kept valid by every
// AddRoute: lookups are const and never rebuild anything. Destinations with
// the same group share it (in a fat tree a switch has a handful of distinct
// groups for all its destinations): the table grows by one index slot per
// destination, not by a group of its own (docs/performance.md, memory).

#ifndef ECMP_ROUTER_H
#define ECMP_ROUTER_H

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace ns3
{

/// murmur3's finalizer: every input bit affects every output bit.
inline uint32_t
Mix32(uint32_t h)
{
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

class EcmpRouter
{
  public:
    EcmpRouter();

    /**
     * Add port as one equal-cost next hop towards dst (host order). order
     * sorts the group; ports of equal order keep their insertion order.
     * Adding a port twice to one group changes nothing.
     */
    void AddRoute(uint32_t dst, uint32_t port, uint64_t order);
    void Clear();
    /// The seed of the hash (the switch mixes its tier into it).
    void SetSeed(uint32_t seed);
    uint32_t GetSeed() const;
    /// The egress port for this 5-tuple; -1 if dst has no route.
    int32_t Lookup(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport,
                   uint8_t proto) const;
    /// Destinations with at least one route.
    uint32_t GetNDestinations() const;

    /// The symmetric 5-tuple hash: equal for (s,d,sp,dp,p) and (d,s,dp,sp,p).
    static uint32_t SymmetricHash(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport,
                                  uint8_t proto, uint32_t seed);

  private:
    struct Slot
    {
        uint32_t key = 0;   //!< destination address (host order)
        uint32_t group = 0; //!< index into m_groups + 1; 0 = empty slot
    };
    struct Group
    {
        std::vector<uint32_t> ports;  //!< sorted by order
        std::vector<uint64_t> orders; //!< the order key of each port
    };
    /// SymmetricHash's rounds after the seed's, from h = SeedHash(seed).
    static uint32_t HashFrom(uint32_t h, uint32_t src, uint32_t dst, uint16_t sport,
                             uint16_t dport, uint8_t proto);
    static uint32_t SeedHash(uint32_t seed)
    {
        return Mix32(seed ^ 0x9e3779b9u);
    }
    /// A group's (order, port) sequence: equal for equal groups.
    using GroupKey = std::vector<std::pair<uint64_t, uint32_t>>;

    /// The slot holding dst, or the empty slot where it belongs.
    uint32_t Find(uint32_t dst) const;
    void Grow();

    /// The index + 1 of group g in m_groups, which gets it if it is new.
    uint32_t Intern(const Group& g);

    std::vector<Group> m_groups; //!< distinct groups, never changed once added
    std::map<GroupKey, uint32_t> m_groupIds; //!< group -> its index + 1 (set-up only)
    uint32_t m_nDestinations = 0;
    std::vector<Slot> m_index; //!< power-of-two size, at most half full
    uint32_t m_mask;
    uint32_t m_seed;
    uint32_t m_seedHash; //!< SeedHash(m_seed): the first round, once per seed
};

// Per packet: inline.

inline uint32_t
EcmpRouter::Find(uint32_t dst) const
{
    uint32_t s = Mix32(dst) & m_mask;
    while (m_index[s].group != 0 && m_index[s].key != dst)
    {
        s = (s + 1) & m_mask;
    }
    return s;
}

inline int32_t
EcmpRouter::Lookup(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport, uint8_t proto) const
{
    const Slot& e = m_index[Find(dst)];
    if (e.group == 0)
    {
        return -1;
    }
    const std::vector<uint32_t>& ports = m_groups[e.group - 1].ports;
    if (ports.size() == 1)
    {
        return static_cast<int32_t>(ports[0]);
    }
    uint32_t h = HashFrom(m_seedHash, src, dst, sport, dport, proto);
    return static_cast<int32_t>(ports[h % ports.size()]);
}

} // namespace ns3

#endif
