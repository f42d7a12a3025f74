// SPDX-License-Identifier: GPL-2.0-only
#include "rdma-partition.h"

#include "ns3/log.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <queue>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaPartition");

namespace
{

std::vector<std::vector<uint32_t>>
Adjacency(const TopologySpec& topo)
{
    std::vector<std::vector<uint32_t>> adj(topo.nNodes);
    for (const TopologyLinkSpec& l : topo.links)
    {
        adj[l.a].push_back(l.b);
        adj[l.b].push_back(l.a);
    }
    return adj;
}

/// Hops from each node to its nearest host.
std::vector<uint32_t>
HostDistance(const TopologySpec& topo, const std::vector<std::vector<uint32_t>>& adj)
{
    std::vector<uint32_t> d(topo.nNodes, UINT32_MAX);
    std::queue<uint32_t> q;
    for (uint32_t id = 0; id < topo.nNodes; ++id)
    {
        if (!topo.isSwitch[id])
        {
            d[id] = 0;
            q.push(id);
        }
    }
    while (!q.empty())
    {
        uint32_t u = q.front();
        q.pop();
        for (uint32_t v : adj[u])
        {
            if (d[v] == UINT32_MAX)
            {
                d[v] = d[u] + 1;
                q.push(v);
            }
        }
    }
    return d;
}

/// Give groups (each a list of node ids, in order) to ranks contiguously,
/// a rank's share of nodes close to n / ranks.
void
DealContiguous(const std::vector<std::vector<uint32_t>>& groups, uint32_t ranks, uint64_t total,
               std::vector<uint32_t>& rankOf)
{
    uint64_t done = 0;
    for (const std::vector<uint32_t>& g : groups)
    {
        // The rank whose share the group's middle falls in.
        uint64_t mid = done + g.size() / 2;
        uint32_t r = static_cast<uint32_t>(std::min<uint64_t>(ranks - 1, mid * ranks / total));
        for (uint32_t id : g)
        {
            rankOf[id] = r;
        }
        done += g.size();
    }
}

/// Give groups to ranks by load: heaviest first, each to the rank with the
/// least load so far (longest processing time first). False when the
/// groups carry no load at all (nothing to balance by).
bool
DealByLoad(const std::vector<std::vector<uint32_t>>& groups, uint32_t ranks,
           const std::vector<uint64_t>& nodeLoad, std::vector<uint32_t>& rankOf)
{
    std::vector<uint64_t> load(groups.size(), 0);
    uint64_t total = 0;
    for (size_t g = 0; g < groups.size(); ++g)
    {
        for (uint32_t id : groups[g])
        {
            load[g] += nodeLoad[id];
        }
        total += load[g];
    }
    if (total == 0)
    {
        return false;
    }
    std::vector<size_t> order(groups.size());
    for (size_t g = 0; g < order.size(); ++g)
    {
        order[g] = g;
    }
    // Groups are made in order of their smallest node id: a stable sort
    // breaks ties by it.
    std::stable_sort(order.begin(), order.end(),
                     [&load](size_t a, size_t b) { return load[a] > load[b]; });
    std::vector<uint64_t> rankLoad(ranks, 0);
    std::vector<uint64_t> rankNodes(ranks, 0);
    for (size_t g : order)
    {
        uint32_t best = 0;
        for (uint32_t r = 1; r < ranks; ++r)
        {
            if (rankLoad[r] < rankLoad[best] ||
                (rankLoad[r] == rankLoad[best] && rankNodes[r] < rankNodes[best]))
            {
                best = r;
            }
        }
        for (uint32_t id : groups[g])
        {
            rankOf[id] = best;
        }
        rankLoad[best] += load[g];
        rankNodes[best] += groups[g].size();
    }
    return true;
}

} // namespace

std::vector<uint64_t>
FlowBytesPerNode(const std::vector<FlowSpec>& flows, uint32_t nNodes)
{
    std::vector<uint64_t> load(nNodes, 0);
    for (const FlowSpec& f : flows)
    {
        if (f.src < nNodes && f.dst < nNodes)
        {
            load[f.src] += f.sizeBytes;
            load[f.dst] += f.sizeBytes;
        }
    }
    return load;
}

