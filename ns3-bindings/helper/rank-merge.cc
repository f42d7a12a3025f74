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
constexpr uint64_t TRAILER_TS = UINT64_MAX;
constexpr uint64_t GLOBAL_SLOT = FastSimulatorImpl::NODE_KEY_GLOBAL;
constexpr unsigned SAMPLER_SHIFT = 32; // a sampler's indexes below, its id above

/// A record's prefix, written without building a string per record.
void
PutStamp(std::FILE* f, uint64_t ts, uint64_t key)
{
    std::fprintf(f, STAMP_FORMAT " ", ts, key);
}

uint64_t
SamplerKey(uint64_t index, uint32_t sampler)
{
    return (GLOBAL_SLOT << FastSimulatorImpl::NODE_KEY_SHIFT) |
           (uint64_t(sampler) << SAMPLER_SHIFT) | index;
}

struct Stamp
{
    uint64_t ts = 0;
    uint64_t key = 0;
    bool operator<(const Stamp& o) const
    {
        return ts != o.ts ? ts < o.ts : key < o.key;
    }
};

bool
ParseHex(const char* s, uint64_t& v)
{
    v = 0;
    for (size_t i = 0; i < 16; i++)
    {
        char c = s[i];
        unsigned d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : 16;
        if (d > 15)
        {
            return false;
        }
        v = v << 4 | d;
    }
    return true;
}

bool
ParseStamp(const char* s, Stamp& st)
{
    return ParseHex(s, st.ts) && ParseHex(s + 16, st.key);
}

struct Record
{
    Stamp stamp;
    uint32_t file;
    uint32_t len;  ///< text bytes, without the stamp (and a line's '\n')
    uint64_t off;  ///< where the text is in the arena
};

/// The records and, in one buffer, their texts: a trace of millions of
/// records is read without a string each.
struct Records
{
    std::vector<Record> recs;
    std::string arena;
    void Write(std::FILE* f, const Record& r) const
    {
        std::fwrite(arena.data() + r.off, 1, r.len, f);
    }
};

/**
 * Append the records of path's rank files (text lines, or binary records of
 * recordBytes after their stamp) to out, without those stamped after end
 * (trailers kept).
 */
bool
ReadRankRecords(const std::string& path, uint32_t ranks, size_t recordBytes, uint32_t file,
                const Stamp* end, Records& out, std::string& err)
{
    for (uint32_t r = 0; r < ranks; ++r)
    {
        std::string rp = RankFilePath(path, r);
        std::ifstream in(rp, std::ios::binary);
        if (!in)
        {
            err = "cannot read " + rp;
            return false;
        }
        uint64_t n = 0;
        std::string s;
        while (true)
        {
            if (recordBytes == 0)
            {
                if (!std::getline(in, s))
                {
                    break;
                }
            }
            else
            {
                s.resize(STAMP + 1 + recordBytes);
                if (!in.read(&s[0], s.size()))
                {
                    if (in.gcount() != 0)
                    {
                        err = rp + ": a record cut short after record " + std::to_string(n);
                        return false;
                    }
                    break;
                }
            }
            ++n;
            Record rec{{}, file, 0, out.arena.size()};
            if (s.size() <= STAMP || s[STAMP] != ' ' || !ParseStamp(s.data(), rec.stamp))
            {
                err = rp + ":" + std::to_string(n) + ": no rank stamp";
                return false;
            }
            if (end && rec.stamp.ts != TRAILER_TS && *end < rec.stamp)
            {
                continue; // run after one process's end, within the last window
            }
            rec.len = static_cast<uint32_t>(s.size() - STAMP - 1);
            out.arena.append(s, STAMP + 1, std::string::npos);
            out.recs.push_back(rec);
        }
        if (in.bad())
        {
            err = "read error in " + rp;
            return false;
        }
    }
    return true;
}

bool
ParseEnd(const std::string& endStamp, Stamp& end, std::string& err)
{
    if (endStamp.size() != STAMP || !ParseStamp(endStamp.data(), end))
    {
        err = "not a rank stamp: " + endStamp;
        return false;
    }
    return true;
}

bool
CloseOut(std::FILE* f, const std::string& path, std::string& err)
{
    bool ok = std::fflush(f) == 0 && !std::ferror(f);
    ok = std::fclose(f) == 0 && ok;
    if (!ok)
    {
        err = "write error in " + path;
    }
    return ok;
}

void
RemoveRankFiles(const std::string& path, uint32_t ranks)
{
    for (uint32_t r = 0; r < ranks; ++r)
    {
        std::remove(RankFilePath(path, r).c_str());
    }
}

