// SPDX-License-Identifier: GPL-2.0-only
//
// Frames carried as header fields (qbb-frame.h) must be the packets their
// bytes are: every hop of every algorithm is checked against a trip through
// the codec (QbbChannel's VerifyWireFormat), the check itself is shown to
// catch a field the wire cannot hold, and the pool reuses frames. Expected
// values come from the header layouts and the INT encodings
// (docs/int-telemetry.md), derived in the comments.

#include "test_qbb_util.h"

#include "qbb-frame.h"
#include "rdma-network.h"

#include <ns3/boolean.h>
#include <ns3/channel-list.h>
#include <ns3/config.h>
#include <ns3/uinteger.h>

#include <gtest/gtest.h>

#include <deque>

using namespace ns3;
using namespace qbbtest;

namespace
{

const uint64_t G100 = 100000000000ull;

/// Sends the frames it is given, as they are.
class FrameSource : public QbbEgressSource
{
  public:
    QbbFramePtr DequeueFrame(const std::array<bool, QBB_N_PRIO>&, uint8_t& prioOut) override
    {
        if (q.empty())
        {
            return nullptr;
        }
        QbbFramePtr f = std::move(q.front());
        q.pop_front();
        prioOut = f->roce.prio;
        return f;
    }
    bool HasPending() const override
    {
        return !q.empty();
    }
    std::deque<QbbFramePtr> q;
};

/// Keeps what arrives, as frames.
class FrameSink : public QbbFrameReceiver
{
  public:
    void ReceiveFrame(QbbNetDevice*, QbbFramePtr&& frame) override
    {
        rx.push_back(std::move(frame));
    }
    std::vector<QbbFramePtr> rx;
};

struct WireTotals
{
    uint64_t checks = 0;
    uint64_t mismatches = 0;
};

WireTotals
SumWireChecks()
{
    WireTotals t;
    for (uint32_t i = 0; i < ChannelList::GetNChannels(); i++)
    {
        if (Ptr<QbbChannel> ch = DynamicCast<QbbChannel>(ChannelList::GetChannel(i)))
        {
            t.checks += ch->GetWireChecks();
            t.mismatches += ch->GetWireMismatches();
        }
    }
    return t;
}

/// Sets VerifyWireFormat for channels created in its scope (Config defaults
/// outlive a test: the rest of the runner must not pay for it).
struct VerifyWireScope
{
    VerifyWireScope()
    {
        Config::SetDefault("ns3::QbbChannel::VerifyWireFormat", BooleanValue(true));
    }
    ~VerifyWireScope()
    {
        Config::SetDefault("ns3::QbbChannel::VerifyWireFormat", BooleanValue(false));
    }
};

/// A hop with switch and port ids, which the wire does not carry.
libcc_int_hop
HopWithIds(uint64_t bw, uint64_t ts, uint64_t tx, uint64_t q)
{
    libcc_int_hop h = Hop(bw, ts, tx, q);
    h.switch_id = 7;
    h.port_id = 3;
    return h;
}

/// What a promiscuous listener was given, and what the frame receiver held then.
struct PromiscLog
{
    bool Rx(Ptr<NetDevice>, Ptr<const Packet> p, uint16_t protocol, const Address& from,
            const Address& to, NetDevice::PacketType type)
    {
        packets.push_back(p->Copy());
        protocols.push_back(protocol);
        froms.push_back(from);
        tos.push_back(to);
        types.push_back(type);
        sinkHeld.push_back(sink->rx.size());
        return true;
    }
    const FrameSink* sink = nullptr;
    std::vector<Ptr<Packet>> packets;
    std::vector<uint16_t> protocols;
    std::vector<Address> froms;
    std::vector<Address> tos;
    std::vector<NetDevice::PacketType> types;
    std::vector<size_t> sinkHeld;
};

} // namespace

class QbbFrameWire : public ::testing::TestWithParam<const char*>
{
};

