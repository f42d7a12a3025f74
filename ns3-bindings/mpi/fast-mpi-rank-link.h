// SPDX-License-Identifier: GPL-2.0-only
//
// FastMpiRankLink: FastSimulatorImpl's rank link over MPI (one
// MPI_Alltoall of summaries and byte counts, one MPI_Alltoallv of the
// frames when any rank sent some, per window).
#ifndef FAST_MPI_RANK_LINK_H
#define FAST_MPI_RANK_LINK_H

#include "fast-simulator-impl.h"

#include <mpi.h>

namespace ns3
{

class FastMpiRankLink : public FastRankLink
{
  public:
    /// Over comm (MPI already initialised), duplicated so no user message collides.
    explicit FastMpiRankLink(MPI_Comm comm);
    ~FastMpiRankLink() override;
    uint32_t GetRank() const override
    {
        return m_rank;
    }
    uint32_t GetSize() const override
    {
        return m_size;
    }
    void Exchange(const std::vector<std::vector<uint8_t>>& out, const Summary& mine,
                  std::vector<uint8_t>& in, std::vector<Summary>& all) override;

  private:
    MPI_Comm m_comm;
    uint32_t m_rank;
    uint32_t m_size;
    /// Per peer: next ts, stopped, bytes to it, bytes sent by it in all.
    std::vector<uint64_t> m_head;
    std::vector<uint64_t> m_headIn;
    std::vector<uint8_t> m_send;
    std::vector<int> m_sendCounts, m_sendDispls, m_recvCounts, m_recvDispls;
};

} // namespace ns3

#endif // FAST_MPI_RANK_LINK_H
