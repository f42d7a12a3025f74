// SPDX-License-Identifier: GPL-2.0-only
//
// IPv4 traffic of ns-3's own stack (InternetStackHelper, TCP and UDP
// applications) over the RoCEv2 fabric beside RDMA flows: every TCP byte
// arrives, RDMA flows finish, PFC holds the IP priority when it is lossless
// and TCP recovers when it is lossy, UDP crosses an ECMP fat-tree, and
// ns-3's global routing runs over switches that are not IP nodes. Expected
// values are counts derived by hand (bytes sent = bytes received); no time
// is asserted.

#include "rdma-network.h"

#include <ns3/boolean.h>
#include <ns3/bulk-send-helper.h>
#include <ns3/config.h>
#include <ns3/inet-socket-address.h>
#include <ns3/ipv4-global-routing-helper.h>
#include <ns3/ipv4.h>
#include <ns3/packet-sink-helper.h>
#include <ns3/packet-sink.h>
#include <ns3/simulator.h>
#include <ns3/tcp-socket-base.h>
#include <ns3/tcp-socket.h>
#include <ns3/udp-echo-client.h>
#include <ns3/udp-echo-helper.h>
#include <ns3/uinteger.h>

#include <gtest/gtest.h>

#include <array>
#include <vector>

using namespace ns3;

namespace
{

const uint64_t G100 = 100000000000ull;
const uint16_t PORT = 5000;
const uint64_t TCP_BYTES = 2000000;
const uint8_t IP_PRIO = 1;
const uint8_t RDMA_PRIO = 3;

// TCP as a data centre runs it: full-MTU segments (1500 = IPv4 20 + TCP 20
// + 1460), a retransmission timeout in ms, not ns-3's 1 s, and no
// timestamps (ns-3's count ms: at us RTTs a loss is then recovered one
// segment per RTO).
void
DatacenterTcp()
{
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1460));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(1)));
    Config::SetDefault("ns3::TcpSocketBase::ClockGranularity", TimeValue(MicroSeconds(1)));
}

struct DropsByPrio
{
    std::array<uint64_t, 8> n{};
    static void On(DropsByPrio* d, Ptr<const Packet>, uint32_t, uint32_t, uint8_t prio)
    {
        d->n[prio & 7]++;
    }
};

struct FlowDone
{
    std::vector<RdmaFlowRecord> recs;
    static void On(FlowDone* d, const RdmaFlowRecord& r)
    {
        d->recs.push_back(r);
    }
};

void
HookSwitches(RdmaNetwork& net, DropsByPrio* dr)
{
    for (uint32_t id = 0; id < net.GetNNodes(); id++)
    {
        if (net.IsSwitch(id))
        {
            net.GetSwitch(id)->TraceConnectWithoutContext("Drop",
                                                          MakeBoundCallback(&DropsByPrio::On, dr));
        }
    }
}

Ptr<PacketSink>
TcpSink(RdmaNetwork& net, uint32_t host)
{
    PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), PORT));
    ApplicationContainer a = sink.Install(net.GetNode(host));
    a.Start(Seconds(0));
    return DynamicCast<PacketSink>(a.Get(0));
}

void
TcpBulk(RdmaNetwork& net, uint32_t src, uint32_t dst, uint64_t bytes)
{
    BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(net.GetHostAddress(dst), PORT));
    bulk.SetAttribute("MaxBytes", UintegerValue(bytes));
    bulk.SetAttribute("SendSize", UintegerValue(1460));
    bulk.Install(net.GetNode(src)).Start(Seconds(0));
}

/**
 * Dumbbell, 2 senders, one switch (node 3), receiver 2, 100 Gbps, 1 us:
 * host 0 sends an RDMA flow (priority 3) and a TCP flow, host 1 a TCP flow,
 * all to host 2, so the switch's port to host 2 is the bottleneck of both
 * classes and host 0's NIC schedules IP beside a queue pair.
 */
struct SharedBottleneck
{
    RdmaNetwork net;
    DropsByPrio drops;
    FlowDone done;
    Ptr<PacketSink> sink;

    SharedBottleneck(bool ipLossless, uint64_t pfcThreshold, uint64_t lossyLimit)
    {
        DatacenterTcp();
        net.SetCongestionControl("dcqcn");
        net.SetNicAttribute("IpPriority", UintegerValue(IP_PRIO));
        net.SetSwitchAttribute("PfcStaticThreshold", UintegerValue(pfcThreshold));
        net.SetSwitchAttribute("LossyQueueLimit", UintegerValue(lossyLimit));
        net.SetSwitchAttribute("LosslessPriorities",
                               UintegerValue(ipLossless ? 0xFF : 0xFF & ~(1u << IP_PRIO)));
        net.Build(MakeDumbbellTopology(2, 1, G100, 1000));
        net.InstallInternetStack();
        HookSwitches(net, &drops);
        net.GetNic(0)->TraceConnectWithoutContext("FlowComplete",
                                                  MakeBoundCallback(&FlowDone::On, &done));
        sink = TcpSink(net, 2);
        TcpBulk(net, 0, 2, TCP_BYTES);
        TcpBulk(net, 1, 2, TCP_BYTES);
        net.AddFlow(FlowSpec{0, 2, RDMA_PRIO, 100, 1000000, 0, 0}, 0);
    }

