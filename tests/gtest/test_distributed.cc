// SPDX-License-Identifier: GPL-2.0-only
//
// The pieces of a distributed run that one process can check
// (docs/distributed.md): frames crossing ranks as bytes, the partition of
// a topology and its lookahead, the user's partition file, and the Node
// event order. The runs over mpirun are in tests/distributed/run.sh.

#include "fast-simulator-impl.h"
#include "hpcc-format.h"
#include "qbb-frame-wire.h"
#include "rdma-network.h"
#include "rank-merge.h"
#include "rdma-partition.h"

#include <ns3/simulator.h>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <numeric>
#include <vector>

using namespace ns3;

namespace
{

const uint64_t G100 = 100000000000ull;

RocePacketInfo
DataWithTwoHops()
{
    RocePacketInfo i;
    i.type = RocePktType::DATA;
    i.src = Ipv4Address("11.0.0.1");
    i.dst = Ipv4Address("11.0.3.1");
    i.sport = 10007;
    i.prio = 3;
    i.destQp = 42;
    i.psn = 77;
    i.seq = 123000;
    i.payloadBytes = 1000;
    i.hasInt = true;
    i.hasTxTs = true;
    i.txTsNs = 987654321;
    libcc_int_list_init(&i.ints);
    for (int h = 0; h < 2; h++)
    {
        libcc_int_hop hop{};
        hop.bandwidth_bps = G100;
        hop.ts_ns = 5000 + h;
        hop.tx_bytes = 128 * (40 + h); // 128-byte units: kept exactly
        hop.qlen_bytes = 80 * h;
        libcc_int_list_push(&i.ints, &hop, LIBCC_INT_MAX_HOPS);
    }
    return i;
}

} // namespace

TEST(Distributed, RoceFrameCrossesRanksAsItsHeaders)
{
    // As the fabric holds it: INT hops as the wire keeps them (a parse of
    // its own headers; their widths are the wire's, not 64 bits).
    RocePacketInfo info = DataWithTwoHops();
    uint8_t hdr[ROCE_MAX_HEADER_BYTES];
    uint32_t n = RoceWriteHeaders(info, hdr);
    QbbFramePtr f = QbbFrameNew();
    ASSERT_TRUE(RoceParseHeaders(hdr, n, RocePacketBytes(info), f->roce));
    f->ipBytes = RocePacketBytes(info);
    std::vector<uint8_t> bytes;
    ASSERT_TRUE(QbbFrameEncode(*f, bytes));
    // kind + ipBytes (5), then the headers only: IPv4 20, UDP 8, BTH 12,
    // RETH 16, the 8-byte transmit stamp, INT 2 + 2 x 8: 82 bytes, not the
    // 1000 zero bytes of payload.
    EXPECT_EQ(bytes.size(), 5u + 20 + 8 + 12 + 16 + 8 + 2 + 16);
    QbbFramePtr g = QbbFrameDecode(bytes.data(), static_cast<uint32_t>(bytes.size()));
    ASSERT_TRUE(g);
    EXPECT_TRUE(RoceWireEqual(f->roce, g->roce));
    EXPECT_EQ(g->ipBytes, f->ipBytes);
    EXPECT_EQ(g->ipBytes, 20u + 8 + 12 + 16 + 8 + 2 + 16 + 1000);
    EXPECT_FALSE(g->packet);
    // A byte short of the headers is not a frame.
    EXPECT_FALSE(QbbFrameDecode(bytes.data(), static_cast<uint32_t>(bytes.size() - 1)));
}

