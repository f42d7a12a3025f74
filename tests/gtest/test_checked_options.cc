// SPDX-License-Identifier: GPL-2.0-only
//
// CheckedOptions' "did you mean": which slips of an option or a choice's
// name get a suggestion. Distances counted by hand (a swap of two
// neighbours is one edit; case does not count).
#include "checked-options.h"

#include <gtest/gtest.h>

#include <string>
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
