// SPDX-License-Identifier: GPL-2.0-only

#include "rdma-queue-pair.h"

#include <ns3/uinteger.h>

#include <algorithm>
#include <ns3/log.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaTxQueuePair");

NS_OBJECT_ENSURE_REGISTERED(RdmaTxQueuePair);

TypeId
RdmaTxQueuePair::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaTxQueuePair")
                            .SetParent<Object>()
                            .SetGroupName("Libcc")
                            .AddConstructor<RdmaTxQueuePair>()
                            .AddTraceSource("Rate", "Pacing rate libcc set for this flow, bits/s",
                                            MakeTraceSourceAccessor(&RdmaTxQueuePair::m_rate),
                                            "ns3::TracedValueCallback::Uint64")
                            .AddTraceSource("Window",
                                            "Window libcc set for this flow, bytes in flight "
                                            "(UINT64_MAX: unlimited)",
                                            MakeTraceSourceAccessor(&RdmaTxQueuePair::m_window),
                                            "ns3::TracedValueCallback::Uint64")
                            .AddTraceSource("CcStart",
                                            "The flow's libcc Reaction Point was created (flow "
                                            "id, the RP), before its first event",
                                            MakeTraceSourceAccessor(&RdmaTxQueuePair::m_ccStart),
                                            "ns3::RdmaTxQueuePair::CcStartCallback");
    return tid;
}

RdmaTxQueuePair::RdmaTxQueuePair()
    : m_localQpn(0)
    , m_peerQpn(0)
    , m_payload(1000)
    , m_sndNxt(0)
    , m_sndUna(0)
    , m_maxSent(0)
    , m_nextAvailPs(0)
    , m_gapStartPs(0)
    , m_gapWireBytes(0)
    , m_lastProgressNs(0)
    , m_retxBytes(0)
    , m_timeouts(0)
    , m_finishNs(0)
    , m_finished(false)
    , m_probePending(false)
    , m_rate(0)
    , m_window(LIBCC_WINDOW_UNLIMITED)
{
}

RdmaTxQueuePair::~RdmaTxQueuePair() = default;

void
RdmaTxQueuePair::Setup(const RdmaFlowParams& flow, uint32_t localQpn, uint32_t peerQpn,
                       uint32_t payload)
{
    NS_LOG_FUNCTION(this << flow.flowId << localQpn << peerQpn << payload);
    m_flow = flow;
    m_localQpn = localQpn;
    m_peerQpn = peerQpn;
    m_payload = payload;
}

void
RdmaTxQueuePair::StartCc(const libcc_params* params, uint64_t lineRateBps, uint32_t mtuWireBytes)
{
    NS_LOG_FUNCTION(this << lineRateBps << mtuWireBytes);
    libcc_flow_info fi{};
    fi.flow_id = m_flow.flowId;
    fi.line_rate_bps = lineRateBps;
    fi.base_rtt_ns = m_flow.ccBaseRttNs ? m_flow.ccBaseRttNs : m_flow.baseRttNs;
    fi.mtu_bytes = mtuWireBytes;
    m_cc =
        std::make_unique<LibccRp>(params, fi, MakeCallback(&RdmaTxQueuePair::OnRateChanged, this),
                                  MakeCallback(&RdmaTxQueuePair::OnWindowChanged, this),
                                  MakeCallback(&RdmaTxQueuePair::ProbeRequested, this), m_kick);
    // The initial values are set without callbacks.
    m_rate = m_cc->GetRate();
    m_window = m_cc->GetWindow();
    m_lastProgressNs = LibccNow();
    m_ccStart(m_flow.flowId, m_cc->Raw());
}

namespace
{
/// Picoseconds `wireBytes` occupy at `rateBps` (0 taken as 1 bit/s). wireBytes
/// x 8e12 stays below 2^64 for any frame (9 KB: 7.3e16), so the division is
/// 64-bit (a 128-bit one showed up at 1% in the profile).
inline uint64_t
GapPs(uint32_t wireBytes, uint64_t rateBps)
{
    return uint64_t(wireBytes) * 8000000000000ull / (rateBps > 0 ? rateBps : 1);
}
} // namespace

void
RdmaTxQueuePair::OnRateChanged(uint64_t bps)
{
    m_rate = bps;
    if (m_gapWireBytes > 0)
    {
        m_nextAvailPs = m_gapStartPs + GapPs(m_gapWireBytes, bps);
    }
}

void
RdmaTxQueuePair::OnWindowChanged(uint64_t bytes)
{
    m_window = bytes;
}

