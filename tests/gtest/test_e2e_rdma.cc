// SPDX-License-Identifier: GPL-2.0-only
//
// End-to-end runs of RDMA hosts over the fabric: lone-flow FCT against the
// ideal, lossless incast under PFC, loss recovery without PFC, DCQCN on a
// 2:1 bottleneck, and data/ACK path symmetry through ECMP. Expected values
// come from the physics of the links (derivations in the comments).

#include "rdma-network.h"
#include "rdma-trace.h"

#include <ns3/boolean.h>
#include <ns3/simulator.h>
#include <ns3/uinteger.h>

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

const uint64_t G100 = 100000000000ull;

// Checks that the receiving application gets every byte of every flow
// exactly once and in order.
struct DeliveryCheck
{
    std::map<uint32_t, uint64_t> next;
    uint64_t violations = 0;
    static void On(DeliveryCheck* c, uint32_t flow, uint64_t seq, uint32_t bytes)
    {
        uint64_t& n = c->next[flow];
        if (seq != n)
        {
            c->violations++;
        }
        n = seq + bytes;
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

struct Drops
{
    uint64_t n = 0;
    static void On(Drops* d, Ptr<const Packet>, uint32_t, uint32_t, uint8_t)
    {
        d->n++;
    }
};

void
HookAll(RdmaNetwork& net, DeliveryCheck* dc, FlowDone* fd, Drops* dr)
{
    for (uint32_t id = 0; id < net.GetNNodes(); id++)
    {
        if (net.IsSwitch(id))
        {
            net.GetSwitch(id)->TraceConnectWithoutContext("Drop",
                                                          MakeBoundCallback(&Drops::On, dr));
        }
        else
        {
            net.GetNic(id)->TraceConnectWithoutContext("RxDeliver",
                                                       MakeBoundCallback(&DeliveryCheck::On, dc));
            net.GetNic(id)->TraceConnectWithoutContext("FlowComplete",
                                                       MakeBoundCallback(&FlowDone::On, fd));
        }
    }
}

std::vector<FlowSpec>
Incast(uint32_t n, uint32_t receiver, uint64_t size)
{
    std::vector<FlowSpec> v;
    for (uint32_t i = 0; i < n; i++)
    {
        v.push_back(FlowSpec{i, receiver, 3, 100, size, 0, 0});
    }
    return v;
}

} // namespace

class E2eLoneFlow : public ::testing::TestWithParam<const char*>
{
};

TEST_P(E2eLoneFlow, FctIsTheIdealWithinOnePercent)
{
    // Dumbbell with one sender: host 0 -> switches 2, 3, 4 -> host 1; four
    // 100 Gbps links of 1 us.
    RdmaNetwork net;
    net.SetCongestionControl(GetParam());
    net.Build(MakeDumbbellTopology(1, 3, G100, 1000));
    // A full data packet: 1000 payload + IPv4 20 + UDP 8 + BTH 12 + RETH 16
    // = 1056 bytes of IP, + 18 Ethernet + 20 preamble/gap = 1094 on the line.
    // An ACK: 20 + 8 + 12 + AETH 16 + INT header 2 = 58 -> 76 -> 96.
    ASSERT_EQ(net.GetNic(0)->DataWireBytes(), 1094u);
    ASSERT_EQ(RdmaNic::AckWireBytes(), 96u);
    // Base RTT = 4 x (2 x 1000 + (1094 + 96) x 8 / 100) = 4 x 2095.2 = 8380.8 ns.
    EXPECT_EQ(net.GetPath(0, 1).baseRttNs, 8381u);
    DeliveryCheck dc;
    FlowDone fd;
    Drops dr;
    HookAll(net, &dc, &fd, &dr);
    net.AddFlow(FlowSpec{0, 1, 3, 100, 1000000, 0, 0}, 0);
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    ASSERT_EQ(fd.recs.size(), 1u);
    // Ideal: 1000 packets x 1094 = 1,094,000 bytes at 100 Gbps = 87,520 ns
    // + 8381 = 95,901 ns. Physically the last ACK returns after 87,520 (all
    // bytes leave the NIC) + 3 x 87.52 (the last packet re-serialized at
    // each switch) + 4 us propagation + 4 x 7.68 (the ACK) + 4 us = 95,813 ns.
    EXPECT_EQ(RdmaIdealFctNs(fd.recs[0]), 95901u);
    EXPECT_NEAR(double(fd.recs[0].fctNs), 95901.0, 959.0);
    EXPECT_NEAR(double(fd.recs[0].fctNs), 95813.0, 10.0);
    EXPECT_EQ(dc.violations, 0u);
    EXPECT_EQ(dc.next[0], 1000000u);
    EXPECT_EQ(fd.recs[0].retransmittedBytes, 0u);
    Simulator::Destroy();
}

INSTANTIATE_TEST_SUITE_P(Algorithms, E2eLoneFlow, ::testing::Values("none", "dcqcn"));

TEST(E2eIncast, EightToOneWithPfcIsLosslessAndComplete)
{
    // 8 senders -> one switch -> receiver, 100 Gbps, 1 us links, 100 KB each.
    RdmaNetwork net;
    net.SetCongestionControl("none");
    net.SetSwitchAttribute("PfcStaticThreshold", UintegerValue(30000));
    net.Build(MakeDumbbellTopology(8, 1, G100, 1000));
    DeliveryCheck dc;
    FlowDone fd;
    Drops dr;
    HookAll(net, &dc, &fd, &dr);
    RdmaTraceHelper tr(net);
    tr.EnablePfc("", "");
    net.AddFlows(Incast(8, 8, 100000));
    Simulator::Stop(MilliSeconds(2));
    Simulator::Run();
    ASSERT_EQ(fd.recs.size(), 8u);
    EXPECT_EQ(dr.n, 0u);
    EXPECT_EQ(dc.violations, 0u);
    for (uint32_t f = 0; f < 8; f++)
    {
        EXPECT_EQ(dc.next[f], 100000u) << "flow " << f;
    }
    // 8 line-rate senders into one port must have been paused.
    EXPECT_GT(tr.GetPfcPauses(), 0u);
    // The bottleneck carries 8 x 100 x 1094 = 875,200 bytes = 70,016 ns at
    // 100 Gbps: no flow can finish earlier; the last one finishes after that
    // plus about one base RTT (2 x 2095.2 ns) if PFC keeps the port busy.
    uint64_t last = 0;
    for (const auto& r : fd.recs)
    {
        last = std::max(last, r.fctNs);
        EXPECT_EQ(r.retransmittedBytes, 0u);
    }
    EXPECT_GE(last, 70016u);
    EXPECT_LE(double(last), 1.15 * (70016 + 4190));
    Simulator::Destroy();
}

TEST(E2eIncast, TinyLossyBufferDropsAndGoBackNRecovers)
{
    RdmaNetwork net;
    net.SetCongestionControl("none");
    net.SetSwitchAttribute("LosslessPriorities", UintegerValue(0)); // PFC off
    net.SetSwitchAttribute("LossyQueueLimit", UintegerValue(20000));
    net.SetNicAttribute("RetransmitTimeout", TimeValue(MicroSeconds(100)));
    net.SetNicAttribute("NackInterval", TimeValue(MicroSeconds(10)));
    net.Build(MakeDumbbellTopology(8, 1, G100, 1000));
    DeliveryCheck dc;
    FlowDone fd;
    Drops dr;
    HookAll(net, &dc, &fd, &dr);
    net.AddFlows(Incast(8, 8, 100000));
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    // 8 line-rate senders into a 20 KB queue must overflow it.
    EXPECT_GT(dr.n, 0u);
    ASSERT_EQ(fd.recs.size(), 8u);
    EXPECT_EQ(dc.violations, 0u);
    uint64_t retx = 0;
    for (uint32_t f = 0; f < 8; f++)
    {
        EXPECT_EQ(dc.next[f], 100000u) << "flow " << f;
    }
    for (const auto& r : fd.recs)
    {
        retx += r.retransmittedBytes;
    }
    EXPECT_GT(retx, 0u);
    EXPECT_GT(net.GetNic(8)->GetCounters().nacksSent, 0u);
    Simulator::Destroy();
}

TEST(E2eIncast, LostTailIsRecoveredByTheTimeout)
{
    // Two senders into a queue that holds one packet: tails get lost with
    // nothing behind them to reveal the gap, so only the timeout can
    // recover them; every flow must still finish.
    RdmaNetwork net;
    net.SetCongestionControl("none");
    net.SetSwitchAttribute("LosslessPriorities", UintegerValue(0));
    net.SetSwitchAttribute("LossyQueueLimit", UintegerValue(1100));
    net.SetNicAttribute("RetransmitTimeout", TimeValue(MicroSeconds(50)));
    net.Build(MakeDumbbellTopology(2, 1, G100, 1000));
    DeliveryCheck dc;
    FlowDone fd;
    Drops dr;
    HookAll(net, &dc, &fd, &dr);
    net.AddFlows(Incast(2, 2, 20000));
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    EXPECT_GT(dr.n, 0u);
    ASSERT_EQ(fd.recs.size(), 2u);
    EXPECT_EQ(dc.violations, 0u);
    EXPECT_EQ(dc.next[0], 20000u);
    EXPECT_EQ(dc.next[1], 20000u);
    Simulator::Destroy();
}

namespace
{

struct RateSamples
{
    std::vector<double> r0, r1;
};

void
SampleRates(RateSamples* s, Ptr<RdmaTxQueuePair> a, Ptr<RdmaTxQueuePair> b)
{
    s->r0.push_back(double(a->GetRate()));
    s->r1.push_back(double(b->GetRate()));
    Simulator::Schedule(MicroSeconds(10), &SampleRates, s, a, b);
}

} // namespace

TEST(E2eDcqcn, TwoToOneMakesCnpsAndConvergesToHalfEach)
{
    // The paper's dumbbell (2 senders, 3 switches, 100 Gbps, 1.5 us) with
    // the DCQCN paper's timers and steps. Two identical flows share one
    // port: the CP marks both with the same probability, so at DCQCN's fixed
    // point their rates are equal and together fill the port: 50 Gbps each.
    // DCQCN reaches fairness through its multiplicative decreases: every cut
    // by alpha/2 shrinks the gap between the rates by that factor. With the
    // firmware's g (alpha gain) of 5/1024 and a 1% marking ceiling alpha stays
    // small and closing a 20 Gbps gap takes tens of ms; g = 1/16 and marking
    // up to 20% at 100 KB make it a few hundred us, so 2-4 ms is settled.
    RdmaNetwork net;
    net.SetCongestionControl("dcqcn",
                             "kmin=5KB,kmax=100KB,pmax=0.2,g=0.0625,dce_tcp_rtt=55us,"
                             "rpg_time_reset=55us,rpg_byte_reset=10MB,rpg_threshold=5,"
                             "rpg_ai_rate=40Mbps,rpg_hai_rate=400Mbps");
    net.SetSwitchAttribute("PfcStaticThreshold", UintegerValue(500000));
    net.Build(MakeDumbbellTopology(2, 3, G100, 1500));
    net.AddFlows(Incast(2, 2, 100000000));
    RateSamples s;
    Simulator::Schedule(MilliSeconds(2), &SampleRates, &s, net.GetFlows()[0], net.GetFlows()[1]);
    Simulator::Stop(MilliSeconds(4));
    Simulator::Run();
    EXPECT_GT(net.GetNic(2)->GetCounters().cnpsSent, 0u);
    EXPECT_GT(net.GetNic(0)->GetCounters().cnpsRcvd, 0u);
    EXPECT_GT(net.GetNic(1)->GetCounters().cnpsRcvd, 0u);
    ASSERT_GT(s.r0.size(), 100u);
    double m0 = 0, m1 = 0;
    for (size_t i = 0; i < s.r0.size(); i++)
    {
        m0 += s.r0[i];
        m1 += s.r1[i];
    }
    m0 /= s.r0.size();
    m1 /= s.r1.size();
    // Mean rate over 2-4 ms within 15% of 50 Gbps (DCQCN oscillates).
    EXPECT_NEAR(m0, 50e9, 7.5e9);
    EXPECT_NEAR(m1, 50e9, 7.5e9);
    Simulator::Destroy();
}

namespace
{

// Per flow (data 5-tuple), the switches its DATA and its ACKs crossed.
struct PathLog
{
    RdmaNetwork* net;
    // Flows by (source, destination, source port): ports count per pair.
    using Key = std::tuple<uint32_t, uint32_t, uint16_t>;
    std::map<Key, std::vector<uint32_t>> data, ack;
    std::map<Key, std::set<uint32_t>> dataSet;

