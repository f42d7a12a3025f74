// SPDX-License-Identifier: GPL-2.0-only
//
// Shared by the tests of the HPCC-simulator file readers.

#ifndef LIBCC_FILE_FORMAT_TEST_UTIL_H
#define LIBCC_FILE_FORMAT_TEST_UTIL_H

#include "hpcc-format.h"

#include <gtest/gtest.h>

namespace ns3
{

/// Runs f, which must throw FileFormatError; returns it.
template <typename F>
FileFormatError
Fails(F f)
{
    try
    {
        f();
    }
    catch (const FileFormatError& e)
    {
        return e;
    }
    ADD_FAILURE() << "no FileFormatError";
    return FileFormatError("", 0, "", "");
}

} // namespace ns3

#endif