TEST(Distributed, RoceFrameCrossesRanksAsItsFields)
{
    QbbFramePtr f = QbbFrameNew();
    f->roce = DataWithTwoHops();
    f->ipBytes = RocePacketBytes(f->roce);
    std::vector<uint8_t> bytes;
    ASSERT_TRUE(QbbFrameEncode(*f, bytes, true));
    // The fields before the hop slots, and 2 of the slots: not the
    // LIBCC_INT_MAX_HOPS a RocePacketInfo holds.
    EXPECT_EQ(bytes.size(), 5 + offsetof(RocePacketInfo, ints) + offsetof(libcc_int_list, hop) +
                                2 * sizeof(libcc_int_hop));
    QbbFramePtr g = QbbFrameDecode(bytes.data(), static_cast<uint32_t>(bytes.size()));
    ASSERT_TRUE(g);
    EXPECT_TRUE(RoceWireEqual(f->roce, g->roce));
    // Unlike the wire, the fields keep what the wire would quantize.
    EXPECT_EQ(g->roce.ints.ts_bits, 64);
    EXPECT_EQ(g->roce.ints.hop[1].ts_ns, 5001u);
    EXPECT_EQ(g->roce.txTsNs, 987654321u);
    EXPECT_EQ(g->ipBytes, f->ipBytes);
    EXPECT_FALSE(QbbFrameDecode(bytes.data(), static_cast<uint32_t>(bytes.size() - 1)));
}

TEST(Distributed, PauseAndIpFramesCrossRanksByteForByte)
{
    for (bool mac : {true, false})
    {
        std::vector<uint8_t> body(mac ? 20 : 60);
        for (size_t i = 0; i < body.size(); ++i)
        {
            body[i] = static_cast<uint8_t>(3 * i + 1);
        }
        QbbFramePtr f = QbbFrameFromPacket(Create<Packet>(body.data(), body.size()), mac);
        std::vector<uint8_t> bytes;
        ASSERT_TRUE(QbbFrameEncode(*f, bytes));
        QbbFramePtr g = QbbFrameDecode(bytes.data(), static_cast<uint32_t>(bytes.size()));
        ASSERT_TRUE(g);
        EXPECT_EQ(g->macControl, mac);
        ASSERT_TRUE(g->packet);
        ASSERT_EQ(g->packet->GetSize(), body.size());
        std::vector<uint8_t> back(body.size());
        g->packet->CopyData(back.data(), back.size());
        EXPECT_EQ(back, body);
    }
}

TEST(Distributed, FatTreeSplitsByPodWithCoresDealtRoundRobin)
{
    // k = 4: hosts 0..15 (pod p: 4p..4p+3), edges 16..23 (pod p: 16+2p,
    // 17+2p), aggregations 24..31 (24+2p, 25+2p), cores 32..35. Two ranks:
    // pods 0-1 on rank 0, pods 2-3 on rank 1; cores 0,1,0,1.
    TopologySpec t = MakeFatTreeTopology(4, G100, 1000);
    std::vector<uint32_t> r = PartitionTopology(t, 2);
    for (uint32_t p = 0; p < 4; ++p)
    {
        uint32_t want = p < 2 ? 0 : 1;
        for (uint32_t h = 4 * p; h < 4 * p + 4; ++h)
        {
            EXPECT_EQ(r[h], want) << "host " << h;
        }
        for (uint32_t s : {16 + 2 * p, 17 + 2 * p, 24 + 2 * p, 25 + 2 * p})
        {
            EXPECT_EQ(r[s], want) << "switch " << s;
        }
    }
    EXPECT_EQ(r[32], 0u);
    EXPECT_EQ(r[33], 1u);
    EXPECT_EQ(r[34], 0u);
    EXPECT_EQ(r[35], 1u);
    // Four ranks: one pod each, one core each.
    r = PartitionTopology(t, 4);
    for (uint32_t h = 0; h < 16; ++h)
    {
        EXPECT_EQ(r[h], h / 4) << "host " << h;
    }
    for (uint32_t c = 0; c < 4; ++c)
    {
        EXPECT_EQ(r[32 + c], c);
    }
    // Only links are cut, each 1000 ns: the lookahead.
    EXPECT_EQ(PartitionLookaheadNs(t, r), 1000u);
    EXPECT_EQ(PartitionSizes(r, 4), (std::vector<uint32_t>{9, 9, 9, 9}));
}