    uint64_t IpPausesReceived() const
    {
        return net.GetNic(0)->GetDevice()->GetPausesReceived(IP_PRIO) +
               net.GetNic(1)->GetDevice()->GetPausesReceived(IP_PRIO);
    }
};

} // namespace

TEST(IpTraffic, TcpBulkAndRdmaShareABottleneckAndBothFinish)
{
    DatacenterTcp();
    RdmaNetwork net;
    net.SetCongestionControl("dcqcn");
    net.Build(MakeDumbbellTopology(2, 1, G100, 1000));
    Ipv4InterfaceContainer ifs = net.InstallInternetStack();
    ASSERT_EQ(ifs.GetN(), 3u); // the three hosts, no switch
    EXPECT_EQ(ifs.GetAddress(2), net.GetHostAddress(2));
    EXPECT_EQ(net.GetSwitch(3)->GetObject<Ipv4>(), nullptr);
    DropsByPrio drops;
    HookSwitches(net, &drops);
    FlowDone done;
    net.GetNic(0)->TraceConnectWithoutContext("FlowComplete",
                                              MakeBoundCallback(&FlowDone::On, &done));
    // Host 1: 2 MB over TCP to host 2; host 0: 1 MB of RDMA to host 2.
    Ptr<PacketSink> sink = TcpSink(net, 2);
    TcpBulk(net, 1, 2, TCP_BYTES);
    net.AddFlow(FlowSpec{0, 2, RDMA_PRIO, 100, 1000000, 0, 0}, 0);
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    EXPECT_EQ(sink->GetTotalRx(), TCP_BYTES);
    ASSERT_EQ(done.recs.size(), 1u);
    EXPECT_EQ(done.recs[0].flow.sizeBytes, 1000000u);
    EXPECT_GT(done.recs[0].fctNs, 0u);
    // Both went through the fabric: the NICs counted IP packets both ways
    // (TCP data out of host 1, its ACKs into host 1), none refused.
    EXPECT_GT(net.GetNic(1)->GetCounters().ipSent, 0u);
    EXPECT_GT(net.GetNic(1)->GetCounters().ipRcvd, 0u);
    EXPECT_GT(net.GetNic(2)->GetCounters().ipRcvd, 0u);
    EXPECT_EQ(net.GetNic(2)->GetCounters().badPackets, 0u);
    // Lossless everywhere by default, with room to spare: nothing dropped.
    for (uint32_t p = 0; p < 8; p++)
    {
        EXPECT_EQ(drops.n[p], 0u) << "priority " << p;
    }
    Simulator::Destroy();
}

TEST(IpTraffic, LosslessIpPriorityIsPausedAndNeverDropped)
{
    // Two TCP senders and an RDMA flow into one port, a 10 KB PFC threshold:
    // the switch must pause the IP priority of both ingress ports.
    SharedBottleneck s(true, 10000, 256 * 1024);
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    EXPECT_GT(s.IpPausesReceived(), 0u);
    for (uint32_t p = 0; p < 8; p++)
    {
        EXPECT_EQ(s.drops.n[p], 0u) << "priority " << p;
    }
    EXPECT_EQ(s.sink->GetTotalRx(), 2 * TCP_BYTES);
    ASSERT_EQ(s.done.recs.size(), 1u);
    EXPECT_EQ(s.done.recs[0].retransmittedBytes, 0u);
    Simulator::Destroy();
}

TEST(IpTraffic, LossyIpPriorityDropsAndTcpStillDeliversEveryByte)
{
    // The IP priority lossy with a 4 KB limit (fewer than 3 full frames):
    // two TCP senders into one port must overflow it. TCP retransmits; the
    // RDMA priority stays lossless and loses nothing.
    SharedBottleneck s(false, 10000, 4000);
    Simulator::Stop(Seconds(3)); // ns-3's TCP may recover a segment per RTO (docs)
    Simulator::Run();
    EXPECT_GT(s.drops.n[IP_PRIO], 0u);
    EXPECT_EQ(s.drops.n[RDMA_PRIO], 0u);
    EXPECT_EQ(s.IpPausesReceived(), 0u); // a lossy priority is never paused
    EXPECT_EQ(s.sink->GetTotalRx(), 2 * TCP_BYTES);
    ASSERT_EQ(s.done.recs.size(), 1u);
    EXPECT_EQ(s.done.recs[0].retransmittedBytes, 0u);
    Simulator::Destroy();
}

