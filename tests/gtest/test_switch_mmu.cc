// SPDX-License-Identifier: GPL-2.0-only
//
// Shared-buffer MMU: XOFF when an ingress passes the PFC threshold, XON when
// it drains, lossy tail drop at the queue limit. Arithmetic alone and in a
// running switch, with every time derived from the link physics.
#include "switch-mmu.h"
#include "test_qbb_util.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace qbbtest;

namespace
{

class SwitchMmuTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

struct PfcRecord
{
    Time t;
    uint32_t node;
    uint32_t port;
    uint8_t prio;
    bool pause;
};

void
OnPfc(std::vector<PfcRecord>* v, Time t, uint32_t node, uint32_t port, uint8_t prio, bool pause)
{
    v->push_back({t, node, port, prio, pause});
}

// 2 ports, 1 MB buffer, 10 KB headroom, static threshold T = 5000 B, XON
// at 2000 B below T.
SwitchMmu
StaticThresholdMmu()
{
    SwitchMmu m;
    SwitchMmu::Config c;
    c.bufferBytes = 1000000;
    c.headroomBytes = 10000;
    c.pfcStaticThreshold = 5000;
    c.xonOffsetBytes = 2000;
    m.Configure(c, 2);
    return m;
}

// DATA of 1000 payload bytes: IPv4 1056 B, frame 1074 B (what the MMU
// counts), 1094 line bytes: 87.52 ns at 100 Gbps, 875.2 ns at 10 Gbps.
constexpr uint64_t FRAME = 1074;

} // namespace

TEST(SwitchMmuArithmetic, DynamicThresholdHeadroomAndHysteresis)
{
    SwitchMmu m;
    SwitchMmu::Config c;
    c.bufferBytes = 100000;
    c.headroomBytes = 1000;
    c.pfcStaticThreshold = 0;
    c.pfcAlpha = 0.5;
    c.xonOffsetBytes = 3000;
    c.losslessMask = 0x01; // only priority 0 is lossless
    c.lossyQueueLimit = 5000;
    m.Configure(c, 2);
    // Headroom reserved: 2 ports x 1 lossless priority x 1000 = 2000.
    EXPECT_EQ(m.GetSharedPoolBytes(), 98000u);
    EXPECT_EQ(m.GetThreshold(), 49000u); // 0.5 x 98000 free
    auto r = m.Admit(0, 1, 0, 40000);
    EXPECT_EQ(r.charge, SwitchMmu::Charge::SHARED);
    EXPECT_EQ(r.pfc, SwitchMmu::Pfc::NONE);
    EXPECT_EQ(m.GetThreshold(), 29000u); // 0.5 x 58000
    r = m.Admit(1, 0, 0, 20000);         // another ingress: 20000 <= 29000
    EXPECT_EQ(r.charge, SwitchMmu::Charge::SHARED);
    EXPECT_EQ(m.GetThreshold(), 19000u); // 0.5 x 38000
    // Ingress 0 holds 40000 > 19000: the next packet goes to headroom, XOFF.
    r = m.Admit(0, 1, 0, 500);
    EXPECT_EQ(r.charge, SwitchMmu::Charge::HEADROOM);
    EXPECT_EQ(r.pfc, SwitchMmu::Pfc::XOFF);
    EXPECT_TRUE(m.IsXoff(0, 0));
    EXPECT_FALSE(m.IsXoff(1, 0));
    // 500 + 600 > 1000 headroom: dropped and counted (a headroom misconfiguration).
    r = m.Admit(0, 1, 0, 600);
    EXPECT_EQ(r.charge, SwitchMmu::Charge::DROPPED);
    EXPECT_EQ(m.GetHeadroomDrops(), 1u);
    // Headroom drains but 40000 + 3000 > 19000: still XOFF.
    EXPECT_EQ(m.Release(0, 1, 0, 500), SwitchMmu::Pfc::NONE);
    EXPECT_TRUE(m.IsXoff(0, 0));
    // Shared drains: 0 bytes left, XON.
    EXPECT_EQ(m.Release(0, 1, 0, 40000), SwitchMmu::Pfc::XON);
    EXPECT_FALSE(m.IsXoff(0, 0));
    EXPECT_EQ(m.GetSharedUsed(), 20000u);
    // Priority 1 is lossy: 5000 fits the queue limit, one byte more does not.
    EXPECT_EQ(m.Admit(0, 1, 1, 5000).charge, SwitchMmu::Charge::SHARED);
    EXPECT_EQ(m.Admit(0, 1, 1, 1).charge, SwitchMmu::Charge::DROPPED);
    EXPECT_EQ(m.GetLossyDrops(), 1u);
    // Bad port / priority: refused, nothing counted.
    EXPECT_EQ(m.Admit(2, 0, 0, 1).charge, SwitchMmu::Charge::DROPPED);
    EXPECT_EQ(m.Admit(0, 0, 8, 1).charge, SwitchMmu::Charge::DROPPED);
    EXPECT_EQ(m.GetLossyDrops(), 1u);
}

