// SPDX-License-Identifier: GPL-2.0-only
//
// QbbNetDevice / QbbChannel physics. Every expected time is derived by hand
// from the documented framing: an IPv4 packet of L bytes occupies the line
// for max(14 + L + 4, 64) + 20 bytes at the link rate, and arrives (last bit)
// that long plus the channel delay after it started.
#include "pfc-header.h"
#include "test_qbb_util.h"

#include "ns3/ipv4-header.h"

#include <cstdio>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace ns3;
using namespace qbbtest;

namespace
{

struct Link
{
    Ptr<Node> a;
    Ptr<Node> b;
    Ptr<QbbNetDevice> da;
    Ptr<QbbNetDevice> db;
    TestHost ha;
    TestHost hb;

    Link(const char* rate, Time delay)
    {
        a = CreateObject<Node>();
        b = CreateObject<Node>();
        QbbHelper h;
        h.SetDeviceAttribute("DataRate", DataRateValue(DataRate(rate)));
        h.SetChannelAttribute("Delay", TimeValue(delay));
        NetDeviceContainer c = h.Install(a, b);
        da = DynamicCast<QbbNetDevice>(c.Get(0));
        db = DynamicCast<QbbNetDevice>(c.Get(1));
        ha.Attach(da);
        hb.Attach(db);
    }
};

class QbbLinkTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

// DATA with 1000 payload bytes: IPv4 20 + UDP 8 + BTH 12 + RETH 16 + 1000 = 1056 B.
// Frame 14 + 1056 + 4 = 1074, line 1074 + 20 = 1094 B = 8752 bits.
// At 100 Gbps a bit is 10 ps: 87 520 ps.
constexpr int64_t DATA1000_PS_100G = 87520;

} // namespace

TEST_F(QbbLinkTest, WireBytesFollowTheDocumentedFraming)
{
    EXPECT_EQ(QbbNetDevice::WireBytes(1056), 1094u);
    // 30-byte IP packet: frame 48 B is padded to 64, plus 20 = 84.
    EXPECT_EQ(QbbNetDevice::WireBytes(30), 84u);
    // Exactly 64: 14 + 46 + 4.
    EXPECT_EQ(QbbNetDevice::WireBytes(46), 84u);
    EXPECT_EQ(QbbNetDevice::WireBytes(47), 85u);
    EXPECT_EQ(QbbNetDevice::PAUSE_WIRE_BYTES, 84u);
}

TEST_F(QbbLinkTest, PacketArrivesAfterSerializationPlusDelay)
{
    Link l("100Gbps", MicroSeconds(1));
    Ptr<Packet> p = MakeData("10.0.0.1", "10.0.0.2", 1000, 1000);
    ASSERT_EQ(p->GetSize(), 1056u);
    Simulator::Schedule(Time(0), &TestHost::Send, &l.ha, p, 3);
    Simulator::Schedule(Time(0), &TestHost::Send, &l.ha,
                        MakeData("10.0.0.1", "10.0.0.2", 1000, 1000), 3);
    Simulator::Run();
    ASSERT_EQ(l.hb.rx.size(), 2u);
    // first: 87.52 ns + 1 us; second back-to-back: 2 x 87.52 ns + 1 us
    EXPECT_EQ(l.hb.rx[0].t, Ps(DATA1000_PS_100G + 1000000));
    EXPECT_EQ(l.hb.rx[1].t, Ps(2 * DATA1000_PS_100G + 1000000));
    // Ethernet framing is removed: the host gets the IPv4 packet back.
    EXPECT_EQ(l.hb.rx[0].packet->GetSize(), 1056u);
    RocePacketInfo info;
    ASSERT_TRUE(RoceParse(l.hb.rx[0].packet, info));
    EXPECT_EQ(info.payloadBytes, 1000u);
    EXPECT_EQ(l.da->GetTxBytes(), 2u * 1094u);
    EXPECT_EQ(l.db->GetRxBytes(), 2u * 1094u);
    EXPECT_EQ(l.da->GetTxPackets(), 2u);
}