    static void On(PathLog* log, uint32_t sw, Ptr<const Packet> frame)
    {
        Ptr<Packet> p = frame->Copy();
        p->RemoveAtStart(14); // Ethernet header; the FCS at the end is not read
        RoceFlowKey k;
        if (!RocePeekKey(p, k))
        {
            return;
        }
        if (k.type == RocePktType::DATA)
        {
            auto key = std::make_tuple(k.src, k.dst, k.sport);
            auto& v = log->data[key];
            if (std::find(v.begin(), v.end(), sw) == v.end())
            {
                v.push_back(sw);
            }
            log->dataSet[key].insert(sw);
        }
        else if (k.type == RocePktType::ACK)
        {
            auto key = std::make_tuple(k.dst, k.src, k.sport); // the data's direction
            auto& v = log->ack[key];
            if (std::find(v.begin(), v.end(), sw) == v.end())
            {
                v.push_back(sw);
            }
        }
    }
};

} // namespace

TEST(E2eEcmp, DataAndAckTakeTheSamePathInAFatTree)
{
    // k = 4 fat-tree: 16 hosts, 4 pods; host h in pod h / 4. Flows from every
    // host to the host 8 ids away (another pod): each crosses edge, agg,
    // core, agg, edge = 5 switches, and 4 equal-cost core paths exist.
    RdmaNetwork net;
    net.SetCongestionControl("none");
    net.Build(MakeFatTreeTopology(4, G100, 1000));
    PathLog log;
    log.net = &net;
    for (uint32_t id = 0; id < net.GetNNodes(); id++)
    {
        if (!net.IsSwitch(id))
        {
            continue;
        }
        Ptr<SwitchNode> sw = net.GetSwitch(id);
        for (uint32_t p = 0; p < sw->GetNPorts(); p++)
        {
            sw->GetPort(p)->TraceConnectWithoutContext("PhyTxBegin",
                                                       MakeBoundCallback(&PathLog::On, &log, id));
        }
    }
    DeliveryCheck dc;
    FlowDone fd;
    Drops dr;
    HookAll(net, &dc, &fd, &dr);
    std::vector<FlowSpec> flows;
    for (uint32_t h = 0; h < 16; h++)
    {
        flows.push_back(FlowSpec{h, (h + 8) % 16, 3, 100, 20000, 0, 0});
        flows.push_back(FlowSpec{h, (h + 5) % 16, 3, 100, 20000, 0, 0});
    }
    net.AddFlows(flows);
    Simulator::Stop(MilliSeconds(2));
    Simulator::Run();
    ASSERT_EQ(fd.recs.size(), flows.size());
    EXPECT_EQ(dc.violations, 0u);
    ASSERT_EQ(log.data.size(), flows.size());
    std::set<uint32_t> cores;
    for (const auto& [key, path] : log.data)
    {
        // One path per flow: all its data packets crossed the same 5
        // switches (both destinations are in another pod).
        EXPECT_EQ(path.size(), 5u);
        EXPECT_EQ(log.dataSet[key].size(), 5u);
        ASSERT_TRUE(log.ack.count(key));
        std::vector<uint32_t> rev(log.ack[key].rbegin(), log.ack[key].rend());
        EXPECT_EQ(path, rev) << "flow from " << std::hex << std::get<0>(key) << " to "
                             << std::get<1>(key) << " port " << std::dec << std::get<2>(key);
        cores.insert(path[2]);
    }
    // ECMP spread the 32 flows over more than one core switch.
    EXPECT_GT(cores.size(), 1u);
    Simulator::Destroy();
}

TEST(E2eHpccpp, ProbeModeSendsOneProbePerRtt)
{
    // HPCC++ telemetry=2: one probe per base RTT while data is in flight.
    // Dumbbell, 1 sender, 3 switches, 1.5 us links: T = 4 x (2 x 1500 +
    // (1094 + 96) x 8 / 100) = 12,380.8 ns. A 2 MB flow at ~100 Gbps is in
    // flight for about 2e6 x 1.094 x 8 / 100e9 = 175 us: about 175 / 12.38 =
    // 14 probes (one more or less at the edges, and a little longer when the
    // window holds the flow below line rate).
    RdmaNetwork net;
    net.SetCongestionControl("hpcc++", "telemetry=2");
    net.Build(MakeDumbbellTopology(1, 3, G100, 1500));
    EXPECT_EQ(net.GetPath(0, 1).baseRttNs, 12381u);
    DeliveryCheck dc;
    FlowDone fd;
    Drops dr;
    HookAll(net, &dc, &fd, &dr);
    net.AddFlow(FlowSpec{0, 1, 3, 100, 2000000, 0, 0}, 0);
    Simulator::Stop(MilliSeconds(2));
    Simulator::Run();
    ASSERT_EQ(fd.recs.size(), 1u);
    EXPECT_EQ(dc.next[0], 2000000u);
    uint64_t probes = net.GetNic(0)->GetCounters().probesSent;
    double inFlightUs = fd.recs[0].fctNs / 1e3;
    EXPECT_GE(probes, uint64_t(inFlightUs / 12.381) - 2);
    EXPECT_LE(probes, uint64_t(inFlightUs / 12.381) + 2);
    EXPECT_EQ(net.GetNic(0)->GetCounters().ccErrors, 0u);
    Simulator::Destroy();
}

TEST(E2eIncast, FlowOpenedDuringTheRunGrowsTheNotificationPoint)
{
    // The receiver's libcc NP is made at its first packet with room for the
    // flows it knows then (one); a second flow opened later must still be
    // acknowledged and finish, with no libcc errors.
    RdmaNetwork net;
    net.SetCongestionControl("dcqcn");
    net.Build(MakeDumbbellTopology(2, 1, G100, 1000));
    DeliveryCheck dc;
    FlowDone fd;
    Drops dr;
    HookAll(net, &dc, &fd, &dr);
    net.AddFlow(FlowSpec{0, 2, 3, 100, 200000, 0, 0}, 0);
    Simulator::Schedule(MicroSeconds(5), [&net]() {
        net.AddFlow(FlowSpec{1, 2, 3, 100, 200000, 5000, 0}, 1);
    });
    Simulator::Stop(MilliSeconds(2));
    Simulator::Run();
    ASSERT_EQ(fd.recs.size(), 2u);
    EXPECT_EQ(dc.next[0], 200000u);
    EXPECT_EQ(dc.next[1], 200000u);
    EXPECT_EQ(net.GetNic(2)->GetCounters().ccErrors, 0u);
    EXPECT_EQ(net.GetNic(0)->GetCounters().ccErrors, 0u);
    Simulator::Destroy();
}

TEST(E2eAck, ReceiverAcksEveryMPackets)
{
    // ack_interval m = 4: a 100,000-byte flow is 100 full packets; the
    // receiver acknowledges packets 4, 8, ..., 100: 25 ACKs (the last packet
    // is also the 25th fourth, so it adds none), no NACK, no duplicate.
    RdmaNetwork net;
    net.SetCongestionControl("none", "ack_interval=4");
    net.Build(MakeDumbbellTopology(1, 1, G100, 1000));
    DeliveryCheck dc;
    FlowDone fd;
    Drops dr;
    HookAll(net, &dc, &fd, &dr);
    net.AddFlow(FlowSpec{0, 1, 3, 100, 100000, 0, 0}, 0);
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    ASSERT_EQ(fd.recs.size(), 1u);
    EXPECT_EQ(net.GetNic(1)->GetCounters().dataRcvd, 100u);
    EXPECT_EQ(net.GetNic(1)->GetCounters().acksSent, 25u);
    EXPECT_EQ(net.GetNic(1)->GetCounters().nacksSent, 0u);
    EXPECT_EQ(net.GetNic(0)->GetCounters().acksRcvd, 25u);
    Simulator::Destroy();
}

TEST(ChainTopology, SendersJoinWhereToldAndPathsFollow)
{
    // Three switches (ids 3, 4, 5) to receiver 2; sender 0 on switch 0 of
    // the chain (id 3), sender 1 on the last (id 5): the FNCC paper's
    // last-hop congestion. Links: 0-3, 1-5, 3-4, 4-5, 5-2.
    TopologySpec t = MakeChainTopology({0, 2}, 3, G100, 1000);
    ASSERT_EQ(t.nNodes, 6u);
    EXPECT_EQ(t.isSwitch, (std::vector<bool>{false, false, false, true, true, true}));
    ASSERT_EQ(t.links.size(), 5u);
    std::vector<std::pair<uint32_t, uint32_t>> ends;
    for (const auto& l : t.links)
    {
        ends.emplace_back(l.a, l.b);
    }
    EXPECT_EQ(ends, (std::vector<std::pair<uint32_t, uint32_t>>{{0, 3}, {1, 5}, {3, 4}, {4, 5}, {5, 2}}));
    RdmaNetwork net;
    net.Build(t);
    // Sender 0 crosses 4 links (0-3, 3-4, 4-5, 5-2), sender 1 two (1-5, 5-2).
    EXPECT_EQ(net.GetPath(0, 2).links, 4u);
    EXPECT_EQ(net.GetPath(1, 2).links, 2u);
    // A sender on a switch the chain does not have is refused, naming it.
    try
    {
        MakeChainTopology({0, 3}, 3, G100, 1000);
        FAIL() << "switch 3 of a 3-switch chain was accepted";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("sender 1 on switch 3, accepted 0..2"),
                  std::string::npos)
            << e.what();
    }
    Simulator::Destroy();
}

