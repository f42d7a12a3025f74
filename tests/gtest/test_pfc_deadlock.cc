// SPDX-License-Identifier: GPL-2.0-only
//
// PfcDeadlockDetector: a ring of switches whose routes all turn the same way
// forms a cyclic buffer dependency under PFC and stops for good; the
// detector names the cycle's queues within StallTime + CheckInterval of the
// moment they stopped. Congestion that PFC pauses but that drains is not a
// deadlock.

#include "pfc-deadlock-detector.h"
#include "qbb-channel.h"
#include "rdma-network.h"

#include <ns3/boolean.h>
#include <ns3/node-list.h>
#include <ns3/simulator.h>
#include <ns3/uinteger.h>

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace ns3;

namespace
{

const uint64_t G100 = 100000000000ull;

class PfcDeadlockTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

/// Ring of n switches (ids n..2n-1), host i (id i) on switch n+i; links
/// 100 Gbps, 1 us. Links: host i - switch i first, then switch i - switch i+1.
TopologySpec
Ring(uint32_t n)
{
    TopologySpec t;
    t.nNodes = 2 * n;
    t.isSwitch.assign(2 * n, false);
    for (uint32_t i = 0; i < n; i++)
    {
        t.isSwitch[n + i] = true;
        t.links.push_back(TopologyLinkSpec{i, n + i, G100, 1000, 0, 0});
    }
    for (uint32_t i = 0; i < n; i++)
    {
        t.links.push_back(TopologyLinkSpec{n + i, n + (i + 1) % n, G100, 1000, 0, 0});
    }
    return t;
}

/// Every switch sends traffic for a remote host clockwise (to switch i+1),
/// so a flow two hops away crosses two ring links in the same direction.
void
RouteClockwise(RdmaNetwork& net, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
    {
        Ptr<SwitchNode> sw = net.GetSwitch(n + i);
        sw->ClearRoutes();
        for (uint32_t h = 0; h < n; h++)
        {
            uint32_t next = h == i ? h : n + (i + 1) % n;
            sw->AddRoute(Ipv4Address(RdmaNodeIp(h)),
                         net.GetLinkDevice(n + i, next)->GetIfIndex());
        }
    }
}

/// Last time each (switch, port) queue changed (a frame in or out).
struct LastChange
{
    std::map<std::pair<uint32_t, uint32_t>, Time> at;
};

/// One switch's "QueueBytes" trace into a LastChange.
struct QueueWatch
{
    LastChange* lc;
    uint32_t node;
    static void On(QueueWatch* w, uint32_t port, uint8_t, uint64_t)
    {
        w->lc->at[{w->node, port}] = Simulator::Now();
    }
};

struct Seen
{
    int calls = 0;
    Time at;
    static void On(Seen* s, Time t, const std::vector<PfcDeadlockDetector::Queue>&)
    {
        s->calls++;
        s->at = t;
    }
};

} // namespace

TEST_F(PfcDeadlockTest, RingWithClockwiseRoutesDeadlocksAndTheCycleIsNamed)
{
    // Host i sends 10 MB at line rate to host i+2: each ring link carries
    // two such flows at 2 x 100 Gbps into 100 Gbps, so every ring queue
    // fills, every switch pauses the previous one (20 KB static threshold)
    // and the three ring egresses end paused by each other.
    const uint32_t n = 3;
    RdmaNetwork net;
    net.SetCongestionControl("none");
    net.SetSwitchAttribute("PfcStaticThreshold", UintegerValue(20000));
    net.SetDeadlockDetectorAttribute("StallTime", TimeValue(MicroSeconds(50)));
    net.SetDeadlockDetectorAttribute("CheckInterval", TimeValue(MicroSeconds(10)));
    net.Build(Ring(n));
    RouteClockwise(net, n);
    for (uint32_t i = 0; i < n; i++)
    {
        net.AddFlow(FlowSpec{i, (i + 2) % n, 3, 100, 10000000, 0, 0}, i);
    }
    Seen seen;
    LastChange last;
    std::vector<QueueWatch> watches(n);
    for (uint32_t i = 0; i < n; i++)
    {
        Ptr<SwitchNode> sw = net.GetSwitch(n + i);
        watches[i] = QueueWatch{&last, sw->GetId()};
        sw->TraceConnectWithoutContext("QueueBytes",
                                       MakeBoundCallback(&QueueWatch::On, &watches[i]));
    }
    Ptr<PfcDeadlockDetector> det = net.GetDeadlockDetector();
    det->TraceConnectWithoutContext("Deadlock", MakeBoundCallback(&Seen::On, &seen));
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    ASSERT_TRUE(det->IsDeadlocked());
    EXPECT_EQ(seen.calls, 1);
    // The cycle is the three ring egresses, each switch's port to the next
    // switch, at the flows' priority; in waiting order.
    const auto& cycle = det->GetCycle();
    ASSERT_EQ(cycle.size(), n);
    std::set<uint32_t> nodes;
    for (size_t k = 0; k < cycle.size(); k++)
    {
        const auto& q = cycle[k];
        const auto& next = cycle[(k + 1) % cycle.size()];
        nodes.insert(q.node);
        EXPECT_EQ(q.prio, 3);
        Ptr<SwitchNode> sw = DynamicCast<SwitchNode>(NodeList::GetNode(q.node));
        ASSERT_NE(sw, nullptr);
        // The port leads to the next switch of the cycle.
        Ptr<QbbChannel> ch = DynamicCast<QbbChannel>(sw->GetPort(q.port)->GetChannel());
        EXPECT_EQ(ch->GetPeer(sw->GetPort(q.port))->GetNode()->GetId(), next.node);
    }
    EXPECT_EQ(nodes.size(), n);
    // Found by the first check at least StallTime (50 us) after the cycle's
    // queues last changed, so at most one CheckInterval (10 us) later; the
    // run stopped there (StopOnDeadlock), long before its 5 ms.
    Time lastMove;
    for (const auto& q : cycle)
    {
        lastMove = std::max(lastMove, last.at[{q.node, q.port}]);
    }
    EXPECT_GE(det->GetDetectionTime() - lastMove, MicroSeconds(50));
    EXPECT_LE(det->GetDetectionTime() - lastMove, MicroSeconds(60));
    EXPECT_EQ(Simulator::Now(), det->GetDetectionTime());
    EXPECT_NE(det->Describe().find("PFC deadlock at"), std::string::npos);
    EXPECT_NE(det->Describe().find("switch " + std::to_string(cycle[0].node) + " port " +
                                   std::to_string(cycle[0].port)),
              std::string::npos);
}

