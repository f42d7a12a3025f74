// SPDX-License-Identifier: GPL-2.0-only
//
// What a user of the HPCC simulator gets from ours as from that simulator:
// random loss per link from the topology's error_rate (recovered by go-back-N
// and the timeout, reproducible by RngSeed/RngRun), source ports per
// (src, dst) pair, pfc file interface numbers from 1, the qlen file, the
// binary packet trace (mix.tr) with its size cap, and its standalone FCT.
// Expected values are derived by hand in the comments.

#include "hpcc-format.h"
#include "rdma-network.h"
#include "rdma-trace.h"

#include <ns3/rng-seed-manager.h>
#include <ns3/simulator.h>
#include <ns3/uinteger.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const uint64_t G100 = 100000000000ull;

std::string
TmpDir(const std::string& name)
{
    std::string d = "build/test-out/hpcc-outputs/" + name;
    EXPECT_TRUE(MakeOutputDir(d));
    return d;
}

std::vector<std::string>
Lines(const std::string& path)
{
    std::ifstream in(path);
    std::vector<std::string> v;
    for (std::string l; std::getline(in, l);)
    {
        v.push_back(l);
    }
    return v;
}

std::string
Bytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

template <typename T>
T
Get(const std::string& b, size_t off)
{
    uint64_t v = 0;
    for (size_t i = 0; i < sizeof(T); i++)
    {
        v |= uint64_t(uint8_t(b[off + i])) << (8 * i);
    }
    return static_cast<T>(v);
}

struct Delivery
{
    std::map<uint32_t, uint64_t> next;
    uint64_t violations = 0;
    std::vector<RdmaFlowRecord> recs;
    static void OnBytes(Delivery* d, uint32_t flow, uint64_t seq, uint32_t bytes)
    {
        uint64_t& n = d->next[flow];
        d->violations += seq != n;
        n = seq + bytes;
    }
    static void OnDone(Delivery* d, const RdmaFlowRecord& r)
    {
        d->recs.push_back(r);
    }
    void Hook(RdmaNetwork& net)
    {
        for (uint32_t id = 0; id < net.GetNNodes(); id++)
        {
            if (!net.IsSwitch(id))
            {
                net.GetNic(id)->TraceConnectWithoutContext("RxDeliver",
                                                           MakeBoundCallback(&OnBytes, this));
                net.GetNic(id)->TraceConnectWithoutContext("FlowComplete",
                                                           MakeBoundCallback(&OnDone, this));
            }
        }
    }
};

// Three senders (0, 1, 2) -> switch 4 -> switch 5 -> receiver 3, 100 Gbps,
// 1 us; the switch-switch link (index 3) loses `rate` of what either end
// receives: the data one way, the ACKs the other.
struct LossRun
{
    std::vector<uint64_t> drops; // per device, link order
    std::vector<uint64_t> fcts;
    std::vector<uint64_t> retx;
    uint64_t violations = 0;
    std::map<uint32_t, uint64_t> delivered;
    size_t completed = 0;
};

LossRun
RunLossy(double rate, uint32_t rngRun)
{
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(rngRun);
    RdmaNetwork net;
    net.SetCongestionControl("none");
    net.SetNicAttribute("RetransmitTimeout", TimeValue(MicroSeconds(100)));
    TopologySpec t = MakeDumbbellTopology(3, 2, G100, 1000);
    t.links[3].errorRate = rate;
    net.Build(t);
    Delivery d;
    d.Hook(net);
    for (uint32_t s = 0; s < 3; s++)
    {
        net.AddFlow(FlowSpec{s, 3, 3, 100, 300000, s * 1000, 0}, s);
    }
    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();
    LossRun r;
    for (const auto& dev : net.GetDevices())
    {
        r.drops.push_back(dev->GetRxErrorDrops());
    }
    for (const auto& rec : d.recs)
    {
        r.fcts.push_back(rec.fctNs);
        r.retx.push_back(rec.retransmittedBytes);
    }
    r.violations = d.violations;
    r.delivered = d.next;
    r.completed = d.recs.size();
    Simulator::Destroy();
    RngSeedManager::SetRun(1);
    return r;
}

} // namespace

