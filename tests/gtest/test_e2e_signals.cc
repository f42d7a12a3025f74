// SPDX-License-Identifier: GPL-2.0-only
//
// The signals beyond INT that libcc_algorithm_info.signals asks the fabric
// to carry (docs/signals.md), end to end: packet sizes, the RTT a data
// transmit stamp and its echo measure, the receiver NIC stamps and the
// switch count from the TTL, the PINT field, and a congestion point's
// rate feedback packets. Then every registered algorithm runs the
// dumbbell and the fat tree. Expected values come from the links' physics
// (derivations in the comments), not from the code's output.

#include "rdma-network.h"

#include <ns3/simulator.h>

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const uint64_t G100 = 100000000000ull;

struct Records
{
    std::vector<RdmaFlowRecord> recs;
    std::map<uint32_t, uint64_t> next; // in-order delivery check
    uint64_t violations = 0;
    static void Done(Records* r, const RdmaFlowRecord& rec)
    {
        r->recs.push_back(rec);
    }
    static void Deliver(Records* r, uint32_t flow, uint64_t seq, uint32_t bytes)
    {
        uint64_t& n = r->next[flow];
        if (seq != n)
        {
            r->violations++;
        }
        n = seq + bytes;
    }
};

void
Hook(RdmaNetwork& net, Records* r)
{
    for (uint32_t id = 0; id < net.GetNNodes(); id++)
    {
        if (!net.IsSwitch(id))
        {
            net.GetNic(id)->TraceConnectWithoutContext("FlowComplete",
                                                       MakeBoundCallback(&Records::Done, r));
            net.GetNic(id)->TraceConnectWithoutContext("RxDeliver",
                                                       MakeBoundCallback(&Records::Deliver, r));
        }
    }
}

std::map<std::string, double>
VarsOf(const RdmaFlowRecord& r)
{
    std::map<std::string, double> v;
    for (size_t i = 0; i < r.ccVars.size(); i++)
    {
        v[r.ccVarDescs[i].name] = r.ccVars[i];
    }
    return v;
}

/// One lone 100 KB flow on a dumbbell of `switches` switches (100 Gbps
/// links of 1 us); its record.
RdmaFlowRecord
LoneFlow(const std::string& algo, const std::string& params, uint32_t switches = 3)
{
    RdmaNetwork net;
    net.SetCongestionControl(algo, params);
    net.Build(MakeDumbbellTopology(1, switches, G100, 1000));
    Records r;
    Hook(net, &r);
    net.AddFlow(FlowSpec{0, 1, 3, 100, 100000, 0, 0}, 0);
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    Simulator::Destroy();
    EXPECT_EQ(r.recs.size(), 1u);
    return r.recs.empty() ? RdmaFlowRecord() : r.recs[0];
}

uint64_t
FeedbackSent(RdmaNetwork& net)
{
    uint64_t n = 0;
    for (uint32_t id = 0; id < net.GetNNodes(); id++)
    {
        if (net.IsSwitch(id))
        {
            n += net.GetSwitch(id)->GetFeedbackSent();
        }
    }
    return n;
}

} // namespace

// Packet sizes follow the algorithm's signals. No signal: data 1000 +
// IPv4 20 + UDP 8 + BTH 12 + RETH 16 = 1056 -> + 38 Ethernet = 1094; ACK
// 20 + 8 + 12 + AETH 16 + INT base 2 = 58 -> 96. A transmit stamp adds 8
// bytes to both; the receiver NIC stamps 16 and the hop count 1 to the
// ACK; PINT 2 to both.
TEST(Signals, PacketSizesFollowTheAlgorithm)
{
    struct Case
    {
        const char* algo;
        uint32_t data, ack;
    } cases[] = {
        {"none", 1094, 96},      {"dcqcn", 1094, 96},  {"rocc", 1094, 96},
        {"timely", 1102, 104},   {"swift", 1102, 121}, {"theta-powertcp", 1102, 104},
        {"hpcc-pint", 1096, 98},
    };
    for (const Case& c : cases)
    {
        RdmaNetwork net;
        net.SetCongestionControl(c.algo);
        net.Build(MakeDumbbellTopology(1, 1, G100, 1000));
        EXPECT_EQ(net.GetNic(0)->DataWireBytes(), c.data) << c.algo;
        EXPECT_EQ(net.GetNic(0)->GetAckWireBytes(), c.ack) << c.algo;
        Simulator::Destroy();
    }
}

// TIMELY's RTT sample is the echo of the data packet's transmit stamp. On
// an idle path nothing queues: the data frame (1102 B, 88.16 ns at 100
// Gbps) is serialized on four links, the ACK (104 B, 8.32 ns) on four, and
// both cross 4 x 1 us: 4 x 88.16 + 4 x 8.32 + 8000 = 8385.92 ns; stamps
// are whole ns, so 8385 or 8386.
TEST(Signals, TimelyRttIsTheEchoedStampOnAnIdlePath)
{
    auto v = VarsOf(LoneFlow("timely", ""));
    ASSERT_EQ(v.count("rtt"), 1u);
    EXPECT_NEAR(v["rtt"], 8385.92, 1.0);
    EXPECT_GT(v["samples"], 0.0);
}

