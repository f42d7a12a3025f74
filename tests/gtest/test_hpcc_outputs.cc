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
        ASSERT_EQ(std::sscanf(csv[i + 1].c_str(), "%llu,%u,%u,%u,%u,%u", &t2, &n2, &ty2, &if2, &pr,
                              &p2),
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
