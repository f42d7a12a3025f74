// SPDX-License-Identifier: GPL-2.0-only
#include "distributed-run.h"

#include "fast-simulator-impl.h"
#include "rdma-network.h"
#include "rdma-partition.h"

#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DistributedRun");

namespace
{
// Found beside libns3-libcc.so (its $ORIGIN run path), installed or built.
const char* const MPI_LIB = "libns3-libcc-mpi.so.0";

uint32_t
EnvCount(const char* name)
{
    const char* v = std::getenv(name);
    if (!v || !*v)
    {
        return 0;
    }
    char* end = nullptr;
    unsigned long n = std::strtoul(v, &end, 10);
    return *end == '\0' && n < 1000000 ? static_cast<uint32_t>(n) : 0;
}
} // namespace

// What a launcher puts in each rank's environment: OpenMPI's mpirun; PMI
// (MPICH, srun --mpi=pmi2); Slurm's srun with PMIx (which may give the rank
// only: the size is then Slurm's task count).
const char* const SIZE_VARS[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"};
const char* const PMIX_RANK_VAR = "PMIX_RANK";

bool
DistributedRun::UnderLauncher()
{
    for (const char* name : SIZE_VARS)
    {
        if (std::getenv(name))
        {
            return true;
        }
    }
    return std::getenv(PMIX_RANK_VAR) != nullptr;
}

uint32_t
DistributedRun::LauncherSize()
{
    for (const char* name : SIZE_VARS)
    {
        if (uint32_t n = EnvCount(name))
        {
            return n;
        }
    }
    if (std::getenv(PMIX_RANK_VAR))
    {
        if (uint32_t n = EnvCount("SLURM_NTASKS"))
        {
            return n;
        }
    }
    return 1;
}

DistributedRun::~DistributedRun()
{
    SpeakAgain();
    Finish();
}

int
DistributedRun::Start(int* argc, char*** argv, std::string& err)
{
    if (LauncherSize() <= 1)
    {
        uint32_t tasks = EnvCount("SLURM_STEP_NUM_TASKS");
        if (tasks > 1 && !UnderLauncher())
        {
            err = "srun started " + std::to_string(tasks) +
                  " tasks without an MPI plugin (Slurm's default --mpi=none): they would be " +
                  std::to_string(tasks) + " separate runs writing one directory; use srun "
                  "--mpi=pmix (docs/distributed.md)";
            return 2;
        }
        return 0;
    }
#ifdef LIBCC_NS3_STATIC
    // libns3-libcc-mpi links Debian's shared ns-3: loaded here it would be a
    // second ns-3 beside the one linked in, with its own simulator.
    err = "this program has ns-3 linked in (bin/static/, docs/static-programs.md) and runs as one "
          "process; for " +
          std::to_string(LauncherSize()) + " ranks run the same program from bin/";
    return 2;
#endif
    m_lib = dlopen(MPI_LIB, RTLD_NOW | RTLD_GLOBAL);
    if (!m_lib)
    {
        const char* why = dlerror();
        err = std::string("a run over MPI ranks needs ") + MPI_LIB + " (make builds it when "
              "OpenMPI and ns-3's source are there: make deps): " + (why ? why : "not found");
        return 1;
    }
    auto init = reinterpret_cast<int (*)(int*, char***, uint32_t*, uint32_t*)>(
        dlsym(m_lib, "libcc_ns3_mpi_init"));
    auto link = reinterpret_cast<void* (*)()>(dlsym(m_lib, "libcc_ns3_mpi_rank_link"));
    m_allreduce = reinterpret_cast<void (*)(uint64_t*, int, int)>(
        dlsym(m_lib, "libcc_ns3_mpi_allreduce"));
    m_barrier = reinterpret_cast<void (*)()>(dlsym(m_lib, "libcc_ns3_mpi_barrier"));
    m_finalize = reinterpret_cast<void (*)()>(dlsym(m_lib, "libcc_ns3_mpi_finalize"));
    if (!init || !link || !m_allreduce || !m_barrier || !m_finalize)
    {
        err = std::string(MPI_LIB) + " lacks its entry points (a different version?)";
        return 1;
    }
    if (init(argc, argv, &m_rank, &m_size) != 0)
    {
        err = "MPI_Init failed";
        return 1;
    }
    m_link = static_cast<FastRankLink*>(link());
    NS_LOG_INFO("rank " << m_rank << " of " << m_size);
    return 0;
}

int
DistributedRun::StartProgram(const char* prog, int* argc, char*** argv)
{
    std::string err;
    if (int rc = Start(argc, argv, err))
    {
        std::fprintf(stderr, "%s: %s\n", prog, err.c_str());
        return rc;
    }
    if (m_rank > 0)
    {
        std::freopen("/dev/null", "w", stdout);
    }
    QuietOtherRanks();
    return 0;
}

void
DistributedRun::Attach(uint64_t lookaheadNs)
{
    if (!IsDistributed() && !UnderLauncher())
    {
        return;
    }
    m_lookaheadNs = lookaheadNs;
    Ptr<FastSimulatorImpl> impl = DynamicCast<FastSimulatorImpl>(Simulator::GetImplementation());
    if (!impl)
    {
        NS_FATAL_ERROR("DistributedRun: a run under an MPI launcher needs FastSimulatorImpl "
                       "(ns-3's DistributedSimulatorImpl is not supported by the programs)");
    }
    if (!IsDistributed())
    {
        impl->SetOrder(FastSimulatorImpl::ORDER_NODE);
        return;
    }
    // No link between the ranks (UINT64_MAX): they never wait for each other.
    int64_t steps = lookaheadNs >= uint64_t(INT64_MAX) / 1000000
                        ? INT64_MAX / 4
                        : NanoSeconds(static_cast<int64_t>(lookaheadNs)).GetTimeStep();
    impl->SetRankLink(m_link, steps);
}

void
DistributedRun::UsePartition(const char* prog, RdmaNetwork& net, const TopologySpec& topo,
                             const std::vector<uint32_t>& rankOf)
{
    uint64_t lookaheadNs = PartitionLookaheadNs(topo, rankOf);
    net.SetPartition(rankOf);
    Attach(lookaheadNs);
    if (m_rank == 0 && IsDistributed())
    {
        std::fprintf(stderr, "%s: %u ranks, lookahead %llu ns, nodes per rank:", prog, m_size,
                     static_cast<unsigned long long>(lookaheadNs));
        for (uint32_t c : PartitionSizes(rankOf, m_size))
        {
            std::fprintf(stderr, " %u", c);
        }
        std::fprintf(stderr, "\n");
    }
}

uint64_t
DistributedRun::Sum(uint64_t v) const
{
    if (m_allreduce)
    {
        m_allreduce(&v, 1, 0);
    }
    return v;
}

uint64_t
DistributedRun::Max(uint64_t v) const
{
    if (m_allreduce)
    {
        m_allreduce(&v, 1, 1);
    }
    return v;
}

void
DistributedRun::Sum(std::vector<uint64_t>& v) const
{
    if (m_allreduce && !v.empty())
    {
        m_allreduce(v.data(), static_cast<int>(v.size()), 0);
    }
}

void
DistributedRun::Max(std::vector<uint64_t>& v) const
{
    if (m_allreduce && !v.empty())
    {
        m_allreduce(v.data(), static_cast<int>(v.size()), 1);
    }
}

std::string
DistributedRun::First(const std::string& text, uint64_t order) const
{
    if (!IsDistributed())
    {
        return order == UINT64_MAX ? "" : text;
    }
    // Smallest order, then lowest rank: maxima of their complements.
    uint64_t best = UINT64_MAX - Max(UINT64_MAX - order);
    if (best == UINT64_MAX)
    {
        return "";
    }
    uint32_t winner = m_size - static_cast<uint32_t>(Max(order == best ? m_size - m_rank : 0));
    bool mine = winner == m_rank;
    std::vector<uint64_t> words((Max(mine ? text.size() : 0) + 7) / 8, 0);
    if (mine)
    {
        for (size_t i = 0; i < text.size(); i++)
        {
            words[i / 8] |= uint64_t(static_cast<unsigned char>(text[i])) << (8 * (i % 8));
        }
    }
    Sum(words); // every other rank adds zeros
    std::string out;
    for (size_t i = 0; i < words.size() * 8; i++)
    {
        char c = static_cast<char>(words[i / 8] >> (8 * (i % 8)));
        if (c == '\0')
        {
            break;
        }
        out += c;
    }
    return out;
}

void
DistributedRun::QuietOtherRanks()
{
    if (m_rank == 0 || m_savedStderr >= 0)
    {
        return;
    }
    std::fflush(stderr);
    int null = open("/dev/null", O_WRONLY);
    if (null < 0)
    {
        return; // then every rank prints, as before
    }
    m_savedStderr = dup(STDERR_FILENO);
    dup2(null, STDERR_FILENO);
    close(null);
}

void
DistributedRun::SpeakAgain()
{
    if (m_savedStderr < 0)
    {
        return;
    }
    std::fflush(stderr);
    dup2(m_savedStderr, STDERR_FILENO);
    close(m_savedStderr);
    m_savedStderr = -1;
}

void
DistributedRun::Barrier() const
{
    if (m_barrier)
    {
        m_barrier();
    }
}

void
DistributedRun::Finish()
{
    if (m_finalize)
    {
        delete m_link;
        m_link = nullptr;
        m_finalize();
        m_finalize = nullptr;
    }
}

} // namespace ns3