// Swift: the receiver counts the switches from the TTL (64 sent, 61 after
// three switches), so with flow scaling off the fabric target is
// base_target + 3 x hop_scale = 25 + 3 x 1 = 28 us. The receiver's NIC
// sends each ACK as the data arrives (it has nothing else to send), so the
// endpoint delay is 0 and the fabric delay is the whole RTT: data 1102 B
// and ACK 121 B (9.68 ns) on four links, 4 x 88.16 + 4 x 9.68 + 8000 =
// 8391.36 ns.
TEST(Signals, SwiftCountsSwitchesAndSplitsTheDelay)
{
    auto v = VarsOf(LoneFlow("swift", "fs_range=0us"));
    EXPECT_EQ(v["target"], 28000.0);
    EXPECT_NEAR(v["rtt"], 8391.36, 1.0);
    EXPECT_NEAR(v["fabric_delay"], 8391.36, 1.0);
    EXPECT_EQ(v["endpoint_delay"], 0.0);
}

// With one switch the TTL arrives as 63: target 25 + 1 = 26 us.
TEST(Signals, HopCountFollowsTheChainLength)
{
    EXPECT_EQ(VarsOf(LoneFlow("swift", "fs_range=0us", 1))["target"], 26000.0);
}

// Two flows share the dumbbell's 100 Gbps bottleneck for 3 ms. Each
// algorithm reacts to the signal it needs: the flows split the bytes
// delivered within 30/70, and a rate-based one ends below 80 Gbps (one
// that never reacted would still pace at the line rate, 100; TIMELY
// oscillates around the fair share, so no tighter instant bound holds).
class SignalsReact : public ::testing::TestWithParam<const char*>
{
};

TEST_P(SignalsReact, TwoFlowsShareTheBottleneck)
{
    std::string spec = GetParam();
    std::string algo = spec.substr(0, spec.find(' '));
    std::string params = spec.find(' ') == std::string::npos ? "" : spec.substr(spec.find(' ') + 1);
    RdmaNetwork net;
    net.SetCongestionControl(algo, params);
    net.Build(MakeDumbbellTopology(2, 3, G100, 1000));
    Records r;
    Hook(net, &r);
    // Long enough not to finish: 100 MB each at no more than 100 Gbps is 8 ms.
    Ptr<RdmaTxQueuePair> a = net.AddFlow(FlowSpec{0, 2, 3, 100, 100000000, 0, 0}, 0);
    Ptr<RdmaTxQueuePair> b = net.AddFlow(FlowSpec{1, 2, 3, 100, 100000000, 0, 0}, 1);
    Simulator::Stop(MilliSeconds(3));
    Simulator::Run();
    double ra = a->GetRate() / 1e9;
    double rb = b->GetRate() / 1e9;
    // A window algorithm's pacing rate may stay at line rate: its window
    // bounds it then. Count what arrived in the last run instead: both
    // flows delivered in order, and each one's share of the bytes.
    EXPECT_EQ(r.violations, 0u) << algo;
    uint64_t da = r.next[0];
    uint64_t db = r.next[1];
    ASSERT_GT(da + db, 0u);
    double shareA = double(da) / double(da + db);
    EXPECT_GT(shareA, 0.3) << algo;
    EXPECT_LT(shareA, 0.7) << algo;
    if (a->GetWindow() == LIBCC_WINDOW_UNLIMITED)
    {
        EXPECT_LT(ra, 80.0) << algo;
        EXPECT_LT(rb, 80.0) << algo;
    }
    EXPECT_EQ(net.GetNic(0)->GetCounters().ccErrors, 0u) << algo;
    EXPECT_EQ(net.GetNic(2)->GetCounters().badPackets, 0u) << algo;
    Simulator::Destroy();
}

INSTANTIATE_TEST_SUITE_P(Algorithms, SignalsReact,
                         ::testing::Values("timely", "hpcc-pint", "rocc", "theta-powertcp",
                                           "powertcp", "dctcp k=50KB",
                                           "swift base_target=5us,fs_range=0us"));

