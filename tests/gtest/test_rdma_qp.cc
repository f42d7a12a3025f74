// SPDX-License-Identifier: GPL-2.0-only
//
// Queue pair state machines on their own (no packets, no libcc): pacing
// gaps, window, cumulative ACK, go-back-N on NACK, retransmission timeout,
// receiver classification and NACK suppression. Values derived by hand.

#include "rdma-queue-pair.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

Ptr<RdmaTxQueuePair>
MakeQp(uint64_t size, uint64_t rateBps, uint64_t window)
{
    RdmaFlowParams f;
    f.flowId = 7;
    f.sizeBytes = size;
    Ptr<RdmaTxQueuePair> qp = CreateObject<RdmaTxQueuePair>();
    qp->Setup(f, 0, 0, 1000);
    qp->OnRateChanged(rateBps);
    qp->OnWindowChanged(window);
    return qp;
}

libcc_ack
Ack(uint64_t seq)
{
    libcc_ack a{};
    a.seq = seq;
    return a;
}

} // namespace

TEST(RdmaQp, PacingGapIsWireBytesAtTheRate)
{
    auto qp = MakeQp(10000, 50000000000ull, LIBCC_WINDOW_UNLIMITED);
    // 1094 wire bytes at 50 Gbps: 8752 bits / 50e9 = 175.04 ns = 175,040 ps.
    qp->OnSent(1000, 1094, 0);
    EXPECT_EQ(qp->NextAvailPs(), 175040u);
    // Sent on time again: the gaps add up exactly (no per-gap rounding).
    qp->OnSent(1000, 1094, 175040);
    EXPECT_EQ(qp->NextAvailPs(), 350080u);
    // Sent late (the line was busy): the next gap counts from now.
    qp->OnSent(1000, 1094, 1000000);
    EXPECT_EQ(qp->NextAvailPs(), 1175040u);
    EXPECT_EQ(qp->GetSndNxt(), 3000u);
}

// The HPCC simulator's RdmaHw::ChangeRate: the pending departure moves to
// the start of the last gap plus that packet's time at the new rate.
TEST(RdmaQp, RateRiseRetimesPendingDeparture)
{
    auto qp = MakeQp(10000, 25000000000ull, LIBCC_WINDOW_UNLIMITED);
    // 1094 wire bytes at 25 Gbps: 8752 bits / 25e9 = 350.08 ns.
    qp->OnSent(1000, 1094, 1000000);
    EXPECT_EQ(qp->NextAvailPs(), 1000000u + 350080u);
    // Four times the rate: 87.52 ns from the same start, not the old 350.08.
    qp->OnRateChanged(100000000000ull);
    EXPECT_EQ(qp->NextAvailPs(), 1000000u + 87520u);
}

TEST(RdmaQp, RateCutRetimesPendingDeparture)
{
    auto qp = MakeQp(10000, 100000000000ull, LIBCC_WINDOW_UNLIMITED);
    qp->OnSent(1000, 1094, 0);
    EXPECT_EQ(qp->NextAvailPs(), 87520u);
    // Cut to 10 Gbps: the next packet waits 875.2 ns after the last one
    // started, not the 87.52 ns the old rate allowed.
    qp->OnRateChanged(10000000000ull);
    EXPECT_EQ(qp->NextAvailPs(), 875200u);
    // The following gap starts where the re-timed one ends.
    qp->OnSent(1000, 1094, 875200);
    EXPECT_EQ(qp->NextAvailPs(), 875200u + 875200u);
}

TEST(RdmaQp, RateChangeBeforeAnySendKeepsNoGap)
{
    auto qp = MakeQp(10000, 100000000000ull, LIBCC_WINDOW_UNLIMITED);
    qp->OnRateChanged(1000000000ull);
    EXPECT_EQ(qp->NextAvailPs(), 0u); // nothing sent: nothing to wait for
}

TEST(RdmaQp, WindowBoundsBytesInFlight)
{
    auto qp = MakeQp(10000, 100000000000ull, 3000);
    EXPECT_TRUE(qp->WindowOpen());
    qp->OnSent(1000, 1094, 0);
    qp->OnSent(1000, 1094, 0);
    EXPECT_TRUE(qp->WindowOpen()); // 2000 < 3000
    qp->OnSent(1000, 1094, 0);
    EXPECT_FALSE(qp->WindowOpen()); // 3000 in flight
    EXPECT_FALSE(qp->OnAck(Ack(1000), 100));
    EXPECT_EQ(qp->GetSndUna(), 1000u);
    EXPECT_TRUE(qp->WindowOpen()); // 2000 in flight
}

TEST(RdmaQp, WindowBelowOnePacketStillSendsOne)
{
    auto qp = MakeQp(10000, 100000000000ull, 10);
    EXPECT_TRUE(qp->WindowOpen()); // nothing in flight
    qp->OnSent(1000, 1094, 0);
    EXPECT_FALSE(qp->WindowOpen());
}

