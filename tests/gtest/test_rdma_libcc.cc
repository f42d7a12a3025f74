// SPDX-License-Identifier: GPL-2.0-only
//
// The C++ wrappers over libcc: ns-3 attributes generated from libcc's
// parameter tables (types by unit, defaults, ranges, Config::SetDefault,
// name=value text, errors naming the parameter) and the mapping of libcc's
// deadlines onto one ns-3 event per object.

#include "libcc-agent.h"
#include "libcc-config.h"

#include <ns3/boolean.h>
#include <ns3/config.h>
#include <ns3/data-rate.h>
#include <ns3/double.h>
#include <ns3/nstime.h>
#include <ns3/simulator.h>
#include <ns3/uinteger.h>

#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>

using namespace ns3;

TEST(RdmaLibccConfig, EveryAlgorithmHasATypeIdWithItsParameters)
{
    for (const char* const* a = libcc_algorithms(); *a; a++)
    {
        const libcc_param_desc* table;
        size_t n;
        ASSERT_EQ(libcc_algorithm_params(*a, &table, &n), LIBCC_OK);
        const libcc_param_desc* common;
        size_t nc;
        libcc_common_params(&common, &nc);
        // ack_interval, max_hops, activity_window come first for everyone.
        ASSERT_EQ(nc, 3u);
        TypeId tid = LibccConfig::GetTypeIdFor(*a);
        EXPECT_EQ(tid.GetName(), std::string("ns3::LibccConfig::") + *a);
        ASSERT_EQ(tid.GetAttributeN(), nc + n) << *a;
        EXPECT_EQ(tid.GetAttribute(0).name, "ack_interval");
        EXPECT_EQ(tid.GetAttribute(1).name, "max_hops");
        EXPECT_EQ(tid.GetAttribute(2).name, "activity_window");
        for (size_t i = 0; i < nc + n; i++)
        {
            EXPECT_EQ(tid.GetAttribute(i).name, i < nc ? common[i].name : table[i - nc].name);
            // The help names the unit and range.
            EXPECT_NE(tid.GetAttribute(i).help.find("range"), std::string::npos);
        }
    }
    EXPECT_THROW(LibccConfig::GetTypeIdFor("tcp-reno"), std::invalid_argument);
}

TEST(RdmaLibccConfig, AttributesUseTheUnitsTypes)
{
    Ptr<LibccConfig> c = LibccConfig::Create("dcqcn");
    EXPECT_EQ(c->GetAlgorithm(), "dcqcn");
    // bits/s -> DataRate: 40 Mbps is 4e7 bits/s.
    EXPECT_TRUE(c->SetAttributeFailSafe("rpg_ai_rate", DataRateValue(DataRate("40Mbps"))));
    EXPECT_DOUBLE_EQ(c->Get("rpg_ai_rate"), 40e6);
    // ns -> Time: 50 us is 50,000 ns.
    EXPECT_TRUE(c->SetAttributeFailSafe("rpg_time_reset", TimeValue(MicroSeconds(50))));
    EXPECT_DOUBLE_EQ(c->Get("rpg_time_reset"), 50000);
    // bytes -> Uinteger.
    EXPECT_TRUE(c->SetAttributeFailSafe("kmin", UintegerValue(5000)));
    EXPECT_DOUBLE_EQ(c->Get("kmin"), 5000);
    // ratio -> Double, checked against [0, 1].
    EXPECT_TRUE(c->SetAttributeFailSafe("pmax", DoubleValue(0.5)));
    EXPECT_DOUBLE_EQ(c->Get("pmax"), 0.5);
    EXPECT_FALSE(c->SetAttributeFailSafe("pmax", DoubleValue(1.5)));
    EXPECT_DOUBLE_EQ(c->Get("pmax"), 0.5);
    // bool -> Boolean.
    EXPECT_TRUE(c->SetAttributeFailSafe("rpg_hai_scale_by_stage", BooleanValue(true)));
    EXPECT_DOUBLE_EQ(c->Get("rpg_hai_scale_by_stage"), 1);
    // Reading back through the attribute system gives the ns-3 value.
    DataRateValue r;
    c->GetAttribute("rpg_ai_rate", r);
    EXPECT_EQ(r.Get().GetBitRate(), 40000000u);
    TimeValue t;
    c->GetAttribute("rpg_time_reset", t);
    EXPECT_EQ(t.Get(), MicroSeconds(50));
}