TEST(SwitchMmuArithmetic, EgressScopeThresholdPausesEveryIngressFeedingTheQueue)
{
    // Two ingresses (0, 1) into egress 2, static threshold 10000 B on the
    // egress queue, headroom 5000 per port, XON 1000 below the threshold.
    SwitchMmu m;
    SwitchMmu::Config c;
    c.bufferBytes = 1000000;
    c.headroomBytes = 5000;
    c.pfcStaticThreshold = 10000;
    c.xonOffsetBytes = 1000;
    c.egressScope = true;
    m.Configure(c, 3);
    // 4 x 2000 from each ingress alternately: the queue reaches 8000, and a
    // 2000-byte packet still fits (10000 <= 10000).
    for (int k = 0; k < 4; k++)
    {
        EXPECT_EQ(m.Admit(k % 2, 2, 3, 2000).charge, SwitchMmu::Charge::SHARED);
    }
    EXPECT_EQ(m.Admit(0, 2, 3, 2000).charge, SwitchMmu::Charge::SHARED); // 10000
    // Per ingress each holds at most 6000 < 10000: the ingress scope would
    // not pause; the egress queue is full, so both arrivals now pause.
    auto r = m.Admit(1, 2, 3, 1000);
    EXPECT_EQ(r.charge, SwitchMmu::Charge::HEADROOM);
    EXPECT_EQ(r.pfc, SwitchMmu::Pfc::XOFF);
    r = m.Admit(0, 2, 3, 1000);
    EXPECT_EQ(r.charge, SwitchMmu::Charge::HEADROOM);
    EXPECT_EQ(r.pfc, SwitchMmu::Pfc::XOFF);
    EXPECT_EQ(m.GetEgressBytes(2, 3), 12000u);
    // Draining: a release of ingress 0's bytes takes its headroom first.
    // Queue 10000 after it: 10000 + 1000 > 10000, no XON yet.
    EXPECT_EQ(m.Release(0, 2, 3, 2000), SwitchMmu::Pfc::NONE);
    std::vector<uint32_t> resumed;
    m.TakeResumes(2, 3, resumed);
    EXPECT_TRUE(resumed.empty());
    // 8000 after this one (1000 of ingress 1's headroom, 1000 shared):
    // 8000 + 1000 <= 10000 and ingress 1's headroom is empty: XON for 1 ...
    EXPECT_EQ(m.Release(1, 2, 3, 2000), SwitchMmu::Pfc::XON);
    EXPECT_FALSE(m.IsXoff(1, 3));
    // ... and for ingress 0, paused for the same queue, whose headroom
    // emptied at the first release: the switch must resume it too.
    m.TakeResumes(2, 3, resumed);
    EXPECT_EQ(resumed, std::vector<uint32_t>{0});
    EXPECT_FALSE(m.IsXoff(0, 3));
}

