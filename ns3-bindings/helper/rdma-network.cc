// SPDX-License-Identifier: GPL-2.0-only

#include "rdma-network.h"

#include "qbb-channel.h"
#include "qbb-helper.h"

#include <ns3/boolean.h>
#include <ns3/data-rate.h>
#include <ns3/nstime.h>
#include <ns3/simulator.h>

#include <algorithm>
#include <deque>
#include <memory>
#include <ns3/log.h>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaNetwork");

RdmaNetwork::RdmaNetwork()
    : m_firstNodeId(0)
{
    NS_LOG_FUNCTION(this);
    m_switchFactory.SetTypeId(SwitchNode::GetTypeId());
    m_nicFactory.SetTypeId(RdmaNic::GetTypeId());
    m_deadlockFactory.SetTypeId(PfcDeadlockDetector::GetTypeId());
}

void
RdmaNetwork::SetCongestionControl(const std::string& algorithm, const std::string& params)
{
    NS_LOG_FUNCTION(this << algorithm << params);
    m_cc = LibccConfig::Create(algorithm, params);
}

void
RdmaNetwork::SetCongestionControl(Ptr<LibccConfig> cfg, const std::string& params)
{
    std::string err;
    if ((!params.empty() && !cfg->Parse(params, &err)) || !cfg->Validate(&err))
    {
        throw std::invalid_argument(err);
    }
    m_cc = cfg;
}

namespace
{
/// A copy of from with assignments applied and validated; the caller frees
/// it. Throws std::invalid_argument naming `what`, the text and libcc's complaint.
libcc_params*
CopyWithAssignments(const libcc_params* from, const std::string& assignments,
                    const std::string& what)
{
    libcc_params* p = nullptr;
    if (libcc_params_copy(&p, from) != LIBCC_OK)
    {
        throw std::invalid_argument("out of memory copying the congestion control parameters");
    }
    if (libcc_params_parse(p, assignments.c_str()) != LIBCC_OK ||
        libcc_params_validate(p) != LIBCC_OK)
    {
        std::string msg = libcc_params_error(p);
        libcc_params_del(p);
        throw std::invalid_argument(what + " (" + assignments + "): " + msg);
    }
    return p;
}
/// libcc makes a flow's Reaction Point only inside the ranges of
/// libcc_flow_params (a base RTT of at most 1 s, ...): a path outside them
/// is refused here, naming the flow with libcc's reason (the attribute, its
/// value and range), instead of an exception from the RP when the flow
/// starts. Throws std::invalid_argument. lineRateBps 0: not known here (a
/// NIC without its device yet), left to the RP.
void
CheckFlowRanges(uint32_t flowId, uint64_t lineRateBps, uint64_t baseRttNs, uint32_t mtuBytes)
{
    libcc_flow_info fi{};
    fi.flow_id = flowId;
    fi.line_rate_bps = lineRateBps;
    fi.base_rtt_ns = baseRttNs;
    fi.mtu_bytes = mtuBytes;
    char why[160];
    if (libcc_flow_check(&fi, why, sizeof why) == LIBCC_ERR_OUT_OF_RANGE)
    {
        throw std::invalid_argument("flow " + std::to_string(flowId) + ": its " + why +
                                    " (libcc_flow_params)");
    }
}

} // namespace

void
RdmaNetwork::SetCongestionControlForRate(uint64_t rateBps, const std::string& assignments)
{
    if (assignments.empty())
    {
        m_rateCc.erase(rateBps);
        return;
    }
    m_rateCc[rateBps] = assignments;
    libcc_params_del(MakeRateParams(rateBps)); // check now: throws if libcc refuses
}

libcc_params*
RdmaNetwork::MakeRateParams(uint64_t rateBps) const
{
    auto it = m_rateCc.find(rateBps);
    if (it == m_rateCc.end())
    {
        return nullptr;
    }
    Ptr<LibccConfig> base = m_cc ? m_cc : LibccConfig::Create("none");
    return CopyWithAssignments(base->GetParams(), it->second,
                               "ports of " + std::to_string(rateBps) + " bps");
}

