// SPDX-License-Identifier: GPL-2.0-only
//
// Per-rank output files of a distributed run and their merge into the one
// file a single process writes (docs/distributed.md). Each rank writes
// <path>.rank<r>, every record prefixed with the (time step, event key) of
// the event that wrote it (FastSimulatorImpl::CurrentKey, Node order); the
// merge orders the records by that prefix, which is one process's order,
// and strips it.
#ifndef RANK_MERGE_H
#define RANK_MERGE_H

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace ns3
{

/// <path>.rank<rank>
std::string RankFilePath(const std::string& path, uint32_t rank);
/// Write the running event's prefix (call before each record's text).
void WriteRankStamp(std::FILE* f);
/// Samplers whose records share one file's stamps apart: each has its own
/// range of indexes, in the order one process runs them at one time.
enum RankSampler : uint32_t
{
    SAMPLER_CSV = 0,  ///< RdmaTraceHelper's queue/rate/link CSVs
    SAMPLER_QLEN = 1, ///< the qlen file's dumps
};
/**
 * The prefix of the index-th record a global sampler (an event for no
 * node, on every rank) writes at this time: its key is the same on every
 * rank (a global event's own key is not: each rank counts its own), after
 * every node's event of the time, and orders the ranks' records as one
 * process's loop over all of them wrote them.
 */
void WriteRankSampleStamp(std::FILE* f, uint64_t index, uint32_t sampler = SAMPLER_CSV);
/// Write a prefix that sorts first and keeps one copy over all ranks (a
/// header line written when the first record comes).
void WriteRankHeaderStamp(std::FILE* f);
/**
 * Write the prefix of the index-th record written after the run (a final
 * dump, from what every rank kept up to one process's end): it sorts after
 * every record of the run and the merge never leaves it out as past the end.
 */
void WriteRankTrailerStamp(std::FILE* f, uint64_t index, uint32_t sampler = SAMPLER_CSV);
/// The stamp of (time step, event key), as the records carry it.
std::string RankStamp(uint64_t ts, uint64_t key);
/// The stamps WriteRankSampleStamp and WriteRankTrailerStamp write (at ts).
std::string RankSampleStamp(uint64_t ts, uint64_t index, uint32_t sampler = SAMPLER_CSV);
std::string RankTrailerStamp(uint64_t index, uint32_t sampler = SAMPLER_CSV);
/**
 * Merge <path>.rank0 .. <path>.rank<ranks-1> into path (header first, if
 * any) and remove them, leaving out records stamped after endStamp (""
 * keeps all): the ranks ran on to the end of their window after the event
 * where one process stopped. False with err set on an I/O failure or a
 * line without a prefix.
 */
bool MergeRankFiles(const std::string& path, uint32_t ranks, const std::string& header,
                    std::string& err, const std::string& endStamp = "");

/// An output under one shared byte cap (rdma-sim's --maxTraceBytes).
struct CappedRankFile
{
    std::string path;
    std::string header;      ///< written first, not counted (a CSV header)
    size_t recordBytes = 0;  ///< 0: text lines; else binary records of this size
};
/// Where the cap stopped the merged outputs.
struct RankCapResult
{
    bool capped = false;
    uint64_t ts = 0;    ///< time step of the record that crossed the cap
    uint64_t bytes = 0; ///< bytes counted then (setupBytes included)
};
/**
 * Merge capped outputs as MergeRankFiles does, all of them in one stamp
 * order, and cut them where one process's shared count of bytes first
 * went over cap (0: no cap), counting setupBytes first (spent before the
 * run). One process writes a sampler's records of one time (a run of
 * equal time and sampler in the stamps) and then counts them, so the
 * records of the sample that crosses are kept; it counts an event's record
 * before writing it, so the record that crosses is not. Each rank must
 * have written up to the whole cap of its own. Trailer records are one
 * sample, after all others.
 */
bool MergeCappedRankFiles(const std::vector<CappedRankFile>& files, uint32_t ranks, uint64_t cap,
                          uint64_t setupBytes, std::string& err, const std::string& endStamp,
                          RankCapResult& result);

} // namespace ns3

#endif // RANK_MERGE_H