TEST(SwitchMmuArithmetic, HeadroomIsReservedPerPortAndSharedByItsPriorities)
{
    SwitchMmu m;
    SwitchMmu::Config c;
    c.bufferBytes = 100000;
    c.headroomBytes = 1000;
    c.pfcStaticThreshold = 500;
    c.losslessMask = 0xFF;
    ASSERT_TRUE(m.Configure(c, 4));
    // 4 ports x 1000, not 4 x 8 priorities x 1000.
    EXPECT_EQ(m.GetSharedPoolBytes(), 96000u);
    auto r = m.Admit(0, 1, 3, 600); // 600 > T = 500: headroom, XOFF p3
    EXPECT_EQ(r.charge, SwitchMmu::Charge::HEADROOM);
    EXPECT_EQ(r.pfc, SwitchMmu::Pfc::XOFF);
    EXPECT_EQ(m.Admit(0, 1, 5, 300).charge, SwitchMmu::Charge::SHARED); // 300 <= 500
    r = m.Admit(0, 1, 5, 300); // 600 > 500: port 0's headroom, 600 + 300 <= 1000
    EXPECT_EQ(r.charge, SwitchMmu::Charge::HEADROOM);
    EXPECT_EQ(r.pfc, SwitchMmu::Pfc::XOFF);
    EXPECT_EQ(m.GetPortHeadroom(0), 900u);
    EXPECT_EQ(m.GetIngressHeadroom(0, 5), 300u);
    // shared(0,5) is still 300: 300 + 300 > T, and 900 + 300 > 1000: the
    // port's headroom is spent, whatever the priority.
    EXPECT_EQ(m.Admit(0, 1, 5, 300).charge, SwitchMmu::Charge::DROPPED);
    EXPECT_EQ(m.GetHeadroomDrops(), 1u);
    // Another port has its own.
    EXPECT_EQ(m.Admit(1, 0, 3, 600).charge, SwitchMmu::Charge::HEADROOM);
    // 40 ports x 512 KiB leave nothing of 12 MiB: refused.
    SwitchMmu big;
    SwitchMmu::Config b;
    b.bufferBytes = 12u * 1024 * 1024;
    b.headroomBytes = 512 * 1024;
    EXPECT_FALSE(big.Configure(b, 40));
    b.losslessMask = 0; // nothing lossless: nothing reserved
    EXPECT_TRUE(big.Configure(b, 40));
    EXPECT_EQ(big.GetSharedPoolBytes(), 12u * 1024 * 1024);
}

TEST(SwitchMmuArithmetic, XonWaitsForTheHysteresisBelowTheThreshold)
{
    SwitchMmu m = StaticThresholdMmu();
    for (int i = 0; i < 5; i++)
    {
        EXPECT_EQ(m.Admit(0, 1, 3, 1000).charge, SwitchMmu::Charge::SHARED); // 5000 <= 5000
    }
    auto r = m.Admit(0, 1, 3, 1000); // 6000 > 5000
    EXPECT_EQ(r.charge, SwitchMmu::Charge::HEADROOM);
    EXPECT_EQ(r.pfc, SwitchMmu::Pfc::XOFF);
    EXPECT_EQ(m.Release(0, 1, 3, 1000), SwitchMmu::Pfc::NONE);
    // shared 5000 -> 4000 -> 3000: 3000 + 2000 <= 5000 at the second release.
    EXPECT_EQ(m.Release(0, 1, 3, 1000), SwitchMmu::Pfc::NONE);
    EXPECT_EQ(m.Release(0, 1, 3, 1000), SwitchMmu::Pfc::XON);
}

TEST(SwitchMmuArithmetic, ReleaseTakesHeadroomFirstSoXonComesBeforeTheTailDrains)
{
    SwitchMmu m = StaticThresholdMmu();
    // 5 x 1000 to shared (5000 <= T), then 3 x 1000 to headroom (XOFF at the first).
    std::vector<SwitchMmu::Charge> charges;
    for (int i = 0; i < 8; i++)
    {
        charges.push_back(m.Admit(0, 1, 3, 1000).charge);
    }
    EXPECT_EQ(charges[4], SwitchMmu::Charge::SHARED);
    EXPECT_EQ(charges[5], SwitchMmu::Charge::HEADROOM);
    EXPECT_EQ(m.GetIngressHeadroom(0, 3), 3000u);
    EXPECT_EQ(m.GetSharedUsed(), 5000u);
    // The queue is FIFO: the 5 shared-charged packets leave first. Each
    // release comes off the headroom first: after 3 releases headroom is 0
    // and shared still 5000 (5000 + 2000 > 5000: XOFF holds); the 4th takes
    // shared to 4000 (6000 > 5000), the 5th to 3000 (3000 + 2000 <= 5000):
    // XON with 3 packets (3000 bytes) still queued, not after the last one.
    for (int i = 0; i < 4; i++)
    {
        EXPECT_EQ(m.Release(0, 1, 3, 1000), SwitchMmu::Pfc::NONE) << "release " << i;
    }
    EXPECT_EQ(m.GetIngressHeadroom(0, 3), 0u);
    EXPECT_EQ(m.GetPortHeadroom(0), 0u);
    EXPECT_EQ(m.GetIngressShared(0, 3), 4000u);
    EXPECT_EQ(m.GetSharedUsed(), 4000u);
    EXPECT_EQ(m.Release(0, 1, 3, 1000), SwitchMmu::Pfc::XON);
    EXPECT_EQ(m.GetEgressBytes(1, 3), 3000u);
    // The rest drains the shared counters exactly to zero.
    for (int i = 5; i < 8; i++)
    {
        EXPECT_EQ(m.Release(0, 1, 3, 1000), SwitchMmu::Pfc::NONE);
    }
    EXPECT_EQ(m.GetIngressShared(0, 3), 0u);
    EXPECT_EQ(m.GetSharedUsed(), 0u);
    EXPECT_EQ(m.GetEgressBytes(1, 3), 0u);
}

