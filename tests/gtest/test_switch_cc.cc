// SPDX-License-Identifier: GPL-2.0-only
//
// The switch's libcc Congestion Points: DCQCN ECN marking, HPCC INT stamps
// at dequeue, FNCC All_INT_Table records on ACKs, and bad configurations.
// Queue lengths are frame bytes (14 + IP + 4); tx bytes are line bytes
// (frame + 20, at least 84); INT hops use libcc's wire units.
#include "test_qbb_util.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace qbbtest;

namespace
{

class SwitchCcTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

std::vector<uint8_t>
EcnOf(const std::vector<TestHost::Rx>& rx)
{
    std::vector<uint8_t> v;
    for (const auto& r : rx)
    {
        RocePacketInfo i;
        EXPECT_TRUE(RoceParse(r.packet, i));
        v.push_back(i.ecn);
    }
    return v;
}

void
SendTen(Star& st)
{
    for (int i = 0; i < 10; i++)
    {
        Simulator::Schedule(Time(0), &TestHost::Send, &st.H(0),
                            MakeData("10.0.0.1", "10.0.0.2", 1000, 1000), 3);
    }
}

/// A 1000-byte DATA frame from host 0 to host 1 that is not ECN-capable.
Ptr<Packet>
NonEctData(uint8_t prio)
{
    RocePacketInfo d;
    d.type = RocePktType::DATA;
    d.src = Star::Addr(0);
    d.dst = Star::Addr(1);
    d.prio = prio;
    d.payloadBytes = 1000;
    d.ecn = ROCE_ECN_NOT_ECT;
    return RoceBuild(d);
}

constexpr uint8_t CE = ROCE_ECN_CE;
constexpr uint8_t E0 = ROCE_ECN_ECT0;

} // namespace

TEST_F(SwitchCcTest, DcqcnMarksAtDequeueAboveKmax)
{
    // H0 (100G) -> SW -> H1 (10G), ten 1074-byte frames arrive by 1875.2 ns;
    // the first departure after packet 1 is at 1962.72 ns, so packet k
    // (k >= 2) leaves with 10 - k frames behind it: 8592, 7518, 6444, 5370,
    // 4296 ... bytes. Kmin = Kmax = 5000 B is a step: packets 2..5 are marked.
    Star st({"100Gbps", "10Gbps"});
    st.sw->SetCongestionControl("dcqcn", "kmin=5000B,kmax=5000B,pmax=1");
    SendTen(st);
    Simulator::Run();
    std::vector<uint8_t> want = {E0, CE, CE, CE, CE, E0, E0, E0, E0, E0};
    EXPECT_EQ(EcnOf(st.H(1).rx), want);
    EXPECT_EQ(st.sw->GetEcnMarks(), 4u);
}

TEST_F(SwitchCcTest, DcqcnMarksAtEnqueueWithTheQueueBeforeThePacket)
{
    // Marking at enqueue sees the queue before the packet joins: packet k
    // (k >= 2) finds k - 2 frames (packet 1 already left): packet 7 finds
    // 5 x 1074 = 5370 > 5000, packet 6 finds 4296. Packets 7..10 marked.
    Star st({"100Gbps", "10Gbps"});
    st.sw->SetCongestionControl("dcqcn", "kmin=5000B,kmax=5000B,pmax=1,ecn_mark_at_dequeue=0");
    SendTen(st);
    Simulator::Run();
    std::vector<uint8_t> want = {E0, E0, E0, E0, E0, E0, CE, CE, CE, CE};
    EXPECT_EQ(EcnOf(st.H(1).rx), want);
}

TEST_F(SwitchCcTest, DcqcnMarksOnThePacketsPriorityQueueNotThePort)
{
    // H0 (100G) -> SW -> H1 (10G): eight non-ECT 1074-byte frames at
    // priority 5, then one ECT frame at priority 3, all sent at t = 0. The
    // first priority-5 frame leaves at once; at the next departure
    // (1962.72 ns) round robin moves on from priority 5 to 3, so the ECT
    // frame leaves second, with 7 x 1074 = 7518 bytes (> Kmax = 5000) left
    // in the port but 0 in its own priority's queue. DCQCN's Kmin/Kmax apply
    // to the packet's priority queue: it is not marked. (Counting the whole
    // port, as before, marked it.)
    Star st({"100Gbps", "10Gbps"});
    st.sw->SetCongestionControl("dcqcn", "kmin=5000B,kmax=5000B,pmax=1");
    for (int i = 0; i < 8; i++)
    {
        Simulator::Schedule(Time(0), &TestHost::Send, &st.H(0), NonEctData(5), 5);
    }
    Simulator::Schedule(Time(0), &TestHost::Send, &st.H(0),
                        MakeData("10.0.0.1", "10.0.0.2", 1000, 1000, 3), 3);
    Simulator::Run();
    ASSERT_EQ(st.H(1).rx.size(), 9u);
    RocePacketInfo second;
    ASSERT_TRUE(RoceParse(st.H(1).rx[1].packet, second));
    EXPECT_EQ(second.prio, 3);
    EXPECT_EQ(second.ecn, E0);
    EXPECT_EQ(st.sw->GetEcnMarks(), 0u);
}

