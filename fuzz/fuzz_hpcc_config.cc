// SPDX-License-Identifier: GPL-2.0-only
// The HPCC simulator's config.txt reader (ns3-bindings/hpcc/hpcc-config.h)
// on arbitrary text: it either returns or throws FileFormatError with a
// one-line message; nothing else, no crash. What it returns is libcc
// parameter text libcc takes (every value within its parameter's range),
// for the base set and for each link rate of the maps. Bit 0 of the first
// byte: --configIgnoreUnsupported.
#include "hpcc-config.h"

#include <libcc/libcc.h>

#include <cstdlib>
#include <string>

using namespace ns3;

namespace
{

void
MustParse(const std::string& algo, const std::string& text)
{
    libcc_params* p = nullptr;
    if (libcc_params_new(&p, algo.c_str()) != LIBCC_OK)
    {
        std::abort();
    }
    if (libcc_params_parse(p, text.c_str()) != LIBCC_OK)
    {
        std::abort(); // the reader let through a value libcc refuses
    }
    libcc_params_del(p);
}

} // namespace

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
        HpccConfig c = ParseHpccConfig(text, "fuzz-config", data[0] & 1);
        MustParse(c.algorithm, c.ccParams);
        for (const auto& t : c.thresholds)
        {
            MustParse(c.algorithm, c.ccParams + " " + HpccRateCcParams(c, t.first));
        }
        for (uint64_t nic : {25000000000ull, 100000000000ull})
        {
            std::string host = HpccHostCcParams(c, 12000, nic);
            if (!host.empty())
            {
                MustParse(c.algorithm, c.ccParams + " " + host);
            }
        }
        std::string sw = HpccSwitchCcParams(c, 12000);
        if (!sw.empty())
        {
            MustParse(c.algorithm, c.ccParams + " " + sw);
        }
        for (const std::string& w : c.warnings)
        {
            if (w.empty() || w.find('\n') != std::string::npos)
            {
                std::abort();
            }
        }
    }
    catch (const FileFormatError& e)
    {
        const std::string m = e.what();
        if (m.empty() || m.find('\n') != std::string::npos)
        {
            std::abort(); // the policy: one line naming file:line:key
        }
    }
    return 0;
}