std::vector<uint64_t>
PartitionLoads(const std::vector<uint32_t>& rankOf, uint32_t ranks,
               const std::vector<uint64_t>& nodeLoad)
{
    std::vector<uint64_t> load(ranks, 0);
    for (size_t id = 0; id < rankOf.size() && id < nodeLoad.size(); ++id)
    {
        if (rankOf[id] < ranks)
        {
            load[rankOf[id]] += nodeLoad[id];
        }
    }
    return load;
}

std::vector<uint32_t>
PartitionTopology(const TopologySpec& topo, uint32_t ranks, const std::vector<uint64_t>& nodeLoad)
{
    if (!nodeLoad.empty() && nodeLoad.size() != topo.nNodes)
    {
        throw std::invalid_argument("PartitionTopology: " + std::to_string(nodeLoad.size()) +
                                    " node loads for a topology of " +
                                    std::to_string(topo.nNodes) + " nodes");
    }
    std::vector<uint32_t> rankOf(topo.nNodes, 0);
    if (ranks <= 1 || topo.nNodes == 0)
    {
        return rankOf;
    }
    auto adj = Adjacency(topo);
    std::vector<uint32_t> dist = HostDistance(topo, adj);
    uint32_t top = 0;
    for (uint32_t id = 0; id < topo.nNodes; ++id)
    {
        if (dist[id] != UINT32_MAX)
        {
            top = std::max(top, dist[id]);
        }
    }
    // Blocks: components once the top layer is taken out (when it is a
    // layer of its own: at least two hops above the hosts).
    std::vector<uint32_t> block(topo.nNodes, UINT32_MAX);
    std::vector<std::vector<uint32_t>> blocks;
    std::vector<uint32_t> topLayer;
    for (uint32_t id = 0; id < topo.nNodes; ++id)
    {
        bool isTop = top >= 2 && dist[id] == top;
        if (isTop)
        {
            topLayer.push_back(id);
            continue;
        }
        if (block[id] != UINT32_MAX)
        {
            continue;
        }
        uint32_t b = static_cast<uint32_t>(blocks.size());
        blocks.emplace_back();
        std::queue<uint32_t> q;
        q.push(id);
        block[id] = b;
        while (!q.empty())
        {
            uint32_t u = q.front();
            q.pop();
            blocks[b].push_back(u);
            for (uint32_t v : adj[u])
            {
                if (block[v] == UINT32_MAX && !(top >= 2 && dist[v] == top))
                {
                    block[v] = b;
                    q.push(v);
                }
            }
        }
    }
    if (blocks.size() >= ranks)
    {
        if (nodeLoad.empty() || !DealByLoad(blocks, ranks, nodeLoad, rankOf))
        {
            uint64_t total = 0;
            for (const auto& b : blocks)
            {
                total += b.size();
            }
            DealContiguous(blocks, ranks, total, rankOf);
        }
        for (size_t i = 0; i < topLayer.size(); ++i)
        {
            rankOf[topLayer[i]] = static_cast<uint32_t>(i % ranks);
        }
        return rankOf;
    }
    // Too few blocks: switches in breadth-first order from the lowest id,
    // each with its hosts, cut into ranks contiguous chunks.
    std::vector<std::vector<uint32_t>> groups;
    std::vector<bool> seen(topo.nNodes, false);
    for (uint32_t start = 0; start < topo.nNodes; ++start)
    {
        if (!topo.isSwitch[start] || seen[start])
        {
            continue;
        }
        std::queue<uint32_t> q;
        q.push(start);
        seen[start] = true;
        while (!q.empty())
        {
            uint32_t u = q.front();
            q.pop();
            std::vector<uint32_t> g{u};
            for (uint32_t v : adj[u])
            {
                if (!topo.isSwitch[v])
                {
                    g.push_back(v); // a host goes with its (only) switch
                }
                else if (!seen[v])
                {
                    seen[v] = true;
                    q.push(v);
                }
            }
            groups.push_back(g);
        }
    }
    DealContiguous(groups, ranks, topo.nNodes, rankOf);
    return rankOf;
}

