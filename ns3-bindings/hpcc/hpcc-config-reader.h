// SPDX-License-Identifier: GPL-2.0-only
//
// The parts of the HPCC simulator's config.txt reader (hpcc-config.h) that
// are not the keys' meaning: that simulator's CC_MODE numbers and the libcc
// algorithm each is (libcc says which: libcc_algorithm_info.hpcc_sim_cc_mode,
// so no algorithm is named here), the key/value lines of a config file, and
// a reader of their values that fails, or warns with
// --configIgnoreUnsupported, naming file:line:key and the accepted range.

#ifndef HPCC_CONFIG_READER_H
#define HPCC_CONFIG_READER_H

#include "hpcc-config.h"

#include "hpcc-format.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace ns3
{

struct HpccCcMode
{
    uint32_t mode;
    const char* simName;   ///< what that simulator's run.py calls it
    const char* algorithm; ///< libcc's algorithm with this mode
};

/// The algorithm libcc registers with CC_MODE mode; nullptr if none does.
const HpccCcMode* FindHpccCcMode(uint32_t mode);
/// "1 (DCQCN -> dcqcn), 3 (HPCC -> hpcc), ..." for messages.
std::string AcceptedHpccCcModes();

// libcc's largest rate and byte values of the timely, dctcp and hpcc-pint
// parameters the keys set (their descriptor tables): a larger value the
// simulator would take is a key we cannot honour.
constexpr uint64_t kLibccMaxRateBps = 1000000000000ull; // 1 Tbit/s
constexpr uint64_t kLibccMaxKBytes = 1000000000ull;     // dctcp k: 1 GB

struct HpccConfigItem
{
    uint32_t line;
    std::string key;
    std::vector<std::string> values;
};

class HpccConfigReader
{
  public:
    HpccConfigReader(const std::string& name, bool ignore)
        : m_name(name)
        , m_ignore(ignore)
    {
    }

    [[noreturn]] void Fail(const HpccConfigItem& it, const std::string& msg) const
    {
        throw FileFormatError(m_name, it.line, it.key, msg);
    }

    /// A key or value we cannot honour: an error, or one warning line.
    void Unsupported(HpccConfig& cfg, const HpccConfigItem& it, const std::string& why) const
    {
        std::string msg = m_name + ":" + std::to_string(it.line) + ":" + it.key + ": " + why;
        if (!m_ignore)
        {
            throw FileFormatError(m_name, it.line, it.key,
                                  why + " (--configIgnoreUnsupported runs without it)");
        }
        cfg.warnings.push_back(msg);
    }

    uint64_t Whole(const HpccConfigItem& it, size_t i, uint64_t min, uint64_t max) const
    {
        const std::string& s = it.values.at(i);
        errno = 0;
        char* end = nullptr;
        unsigned long long v = std::strtoull(s.c_str(), &end, 10);
        if (s.empty() || s[0] < '0' || s[0] > '9' || *end != '\0' || errno == ERANGE || v < min ||
            v > max)
        {
            Fail(it, "'" + s + "' is not accepted: a whole number, " + std::to_string(min) +
                         " .. " + std::to_string(max));
        }
        return v;
    }

    double Real(const HpccConfigItem& it, size_t i, double min, double max,
                const std::string& unit) const
    {
        const std::string& s = it.values.at(i);
        char* end = nullptr;
        double v = std::strtod(s.c_str(), &end);
        bool ok = !s.empty() &&
                  (std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '.' || s[0] == '-') &&
                  *end == '\0' && std::isfinite(v) && v >= min && v <= max;
        if (!ok)
        {
            std::ostringstream os;
            os << "'" << s << "' is not accepted: a decimal number" << unit << ", " << min << " .. "
               << max;
            Fail(it, os.str());
        }
        return v;
    }

    bool Flag(const HpccConfigItem& it) const
    {
        return Whole(it, 0, 0, 1) != 0;
    }

    uint64_t Rate(const HpccConfigItem& it, size_t i) const
    {
        uint64_t bps;
        if (!ParseHpccRate(it.values.at(i), bps))
        {
            Fail(it, "'" + it.values.at(i) +
                         "' is not accepted: a rate like 50Mb/s or 100Mbps, whole bits/s, "
                         "1bps .. 10Tb/s");
        }
        return bps;
    }

    /// A time in microseconds (that simulator's unit for the DCQCN timers)
    /// as whole ns.
    uint64_t Micros(const HpccConfigItem& it, double minUs) const
    {
        double us = Real(it, 0, minUs, 1e7, " of microseconds");
        double ns = us * 1000.0;
        if (std::fabs(ns - std::round(ns)) > 1e-6)
        {
            Fail(it, "'" + it.values[0] + "' is not a whole number of nanoseconds");
        }
        return static_cast<uint64_t>(std::llround(ns));
    }

    const std::string& Name() const
    {
        return m_name;
    }

  private:
    std::string m_name;
    bool m_ignore;
};

} // namespace ns3

#endif
