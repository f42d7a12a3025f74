// SPDX-License-Identifier: GPL-2.0-only
#include "rdma-receiver.h"

#include "rdma-nic-context.h"

#include <ns3/log.h>

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaReceiver");

namespace
{

/**
 * The hops an ACK of INT format `format` echoes, as its header would carry
 * them. Hops that arrived in the same format (HPCC's echo of the data
 * packet's INT) already hold what those bytes hold and are copied; others
 * go through the encoding hop by hop. False if a hop does not encode (the
 * bytes could not be built).
 */
bool
CopyEchoedHops(const libcc_int_list& from, uint8_t fromFormat, uint8_t format, libcc_int_list& to)
{
    uint8_t n = from.n_hops <= LIBCC_INT_MAX_HOPS ? from.n_hops : LIBCC_INT_MAX_HOPS;
    for (uint8_t h = 0; h < n; h++)
    {
        to.hop[h] = from.hop[h];
        if (fromFormat != format && !RoceIntHeader::QuantizeHop(format, to.hop[h]))
        {
            return false;
        }
    }
    to.n_hops = n;
    return true;
}

} // namespace

RdmaReceiver::RdmaReceiver(RdmaNicContext& ctx)
    : m_ctx(ctx)
    , m_npCapacity(0)
{
}

RdmaReceiver::~RdmaReceiver() = default;

void
RdmaReceiver::Dispose()
{
    m_np.reset();
}

uint32_t
RdmaReceiver::AddQueuePair(const RdmaFlowParams& flow)
{
    RdmaRxQueuePair rx;
    rx.flow = flow;
    rx.localQpn = static_cast<uint32_t>(m_rx.size());
    m_rx.push_back(rx);
    return rx.localQpn;
}

void
RdmaReceiver::Shorten(uint32_t qpn, uint64_t sizeBytes)
{
    RdmaRxQueuePair& rx = m_rx[qpn];
    rx.flow.sizeBytes = sizeBytes;
    if (rx.expected >= sizeBytes && !rx.done)
    {
        // Everything it sent has arrived already: the NP forgets it now.
        rx.done = true;
        if (m_np)
        {
            m_np->FlowEnd(rx.localQpn);
        }
    }
}

void
RdmaReceiver::EnsureNp()
{
    // libcc's NP table is sized at creation. Flows opened after it was made
    // (rare: flows are normally installed before the run) make it grow; the
    // NP's per-flow state starts afresh then.
    if (m_np && m_rx.size() <= m_npCapacity)
    {
        return;
    }
    m_ctx.EnsureCc();
    libcc_np_info ni{};
    ni.max_flows = std::max<uint32_t>(m_rx.size(), m_npCapacity * 2);
    ni.max_flows = std::max<uint32_t>(ni.max_flows, 1);
    m_npCapacity = ni.max_flows;
    ni.line_rate_bps = m_ctx.dev->GetDataRate().GetBitRate();
    uint64_t rtt = 0;
    for (const auto& rx : m_rx)
    {
        rtt = std::max(rtt, rx.flow.baseRttNs);
    }
    ni.base_rtt_ns = rtt;
    m_np = std::make_unique<LibccNp>(m_ctx.cc->GetParams(), ni,
                                     MakeCallback(&RdmaReceiver::SendCnp, this),
                                     MakeCallback(&RdmaNicContext::Kick, &m_ctx));
}

void
RdmaReceiver::OnData(const RocePacketInfo& info)
{
    RdmaNicCounters& counters = m_ctx.counters;
    if (info.destQp >= m_rx.size())
    {
        counters.badPackets++;
        return;
    }
    counters.dataRcvd++;
    RdmaRxQueuePair& rx = m_rx[info.destQp];
    bool ce = info.ecn == ROCE_ECN_CE;
    bool probe = info.type == RocePktType::PROBE;
    RdmaRxQueuePair::Verdict v =
        probe ? RdmaRxQueuePair::DUPLICATE : rx.OnData(info.seq, info.payloadBytes);
    if (v == RdmaRxQueuePair::DUPLICATE && !probe)
    {
        // Already delivered (a go-back-N resend): re-acknowledge so the
        // sender moves past it, without counting it as new data in libcc.
        SendAck(rx, false, nullptr, ce, info.psn, info.intFormat);
        return;
    }
    if (v == RdmaRxQueuePair::IN_ORDER)
    {
        (*m_ctx.rxDeliver)(rx.flow.flowId, info.seq, info.payloadBytes);
    }
    EnsureNp();
    libcc_data_pkt pkt{};
    pkt.flow_id = rx.localQpn;
    pkt.seq = info.seq;
    pkt.bytes = info.payloadBytes;
    pkt.ecn_ce = ce;
    pkt.is_probe = probe;
    pkt.last_of_flow = info.last;
    pkt.int_list = info.hasInt ? &info.ints : nullptr;
    // Signals the data carries or this NIC adds (libcc_algorithm_info.signals).
    uint32_t signals = m_ctx.signals;
    if (info.hasTxTs)
    {
        pkt.has |= LIBCC_PKT_HAS_TX_TS;
        pkt.tx_ts_ns = info.txTsNs;
    }
    if (signals & LIBCC_SIGNAL_ACK_NIC_TS)
    {
        pkt.has |= LIBCC_PKT_HAS_RX_TS;
        pkt.rx_ts_ns = LibccNow();
    }
    if (info.hasPint)
    {
        pkt.has |= LIBCC_PKT_HAS_PINT;
        pkt.pint = info.pint;
    }
    if (signals & LIBCC_SIGNAL_ACK_HOPS)
    {
        pkt.n_hops =
            info.ttl < ROCE_INITIAL_TTL ? static_cast<uint8_t>(ROCE_INITIAL_TTL - info.ttl) : 0;
    }
    libcc_np_verdict verdict;
    if (!m_np->OnData(pkt, &verdict))
    {
        // Keep the flow alive without libcc's advice: acknowledge this packet.
        counters.ccErrors++;
        verdict = libcc_np_verdict{};
        verdict.send_ack = 1;
    }
    if (v == RdmaRxQueuePair::GAP)
    {
        uint64_t now = LibccNow();
        if (rx.NackDue(now, m_ctx.nackInterval.GetNanoSeconds()))
        {
            NS_LOG_LOGIC("flow " << rx.flow.flowId << " gap: NACK for " << rx.expected
                                 << ", got " << info.seq);
            rx.nackSeq = rx.expected;
            rx.nackNs = now;
            SendAck(rx, true, &verdict, ce, info.psn, info.intFormat);
        }
        return;
    }
    // libcc decides when to acknowledge (every m packets, the last packet
    // of the message, a probe): the NIC does not decide it again.
    if (verdict.send_ack)
    {
        SendAck(rx, false, &verdict, ce, probe ? RdmaNicContext::PROBE_PSN : info.psn,
                info.intFormat);
    }
    if (!probe && rx.expected >= rx.flow.sizeBytes && !rx.done)
    {
        rx.done = true;
        m_np->FlowEnd(rx.localQpn);
    }
}

