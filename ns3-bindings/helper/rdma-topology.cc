// SPDX-License-Identifier: GPL-2.0-only

#include "rdma-topology.h"

#include <sstream>

namespace ns3
{

namespace
{

std::string
Describe(const std::string& file, uint32_t line, const std::string& field, const std::string& msg)
{
    std::ostringstream os;
    os << file;
    if (line > 0)
    {
        os << ":" << line;
    }
    if (!field.empty())
    {
        os << ": field '" << field << "'";
    }
    os << ": " << msg;
    return os.str();
}

} // namespace

FileFormatError::FileFormatError(const std::string& file, uint32_t line, const std::string& field,
                                 const std::string& message)
    : std::runtime_error(Describe(file, line, field, message))
    , m_file(file)
    , m_line(line)
    , m_field(field)
{
}

uint32_t
TopologySpec::NumSwitches() const
{
    uint32_t n = 0;
    for (bool s : isSwitch)
    {
        n += s ? 1 : 0;
    }
    return n;
}

TopologySpec
MakeChainTopology(const std::vector<uint32_t>& senderSwitch, uint32_t nSwitches, uint64_t rateBps,
                  uint64_t delayNs)
{
    uint32_t nSenders = static_cast<uint32_t>(senderSwitch.size());
    if (nSenders < 1 || nSwitches < 1)
    {
        throw std::invalid_argument("chain: need at least one sender and one switch");
    }
    TopologySpec t;
    t.file = "chain";
    t.nNodes = nSenders + 1 + nSwitches;
    t.isSwitch.assign(t.nNodes, false);
    uint32_t sw0 = nSenders + 1;
    for (uint32_t s = 0; s < nSwitches; s++)
    {
        t.isSwitch[sw0 + s] = true;
    }
    auto link = [&](uint32_t a, uint32_t b) {
        t.links.push_back(TopologyLinkSpec{a, b, rateBps, delayNs, 0.0, 0});
    };
    for (uint32_t h = 0; h < nSenders; h++)
    {
        if (senderSwitch[h] >= nSwitches)
        {
            throw std::invalid_argument("chain: sender " + std::to_string(h) + " on switch " +
                                        std::to_string(senderSwitch[h]) + ", accepted 0.." +
                                        std::to_string(nSwitches - 1));
        }
        link(h, sw0 + senderSwitch[h]);
    }
    for (uint32_t s = 0; s + 1 < nSwitches; s++)
    {
        link(sw0 + s, sw0 + s + 1);
    }
    link(sw0 + nSwitches - 1, nSenders);
    return t;
}

TopologySpec
MakeDumbbellTopology(uint32_t nSenders, uint32_t nSwitches, uint64_t rateBps, uint64_t delayNs)
{
    if (nSenders < 1)
    {
        throw std::invalid_argument("dumbbell: need at least one sender and one switch");
    }
    TopologySpec t =
        MakeChainTopology(std::vector<uint32_t>(nSenders, 0), nSwitches, rateBps, delayNs);
    t.file = "dumbbell";
    return t;
}

TopologySpec
MakeFatTreeTopology(uint32_t k, uint64_t rateBps, uint64_t delayNs)
{
    if (k < 2 || k % 2 != 0 || k > 64)
    {
        throw std::invalid_argument("fat-tree: k must be even, 2..64");
    }
    uint32_t half = k / 2;
    uint32_t hosts = k * k * k / 4;
    uint32_t edge0 = hosts;
    uint32_t agg0 = edge0 + k * half;
    uint32_t core0 = agg0 + k * half;
    TopologySpec t;
    t.file = "fat-tree";
    t.nNodes = core0 + half * half;
    t.isSwitch.assign(t.nNodes, true);
    for (uint32_t h = 0; h < hosts; h++)
    {
        t.isSwitch[h] = false;
    }
    auto link = [&](uint32_t a, uint32_t b) {
        t.links.push_back(TopologyLinkSpec{a, b, rateBps, delayNs, 0.0, 0});
    };
    for (uint32_t h = 0; h < hosts; h++)
    {
        link(h, edge0 + h / half);
    }
    for (uint32_t p = 0; p < k; p++)
    {
        for (uint32_t e = 0; e < half; e++)
        {
            for (uint32_t a = 0; a < half; a++)
            {
                link(edge0 + p * half + e, agg0 + p * half + a);
            }
        }
        for (uint32_t a = 0; a < half; a++)
        {
            for (uint32_t c = 0; c < half; c++)
            {
                link(agg0 + p * half + a, core0 + a * half + c);
            }
        }
    }
    return t;
}

} // namespace ns3
