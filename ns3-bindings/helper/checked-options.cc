// SPDX-License-Identifier: GPL-2.0-only
#include "checked-options.h"

#include "cc-log-writer.h"

#include "libcc-config.h"
#include "rdma-network.h"

#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include "libcc/libcc.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <regex>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CheckedOptions");

namespace
{

// ns-3's listings: CommandLine prints them and exits 0.
const char* const kNs3Listings[] = {"PrintHelp",       "PrintGlobals", "PrintTypeIds",
                                    "PrintGroups",     "PrintVersion", "version",
                                    "PrintAttributes", "PrintGroup"};

std::string
Num(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
}

std::string
TimeText(double ns)
{
    char buf[64];
    libcc_format_value(LIBCC_UNIT_NS, ns, buf, sizeof buf);
    return buf;
}

// A value of unit from text, whole and within [min, max]; a decimal number
// alone is accepted for bytes too (the programs always took bytes that way).
bool
ParseWhole(const std::string& text, libcc_unit unit, double min, double max, double& out)
{
    double v;
    int rc = libcc_parse_value(unit, text.c_str(), &v);
    if (rc != LIBCC_OK && unit == LIBCC_UNIT_BYTES)
    {
        rc = libcc_parse_value(LIBCC_UNIT_COUNT, text.c_str(), &v);
    }
    if (rc != LIBCC_OK || !std::isfinite(v) || v != std::floor(v) || v < min || v > max)
    {
        return false;
    }
    out = v;
    return true;
}

// ns-3's UintegerValue, IntegerValue, DoubleValue and TimeValue abort on
// text they cannot read (NS_ABORT_MSG_UNLESS(iss.eof())) instead of failing,
// and UintegerValue reads "-1" as 2^64-1: check the text first. Returns the
// text to hand to ns-3 ("" if refused, why says what is accepted).
std::string
Ns3SafeText(const std::string& valueType, const std::string& value, std::string& why)
{
    static const std::regex uinteger("\\+?[0-9]{1,19}");
    static const std::regex integer("[+-]?[0-9]{1,18}");
    static const std::regex real("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]{1,3})?");
    if (valueType == "ns3::UintegerValue")
    {
        why = "accepted a whole number, 0 or more";
        return std::regex_match(value, uinteger) ? value : "";
    }
    if (valueType == "ns3::IntegerValue")
    {
        why = "accepted a whole number";
        return std::regex_match(value, integer) ? value : "";
    }
    if (valueType == "ns3::DoubleValue")
    {
        why = "accepted a decimal number";
        return std::regex_match(value, real) && std::isfinite(std::stod(value)) ? value : "";
    }
    if (valueType == "ns3::TimeValue")
    {
        why = "accepted a time with a unit (ns, us, ms, s)";
        double ns;
        if (libcc_parse_value(LIBCC_UNIT_NS, value.c_str(), &ns) != LIBCC_OK ||
            !std::isfinite(ns) || std::fabs(ns) > 9.2e18)
        {
            return "";
        }
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.0fns", ns);
        return buf;
    }
    if (valueType == "ns3::LibccValue")
    {
        why = "accepted libcc's units as in --cc (5KB, 40Mbps, 55us, 1/256)";
    }
    return value; // the other value classes fail cleanly on bad text
}

// The value class of --ns3::Type::Attribute, or "" if there is no such
// attribute.
std::string
AttributeValueType(const std::string& path)
{
    size_t sep = path.rfind("::");
    TypeId tid;
    TypeId::AttributeInformation info;
    if (sep == std::string::npos || !TypeId::LookupByNameFailSafe(path.substr(0, sep), &tid) ||
        !tid.LookupAttributeByName(path.substr(sep + 2), &info))
    {
        return "";
    }
    return info.checker->GetValueTypeName();
}

// For an attribute path that names nothing: the closest that does, as
// " (did you mean --X?)", or "". A slip in the attribute's name is looked
// up among its TypeId's attributes (and its parents'), one in the TypeId's
// name among every registered TypeId, the LibccConfig::<algorithm> ones of
// plugins included (LoadPlugins registered them).
std::string
AttributeHint(const std::string& path)
{
    size_t sep = path.rfind("::");
    if (sep == std::string::npos)
    {
        return "";
    }
    const std::string type = path.substr(0, sep);
    const std::string attribute = path.substr(sep + 2);
    TypeId tid;
    std::string guess;
    if (TypeId::LookupByNameFailSafe(type, &tid))
    {
        std::vector<std::string> names;
        for (TypeId t = tid;; t = t.GetParent())
        {
            for (size_t i = 0; i < t.GetAttributeN(); i++)
            {
                names.push_back(t.GetAttribute(i).name);
            }
            if (t == t.GetParent())
            {
                break;
            }
        }
        guess = CheckedOptions::DidYouMean(attribute, names);
        return guess.empty() ? "" : " (did you mean --" + type + "::" + guess + "?)";
    }
    std::vector<std::string> types;
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); i++)
    {
        types.push_back(TypeId::GetRegistered(i).GetName());
    }
    guess = CheckedOptions::DidYouMean(type, types);
    TypeId found;
    TypeId::AttributeInformation info;
    if (guess.empty() || !TypeId::LookupByNameFailSafe(guess, &found) ||
        !found.LookupAttributeByName(attribute, &info))
    {
        return "";
    }
    return " (did you mean --" + guess + "::" + attribute + "?)";
}

} // namespace