TEST_F(QbbLinkTest, SmallFrameIsPaddedOnTheWireAt25G)
{
    Link l("25Gbps", NanoSeconds(500));
    // A 30-byte IPv4 packet (20 header + 10 payload): 84 line bytes = 672 bits,
    // 40 ps per bit at 25 Gbps = 26 880 ps.
    Ptr<Packet> p = Create<Packet>(10);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.0.0.1"));
    ip.SetDestination(Ipv4Address("10.0.0.2"));
    ip.SetPayloadSize(10);
    ip.SetProtocol(17);
    p->AddHeader(ip);
    Simulator::Schedule(Time(0), &TestHost::Send, &l.ha, p, 0);
    Simulator::Run();
    ASSERT_EQ(l.hb.rx.size(), 1u);
    EXPECT_EQ(l.hb.rx[0].t, Ps(26880 + 500000));
}

TEST_F(QbbLinkTest, BackToBackFramesKeepTheExactRateAtNanosecondSteps)
{
    // LineTime rounds down one frame; StartFrame carries the remainder so
    // that n frames take exactly n x 87.52 ns. Here check the helper directly.
    Link l("100Gbps", MicroSeconds(1));
    EXPECT_EQ(l.da->LineTime(1094), Ps(DATA1000_PS_100G));
    // 512 bit times of 100 quanta: 51 200 bits x 10 ps = 512 ns.
    EXPECT_EQ(l.da->BitTime(100 * 512), NanoSeconds(512));
}

TEST_F(QbbLinkTest, LineEndIsAnEventOnlyWithSomethingBehindTheFrame)
{
    // 1094 line bytes = 87.52 ns per DATA frame at 100 Gbps, delay 1 us.
    // t = 0: three frames queued. Frames 1 and 2 start with something behind
    // them (their end is an event), frame 3 with nothing (no event): 2 events.
    // Starts 0, 87.52, 175.04 ns; arrivals + 87.52 ns + 1 us.
    // t = 300 ns: the line has been idle since 262.56 ns, frame 4 starts at
    // once (no event: nothing behind it). It ends at 387.52 ns.
    // t = 330 ns: frame 5 is queued while frame 4 is on the line: its end
    // becomes an event then (the 3rd), and frame 5 starts exactly at
    // 387.52 ns, arriving at 475.04 ns + 1 us.
    Link l("100Gbps", MicroSeconds(1));
    for (int i = 0; i < 3; i++)
    {
        Simulator::Schedule(Time(0), &TestHost::Send, &l.ha,
                            MakeData("10.0.0.1", "10.0.0.2", 1000, 1000), 3);
    }
    Simulator::Schedule(NanoSeconds(300), &TestHost::Send, &l.ha,
                        MakeData("10.0.0.1", "10.0.0.2", 1000, 1000), 3);
    Simulator::Schedule(NanoSeconds(330), &TestHost::Send, &l.ha,
                        MakeData("10.0.0.1", "10.0.0.2", 1000, 1000), 3);
    uint64_t eventsAt290 = 0;
    bool busyAt330 = false;
    bool busyAt500 = true;
    Simulator::Schedule(NanoSeconds(290), [&]() { eventsAt290 = l.da->GetTxDoneEvents(); });
    Simulator::Schedule(NanoSeconds(330), [&]() { busyAt330 = l.da->IsBusy(); });
    Simulator::Schedule(NanoSeconds(500), [&]() { busyAt500 = l.da->IsBusy(); });
    Simulator::Run();
    EXPECT_EQ(eventsAt290, 2u);
    EXPECT_EQ(l.da->GetTxDoneEvents(), 3u);
    EXPECT_TRUE(busyAt330);
    EXPECT_FALSE(busyAt500);
    ASSERT_EQ(l.hb.rx.size(), 5u);
    const int64_t f = DATA1000_PS_100G;
    const int64_t d = 1000000;
    EXPECT_EQ(l.hb.rx[0].t, Ps(f + d));
    EXPECT_EQ(l.hb.rx[1].t, Ps(2 * f + d));
    EXPECT_EQ(l.hb.rx[2].t, Ps(3 * f + d));
    EXPECT_EQ(l.hb.rx[3].t, Ps(300000 + f + d));
    EXPECT_EQ(l.hb.rx[4].t, Ps(300000 + 2 * f + d));
    EXPECT_EQ(l.da->GetTxPackets(), 5u);
}

