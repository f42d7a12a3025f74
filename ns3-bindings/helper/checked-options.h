// SPDX-License-Identifier: GPL-2.0-only
#ifndef LIBCC_CHECKED_OPTIONS_H
#define LIBCC_CHECKED_OPTIONS_H

#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

class RdmaNetwork;
struct FlowIdSet;

/**
 * \ingroup libcc
 * The command line of our programs, read as text and checked before the
 * program uses a value. A bad value is one line on stderr naming the option
 * and what it accepts, and Parse returns 2 (docs/errors.md). ns-3's
 * CommandLine, which this replaces for the programs' own options, wraps
 * "-1" into an unsigned option, reads "5" for a Time as 5 seconds, cuts text
 * at a space and exits 1 on an unknown option.
 *
 * Besides the options declared here it takes what ns-3 programs take:
 * - `--ns3::Type::Attribute=value`, an attribute default
 *   (Config::SetDefaultFailSafe); for `--ns3::LibccConfig::<algo>::<param>`
 *   the value is libcc's text with units (`5KB`, `40Mbps`), checked by
 *   libcc like `--cc`;
 * - a global value, `--RngRun=3`, `--SimulatorImplementationType=...`;
 * - ns-3's own listings (`--PrintHelp`, `--PrintAttributes=TYPE`,
 *   `--PrintGlobals`, `--PrintTypeIds`, `--PrintGroups`, `--PrintGroup=G`,
 *   `--version`), handed to ns-3's CommandLine.
 *
 * Values: whole numbers and bytes in decimal (bytes also with a unit:
 * `500KB`, `1MiB`); times with a unit (`1.5us`, `0` alone); booleans as 0,
 * 1, true, false, on, off, yes, no, or the bare option for true.
 */
class CheckedOptions
{
  public:
    /// program: the name messages start with; usage: what --help says first.
    CheckedOptions(const std::string& program, const std::string& usage);

    /// A whole number in [min, max].
    void AddCount(const std::string& name, const std::string& help, uint32_t& value, uint32_t min,
                  uint32_t max);
    void AddCount(const std::string& name, const std::string& help, uint64_t& value, uint64_t min,
                  uint64_t max);
    /// A byte count in [min, max]: decimal bytes, or a size with a unit.
    void AddBytes(const std::string& name, const std::string& help, uint64_t& value, uint64_t min,
                  uint64_t max);
    /// A link rate in whole Gbit/s in [min, max]: a rate with a unit, as
    /// every rate option takes (`100Gbps`, `400000Mbps`), or a bare whole
    /// number of Gbit/s (`100`, as the examples always took).
    void AddGbps(const std::string& name, const std::string& help, uint32_t& gbps, uint32_t min,
                 uint32_t max);
    /// A time with a unit, a whole number of nanoseconds in [min, max].
    void AddTime(const std::string& name, const std::string& help, Time& value, Time min, Time max);
    void AddBool(const std::string& name, const std::string& help, bool& value);
    /// Any text, spaces included.
    void AddText(const std::string& name, const std::string& help, std::string& value);
    /// One of `accepted`.
    void AddChoice(const std::string& name, const std::string& help, std::string& value,
                   const std::vector<std::string>& accepted);
    /// Flow ids: `all`, `none`, or ids and ranges `0-3,7` (FlowIdSet, cc-log-writer.h).
    void AddFlowIds(const std::string& name, const std::string& help, FlowIdSet& value);
    /// `--algo` (one of libcc's algorithms), `--cc` (libcc parameter
    /// text, checked when the program creates its LibccConfig) and
    /// `--plugin=PATH.so` (repeatable: libcc_plugin_load, before Parse
    /// reads any other option, so --algo, --cc, --help and the
    /// LibccConfig attributes know its algorithms); --help then lists
    /// every algorithm's parameters.
    void AddCongestionControl(std::string& algo, std::string& cc);
    /// The --plugin paths Parse read, in order (each loaded once).
    const std::vector<std::string>& Plugins() const;

    /// net.SetCongestionControl(--algo, text) with text = --cc unless
    /// given (dumbbell's preset), before the run: false after a one-line
    /// message naming --algo and --cc and what libcc refused (kmin > kmax).
    bool ApplyCongestionControl(RdmaNetwork& net, const std::string* text = nullptr) const;

    /// Reads argv. Returns -1 when the program goes on, otherwise the status
    /// it exits with: 0 after --help or an ns-3 listing, 2 after a bad
    /// option (its message already on stderr).
    int Parse(int argc, char** argv);
    /// What --help prints.
    std::string Help() const;
    /// Whether Parse read --name (a program's own option, not an ns-3
    /// one): values from a file it reads later must not override it.
    bool WasGiven(const std::string& name) const;

    /// The name of `names` closest to `word` (case-insensitive edit
    /// distance, a swap of two neighbours counting 1) if it is close enough
    /// to be a slip: at most 1 edit for words up to 5 characters, 2 up to
    /// 8, 3 beyond; the first of equally close ones; "" if none.
    static std::string DidYouMean(const std::string& word, const std::vector<std::string>& names);

  private:
    struct Option
    {
        std::string name;
        std::string help;
        std::string accepted; ///< "a whole number, 1 .. 1600": what messages and --help say
        std::string defaultText;
        bool isBool;
        /// Stores the value from text; false if the text is not accepted.
        std::function<bool(const std::string&)> set;
        std::vector<std::string> choices = {}; ///< AddChoice's accepted values (did you mean)
        /// What set() found wrong, if it says (a parser with reasons): put
        /// before "accepted ..." in the message.
        std::shared_ptr<std::string> why = nullptr;
    };

    void Add(Option o);
    static Option Choice(const std::string& name, const std::string& help, std::string& value,
                         const std::vector<std::string>& accepted);
    /// Loads every --plugin of argv; 2 after a one-line message naming the
    /// file and libcc's reason, -1 when all loaded.
    int LoadPlugins(int argc, char** argv);
    /// 2 after a one-line message about --name=value.
    int Bad(const std::string& name, const std::string& value, const std::string& why) const;
    int SetNs3Value(const std::string& name, const std::string& value) const;

    std::string m_program;
    std::string m_usage;
    std::vector<Option> m_options;
    std::string* m_algo = nullptr; ///< set by AddCongestionControl
    std::string* m_cc = nullptr;
    std::set<std::string> m_given; ///< options Parse read
    size_t m_algoOption = 0;       ///< index of --algo in m_options
    std::vector<std::string> m_plugins;
};

} // namespace ns3

#endif // LIBCC_CHECKED_OPTIONS_H
