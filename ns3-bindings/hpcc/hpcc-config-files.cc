// SPDX-License-Identifier: GPL-2.0-only
//
// The files a config.txt names, found as the HPCC simulator finds them
// (ResolveHpccPath), read with their paths resolved (ReadHpccConfig), and
// its trace file of node ids (ReadHpccTraceNodes). The keys' meaning is
// hpcc-config.cc's.

#include "hpcc-config.h"

#include <sys/stat.h>

#include <string>
#include <vector>

namespace ns3
{

namespace
{

bool
Exists(const std::string& p)
{
    struct stat st;
    return !p.empty() && stat(p.c_str(), &st) == 0;
}

std::string
DirOf(const std::string& p)
{
    auto slash = p.find_last_of('/');
    if (slash == std::string::npos)
    {
        return ".";
    }
    return slash == 0 ? "/" : p.substr(0, slash);
}

} // namespace

std::string
ResolveHpccPath(const std::string& path, const std::string& configFile, bool output)
{
    if (path.empty() || path[0] == '/')
    {
        return path;
    }
    std::string dir = DirOf(configFile);
    std::vector<std::string> bases = {"", dir + "/", DirOf(dir) + "/"};
    for (const std::string& b : bases)
    {
        std::string candidate = b + path;
        if (output ? Exists(DirOf(candidate)) : Exists(candidate))
        {
            return candidate;
        }
    }
    return path;
}

HpccConfig
ReadHpccConfig(const std::string& path, bool ignoreUnsupported)
{
    HpccConfig cfg = ParseHpccConfig(ReadHpccTextFile(path), path, ignoreUnsupported);
    for (std::string* p : {&cfg.topologyFile, &cfg.flowFile, &cfg.traceFile})
    {
        *p = ResolveHpccPath(*p, path, false);
    }
    for (std::string* p :
         {&cfg.fctOutputFile, &cfg.pfcOutputFile, &cfg.traceOutputFile, &cfg.qlenMonFile})
    {
        *p = ResolveHpccPath(*p, path, true);
    }
    return cfg;
}

std::vector<uint32_t>
ReadHpccTraceNodes(const std::string& path, uint32_t nNodes)
{
    // third.cc: "n" then n node ids (over any lines); ids past the last
    // node are skipped; what follows the n ids is never read.
    auto lines = SplitHpccTextLines(ReadHpccTextFile(path), path);
    std::vector<std::pair<uint32_t, std::string>> words;
    for (auto& l : lines)
    {
        for (auto& w : l.second)
        {
            words.emplace_back(l.first, w);
        }
    }
    auto whole = [&](size_t i, const char* field) -> uint64_t {
        const std::string& w = words[i].second;
        if (w.empty() || w.size() > 9 || w.find_first_not_of("0123456789") != std::string::npos)
        {
            throw FileFormatError(path, words[i].first, field,
                                  "'" + w + "' is not a whole number in decimal digits");
        }
        return std::stoull(w);
    };
    if (words.empty())
    {
        throw FileFormatError(path, 0, "count", "empty trace file (expected the node count)");
    }
    uint64_t n = whole(0, "count");
    if (words.size() < n + 1)
    {
        throw FileFormatError(path, words.back().first, "node_id",
                              "file ends after " + std::to_string(words.size() - 1) + " of " +
                                  std::to_string(n) + " node ids");
    }
    std::vector<uint32_t> ids;
    for (uint64_t i = 1; i <= n; i++)
    {
        uint64_t id = whole(i, "node_id");
        if (id < nNodes)
        {
            ids.push_back(static_cast<uint32_t>(id));
        }
    }
    return ids;
}

} // namespace ns3