// The fields ACK, NACK and CNP share: back to the flow's sender on its
// 5-tuple (ECMP takes the data path in reverse), control priority, not ECT.
void
RdmaReceiver::FillControlFields(RocePacketInfo& info, RocePktType type,
                                const RdmaRxQueuePair& rx) const
{
    info.type = type;
    info.src = m_ctx.ipBits;
    info.dst = RoceAddr(rx.flow.srcIp);
    info.sport = rx.flow.sport;
    info.prio = m_ctx.ackPrio;
    info.ecn = ROCE_ECN_NOT_ECT;
    info.destQp = rx.peerQpn;
}

void
RdmaReceiver::SendAck(RdmaRxQueuePair& rx, bool nack, const libcc_np_verdict* verdict, bool ce,
                      uint32_t psn, uint8_t echoFormat)
{
    QbbFramePtr fr = QbbFrameNew();
    RocePacketInfo& a = fr->roce;
    FillControlFields(a, nack ? RocePktType::NACK : RocePktType::ACK, rx);
    a.psn = psn;
    a.ackSeq = rx.expected;
    // An ACK's wire format always has an INT header, empty unless libcc
    // echoes hops or (FNCC) switches stamp it on the way back.
    a.hasInt = true;
    a.intFormat = m_ctx.ackIntFormat;
    a.ecnEcho = ce;
    // The wrap widths a parser of this INT header reports, whatever the
    // echoed list says: the ACK carries only the hops.
    RoceIntHeader::InitWireList(a.intFormat, a.ints);
    if (verdict)
    {
        a.nFlows = static_cast<uint16_t>(std::min<uint32_t>(verdict->ack.n_flows, 65535));
        a.rxWindow =
            static_cast<uint32_t>(std::min<uint64_t>(verdict->ack.rx_window_bytes, UINT32_MAX));
        a.ecnEcho = ce || verdict->ack.ecn_echo;
        const libcc_ack& va = verdict->ack;
        if (va.has & LIBCC_ACK_HAS_TX_TS)
        {
            a.hasTxTs = true;
            a.txTsNs = va.tx_ts_ns;
        }
        if (va.has & LIBCC_ACK_HAS_REMOTE_TS)
        {
            a.hasNicTs = true; // remoteTxNs is stamped as the ACK leaves (RdmaNic::DequeueFrame)
            a.remoteRxNs = va.remote_rx_ts_ns;
            a.remoteTxNs = va.remote_tx_ts_ns;
        }
        if (va.has & LIBCC_ACK_HAS_PINT)
        {
            a.hasPint = true;
            a.pint = va.pint;
        }
        if (m_ctx.signals & LIBCC_SIGNAL_ACK_HOPS)
        {
            a.hasHops = true;
            a.hops = va.n_hops;
        }
        const libcc_int_list* echo = verdict->ack.int_list;
        if (echo && !CopyEchoedHops(*echo, echoFormat, a.intFormat, a.ints))
        {
            // An INT hop that does not encode: send the ACK without hops.
            a.ints.n_hops = 0;
            m_ctx.counters.ccErrors++;
        }
    }
    fr->ipBytes = RocePacketBytes(a);
    if (nack)
    {
        m_ctx.counters.nacksSent++;
    }
    else
    {
        m_ctx.counters.acksSent++;
    }
    m_ctx.EnqueueControl(std::move(fr));
}

void
RdmaReceiver::SendCnp(uint64_t rxQpn)
{
    // Inside libcc's send_cnp callback: queue only (libcc-agent.h).
    if (rxQpn >= m_rx.size())
    {
        return;
    }
    QbbFramePtr fr = QbbFrameNew();
    FillControlFields(fr->roce, RocePktType::CNP, m_rx[rxQpn]);
    fr->ipBytes = RocePacketBytes(fr->roce);
    m_ctx.counters.cnpsSent++;
    NS_LOG_LOGIC("CNP for receive QP " << rxQpn);
    m_ctx.EnqueueControl(std::move(fr));
}

} // namespace ns3