TEST_P(QbbFrameWire, EveryFrameOnEveryHopIsWhatItsBytesParseTo)
{
    VerifyWireScope verify;
    // The paper's dumbbell, 2:1 into one port: queues build, so DCQCN marks
    // CE, HPCC stamps non-empty queues, FNCC stamps ACKs.
    RdmaNetwork net;
    net.SetCongestionControl(GetParam());
    net.Build(MakeDumbbellTopology(2, 3, G100, 1500));
    // Two flows of 200 packets of 1000 bytes.
    net.AddFlow(FlowSpec{0, 2, 3, 100, 200000, 0, 0}, 0);
    net.AddFlow(FlowSpec{1, 2, 3, 101, 200000, 0, 0}, 1);
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    WireTotals t = SumWireChecks();
    // Every data packet crosses 4 links (host, 3 switches, host): at least
    // 2 x 200 x 4 = 1600 data frames, plus the ACKs, were checked.
    EXPECT_GE(t.checks, 1600u);
    EXPECT_EQ(t.mismatches, 0u);
    EXPECT_EQ(net.GetNic(2)->GetRxQueuePair(0).expected, 200000u);
    EXPECT_EQ(net.GetNic(2)->GetRxQueuePair(1).expected, 200000u);
    std::string algo = GetParam();
    uint64_t stamps = 0;
    uint64_t marks = 0;
    for (uint32_t id = 0; id < net.GetNNodes(); id++)
    {
        if (net.IsSwitch(id))
        {
            stamps += net.GetSwitch(id)->GetIntStamps();
            marks += net.GetSwitch(id)->GetEcnMarks();
        }
    }
    // The check covered frames the switches edited.
    if (algo == "hpcc" || algo == "fncc")
    {
        EXPECT_GT(stamps, 0u);
    }
    if (algo == "dcqcn")
    {
        EXPECT_GT(marks, 0u);
    }
    Simulator::Destroy();
}

INSTANTIATE_TEST_SUITE_P(Algorithms, QbbFrameWire,
                         ::testing::Values("none", "dcqcn", "hpcc", "hpcc++", "fncc"));

TEST(QbbFrameWireCheck, AFieldTheWireCannotHoldIsAMismatch)
{
    VerifyWireScope verify;
    Ptr<Node> a = CreateObject<Node>();
    Ptr<Node> b = CreateObject<Node>();
    QbbHelper h;
    NetDeviceContainer c = h.Install(a, b);
    Ptr<QbbNetDevice> da = DynamicCast<QbbNetDevice>(c.Get(0));
    Ptr<QbbNetDevice> db = DynamicCast<QbbNetDevice>(c.Get(1));
    FrameSource src;
    FrameSink sink;
    da->SetEgressSource(&src);
    db->SetFrameReceiver(&sink);
    auto data = [](uint32_t psn) {
        QbbFramePtr f = QbbFrameNew();
        f->roce.type = RocePktType::DATA;
        f->roce.src = Ipv4Address("10.0.0.1");
        f->roce.dst = Ipv4Address("10.0.0.2");
        f->roce.payloadBytes = 1000;
        f->roce.psn = psn;
        // 20 IPv4 + 8 UDP + 12 BTH + 16 RETH + 1000 payload.
        f->ipBytes = 1056;
        return f;
    };
    // The BTH PSN has 24 bits: 0xFFFFFF fits, 0x1000000 does not.
    src.q.push_back(data(0xFFFFFF));
    src.q.push_back(data(0x1000000));
    // An INT hop with a ts the 24-bit field wraps (1 ns units): not what
    // the receiver would read.
    QbbFramePtr withInt = data(1);
    withInt->roce.hasInt = true;
    RoceIntHeader::InitWireList(RoceIntHeader::FORMAT_HPCC, withInt->roce.ints);
    withInt->roce.ints.hop[0] = Hop(G100, (1ull << 24) + 5, 0, 0);
    withInt->roce.ints.n_hops = 1;
    withInt->ipBytes = 1056 + 2 + 8; // INT header base 2 + one 8-byte hop
    src.q.push_back(std::move(withInt));
    // A wrong length: one byte short of the headers and payload.
    QbbFramePtr shortLen = data(2);
    shortLen->ipBytes = 1055;
    src.q.push_back(std::move(shortLen));
    Simulator::ScheduleNow(&QbbNetDevice::TriggerTransmit, da);
    Simulator::Run();
    Ptr<QbbChannel> ch = DynamicCast<QbbChannel>(da->GetChannel());
    EXPECT_EQ(ch->GetWireChecks(), 4u);
    EXPECT_EQ(ch->GetWireMismatches(), 3u);
    // Frames arrive as they were sent, fields and all.
    ASSERT_EQ(sink.rx.size(), 4u);
    EXPECT_EQ(sink.rx[0]->roce.psn, 0xFFFFFFu);
    EXPECT_EQ(sink.rx[2]->roce.ints.n_hops, 1u);
    EXPECT_EQ(sink.rx[3]->ipBytes, 1055u);
    da->SetEgressSource(nullptr);
    db->SetFrameReceiver(nullptr);
    sink.rx.clear();
    Simulator::Destroy();
}