TEST_F(SwitchMmuTest, XoffWhenIngressPassesThresholdXonWhenItDrains)
{
    // H0 (100G) -> SW -> H1 (10G), static threshold 5000 B, XON offset 2148.
    // H0 sends 10 DATA packets back to back from t = 0: packet k (1-based)
    // reaches SW at 1000 + 87.52 k ns. The 10G egress starts packet k at
    // 1087.52 + 875.2 (k - 1) ns, and the MMU releases it then.
    //  - packet 1 leaves at once; 2..5 are charged to shared: 4 x 1074 = 4296;
    //  - packet 6 would make 5370 > 5000: headroom, XOFF at 1525.12 ns;
    //  - 7..10 also go to headroom (5 x 1074 = 5370 in headroom by 1875.2 ns);
    //  - every release comes off the headroom first: packets 2..6 (released
    //    at 1962.72 .. 5463.52 ns) empty it, shared stays 4296
    //    (4296 + 2148 > 5000); packet 7 takes shared to 3222 (5370 > 5000),
    //    packet 8 at 1087.52 + 7 x 875.2 = 7213.92 ns to 2148:
    //    2148 + 2148 <= 5000, XON then, with packets 9 and 10 still queued.
    // PAUSE/RESUME frames (84 line bytes = 6.72 ns at 100G) reach H0 at
    // 1525.12 + 6.72 + 1000 = 2531.84 ns and 7213.92 + 1006.72 = 8220.64 ns.
    Star st(
        {"100Gbps", "10Gbps"},
        {{"PfcStaticThreshold", "5000"}, {"XonOffsetBytes", "2148"}, {"HeadroomBytes", "100000"}});
    std::vector<PfcRecord> pfc;
    st.sw->TraceConnectWithoutContext("PfcEvent", MakeBoundCallback(&OnPfc, &pfc));
    std::vector<Time> pfcAtHost;
    st.H(0).dev->TraceConnectWithoutContext(
        "PfcRx", MakeCallback(+[](std::vector<Time>* v, uint8_t, uint16_t) {
                     v->push_back(Simulator::Now());
                 }).Bind(&pfcAtHost));
    for (int i = 0; i < 10; i++)
    {
        Simulator::Schedule(Time(0), &TestHost::Send, &st.H(0),
                            MakeData("10.0.0.1", "10.0.0.2", 1000, 1000), 3);
    }
    uint64_t shared = 0, headroom = 0;
    bool xoffMid = false;
    Simulator::Schedule(NanoSeconds(1900), [&]() {
        shared = st.sw->GetMmu().GetIngressShared(0, 3);
        headroom = st.sw->GetMmu().GetIngressHeadroom(0, 3);
        xoffMid = st.sw->GetMmu().IsXoff(0, 3);
    });
    Simulator::Run();
    EXPECT_EQ(shared, 4 * FRAME);
    EXPECT_EQ(headroom, 5 * FRAME);
    EXPECT_TRUE(xoffMid);
    ASSERT_EQ(pfc.size(), 2u);
    EXPECT_EQ(pfc[0].t, Ps(1525120));
    EXPECT_EQ(pfc[0].node, st.sw->GetId());
    EXPECT_EQ(pfc[0].port, 0u);
    EXPECT_EQ(pfc[0].prio, 3);
    EXPECT_TRUE(pfc[0].pause);
    EXPECT_EQ(pfc[1].t, Ps(7213920));
    EXPECT_EQ(pfc[1].port, 0u);
    EXPECT_FALSE(pfc[1].pause);
    ASSERT_EQ(pfcAtHost.size(), 2u);
    EXPECT_EQ(pfcAtHost[0], Ps(2531840));
    EXPECT_EQ(pfcAtHost[1], Ps(8220640));
    EXPECT_EQ(st.H(0).dev->GetPausesReceived(3), 1u);
    EXPECT_EQ(st.H(0).dev->GetResumesReceived(3), 1u);
    EXPECT_EQ(st.sw->GetPort(0)->GetPausesSent(3), 1u);
    EXPECT_EQ(st.sw->GetDrops(), 0u);
    ASSERT_EQ(st.H(1).rx.size(), 10u);
    // last packet: leaves SW at 8964.32 ns, 875.2 ns on the wire, 1 us delay
    EXPECT_EQ(st.H(1).rx[9].t, Ps(8964320 + 875200 + 1000000));
    EXPECT_FALSE(st.sw->GetMmu().IsXoff(0, 3));
    EXPECT_EQ(st.sw->GetMmu().GetSharedUsed(), 0u);
}