TEST_F(SwitchCcTest, DcqcnNeverMarksNonEctPackets)
{
    Star st({"100Gbps", "10Gbps"});
    st.sw->SetCongestionControl("dcqcn", "kmin=0B,kmax=0B,pmax=1");
    for (int i = 0; i < 5; i++)
    {
        Simulator::Schedule(Time(0), &TestHost::Send, &st.H(0), NonEctData(3), 3);
    }
    Simulator::Run();
    std::vector<uint8_t> want(5, ROCE_ECN_NOT_ECT);
    EXPECT_EQ(EcnOf(st.H(1).rx), want);
    EXPECT_EQ(st.sw->GetEcnMarks(), 0u);
}

TEST_F(SwitchCcTest, HpccIntStampMatchesQueueStateAtDequeue)
{
    // H0 (100G) -> SW -> H1 (25G); three DATA packets asking for INT:
    // IPv4 20+8+12+16+2+1000 = 1058 B, frame 1076, 1096 line bytes:
    // 87.68 ns at 100G. Arrivals at SW: 1087.68, 1175.36, 1263.04 ns.
    // The stamp is added at dequeue, before serialization, so each packet
    // leaves 8 bytes longer: 1104 line bytes = 353.28 ns at 25G.
    // Dequeues: 1087.68, 1440.96, 1794.24 ns, leaving 0, 1076 (packet 3
    // waiting, counted as it was queued), 0 bytes.
    // tx bytes before each (line bytes as sent): 0, 1104, 2208.
    // HPCC wire units (ts 1 ns, tx 128 B, qLen 80 B), truncating:
    //   hop 1: ts 1087, tx 0,            q 0
    //   hop 2: ts 1440, tx 8 x 128=1024,  q 13 x 80 = 1040
    //   hop 3: ts 1794, tx 17 x 128=2176, q 0
    Star st({"100Gbps", "25Gbps"});
    st.sw->SetCongestionControl("hpcc", "");
    for (int i = 0; i < 3; i++)
    {
        Simulator::Schedule(Time(0), &TestHost::Send, &st.H(0),
                            MakeData("10.0.0.1", "10.0.0.2", 1000, 1000, 3, true), 3);
    }
    Simulator::Run();
    ASSERT_EQ(st.H(1).rx.size(), 3u);
    const uint64_t ts[] = {1087, 1440, 1794};
    const uint64_t tx[] = {0, 1024, 2176};
    const uint64_t q[] = {0, 1040, 0};
    for (int k = 0; k < 3; k++)
    {
        RocePacketInfo i;
        ASSERT_TRUE(RoceParse(st.H(1).rx[k].packet, i));
        ASSERT_TRUE(i.hasInt);
        ASSERT_EQ(i.ints.n_hops, 1) << "packet " << k;
        EXPECT_EQ(i.ints.hop[0].bandwidth_bps, 25000000000ull);
        EXPECT_EQ(i.ints.hop[0].ts_ns, ts[k]) << "packet " << k;
        EXPECT_EQ(i.ints.hop[0].tx_bytes, tx[k]) << "packet " << k;
        EXPECT_EQ(i.ints.hop[0].qlen_bytes, q[k]) << "packet " << k;
        // The stamp grew the packet by one 8-byte hop.
        EXPECT_EQ(st.H(1).rx[k].packet->GetSize(), 1066u);
    }
    EXPECT_EQ(st.sw->GetIntStamps(), 3u);
    // Unquantized: the CP counted the line bytes actually sent, 3 x 1104.
    libcc_int_hop rec;
    ASSERT_EQ(libcc_cp_int_record(st.sw->GetCp(1), 0, 0, &rec), LIBCC_OK);
    EXPECT_EQ(rec.tx_bytes, 3u * 1104u);
    EXPECT_EQ(rec.bandwidth_bps, 25000000000ull);
    EXPECT_EQ(rec.switch_id, st.sw->GetId());
    EXPECT_EQ(rec.port_id, 1u);
}