void
RdmaNetwork::AddSwitchCongestionControl(const std::string& assignments)
{
    NS_ASSERT_MSG(!m_nodes.empty(), "AddSwitchCongestionControl before Build");
    using Params = std::unique_ptr<libcc_params, void (*)(libcc_params*)>;
    auto withAssignments = [&](const libcc_params* from) {
        return Params(CopyWithAssignments(from, assignments, "switch ports"), libcc_params_del);
    };
    Params base = withAssignments(m_cc->GetParams());
    std::map<uint64_t, Params> rates;
    for (const auto& r : m_rateCc)
    {
        Params rate(MakeRateParams(r.first), libcc_params_del);
        rates.emplace(r.first, withAssignments(rate.get()));
    }
    for (uint32_t id = 0; id < m_topo.nNodes; id++)
    {
        if (!m_topo.isSwitch[id])
        {
            continue;
        }
        Ptr<SwitchNode> sw = GetSwitch(id);
        sw->SetCongestionControl(base.get());
        for (const auto& r : rates)
        {
            sw->SetCongestionControlForRate(r.first, r.second.get());
        }
        std::string err;
        if (!sw->CheckCongestionControl(err))
        {
            throw std::invalid_argument(err);
        }
    }
}

void
RdmaNetwork::SetSwitchAttribute(const std::string& name, const AttributeValue& v)
{
    m_switchFactory.Set(name, v);
    m_switchAttrs.emplace_back(name, v.Copy());
}

void
RdmaNetwork::SetNicAttribute(const std::string& name, const AttributeValue& v)
{
    m_nicFactory.Set(name, v);
}

void
RdmaNetwork::SetDeadlockDetectorAttribute(const std::string& name, const AttributeValue& v)
{
    m_deadlockFactory.Set(name, v);
}

void
RdmaNetwork::SetDeadlockOptions(const PfcDeadlockOptions& o)
{
    SetDeadlockDetectorAttribute("StallTime", TimeValue(o.stall));
    SetDeadlockDetectorAttribute("CheckInterval", TimeValue(o.stall / 5));
    SetDeadlockDetectorAttribute("StopOnDeadlock", BooleanValue(!o.keepRunning));
}