namespace
{
struct Count
{
    uint64_t n = 0;
    static void On(Count* c, Ptr<const Packet>)
    {
        c->n++;
    }
};
} // namespace

TEST(IpTraffic, UdpEchoCrossesAnEcmpFatTreeWithGlobalRouting)
{
    // k = 4 fat-tree: hosts 0..15, edge 16..23, aggregation 24..31, core
    // 32..35. Host 0 (pod 0) to host 15 (pod 3): edge, aggregation, core,
    // aggregation, edge: 5 switches, 4 equal-cost paths.
    RdmaNetwork net;
    net.Build(MakeFatTreeTopology(4, G100, 1000));
    net.InstallInternetStack();
    // Switches are no IP nodes: global routing must neither abort nor take
    // away the hosts' on-link route to each other.
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    UdpEchoServerHelper server(9);
    server.Install(net.GetNode(15)).Start(Seconds(0));
    UdpEchoClientHelper client(net.GetHostAddress(15), 9);
    const uint32_t N = 20;
    client.SetAttribute("MaxPackets", UintegerValue(N));
    client.SetAttribute("Interval", TimeValue(MicroSeconds(10)));
    client.SetAttribute("PacketSize", UintegerValue(1000));
    ApplicationContainer c = client.Install(net.GetNode(0));
    c.Start(Seconds(0));
    Count tx;
    Count rx;
    c.Get(0)->TraceConnectWithoutContext("Tx", MakeBoundCallback(&Count::On, &tx));
    c.Get(0)->TraceConnectWithoutContext("Rx", MakeBoundCallback(&Count::On, &rx));
    Simulator::Stop(MilliSeconds(10));
    Simulator::Run();
    EXPECT_EQ(tx.n, N);
    EXPECT_EQ(rx.n, N); // every request echoed back
    // Every request left host 0's edge switch (16) upwards, on one of its
    // two uplinks to the aggregation switches: 20 frames in all.
    Ptr<SwitchNode> edge = net.GetSwitch(16);
    uint64_t up = 0;
    for (uint32_t agg : {24u, 25u})
    {
        up += edge->GetDequeuedFrames(net.GetLinkDevice(16, agg)->GetIfIndex());
    }
    EXPECT_EQ(up, N);
    EXPECT_EQ(net.GetNic(15)->GetCounters().ipRcvd, N);
    uint64_t noRoute = 0;
    for (uint32_t id = 16; id < 36; id++)
    {
        noRoute += net.GetSwitch(id)->GetNoRouteDrops();
    }
    EXPECT_EQ(noRoute, 0u);
    Simulator::Destroy();
}

TEST(IpTraffic, DeviceRefusesWhatItCannotCarry)
{
    RdmaNetwork net;
    net.Build(MakeDumbbellTopology(1, 1, G100, 1000));
    Ptr<QbbNetDevice> host = net.GetNic(0)->GetDevice();
    Ptr<QbbNetDevice> sw = net.GetLinkDevice(2, 0);
    Count drops;
    host->TraceConnectWithoutContext("MacTxDrop", MakeBoundCallback(&Count::On, &drops));
    // IPv6 and ARP are not carried; nor is a packet above the MTU; a switch
    // port has no stack traffic of its own.
    EXPECT_FALSE(host->Send(Create<Packet>(100), host->GetBroadcast(), 0x86DD));
    EXPECT_FALSE(host->Send(Create<Packet>(100), host->GetBroadcast(), 0x0806));
    EXPECT_FALSE(host->Send(Create<Packet>(1501), host->GetBroadcast(), 0x0800));
    EXPECT_FALSE(sw->Send(Create<Packet>(100), sw->GetBroadcast(), 0x0800));
    EXPECT_EQ(drops.n, 3u);
    EXPECT_FALSE(host->IsPointToPoint());
    EXPECT_TRUE(host->IsBroadcast());
    // The NIC's queue takes IpQueueSize packets (100 by default), then refuses.
    net.GetNic(0)->SetAttribute("IpQueueSize", QueueSizeValue(QueueSize("2p")));
    EXPECT_TRUE(host->Send(Create<Packet>(100), host->GetBroadcast(), 0x0800));
    EXPECT_TRUE(host->Send(Create<Packet>(100), host->GetBroadcast(), 0x0800));
    EXPECT_TRUE(host->Send(Create<Packet>(100), host->GetBroadcast(), 0x0800));
    EXPECT_FALSE(host->Send(Create<Packet>(100), host->GetBroadcast(), 0x0800));
    Simulator::Destroy();
}