TEST(E2eFlowLeaves, AFlowWithAStopTimeEndsWithWhatItSent)
{
    // One sender at line rate ("none") on a 1-switch dumbbell, 100 Gbps: a
    // full packet is 1094 wire bytes = 87.52 ns, sent back to back from
    // t = 0, so by the stop at 100 us packets 0..1142 have left (packet 1142
    // at 99,955.36 ns; 1143 would leave at 100,042.88 ns): the flow's size
    // becomes 1,143,000 bytes, every one delivered once, and FlowComplete
    // fires once with that size.
    RdmaNetwork net;
    net.SetCongestionControl("none");
    net.Build(MakeDumbbellTopology(1, 1, G100, 1000));
    DeliveryCheck dc;
    FlowDone fd;
    Drops dr;
    HookAll(net, &dc, &fd, &dr);
    FlowSpec f{0, 1, 3, 100, 100000000, 0, 0};
    f.stopNs = 100000;
    net.AddFlow(f, 0);
    // A second flow told to leave before it starts never sends.
    FlowSpec g{0, 1, 3, 100, 1000000, 200000, 0};
    g.stopNs = 150000;
    net.AddFlow(g, 1);
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    ASSERT_EQ(fd.recs.size(), 1u);
    EXPECT_EQ(fd.recs[0].flow.flowId, 0u);
    EXPECT_EQ(fd.recs[0].flow.sizeBytes, 1143000u);
    EXPECT_EQ(dc.next[0], 1143000u);
    EXPECT_EQ(dc.violations, 0u);
    EXPECT_EQ(dc.next.count(1), 0u);
    EXPECT_TRUE(net.GetFlows()[1]->IsFinished());
    EXPECT_EQ(net.GetFlows()[1]->GetSndNxt(), 0u);
    // The receiver ended the flow: its queue pair is done.
    EXPECT_TRUE(net.GetNic(1)->GetRxQueuePair(0).done);
    Simulator::Destroy();
}