CheckedOptions::CheckedOptions(const std::string& program, const std::string& usage)
    : m_program(program)
    , m_usage(usage)
{
}

void
CheckedOptions::Add(Option o)
{
    m_options.push_back(std::move(o));
}

namespace
{

// Whole numbers of either width: the range is checked on the double before
// it is narrowed.
template <typename T>
std::function<bool(const std::string&)>
CountSetter(T* p, T min, T max, libcc_unit unit)
{
    return [p, min, max, unit](const std::string& t) {
        double v;
        if (!ParseWhole(t, unit, double(min), double(max), v))
        {
            return false;
        }
        *p = static_cast<T>(v);
        return true;
    };
}

} // namespace

void
CheckedOptions::AddCount(const std::string& name, const std::string& help, uint32_t& value,
                         uint32_t min, uint32_t max)
{
    Add({name, help, "a whole number, " + Num(min) + " .. " + Num(max), Num(value), false,
         CountSetter<uint32_t>(&value, min, max, LIBCC_UNIT_COUNT)});
}

void
CheckedOptions::AddCount(const std::string& name, const std::string& help, uint64_t& value,
                         uint64_t min, uint64_t max)
{
    Add({name, help, "a whole number, " + Num(double(min)) + " .. " + Num(double(max)),
         Num(double(value)), false, CountSetter<uint64_t>(&value, min, max, LIBCC_UNIT_COUNT)});
}

void
CheckedOptions::AddBytes(const std::string& name, const std::string& help, uint64_t& value,
                         uint64_t min, uint64_t max)
{
    Add({name, help, "bytes, " + Num(double(min)) + " .. " + Num(double(max)) + " (or 500KB, 1MiB)",
         Num(double(value)), false, CountSetter<uint64_t>(&value, min, max, LIBCC_UNIT_BYTES)});
}

void
CheckedOptions::AddGbps(const std::string& name, const std::string& help, uint32_t& gbps,
                        uint32_t min, uint32_t max)
{
    uint32_t* p = &gbps;
    Add({name, help,
         "a rate in whole Gbps with a unit (100Gbps, 400000Mbps) or a bare number of Gbps, " +
             Num(min) + " .. " + Num(max),
         Num(gbps) + "Gbps", false, [p, min, max](const std::string& t) {
             double v;
             // A bare number is Gbps; with a unit it is read as libcc reads
             // every rate (decimal text, exactly) and must be whole Gbps.
             if (!ParseWhole(t, LIBCC_UNIT_COUNT, min, max, v))
             {
                 double bps;
                 if (libcc_parse_value(LIBCC_UNIT_BPS, t.c_str(), &bps) != LIBCC_OK)
                 {
                     return false;
                 }
                 v = bps / 1e9;
                 if (v != std::floor(v) || v * 1e9 != bps || v < min || v > max)
                 {
                     return false;
                 }
             }
             *p = static_cast<uint32_t>(v);
             return true;
         }});
}

void
CheckedOptions::AddTime(const std::string& name, const std::string& help, Time& value, Time min,
                        Time max)
{
    Time* p = &value;
    const double lo = double(min.GetNanoSeconds());
    const double hi = double(max.GetNanoSeconds());
    Add({name, help, "a time with a unit (ns, us, ms, s), " + TimeText(lo) + " .. " + TimeText(hi),
         TimeText(double(value.GetNanoSeconds())), false, [p, lo, hi](const std::string& t) {
             double v;
             if (!ParseWhole(t, LIBCC_UNIT_NS, lo, hi, v))
             {
                 return false;
             }
             *p = NanoSeconds(static_cast<int64_t>(v));
             return true;
         }});
}