// RoCC: a congested egress sends rate feedback to the sources, and every
// packet reaches a source NIC (the fabric is lossless); a lone flow never
// fills a queue, so its path's fair rates stay at the link rate and no
// switch sends any.
TEST(Signals, RoccFeedbackReachesTheSourcesOnlyUnderCongestion)
{
    {
        RdmaNetwork net;
        net.SetCongestionControl("rocc");
        net.Build(MakeDumbbellTopology(2, 3, G100, 1000));
        net.AddFlow(FlowSpec{0, 2, 3, 100, 10000000, 0, 0}, 0);
        net.AddFlow(FlowSpec{1, 2, 3, 100, 10000000, 0, 0}, 1);
        Simulator::Stop(MicroSeconds(500));
        Simulator::Run();
        uint64_t sent = FeedbackSent(net);
        uint64_t rcvd =
            net.GetNic(0)->GetCounters().feedbackRcvd + net.GetNic(1)->GetCounters().feedbackRcvd;
        EXPECT_GT(sent, 0u);
        // Feedback still in flight at the stop is at most what the path
        // holds: a few per microsecond of the 8 us round trip.
        EXPECT_LE(rcvd, sent);
        EXPECT_GE(rcvd + 200, sent);
        EXPECT_GT(net.GetNic(0)->GetCounters().feedbackRcvd, 0u);
        EXPECT_LT(net.GetNic(0)->GetTxQueuePair(0)->GetRate(), G100);
        EXPECT_EQ(net.GetNic(0)->GetCounters().badPackets, 0u);
        Simulator::Destroy();
    }
    {
        RdmaNetwork net;
        net.SetCongestionControl("rocc");
        net.Build(MakeDumbbellTopology(1, 3, G100, 1000));
        net.AddFlow(FlowSpec{0, 1, 3, 100, 10000000, 0, 0}, 0);
        Simulator::Stop(MicroSeconds(500));
        Simulator::Run();
        EXPECT_EQ(FeedbackSent(net), 0u);
        EXPECT_EQ(net.GetNic(0)->GetTxQueuePair(0)->GetRate(), G100);
        Simulator::Destroy();
    }
}

// Every registered algorithm moves every byte, in order, on the dumbbell
// (two senders) and on a k=4 fat tree (a permutation of 16 hosts), without
// an error from libcc. Lower bound from the links: the dumbbell's
// bottleneck carries 2 x 1 MB in 1000-byte packets of at least 1094 wire
// bytes: 2000 x 1094 x 8 / 100 Gbps = 175.04 us before the last byte can
// arrive.
class EveryAlgorithm : public ::testing::TestWithParam<std::string>
{
};

TEST_P(EveryAlgorithm, RunsTheDumbbell)
{
    RdmaNetwork net;
    net.SetCongestionControl(GetParam());
    net.Build(MakeDumbbellTopology(2, 3, G100, 1000));
    Records r;
    Hook(net, &r);
    net.AddFlow(FlowSpec{0, 2, 3, 100, 1000000, 0, 0}, 0);
    net.AddFlow(FlowSpec{1, 2, 3, 100, 1000000, 0, 0}, 1);
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    ASSERT_EQ(r.recs.size(), 2u);
    uint64_t last = 0;
    for (const auto& rec : r.recs)
    {
        last = std::max(last, rec.fctNs);
    }
    EXPECT_GE(last, 175040u);
    EXPECT_EQ(r.violations, 0u);
    EXPECT_EQ(r.next[0], 1000000u);
    EXPECT_EQ(r.next[1], 1000000u);
    for (uint32_t h = 0; h < 3; h++)
    {
        EXPECT_EQ(net.GetNic(h)->GetCounters().ccErrors, 0u) << "host " << h;
        EXPECT_EQ(net.GetNic(h)->GetCounters().badPackets, 0u) << "host " << h;
    }
    Simulator::Destroy();
}

TEST_P(EveryAlgorithm, RunsTheFatTree)
{
    RdmaNetwork net;
    net.SetCongestionControl(GetParam());
    net.Build(MakeFatTreeTopology(4, G100, 1000));
    Records r;
    Hook(net, &r);
    // Host i sends 200 KB to host (i + 5) mod 16: across pods, through cores.
    for (uint32_t i = 0; i < 16; i++)
    {
        net.AddFlow(FlowSpec{i, (i + 5) % 16, 3, 100, 200000, 0, 0}, i);
    }
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    ASSERT_EQ(r.recs.size(), 16u);
    EXPECT_EQ(r.violations, 0u);
    for (uint32_t i = 0; i < 16; i++)
    {
        EXPECT_EQ(r.next[i], 200000u) << "flow " << i;
        EXPECT_EQ(net.GetNic(i)->GetCounters().ccErrors, 0u) << "host " << i;
        EXPECT_EQ(net.GetNic(i)->GetCounters().badPackets, 0u) << "host " << i;
    }
    Simulator::Destroy();
}

namespace
{
std::vector<std::string>
AllAlgorithms()
{
    std::vector<std::string> v;
    for (const char* const* a = libcc_algorithms(); *a; a++)
    {
        v.emplace_back(*a);
    }
    return v;
}

std::string
TestName(const ::testing::TestParamInfo<std::string>& info)
{
    std::string s;
    for (char c : info.param)
    {
        s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    }
    return s;
}
} // namespace

INSTANTIATE_TEST_SUITE_P(Registered, EveryAlgorithm, ::testing::ValuesIn(AllAlgorithms()),
                         TestName);
