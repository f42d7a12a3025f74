// SPDX-License-Identifier: GPL-2.0-only
#include "fast-mpi-rank-link.h"

#include "ns3/fatal-error.h"

#include <climits>

namespace ns3
{

namespace
{
constexpr int HEAD = 4; // next ts, stopped, bytes to the peer, bytes sent in all
} // namespace

FastMpiRankLink::FastMpiRankLink(MPI_Comm comm)
{
    MPI_Comm_dup(comm, &m_comm);
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(m_comm, &rank);
    MPI_Comm_size(m_comm, &size);
    m_rank = static_cast<uint32_t>(rank);
    m_size = static_cast<uint32_t>(size);
    m_head.resize(HEAD * m_size);
    m_headIn.resize(HEAD * m_size);
    m_sendCounts.resize(m_size);
    m_sendDispls.resize(m_size);
    m_recvCounts.resize(m_size);
    m_recvDispls.resize(m_size);
}

FastMpiRankLink::~FastMpiRankLink()
{
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized)
    {
        MPI_Comm_free(&m_comm);
    }
}

void
FastMpiRankLink::Exchange(const std::vector<std::vector<uint8_t>>& out, const Summary& mine,
                          std::vector<uint8_t>& in, std::vector<Summary>& all)
{
    uint64_t total = 0;
    for (uint32_t r = 0; r < m_size; ++r)
    {
        total += r < out.size() ? out[r].size() : 0;
    }
    for (uint32_t r = 0; r < m_size; ++r)
    {
        uint64_t* h = &m_head[HEAD * r];
        h[0] = mine.nextTs;
        h[1] = mine.stopped;
        h[2] = r < out.size() ? out[r].size() : 0;
        h[3] = total;
    }
    MPI_Alltoall(m_head.data(), HEAD, MPI_UINT64_T, m_headIn.data(), HEAD, MPI_UINT64_T, m_comm);
    all.resize(m_size);
    uint64_t everyone = 0;
    uint64_t incoming = 0;
    for (uint32_t r = 0; r < m_size; ++r)
    {
        const uint64_t* h = &m_headIn[HEAD * r];
        all[r] = Summary{h[0], h[1]};
        everyone += h[3];
        incoming += h[2];
    }
    in.clear();
    if (everyone == 0)
    {
        return; // nothing crossed a rank this window: no second collective
    }
    if (total > INT_MAX || incoming > INT_MAX)
    {
        NS_FATAL_ERROR("FastMpiRankLink: over 2 GiB crossed ranks in one window");
    }
    m_send.clear();
    for (uint32_t r = 0; r < m_size; ++r)
    {
        m_sendDispls[r] = static_cast<int>(m_send.size());
        m_sendCounts[r] = static_cast<int>(m_head[HEAD * r + 2]);
        if (r < out.size())
        {
            m_send.insert(m_send.end(), out[r].begin(), out[r].end());
        }
        m_recvCounts[r] = static_cast<int>(m_headIn[HEAD * r + 2]);
        m_recvDispls[r] = r == 0 ? 0 : m_recvDispls[r - 1] + m_recvCounts[r - 1];
    }
    in.resize(incoming);
    MPI_Alltoallv(m_send.data(), m_sendCounts.data(), m_sendDispls.data(), MPI_BYTE, in.data(),
                  m_recvCounts.data(), m_recvDispls.data(), MPI_BYTE, m_comm);
}

} // namespace ns3