TEST_F(SwitchMmuTest, PauseIsRefreshedWhileXoffLasts)
{
    // PauseQuanta 100 at 100G lasts 512 ns; the switch re-sends it every
    // 256 ns while XOFF. Same traffic as above: XOFF from 1525.12 ns to
    // 7213.92 ns, refreshes at 1525.12 + 256 k ns for k = 1..22
    // (1525.12 + 22 x 256 = 7157.12 < 7213.92 < 1525.12 + 23 x 256).
    Star st({"100Gbps", "10Gbps"}, {{"PfcStaticThreshold", "5000"},
                                    {"XonOffsetBytes", "2148"},
                                    {"HeadroomBytes", "100000"},
                                    {"PauseQuanta", "100"}});
    for (int i = 0; i < 10; i++)
    {
        Simulator::Schedule(Time(0), &TestHost::Send, &st.H(0),
                            MakeData("10.0.0.1", "10.0.0.2", 1000, 1000), 3);
    }
    Simulator::Run();
    EXPECT_EQ(st.sw->GetPort(0)->GetPausesSent(3), 23u);
    EXPECT_EQ(st.sw->GetPort(0)->GetResumesSent(3), 1u);
    EXPECT_EQ(st.H(1).rx.size(), 10u);
}

TEST_F(SwitchMmuTest, LossyQueueDropsAtTheLimitAndCounts)
{
    // All priorities lossy, queue limit 3 frames (3222 B). Same arrivals:
    // packet 1 leaves at once, 2..4 fill the queue to 3222 B, 5..10 arrive
    // before the first departure at 1962.72 ns and are dropped: 6 drops.
    Star st({"100Gbps", "10Gbps"}, {{"LosslessPriorities", "0"}, {"LossyQueueLimit", "3222"}});
    uint32_t drops = 0;
    st.sw->TraceConnectWithoutContext(
        "Drop", MakeCallback(+[](uint32_t* n, Ptr<const Packet>, uint32_t, uint32_t, uint8_t) {
                    (*n)++;
                }).Bind(&drops));
    for (int i = 0; i < 10; i++)
    {
        Simulator::Schedule(Time(0), &TestHost::Send, &st.H(0),
                            MakeData("10.0.0.1", "10.0.0.2", 1000, 1000), 3);
    }
    Simulator::Run();
    EXPECT_EQ(st.sw->GetMmu().GetLossyDrops(), 6u);
    EXPECT_EQ(st.sw->GetDrops(), 6u);
    EXPECT_EQ(drops, 6u);
    EXPECT_EQ(st.H(1).rx.size(), 4u);
    EXPECT_EQ(st.sw->GetPort(0)->GetPausesSent(3), 0u);
}

TEST_F(SwitchMmuTest, QueueBytesTraceFollowsEnqueueAndDequeue)
{
    // Three packets into the 10G port: +1074 -1074 (packet 1 leaves at once),
    // then +1074 +1074, then -1074 -1074 as they leave.
    Star st({"100Gbps", "10Gbps"});
    std::vector<uint64_t> q;
    st.sw->TraceConnectWithoutContext(
        "QueueBytes",
        MakeCallback(+[](std::vector<uint64_t>* v, uint32_t port, uint8_t prio, uint64_t bytes) {
            if (port == 1 && prio == 3)
            {
                v->push_back(bytes);
            }
        }).Bind(&q));
    for (int i = 0; i < 3; i++)
    {
        Simulator::Schedule(Time(0), &TestHost::Send, &st.H(0),
                            MakeData("10.0.0.1", "10.0.0.2", 1000, 1000), 3);
    }
    Simulator::Run();
    std::vector<uint64_t> want = {FRAME, 0, FRAME, 2 * FRAME, FRAME, 0};
    EXPECT_EQ(q, want);
}
