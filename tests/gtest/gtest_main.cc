// SPDX-License-Identifier: GPL-2.0-only
//
// GoogleTest runner for the ns-3 bindings. Picosecond resolution makes the
// serialization of single frames exact at 25-400 Gbps (a byte is 80 ps at
// 100 Gbps), so tests can compare times derived by hand with ==.
#include "ns3/nstime.h"

#include <gtest/gtest.h>

#include <cstdio>

int
main(int argc, char** argv)
{
    ns3::Time::SetResolution(ns3::Time::PS);
    ::testing::InitGoogleTest(&argc, argv);
    const int rc = RUN_ALL_TESTS();
    // The one tally format scripts/run-tests.sh reads from every suite.
    const ::testing::UnitTest& u = *::testing::UnitTest::GetInstance();
    std::printf("gtest: %d passed, %d failed\n", u.successful_test_count(), u.failed_test_count());
    return rc;
}