TEST_F(PfcDeadlockTest, IncastThatPausesAndDrainsIsNoDeadlock)
{
    // Four hosts send 200 KB each to host 0 through one switch: the
    // receiver's port is 4:1 oversubscribed, PFC pauses the senders
    // (20 KB threshold) and releases them as the queue drains; all flows
    // finish. The detector must stay silent and let the run end by itself.
    TopologySpec t;
    t.nNodes = 6;
    t.isSwitch.assign(6, false);
    t.isSwitch[5] = true;
    for (uint32_t h = 0; h < 5; h++)
    {
        t.links.push_back(TopologyLinkSpec{h, 5, G100, 1000, 0, 0});
    }
    RdmaNetwork net;
    net.SetCongestionControl("none");
    net.SetSwitchAttribute("PfcStaticThreshold", UintegerValue(20000));
    net.SetDeadlockDetectorAttribute("StallTime", TimeValue(MicroSeconds(20)));
    net.SetDeadlockDetectorAttribute("CheckInterval", TimeValue(MicroSeconds(5)));
    net.Build(t);
    uint64_t pauses = 0;
    for (uint32_t h = 1; h < 5; h++)
    {
        net.AddFlow(FlowSpec{h, 0, 3, 100, 200000, 0, 0}, h);
    }
    Simulator::Run(); // no stop time: the detector must not keep it alive
    for (uint32_t h = 1; h < 5; h++)
    {
        EXPECT_TRUE(net.GetFlows()[h - 1]->IsFinished()) << "flow " << h;
        pauses += net.GetNic(h)->GetDevice()->GetPausesReceived(3);
    }
    EXPECT_GT(pauses, 0u); // PFC did pause the senders
    EXPECT_FALSE(net.GetDeadlockDetector()->IsDeadlocked());
    EXPECT_EQ(net.GetDeadlockDetector()->Describe(), "");
}

namespace
{

/// What one ring run reports: the detector's checks and its report.
struct RingReport
{
    uint64_t checks = 0;
    bool deadlocked = false;
    Time at;
    std::string describe;
};

/// The ring of RingWithClockwiseRoutes... (3 switches, 20 KB PFC threshold,
/// StallTime 50 us, CheckInterval 10 us), the detector's schedule chosen.
void
BuildRing3(RdmaNetwork& net, bool alwaysCheck)
{
    net.SetCongestionControl("none");
    net.SetSwitchAttribute("PfcStaticThreshold", UintegerValue(20000));
    net.SetDeadlockDetectorAttribute("StallTime", TimeValue(MicroSeconds(50)));
    net.SetDeadlockDetectorAttribute("CheckInterval", TimeValue(MicroSeconds(10)));
    net.SetDeadlockDetectorAttribute("AlwaysCheck", BooleanValue(alwaysCheck));
    net.Build(Ring(3));
    RouteClockwise(net, 3);
}

/// That ring with a first phase that pauses
/// and drains (hosts 1 and 2 send 60 KB each to host 0 at t = 0: switch 3's
/// port to host 0 is 2:1 oversubscribed and pauses switch 5's port to it),
/// an idle stretch, then the deadlocking flows from startNs on.
RingReport
RunRingInTwoPhases(bool alwaysCheck, uint64_t startNs)
{
    const uint32_t n = 3;
    RdmaNetwork net;
    BuildRing3(net, alwaysCheck);
    net.AddFlow(FlowSpec{1, 0, 3, 100, 60000, 0, 0}, 0);
    net.AddFlow(FlowSpec{2, 0, 3, 101, 60000, 0, 0}, 1);
    for (uint32_t i = 0; i < n; i++)
    {
        net.AddFlow(FlowSpec{i, (i + 2) % n, 3, 200, 10000000, startNs, 0}, 2 + i);
    }
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    Ptr<PfcDeadlockDetector> det = net.GetDeadlockDetector();
    RingReport r{det->GetChecks(), det->IsDeadlocked(), det->GetDetectionTime(), det->Describe()};
    Simulator::Destroy();
    return r;
}

} // namespace