TEST_F(QbbLinkTest, DisposedDeviceGetsNoTransmitComplete)
{
    // Three frames at t = 0: frame 1 is on the line until 87.52 ns with
    // frames behind it, so its end is a pending event. The device is disposed
    // at 50 ns: when that event fires, the device (kept alive by its channel,
    // which ns-3's ChannelList keeps) has no source and no channel and must
    // start nothing. Frame 1 is on the wire and arrives at 87.52 ns + 1 us;
    // frames 2 and 3 never start.
    Link l("100Gbps", MicroSeconds(1));
    for (int i = 0; i < 3; i++)
    {
        Simulator::Schedule(Time(0), &TestHost::Send, &l.ha,
                            MakeData("10.0.0.1", "10.0.0.2", 1000, 1000), 3);
    }
    Simulator::Schedule(NanoSeconds(50), [&]() { l.da->Dispose(); });
    Simulator::Run();
    ASSERT_EQ(l.hb.rx.size(), 1u);
    EXPECT_EQ(l.hb.rx[0].t, Ps(DATA1000_PS_100G + 1000000));
    EXPECT_EQ(l.da->GetTxPackets(), 1u);
}

TEST_F(QbbLinkTest, PauseHoldsOnlyItsPriorityForQuantaTimes512BitTimes)
{
    Link l("100Gbps", MicroSeconds(1));
    // B pauses A's priority 3 for 100 quanta at t = 0. The PAUSE frame (84 B,
    // 6.72 ns) reaches A at 6.72 ns + 1 us = 1 006 720 ps; 100 x 512 bits at
    // 100 Gbps = 512 ns: A's p3 is paused until 1 518 720 ps.
    Simulator::Schedule(Time(0), &QbbNetDevice::SendPfc, l.db, 3, 100);
    // At 1.1 us A gets one packet on p3 and one on p1.
    Simulator::Schedule(NanoSeconds(1100), &TestHost::Send, &l.ha,
                        MakeData("10.0.0.1", "10.0.0.2", 1000, 1000, 3), 3);
    Simulator::Schedule(NanoSeconds(1100), &TestHost::Send, &l.ha,
                        MakeData("10.0.0.1", "10.0.0.2", 1001, 1000, 1), 1);
    bool paused3 = false, paused1 = true, paused3After = true;
    Simulator::Schedule(NanoSeconds(1500), [&]() {
        paused3 = l.da->IsPaused(3);
        paused1 = l.da->IsPaused(1);
    });
    Simulator::Schedule(Ps(1518720), [&]() { paused3After = l.da->IsPaused(3); });
    Simulator::Run();
    EXPECT_TRUE(paused3);
    EXPECT_FALSE(paused1);
    EXPECT_FALSE(paused3After); // the pause ends exactly at 1 518 720 ps
    ASSERT_EQ(l.hb.rx.size(), 2u);
    // p1 is not paused: starts at 1.1 us, arrives 1100 + 87.52 + 1000 ns.
    EXPECT_EQ(l.hb.rx[0].t, Ps(1100000 + DATA1000_PS_100G + 1000000));
    // p3 waits for the pause to end at 1 518 720 ps.
    EXPECT_EQ(l.hb.rx[1].t, Ps(1518720 + DATA1000_PS_100G + 1000000));
    EXPECT_EQ(l.db->GetPausesSent(3), 1u);
    EXPECT_EQ(l.da->GetPausesReceived(3), 1u);
    EXPECT_EQ(l.da->GetPausesReceived(1), 0u);
    EXPECT_EQ(l.da->GetPausedUntil(3), Ps(1518720));
}