TEST(Distributed, FatTreePodsAreBalancedByTheBytesTheirHostsCarry)
{
    // k = 4 as above. Host 0 (pod 0) sends 300 bytes to host 4 (pod 1),
    // host 8 (pod 2) 100 to host 12 (pod 3): pods carry 300, 300, 100, 100.
    TopologySpec t = MakeFatTreeTopology(4, G100, 1000);
    std::vector<FlowSpec> flows{{0, 4, 3, 100, 300, 0, 1}, {8, 12, 3, 100, 100, 0, 2}};
    std::vector<uint64_t> load = FlowBytesPerNode(flows, t.nNodes);
    ASSERT_EQ(load.size(), 36u);
    EXPECT_EQ(load[0], 300u);
    EXPECT_EQ(load[4], 300u);
    EXPECT_EQ(load[8], 100u);
    EXPECT_EQ(load[12], 100u);
    EXPECT_EQ(std::accumulate(load.begin(), load.end(), uint64_t(0)), 800u);
    // By node count pods 0-1 and 2-3 would carry 600 and 200. Heaviest
    // first to the least loaded rank: pod 0 -> 0, pod 1 -> 1, pod 2 -> 0
    // (a tie of 300 and of 9 nodes goes to the lower rank), pod 3 -> 1.
    std::vector<uint32_t> r = PartitionTopology(t, 2, load);
    for (uint32_t p = 0; p < 4; ++p)
    {
        for (uint32_t h = 4 * p; h < 4 * p + 4; ++h)
        {
            EXPECT_EQ(r[h], p % 2) << "host " << h;
        }
        for (uint32_t s : {16 + 2 * p, 17 + 2 * p, 24 + 2 * p, 25 + 2 * p})
        {
            EXPECT_EQ(r[s], p % 2) << "switch " << s;
        }
    }
    EXPECT_EQ(PartitionLoads(r, 2, load), (std::vector<uint64_t>{400, 400}));
    // Cores are not in a block: still round robin.
    EXPECT_EQ(r[32], 0u);
    EXPECT_EQ(r[35], 1u);
    // Three ranks, pods carrying 500, 200, 200, 100: pod 0 alone; pod 3 joins
    // pod 1 (ranks 1 and 2 tie at 200 bytes and 9 nodes: the lower).
    flows = {{0, 1, 3, 100, 200, 0, 1}, {2, 4, 3, 100, 100, 0, 2}, {5, 8, 3, 100, 100, 0, 3},
             {9, 12, 3, 100, 100, 0, 4}};
    load = FlowBytesPerNode(flows, t.nNodes);
    r = PartitionTopology(t, 3, load);
    EXPECT_EQ(PartitionLoads(r, 3, load), (std::vector<uint64_t>{500, 300, 200}));
    EXPECT_EQ(r[0], 0u);
    EXPECT_EQ(r[4], 1u);
    EXPECT_EQ(r[8], 2u);
    EXPECT_EQ(r[12], 1u);
}

TEST(Distributed, PodsWithoutLoadFallBackToNodeCounts)
{
    TopologySpec t = MakeFatTreeTopology(4, G100, 1000);
    // No bytes anywhere (or flows naming no node of the tree): by node count.
    std::vector<FlowSpec> flows{{40, 41, 3, 100, 5000, 0, 1}};
    std::vector<uint64_t> load = FlowBytesPerNode(flows, t.nNodes);
    EXPECT_EQ(std::accumulate(load.begin(), load.end(), uint64_t(0)), 0u);
    EXPECT_EQ(PartitionTopology(t, 2, load), PartitionTopology(t, 2));
    // A load vector of the wrong size is a caller's bug, said as such.
    EXPECT_THROW(PartitionTopology(t, 2, std::vector<uint64_t>(35, 1)), std::invalid_argument);
}

