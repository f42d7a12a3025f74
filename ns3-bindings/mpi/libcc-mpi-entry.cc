// SPDX-License-Identifier: GPL-2.0-only
//
// What DistributedRun (libns3-libcc.so, helper/distributed-run.h) finds by
// dlopen in this library: the programs link no MPI unless they run under
// an MPI launcher.
#include "fast-mpi-rank-link.h"

#include <mpi.h>

extern "C"
{

    __attribute__((visibility("default"))) int libcc_ns3_mpi_init(int* argc, char*** argv,
                                                                   uint32_t* rank, uint32_t* size)
    {
        int initialized = 0;
        MPI_Initialized(&initialized);
        if (!initialized && MPI_Init(argc, argv) != MPI_SUCCESS)
        {
            return -1;
        }
        int r = 0;
        int s = 1;
        MPI_Comm_rank(MPI_COMM_WORLD, &r);
        MPI_Comm_size(MPI_COMM_WORLD, &s);
        *rank = static_cast<uint32_t>(r);
        *size = static_cast<uint32_t>(s);
        return 0;
    }

    __attribute__((visibility("default"))) void* libcc_ns3_mpi_rank_link()
    {
        return static_cast<ns3::FastRankLink*>(new ns3::FastMpiRankLink(MPI_COMM_WORLD));
    }

    __attribute__((visibility("default"))) void libcc_ns3_mpi_allreduce(uint64_t* values,
                                                                        int n, int max)
    {
        MPI_Allreduce(MPI_IN_PLACE, values, n, MPI_UINT64_T, max ? MPI_MAX : MPI_SUM,
                      MPI_COMM_WORLD);
    }

    __attribute__((visibility("default"))) void libcc_ns3_mpi_barrier()
    {
        MPI_Barrier(MPI_COMM_WORLD);
    }

    __attribute__((visibility("default"))) void libcc_ns3_mpi_finalize()
    {
        int finalized = 0;
        MPI_Finalized(&finalized);
        if (!finalized)
        {
            MPI_Finalize();
        }
    }
}