TEST_F(SwitchCcTest, HpccDoesNotStampPacketsThatDidNotAsk)
{
    Star st({"100Gbps", "25Gbps"});
    st.sw->SetCongestionControl("hpcc", "");
    Simulator::Schedule(Time(0), &TestHost::Send, &st.H(0),
                        MakeData("10.0.0.1", "10.0.0.2", 1000, 1000, 3, false), 3);
    Simulator::Run();
    ASSERT_EQ(st.H(1).rx.size(), 1u);
    RocePacketInfo i;
    ASSERT_TRUE(RoceParse(st.H(1).rx[0].packet, i));
    EXPECT_FALSE(i.hasInt);
    EXPECT_EQ(st.sw->GetIntStamps(), 0u);
}

TEST_F(SwitchCcTest, FnccAckCarriesTheRequestPathEgressPortRecord)
{
    // H0 (port 0, 100G) -> SW -> H1 (port 1, 25G): three plain DATA packets
    // (1056 B IP, 1074 frame, 1094 line bytes: 87.52 ns at 100G, 350.08 ns at
    // 25G). Port 1 dequeues them at 1087.52, 1437.60, 1787.68 ns and writes
    // its All_INT_Table entry each time (table_refresh = 0).
    // H1 sends an ACK to H0 at 500 ns: 58 B IP, 96 line bytes, 30.72 ns at
    // 25G: it enters SW on port 1 at 1530.72 ns and leaves port 0 at once.
    // Port 1's entry then is the 1437.60 ns record: tx 1094 B before it,
    // queue 1074 B (packet 3). FNCC wire units (ts 1 ns, tx 128 B, qLen 128 B):
    // ts 1437, tx 8 x 128 = 1024, q 8 x 128 = 1024, B 25 Gbps (port 1's
    // rate, not port 0's 100 Gbps).
    Star st({"100Gbps", "25Gbps"});
    st.sw->SetCongestionControl("fncc", "table_refresh=0ns");
    for (int i = 0; i < 3; i++)
    {
        Simulator::Schedule(Time(0), &TestHost::Send, &st.H(0),
                            MakeData("10.0.0.1", "10.0.0.2", 1000, 1000), 3);
    }
    Simulator::Schedule(NanoSeconds(500), &TestHost::Send, &st.H(1),
                        MakeAck("10.0.0.2", "10.0.0.1", 1000, 3, RoceIntHeader::FORMAT_FNCC), 3);
    Simulator::Run();
    ASSERT_NE(st.sw->GetIntTable(), nullptr);
    ASSERT_EQ(st.H(0).rx.size(), 1u);
    RocePacketInfo a;
    ASSERT_TRUE(RoceParse(st.H(0).rx[0].packet, a));
    ASSERT_EQ(a.type, RocePktType::ACK);
    ASSERT_EQ(a.ints.n_hops, 1);
    EXPECT_EQ(a.ints.hop[0].bandwidth_bps, 25000000000ull);
    EXPECT_EQ(a.ints.hop[0].ts_ns, 1437u);
    EXPECT_EQ(a.ints.hop[0].tx_bytes, 1024u);
    EXPECT_EQ(a.ints.hop[0].qlen_bytes, 1024u);
    // Line bytes counted by the CPs: port 0 sent the ACK with its hop,
    // 58 + 8 = 66 B IP, 84-byte frame, 104 line bytes; port 1 the three
    // unstamped DATA packets, 3 x 1094.
    libcc_int_hop rec;
    ASSERT_EQ(libcc_cp_int_record(st.sw->GetCp(0), 0, 0, &rec), LIBCC_OK);
    EXPECT_EQ(rec.tx_bytes, 104u);
    ASSERT_EQ(libcc_cp_int_record(st.sw->GetCp(1), 0, 0, &rec), LIBCC_OK);
    EXPECT_EQ(rec.tx_bytes, 3u * 1094u);
    EXPECT_EQ(st.H(0).rx[0].packet->GetSize(), 66u);
    // Data packets carry no INT under FNCC.
    for (const auto& r : st.H(1).rx)
    {
        RocePacketInfo d;
        ASSERT_TRUE(RoceParse(r.packet, d));
        EXPECT_FALSE(d.hasInt);
    }
}