TEST(Distributed, DumbbellSplitsAtItsMiddleSwitch)
{
    // 2 senders (0, 1) on switch 3, receiver 2 on switch 5, switch 4 between:
    // the middle switch is the top layer; the sender end (3 nodes) and the
    // receiver end (2 nodes) are the blocks.
    TopologySpec t = MakeDumbbellTopology(2, 3, G100, 1500);
    std::vector<uint32_t> r = PartitionTopology(t, 2);
    EXPECT_EQ(r, (std::vector<uint32_t>{0, 0, 1, 0, 0, 1}));
    EXPECT_EQ(PartitionLookaheadNs(t, r), 1500u);
    // One rank: nothing is cut.
    EXPECT_EQ(PartitionLookaheadNs(t, PartitionTopology(t, 1)), UINT64_MAX);
}

TEST(Distributed, ZeroDelayCutIsRefusedNamingTheLink)
{
    TopologySpec t = MakeDumbbellTopology(2, 3, G100, 0);
    std::vector<uint32_t> r = PartitionTopology(t, 2);
    try
    {
        PartitionLookaheadNs(t, r);
        FAIL() << "a zero-delay link between ranks was accepted";
    }
    catch (const std::invalid_argument& e)
    {
        std::string m = e.what();
        EXPECT_NE(m.find("(node 4 - node 5)"), std::string::npos) << m;
        EXPECT_NE(m.find("delay > 0"), std::string::npos) << m;
    }
}

namespace
{
std::string
WritePartition(const std::string& text)
{
    std::string path = ::testing::TempDir() + "libcc-partition.txt";
    std::ofstream(path) << text;
    return path;
}

void
ExpectPartitionError(const std::string& text, uint32_t line, const std::string& field)
{
    TopologySpec t = MakeDumbbellTopology(2, 3, G100, 1500);
    std::string path = WritePartition(text);
    try
    {
        ReadPartitionFile(path, t, 2);
        FAIL() << "accepted: " << text;
    }
    catch (const FileFormatError& e)
    {
        EXPECT_EQ(e.Line(), line) << e.what();
        EXPECT_EQ(e.Field(), field) << e.what();
    }
}
} // namespace

TEST(Distributed, PartitionFileIsReadAndItsErrorsNamed)
{
    TopologySpec t = MakeDumbbellTopology(2, 3, G100, 1500);
    std::string path = WritePartition("# node rank\n0 1\n1 1\n2 0\n3 1\n4 0 # middle\n5 0\n");
    EXPECT_EQ(ReadPartitionFile(path, t, 2), (std::vector<uint32_t>{1, 1, 0, 1, 0, 0}));
    ExpectPartitionError("0 0\n1 2\n", 2, "rank");             // only ranks 0, 1
    ExpectPartitionError("0 0\n6 0\n", 2, "node");             // nodes 0..5
    ExpectPartitionError("0 0\n0 1\n", 2, "node");             // twice
    ExpectPartitionError("0 0 0\n", 1, "");                    // three fields
    ExpectPartitionError("0 0\n1 0\n2 0\n3 0\n4 x\n", 5, "rank");
    ExpectPartitionError("0 0\n1 0\n2 0\n3 0\n4 0\n", 5, "node"); // node 5 missing
    EXPECT_THROW(ReadPartitionFile(path + ".absent", t, 2), FileIoError);
}

namespace
{
std::vector<int> g_ran;
void
Ran(int who)
{
    g_ran.push_back(who);
}
} // namespace

TEST(Distributed, NodeOrderRunsTiesByTheSchedulingNode)
{
    // At one timestamp, Node order runs node 3's event before node 5's
    // whatever order they were scheduled in; Uid order keeps that order.
    for (auto order : {FastSimulatorImpl::ORDER_UID, FastSimulatorImpl::ORDER_NODE})
    {
        Simulator::Destroy();
        Ptr<FastSimulatorImpl> impl = CreateObject<FastSimulatorImpl>();
        impl->SetOrder(order);
        Simulator::SetImplementation(impl);
        g_ran.clear();
        Simulator::ScheduleWithContext(5, NanoSeconds(10), &Ran, 5);
        Simulator::ScheduleWithContext(3, NanoSeconds(10), &Ran, 3);
        Simulator::Run();
        std::vector<int> want = order == FastSimulatorImpl::ORDER_NODE ? std::vector<int>{3, 5}
                                                                        : std::vector<int>{5, 3};
        EXPECT_EQ(g_ran, want);
        Simulator::Destroy();
    }
}