TEST(RdmaLibccConfig, CommonParametersAreAttributesToo)
{
    // m (ACK every m packets) is a common parameter: a count, default 1.
    Ptr<LibccConfig> c = LibccConfig::Create("none");
    UintegerValue m;
    ASSERT_TRUE(c->GetAttributeFailSafe("ack_interval", m));
    EXPECT_EQ(m.Get(), 1u);
    EXPECT_TRUE(c->SetAttributeFailSafe("ack_interval", UintegerValue(8)));
    EXPECT_DOUBLE_EQ(c->Get("ack_interval"), 8);
    EXPECT_TRUE(c->SetAttributeFailSafe("activity_window", TimeValue(MicroSeconds(30))));
    EXPECT_DOUBLE_EQ(c->Get("activity_window"), 30000);
}

TEST(RdmaLibccConfig, ConfigSetDefaultReachesNewObjects)
{
    UintegerValue old;
    LibccConfig::Create("dcqcn")->GetAttribute("kmin", old);
    Config::SetDefault("ns3::LibccConfig::dcqcn::kmin", UintegerValue(7000));
    EXPECT_DOUBLE_EQ(LibccConfig::Create("dcqcn")->Get("kmin"), 7000);
    Config::SetDefault("ns3::LibccConfig::dcqcn::kmin", old);
    EXPECT_DOUBLE_EQ(LibccConfig::Create("dcqcn")->Get("kmin"), double(old.Get()));
}

TEST(RdmaLibccConfig, NameValueTextAndErrorsNameTheParameter)
{
    Ptr<LibccConfig> c = LibccConfig::Create("hpcc", "ack_interval=4, max_hops=3");
    EXPECT_DOUBLE_EQ(c->Get("ack_interval"), 4);
    EXPECT_DOUBLE_EQ(c->Get("max_hops"), 3);
    try
    {
        LibccConfig::Create("dcqcn", "kmin=lots");
        FAIL() << "accepted kmin=lots";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("kmin"), std::string::npos) << e.what();
    }
    try
    {
        LibccConfig::Create("dcqcn", "no_such_knob=1");
        FAIL() << "accepted an unknown parameter";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("no_such_knob"), std::string::npos) << e.what();
    }
    std::string err;
    EXPECT_FALSE(c->Set("max_hops", "99", &err)); // at most LIBCC_INT_MAX_HOPS = 8
    EXPECT_NE(err.find("max_hops"), std::string::npos) << err;
    EXPECT_DOUBLE_EQ(c->Get("max_hops"), 3);
}

TEST(RdmaLibccConfig, PresetsApplyAndAreListedInTheHelp)
{
    // The DCQCN paper's values (Zhu et al. 2015): Kmin 5 KB, Kmax 200 KB,
    // 55 us increase timer; an item after the preset wins.
    Ptr<LibccConfig> c = LibccConfig::Create("dcqcn", "preset=paper,kmax=300KB");
    EXPECT_DOUBLE_EQ(c->Get("kmin"), 5000);
    EXPECT_DOUBLE_EQ(c->Get("kmax"), 300000);
    EXPECT_DOUBLE_EQ(c->Get("rpg_time_reset"), 55000);
    std::string err;
    EXPECT_TRUE(c->Set("preset", "hpcc-sim", &err)) << err;
    EXPECT_DOUBLE_EQ(c->Get("rpg_min_rate"), 1e9);
    EXPECT_FALSE(c->Set("preset", "nope", &err));
    EXPECT_NE(err.find("nope"), std::string::npos) << err;
    std::string help = LibccConfig::Describe("dcqcn");
    EXPECT_NE(help.find("preset=paper"), std::string::npos) << help;
    EXPECT_NE(help.find("preset=hpcc-sim"), std::string::npos) << help;
    EXPECT_NE(help.find("preset=hpcc-sim-config"), std::string::npos) << help;
    EXPECT_NE(LibccConfig::Describe("hpcc").find("preset=hpcc-sim-config"), std::string::npos);
    EXPECT_EQ(LibccConfig::Describe("fncc").find("preset="), std::string::npos);
}

