// SPDX-License-Identifier: GPL-2.0-only
//
// SwitchNode forwarding: symmetric ECMP (data and ACKs of a flow share the
// spine), control class ahead of data, packets without a route.
#include "test_qbb_util.h"

#include "ns3/ethernet-header.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <map>
#include <set>

using namespace ns3;
using namespace qbbtest;

namespace
{

class SwitchForwardingTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

struct SpineLog
{
    // flow's non-4791 port -> spine index, separately for data and ACKs
    std::map<uint16_t, int> data;
    std::map<uint16_t, int> ack;
    int collisions = 0; // a flow seen on two different spines in one direction
};

struct SpineProbe
{
    SpineLog* log;
    int spine;
};

void
OnSpineRx(SpineProbe* probe, Ptr<const Packet> frame)
{
    Ptr<Packet> p = frame->Copy();
    EthernetHeader eth(false);
    p->RemoveHeader(eth);
    RocePacketInfo info;
    if (!RoceParse(p, info))
    {
        return;
    }
    uint16_t flow = info.sport == ROCEV2_UDP_PORT ? info.dport : info.sport;
    auto& m = info.type == RocePktType::DATA ? probe->log->data : probe->log->ack;
    auto it = m.find(flow);
    if (it != m.end() && it->second != probe->spine)
    {
        probe->log->collisions++;
    }
    m[flow] = probe->spine;
}

} // namespace

TEST(SwitchHash, SymmetricHashIgnoresDirection)
{
    // The reversed tuple (dst, src, dport, sport) and the half-reversed one
    // an ACK uses (dst, src, sport, 4791) must hash like the data packet.
    uint32_t seeds[] = {0, 1, 0xdeadbeef};
    for (uint32_t seed : seeds)
    {
        for (uint32_t k = 0; k < 200; k++)
        {
            uint32_t s = 0x0A000000 + k * 7919;
            uint32_t d = 0x0A100000 + k * 104729;
            uint16_t sp = static_cast<uint16_t>(49152 + k * 13);
            uint32_t h = SwitchNode::SymmetricHash(s, d, sp, 4791, 17, seed);
            EXPECT_EQ(h, SwitchNode::SymmetricHash(d, s, 4791, sp, 17, seed));
            EXPECT_EQ(h, SwitchNode::SymmetricHash(d, s, sp, 4791, 17, seed));
        }
    }
    // Not a constant: different flows spread.
    std::set<uint32_t> seen;
    for (uint16_t sp = 1000; sp < 1016; sp++)
    {
        seen.insert(SwitchNode::SymmetricHash(1, 2, sp, 4791, 17, 0) % 4);
    }
    EXPECT_GE(seen.size(), 2u);
}