void
CheckedOptions::AddBool(const std::string& name, const std::string& help, bool& value)
{
    bool* p = &value;
    Add({name, help, "a boolean: true, false, 1, 0, on, off, yes, no", value ? "true" : "false",
         true, [p](const std::string& t) {
             double v;
             if (libcc_parse_value(LIBCC_UNIT_BOOL, t.c_str(), &v) != LIBCC_OK)
             {
                 return false;
             }
             *p = v != 0.0;
             return true;
         }});
}

void
CheckedOptions::AddText(const std::string& name, const std::string& help, std::string& value)
{
    std::string* p = &value;
    Add({name, help, "text", value, false, [p](const std::string& t) {
             *p = t;
             return true;
         }});
}

void
CheckedOptions::AddFlowIds(const std::string& name, const std::string& help, FlowIdSet& value)
{
    FlowIdSet* p = &value;
    auto why = std::make_shared<std::string>();
    Add({name, help, FlowIdSet::Accepted(), value.all ? "all" : "none", false,
         [p, why](const std::string& t) { return FlowIdSet::Parse(t, *p, *why); }, {}, why});
}

void
CheckedOptions::AddChoice(const std::string& name, const std::string& help, std::string& value,
                          const std::vector<std::string>& accepted)
{
    Add(Choice(name, help, value, accepted));
}

CheckedOptions::Option
CheckedOptions::Choice(const std::string& name, const std::string& help, std::string& value,
                       const std::vector<std::string>& accepted)
{
    std::string list;
    for (const std::string& a : accepted)
    {
        list += (list.empty() ? "" : ", ") + a;
    }
    std::string* p = &value;
    return Option{name, help, "one of " + list, value, false,
                  [p, accepted](const std::string& t) {
                      for (const std::string& a : accepted)
                      {
                          if (t == a)
                          {
                              *p = t;
                              return true;
                          }
                      }
                      return false;
                  },
                  accepted};
}

std::string
CheckedOptions::DidYouMean(const std::string& word, const std::vector<std::string>& names)
{
    auto lower = [](unsigned char c) { return std::tolower(c); };
    const size_t n = word.size();
    const size_t limit = n <= 5 ? 1 : n <= 8 ? 2 : 3;
    std::string best;
    size_t bestDist = limit + 1;
    for (const std::string& cand : names)
    {
        const size_t m = cand.size();
        if ((m > n ? m - n : n - m) > limit)
        {
            continue;
        }
        // Optimal string alignment distance, rows i-2, i-1 and i.
        std::vector<size_t> prev2(m + 1), prev(m + 1), cur(m + 1);
        for (size_t j = 0; j <= m; j++)
        {
            prev[j] = j;
        }
        for (size_t i = 1; i <= n; i++)
        {
            cur[0] = i;
            for (size_t j = 1; j <= m; j++)
            {
                const bool same = lower(word[i - 1]) == lower(cand[j - 1]);
                cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
                if (i > 1 && j > 1 && lower(word[i - 1]) == lower(cand[j - 2]) &&
                    lower(word[i - 2]) == lower(cand[j - 1]))
                {
                    cur[j] = std::min(cur[j], prev2[j - 2] + 1);
                }
            }
            prev2.swap(prev);
            prev.swap(cur);
        }
        if (prev[m] < bestDist)
        {
            bestDist = prev[m];
            best = cand;
        }
    }
    return best;
}

namespace
{

std::vector<std::string>
AlgorithmNames()
{
    std::vector<std::string> names;
    for (const char* const* a = libcc_algorithms(); *a; a++)
    {
        names.emplace_back(*a);
    }
    return names;
}

const char* const kAlgoHelp = "congestion control (libcc algorithm)";

} // namespace

void
CheckedOptions::AddCongestionControl(std::string& algo, std::string& cc)
{
    m_algoOption = m_options.size();
    Add(Choice("algo", kAlgoHelp, algo, AlgorithmNames()));
    AddText("cc", "libcc parameters, name=value[,name=value], units as in the tables below", cc);
    Add({"plugin",
         "load a libcc plugin (a shared object exporting libcc_plugin_init, "
         "docs/writing-an-algorithm.md) before any other option is read: its algorithms then "
         "work with --algo, --cc, --preset and --help; repeatable",
         "the path of a .so", "", false, [this](const std::string& t) {
             if (std::find(m_plugins.begin(), m_plugins.end(), t) == m_plugins.end())
             {
                 m_plugins.push_back(t); // loaded already, by LoadPlugins
             }
             return true;
         }});
    m_algo = &algo;
    m_cc = &cc;
}