TEST(QbbFrameWireCheck, PacketReceiversGetTheFramesBytes)
{
    // A frame sent as fields reaches a Packet-based receiver (a test host)
    // as the bytes RoceBuild makes: 1056 bytes, parsing to the same fields.
    Ptr<Node> a = CreateObject<Node>();
    Ptr<Node> b = CreateObject<Node>();
    QbbHelper h;
    NetDeviceContainer c = h.Install(a, b);
    Ptr<QbbNetDevice> da = DynamicCast<QbbNetDevice>(c.Get(0));
    FrameSource src;
    TestHost hb;
    da->SetEgressSource(&src);
    hb.Attach(DynamicCast<QbbNetDevice>(c.Get(1)));
    QbbFramePtr f = QbbFrameNew();
    f->roce.type = RocePktType::DATA;
    f->roce.src = Ipv4Address("10.0.0.1");
    f->roce.dst = Ipv4Address("10.0.0.2");
    f->roce.payloadBytes = 1000;
    f->roce.psn = 77;
    f->roce.seq = 77000;
    f->ipBytes = 1056;
    src.q.push_back(std::move(f));
    Simulator::ScheduleNow(&QbbNetDevice::TriggerTransmit, da);
    Simulator::Run();
    ASSERT_EQ(hb.rx.size(), 1u);
    EXPECT_EQ(hb.rx[0].packet->GetSize(), 1056u);
    RocePacketInfo info;
    ASSERT_TRUE(RoceParse(hb.rx[0].packet, info));
    EXPECT_EQ(info.psn, 77u);
    EXPECT_EQ(info.seq, 77000u);
    EXPECT_EQ(info.payloadBytes, 1000u);
    da->SetEgressSource(nullptr);
    Simulator::Destroy();
}

TEST(QbbFrameWireCheck, PromiscuousListenerSeesDataFramesButNotPfc)
{
    // As on ns-3's PointToPointNetDevice: a data frame goes to the
    // promiscuous callback (as the IPv4 bytes RoceBuild makes) before the
    // receiver gets it; a PFC frame is MAC control and reaches neither.
    Ptr<Node> a = CreateObject<Node>();
    Ptr<Node> b = CreateObject<Node>();
    QbbHelper h;
    NetDeviceContainer c = h.Install(a, b);
    Ptr<QbbNetDevice> da = DynamicCast<QbbNetDevice>(c.Get(0));
    Ptr<QbbNetDevice> db = DynamicCast<QbbNetDevice>(c.Get(1));
    FrameSource src;
    FrameSink sink;
    PromiscLog log;
    log.sink = &sink;
    da->SetEgressSource(&src);
    db->SetFrameReceiver(&sink);
    db->SetPromiscReceiveCallback(MakeCallback(&PromiscLog::Rx, &log));
    QbbFramePtr f = QbbFrameNew();
    f->roce.type = RocePktType::DATA;
    f->roce.src = Ipv4Address("10.0.0.1");
    f->roce.dst = Ipv4Address("10.0.0.2");
    f->roce.payloadBytes = 1000;
    f->roce.psn = 77;
    f->ipBytes = 1056; // 20 IPv4 + 8 UDP + 12 BTH + 16 RETH + 1000 payload
    src.q.push_back(std::move(f));
    Simulator::ScheduleNow(&QbbNetDevice::TriggerTransmit, da);
    Simulator::ScheduleNow(&QbbNetDevice::SendPfc, da, uint8_t(3), uint16_t(0));
    Simulator::Run();
    EXPECT_EQ(db->GetResumesReceived(3), 1u); // the PFC frame did arrive
    ASSERT_EQ(sink.rx.size(), 1u);
    ASSERT_EQ(log.packets.size(), 1u);
    EXPECT_EQ(log.packets[0]->GetSize(), 1056u);
    RocePacketInfo info;
    ASSERT_TRUE(RoceParse(log.packets[0], info));
    EXPECT_EQ(info.psn, 77u);
    EXPECT_EQ(log.protocols[0], QbbNetDevice::ETHERTYPE_IPV4);
    EXPECT_EQ(log.froms[0], da->GetAddress());
    EXPECT_EQ(log.tos[0], db->GetAddress());
    EXPECT_EQ(log.types[0], NetDevice::PACKET_HOST);
    EXPECT_EQ(log.sinkHeld[0], 0u);
    da->SetEgressSource(nullptr);
    db->SetFrameReceiver(nullptr);
    db->SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback());
    sink.rx.clear();
    Simulator::Destroy();
}