TEST_F(SwitchForwardingTest, DataAndAcksOfAFlowCrossTheSameSpine)
{
    // Leaf-spine: H1 - L1 - {S1..S4} - L2 - H2. L1 adds its uplinks in spine
    // order, L2 in reverse order: the switch sorts equal-cost ports by the
    // neighbour's node id, so both leaves index the same spine list.
    Ptr<Node> h1 = CreateObject<Node>();
    Ptr<Node> h2 = CreateObject<Node>();
    Ptr<SwitchNode> l1 = CreateObject<SwitchNode>();
    Ptr<SwitchNode> l2 = CreateObject<SwitchNode>();
    std::vector<Ptr<SwitchNode>> s;
    for (int i = 0; i < 4; i++)
    {
        s.push_back(CreateObject<SwitchNode>());
    }
    QbbHelper h;
    h.SetDeviceAttribute("DataRate", DataRateValue(DataRate("100Gbps")));
    h.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    TestHost host1, host2;
    host1.Attach(DynamicCast<QbbNetDevice>(h.Install(h1, l1).Get(0))); // L1 port 0
    host2.Attach(DynamicCast<QbbNetDevice>(h.Install(h2, l2).Get(0))); // L2 port 0
    for (int i = 0; i < 4; i++)
    {
        h.Install(l1, s[i]); // L1 port 1+i, S_i port 0
        h.Install(l2, s[i]); // L2 port 1+i, S_i port 1
    }
    Ipv4Address a1("10.0.0.1");
    Ipv4Address a2("10.0.0.2");
    l1->AddRoute(a1, 0);
    l2->AddRoute(a2, 0);
    for (int i = 0; i < 4; i++)
    {
        l1->AddRoute(a2, 1 + i);
        l2->AddRoute(a1, 4 - i);
        s[i]->AddRoute(a1, 0);
        s[i]->AddRoute(a2, 1);
    }
    SpineLog log;
    std::vector<SpineProbe> probes(4);
    for (int i = 0; i < 4; i++)
    {
        probes[i] = {&log, i};
        for (uint32_t port = 0; port < 2; port++)
        {
            s[i]->GetPort(port)->TraceConnectWithoutContext(
                "PhyRxEnd", MakeBoundCallback(&OnSpineRx, &probes[i]));
        }
    }
    // 16 flows H1 -> H2 (sport 1000..1015); H2 answers each with an ACK
    // (sport = the data's sport, dport 4791) and, for the odd flows, also a
    // fully reversed one (sport 4791, dport = the data's sport).
    for (uint16_t f = 0; f < 16; f++)
    {
        uint16_t sp = static_cast<uint16_t>(1000 + f);
        Simulator::Schedule(NanoSeconds(100 * f), &TestHost::Send, &host1,
                            MakeData("10.0.0.1", "10.0.0.2", sp, 1000), 3);
        RocePacketInfo ack;
        ack.type = RocePktType::ACK;
        ack.src = a2;
        ack.dst = a1;
        ack.sport = sp;
        ack.dport = ROCEV2_UDP_PORT;
        if (f % 2)
        {
            ack.sport = ROCEV2_UDP_PORT;
            ack.dport = sp;
        }
        Simulator::Schedule(NanoSeconds(100 * f + 50), &TestHost::Send, &host2, RoceBuild(ack), 3);
    }
    Simulator::Run();
    ASSERT_EQ(log.data.size(), 16u);
    ASSERT_EQ(log.ack.size(), 16u);
    EXPECT_EQ(log.collisions, 0);
    std::set<int> used;
    for (const auto& [flow, spine] : log.data)
    {
        EXPECT_EQ(log.ack[flow], spine) << "flow sport " << flow;
        used.insert(spine);
    }
    EXPECT_GE(used.size(), 2u) << "ECMP must spread 16 flows over more than one spine";
    EXPECT_EQ(host2.rx.size(), 16u);
    EXPECT_EQ(host1.rx.size(), 16u);
}

TEST_F(SwitchForwardingTest, ControlClassOvertakesQueuedData)
{
    // H0 (100G) -> SW -> H1 (10G). H0 sends five 1056-byte DATA packets then
    // one 58-byte ACK, back to back at t = 0.
    //   DATA: 1094 line bytes: 87.52 ns at 100G, 875.2 ns at 10G.
    //   ACK:  58 + 18 = 76-byte frame, 96 line bytes: 7.68 ns at 100G, 76.8 ns at 10G.
    // DATA 1 reaches SW at 1087.52 ns and leaves at once, done at 1962.72 ns.
    // The ACK reaches SW at 5 x 87.52 + 7.68 + 1000 = 1445.28 ns, behind
    // DATA 2..5, but the control class goes next: done at 2039.52 ns,
    // received at 3039.52 ns; DATA 2 then arrives 875.2 ns later.
    Star st({"100Gbps", "10Gbps"});
    for (int i = 0; i < 5; i++)
    {
        Simulator::Schedule(Time(0), &TestHost::Send, &st.H(0),
                            MakeData("10.0.0.1", "10.0.0.2", 1000, 1000), 3);
    }
    Simulator::Schedule(Time(0), &TestHost::Send, &st.H(0), MakeAck("10.0.0.1", "10.0.0.2", 1000),
                        3);
    Simulator::Run();
    auto& rx = st.H(1).rx;
    ASSERT_EQ(rx.size(), 6u);
    RocePacketInfo i0, i1, i2;
    ASSERT_TRUE(RoceParse(rx[0].packet, i0));
    ASSERT_TRUE(RoceParse(rx[1].packet, i1));
    ASSERT_TRUE(RoceParse(rx[2].packet, i2));
    EXPECT_EQ(i0.type, RocePktType::DATA);
    EXPECT_EQ(i1.type, RocePktType::ACK);
    EXPECT_EQ(i2.type, RocePktType::DATA);
    EXPECT_EQ(rx[0].t, Ps(1962720 + 1000000));
    EXPECT_EQ(rx[1].t, Ps(2039520 + 1000000));
    EXPECT_EQ(rx[2].t, Ps(2039520 + 875200 + 1000000));
    EXPECT_EQ(st.sw->GetDrops(), 0u);
}