TEST(RdmaQp, LastPacketIsShortAndAckCompletes)
{
    auto qp = MakeQp(2500, 100000000000ull, LIBCC_WINDOW_UNLIMITED);
    qp->OnSent(qp->NextPayload(), 1094, 0);
    qp->OnSent(qp->NextPayload(), 1094, 0);
    EXPECT_EQ(qp->NextPayload(), 500u); // 2500 - 2000
    qp->OnSent(qp->NextPayload(), 594, 0);
    EXPECT_FALSE(qp->HasDataToSend());
    EXPECT_FALSE(qp->OnAck(Ack(2000), 10));
    EXPECT_FALSE(qp->IsFinished());
    EXPECT_TRUE(qp->OnAck(Ack(2500), 20));
    EXPECT_TRUE(qp->IsFinished());
    EXPECT_EQ(qp->GetFinishNs(), 20u);
    // A late duplicate changes nothing.
    EXPECT_FALSE(qp->OnAck(Ack(2500), 30));
    EXPECT_EQ(qp->GetFinishNs(), 20u);
}

TEST(RdmaQp, NackGoesBackN)
{
    auto qp = MakeQp(10000, 100000000000ull, LIBCC_WINDOW_UNLIMITED);
    for (int i = 0; i < 5; i++)
    {
        qp->OnSent(1000, 1094, 0);
    }
    // The receiver has 0..1999 and misses 2000: everything from 2000 again.
    EXPECT_FALSE(qp->OnNack(Ack(2000), 50));
    EXPECT_EQ(qp->GetSndUna(), 2000u);
    EXPECT_EQ(qp->GetSndNxt(), 2000u);
    EXPECT_TRUE(qp->IsRetransmission());
    qp->OnSent(1000, 1094, 60);
    qp->OnSent(1000, 1094, 60);
    EXPECT_EQ(qp->GetRetransmittedBytes(), 2000u);
    // An ACK of the old, not retransmitted, packets jumps snd_nxt forward.
    EXPECT_FALSE(qp->OnAck(Ack(5000), 70));
    EXPECT_EQ(qp->GetSndNxt(), 5000u);
    EXPECT_FALSE(qp->IsRetransmission());
}

TEST(RdmaQp, RetransmissionTimeout)
{
    auto qp = MakeQp(3000, 100000000000ull, LIBCC_WINDOW_UNLIMITED);
    const uint64_t rto = 100000;                      // 100 us
    EXPECT_EQ(qp->NextTimeoutCheck(rto), UINT64_MAX); // nothing outstanding
    qp->OnSent(1000, 1094, 1000 * 1000);              // at 1 us (ps argument)
    qp->OnSent(1000, 1094, 1000 * 1000);
    qp->OnSent(1000, 1094, 1000 * 1000);
    // The clock started when the first packet left: 1 us + 100 us.
    EXPECT_EQ(qp->NextTimeoutCheck(rto), 101000u);
    EXPECT_FALSE(qp->CheckTimeout(100999, rto));
    // Progress at 50 us restarts it: 150 us.
    EXPECT_FALSE(qp->OnAck(Ack(1000), 50000));
    EXPECT_EQ(qp->NextTimeoutCheck(rto), 150000u);
    EXPECT_FALSE(qp->CheckTimeout(149999, rto));
    // The tail is lost: at 150 us go back to 1000.
    EXPECT_TRUE(qp->CheckTimeout(150000, rto));
    EXPECT_EQ(qp->GetSndNxt(), 1000u);
    EXPECT_EQ(qp->GetTimeouts(), 1u);
    EXPECT_EQ(qp->NextTimeoutCheck(rto), UINT64_MAX); // nothing in flight after going back
}

TEST(RdmaQp, ReceiverClassifiesAndSuppressesNacks)
{
    RdmaRxQueuePair rx;
    EXPECT_EQ(rx.OnData(0, 1000), RdmaRxQueuePair::IN_ORDER);
    EXPECT_EQ(rx.expected, 1000u);
    EXPECT_EQ(rx.OnData(2000, 1000), RdmaRxQueuePair::GAP); // 1000 missing
    EXPECT_EQ(rx.expected, 1000u);
    EXPECT_TRUE(rx.NackDue(10, 500));
    rx.nackSeq = rx.expected;
    rx.nackNs = 10;
    EXPECT_EQ(rx.OnData(3000, 1000), RdmaRxQueuePair::GAP);
    EXPECT_FALSE(rx.NackDue(509, 500)); // same gap, within the interval
    EXPECT_TRUE(rx.NackDue(510, 500));  // the NACK or its answer was lost
    EXPECT_EQ(rx.OnData(0, 1000), RdmaRxQueuePair::DUPLICATE);
    EXPECT_EQ(rx.duplicateBytes, 1000u);
    EXPECT_EQ(rx.OnData(1000, 1000), RdmaRxQueuePair::IN_ORDER);
    EXPECT_EQ(rx.expected, 2000u);
    EXPECT_TRUE(rx.NackDue(511, 500)); // a new gap position
    EXPECT_EQ(rx.outOfOrderPkts, 2u);
}