int
CheckedOptions::LoadPlugins(int argc, char** argv)
{
    std::vector<std::string> loaded;
    for (int i = 1; i < argc; i++)
    {
        const std::string arg = argv[i];
        if (arg == "--plugin" || arg == "--plugin=")
        {
            std::cerr << m_program << ": --plugin needs a value: --plugin=<the path of a .so>\n";
            return 2;
        }
        if (arg.compare(0, 9, "--plugin=") != 0)
        {
            continue;
        }
        const std::string path = arg.substr(9);
        // The same file named twice is loaded once (its algorithms would
        // be registered twice); two files with one name are refused by
        // libcc (LIBCC_ERR_EXISTS).
        if (std::find(loaded.begin(), loaded.end(), path) != loaded.end())
        {
            continue;
        }
        char err[512] = "";
        const int rc = libcc_plugin_load(path.c_str(), err, sizeof err);
        if (rc != LIBCC_OK)
        {
            std::cerr << m_program << ": --plugin=" << path << ": "
                      << (err[0] ? err : libcc_strerror(rc)) << "\n";
            return 2;
        }
        NS_LOG_INFO("--plugin=" << path << " loaded");
        loaded.push_back(path);
    }
    if (!loaded.empty())
    {
        // The new algorithms' ns3::LibccConfig::<name> TypeIds (attributes
        // for --ns3::LibccConfig::<name>::<param>), and --algo's list.
        LibccConfig::RegisterAll();
        std::string* algo = m_algo;
        m_options[m_algoOption] = Choice("algo", kAlgoHelp, *algo, AlgorithmNames());
    }
    return -1;
}

const std::vector<std::string>&
CheckedOptions::Plugins() const
{
    return m_plugins;
}

bool
CheckedOptions::ApplyCongestionControl(RdmaNetwork& net, const std::string* text) const
{
    NS_ASSERT_MSG(m_algo, "ApplyCongestionControl needs AddCongestionControl");
    try
    {
        net.SetCongestionControl(*m_algo, text ? *text : *m_cc);
    }
    catch (const std::exception& e)
    {
        std::cerr << m_program << ": --algo=" << *m_algo << " --cc=" << *m_cc << ": " << e.what()
                  << "\n";
        return false;
    }
    return true;
}

std::string
CheckedOptions::Help() const
{
    std::ostringstream os;
    os << "Usage: " << m_program << " [--option=value ...]\n\n" << m_usage << "\n\nOptions:\n";
    for (const Option& o : m_options)
    {
        os << "  --" << o.name << "=<" << o.accepted << ">\n      " << o.help << " [default "
           << (o.defaultText.empty() ? "\"\"" : o.defaultText) << "]\n";
    }
    os << "\nns-3's own: --ns3::Type::Attribute=value (attribute defaults; "
          "--ns3::LibccConfig::<algo>::<param> takes libcc's units), global values "
          "(--RngRun=N, --SimulatorImplementationType=ns3::DefaultSimulatorImpl, ...), "
          "--PrintHelp, --PrintAttributes=TYPE, --PrintGlobals, --PrintTypeIds.\n";
    if (m_algo)
    {
        os << "\n";
        for (const char* const* a = libcc_algorithms(); *a; a++)
        {
            os << "  " << *a << " parameters (--cc=name=value,...):\n" << LibccConfig::Describe(*a);
        }
    }
    return os.str();
}

int
CheckedOptions::Bad(const std::string& name, const std::string& value, const std::string& why) const
{
    std::cerr << m_program << ": --" << name << "=" << value << ": " << why << "\n";
    return 2;
}