void
RdmaNetwork::Build(const TopologySpec& topo)
{
    NS_LOG_FUNCTION(this << topo.file << topo.nNodes << topo.links.size());
    if (!m_cc)
    {
        m_cc = LibccConfig::Create("none");
    }
    m_topo = topo;
    uint32_t n = topo.nNodes;
    m_nodes.resize(n);
    m_adj.assign(n, {});
    m_nextSport.clear();
    if (!m_rankOf.empty() && m_rankOf.size() != n)
    {
        throw std::invalid_argument("partition: " + std::to_string(m_rankOf.size()) +
                                    " ranks given for a topology of " + std::to_string(n) +
                                    " nodes");
    }
    for (uint32_t id = 0; id < n; id++)
    {
        uint32_t rank = GetRank(id);
        if (topo.isSwitch[id] && rank == 0)
        {
            m_nodes[id] = m_switchFactory.Create<SwitchNode>();
        }
        else if (topo.isSwitch[id])
        {
            // ns-3 fixes a node's system id in its constructor, which an
            // ObjectFactory cannot pass: the factory's attributes follow.
            Ptr<SwitchNode> sw = CreateObject<SwitchNode>(rank);
            for (const auto& a : m_switchAttrs)
            {
                sw->SetAttribute(a.first, *a.second);
            }
            m_nodes[id] = sw;
        }
        else
        {
            m_nodes[id] = CreateObject<Node>(rank);
        }
        if (id == 0)
        {
            m_firstNodeId = m_nodes[0]->GetId();
        }
    }
    // Switches use a copy of the hosts' own parameter values.
    for (uint32_t id = 0; id < n; id++)
    {
        if (topo.isSwitch[id])
        {
            GetSwitch(id)->SetCongestionControl(m_cc->GetParams());
        }
    }
    for (const auto& r : m_rateCc)
    {
        libcc_params* p = MakeRateParams(r.first);
        for (uint32_t id = 0; id < n; id++)
        {
            if (topo.isSwitch[id])
            {
                GetSwitch(id)->SetCongestionControlForRate(r.first, p);
            }
        }
        libcc_params_del(p);
    }
    for (uint32_t li = 0; li < topo.links.size(); li++)
    {
        const TopologyLinkSpec& l = topo.links[li];
        QbbHelper qbb;
        qbb.SetDeviceAttribute("DataRate", DataRateValue(DataRate(l.rateBps)));
        qbb.SetChannelAttribute("Delay", TimeValue(NanoSeconds(l.delayNs)));
        NetDeviceContainer d = qbb.Install(m_nodes[l.a], m_nodes[l.b]);
        Ptr<QbbNetDevice> da = DynamicCast<QbbNetDevice>(d.Get(0));
        Ptr<QbbNetDevice> db = DynamicCast<QbbNetDevice>(d.Get(1));
        if (l.errorRate > 0)
        {
            // Both ends lose that share of what they receive; each end draws
            // from its own stream, numbered by link order, so a run is
            // reproduced by RngSeed/RngRun and no other stream shifts.
            da->SetReceiveErrorRate(l.errorRate);
            db->SetReceiveErrorRate(l.errorRate);
            da->AssignStreams(LOSS_STREAM_BASE + 2 * int64_t(li));
            db->AssignStreams(LOSS_STREAM_BASE + 2 * int64_t(li) + 1);
        }
        if (GetRank(l.a) != GetRank(l.b))
        {
            // Ports 2 li and 2 li + 1: the same on every rank.
            Ptr<QbbChannel> ch = DynamicCast<QbbChannel>(da->GetChannel());
            if (!ch || !ch->EnableRemote(2 * li))
            {
                throw std::invalid_argument("link " + std::to_string(li) + " (node " +
                                            std::to_string(l.a) + " - node " + std::to_string(l.b) +
                                            ") joins two ranks with a delay of 0 ns: a link "
                                            "between ranks needs a delay > 0");
            }
        }
        m_devices.push_back(da);
        m_devices.push_back(db);
        m_adj[l.a].push_back(Adj{l.b, da, li});
        m_adj[l.b].push_back(Adj{l.a, db, li});
    }
    // Refuse now, not at the first packet, a switch whose buffer is all
    // headroom or a port libcc cannot serve (a link rate the algorithm's INT
    // format cannot carry).
    for (uint32_t id = 0; id < n; id++)
    {
        std::string err;
        if (topo.isSwitch[id] &&
            (!GetSwitch(id)->CheckBuffer(err) || !GetSwitch(id)->CheckCongestionControl(err)))
        {
            // err names the ns-3 node; say the topology's id when they differ.
            bool same = GetSwitch(id)->GetId() == id;
            throw std::invalid_argument(same ? err
                                             : "topology node " + std::to_string(id) + ": " + err);
        }
    }
    for (uint32_t id = 0; id < n; id++)
    {
        if (topo.isSwitch[id])
        {
            continue;
        }
        if (m_adj[id].size() != 1)
        {
            throw std::invalid_argument("host " + std::to_string(id) +
                                        " must have exactly one link");
        }
        Ptr<RdmaNic> nic = m_nicFactory.Create<RdmaNic>();
        m_nodes[id]->AggregateObject(nic);
        nic->Setup(m_nodes[id], m_adj[id][0].dev, GetHostAddress(id));
        nic->SetCcConfig(m_cc);
    }
    BuildRoutes();
    // Every switch, on every rank in the same order: the detector reads
    // its own rank's and searches cycles through the others' with them.
    std::vector<Ptr<SwitchNode>> switches;
    for (uint32_t id = 0; id < n; id++)
    {
        if (topo.isSwitch[id])
        {
            switches.push_back(GetSwitch(id));
        }
    }
    m_deadlock = m_deadlockFactory.Create<PfcDeadlockDetector>();
    m_deadlock->Install(switches);
    // Rank-link ports 0 .. 2 links - 1 are the cut links' (above).
    m_deadlock->EnableRanks(2 * static_cast<uint32_t>(topo.links.size()));
}