TEST(E2eFlowStart, FlowsStartAtTheirOwnTimesInTheOrderAdded)
{
    // A NIC's flows wait for their start in its own timer queue, not as an
    // event each: added out of time order they still start at their times,
    // and two of one time start in the order added. One-packet flows (1000
    // bytes) from host 0 to host 1 over one switch, 100 Gbps, 1 us links,
    // "none" (line rate). Alone, a flow's FCT is the path's base RTT:
    // 2 x (2 x 1000 + (1094 + 96) x 8 / 100) = 4190.4 ns -> 4190. The second
    // of two starting together leaves one data packet (87.52 ns) later:
    // 4277.92 -> 4277.
    RdmaNetwork net;
    net.SetCongestionControl("none");
    net.Build(MakeDumbbellTopology(1, 1, G100, 1000));
    DeliveryCheck dc;
    FlowDone fd;
    Drops dr;
    HookAll(net, &dc, &fd, &dr);
    net.AddFlow(FlowSpec{0, 1, 3, 100, 1000, 30000, 0}, 0); // A, at 30 us
    net.AddFlow(FlowSpec{0, 1, 3, 100, 1000, 10000, 0}, 1); // B, at 10 us
    net.AddFlow(FlowSpec{0, 1, 3, 100, 1000, 10000, 0}, 2); // C, at 10 us, after B
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    ASSERT_EQ(fd.recs.size(), 3u);
    EXPECT_EQ(fd.recs[0].flow.flowId, 1u);
    EXPECT_EQ(fd.recs[0].fctNs, 4190u);
    EXPECT_EQ(fd.recs[1].flow.flowId, 2u);
    EXPECT_EQ(fd.recs[1].fctNs, 4277u);
    EXPECT_EQ(fd.recs[2].flow.flowId, 0u);
    EXPECT_EQ(fd.recs[2].fctNs, 4190u);
    EXPECT_EQ(dc.violations, 0u);
    Simulator::Destroy();
}