TEST_F(PfcDeadlockTest, NoPauseRunsNoCheck)
{
    // One 100 KB flow from host 0 to host 1 through one switch: nothing is
    // oversubscribed, no PAUSE is ever sent, so the detector never checks
    // (with AlwaysCheck it checks on each 10 us grid point of the run).
    for (bool always : {false, true})
    {
        TopologySpec t;
        t.nNodes = 3;
        t.isSwitch = {false, false, true};
        t.links.push_back(TopologyLinkSpec{0, 2, G100, 1000, 0, 0});
        t.links.push_back(TopologyLinkSpec{1, 2, G100, 1000, 0, 0});
        RdmaNetwork net;
        net.SetCongestionControl("none");
        net.SetDeadlockDetectorAttribute("CheckInterval", TimeValue(MicroSeconds(10)));
        net.SetDeadlockDetectorAttribute("AlwaysCheck", BooleanValue(always));
        net.Build(t);
        net.AddFlow(FlowSpec{0, 1, 3, 100, 100000, 0, 0}, 0);
        Simulator::Stop(MicroSeconds(95));
        Simulator::Run();
        EXPECT_TRUE(net.GetFlows()[0]->IsFinished());
        EXPECT_EQ(net.GetSwitch(2)->GetPort(0)->GetPausesReceived(3), 0u);
        // 10, 20, ..., 90 us: 9 grid points before the stop at 95 us.
        EXPECT_EQ(net.GetDeadlockDetector()->GetChecks(), always ? 9u : 0u) << always;
        Simulator::Destroy();
    }
}

TEST_F(PfcDeadlockTest, ChecksOnlyWhilePausedReportAsCheckingAlways)
{
    // The deadlocking flows start long after the first phase's pauses have
    // drained (they are over by 20 us): the detector idles in between, and
    // its first check after the idle stretch must date the ports' last
    // moves as a check on every grid point would have. Same time, same
    // cycle; starts off and on the 10 us grid.
    for (uint64_t start : {1003300ull, 1000000ull, 1234567ull})
    {
        RingReport lazy = RunRingInTwoPhases(false, start);
        RingReport always = RunRingInTwoPhases(true, start);
        ASSERT_TRUE(always.deadlocked) << start;
        ASSERT_TRUE(lazy.deadlocked) << start;
        EXPECT_EQ(lazy.at, always.at) << start;
        EXPECT_EQ(lazy.describe, always.describe) << start;
        // Checking always: one check per 10 us grid point up to the detection.
        EXPECT_EQ(always.checks, static_cast<uint64_t>(always.at.GetMicroSeconds() / 10))
            << start;
        // The idle stretch from 20 us to the start (more than 90 grid
        // points) is not checked.
        EXPECT_LT(lazy.checks + 90, always.checks) << start;
        // A detection StallTime after the flows start at the earliest.
        EXPECT_GE(lazy.at, NanoSeconds(start) + MicroSeconds(50)) << start;
    }
}

TEST_F(PfcDeadlockTest, NoCheckAfterADeadlockWhenTheRunGoesOn)
{
    // StopOnDeadlock false: the run goes on to 2 ms with the ring's queues
    // paused for good, but a deadlock does not resolve itself, so the
    // detector checks no more, PAUSE refreshes or not (as it always did).
    for (bool always : {false, true})
    {
        const uint32_t n = 3;
        RdmaNetwork net;
        net.SetDeadlockDetectorAttribute("StopOnDeadlock", BooleanValue(false));
        BuildRing3(net, always);
        for (uint32_t i = 0; i < n; i++)
        {
            net.AddFlow(FlowSpec{i, (i + 2) % n, 3, 100, 10000000, 0, 0}, i);
        }
        Ptr<PfcDeadlockDetector> det = net.GetDeadlockDetector();
        Simulator::Stop(MilliSeconds(2));
        Simulator::Run();
        ASSERT_TRUE(det->IsDeadlocked()) << always;
        EXPECT_EQ(Simulator::Now(), MilliSeconds(2)) << always;
        // The last check was the one that found it.
        if (always)
        {
            EXPECT_EQ(det->GetChecks(),
                      static_cast<uint64_t>(det->GetDetectionTime().GetMicroSeconds() / 10));
        }
        else
        {
            EXPECT_LE(det->GetChecks(),
                      static_cast<uint64_t>(det->GetDetectionTime().GetMicroSeconds() / 10));
        }
        Simulator::Destroy();
    }
}