void
RdmaNetwork::BuildRoutes()
{
    NS_LOG_FUNCTION(this);
    uint32_t n = m_topo.nNodes;
    m_hostIndex.assign(n, UINT32_MAX);
    m_dist.clear();
    for (uint32_t dst = 0; dst < n; dst++)
    {
        if (m_topo.isSwitch[dst])
        {
            continue;
        }
        m_hostIndex[dst] = m_dist.size();
        std::vector<uint16_t> dist(n, UINT16_MAX);
        std::deque<uint32_t> q;
        dist[dst] = 0;
        q.push_back(dst);
        while (!q.empty())
        {
            uint32_t u = q.front();
            q.pop_front();
            // Hosts do not forward: paths only cross switches.
            if (u != dst && !m_topo.isSwitch[u])
            {
                continue;
            }
            for (const Adj& a : m_adj[u])
            {
                if (dist[a.peer] == UINT16_MAX)
                {
                    dist[a.peer] = dist[u] + 1;
                    q.push_back(a.peer);
                }
            }
        }
        Ipv4Address addr = GetHostAddress(dst);
        for (uint32_t s = 0; s < n; s++)
        {
            if (!m_topo.isSwitch[s] || dist[s] == UINT16_MAX)
            {
                continue;
            }
            for (const Adj& a : m_adj[s])
            {
                if (dist[a.peer] + 1 == dist[s])
                {
                    GetSwitch(s)->AddRoute(addr, a.dev->GetIfIndex());
                }
            }
        }
        m_dist.push_back(std::move(dist));
    }
}

Ptr<SwitchNode>
RdmaNetwork::GetSwitch(uint32_t id) const
{
    return DynamicCast<SwitchNode>(m_nodes.at(id));
}

Ptr<RdmaNic>
RdmaNetwork::GetNic(uint32_t hostId) const
{
    return m_nodes.at(hostId)->GetObject<RdmaNic>();
}

uint32_t
RdmaNetwork::TopoId(Ptr<const Node> node) const
{
    uint32_t id = node->GetId() - m_firstNodeId;
    return id < m_nodes.size() && m_nodes[id] == node ? id : UINT32_MAX;
}

Ptr<QbbNetDevice>
RdmaNetwork::GetLinkDevice(uint32_t a, uint32_t b) const
{
    for (const Adj& x : m_adj.at(a))
    {
        if (x.peer == b)
        {
            return x.dev;
        }
    }
    return nullptr;
}

