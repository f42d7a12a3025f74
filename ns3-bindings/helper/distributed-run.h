// SPDX-License-Identifier: GPL-2.0-only
//
// DistributedRun: what a program does to run over MPI ranks
// (docs/distributed.md). Under an MPI launcher (mpirun, srun) with more
// than one rank it loads libns3-libcc-mpi (dlopen: a program run alone
// links and starts no MPI), initialises MPI, and hands FastSimulatorImpl
// its rank link; alone it is one rank and does nothing.
#ifndef DISTRIBUTED_RUN_H
#define DISTRIBUTED_RUN_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class FastRankLink;
class RdmaNetwork;
struct TopologySpec;

class DistributedRun
{
  public:
    /// Ranks the launcher asks for (its environment), 1 without one.
    static uint32_t LauncherSize();
    /// Whether an MPI launcher started this process (one rank included).
    static bool UnderLauncher();

    DistributedRun() = default;
    ~DistributedRun();
    DistributedRun(const DistributedRun&) = delete;
    DistributedRun& operator=(const DistributedRun&) = delete;

    /**
     * Join the launcher's ranks (MPI_Init) when it asks for more than one.
     * Returns 0, or an exit status with err set: 1 when the library or MPI
     * could not be had, 2 for a launch that would run N separate copies
     * (srun with Slurm's default --mpi=none) or for more than one rank
     * asked of a program with ns-3 linked in (built with LIBCC_NS3_STATIC:
     * bin/static/, ns3-bindings/static.mk).
     */
    int Start(int* argc, char*** argv, std::string& err);
    /**
     * A program's start: Start, with its error printed on stderr as
     * "<prog>: ..." (returns the exit status, 0 if none); then, on ranks
     * other than 0, stdout goes nowhere (one copy of --help and of the
     * summary: rank 0's) and QuietOtherRanks.
     */
    int StartProgram(const char* prog, int* argc, char*** argv);
    uint32_t GetRank() const
    {
        return m_rank;
    }
    uint32_t GetSize() const
    {
        return m_size;
    }
    bool IsDistributed() const
    {
        return m_size > 1;
    }
    /**
     * Make the Simulator a FastSimulatorImpl over the ranks with this
     * lookahead (ns, > 0). Under any launcher, one rank included, the
     * events take the Node order, so 1, 2 or N ranks give the same
     * outputs. Before anything is scheduled or built.
     */
    void Attach(uint64_t lookaheadNs);
    /**
     * Give net (before Build) this partition of topo (rank of each node),
     * then Attach with its lookahead; rank 0 prints "<prog>: N ranks,
     * lookahead L ns, nodes per rank: ..." on stderr when there are several.
     * Throws std::invalid_argument for a cut link of zero delay (named).
     */
    void UsePartition(const char* prog, RdmaNetwork& net, const TopologySpec& topo,
                      const std::vector<uint32_t>& rankOf);
    /// The lookahead given to Attach (ns; UINT64_MAX: no link cut, 0 alone).
    uint64_t GetLookaheadNs() const
    {
        return m_lookaheadNs;
    }
    /// Sum (or max) of a value over the ranks; the value itself alone.
    uint64_t Sum(uint64_t v) const;
    uint64_t Max(uint64_t v) const;
    /// The same, element by element, over vectors of one size on every rank.
    void Sum(std::vector<uint64_t>& v) const;
    void Max(std::vector<uint64_t>& v) const;
    /**
     * The text of the rank whose order is the smallest (ties: the lowest
     * rank; UINT64_MAX on every rank: ""), on every rank. A report one
     * process makes once, of the first of the ranks to see it.
     */
    std::string First(const std::string& text, uint64_t order) const;
    /**
     * On ranks other than 0, stderr goes nowhere until SpeakAgain: while
     * the inputs are read, which every rank reads alike, so one copy of
     * their errors (rank 0's) is enough; every rank still exits with its
     * status. Alone, nothing changes.
     */
    void QuietOtherRanks();
    /// stderr back (also done by the destructor).
    void SpeakAgain();
    void Barrier() const;
    /// End MPI (also done by the destructor).
    void Finish();

  private:
    void* m_lib = nullptr;
    FastRankLink* m_link = nullptr;
    uint32_t m_rank = 0;
    uint32_t m_size = 1;
    uint64_t m_lookaheadNs = 0;
    int m_savedStderr = -1; ///< stderr while quiet (QuietOtherRanks)
    void (*m_allreduce)(uint64_t*, int, int) = nullptr;
    void (*m_barrier)() = nullptr;
    void (*m_finalize)() = nullptr;
};

} // namespace ns3

#endif // DISTRIBUTED_RUN_H