/// Within one rank the file order is the event order already (stable).
void
SortByStamp(std::vector<Record>& recs)
{
    std::stable_sort(recs.begin(), recs.end(),
                     [](const Record& a, const Record& b) { return a.stamp < b.stamp; });
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

std::string
RankSampleStamp(uint64_t ts, uint64_t index, uint32_t sampler)
{
    return RankStamp(ts, SamplerKey(index, sampler));
}

std::string
RankTrailerStamp(uint64_t index, uint32_t sampler)
{
    return RankStamp(TRAILER_TS, SamplerKey(index, sampler));
}

void
WriteRankStamp(std::FILE* f)
{
    FastSimulatorImpl* impl = FastSimulatorImpl::Running();
    uint64_t key = impl ? impl->CurrentKey() : 0;
    PutStamp(f, static_cast<uint64_t>(SimNowStep()), key);
}

void
WriteRankSampleStamp(std::FILE* f, uint64_t index, uint32_t sampler)
{
    PutStamp(f, static_cast<uint64_t>(SimNowStep()), SamplerKey(index, sampler));
}

void
WriteRankHeaderStamp(std::FILE* f)
{
    PutStamp(f, 0, 0);
}

void
WriteRankTrailerStamp(std::FILE* f, uint64_t index, uint32_t sampler)
{
    PutStamp(f, TRAILER_TS, SamplerKey(index, sampler));
}

bool
MergeRankFiles(const std::string& path, uint32_t ranks, const std::string& header,
               std::string& err, const std::string& endStamp)
{
    Stamp end;
    if (!endStamp.empty() && !ParseEnd(endStamp, end, err))
    {
        return false;
    }
    Records all;
    if (!ReadRankRecords(path, ranks, 0, 0, endStamp.empty() ? nullptr : &end, all, err))
    {
        return false;
    }
    std::vector<Record>& lines = all.recs;
    SortByStamp(lines);
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f)
    {
        err = "cannot write " + path;
        return false;
    }
    std::fputs(header.c_str(), f);
    bool headerDone = false;
    for (const Record& l : lines)
    {
        if (l.stamp.ts == 0 && l.stamp.key == 0)
        {
            if (headerDone)
            {
                continue; // every rank's copy of a late header: one is kept
            }
            headerDone = true;
        }
        all.Write(f, l);
        std::fputc('\n', f);
    }
    if (!CloseOut(f, path, err))
    {
        return false;
    }
    RemoveRankFiles(path, ranks);
    NS_LOG_INFO(path << ": " << lines.size() << " records of " << ranks << " ranks");
    return true;
}

bool
MergeCappedRankFiles(const std::vector<CappedRankFile>& files, uint32_t ranks, uint64_t cap,
                     uint64_t setupBytes, std::string& err, const std::string& endStamp,
                     RankCapResult& result)
{
    Stamp end;
    if (!endStamp.empty() && !ParseEnd(endStamp, end, err))
    {
        return false;
    }
    Records all;
    for (uint32_t i = 0; i < files.size(); i++)
    {
        if (!ReadRankRecords(files[i].path, ranks, files[i].recordBytes, i,
                             endStamp.empty() ? nullptr : &end, all, err))
        {
            return false;
        }
    }
    std::vector<Record>& recs = all.recs;
    SortByStamp(recs);
    // One process's count: a sample (the records of one sampler at one
    // time, or the trailer) is written whole and then counted; an event's
    // record is counted first and not written if it crosses.
    auto sampler = [](const Stamp& s) {
        return (s.key >> FastSimulatorImpl::NODE_KEY_SHIFT) == GLOBAL_SLOT
                   ? int64_t((s.key >> SAMPLER_SHIFT) & 0xff)
                   : int64_t(-1);
    };
    result = RankCapResult{};
    uint64_t total = setupBytes;
    size_t cut = recs.size();
    if (cap && total > cap)
    {
        result = RankCapResult{true, 0, total};
        cut = 0;
    }
    for (size_t i = 0; i < recs.size() && !result.capped;)
    {
        const Stamp& s = recs[i].stamp;
        int64_t who = sampler(s);
        size_t j = i + 1;
        while (who >= 0 && j < recs.size() && recs[j].stamp.ts == s.ts &&
               (s.ts == TRAILER_TS || sampler(recs[j].stamp) == who))
        {
            ++j;
        }
        for (size_t k = i; k < j; k++)
        {
            total += recs[k].len + (files[recs[k].file].recordBytes ? 0 : 1);
        }
        if (cap && total > cap)
        {
            result = RankCapResult{true, s.ts, total};
            cut = who >= 0 ? j : i;
        }
        i = j;
    }
    result.bytes = total;
    for (uint32_t i = 0; i < files.size(); i++)
    {
        const CappedRankFile& cf = files[i];
        std::FILE* f = std::fopen(cf.path.c_str(), "wb");
        if (!f)
        {
            err = "cannot write " + cf.path;
            return false;
        }
        std::fwrite(cf.header.data(), 1, cf.header.size(), f);
        for (size_t k = 0; k < cut; k++)
        {
            if (recs[k].file == i)
            {
                all.Write(f, recs[k]);
                if (cf.recordBytes == 0)
                {
                    std::fputc('\n', f);
                }
            }
        }
        if (!CloseOut(f, cf.path, err))
        {
            return false;
        }
        RemoveRankFiles(cf.path, ranks);
    }
    NS_LOG_INFO(files.size() << " capped outputs: " << cut << " of " << recs.size()
                             << " records of " << ranks << " ranks");
    return true;
}

} // namespace ns3
