// SPDX-License-Identifier: GPL-2.0-only
//
// The files RdmaTraceHelper writes, checked on a lone 1 MB flow whose every
// number is known by hand: fct line columns, rate rows, a busy link at 100%,
// a queue that never holds more than a packet or two, no PFC.

#include "rdma-network.h"
#include "rdma-trace.h"

#include <ns3/simulator.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

std::vector<std::string>
Lines(const std::string& path)
{
    std::ifstream f(path);
    std::vector<std::string> v;
    std::string l;
    while (std::getline(f, l))
    {
        v.push_back(l);
    }
    return v;
}

std::vector<std::string>
Split(const std::string& s, char sep)
{
    std::vector<std::string> v;
    std::stringstream ss(s);
    std::string x;
    while (std::getline(ss, x, sep))
    {
        v.push_back(x);
    }
    return v;
}

} // namespace

TEST(FilesTraces, LoneFlowOutputs)
{
    char dirTemplate[] = "/tmp/libcc-traces-XXXXXX";
    ASSERT_NE(mkdtemp(dirTemplate), nullptr);
    std::string d = dirTemplate;

    // Host 0 -> switches 2, 3, 4 -> host 1, 100 Gbps, 1 us links, no CC.
    RdmaNetwork net;
    net.SetCongestionControl("none");
    net.Build(MakeDumbbellTopology(1, 3, 100000000000ull, 1000));
    net.AddFlow(FlowSpec{0, 1, 3, 100, 1000000, 0, 0}, 0);
    {
        RdmaTraceHelper tr(net);
        tr.EnableFct(d + "/fct.txt", d + "/fct.csv");
        tr.EnablePfc(d + "/pfc.txt", d + "/pfc.csv");
        tr.TrackLink(2, 3);
        tr.EnableSampling(MicroSeconds(1), d + "/queue.csv", d + "/rate.csv", d + "/link.csv");
        Simulator::Stop(MicroSeconds(200));
        Simulator::Run();
        EXPECT_EQ(tr.GetFlowsCompleted(), 1u);
        EXPECT_EQ(tr.GetPfcPauses(), 0u);
    }
    Simulator::Destroy();

    // fct: node 0 = 11.0.0.1, node 1 = 11.0.1.1; first source port 10000;
    // dport 100; 1,000,000 bytes from 0 ns; ideal 95,901 ns (see the e2e test).
    auto fct = Lines(d + "/fct.txt");
    ASSERT_EQ(fct.size(), 1u);
    auto f = Split(fct[0], ' ');
    ASSERT_EQ(f.size(), 8u);
    EXPECT_EQ(f[0], "0b000001");
    EXPECT_EQ(f[1], "0b000101");
    EXPECT_EQ(f[2], "10000");
    EXPECT_EQ(f[3], "100");
    EXPECT_EQ(f[4], "1000000");
    EXPECT_EQ(f[5], "0");
    EXPECT_NEAR(std::stod(f[6]), 95813, 10);
    EXPECT_EQ(f[7], "95901");
    auto fcsv = Lines(d + "/fct.csv");
    ASSERT_EQ(fcsv.size(), 2u);
    EXPECT_EQ(fcsv[0],
              "flow,src,dst,size_bytes,start_ns,fct_ns,ideal_fct_ns,slowdown,retx_bytes,timeouts");

    EXPECT_TRUE(Lines(d + "/pfc.txt").empty());

    // rate: 'none' sends at line rate without a window (-1) until the end;
    // one row per us from 0 while active, then a last row with rate 0.
    auto rate = Lines(d + "/rate.csv");
    ASSERT_GT(rate.size(), 90u);
    EXPECT_EQ(rate[0], "time_ns,flow,rate_bps,window_bytes");
    EXPECT_EQ(rate[1], "0,0,100000000000,-1");
    EXPECT_EQ(rate[50], "49000,0,100000000000,-1");
    auto last = Split(rate.back(), ',');
    EXPECT_EQ(last[2], "0");
    // 95.8 us of flow: rows at 0..95 us while active plus the final one.
    EXPECT_EQ(rate.size(), 1u + 96u + 1u);

    // link 2 -> 3 is busy from about 2 us to 90 us: over 10-80 us its
    // utilisation averages 1 (1 us samples hold 11 or 12 packets of 87.52 ns,
    // so single samples read 0.963 or 1.050).
    double sum = 0;
    int n = 0;
    for (const auto& l : Lines(d + "/link.csv"))
    {
        auto c = Split(l, ',');
        if (c[0] == "time_ns")
        {
            continue;
        }
        double t = std::stod(c[0]);
        if (t >= 10000 && t <= 80000)
        {
            sum += std::stod(c[3]);
            n++;
        }
    }
    ASSERT_EQ(n, 71);
    EXPECT_NEAR(sum / n, 1.0, 0.01);

    // queue at switch 2's port to switch 3: arrivals and departures at the
    // same rate, so at most a frame or two (1074 bytes each) is ever queued.
    uint64_t qmax = 0;
    for (const auto& l : Lines(d + "/queue.csv"))
    {
        auto c = Split(l, ',');
        if (c[0] != "time_ns" && c[1] == "2")
        {
            qmax = std::max<uint64_t>(qmax, std::stoull(c[3]));
        }
    }
    EXPECT_LE(qmax, 2 * 1074u);
    std::string cmd = "rm -rf " + d;
    EXPECT_EQ(std::system(cmd.c_str()), 0);
}