namespace
{
std::vector<uint64_t> g_keys;
void
RecordKey()
{
    g_keys.push_back(DynamicCast<FastSimulatorImpl>(Simulator::GetImplementation())->CurrentKey());
}
void
NodeThreeSchedules()
{
    // A global event (no node) and one for node 3 itself.
    Simulator::ScheduleWithContext(Simulator::NO_CONTEXT, NanoSeconds(5), &RecordKey);
    Simulator::Schedule(NanoSeconds(10), &RecordKey);
}
} // namespace

TEST(Distributed, NodeOrderKeysCountPerSchedulingNode)
{
    // Node 3's first event (scheduled at set-up for node 3: node 3's count 0)
    // schedules a global event and one of its own. The global one takes the
    // global sequence (slot 2^24 - 1, count 0), not node 3's: node 3's own
    // takes its count 1, whatever rank sees which global events.
    Simulator::Destroy();
    Ptr<FastSimulatorImpl> impl = CreateObject<FastSimulatorImpl>();
    impl->SetOrder(FastSimulatorImpl::ORDER_NODE);
    Simulator::SetImplementation(impl);
    g_keys.clear();
    Simulator::ScheduleWithContext(3, NanoSeconds(1), &NodeThreeSchedules);
    Simulator::ScheduleWithContext(3, NanoSeconds(2), &RecordKey);
    Simulator::Run();
    const uint64_t node3 = uint64_t(3) << 40;
    const uint64_t global = uint64_t((1u << 24) - 1) << 40;
    // t=2: the second set-up event for node 3 (count 1); t=6: the global
    // one; t=11: node 3's own, its count 2 (after the two set-up schedules).
    EXPECT_EQ(g_keys, (std::vector<uint64_t>{node3 | 1, global | 0, node3 | 2}));
    Simulator::Destroy();
}

TEST(Distributed, RankFilesMergeInStampOrderUpToTheEnd)
{
    // Two ranks' records, each stamped (time step, key); one process's
    // order is the stamps' order. The run ended at (20, node 3's count 1):
    // what rank 1 ran after it (time 20 with node 5's key, time 21) is not
    // one process's and is left out; a header is written once.
    std::string path = ::testing::TempDir() + "libcc-merge.txt";
    const uint64_t n3 = uint64_t(3) << 40;
    const uint64_t n5 = uint64_t(5) << 40;
    std::ofstream(RankFilePath(path, 0)) << RankStamp(10, n5) << " a\n"
                                         << RankStamp(20, n3 | 1) << " d\n";
    std::ofstream(RankFilePath(path, 1)) << RankStamp(10, n3) << " b\n"
                                         << RankStamp(15, n5 | 2) << " c\n"
                                         << RankStamp(20, n5) << " e\n"
                                         << RankStamp(21, n3 | 2) << " f\n";
    std::string err;
    ASSERT_TRUE(MergeRankFiles(path, 2, "h\n", err, RankStamp(20, n3 | 1))) << err;
    std::ifstream in(path);
    std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(all, "h\nb\na\nc\nd\n");
    EXPECT_FALSE(std::ifstream(RankFilePath(path, 0)).good()); // rank files removed
    // Without an end, everything, in stamp order.
    std::ofstream(RankFilePath(path, 0)) << RankStamp(2, n3) << " y\n";
    std::ofstream(RankFilePath(path, 1)) << RankStamp(1, n5) << " x\n";
    ASSERT_TRUE(MergeRankFiles(path, 2, "", err)) << err;
    std::ifstream in2(path);
    std::string all2((std::istreambuf_iterator<char>(in2)), std::istreambuf_iterator<char>());
    EXPECT_EQ(all2, "x\ny\n");
    // A line without a stamp is refused, naming file and line.
    std::ofstream(RankFilePath(path, 0)) << "no stamp\n";
    std::ofstream(RankFilePath(path, 1)) << "";
    EXPECT_FALSE(MergeRankFiles(path, 2, "", err));
    EXPECT_NE(err.find(".rank0:1: no rank stamp"), std::string::npos) << err;
}