TEST(RdmaLibccConfig, AssignmentsRoundTripExactly)
{
    Ptr<LibccConfig> a = LibccConfig::Create("dcqcn", "rpg_ai_rate=12345678bps,g=0.0123");
    Ptr<LibccConfig> b = LibccConfig::Create("dcqcn", a->ToAssignments());
    TypeId tid = LibccConfig::GetTypeIdFor("dcqcn");
    for (size_t i = 0; i < tid.GetAttributeN(); i++)
    {
        std::string name = tid.GetAttribute(i).name;
        EXPECT_DOUBLE_EQ(a->Get(name), b->Get(name)) << name;
    }
    EXPECT_DOUBLE_EQ(b->Get("rpg_ai_rate"), 12345678);
}

namespace
{

struct Seen
{
    uint64_t rate = 0;
    int rateCalls = 0;
    void OnRate(uint64_t r)
    {
        rate = r;
        rateCalls++;
    }
    void OnWindow(uint64_t) {}
    // The re-entry policy: wake comes after the timer call returned, so the
    // rate it reports is the one libcc holds then.
    int wakes = 0;
    int rateCallsAtLastWake = 0;
    void OnWake()
    {
        wakes++;
        rateCallsAtLastWake = rateCalls;
    }
};

// The pending event's time in ns.
int64_t
EventNs(const EventId& e)
{
    return TimeStep(e.GetTs()).GetNanoSeconds();
}

} // namespace

TEST(RdmaLibccAgent, DeadlinesBecomeOneNs3Event)
{
    // cut_on_cnp=1: the cut comes with the CNP, so the test sees a rate
    // change at once (the default cuts at the end of the monitor period).
    Ptr<LibccConfig> cfg = LibccConfig::Create("dcqcn", "cut_on_cnp=1");
    libcc_flow_info fi{};
    fi.flow_id = 1;
    fi.line_rate_bps = 100000000000ull;
    fi.base_rtt_ns = 10000;
    fi.mtu_bytes = 1094;
    Seen seen;
    {
        LibccRp rp(cfg->GetParams(), fi, MakeCallback(&Seen::OnRate, &seen),
                   MakeCallback(&Seen::OnWindow, &seen), Callback<void>(),
                   MakeCallback(&Seen::OnWake, &seen));
        EXPECT_EQ(rp.GetRate(), 100000000000u); // DCQCN starts at line rate
        // A CNP cuts the rate (rate_changed) and arms DCQCN's timers.
        rp.OnCnp();
        EXPECT_EQ(rp.GetErrors(), 0u);
        EXPECT_GE(seen.rateCalls, 1);
        EXPECT_LT(seen.rate, 100000000000u);
        uint64_t cut = rp.GetRate();
        uint64_t d = libcc_rp_deadline_ns(rp.Raw());
        ASSERT_NE(d, LIBCC_NO_DEADLINE);
        ASSERT_TRUE(rp.GetTimerEvent().IsRunning());
        EXPECT_EQ(uint64_t(EventNs(rp.GetTimerEvent())), d);
        // Run across several deadlines: every one is followed by the next.
        Simulator::Stop(MicroSeconds(700));
        Simulator::Run();
        EXPECT_EQ(rp.GetErrors(), 0u);
        uint64_t d2 = libcc_rp_deadline_ns(rp.Raw());
        if (d2 != LIBCC_NO_DEADLINE)
        {
            EXPECT_GE(d2, 700000u); // not yet run: the stop came first
            ASSERT_TRUE(rp.GetTimerEvent().IsRunning());
            EXPECT_EQ(uint64_t(EventNs(rp.GetTimerEvent())), d2);
        }
        // Without further CNPs DCQCN raises the rate one stage every
        // rpg_time_reset (300 us by default): by 700 us two timer stages ran
        // through these events, so the rate is above the cut.
        EXPECT_GT(rp.GetRate(), cut);
        // Each of those stages changed the rate inside a timer call and was
        // followed by one wake, after its rate callback.
        EXPECT_GE(seen.wakes, 2);
        EXPECT_EQ(seen.rateCallsAtLastWake, seen.rateCalls);
    }
    // The destructor cancelled the pending event: nothing left to run.
    EXPECT_TRUE(Simulator::IsFinished());
    Simulator::Destroy();
}
