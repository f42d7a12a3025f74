// SPDX-License-Identifier: GPL-2.0-only
#include "rank-merge.h"

#include "fast-simulator-impl.h"
#include "sim-fast.h"

#include "ns3/log.h"

#include <algorithm>
#include <cinttypes>
#include <fstream>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RankMerge");

namespace
{
constexpr size_t STAMP = 32; // hex time step, hex key
#define STAMP_FORMAT "%016" PRIx64 "%016" PRIx64

/// A record's prefix, written without building a string per record.
void
PutStamp(std::FILE* f, uint64_t ts, uint64_t key)
{
    std::fprintf(f, STAMP_FORMAT " ", ts, key);
}
} // namespace

std::string
RankFilePath(const std::string& path, uint32_t rank)
{
    return path + ".rank" + std::to_string(rank);
}

std::string
RankStamp(uint64_t ts, uint64_t key)
{
    char b[STAMP + 1];
    std::snprintf(b, sizeof b, STAMP_FORMAT, ts, key);
    return b;
}

void
WriteRankStamp(std::FILE* f)
{
    FastSimulatorImpl* impl = FastSimulatorImpl::Running();
    uint64_t key = impl ? impl->CurrentKey() : 0;
    PutStamp(f, static_cast<uint64_t>(SimNowStep()), key);
}

void
WriteRankSampleStamp(std::FILE* f, uint64_t index)
{
    uint64_t key = (uint64_t(FastSimulatorImpl::NODE_KEY_GLOBAL) << FastSimulatorImpl::NODE_KEY_SHIFT) |
                   index;
    PutStamp(f, static_cast<uint64_t>(SimNowStep()), key);
}

void
WriteRankHeaderStamp(std::FILE* f)
{
    PutStamp(f, 0, 0);
}

bool
MergeRankFiles(const std::string& path, uint32_t ranks, const std::string& header,
               std::string& err, const std::string& endStamp)
{
    struct Line
    {
        std::string stamp;
        uint32_t rank;
        std::string text;
    };
    std::vector<Line> lines;
    for (uint32_t r = 0; r < ranks; ++r)
    {
        std::string rp = RankFilePath(path, r);
        std::ifstream in(rp);
        if (!in)
        {
            err = "cannot read " + rp;
            return false;
        }
        uint64_t n = 0;
        for (std::string s; std::getline(in, s);)
        {
            ++n;
            if (s.size() <= STAMP || s[STAMP] != ' ')
            {
                err = rp + ":" + std::to_string(n) + ": no rank stamp";
                return false;
            }
            std::string stamp = s.substr(0, STAMP);
            if (!endStamp.empty() && stamp > endStamp)
            {
                continue; // run after one process's end, within the last window
            }
            lines.push_back(Line{stamp, r, s.substr(STAMP + 1)});
        }
        if (in.bad())
        {
            err = "read error in " + rp;
            return false;
        }
    }
    // Within one rank the file order is the event order already (stable).
    std::stable_sort(lines.begin(), lines.end(),
                     [](const Line& a, const Line& b) { return a.stamp < b.stamp; });
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f)
    {
        err = "cannot write " + path;
        return false;
    }
    std::fputs(header.c_str(), f);
    const std::string zero(STAMP, '0');
    bool headerDone = false;
    for (const Line& l : lines)
    {
        if (l.stamp == zero)
        {
            if (headerDone)
            {
                continue; // every rank's copy of a late header: one is kept
            }
            headerDone = true;
        }
        std::fputs(l.text.c_str(), f);
        std::fputc('\n', f);
    }
    bool ok = std::fflush(f) == 0 && !std::ferror(f);
    ok = std::fclose(f) == 0 && ok;
    if (!ok)
    {
        err = "write error in " + path;
        return false;
    }
    for (uint32_t r = 0; r < ranks; ++r)
    {
        std::remove(RankFilePath(path, r).c_str());
    }
    NS_LOG_INFO(path << ": " << lines.size() << " records of " << ranks << " ranks");
    return true;
}

} // namespace ns3