TEST_F(SwitchForwardingTest, PortPeakQueueBytesAndItsReset)
{
    // H0 (100G) -> SW -> H1 (10G), four 1056-byte DATA packets back to back
    // at t = 0: 1074 frame bytes (14 + 1056 + 4) each, 87.52 ns of line at
    // 100G, 875.2 ns at 10G. They reach SW at 1087.52, 1175.04, 1262.56 and
    // 1350.08 ns; the first leaves at once, so SW's port 1 holds 1074, 2148,
    // then 3222 bytes, and frees 1074 at 1962.72, 2837.92 and 3713.12 ns.
    Star st({"100Gbps", "10Gbps"});
    for (int i = 0; i < 4; i++)
    {
        Simulator::Schedule(Time(0), &TestHost::Send, &st.H(0),
                            MakeData("10.0.0.1", "10.0.0.2", 1000 + i, 1000), 3);
    }
    uint64_t at1300 = 0, at1400 = 0;
    Simulator::Schedule(NanoSeconds(1300), [&]() { at1300 = st.sw->GetPortPeakQueueBytes(1); });
    Simulator::Schedule(NanoSeconds(1400), [&]() { at1400 = st.sw->GetPortPeakQueueBytes(1); });
    // A new window at 2 us starts from what the port holds then (2148),
    // not from 0: the peak of the window is at its start.
    Simulator::Schedule(NanoSeconds(2000), [&]() { st.sw->ResetPortPeakQueueBytes(1); });
    Simulator::Run();
    EXPECT_EQ(at1300, 2u * 1074);
    EXPECT_EQ(at1400, 3u * 1074);
    EXPECT_EQ(st.sw->GetPortPeakQueueBytes(1), 2u * 1074);
    EXPECT_EQ(st.sw->GetPortQueueBytes(1), 0u);
    EXPECT_EQ(st.sw->GetPortPeakQueueBytes(7), 0u); // no such port
    st.sw->ResetPortPeakQueueBytes(7);              // a no-op
    ASSERT_EQ(st.H(1).rx.size(), 4u);
}