TEST(HpccLoss, GoBackNAndTheTimeoutDeliverEveryByteOnceUnderOnePercentLoss)
{
    LossRun r = RunLossy(0.01, 1);
    // 900 data packets cross the lossy link one way and their ACKs the
    // other: at 1% some of both are lost (devices 6, 7 are link 3's ends).
    uint64_t lost = 0;
    for (size_t i = 0; i < r.drops.size(); i++)
    {
        if (i != 6 && i != 7)
        {
            EXPECT_EQ(r.drops[i], 0u) << "device " << i << " is on a lossless link";
        }
        lost += r.drops[i];
    }
    EXPECT_GT(r.drops[6], 0u);
    EXPECT_GT(r.drops[7], 0u);
    ASSERT_EQ(r.completed, 3u);
    EXPECT_EQ(r.violations, 0u); // every byte once, in order
    for (uint32_t f = 0; f < 3; f++)
    {
        EXPECT_EQ(r.delivered[f], 300000u) << "flow " << f;
    }
    uint64_t retx = 0;
    for (size_t i = 0; i < 3; i++)
    {
        EXPECT_LT(r.fcts[i], 50000000u); // finished within the run
        retx += r.retx[i];
    }
    EXPECT_GT(retx, 0u);
    EXPECT_GT(lost, 0u);
}

TEST(HpccLoss, TheSameRunDropsTheSameFramesAnotherRunOthers)
{
    LossRun a = RunLossy(0.01, 1);
    LossRun b = RunLossy(0.01, 1);
    LossRun c = RunLossy(0.01, 2);
    EXPECT_EQ(a.drops, b.drops);
    EXPECT_EQ(a.fcts, b.fcts);
    EXPECT_EQ(a.retx, b.retx);
    EXPECT_TRUE(a.drops != c.drops || a.fcts != c.fcts);
    EXPECT_EQ(c.completed, 3u);
    EXPECT_EQ(c.violations, 0u);
}

TEST(HpccLoss, ZeroRateDrawsNothing)
{
    LossRun r = RunLossy(0, 1);
    for (uint64_t d : r.drops)
    {
        EXPECT_EQ(d, 0u);
    }
    for (uint64_t x : r.retx)
    {
        EXPECT_EQ(x, 0u);
    }
}

TEST(HpccPorts, SourcePortsCountPerSourceDestinationPairFrom10000)
{
    // Hosts 0, 1, 2, receiver 3 on one switch. In flow order:
    // 0->3 10000, 0->1 10000, 0->3 10001, 1->3 10000, 0->1 10001, 2->3 10000.
    RdmaNetwork net;
    net.Build(MakeDumbbellTopology(3, 1, G100, 1000));
    std::vector<std::pair<uint32_t, uint32_t>> pairs{{0, 3}, {0, 1}, {0, 3},
                                                     {1, 3}, {0, 1}, {2, 3}};
    std::vector<uint16_t> want{10000, 10000, 10001, 10000, 10001, 10000};
    for (size_t i = 0; i < pairs.size(); i++)
    {
        Ptr<RdmaTxQueuePair> qp =
            net.AddFlow(FlowSpec{pairs[i].first, pairs[i].second, 3, 100, 1000, 0, 0}, i);
        EXPECT_EQ(qp->GetFlow().sport, want[i]) << "flow " << i;
    }
    Simulator::Destroy();
}

