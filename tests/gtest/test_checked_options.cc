// SPDX-License-Identifier: GPL-2.0-only
//
// CheckedOptions' "did you mean": which slips of an option or a choice's
// name get a suggestion. Distances counted by hand (a swap of two
// neighbours is one edit; case does not count). And --plugin's place:
// before every other option.
#include "checked-options.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using ns3::CheckedOptions;

namespace
{
const std::vector<std::string> kOptions = {"algo", "cc", "stop", "flows", "fattree", "traceNodes"};
const std::vector<std::string> kAlgos = {"none", "dcqcn", "hpcc", "hpcc++", "fncc", "rocc"};
} // namespace

TEST(CheckedOptions, DidYouMeanOneEditOnShortNames)
{
    EXPECT_EQ(CheckedOptions::DidYouMean("algoo", kOptions), "algo");  // one letter added
    EXPECT_EQ(CheckedOptions::DidYouMean("flow", kOptions), "flows");  // one letter missing
    EXPECT_EQ(CheckedOptions::DidYouMean("dcqnc", kAlgos), "dcqcn");   // two neighbours swapped
    EXPECT_EQ(CheckedOptions::DidYouMean("HPCC", kAlgos), "hpcc");     // case alone: 0 edits
    // "hpc" is 1 from hpcc and 3 from hpcc++: the closer one.
    EXPECT_EQ(CheckedOptions::DidYouMean("hpc", kAlgos), "hpcc");
}

TEST(CheckedOptions, DidYouMeanScalesWithLength)
{
    // 2 edits: too many for a word of 4 ("stap" -> "stop" is 1; "sxap" 2)...
    EXPECT_EQ(CheckedOptions::DidYouMean("sxap", kOptions), "");
    // ... accepted for 6 to 8 ("fatre" is 5 letters, 2 from fattree: no;
    // "fatrtee" 7 letters, one swap: yes).
    EXPECT_EQ(CheckedOptions::DidYouMean("fatre", kOptions), "");
    EXPECT_EQ(CheckedOptions::DidYouMean("fatrtee", kOptions), "fattree");
    // 10 letters, 3 edits (s->x, e->a, N->M): accepted; 4 are not.
    EXPECT_EQ(CheckedOptions::DidYouMean("traceModax", kOptions), "traceNodes");
    EXPECT_EQ(CheckedOptions::DidYouMean("trXceModax", kOptions), "");
}

TEST(CheckedOptions, DidYouMeanNothingClose)
{
    EXPECT_EQ(CheckedOptions::DidYouMean("bandwidth", kOptions), "");
    EXPECT_EQ(CheckedOptions::DidYouMean("x", std::vector<std::string>{}), "");
}

// --plugin is read before every other option: a file that does not load
// stops Parse with 2 even after --help or a bad --algo, a bare --plugin
// needs a value, and a program without --algo has no --plugin.
TEST(CheckedOptions, PluginLoadsFirst)
{
    auto parse = [](std::vector<std::string> args, bool cc) {
        std::string algo = "dcqcn";
        std::string text;
        CheckedOptions opts("t", "test");
        if (cc)
        {
            opts.AddCongestionControl(algo, text);
        }
        std::vector<char*> argv{const_cast<char*>("t")};
        for (std::string& a : args)
        {
            argv.push_back(a.data());
        }
        ::testing::internal::CaptureStderr();
        int rc = opts.Parse(static_cast<int>(argv.size()), argv.data());
        std::string err = ::testing::internal::GetCapturedStderr();
        return std::make_pair(rc, err);
    };
    auto [rc, err] = parse({"--help", "--plugin=/nonexistent/x.so"}, true);
    EXPECT_EQ(rc, 2);
    EXPECT_EQ(err.rfind("t: --plugin=/nonexistent/x.so: ", 0), 0u) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1);
    std::tie(rc, err) = parse({"--algo=no-such", "--plugin=/nonexistent/x.so"}, true);
    EXPECT_EQ(rc, 2);
    EXPECT_NE(err.find("--plugin=/nonexistent/x.so"), std::string::npos) << err;
    for (const char* bare : {"--plugin", "--plugin="})
    {
        std::tie(rc, err) = parse({bare}, true);
        EXPECT_EQ(rc, 2);
        EXPECT_EQ(err, "t: --plugin needs a value: --plugin=<the path of a .so>\n");
    }
    std::tie(rc, err) = parse({"--plugin=/nonexistent/x.so"}, false);
    EXPECT_EQ(rc, 2);
    EXPECT_NE(err.find("unknown option --plugin"), std::string::npos) << err;
}