TEST_F(SwitchForwardingTest, FrameLeavingAnEmptyPortAtOnceMovesTheRoundRobin)
{
    // H0 (100G) -> SW -> H1 (10G). H0 sends DATA at priority 3 at t = 0 (its
    // line is free: it leaves at once), then priorities 2 and 4 queue behind
    // it and H0 sends 4 before 2 (highest first). They reach SW at 1087.52
    // (3), 1175.04 (4) and 1262.56 ns (2); 3 finds the port empty and the
    // line free and leaves at once, so the round-robin's next priority is 4:
    // 4 leaves at 1962.72 ns, 2 at 2837.92 ns. Had the round-robin not
    // moved past 3, it would start from priority 0 and serve 2 before 4.
    Star st({"100Gbps", "10Gbps"});
    Simulator::Schedule(Time(0), &TestHost::Send, &st.H(0),
                        MakeData("10.0.0.1", "10.0.0.2", 1000, 1000, 3), 3);
    Simulator::Schedule(Time(0), &TestHost::Send, &st.H(0),
                        MakeData("10.0.0.1", "10.0.0.2", 1001, 1000, 2), 2);
    Simulator::Schedule(NanoSeconds(50), &TestHost::Send, &st.H(0),
                        MakeData("10.0.0.1", "10.0.0.2", 1002, 1000, 4), 4);
    Simulator::Run();
    auto& rx = st.H(1).rx;
    ASSERT_EQ(rx.size(), 3u);
    const uint8_t prios[3] = {3, 4, 2};
    const int64_t doneAtSw[3] = {1962720, 2837920, 3713120};
    for (size_t k = 0; k < 3; k++)
    {
        RocePacketInfo info;
        ASSERT_TRUE(RoceParse(rx[k].packet, info));
        EXPECT_EQ(info.prio, prios[k]) << "frame " << k;
        EXPECT_EQ(rx[k].t, Ps(doneAtSw[k] + 1000000)) << "frame " << k;
    }
    Ptr<SwitchPort> port = st.sw->GetSwitchPort(1);
    EXPECT_EQ(port->GetDequeuedFrames(), 3u);
    EXPECT_EQ(port->GetLastDequeueStep(), Ps(1962720 + 875200).GetTimeStep());
}

TEST_F(SwitchForwardingTest, FrameQueuesWhenATraceSinkTakesTheLineBeforeItLeaves)
{
    // H0 -> SW -> H1, both 100G. One 1056-byte DATA frame (1094 line bytes,
    // 87.52 ns) reaches SW at 1087.52 ns, finds port 1 empty and its line
    // free. A QueueBytes sink then sends a PAUSE out of that port (84 line
    // bytes, 6.72 ns): the frame must wait behind it, leave at 1094.24 ns
    // and reach H1 at 1094.24 + 87.52 + 1000 = 2181.76 ns, not at 2175.04.
    Star st({"100Gbps", "100Gbps"});
    Ptr<QbbNetDevice> out = st.sw->GetPort(1);
    struct PauseOnce
    {
        QbbNetDevice* dev;
        bool sent;
    } pauser{PeekPointer(out), false};
    st.sw->TraceConnectWithoutContext(
        "QueueBytes",
        MakeCallback(+[](PauseOnce* p, uint32_t port, uint8_t, uint64_t bytes) {
            if (port == 1 && bytes > 0 && !p->sent)
            {
                p->sent = true;
                p->dev->SendPfc(5, 10);
            }
        }).Bind(&pauser));
    Simulator::Schedule(Time(0), &TestHost::Send, &st.H(0),
                        MakeData("10.0.0.1", "10.0.0.2", 1000, 1000), 3);
    Simulator::Run();
    ASSERT_TRUE(pauser.sent);
    ASSERT_EQ(st.H(1).rx.size(), 1u);
    EXPECT_EQ(st.H(1).rx[0].t, Ps(1094240 + 87520 + 1000000));
    EXPECT_EQ(out->GetPausesSent(5), 1u);
    EXPECT_EQ(st.sw->GetSwitchPort(1)->GetDequeuedFrames(), 1u);
    EXPECT_EQ(st.sw->GetPortQueueBytes(1), 0u);
}

TEST_F(SwitchForwardingTest, PacketWithoutRouteIsDroppedAndCounted)
{
    Star st({"100Gbps", "100Gbps"});
    uint32_t drops = 0;
    st.sw->TraceConnectWithoutContext(
        "Drop", MakeCallback(+[](uint32_t* n, Ptr<const Packet>, uint32_t, uint32_t, uint8_t) {
                    (*n)++;
                }).Bind(&drops));
    Simulator::Schedule(Time(0), &TestHost::Send, &st.H(0),
                        MakeData("10.0.0.1", "10.9.9.9", 1000, 100), 3);
    Simulator::Run();
    EXPECT_EQ(st.sw->GetNoRouteDrops(), 1u);
    EXPECT_EQ(st.sw->GetDrops(), 1u);
    EXPECT_EQ(drops, 1u);
    EXPECT_TRUE(st.H(1).rx.empty());
    EXPECT_EQ(st.sw->LookupRoute(0x0A000001, 0x0A090909, 1, 2, 17), -1);
    EXPECT_EQ(st.sw->LookupRoute(0x0A000001, 0x0A000002, 1, 2, 17), 1);
}

