// SPDX-License-Identifier: GPL-2.0-only
//
// The sender's retransmission timer and libcc: the binding arms it with the
// timeout the flow's algorithm wants (libcc_rp_rto_ns), else with the NIC's
// RetransmitTimeout attribute, and reports each expiry to the algorithm
// (libcc_rp_on_timeout), whatever the algorithm. A flow whose ACKs are all
// lost (a receive error rate just below 1 on the sender's port) times out
// again and again; Swift's reaction is docs/algorithms/swift.md's.

#include "rdma-network.h"

#include <ns3/simulator.h>

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const uint64_t G100 = 100000000000ull;

double
Var(const RdmaTxQueuePair& qp, const char* name)
{
    const libcc_param_desc* d;
    size_t n;
    libcc_rp* rp = qp.GetCc()->Raw();
    if (libcc_rp_vars(rp, &d, &n) != LIBCC_OK)
    {
        return -1;
    }
    std::vector<double> v(n);
    libcc_rp_read_vars(rp, v.data(), n);
    for (size_t i = 0; i < n; i++)
    {
        if (std::strcmp(d[i].name, name) == 0)
        {
            return v[i];
        }
    }
    return -1;
}

struct Sample
{
    uint64_t timeouts;
    uint64_t outstanding; // bytes sent and not acknowledged
    double retxCnt;
    double cwnd;
    uint64_t rto;
};

/// One 10-packet flow from host 0 to host 1 over one switch (100 Gbps,
/// 1 us links) whose ACKs never reach the sender; the queue pair sampled at
/// each of `at` (ns).
std::vector<Sample>
AckLessFlow(const std::string& algo, const std::vector<uint64_t>& at)
{
    RdmaNetwork net;
    net.SetCongestionControl(algo, "");
    net.SetNicAttribute("RetransmitTimeout", TimeValue(MicroSeconds(100)));
    net.Build(MakeDumbbellTopology(1, 1, G100, 1000));
    net.GetNic(0)->GetDevice()->SetReceiveErrorRate(0.9999999);
    net.AddFlow(FlowSpec{0, 1, 3, 100, 10000, 0, 0}, 0);
    std::vector<Sample> out(at.size());
    Ptr<RdmaNic> nic = net.GetNic(0);
    for (size_t i = 0; i < at.size(); i++)
    {
        Simulator::Schedule(NanoSeconds(at[i]), [nic, &out, i, algo]() {
            Ptr<RdmaTxQueuePair> qp = nic->GetTxQueuePair(0);
            out[i].timeouts = qp->GetTimeouts();
            out[i].outstanding = qp->GetSndNxt() - qp->GetSndUna();
            out[i].rto = qp->GetCc()->GetRto();
            out[i].retxCnt = algo == "swift" ? Var(*qp, "retx_cnt") : 0;
            out[i].cwnd = algo == "swift" ? Var(*qp, "cwnd") : 0;
            EXPECT_EQ(qp->GetSndUna(), 0u); // no ACK got through
            EXPECT_EQ(qp->GetCc()->GetErrors(), 0u);
        });
    }
    Simulator::Stop(NanoSeconds(at.back() + 1));
    Simulator::Run();
    Simulator::Destroy();
    return out;
}

} // namespace

// Swift wants max(250 us, 2 srtt): with no RTT sample srtt is the path's
// base RTT, 2 x (2 x 1000 + (1102 + 121) x 8 / 100) = 4195.68 -> 4196 ns
// (data 1102 B and ACK 121 B on the wire), so 250 us, not the NIC's 100 us.
// The first packet leaves at 0: timeouts at 250, 500, 750 us. The start
// window is the BDP, 100 Gbps x 4196 ns / 1102 B = 47.595 packets; the
// first timeout halves it, the second leaves it, the third sets 0.01.
// Then the flow is paced at 0.01 x 1102 x 8 bit / 4196 ns = 21010486 bit/s,
// one packet per 419600 ns, and the RTO waits out that gap: 2 x 4196 +
// (4196 / 0.01 - 4196) = 423796 ns. The go-back packet leaves one gap after
// the last packet the second timeout resent (500000 + 9 x 88.16 ns):
// 500793.44 + 419600.00 = 920393.44 ns; the timer restarts there (nothing
// was outstanding before), the fourth timeout at 920393 + 423796 = 1344189
// ns (give or take the ns-3 tick).
TEST(RdmaTimeout, SwiftGetsEachTimeoutAfterItsOwnRto)
{
    const double bdp = 100e9 * 4196e-9 / 8 / 1102;
    auto s = AckLessFlow("swift", {99999, 101000, 249999, 250001, 499999, 500001, 749999, 750001,
                                   920300, 920500, 1344100, 1344300});
    ASSERT_EQ(s.size(), 12u);
    EXPECT_EQ(s[0].rto, 250000u);
    EXPECT_EQ(s[1].timeouts, 0u); // the NIC's 100 us is not used
    EXPECT_EQ(s[2].timeouts, 0u);
    EXPECT_NEAR(s[2].cwnd, bdp, 1e-9);
    EXPECT_EQ(s[2].outstanding, 10000u);
    EXPECT_EQ(s[3].timeouts, 1u);
    EXPECT_EQ(s[3].retxCnt, 1.0);
    EXPECT_NEAR(s[3].cwnd, bdp / 2, 1e-9);
    EXPECT_EQ(s[4].timeouts, 1u);
    EXPECT_EQ(s[5].timeouts, 2u);
    EXPECT_EQ(s[5].retxCnt, 2.0);
    EXPECT_NEAR(s[5].cwnd, bdp / 2, 1e-9);
    EXPECT_EQ(s[6].timeouts, 2u);
    EXPECT_EQ(s[6].outstanding, 10000u);
    EXPECT_EQ(s[7].timeouts, 3u);
    EXPECT_EQ(s[7].retxCnt, 3.0);
    EXPECT_EQ(s[7].cwnd, 0.01);
    EXPECT_EQ(s[7].rto, 423796u);
    EXPECT_EQ(s[7].outstanding, 0u); // paced: the go-back packet waits
    EXPECT_EQ(s[8].outstanding, 0u);
    EXPECT_EQ(s[9].outstanding, 1000u);
    EXPECT_EQ(s[10].timeouts, 3u);
    EXPECT_EQ(s[11].timeouts, 4u);
    EXPECT_EQ(s[11].retxCnt, 4.0);
    EXPECT_EQ(s[11].cwnd, 0.01);
}

// An algorithm with no RTO of its own: the NIC's attribute, 100 us; the
// timeout event reaches it all the same (and is ignored without error).
TEST(RdmaTimeout, WithoutAnAlgorithmRtoTheNicsAttributeIsUsed)
{
    auto s = AckLessFlow("dcqcn", {99999, 100001, 199999, 200001});
    EXPECT_EQ(s[0].rto, 0u);
    EXPECT_EQ(s[0].timeouts, 0u);
    EXPECT_EQ(s[1].timeouts, 1u);
    EXPECT_EQ(s[2].timeouts, 1u);
    EXPECT_EQ(s[3].timeouts, 2u);
}