int
CheckedOptions::SetNs3Value(const std::string& name, const std::string& value) const
{
    std::string why;
    if (name.compare(0, 5, "ns3::") == 0)
    {
        const std::string type = AttributeValueType(name);
        if (type.empty())
        {
            return Bad(name, value,
                       "no such attribute" + AttributeHint(name) +
                           " (see --PrintTypeIds, --PrintAttributes)");
        }
        const std::string text = Ns3SafeText(type, value, why);
        if (text.empty() || !Config::SetDefaultFailSafe(name, StringValue(text)))
        {
            return Bad(name, value,
                       (why.empty() ? std::string("refused") : why) +
                           ", within the attribute's range (--PrintAttributes=" +
                           name.substr(0, name.rfind("::")) + ")");
        }
        return -1;
    }
    for (auto g = GlobalValue::Begin(); g != GlobalValue::End(); ++g)
    {
        if ((*g)->GetName() == name)
        {
            // A global's class is not public: one whose value reads as a
            // whole number is a UintegerValue (RngRun, RngSeed).
            StringValue current;
            (*g)->GetValue(current);
            const bool whole = !Ns3SafeText("ns3::UintegerValue", current.Get(), why).empty();
            std::string text =
                whole ? Ns3SafeText("ns3::UintegerValue", value, why) : (why = "", value);
            // One that names a TypeId (SimulatorImplementationType,
            // SchedulerType) takes a TypeId of the same kind: ns-3 would
            // crash creating anything else.
            TypeId now;
            TypeId asked;
            if (!whole && TypeId::LookupByNameFailSafe(current.Get(), &now) &&
                (!TypeId::LookupByNameFailSafe(value, &asked) || !asked.IsChildOf(now.GetParent())))
            {
                why = "accepted the name of a " + now.GetParent().GetName() + " (--PrintTypeIds)";
                text.clear();
            }
            if (text.empty() || !GlobalValue::BindFailSafe(name, StringValue(text)))
            {
                return Bad(name, value,
                           (why.empty() ? std::string("refused") : why) + " (" + (*g)->GetHelp() +
                               ")");
            }
            return -1;
        }
    }
    std::vector<std::string> names;
    for (const Option& o : m_options)
    {
        names.push_back(o.name);
    }
    const std::string guess = DidYouMean(name, names);
    std::cerr << m_program << ": unknown option --" << name
              << (guess.empty() ? "" : " (did you mean --" + guess + "?)") << " (see --help)\n";
    return 2;
}

int
CheckedOptions::Parse(int argc, char** argv)
{
    // Plugins first: an option naming one of their algorithms (--algo,
    // --ns3::LibccConfig::<name>::...) may come before --plugin, and
    // --help lists their parameters.
    if (m_algo)
    {
        if (int rc = LoadPlugins(argc, argv); rc >= 0)
        {
            return rc;
        }
    }
    for (int i = 1; i < argc; i++)
    {
        const std::string arg = argv[i];
        if (arg == "--help" || arg == "-h" || arg == "-?")
        {
            std::cout << Help();
            return 0;
        }
        if (arg.compare(0, 2, "--") != 0 || arg.size() == 2)
        {
            std::cerr << m_program << ": unexpected argument '" << arg
                      << "': options are --name=value (see --help)\n";
            return 2;
        }
        const size_t eq = arg.find('=');
        const std::string name =
            arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
        const bool hasValue = eq != std::string::npos;
        const std::string value = hasValue ? arg.substr(eq + 1) : "";
        for (const char* l : kNs3Listings)
        {
            if (name == l)
            {
                CommandLine cmd(m_program);
                char* args[] = {argv[0], argv[i]};
                cmd.Parse(2, args); // prints and exits 0
                return 0;
            }
        }
        const Option* found = nullptr;
        for (const Option& o : m_options)
        {
            if (o.name == name)
            {
                found = &o;
                break;
            }
        }
        if (!found)
        {
            int rc = SetNs3Value(name, value);
            if (rc >= 0)
            {
                return rc;
            }
            continue;
        }
        if (!hasValue && !found->isBool)
        {
            std::cerr << m_program << ": --" << name << " needs a value: --" << name << "=<"
                      << found->accepted << ">\n";
            return 2;
        }
        if (!found->set(hasValue ? value : "true"))
        {
            const std::string guess = DidYouMean(value, found->choices);
            const std::string reason = found->why && !found->why->empty() ? *found->why + "; " : "";
            return Bad(name, value,
                       reason + (guess.empty() ? "" : "did you mean " + guess + "? ") + "accepted " +
                           found->accepted);
        }
        m_given.insert(name);
        NS_LOG_INFO("--" << name << "=" << value);
    }
    return -1;
}

bool
CheckedOptions::WasGiven(const std::string& name) const
{
    return m_given.count(name) != 0;
}

} // namespace ns3