TEST_F(QbbLinkTest, PauseDurationScalesWithThisLinksRate)
{
    // Same 100 quanta on a 25 Gbps link: 51 200 bits x 40 ps = 2 048 ns.
    // PAUSE frame: 672 bits x 40 ps = 26.88 ns; arrives 26 880 + 1 000 000 ps.
    Link l("25Gbps", MicroSeconds(1));
    Simulator::Schedule(Time(0), &QbbNetDevice::SendPfc, l.db, 5, 100);
    Simulator::Run();
    EXPECT_EQ(l.da->GetPausedUntil(5), Ps(26880 + 1000000 + 2048000));
}

TEST_F(QbbLinkTest, ResumeRestartsAPausedPriorityAtOnce)
{
    Link l("100Gbps", MicroSeconds(1));
    std::vector<std::pair<uint8_t, uint16_t>> rxPfc;
    l.da->TraceConnectWithoutContext(
        "PfcRx",
        MakeCallback(+[](std::vector<std::pair<uint8_t, uint16_t>>* v, uint8_t p, uint16_t q) {
            v->push_back({p, q});
        }).Bind(&rxPfc));
    // Pause for the maximum (65535 quanta = 335.5 us), resume at 2 us.
    Simulator::Schedule(Time(0), &QbbNetDevice::SendPfc, l.db, 3, 0xFFFF);
    Simulator::Schedule(NanoSeconds(1100), &TestHost::Send, &l.ha,
                        MakeData("10.0.0.1", "10.0.0.2", 1000, 1000, 3), 3);
    Simulator::Schedule(NanoSeconds(2000), &QbbNetDevice::SendPfc, l.db, 3, 0);
    Simulator::Run();
    // RESUME reaches A at 2000 + 6.72 + 1000 ns = 3 006 720 ps; p3 starts then.
    ASSERT_EQ(l.hb.rx.size(), 1u);
    EXPECT_EQ(l.hb.rx[0].t, Ps(3006720 + DATA1000_PS_100G + 1000000));
    ASSERT_EQ(rxPfc.size(), 2u);
    EXPECT_EQ(rxPfc[0], std::make_pair(uint8_t(3), uint16_t(0xFFFF)));
    EXPECT_EQ(rxPfc[1], std::make_pair(uint8_t(3), uint16_t(0)));
    EXPECT_EQ(l.da->GetResumesReceived(3), 1u);
    EXPECT_EQ(l.db->GetResumesSent(3), 1u);
}

TEST_F(QbbLinkTest, PauseFrameGoesAheadOfQueuedDataButAfterTheCurrentFrame)
{
    Link l("100Gbps", MicroSeconds(1));
    std::vector<Time> pfcAt;
    l.db->TraceConnectWithoutContext("PfcRx",
                                     MakeCallback(+[](std::vector<Time>* v, uint8_t, uint16_t) {
                                         v->push_back(Simulator::Now());
                                     }).Bind(&pfcAt));
    // A queues three data packets on p1 at t = 0, then asks for a PAUSE of
    // B's p2 (the frame on the wire is not preempted).
    for (int i = 0; i < 3; i++)
    {
        Simulator::Schedule(Time(0), &TestHost::Send, &l.ha,
                            MakeData("10.0.0.1", "10.0.0.2", 1000, 1000, 1), 1);
    }
    Simulator::Schedule(Time(0), &QbbNetDevice::SendPfc, l.da, 2, 10);
    Simulator::Run();
    ASSERT_EQ(l.hb.rx.size(), 3u);
    // data1 [0, 87.52], PAUSE [87.52, 94.24], data2 [94.24, 181.76], data3 after.
    EXPECT_EQ(l.hb.rx[0].t, Ps(87520 + 1000000));
    ASSERT_EQ(pfcAt.size(), 1u);
    EXPECT_EQ(pfcAt[0], Ps(87520 + 6720 + 1000000));
    EXPECT_EQ(l.hb.rx[1].t, Ps(87520 + 6720 + 87520 + 1000000));
    EXPECT_EQ(l.hb.rx[2].t, Ps(87520 + 6720 + 2 * 87520 + 1000000));
    EXPECT_EQ(l.da->GetTxBytes(), 3u * 1094u + 84u);
}