namespace
{
std::string
ReadAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}
} // namespace

TEST(Distributed, CappedOutputsMergeAndCutWhereOneProcessStopped)
{
    // Two outputs under one cap: a CSV (header "h\n", not counted) and a
    // binary trace of 4-byte records after a 4-byte header spent at set-up.
    // In stamp order one process counts: header 4; event record AAAA at
    // t=5 -> 8; the sample at t=10 (x1\n on rank 1, y22\n on rank 0: 3 + 4
    // bytes, written whole, then counted) -> 15; BBBB at t=12 -> 19; CCCC at
    // t=13 -> 23: over a cap of 20, so CCCC (counted before it is written)
    // and everything after it (the sample z at t=20) are cut.
    std::string dir = ::testing::TempDir();
    std::vector<CappedRankFile> files{{dir + "libcc-cap.csv", "h\n", 0},
                                      {dir + "libcc-cap.bin", "HDR!", 4}};
    const uint64_t n3 = uint64_t(3) << 40;
    const uint64_t n5 = uint64_t(5) << 40;
    auto write = [&]() {
        std::ofstream(RankFilePath(files[0].path, 0)) << RankSampleStamp(10, 1) << " y22\n"
                                                      << RankSampleStamp(20, 0) << " z\n";
        std::ofstream(RankFilePath(files[0].path, 1)) << RankSampleStamp(10, 0) << " x1\n"
                                                      << RankTrailerStamp(0) << " end\n";
        std::ofstream(RankFilePath(files[1].path, 0), std::ios::binary)
            << RankStamp(5, n3) << " AAAA" << RankStamp(13, n3) << " CCCC";
        std::ofstream(RankFilePath(files[1].path, 1), std::ios::binary)
            << RankStamp(12, n5) << " BBBB";
    };
    write();
    std::string err;
    RankCapResult cap;
    ASSERT_TRUE(MergeCappedRankFiles(files, 2, 20, 4, err, "", cap)) << err;
    EXPECT_EQ(ReadAll(files[0].path), "h\nx1\ny22\n");
    EXPECT_EQ(ReadAll(files[1].path), "HDR!AAAABBBB");
    EXPECT_TRUE(cap.capped);
    EXPECT_EQ(cap.ts, 13u);
    EXPECT_EQ(cap.bytes, 23u);
    EXPECT_FALSE(std::ifstream(RankFilePath(files[1].path, 1)).good()); // rank files removed

    // A cap of 12: the sample at t=10 crosses it (15) and is kept whole.
    write();
    ASSERT_TRUE(MergeCappedRankFiles(files, 2, 12, 4, err, "", cap)) << err;
    EXPECT_EQ(ReadAll(files[0].path), "h\nx1\ny22\n");
    EXPECT_EQ(ReadAll(files[1].path), "HDR!AAAA");
    EXPECT_TRUE(cap.capped);
    EXPECT_EQ(cap.ts, 10u);
    EXPECT_EQ(cap.bytes, 15u);

    // No cap, one process's end at (12, node 5): what came after it (CCCC,
    // the sample at t=20) is left out, the trailer (written after the run
    // from what was kept) is not, and comes last.
    write();
    ASSERT_TRUE(MergeCappedRankFiles(files, 2, 0, 4, err, RankStamp(12, n5), cap)) << err;
    EXPECT_EQ(ReadAll(files[0].path), "h\nx1\ny22\nend\n");
    EXPECT_EQ(ReadAll(files[1].path), "HDR!AAAABBBB");
    EXPECT_FALSE(cap.capped);
    EXPECT_EQ(cap.bytes, 4u + 4 + 7 + 4 + 4);
}
