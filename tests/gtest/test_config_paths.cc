// SPDX-License-Identifier: GPL-2.0-only
//
// Queue pairs and switch ports through Config paths, as ns-3's NodeList and
// DeviceList: RdmaNic's QueuePairList and SwitchNode's PortList are
// ObjectVector attributes, so Config::Connect, ConnectWithoutContext and
// LookupMatches reach each queue pair's Rate and each port's QueueBytes.

#include "rdma-network.h"

#include <ns3/config.h>
#include <ns3/simulator.h>

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

const uint64_t G100 = 100000000000ull;

struct RateLog
{
    std::map<std::string, std::vector<std::pair<uint64_t, uint64_t>>> byPath;
    uint64_t calls = 0;
    static void On(RateLog* l, std::string path, uint64_t oldV, uint64_t newV)
    {
        l->byPath[path].emplace_back(oldV, newV);
    }
    static void Count(RateLog* l, uint64_t, uint64_t)
    {
        l->calls++;
    }
};

// Senders 0..n-1 -> one switch (n + 1) -> receiver n, 100 Gbps, 1 us
// links; one flow of `bytes` from each sender, all starting at 0.
void
BuildStar(RdmaNetwork& net, const char* algo, uint32_t senders, uint64_t bytes)
{
    net.SetCongestionControl(algo);
    net.Build(MakeDumbbellTopology(senders, 1, G100, 1000));
    for (uint32_t h = 0; h < senders; h++)
    {
        net.AddFlow(FlowSpec{h, senders, 3, 100, bytes, 0, 0}, h);
    }
}

std::string
NodePath(const RdmaNetwork& net, uint32_t id)
{
    return "/NodeList/" + std::to_string(net.GetNode(id)->GetId());
}

} // namespace

TEST(ConfigPaths, QueuePairRateThroughNodeListPath)
{
    // Two senders (0, 1) -> one switch (3) -> receiver 2; DCQCN, 100 Gbps.
    RdmaNetwork net;
    BuildStar(net, "dcqcn", 2, 200000);

    const std::string all = "/NodeList/*/$ns3::RdmaNic/QueuePairList/*";
    // One sending queue pair per flow; the receiver has none.
    Config::MatchContainer m = Config::LookupMatches(all);
    ASSERT_EQ(m.GetN(), 2u);
    EXPECT_EQ(m.GetMatchedPath(0), NodePath(net, 0) + "/$ns3::RdmaNic/QueuePairList/0/");
    EXPECT_EQ(m.GetMatchedPath(1), NodePath(net, 1) + "/$ns3::RdmaNic/QueuePairList/0/");
    EXPECT_EQ(Config::LookupMatches(NodePath(net, 2) + "/$ns3::RdmaNic/QueuePairList/*").GetN(),
              0u);

    RateLog log;
    Config::Connect(all + "/Rate", MakeBoundCallback(&RateLog::On, &log));
    Config::ConnectWithoutContext(all + "/Rate", MakeBoundCallback(&RateLog::Count, &log));
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();

    ASSERT_EQ(log.byPath.size(), 2u);
    uint64_t withContext = 0;
    for (uint32_t h = 0; h < 2; h++)
    {
        const auto& v = log.byPath[NodePath(net, h) + "/$ns3::RdmaNic/QueuePairList/0/Rate"];
        ASSERT_FALSE(v.empty()) << "host " << h;
        // libcc starts every flow at the line rate: 0 -> 100 Gbps.
        EXPECT_EQ(v[0].first, 0u);
        EXPECT_EQ(v[0].second, G100);
        // Two line-rate senders into one 100 Gbps port: DCQCN must cut.
        uint64_t lowest = G100;
        for (const auto& c : v)
        {
            lowest = std::min(lowest, c.second);
        }
        EXPECT_LT(lowest, G100) << "host " << h;
        // The path reaches the queue pair's own trace: its last value is the QP's rate.
        EXPECT_EQ(v.back().second, net.GetNic(h)->GetTxQueuePair(0)->GetRate());
        withContext += v.size();
    }
    EXPECT_EQ(log.calls, withContext);
    Simulator::Destroy();
}

namespace
{

struct QueueLog
{
    // port number -> (prio, bytes) calls, from the port's own trace source.
    std::map<uint32_t, std::vector<std::pair<uint8_t, uint64_t>>> byPort;
    std::vector<std::pair<uint8_t, uint64_t>> node; // the node's trace, port 1 only
    std::string prefix;
    static void OnPort(QueueLog* l, std::string path, uint8_t prio, uint64_t bytes)
    {
        // ".../PortList/<n>/QueueBytes"
        std::string rest = path.substr(l->prefix.size());
        l->byPort[std::stoul(rest.substr(0, rest.find('/')))].emplace_back(prio, bytes);
    }
    static void OnNode(QueueLog* l, uint32_t port, uint8_t prio, uint64_t bytes)
    {
        if (port == 1)
        {
            l->node.emplace_back(prio, bytes);
        }
    }
};

} // namespace

TEST(ConfigPaths, SwitchPortQueueBytesThroughPortList)
{
    // Sender 0 -> switch 2 -> receiver 1: the switch's port 0 faces the
    // sender, port 1 the receiver (ports are numbered in link order).
    RdmaNetwork net;
    BuildStar(net, "none", 1, 10000);
    const std::string sw = NodePath(net, 2) + "/$ns3::SwitchNode/PortList/";
    EXPECT_EQ(Config::LookupMatches(sw + "*").GetN(), 2u);
    EXPECT_EQ(Config::LookupMatches("/NodeList/*/$ns3::SwitchNode/PortList/*").GetN(), 2u);
    EXPECT_EQ(net.GetSwitch(2)->GetSwitchPort(1)->GetDevice(), net.GetLinkDevice(2, 1));

    QueueLog log;
    log.prefix = sw;
    Config::Connect(sw + "*/QueueBytes", MakeBoundCallback(&QueueLog::OnPort, &log));
    net.GetSwitch(2)->TraceConnectWithoutContext("QueueBytes",
                                                 MakeBoundCallback(&QueueLog::OnNode, &log));
    Simulator::Stop(MicroSeconds(100));
    Simulator::Run();

    // Port 1 (to the receiver): each of the 10 data frames (14 + 1056 + 4 =
    // 1074 bytes, priority 3) is queued then sent, the line being idle when
    // it arrives at the rate it leaves: 1074, 0, ten times.
    const auto& p1 = log.byPort[1];
    ASSERT_EQ(p1.size(), 20u);
    for (uint32_t i = 0; i < 20; i++)
    {
        EXPECT_EQ(p1[i].first, 3u);
        EXPECT_EQ(p1[i].second, i % 2 == 0 ? 1074u : 0u) << i;
    }
    // Port 0 (to the sender): the 10 ACKs, 14 + 58 + 4 = 76 bytes at the ACK priority 0.
    const auto& p0 = log.byPort[0];
    ASSERT_EQ(p0.size(), 20u);
    EXPECT_EQ(p0[0], std::make_pair(uint8_t(0), uint64_t(76)));
    EXPECT_EQ(p0[1], std::make_pair(uint8_t(0), uint64_t(0)));
    // The port's trace says what the node's (port, priority, bytes) trace says.
    EXPECT_EQ(log.node, p1);
    Simulator::Destroy();
}