TEST(E2eFlowRecord, CarriesLibccsVariablesAtTheEnd)
{
    // A lone FNCC flow on the 1-switch dumbbell: the record names libcc's
    // RP variables, and T is the flow's base RTT (2 links of 1 us, 100 Gbps:
    // 2 x (2 x 1000 + (1094 + 96) x 8 / 100) = 4190.4 -> 4190 ns).
    RdmaNetwork net;
    net.SetCongestionControl("fncc");
    net.Build(MakeDumbbellTopology(1, 1, G100, 1000));
    DeliveryCheck dc;
    FlowDone fd;
    Drops dr;
    HookAll(net, &dc, &fd, &dr);
    net.AddFlow(FlowSpec{0, 1, 3, 100, 100000, 0, 0}, 0);
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    ASSERT_EQ(fd.recs.size(), 1u);
    const RdmaFlowRecord& r = fd.recs[0];
    ASSERT_NE(r.ccVarDescs, nullptr);
    std::map<std::string, double> v;
    for (size_t i = 0; i < r.ccVars.size(); i++)
    {
        v[r.ccVarDescs[i].name] = r.ccVars[i];
    }
    ASSERT_EQ(v.count("T"), 1u);
    EXPECT_EQ(v["T"], 4190.0);
    EXPECT_EQ(net.GetPath(0, 1).baseRttNs, 4190u);
    // FNCC's own counter is there too (how often the last-hop speedup set
    // Wc; see docs/results.md for why it fires even for a lone flow).
    EXPECT_EQ(v.count("lhcs"), 1u);
    Simulator::Destroy();
}

