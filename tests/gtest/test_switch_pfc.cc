// SPDX-License-Identifier: GPL-2.0-only
//
// The switch's egress scheduler honours PFC per priority and shares the line
// round-robin among data priorities. Times from the documented framing:
// a 1056-byte DATA packet is 1094 line bytes (87.52 ns at 100G, 875.2 ns at
// 10G), a PAUSE frame 84 line bytes (6.72 ns at 100G); every link 1 us.
#include "test_qbb_util.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace qbbtest;

namespace
{

class SwitchPfcTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

uint8_t
PrioOf(Ptr<Packet> p)
{
    RocePacketInfo i;
    EXPECT_TRUE(RoceParse(p, i));
    return i.prio;
}

} // namespace

TEST_F(SwitchPfcTest, PausedPriorityWaitsOthersFlow)
{
    // H1 pauses the switch's priority 3 at t = 0 (reaches SW at 1006.72 ns)
    // and resumes it at 5 us (reaches SW at 6006.72 ns). At 1.1 us H0 sends
    // one p3 and one p1 packet (p3 first): they reach SW at 2187.52 and
    // 2275.04 ns. p1 goes on at once: at H1 at 2275.04 + 87.52 + 1000 =
    // 3362.56 ns. p3 waits for the RESUME: at H1 at 6006.72 + 1087.52 =
    // 7094.24 ns.
    Star st({"100Gbps", "100Gbps"});
    Simulator::Schedule(Time(0), &QbbNetDevice::SendPfc, st.H(1).dev, 3, 0xFFFF);
    Simulator::Schedule(NanoSeconds(1100), &TestHost::Send, &st.H(0),
                        MakeData("10.0.0.1", "10.0.0.2", 1000, 1000, 3), 3);
    Simulator::Schedule(NanoSeconds(1100), &TestHost::Send, &st.H(0),
                        MakeData("10.0.0.1", "10.0.0.2", 1001, 1000, 1), 1);
    uint64_t q3 = 0;
    Simulator::Schedule(NanoSeconds(4000), [&]() { q3 = st.sw->GetQueueBytes(1, 3); });
    Simulator::Schedule(NanoSeconds(5000), &QbbNetDevice::SendPfc, st.H(1).dev, 3, 0);
    Simulator::Run();
    EXPECT_EQ(q3, 1074u); // the p3 frame waited in the switch
    auto& rx = st.H(1).rx;
    ASSERT_EQ(rx.size(), 2u);
    EXPECT_EQ(PrioOf(rx[0].packet), 1);
    EXPECT_EQ(rx[0].t, Ps(3362560));
    EXPECT_EQ(PrioOf(rx[1].packet), 3);
    EXPECT_EQ(rx[1].t, Ps(7094240));
    EXPECT_EQ(st.sw->GetPort(1)->GetPausesReceived(3), 1u);
    EXPECT_EQ(st.sw->GetPort(1)->GetResumesReceived(3), 1u);
}

TEST_F(SwitchPfcTest, DataPrioritiesShareTheLineRoundRobin)
{
    // H0 (100G) sends two p2 then two p1 packets (its own strict priority);
    // the SW -> H1 port is 10G. The first p2 leaves at once; then p2, p1, p1
    // wait and the round-robin pointer (after 2) visits 3..7, 0, 1 first:
    // p1, then p2, then p1. Order at H1: 2, 1, 2, 1.
    Star st({"100Gbps", "10Gbps"});
    for (uint8_t p : {2, 2, 1, 1})
    {
        Simulator::Schedule(Time(0), &TestHost::Send, &st.H(0),
                            MakeData("10.0.0.1", "10.0.0.2", 1000, 1000, p), p);
    }
    Simulator::Run();
    auto& rx = st.H(1).rx;
    ASSERT_EQ(rx.size(), 4u);
    std::vector<uint8_t> got;
    for (const auto& r : rx)
    {
        got.push_back(PrioOf(r.packet));
    }
    EXPECT_EQ(got, (std::vector<uint8_t>{2, 1, 2, 1}));
}