RdmaNetwork::PathInfo
RdmaNetwork::GetPath(uint32_t src, uint32_t dst) const
{
    PathInfo p;
    if (src >= m_hostIndex.size() || dst >= m_hostIndex.size() || m_hostIndex[dst] == UINT32_MAX)
    {
        throw std::invalid_argument("path: not a host");
    }
    const std::vector<uint16_t>& dist = m_dist[m_hostIndex[dst]];
    if (dist[src] == UINT16_MAX)
    {
        throw std::invalid_argument("no path from host " + std::to_string(src) + " to host " +
                                    std::to_string(dst));
    }
    Ptr<RdmaNic> nic = GetNic(src);
    uint64_t dataWire = nic->DataWireBytes();
    uint64_t ackWire = nic->GetAckWireBytes();
    p.bottleneckBps = UINT64_MAX;
    uint32_t u = src;
    p.nodes.push_back(u);
    long double rttNs = 0;
    while (u != dst)
    {
        const Adj* next = nullptr;
        for (const Adj& a : m_adj[u])
        {
            if (dist[a.peer] + 1 == dist[u] && (!next || a.peer < next->peer))
            {
                next = &a;
            }
        }
        const TopologyLinkSpec& l = m_topo.links[next->link];
        p.links++;
        p.propNs += l.delayNs;
        p.bottleneckBps = std::min(p.bottleneckBps, l.rateBps);
        rttNs += 2.0L * l.delayNs + (long double)(dataWire + ackWire) * 8e9L / l.rateBps;
        p.hpccBaseRttNs +=
            2 * l.delayNs + uint64_t(nic->GetPayloadSize()) * 8000000000ull / l.rateBps;
        u = next->peer;
        p.nodes.push_back(u);
    }
    p.baseRttNs = static_cast<uint64_t>(rttNs + 0.5L);
    return p;
}

uint64_t
RdmaNetwork::GetMaxHpccSimRtt() const
{
    if (m_maxHpccSimRtt != 0 || m_dist.empty())
    {
        return m_maxHpccSimRtt;
    }
    // Per destination, every node's hpccBaseRttNs along GetPath's choice of
    // next hop (the lowest-id neighbour one hop closer), nearest first:
    // O(hosts x (nodes + links)) instead of a GetPath per host pair.
    uint32_t n = m_topo.nNodes;
    uint64_t payloadBits = 0;
    for (uint32_t id = 0; id < n && payloadBits == 0; id++)
    {
        if (!m_topo.isSwitch[id])
        {
            payloadBits = uint64_t(GetNic(id)->GetPayloadSize()) * 8000000000ull;
        }
    }
    std::vector<uint32_t> order(n);
    std::vector<uint64_t> rtt(n);
    for (const std::vector<uint16_t>& dist : m_dist)
    {
        for (uint32_t i = 0; i < n; i++)
        {
            order[i] = i;
        }
        std::sort(order.begin(), order.end(),
                  [&](uint32_t x, uint32_t y) { return dist[x] < dist[y]; });
        for (uint32_t u : order)
        {
            if (dist[u] == UINT16_MAX)
            {
                break;
            }
            rtt[u] = 0;
            const Adj* next = nullptr;
            for (const Adj& a : m_adj[u])
            {
                if (dist[a.peer] + 1 == dist[u] && (!next || a.peer < next->peer))
                {
                    next = &a;
                }
            }
            if (next)
            {
                const TopologyLinkSpec& l = m_topo.links[next->link];
                rtt[u] = rtt[next->peer] + 2 * l.delayNs + payloadBits / l.rateBps;
                if (!m_topo.isSwitch[u])
                {
                    m_maxHpccSimRtt = std::max(m_maxHpccSimRtt, rtt[u]);
                }
            }
        }
    }
    return m_maxHpccSimRtt;
}

void
RdmaNetwork::SetPartition(const std::vector<uint32_t>& rankOf)
{
    m_rankOf = rankOf;
}

bool
RdmaNetwork::IsLocal(uint32_t id) const
{
    return GetRank(id) == Simulator::GetSystemId();
}

