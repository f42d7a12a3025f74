// SPDX-License-Identifier: GPL-2.0-only
//
// LibccValue: LibccConfig attributes read the same unit text as --cc
// (libcc_parse_value), are checked against libcc's range, keep the exact
// base-unit number, and refuse bad text by returning false (never abort).

#include "libcc-config.h"

#include <ns3/config.h>
#include <ns3/data-rate.h>
#include <ns3/nstime.h>
#include <ns3/string.h>
#include <ns3/uinteger.h>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

using namespace ns3;

namespace
{

// Config::SetDefault for one test, the old default restored after it.
class ScopedDefault
{
  public:
    ScopedDefault(const std::string& algo, const std::string& param)
        : m_path("ns3::LibccConfig::" + algo + "::" + param)
    {
        LibccConfig::Create(algo)->GetAttribute(param, m_old);
    }
    ~ScopedDefault()
    {
        Config::SetDefault(m_path, m_old);
    }
    bool Set(const std::string& text) const
    {
        return Config::SetDefaultFailSafe(m_path, StringValue(text));
    }

  private:
    std::string m_path;
    LibccValue m_old;
};

} // namespace

TEST(LibccValue, SetDefaultReadsEachUnitLikeCc)
{
    {
        ScopedDefault d("dcqcn", "kmin");
        ASSERT_TRUE(d.Set("5KB"));
        EXPECT_EQ(LibccConfig::Create("dcqcn")->Get("kmin"), 5000.0); // bytes, KB = 1000
        ASSERT_TRUE(d.Set("64KiB"));
        EXPECT_EQ(LibccConfig::Create("dcqcn")->Get("kmin"), 65536.0);
    }
    {
        ScopedDefault d("dcqcn", "rpg_ai_rate");
        ASSERT_TRUE(d.Set("40Mbps"));
        EXPECT_EQ(LibccConfig::Create("dcqcn")->Get("rpg_ai_rate"), 40e6); // bits/s
    }
    {
        ScopedDefault d("dcqcn", "rpg_time_reset");
        ASSERT_TRUE(d.Set("55us"));
        EXPECT_EQ(LibccConfig::Create("dcqcn")->Get("rpg_time_reset"), 55000.0); // ns
    }
    {
        ScopedDefault d("dcqcn", "g");
        ASSERT_TRUE(d.Set("1/256"));
        EXPECT_EQ(LibccConfig::Create("dcqcn")->Get("g"), 0.00390625); // ratio, exact
        ASSERT_TRUE(d.Set("1/3"));
        EXPECT_EQ(LibccConfig::Create("dcqcn")->Get("g"), 1.0 / 3.0);
    }
    {
        ScopedDefault d("dcqcn", "rpg_threshold");
        ASSERT_TRUE(d.Set("7"));
        EXPECT_EQ(LibccConfig::Create("dcqcn")->Get("rpg_threshold"), 7.0); // count
    }
    {
        ScopedDefault d("dcqcn", "rpg_hai_scale_by_stage");
        ASSERT_TRUE(d.Set("on"));
        EXPECT_EQ(LibccConfig::Create("dcqcn")->Get("rpg_hai_scale_by_stage"), 1.0); // bool
    }
    // Restored: libcc's own default again (dcqcn kmin = 100 KB).
    EXPECT_EQ(LibccConfig::Create("dcqcn")->Get("kmin"), 100000.0);
}

