// SPDX-License-Identifier: GPL-2.0-only
//
// A congestion point with a timer (libcc_cp_deadline_ns; RoCC's switch
// update every T = 40 us): the switch runs it from its start and sends
// one feedback frame per flow queued per period, to each flow's source.
// Frames: 1000-byte payloads are 1074 frame bytes (what queues count) and
// 1094 line bytes: 87.52 ns at 100 Gbit/s, 875.2 ns at 10 Gbit/s.
#include "test_qbb_util.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace qbbtest;

namespace
{

class SwitchCpTimerTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

struct Fb
{
    Time t;
    RocePacketInfo info;
};

std::vector<Fb>
FeedbackOf(const std::vector<TestHost::Rx>& rx)
{
    std::vector<Fb> v;
    for (const auto& r : rx)
    {
        RocePacketInfo i;
        EXPECT_TRUE(RoceParse(r.packet, i));
        if (i.type == RocePktType::FEEDBACK)
        {
            v.push_back({r.t, i});
        }
    }
    return v;
}

/// Hosts 0..2 (100G) each send 40 frames at time 0 to host 3 (10G).
void
ThreeSenders(Star& st)
{
    for (int h = 0; h < 3; h++)
    {
        std::string src = "10.0.0." + std::to_string(h + 1);
        for (int i = 0; i < 40; i++)
        {
            Simulator::Schedule(Time(0), &TestHost::Send, &st.H(h),
                                MakeData(src.c_str(), "10.0.0.4", 1000 + h, 1000), 3);
        }
    }
}

} // namespace

// 120 frames reach the switch by 1 us + 40 x 87.52 ns = 4.5 us, three flows
// interleaved; the 10G egress starts one every 875.2 ns from 1087.52 ns.
// Ticks at 0, 40, 80, 120 us:
//  - 0 us: empty queue, no flow: nothing.
//  - 40 us: 45 frames started (1087.52 + 44 x 875.2 = 39596.3 ns), 75 x 1074
//    = 80550 B queued = 134 units of 600 B, grown 134 >= q_mid (100) from 0
//    with F = C = 1000 units (10 Mbit/s) > C/8: F = 500, 5 Gbit/s, to each
//    of the three flows (each has about 25 frames left).
//  - 80 us: 91 started (89.16 periods after the first), 29 x 1074 = 31146 B
//    = 51 units, q_old 134: PI with ratio 1 (F = 500 is not below
//    1000/2): 500 - 0.3 (51 - 200) - 1.5 (51 - 134) = 669.2 -> 6.69 Gbit/s,
//    again to each of the three (the last ~10 frames of each).
//  - 120 us: the last frame started at 1087.52 + 119 x 875.2 = 105236 ns:
//    nothing queued, nothing sent.
// So 6 feedback frames: two per source, one per period each.
TEST_F(SwitchCpTimerTest, RoccFeedbackPerFlowPerPeriod)
{
    Star st({"100Gbps", "100Gbps", "100Gbps", "10Gbps"});
    st.sw->SetCongestionControl("rocc", "");
    ThreeSenders(st);
    Simulator::Stop(MicroSeconds(200));
    Simulator::Run();
    EXPECT_EQ(st.H(3).rx.size(), 120u);
    EXPECT_EQ(st.sw->GetFeedbackSent(), 6u);
    for (int h = 0; h < 3; h++)
    {
        std::vector<Fb> fb = FeedbackOf(st.H(h).rx);
        ASSERT_EQ(fb.size(), 2u) << "host " << h;
        // Sent at the tick on an idle 100G port: 40 us (80 us) plus its
        // serialization and the 1 us link.
        EXPECT_GT(fb[0].t, MicroSeconds(41));
        EXPECT_LT(fb[0].t, MicroSeconds(42));
        EXPECT_GT(fb[1].t, MicroSeconds(81));
        EXPECT_LT(fb[1].t, MicroSeconds(82));
        EXPECT_EQ(fb[0].info.fbRateBps, 5000000000ull);
        EXPECT_EQ(fb[1].info.fbRateBps, 6690000000ull);
        EXPECT_EQ(fb[0].info.fbSwitchId, st.sw->GetId());
        EXPECT_EQ(fb[0].info.fbPortId, 3u);
        // Addressed as the flow's ACKs: from the receiver, to the source.
        EXPECT_EQ(Ipv4Address(fb[0].info.dst), Star::Addr(h));
        EXPECT_EQ(Ipv4Address(fb[0].info.src), Star::Addr(3));
        EXPECT_EQ(fb[0].info.sport, 1000 + h);
    }
}

// A CP without a timer (DCQCN): no deadline, the switch schedules nothing
// and sends no feedback, the same frames pass.
TEST_F(SwitchCpTimerTest, NoTimerWithoutADeadline)
{
    Star st({"100Gbps", "100Gbps", "100Gbps", "10Gbps"});
    st.sw->SetCongestionControl("dcqcn", "");
    std::string err;
    ASSERT_TRUE(st.sw->CheckCongestionControl(err)) << err;
    EXPECT_EQ(libcc_cp_deadline_ns(st.sw->GetCp(3)), LIBCC_NO_DEADLINE);
    ThreeSenders(st);
    Simulator::Stop(MicroSeconds(200));
    Simulator::Run();
    EXPECT_EQ(st.H(3).rx.size(), 120u);
    EXPECT_EQ(st.sw->GetFeedbackSent(), 0u);
}

// Building the CPs again (a second CheckCongestionControl) re-arms the
// timers instead of adding a second chain: still one message per flow per
// period.
TEST_F(SwitchCpTimerTest, RebuildKeepsOneTimerPerPort)
{
    Star st({"100Gbps", "100Gbps", "100Gbps", "10Gbps"});
    st.sw->SetCongestionControl("rocc", "");
    std::string err;
    ASSERT_TRUE(st.sw->CheckCongestionControl(err)) << err;
    ASSERT_TRUE(st.sw->CheckCongestionControl(err)) << err;
    EXPECT_EQ(libcc_cp_deadline_ns(st.sw->GetCp(3)), 0u);
    ThreeSenders(st);
    Simulator::Stop(MicroSeconds(200));
    Simulator::Run();
    EXPECT_EQ(st.sw->GetFeedbackSent(), 6u);
}