TEST(HpccPorts, APairsPortsEndAt65535)
{
    // 10000..65535 are 55,536 ports: the pair's next flow is refused, naming
    // it; another pair still starts at 10000.
    RdmaNetwork net;
    net.Build(MakeDumbbellTopology(2, 1, G100, 1000));
    for (uint32_t i = 0; i < 55536; i++)
    {
        net.AddFlow(FlowSpec{0, 2, 3, 100, 1000, 1000000000, 0}, i);
    }
    EXPECT_EQ(net.GetFlows().back()->GetFlow().sport, 65535);
    try
    {
        net.AddFlow(FlowSpec{0, 2, 3, 100, 1000, 1000000000, 0}, 55536);
        ADD_FAILURE() << "no error";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("more than 55536 flows from host 0 to host 2"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_EQ(net.AddFlow(FlowSpec{1, 2, 3, 100, 1000, 1000000000, 0}, 55537)->GetFlow().sport,
              10000);
    Simulator::Destroy();
}

TEST(HpccPfc, InterfacesCountFromOneAsWithTheLoopbackAtZero)
{
    // 8 senders into one switch (node 9) with a 30 KB threshold: the switch
    // pauses the senders. A host's one device is ns-3 device 0 here, 1 in the
    // HPCC simulator (its loopback is 0), so every host line says 1; every
    // pfc.txt line is its pfc.csv line with the interface plus 1.
    std::string d = TmpDir("pfc");
    RdmaNetwork net;
    net.SetSwitchAttribute("PfcStaticThreshold", UintegerValue(30000));
    net.Build(MakeDumbbellTopology(8, 1, G100, 1000));
    {
        RdmaTraceHelper tr(net);
        tr.EnablePfc(d + "/pfc.txt", d + "/pfc.csv");
        for (uint32_t s = 0; s < 8; s++)
        {
            net.AddFlow(FlowSpec{s, 8, 3, 100, 100000, 0, 0}, s);
        }
        Simulator::Stop(MilliSeconds(2));
        Simulator::Run();
        EXPECT_GT(tr.GetPfcPauses(), 0u);
    }
    std::vector<std::string> txt = Lines(d + "/pfc.txt");
    std::vector<std::string> csv = Lines(d + "/pfc.csv");
    ASSERT_GT(txt.size(), 0u);
    ASSERT_EQ(csv.size(), txt.size() + 1); // + header
    uint32_t hostLines = 0;
    for (size_t i = 0; i < txt.size(); i++)
    {
        unsigned long long t1, t2;
        unsigned n1, n2, ty1, ty2, if1, if2, pr, p1, p2;
        ASSERT_EQ(std::sscanf(txt[i].c_str(), "%llu %u %u %u %u", &t1, &n1, &ty1, &if1, &p1), 5);
        ASSERT_EQ(
            std::sscanf(csv[i + 1].c_str(), "%llu,%u,%u,%u,%u,%u", &t2, &n2, &ty2, &if2, &pr, &p2),
            6);
        EXPECT_EQ(t1, t2);
        EXPECT_EQ(n1, n2);
        EXPECT_EQ(if1, if2 + 1);
        if (ty1 == 0)
        {
            EXPECT_EQ(if1, 1u) << txt[i];
            hostLines++;
        }
    }
    EXPECT_GT(hostLines, 0u);
    Simulator::Destroy();
}

TEST(HpccQlen, CumulativeHistogramPerPortDumpedAtMultiplesAndAtTheEnd)
{
    // Dumbbell host 0 -> switches 2, 3, 4 -> host 1; no flows, so every
    // port's queue is 0 KB at each sample. Samples at 0, 100, 200, 300 ns;
    // dumps at multiples of 200 ns (0 after 1 sample, 200 after 3) and at
    // Close (300 ns, after 4). Ports count from 1: switch 2 has 1 (to host
    // 0) and 2 (to switch 3), and so on.
    std::string d = TmpDir("qlen");
    RdmaNetwork net;
    net.Build(MakeDumbbellTopology(1, 3, G100, 1000));
    {
        RdmaTraceHelper tr(net);
        tr.EnableQlen(d + "/qlen.txt", Time(0), NanoSeconds(300), NanoSeconds(100),
                      NanoSeconds(200));
        Simulator::Stop(NanoSeconds(1000));
        Simulator::Run();
    }
    std::vector<std::string> want;
    for (const char* t : {"0", "200", "1000"})
    {
        const char* n = std::string(t) == "0" ? "1" : std::string(t) == "200" ? "3" : "4";
        want.push_back(std::string("time: ") + t);
        for (const char* port : {"2 1", "2 2", "3 1", "3 2", "4 1", "4 2"})
        {
            want.push_back(std::string(port) + " " + n);
        }
    }
    EXPECT_EQ(Lines(d + "/qlen.txt"), want);
    Simulator::Destroy();
}

namespace
{

// One 3000-byte flow (3 packets of 1000) from host 0 over switch 2 to host 1,
// host 0's devices traced.
std::string
TraceLoneFlow(const std::string& path, uint64_t cap, bool* capped)
{
    RdmaNetwork net;
    net.SetNicAttribute("PayloadSize", UintegerValue(1000));
    net.Build(MakeDumbbellTopology(1, 1, G100, 1000));
    net.AddFlow(FlowSpec{0, 1, 3, 100, 3000, 0, 0}, 0);
    {
        RdmaTraceHelper tr(net);
        tr.SetMaxTraceBytes(cap);
        tr.EnablePacketTrace(path, {0});
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        *capped = tr.IsTraceCapped();
    }
    Simulator::Destroy();
    return Bytes(path);
}

} // namespace

TEST(HpccTrace, MixTrBinaryFormat)
{
    std::string d = TmpDir("trace");
    bool capped = true;
    std::string b = TraceLoneFlow(d + "/mix.tr", 0, &capped);
    EXPECT_FALSE(capped);
    // Header: 2 links = 4 ports x (2 + 1 + 8) bytes, then the window:
    // 4 + 44 + 4 = 52 bytes. Ports in link order: node 0 if 1, node 2 if 1,
    // node 2 if 2, node 1 if 1, all 100 Gbps.
    ASSERT_GE(b.size(), 52u);
    ASSERT_EQ(Get<uint32_t>(b, 0), 4u);
    uint32_t nodes[] = {0, 2, 2, 1}, ifs[] = {1, 1, 2, 1};
    for (int i = 0; i < 4; i++)
    {
        EXPECT_EQ(Get<uint16_t>(b, 4 + 11 * i), nodes[i]);
        EXPECT_EQ(Get<uint8_t>(b, 6 + 11 * i), ifs[i]);
        EXPECT_EQ(Get<uint64_t>(b, 7 + 11 * i), G100);
    }
    // Window: the HPCC simulator's pair RTT of 2 hops, 2 x (2 x 1000 +
    // 1000 x 8 / 100) = 4160 ns, x 100 Gbps / 8 = 52,000 bytes.
    EXPECT_EQ(Get<uint32_t>(b, 48), 52000u);
    ASSERT_EQ((b.size() - 52) % 56, 0u);
    // Records: host 0 sends 3 data packets (Dequ, UDP 0x11), seq 0, 1000,
    // 2000, from 11.0.0.1 to 11.0.1.1, ports 10000 -> 100, 1000 payload,
    // 14 + 1056 bytes; and receives ACKs (Recv, 0xFC) with the ports swapped.
    std::vector<uint32_t> seqs;
    uint32_t acks = 0;
    for (size_t off = 52; off < b.size(); off += 56)
    {
        EXPECT_EQ(Get<uint16_t>(b, off + 8), 0u); // node
        EXPECT_EQ(Get<uint8_t>(b, off + 10), 1u); // intf
        EXPECT_EQ(Get<uint8_t>(b, off + 29), 0u); // host
        uint8_t prot = Get<uint8_t>(b, off + 26), ev = Get<uint8_t>(b, off + 27);
        if (prot == 0x11)
        {
            EXPECT_EQ(ev, 2u);                        // Dequ
            EXPECT_EQ(Get<uint8_t>(b, off + 11), 3u); // qidx = pg
            EXPECT_EQ(Get<uint32_t>(b, off + 16), 0x0b000001u);
            EXPECT_EQ(Get<uint32_t>(b, off + 20), 0x0b000101u);
            EXPECT_EQ(Get<uint16_t>(b, off + 24), 1070u);
            EXPECT_EQ(Get<uint16_t>(b, off + 32), 10000u);
            EXPECT_EQ(Get<uint16_t>(b, off + 34), 100u);
            seqs.push_back(Get<uint32_t>(b, off + 36));
            EXPECT_EQ(Get<uint16_t>(b, off + 48), 3u);
            EXPECT_EQ(Get<uint16_t>(b, off + 50), 1000u);
        }
        else
        {
            EXPECT_EQ(prot, 0xFCu);
            EXPECT_EQ(ev, 0u); // Recv
            EXPECT_EQ(Get<uint32_t>(b, off + 16), 0x0b000101u);
            EXPECT_EQ(Get<uint16_t>(b, off + 32), 100u);
            EXPECT_EQ(Get<uint16_t>(b, off + 34), 10000u);
            acks++;
        }
    }
    EXPECT_EQ(seqs, (std::vector<uint32_t>{0, 1000, 2000}));
    EXPECT_GT(acks, 0u);
}

TEST(HpccTrace, TheCapStopsTheTraceWithOneWarning)
{
    // Header 52 bytes + 2 records of 56 = 164: the third record would pass
    // the cap, so the file ends after two and one warning is printed.
    std::string d = TmpDir("trace-cap");
    bool capped = false;
    testing::internal::CaptureStderr();
    std::string b = TraceLoneFlow(d + "/mix.tr", 164, &capped);
    std::string err = testing::internal::GetCapturedStderr();
    EXPECT_TRUE(capped);
    EXPECT_EQ(b.size(), 164u);
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    EXPECT_NE(err.find("164 bytes (--maxTraceBytes)"), std::string::npos) << err;
}

TEST(HpccIdealFct, BothDefinitionsByHand)
{
    // Host 0 -> switches 2, 3, 4 -> host 1, four 100 Gbps links of 1 us,
    // 1000-byte payloads, one 1,000,000-byte flow (1000 packets).
    //  ours: 95,901 ns (E2eLoneFlow: base RTT 8381 + 1000 x 1094 B at 100 Gbps).
    //  hpcc-sim: pairRtt = 4 x (2 x 1000 + 1000 x 8 / 100) = 8320 ns, plus
    //  (1,000,000 + 1000 x 48) x 8 / 100 = 83,840 ns: 92,160 ns.
    std::string d = TmpDir("ideal");
    for (IdealFctKind k : {IdealFctKind::OURS, IdealFctKind::HPCC_SIM})
    {
        RdmaNetwork net;
        net.Build(MakeDumbbellTopology(1, 3, G100, 1000));
        EXPECT_EQ(net.GetPath(0, 1).hpccBaseRttNs, 8320u);
        net.AddFlow(FlowSpec{0, 1, 3, 100, 1000000, 0, 0}, 0);
        {
            RdmaTraceHelper tr(net);
            tr.SetIdealFct(k);
            tr.EnableFct(d + "/fct.txt", "");
            Simulator::Stop(MilliSeconds(1));
            Simulator::Run();
        }
        std::vector<std::string> l = Lines(d + "/fct.txt");
        ASSERT_EQ(l.size(), 1u);
        std::string ideal = l[0].substr(l[0].rfind(' ') + 1);
        EXPECT_EQ(ideal, k == IdealFctKind::OURS ? "95901" : "92160");
        Simulator::Destroy();
    }
}
