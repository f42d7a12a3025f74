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

namespace ns3
{

class FastRankLink;

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
     * (srun with Slurm's default --mpi=none).
     */
    int Start(int* argc, char*** argv, std::string& err);
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
    /// Sum (or max) of a value over the ranks; the value itself alone.
    uint64_t Sum(uint64_t v) const;
    uint64_t Max(uint64_t v) const;
    void Barrier() const;
    /// End MPI (also done by the destructor).
    void Finish();

  private:
    void* m_lib = nullptr;
    FastRankLink* m_link = nullptr;
    uint32_t m_rank = 0;
    uint32_t m_size = 1;
    void (*m_allreduce)(uint64_t*, int, int) = nullptr;
    void (*m_barrier)() = nullptr;
    void (*m_finalize)() = nullptr;
};

} // namespace ns3

#endif // DISTRIBUTED_RUN_H