namespace
{

struct PathLog
{
    // flow's non-4791 port -> switch ids in the order the packet reached them
    std::map<uint16_t, std::vector<uint32_t>> data;
    std::map<uint16_t, std::vector<uint32_t>> ack;
};

struct NodeProbe
{
    PathLog* log;
    uint32_t node;
};

void
OnSwitchRx(NodeProbe* probe, Ptr<const Packet> frame)
{
    Ptr<Packet> p = frame->Copy();
    EthernetHeader eth(false);
    p->RemoveHeader(eth);
    RocePacketInfo info;
    if (!RoceParse(p, info))
    {
        return;
    }
    uint16_t flow = info.sport == ROCEV2_UDP_PORT ? info.dport : info.sport;
    auto& m = info.type == RocePktType::DATA ? probe->log->data : probe->log->ack;
    m[flow].push_back(probe->node);
}

} // namespace

TEST_F(SwitchForwardingTest, FatTreeAckPathIsTheReverseOfTheDataPath)
{
    // k = 4 fat tree: pods p = 0..3 with edges e(p,0..1) and aggregations
    // a(p,0..1); cores c(0..3); a(p,j) connects to c(2j) and c(2j+1). One
    // host under e(0,0) and one under e(3,1). The ECMP seed is mixed with
    // the switch's tier (edge 1, agg 2, core 3), so the edge's choice of an
    // agg and the agg's choice of a core are independent (with one seed
    // everywhere both use the same hash bit and only 2 of the 4 cores carry
    // traffic), while both edges (and both aggs) of a path agree.
    std::vector<std::vector<Ptr<SwitchNode>>> e(4), a(4);
    for (int p = 0; p < 4; p++)
    {
        for (int j = 0; j < 2; j++)
        {
            e[p].push_back(CreateObject<SwitchNode>());
        }
        for (int j = 0; j < 2; j++)
        {
            a[p].push_back(CreateObject<SwitchNode>());
        }
    }
    std::vector<Ptr<SwitchNode>> c;
    for (int i = 0; i < 4; i++)
    {
        c.push_back(CreateObject<SwitchNode>());
    }
    QbbHelper h;
    h.SetDeviceAttribute("DataRate", DataRateValue(DataRate("100Gbps")));
    h.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    // port numbers: edge: 0 host, 1..2 aggs; agg: 0..1 edges, 2..3 cores;
    // core: 0..3 pods.
    Ptr<Node> n0 = CreateObject<Node>();
    Ptr<Node> n1 = CreateObject<Node>();
    TestHost h0, h1;
    h0.Attach(DynamicCast<QbbNetDevice>(h.Install(n0, e[0][0]).Get(0)));
    h1.Attach(DynamicCast<QbbNetDevice>(h.Install(n1, e[3][1]).Get(0)));
    for (int p = 0; p < 4; p++)
    {
        if (!(p == 0) && !(p == 3))
        {
            h.Install(CreateObject<Node>(), e[p][0]); // keep port 0 = host everywhere
            h.Install(CreateObject<Node>(), e[p][1]);
        }
        else
        {
            h.Install(CreateObject<Node>(), e[p][p == 0 ? 1 : 0]);
        }
        for (int i = 0; i < 2; i++)
        {
            for (int j = 0; j < 2; j++)
            {
                h.Install(e[p][i], a[p][j]); // e port 1+j, a port i
            }
        }
    }
    for (int p = 0; p < 4; p++)
    {
        for (int j = 0; j < 2; j++)
        {
            for (int m = 0; m < 2; m++)
            {
                h.Install(a[p][j], c[2 * j + m]); // a port 2+m, core port p
            }
        }
    }
    Ipv4Address addr[2] = {Ipv4Address("10.0.0.1"), Ipv4Address("10.0.3.2")};
    int hostPod[2] = {0, 3};
    int hostEdge[2] = {0, 1};
    for (int x = 0; x < 2; x++)
    {
        int hp = hostPod[x];
        int he = hostEdge[x];
        for (int p = 0; p < 4; p++)
        {
            for (int i = 0; i < 2; i++)
            {
                if (p == hp && i == he)
                {
                    e[p][i]->AddRoute(addr[x], 0);
                }
                else
                {
                    e[p][i]->AddRoute(addr[x], 1);
                    e[p][i]->AddRoute(addr[x], 2);
                }
            }
            for (int j = 0; j < 2; j++)
            {
                if (p == hp)
                {
                    a[p][j]->AddRoute(addr[x], he);
                }
                else
                {
                    // reverse order on purpose: the switch sorts by neighbour id
                    a[p][j]->AddRoute(addr[x], 3);
                    a[p][j]->AddRoute(addr[x], 2);
                }
            }
        }
        for (int i = 0; i < 4; i++)
        {
            c[i]->AddRoute(addr[x], hp);
        }
    }
    PathLog log;
    std::vector<std::unique_ptr<NodeProbe>> probes;
    auto probeAll = [&](Ptr<SwitchNode> sw) {
        probes.push_back(std::make_unique<NodeProbe>(NodeProbe{&log, sw->GetId()}));
        for (uint32_t port = 0; port < sw->GetNPorts(); port++)
        {
            sw->GetPort(port)->TraceConnectWithoutContext(
                "PhyRxEnd", MakeBoundCallback(&OnSwitchRx, probes.back().get()));
        }
    };
    for (int p = 0; p < 4; p++)
    {
        for (int j = 0; j < 2; j++)
        {
            probeAll(e[p][j]);
            probeAll(a[p][j]);
        }
    }
    for (auto& sw : c)
    {
        probeAll(sw);
    }
    for (uint16_t f = 0; f < 32; f++)
    {
        uint16_t sp = static_cast<uint16_t>(2000 + f);
        Simulator::Schedule(NanoSeconds(100 * f), &TestHost::Send, &h0,
                            MakeData("10.0.0.1", "10.0.3.2", sp, 1000), 3);
        Simulator::Schedule(NanoSeconds(100 * f + 50), &TestHost::Send, &h1,
                            MakeAck("10.0.3.2", "10.0.0.1", sp), 3);
    }
    Simulator::Run();
    ASSERT_EQ(log.data.size(), 32u);
    std::set<uint32_t> cores;
    for (const auto& [flow, path] : log.data)
    {
        ASSERT_EQ(path.size(), 5u) << "edge, agg, core, agg, edge";
        std::vector<uint32_t> rev(path.rbegin(), path.rend());
        EXPECT_EQ(log.ack[flow], rev) << "flow sport " << flow;
        cores.insert(path[2]);
    }
    EXPECT_EQ(cores.size(), 4u) << "32 flows should use every core";
    EXPECT_EQ(e[1][0]->GetTier(), 1u);
    EXPECT_EQ(a[2][1]->GetTier(), 2u);
    EXPECT_EQ(c[3]->GetTier(), 3u);
    EXPECT_EQ(e[0][0]->GetEffectiveEcmpSeed(), e[3][1]->GetEffectiveEcmpSeed());
    EXPECT_NE(e[0][0]->GetEffectiveEcmpSeed(), a[0][0]->GetEffectiveEcmpSeed());
    EXPECT_EQ(h1.rx.size(), 32u);
    EXPECT_EQ(h0.rx.size(), 32u);
}
