// SPDX-License-Identifier: GPL-2.0-only
//
// --ccLog: which flow lists FlowIdSet accepts, CcLogWriter's check of them
// against the flows, and the cc-log.csv of a small run (values derived by
// hand in the comments).
#include "cc-log-writer.h"
#include "rdma-network.h"

#include <ns3/simulator.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const uint64_t G100 = 100000000000ull;

FlowIdSet
Parsed(const std::string& text)
{
    FlowIdSet s;
    std::string why;
    EXPECT_TRUE(FlowIdSet::Parse(text, s, why)) << text << ": " << why;
    return s;
}

std::string
Refusal(const std::string& text)
{
    FlowIdSet s;
    std::string why;
    EXPECT_FALSE(FlowIdSet::Parse(text, s, why)) << text;
    return why;
}

std::vector<std::vector<std::string>>
ReadCsv(const std::string& path)
{
    std::ifstream in(path);
    std::vector<std::vector<std::string>> rows;
    for (std::string line; std::getline(in, line);)
    {
        std::vector<std::string> cells;
        std::stringstream ss(line);
        for (std::string c; std::getline(ss, c, ',');)
        {
            cells.push_back(c);
        }
        if (!line.empty() && line.back() == ',')
        {
            cells.emplace_back(); // an empty last column
        }
        rows.push_back(cells);
    }
    return rows;
}

} // namespace

TEST(FlowIdSet, AllNoneIdsAndRanges)
{
    EXPECT_TRUE(Parsed("all").all);
    EXPECT_TRUE(Parsed("all").Contains(4000000000u));
    EXPECT_TRUE(Parsed("none").Empty());
    FlowIdSet s = Parsed("0-3,7,9-9");
    for (uint32_t id : {0u, 1u, 2u, 3u, 7u, 9u})
    {
        EXPECT_TRUE(s.Contains(id)) << id;
    }
    for (uint32_t id : {4u, 6u, 8u, 10u})
    {
        EXPECT_FALSE(s.Contains(id)) << id;
    }
    EXPECT_TRUE(Parsed("4294967295").Contains(4294967295u));
}

TEST(FlowIdSet, RefusalsSayWhy)
{
    EXPECT_EQ(Refusal(""), "an empty item");
    EXPECT_EQ(Refusal("0,,1"), "an empty item");
    EXPECT_EQ(Refusal("1,"), "an empty item");
    EXPECT_EQ(Refusal("3-1"), "range 3-1 ends before it starts");
    EXPECT_EQ(Refusal("2-"), "range '2-' has no last flow id");
    EXPECT_EQ(Refusal("x"), "'x' is not a flow id");
    EXPECT_EQ(Refusal("-1"), "'-1' is not a flow id");
    EXPECT_EQ(Refusal("1 2"), "' 2' after flow id 1");
    EXPECT_EQ(Refusal("4294967296"), "flow id 4294967296 is above 4294967295");
    EXPECT_EQ(Refusal("ALL"), "'ALL' is not a flow id");
}

TEST(CcLogWriter, CheckFlowsNamesTheFirstMissingFlow)
{
    std::string why;
    EXPECT_TRUE(CcLogWriter::CheckFlows(Parsed("0-3"), 4, why));
    EXPECT_TRUE(CcLogWriter::CheckFlows(Parsed("all"), 0, why));
    EXPECT_FALSE(CcLogWriter::CheckFlows(Parsed("0-3"), 3, why));
    EXPECT_EQ(why, "no flow 3: the flows are 0 .. 2");
    EXPECT_FALSE(CcLogWriter::CheckFlows(Parsed("1,5-6"), 2, why));
    EXPECT_EQ(why, "no flow 5: the flows are 0 .. 1");
    EXPECT_FALSE(CcLogWriter::CheckFlows(Parsed("0"), 0, why));
    EXPECT_EQ(why, "no flow 0: there are no flows");
}

// Two senders (0, 1) -> one switch -> receiver 2, 100 Gbit/s, 1 us links,
// both flows from t = 0: the switch's port to the receiver marks, the
// receiver sends CNPs. DCQCN with the cut at the CNP: a flow's first CNP
// at line rate with alpha at its initial 1 gives 100 x (1 - 1/2) = 50
// Gbit/s; DCQCN has no window (-1). Only flow 1 is logged.
TEST(CcLogWriter, LogsTheChosenFlowsDecisions)
{
    const std::string path = ::testing::TempDir() + "/cc-log-writer-test.csv";
    {
        RdmaNetwork net;
        net.SetCongestionControl("dcqcn", "cut_on_cnp=1");
        net.Build(MakeDumbbellTopology(2, 1, G100, 1000));
        for (uint32_t h = 0; h < 2; h++)
        {
            net.AddFlow(FlowSpec{h, 2, 3, 100, 10000000, 0, 0}, h);
        }
        CcLogWriter w;
        ASSERT_EQ(w.Start("test", net, Parsed("1"), path), -1);
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        w.Close();
        EXPECT_GT(w.GetRows(), 0u);
        Simulator::Destroy();
    }
    auto rows = ReadCsv(path);
    ASSERT_GE(rows.size(), 2u);
    EXPECT_EQ(rows[0],
              (std::vector<std::string>{"time_ns", "flow_id", "event", "action", "old_rate_bps",
                                        "new_rate_bps", "old_window_bytes", "new_window_bytes",
                                        "inputs"}));
    bool sawCnp = false;
    for (size_t i = 1; i < rows.size(); i++)
    {
        ASSERT_EQ(rows[i].size(), 9u) << i;
        EXPECT_EQ(rows[i][1], "1") << i;
        if (!sawCnp && rows[i][2] == "cnp")
        {
            sawCnp = true;
            EXPECT_EQ(rows[i][4], "100000000000");
            EXPECT_EQ(rows[i][5], "50000000000");
            EXPECT_EQ(rows[i][6], "-1");
            EXPECT_EQ(rows[i][7], "-1");
        }
    }
    EXPECT_TRUE(sawCnp);
}

// No flows named: nothing is opened, nothing is written.
TEST(CcLogWriter, NoFlowsNoFile)
{
    const std::string path = ::testing::TempDir() + "/cc-log-writer-none.csv";
    std::remove(path.c_str());
    RdmaNetwork net;
    net.SetCongestionControl("none");
    net.Build(MakeDumbbellTopology(1, 1, G100, 1000));
    net.AddFlow(FlowSpec{0, 1, 3, 100, 10000, 0, 0}, 0);
    CcLogWriter w;
    EXPECT_EQ(w.Start("test", net, Parsed("none"), path), -1);
    EXPECT_FALSE(std::ifstream(path).good());
    // A flow that is not there: exit status 2 (the message is on stderr).
    EXPECT_EQ(w.Start("test", net, Parsed("1"), path), 2);
    Simulator::Destroy();
}