TEST_F(SwitchCcTest, FnccAckWithoutATableEntryCountsNoHopBytes)
{
    // H1 sends an ACK to H0 before any data left port 1: the All_INT_Table
    // has no entry for port 1, so port 0's CP writes no hop. The ACK leaves
    // as it came, 58 B IP, 76-byte frame, 96 line bytes, and that is what
    // port 0's txBytes must count (a guessed hop made it 104).
    Star st({"100Gbps", "25Gbps"});
    st.sw->SetCongestionControl("fncc", "table_refresh=0ns");
    Simulator::Schedule(Time(0), &TestHost::Send, &st.H(1),
                        MakeAck("10.0.0.2", "10.0.0.1", 1000, 3, RoceIntHeader::FORMAT_FNCC), 3);
    Simulator::Run();
    ASSERT_EQ(st.H(0).rx.size(), 1u);
    EXPECT_EQ(st.H(0).rx[0].packet->GetSize(), 58u);
    EXPECT_EQ(st.sw->GetIntStamps(), 0u);
    libcc_int_hop rec;
    ASSERT_EQ(libcc_cp_int_record(st.sw->GetCp(0), 0, 0, &rec), LIBCC_OK);
    EXPECT_EQ(rec.tx_bytes, 96u);
}

TEST_F(SwitchCcTest, IntAlgorithmsRefuseAPortRateTheirFormatCannotCarry)
{
    // The HPCC hop codes 25/50/100/200/400 Gbps (the HPCC simulator's) and
    // 10/40/800 Gbps; 150 Gbps is none of them. Refused before the run, with
    // the port and its rate named, instead of every hop silently dropped.
    for (const char* algo : {"hpcc", "hpcc++", "fncc"})
    {
        Star st({"100Gbps", "150Gbps"});
        st.sw->SetCongestionControl(algo, "");
        std::string err;
        EXPECT_FALSE(st.sw->CheckCongestionControl(err)) << algo;
        EXPECT_NE(err.find("port 1"), std::string::npos) << err;
        EXPECT_NE(err.find("150000 Mbps"), std::string::npos) << err;
        Simulator::Destroy();
    }
    // Algorithms without INT run at any rate; INT ones at 40 Gbps.
    for (const char* algo : {"none", "dcqcn"})
    {
        Star st({"100Gbps", "150Gbps"});
        st.sw->SetCongestionControl(algo, "");
        std::string err;
        EXPECT_TRUE(st.sw->CheckCongestionControl(err)) << algo << ": " << err;
        Simulator::Destroy();
    }
    Star st({"40Gbps", "40Gbps"});
    st.sw->SetCongestionControl("hpcc", "");
    std::string err;
    EXPECT_TRUE(st.sw->CheckCongestionControl(err)) << err;
}

TEST_F(SwitchCcTest, HpccStampsAt40Gbps)
{
    // One DATA packet asking for INT through a 40G port: the hop says 40 Gbps.
    Star st({"40Gbps", "40Gbps"});
    st.sw->SetCongestionControl("hpcc", "");
    Simulator::Schedule(Time(0), &TestHost::Send, &st.H(0),
                        MakeData("10.0.0.1", "10.0.0.2", 1000, 1000, 3, true), 3);
    Simulator::Run();
    ASSERT_EQ(st.H(1).rx.size(), 1u);
    RocePacketInfo i;
    ASSERT_TRUE(RoceParse(st.H(1).rx[0].packet, i));
    ASSERT_EQ(i.ints.n_hops, 1);
    EXPECT_EQ(i.ints.hop[0].bandwidth_bps, 40000000000ull);
    EXPECT_EQ(st.sw->GetIntStamps(), 1u);
}

TEST_F(SwitchCcTest, BadCongestionControlIsRefusedWithTheBadItemNamed)
{
    Star st({"100Gbps", "100Gbps"});
    std::string err;
    EXPECT_EQ(st.sw->TrySetCongestionControl("nosuch", "", err), LIBCC_ERR_UNKNOWN_ALGORITHM);
    EXPECT_NE(err.find("nosuch"), std::string::npos) << err;
    EXPECT_EQ(st.sw->TrySetCongestionControl("dcqcn", "bogus=1", err), LIBCC_ERR_UNKNOWN_PARAM);
    EXPECT_NE(err.find("bogus"), std::string::npos) << err;
    EXPECT_NE(st.sw->TrySetCongestionControl("dcqcn", "kmin=abc", err), LIBCC_OK);
    EXPECT_NE(err.find("kmin"), std::string::npos) << err;
    // A failed call keeps the previous configuration (none here): no CPs.
    Simulator::Schedule(Time(0), &TestHost::Send, &st.H(0),
                        MakeData("10.0.0.1", "10.0.0.2", 1000, 100), 3);
    Simulator::Run();
    EXPECT_EQ(st.sw->GetCp(1), nullptr);
    EXPECT_EQ(st.H(1).rx.size(), 1u);
}