std::vector<uint32_t>
ReadPartitionFile(const std::string& path, const TopologySpec& topo, uint32_t ranks)
{
    std::ifstream in(path);
    if (!in)
    {
        throw FileIoError(path, "cannot be read");
    }
    std::vector<uint32_t> rankOf(topo.nNodes, UINT32_MAX);
    std::vector<uint32_t> lineOf(topo.nNodes, 0);
    std::string text;
    uint32_t line = 0;
    auto number = [&](const std::string& word, const char* field, uint64_t max) {
        errno = 0;
        char* end = nullptr;
        unsigned long long v = std::strtoull(word.c_str(), &end, 10);
        if (word.empty() || word[0] < '0' || word[0] > '9' || *end != '\0' || errno != 0 ||
            v > max)
        {
            throw FileFormatError(path, line, field,
                                  "\"" + word + "\" is not a whole number in [0, " +
                                      std::to_string(max) + "]");
        }
        return static_cast<uint32_t>(v);
    };
    while (std::getline(in, text))
    {
        ++line;
        std::string::size_type hash = text.find('#');
        std::istringstream words(text.substr(0, hash));
        std::vector<std::string> w;
        for (std::string x; words >> x;)
        {
            w.push_back(x);
        }
        if (w.empty())
        {
            continue;
        }
        if (w.size() != 2)
        {
            throw FileFormatError(path, line, "",
                                  "expected \"node rank\", found " + std::to_string(w.size()) +
                                      " field(s)");
        }
        uint32_t node = number(w[0], "node", topo.nNodes - 1);
        uint32_t rank = number(w[1], "rank", ranks - 1);
        if (rankOf[node] != UINT32_MAX)
        {
            throw FileFormatError(path, line, "node",
                                  "node " + std::to_string(node) + " is already on line " +
                                      std::to_string(lineOf[node]));
        }
        rankOf[node] = rank;
        lineOf[node] = line;
    }
    if (in.bad())
    {
        throw FileIoError(path, "read error");
    }
    for (uint32_t id = 0; id < topo.nNodes; ++id)
    {
        if (rankOf[id] == UINT32_MAX)
        {
            throw FileFormatError(path, line, "node",
                                  "node " + std::to_string(id) + " of the topology has no rank "
                                  "(every node 0.." + std::to_string(topo.nNodes - 1) +
                                  " needs one line)");
        }
    }
    return rankOf;
}

uint64_t
PartitionLookaheadNs(const TopologySpec& topo, const std::vector<uint32_t>& rankOf)
{
    uint64_t la = UINT64_MAX;
    for (size_t i = 0; i < topo.links.size(); ++i)
    {
        const TopologyLinkSpec& l = topo.links[i];
        if (rankOf[l.a] == rankOf[l.b])
        {
            continue;
        }
        if (l.delayNs == 0)
        {
            throw std::invalid_argument(
                "link " + std::to_string(i) + " (node " + std::to_string(l.a) + " - node " +
                std::to_string(l.b) + (l.line ? ", topology line " + std::to_string(l.line) : "") +
                ") joins rank " + std::to_string(rankOf[l.a]) + " and rank " +
                std::to_string(rankOf[l.b]) +
                " with a delay of 0 ns: a link between ranks needs a delay > 0 (it is the "
                "lookahead); put both ends on one rank (--partition)");
        }
        la = std::min(la, l.delayNs);
    }
    return la;
}

std::vector<uint32_t>
PartitionSizes(const std::vector<uint32_t>& rankOf, uint32_t ranks)
{
    std::vector<uint32_t> n(ranks, 0);
    for (uint32_t r : rankOf)
    {
        if (r < ranks)
        {
            n[r]++;
        }
    }
    return n;
}

} // namespace ns3