TEST(QbbFramePool, FramesAreReusedNotAllocatedPerPacket)
{
    // A lone 1 MB flow on the 3-switch dumbbell: 1000 data packets x 4
    // links = 4000 data frames sent. At most about one BDP is in flight:
    // base RTT ~8.4 us x 100 Gbps = 105 KB, ~96 data packets and as many
    // ACKs; with queues and the pool's slack, well under 400 new frames.
    RdmaNetwork net;
    net.SetCongestionControl("hpcc");
    net.Build(MakeDumbbellTopology(1, 3, G100, 1000));
    net.AddFlow(FlowSpec{0, 1, 3, 100, 1000000, 0, 0}, 0);
    uint64_t before = QbbFramesAllocated();
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    uint64_t sent = 0;
    for (uint32_t i = 0; i < ChannelList::GetNChannels(); i++)
    {
        Ptr<QbbChannel> ch = DynamicCast<QbbChannel>(ChannelList::GetChannel(i));
        for (size_t d = 0; ch && d < ch->GetNDevices(); d++)
        {
            sent += DynamicCast<QbbNetDevice>(ch->GetDevice(d))->GetTxPackets();
        }
    }
    EXPECT_GE(sent, 4000u);
    EXPECT_LT(QbbFramesAllocated() - before, 400u);
    Simulator::Destroy();
}

TEST(RoceIntQuantize, HopReadsAsTheWireKeepsIt)
{
    // HPCC format (docs/int-telemetry.md): ts in 1 ns units, 24 bits (wraps);
    // txBytes in 128-byte units; qLen in 80-byte units; no ids on the wire.
    libcc_int_hop h = HopWithIds(G100, (1ull << 24) + 5, 1000, 1000);
    ASSERT_TRUE(RoceIntHeader::QuantizeHop(RoceIntHeader::FORMAT_HPCC, h));
    EXPECT_EQ(h.bandwidth_bps, G100);
    EXPECT_EQ(h.ts_ns, 5u);        // 2^24 + 5 mod 2^24
    EXPECT_EQ(h.tx_bytes, 896u);   // 1000 / 128 = 7 ticks
    EXPECT_EQ(h.qlen_bytes, 960u); // 1000 / 80 = 12 ticks
    EXPECT_EQ(h.switch_id, 0u);
    EXPECT_EQ(h.port_id, 0u);
    // FNCC format: qLen in 128-byte units, and a rate table with 10 Gbps.
    libcc_int_hop f = HopWithIds(10000000000ull, 5, 1000, 1000);
    ASSERT_TRUE(RoceIntHeader::QuantizeHop(RoceIntHeader::FORMAT_FNCC, f));
    EXPECT_EQ(f.qlen_bytes, 896u);
    EXPECT_EQ(f.bandwidth_bps, 10000000000ull);
    // 150 Gbps has no HPCC rate code (25/50/100/200/400 and our 10/40/800):
    // refused, hop unchanged.
    libcc_int_hop bad = HopWithIds(150000000000ull, 5, 1000, 1000);
    EXPECT_FALSE(RoceIntHeader::QuantizeHop(RoceIntHeader::FORMAT_HPCC, bad));
    EXPECT_EQ(bad.qlen_bytes, 1000u);
    EXPECT_EQ(bad.switch_id, 7u);
}

TEST(RoceIntQuantize, EmptyWireListHasTheWrapWidths)
{
    // ts: 24 bits of 1 ns; txBytes: 20 bits of 128 = 2^7 bytes -> 27 bits.
    libcc_int_list l{};
    l.n_hops = 3;
    RoceIntHeader::InitWireList(RoceIntHeader::FORMAT_HPCC, l);
    EXPECT_EQ(l.n_hops, 0u);
    EXPECT_EQ(l.ts_bits, 24u);
    EXPECT_EQ(l.tx_bits, 27u);
}

TEST(RoceWireEqualTest, ComparesOnlyWhatTheTypeCarries)
{
    RocePacketInfo a;
    a.type = RocePktType::DATA;
    a.payloadBytes = 1000;
    RocePacketInfo b = a;
    b.ackSeq = 5; // DATA carries no AETH
    b.nFlows = 9;
    EXPECT_TRUE(RoceWireEqual(a, b));
    b.seq = 1; // RETH
    EXPECT_FALSE(RoceWireEqual(a, b));
    RocePacketInfo k;
    k.type = RocePktType::ACK;
    RocePacketInfo m = k;
    m.seq = 3; // an ACK carries no RETH
    EXPECT_TRUE(RoceWireEqual(k, m));
    m.nFlows = 2;
    EXPECT_FALSE(RoceWireEqual(k, m));
}