Ptr<RdmaTxQueuePair>
RdmaNetwork::AddFlow(const FlowSpec& f, uint32_t flowId)
{
    if (f.src >= m_nodes.size() || f.dst >= m_nodes.size() || m_topo.isSwitch[f.src] ||
        m_topo.isSwitch[f.dst] || f.src == f.dst)
    {
        throw std::invalid_argument("flow " + std::to_string(flowId) +
                                    ": src and dst must be two hosts of the topology");
    }
    if (f.stopNs != 0 && GetRank(f.src) != GetRank(f.dst))
    {
        // A leaving flow tells its receiver its final size at once (no
        // packet carries it), which cannot cross ranks within a lookahead.
        throw std::invalid_argument(
            "flow " + std::to_string(flowId) + ": it leaves early (stop " +
            std::to_string(f.stopNs) + " ns) and its hosts " + std::to_string(f.src) + " and " +
            std::to_string(f.dst) + " are on ranks " + std::to_string(GetRank(f.src)) + " and " +
            std::to_string(GetRank(f.dst)) + ": put them on one rank (--partition)");
    }
    PathInfo path;
    try
    {
        path = GetPath(f.src, f.dst);
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument("flow " + std::to_string(flowId) + ": " + e.what());
    }
    RdmaFlowParams p;
    p.flowId = flowId;
    p.srcNode = f.src;
    p.dstNode = f.dst;
    // The HPCC simulator's numbering: a counter per (source, destination)
    // pair from 10000 (third.cc's portNumder), so flows join by 5-tuple
    // with its fct file. Its uint16_t counter wraps to 0 after 65535 and
    // would reuse ports of the pair; here that is an error instead.
    uint32_t& next = m_nextSport.emplace(uint64_t(f.src) << 32 | f.dst, FIRST_SPORT).first->second;
    if (next > 65535)
    {
        throw std::invalid_argument(
            "flow " + std::to_string(flowId) + ": more than " +
            std::to_string(65536 - FIRST_SPORT) + " flows from host " + std::to_string(f.src) +
            " to host " + std::to_string(f.dst) + ": source ports " + std::to_string(FIRST_SPORT) +
            "..65535 of the pair are used up (the HPCC simulator would wrap to 0 and reuse them)");
    }
    p.sport = static_cast<uint16_t>(next++);
    p.dport = static_cast<uint16_t>(f.dport);
    p.prio = static_cast<uint8_t>(f.pg);
    p.sizeBytes = f.sizeBytes;
    p.startNs = f.startNs;
    p.stopNs = f.stopNs;
    p.baseRttNs = path.baseRttNs;
    p.ccBaseRttNs = m_globalBaseRtt ? GetMaxHpccSimRtt() : 0;
    p.bottleneckBps = path.bottleneckBps;
    Ptr<QbbNetDevice> srcDev = GetNic(f.src)->GetDevice();
    CheckFlowRanges(flowId, srcDev ? srcDev->GetDataRate().GetBitRate() : 0,
                    p.ccBaseRttNs ? p.ccBaseRttNs : p.baseRttNs, GetNic(f.src)->DataWireBytes());
    Ptr<RdmaTxQueuePair> qp = RdmaNic::Connect(GetNic(f.src), GetNic(f.dst), p);
    m_flows.push_back(qp);
    return qp;
}

void
RdmaNetwork::AddFlows(const std::vector<FlowSpec>& flows, const std::string& fileName)
{
    for (const FlowSpec& f : flows)
    {
        try
        {
            AddFlow(f, m_flows.size());
        }
        catch (const std::invalid_argument& e)
        {
            if (fileName.empty() || f.line == 0)
            {
                throw;
            }
            throw std::invalid_argument(fileName + ":" + std::to_string(f.line) + ": " + e.what());
        }
    }
}

Ipv4Address
RdmaNetwork::GetHostAddress(uint32_t hostId) const
{
    return Ipv4Address(RdmaNodeIp(hostId));
}

void
RdmaNetwork::EnablePcap(const std::string& prefix) const
{
    NS_LOG_FUNCTION(this << prefix);
    QbbHelper qbb;
    for (const auto& d : m_devices)
    {
        // Over ranks, each writes its own nodes' files: another rank's
        // device sees nothing here, and its empty file would replace the
        // one its own rank writes under the same name.
        if (d->GetNode()->GetSystemId() == Simulator::GetSystemId())
        {
            qbb.EnablePcap(prefix, d);
        }
    }
}

} // namespace ns3
