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

namespace ns3
{

/// <path>.rank<rank>
std::string RankFilePath(const std::string& path, uint32_t rank);
/// Write the running event's prefix (call before each record's text).
void WriteRankStamp(std::FILE* f);
/**
 * The prefix of the index-th record a global sampler (an event for no
 * node, on every rank) writes at this time: its key is the same on every
 * rank (a global event's own key is not: each rank counts its own), after
 * every node's event of the time, and orders the ranks' records as one
 * process's loop over all of them wrote them.
 */
void WriteRankSampleStamp(std::FILE* f, uint64_t index);
/// Write a prefix that sorts first and keeps one copy over all ranks (a
/// header line written when the first record comes).
void WriteRankHeaderStamp(std::FILE* f);
/// The stamp of (time step, event key), as the records carry it.
std::string RankStamp(uint64_t ts, uint64_t key);
/**
 * Merge <path>.rank0 .. <path>.rank<ranks-1> into path (header first, if
 * any) and remove them, leaving out records stamped after endStamp (""
 * keeps all): the ranks ran on to the end of their window after the event
 * where one process stopped. False with err set on an I/O failure or a
 * line without a prefix.
 */
bool MergeRankFiles(const std::string& path, uint32_t ranks, const std::string& header,
                    std::string& err, const std::string& endStamp = "");

} // namespace ns3

#endif // RANK_MERGE_H