TEST_F(QbbLinkTest, PfcFrameSerializesTo802_1QbbLayout)
{
    PfcPauseHeader h;
    h.SetQuanta(3, 0x1234);
    h.SetQuanta(6, 0);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    // 2 opcode + 2 vector + 16 quanta + 26 padding = 46: with the 14-byte
    // header and 4-byte FCS the frame is the 64-byte minimum.
    ASSERT_EQ(p->GetSize(), 46u);
    uint8_t b[46];
    p->CopyData(b, 46);
    EXPECT_EQ(b[0], 0x01);
    EXPECT_EQ(b[1], 0x01); // opcode 0x0101
    EXPECT_EQ(b[2], 0x00);
    EXPECT_EQ(b[3], 0x48); // bits 3 and 6
    EXPECT_EQ(b[4 + 2 * 3], 0x12);
    EXPECT_EQ(b[4 + 2 * 3 + 1], 0x34);
    EXPECT_EQ(b[4 + 2 * 6], 0x00);
    PfcPauseHeader r;
    p->RemoveHeader(r);
    EXPECT_TRUE(r.IsEnabled(3));
    EXPECT_TRUE(r.IsEnabled(6));
    EXPECT_FALSE(r.IsEnabled(0));
    EXPECT_EQ(r.GetQuanta(3), 0x1234);
    // Out-of-range priorities are ignored, not written past the array.
    PfcPauseHeader bad;
    bad.SetQuanta(8, 5);
    EXPECT_EQ(bad.GetEnableVector(), 0u);
}

TEST_F(QbbLinkTest, PcapIsEthernetAndHoldsEveryFrame)
{
    const std::string file = "/tmp/libcc-gtest-qbb-" + std::to_string(getpid()) + ".pcap";
    {
        Link l("100Gbps", MicroSeconds(1));
        l.da->EnablePcap(file);
        Simulator::Schedule(Time(0), &TestHost::Send, &l.ha,
                            MakeData("10.0.0.1", "10.0.0.2", 1000, 1000), 3);
        Simulator::Schedule(Time(0), &QbbNetDevice::SendPfc, l.db, 3, 1);
        Simulator::Run();
        Simulator::Destroy();
    }
    FILE* f = std::fopen(file.c_str(), "rb");
    ASSERT_NE(f, nullptr);
    uint8_t g[24];
    ASSERT_EQ(std::fread(g, 1, 24, f), 24u);
    uint32_t linktype = g[20] | (g[21] << 8) | (g[22] << 16) | (uint32_t(g[23]) << 24);
    EXPECT_EQ(linktype, 1u); // DLT_EN10MB, little-endian host
    // Record 1: the data frame without FCS, 14 + 1056 = 1070 bytes.
    uint8_t rh[16];
    ASSERT_EQ(std::fread(rh, 1, 16, f), 16u);
    uint32_t incl = rh[8] | (rh[9] << 8) | (rh[10] << 16) | (uint32_t(rh[11]) << 24);
    EXPECT_EQ(incl, 1070u);
    std::vector<uint8_t> frame(incl);
    ASSERT_EQ(std::fread(frame.data(), 1, incl, f), incl);
    EXPECT_EQ(frame[12], 0x08);
    EXPECT_EQ(frame[13], 0x00); // IPv4
    // Record 2: the received PAUSE: 14 + 46 = 60 bytes, EtherType 0x8808.
    ASSERT_EQ(std::fread(rh, 1, 16, f), 16u);
    incl = rh[8] | (rh[9] << 8) | (rh[10] << 16) | (uint32_t(rh[11]) << 24);
    EXPECT_EQ(incl, 60u);
    frame.resize(incl);
    ASSERT_EQ(std::fread(frame.data(), 1, incl, f), incl);
    EXPECT_EQ(frame[0], 0x01);
    EXPECT_EQ(frame[5], 0x01); // 01:80:c2:00:00:01
    EXPECT_EQ(frame[12], 0x88);
    EXPECT_EQ(frame[13], 0x08);
    std::fclose(f);
    std::remove(file.c_str());
}
