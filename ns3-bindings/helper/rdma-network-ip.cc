// SPDX-License-Identifier: GPL-2.0-only
//
// IPv4 beside RDMA: RdmaNetwork::InstallInternetStack and the NIC's DSCP
// marker, in their own library (libns3-libcc-ip.so) because they need ns-3's
// internet and traffic-control modules, which RDMA-only programs then do not
// load (their start-up binds no symbol of them; docs/performance.md).

#include "rdma-network.h"

#include <ns3/internet-stack-helper.h>
#include <ns3/ipv4-header.h>
#include <ns3/ipv4.h>
#include <ns3/traffic-control-helper.h>

#include <stdexcept>

namespace ns3
{

namespace
{

/// RdmaNic's marker: prio into the DSCP class selector of an IPv4 packet.
void
MarkIpv4Priority(Packet& packet, uint8_t prio)
{
    Ipv4Header ip;
    if (packet.PeekHeader(ip) >= 20 && (ip.GetTos() >> 5) != prio)
    {
        packet.RemoveHeader(ip);
        ip.SetTos(static_cast<uint8_t>((prio << 5) | (ip.GetTos() & 0x1F)));
        if (Node::ChecksumEnabled())
        {
            ip.EnableChecksum();
        }
        packet.AddHeader(ip);
    }
}

/// Loading the library installs the marker: a program that sets up its
/// hosts' stack itself (InternetStackHelper) gets it too.
struct InstallMarker
{
    InstallMarker()
    {
        RdmaNic::SetIpPriorityMarker(&MarkIpv4Priority);
    }
} g_installMarker;

} // namespace

Ipv4InterfaceContainer
RdmaNetwork::InstallInternetStack()
{
    if (m_nodes.empty())
    {
        throw std::logic_error("InstallInternetStack: call Build first");
    }
    RdmaNic::SetIpPriorityMarker(&MarkIpv4Priority);
    InternetStackHelper stack;
    stack.SetIpv6StackInstall(false); // IPv4 only: the switches route IPv4
    // Every host address is 11.x.y.1 (RdmaNodeIp): one /8 holds them all.
    const Ipv4Mask fabricMask("255.0.0.0");
    TrafficControlHelper tc = TrafficControlHelper::Default();
    Ipv4InterfaceContainer ifs;
    for (uint32_t id = 0; id < m_nodes.size(); id++)
    {
        if (m_topo.isSwitch[id])
        {
            continue;
        }
        Ptr<Node> node = m_nodes[id];
        if (node->GetObject<Ipv4>())
        {
            throw std::logic_error("InstallInternetStack: host " + std::to_string(id) +
                                   " already has an IPv4 stack");
        }
        stack.Install(node);
        Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
        Ptr<QbbNetDevice> dev = m_adj[id][0].dev;
        // What Ipv4AddressHelper::Assign does, with the fabric's address.
        int32_t ifc = ipv4->AddInterface(dev);
        ipv4->AddAddress(ifc, Ipv4InterfaceAddress(GetHostAddress(id), fabricMask));
        ipv4->SetMetric(ifc, 1);
        ipv4->SetUp(ifc);
        tc.Install(dev);
        ifs.Add(ipv4, ifc);
    }
    return ifs;
}

} // namespace ns3
