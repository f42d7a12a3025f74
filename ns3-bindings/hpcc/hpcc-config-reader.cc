// SPDX-License-Identifier: GPL-2.0-only

#include "hpcc-config-reader.h"

#include "libcc/libcc.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace ns3
{

namespace
{

// That simulator's CC_MODE values: which libcc algorithm each is comes from
// libcc (libcc_algorithm_info.hpcc_sim_cc_mode), not from a name here.

/// run.py's label of a mode, for messages.
const char*
SimModeName(uint32_t mode)
{
    switch (mode)
    {
    case 1:
        return "DCQCN";
    case 3:
        return "HPCC";
    case 7:
        return "TIMELY";
    case 8:
        return "DCTCP";
    case 10:
        return "HPCC-PINT";
    default:
        return "?";
    }
}

/// Every algorithm libcc registers with a CC_MODE, by mode.
const std::vector<HpccCcMode>&
Modes()
{
    static const std::vector<HpccCcMode> modes = [] {
        std::vector<HpccCcMode> m;
        for (const char* const* a = libcc_algorithms(); *a; a++)
        {
            libcc_algorithm_info info;
            if (libcc_algorithm_info_get(*a, &info) == LIBCC_OK && info.hpcc_sim_cc_mode != 0)
            {
                m.push_back({info.hpcc_sim_cc_mode, SimModeName(info.hpcc_sim_cc_mode), *a});
            }
        }
        std::sort(m.begin(), m.end(),
                  [](const HpccCcMode& x, const HpccCcMode& y) { return x.mode < y.mode; });
        return m;
    }();
    return modes;
}

} // namespace

const HpccCcMode*
FindHpccCcMode(uint32_t mode)
{
    for (const HpccCcMode& m : Modes())
    {
        if (m.mode == mode)
        {
            return &m;
        }
    }
    return nullptr;
}

/// "1 (DCQCN -> dcqcn), 3 (HPCC -> hpcc), ..." for messages.
std::string
AcceptedHpccCcModes()
{
    std::string s;
    for (const HpccCcMode& m : Modes())
    {
        s += (s.empty() ? "" : ", ") + std::to_string(m.mode) + " (" + m.simName + " -> " +
             m.algorithm + ")";
    }
    return s;
}

bool
ParseHpccRate(const std::string& text, uint64_t& bps)
{
    // ns-3's DataRate units (bits and bytes, SI and binary are not its:
    // k/K = 1000), as that simulator's files write them.
    static const struct
    {
        const char* unit;
        double mult;
    } kUnits[] = {{"Tb/s", 1e12}, {"Tbps", 1e12}, {"Gb/s", 1e9},  {"Gbps", 1e9},  {"Mb/s", 1e6},
                  {"Mbps", 1e6},  {"kb/s", 1e3},  {"kbps", 1e3},  {"Kb/s", 1e3},  {"Kbps", 1e3},
                  {"b/s", 1},     {"bps", 1},     {"TB/s", 8e12}, {"TBps", 8e12}, {"GB/s", 8e9},
                  {"GBps", 8e9},  {"MB/s", 8e6},  {"MBps", 8e6},  {"kB/s", 8e3},  {"kBps", 8e3},
                  {"KB/s", 8e3},  {"KBps", 8e3},  {"B/s", 8},     {"Bps", 8},     {"", 1}};
    for (const auto& u : kUnits)
    {
        size_t n = std::strlen(u.unit);
        if (text.size() <= n || text.compare(text.size() - n, n, u.unit) != 0)
        {
            continue;
        }
        std::string num = text.substr(0, text.size() - n);
        if (num.empty() || !(std::isdigit(static_cast<unsigned char>(num[0])) || num[0] == '.'))
        {
            return false;
        }
        char* end = nullptr;
        double v = std::strtod(num.c_str(), &end);
        if (*end != '\0' || !std::isfinite(v))
        {
            return false;
        }
        double b = v * u.mult;
        if (b < 1 || b > 1e13 || std::fabs(b - std::round(b)) > 1e-3)
        {
            return false;
        }
        bps = static_cast<uint64_t>(std::llround(b));
        return true;
    }
    return false;
}

} // namespace ns3