void
RdmaTxQueuePair::ProbeRequested()
{
    // Recorded only: the NIC sends it when the libcc call that asked returned.
    m_probePending = true;
}

unsigned
RdmaTxQueuePair::CcOnTx(uint32_t payload)
{
    return m_cc ? m_cc->OnTx(m_sndNxt, payload) : 0;
}

uint64_t
RdmaTxQueuePair::Leave()
{
    NS_LOG_FUNCTION(this);
    // Bytes sent before a go-back-N rewind count: the receiver may hold
    // some of them already and must get them all.
    m_flow.sizeBytes = std::max(m_maxSent, m_sndNxt);
    return m_flow.sizeBytes;
}

void
RdmaTxQueuePair::CompleteNow(uint64_t nowNs)
{
    m_finished = true;
    m_finishNs = nowNs;
}

void
RdmaTxQueuePair::StopCc()
{
    NS_LOG_FUNCTION(this);
    m_cc.reset();
}

void
RdmaTxQueuePair::OnSent(uint32_t payload, uint32_t wireBytes, uint64_t nowPs)
{
    if (m_sndNxt == m_sndUna)
    {
        // Nothing was outstanding: the retransmission clock starts now.
        m_lastProgressNs = nowPs / 1000;
    }
    if (m_sndNxt < m_maxSent)
    {
        m_retxBytes += std::min<uint64_t>(payload, m_maxSent - m_sndNxt);
    }
    m_sndNxt += payload;
    m_maxSent = std::max(m_maxSent, m_sndNxt);
    // Pace in picoseconds: at 100 Gbps a 1 KB packet takes 85.76 ns, and
    // rounding every gap to whole ns would cost up to 1% of throughput.
    m_gapStartPs = std::max(m_nextAvailPs, nowPs);
    m_gapWireBytes = wireBytes;
    m_nextAvailPs = m_gapStartPs + GapPs(wireBytes, m_rate);
}

bool
RdmaTxQueuePair::Advance(uint64_t seq, uint64_t nowNs)
{
    if (seq > m_flow.sizeBytes)
    {
        seq = m_flow.sizeBytes;
    }
    if (seq > m_sndUna)
    {
        m_sndUna = seq;
        m_lastProgressNs = nowNs;
        // ACKs of packets sent before a go-back may overtake snd_nxt.
        m_sndNxt = std::max(m_sndNxt, m_sndUna);
    }
    if (m_sndUna == m_flow.sizeBytes && !m_finished)
    {
        m_finished = true;
        m_finishNs = nowNs;
        return true;
    }
    return false;
}

bool
RdmaTxQueuePair::OnAck(const libcc_ack& ack, uint64_t nowNs)
{
    if (m_finished)
    {
        return false;
    }
    if (m_cc)
    {
        m_cc->OnAck(ack);
    }
    return Advance(ack.seq, nowNs);
}

bool
RdmaTxQueuePair::OnNack(const libcc_ack& nack, uint64_t nowNs)
{
    if (m_finished)
    {
        return false;
    }
    if (m_cc)
    {
        m_cc->OnNack(nack);
    }
    if (Advance(nack.seq, nowNs))
    {
        return true;
    }
    // Go back N: everything from the first missing byte is sent again.
    if (nack.seq >= m_sndUna && nack.seq < m_sndNxt)
    {
        m_sndNxt = nack.seq;
        m_lastProgressNs = nowNs;
    }
    return false;
}

void
RdmaTxQueuePair::OnCnp()
{
    if (m_cc && !m_finished)
    {
        m_cc->OnCnp();
    }
}

void
RdmaTxQueuePair::OnFeedback(const libcc_feedback& fb)
{
    if (m_cc && !m_finished)
    {
        m_cc->OnFeedback(fb);
    }
}

bool
RdmaTxQueuePair::CheckTimeout(uint64_t nowNs, uint64_t rtoNs)
{
    if (m_finished || m_sndNxt == m_sndUna || nowNs < m_lastProgressNs + rtoNs)
    {
        return false;
    }
    m_sndNxt = m_sndUna;
    m_timeouts++;
    m_lastProgressNs = nowNs;
    return true;
}

uint64_t
RdmaTxQueuePair::NextTimeoutCheck(uint64_t rtoNs) const
{
    if (m_finished || m_sndNxt == m_sndUna)
    {
        return UINT64_MAX;
    }
    return m_lastProgressNs + rtoNs;
}

} // namespace ns3