TEST(LibccValue, BadTextIsRefusedWithoutAbortAndChangesNothing)
{
    ScopedDefault kmin("dcqcn", "kmin");
    ScopedDefault thr("dcqcn", "rpg_threshold");
    ScopedDefault rate("dcqcn", "rpg_ai_rate");
    ScopedDefault eta("hpcc", "eta");
    EXPECT_FALSE(thr.Set("2.5"));      // a fraction for a count
    EXPECT_FALSE(thr.Set("0"));        // below the range [1, 1e6]
    EXPECT_FALSE(eta.Set("nan"));      // not a number
    EXPECT_FALSE(rate.Set("40"));      // a rate without its unit
    EXPECT_FALSE(kmin.Set("2.5"));     // bytes without unit
    EXPECT_FALSE(kmin.Set("5XB"));     // unknown unit
    EXPECT_FALSE(kmin.Set(""));        // nothing
    EXPECT_FALSE(kmin.Set("1e400KB")); // not finite
    EXPECT_EQ(LibccConfig::Create("dcqcn")->Get("rpg_threshold"), 1.0);
    EXPECT_EQ(LibccConfig::Create("dcqcn")->Get("kmin"), 100000.0);

    Ptr<LibccConfig> c = LibccConfig::Create("dcqcn");
    EXPECT_FALSE(c->SetAttributeFailSafe("rpg_threshold", StringValue("2.5")));
    EXPECT_FALSE(c->SetAttributeFailSafe("rpg_threshold", LibccValue(2.5)));
    EXPECT_FALSE(c->SetAttributeFailSafe("g", LibccValue(std::nan(""))));
    EXPECT_FALSE(c->SetAttributeFailSafe("g", LibccValue(1.5))); // ratio range [0, 1]
    EXPECT_FALSE(c->SetAttributeFailSafe("rpg_ai_rate", TimeValue(MicroSeconds(1)))); // wrong type
    EXPECT_EQ(c->Get("rpg_threshold"), 1.0);
    EXPECT_EQ(c->Get("g"), 5.0 / 1024.0);
}

TEST(LibccValue, ExactValuesAndTextRoundTrip)
{
    Ptr<LibccConfig> c = LibccConfig::Create("dcqcn");
    ASSERT_TRUE(c->SetAttributeFailSafe("g", StringValue("1/3")));
    // As text: all digits where libcc's short form would round.
    StringValue text;
    c->GetAttribute("g", text);
    Ptr<LibccConfig> d = LibccConfig::Create("dcqcn");
    ASSERT_TRUE(d->SetAttributeFailSafe("g", text));
    EXPECT_EQ(d->Get("g"), 1.0 / 3.0);
    // libcc's readable form where it is exact.
    ASSERT_TRUE(c->SetAttributeFailSafe("rpg_ai_rate", StringValue("40Mbps")));
    c->GetAttribute("rpg_ai_rate", text);
    EXPECT_EQ(text.Get(), "40Mbps");
    // 40,000,001 bits/s does not print as a short rate: it is kept whole.
    ASSERT_TRUE(c->SetAttributeFailSafe("rpg_ai_rate", StringValue("40000001bps")));
    c->GetAttribute("rpg_ai_rate", text);
    ASSERT_TRUE(d->SetAttributeFailSafe("rpg_ai_rate", text));
    EXPECT_EQ(d->Get("rpg_ai_rate"), 40000001.0);
    LibccValue v;
    c->GetAttribute("rpg_ai_rate", v);
    EXPECT_EQ(v.Get(), 40000001.0);
}

TEST(LibccValue, TypedNs3ValuesStillWork)
{
    Ptr<LibccConfig> c = LibccConfig::Create("dcqcn");
    ASSERT_TRUE(c->SetAttributeFailSafe("rpg_ai_rate", DataRateValue(DataRate("40Mbps"))));
    EXPECT_EQ(c->Get("rpg_ai_rate"), 40e6);
    ASSERT_TRUE(c->SetAttributeFailSafe("rpg_time_reset", TimeValue(MicroSeconds(55))));
    EXPECT_EQ(c->Get("rpg_time_reset"), 55000.0);
    ASSERT_TRUE(c->SetAttributeFailSafe("kmin", UintegerValue(5000)));
    EXPECT_EQ(c->Get("kmin"), 5000.0);
    DataRateValue r;
    c->GetAttribute("rpg_ai_rate", r);
    EXPECT_EQ(r.Get().GetBitRate(), 40000000u);
}