// A switch whose BufferSize is all headroom is refused by Build, before the
// run, instead of aborting at its first packet. 8 senders and a receiver on
// one switch: 9 ports x 65536 B of headroom = 589824 B reserved.
TEST(E2eBuild, RefusesABufferThatIsAllHeadroom)
{
    {
        RdmaNetwork net;
        net.SetCongestionControl("none");
        net.SetSwitchAttribute("HeadroomBytes", UintegerValue(65536));
        net.SetSwitchAttribute("BufferSize", UintegerValue(589824));
        try
        {
            net.Build(MakeDumbbellTopology(8, 1, G100, 1000));
            ADD_FAILURE() << "Build accepted a buffer with no shared pool";
        }
        catch (const std::invalid_argument& e)
        {
            EXPECT_NE(std::string(e.what()).find("65536) x 9 ports leaves no shared buffer"),
                      std::string::npos)
                << e.what();
        }
        Simulator::Destroy();
    }
    RdmaNetwork net;
    net.SetCongestionControl("none");
    net.SetSwitchAttribute("HeadroomBytes", UintegerValue(65536));
    net.SetSwitchAttribute("BufferSize", UintegerValue(589825)); // one byte shared
    EXPECT_NO_THROW(net.Build(MakeDumbbellTopology(8, 1, G100, 1000)));
    Simulator::Destroy();
}

// Relations between libcc parameters are checked when the configuration is
// made, naming both: kmin 500 KB above kmax 400 KB.
TEST(E2eBuild, RefusesKminAboveKmaxNamingBoth)
{
    RdmaNetwork net;
    try
    {
        net.SetCongestionControl("dcqcn", "kmin=500KB,kmax=400KB");
        ADD_FAILURE() << "kmin > kmax accepted";
    }
    catch (const std::invalid_argument& e)
    {
        const std::string m = e.what();
        EXPECT_NE(m.find("kmin"), std::string::npos) << m;
        EXPECT_NE(m.find("kmax"), std::string::npos) << m;
    }
}
