// SPDX-License-Identifier: GPL-2.0-only
// The HPCC-simulator topology and flow file readers
// (ns3-bindings/hpcc/hpcc-format.h) on arbitrary text: each either returns
// what it read or throws FileFormatError with a one-line message;
// nothing else (no other exception, no crash, no allocation by a claimed
// count). The first byte picks the reader; a topology that parses is then
// the flows' topology.
#include "hpcc-format.h"

#include <cstdlib>
#include <string>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 1 || size > 64 * 1024)
    {
        return 0;
    }
    const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
    try
    {
        if (data[0] & 1)
        {
            ParseTopology(text, "fuzz-topo");
        }
        else
        {
            // The flows' topology: the spec's dumbbell.
            static const TopologySpec topo = ParseTopology(
                "6 3 5\n3 4 5\n0 3 100Gbps 0.001ms 0\n1 3 100Gbps 0.001ms 0\n"
                "3 4 100Gbps 0.001ms 0\n4 5 100Gbps 0.001ms 0\n5 2 100Gbps 0.001ms 0\n",
                "dumbbell");
            ParseFlows(text, "fuzz-flows", &topo);
        }
    }
    catch (const FileFormatError& e)
    {
        const std::string m = e.what();
        if (m.empty() || m.find('\n') != std::string::npos)
        {
            std::abort(); // the policy: one line naming file:line:field
        }
    }
    return 0;
}
