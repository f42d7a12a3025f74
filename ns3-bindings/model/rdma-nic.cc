// SPDX-License-Identifier: GPL-2.0-only

#include "rdma-nic.h"

#include <ns3/boolean.h>
#include <ns3/simulator.h>
#include <ns3/string.h>
#include <ns3/uinteger.h>

#include <algorithm>
#include <stdexcept>

namespace ns3
{

namespace
{

// Copies the used part of a hop list (a whole list is 330 bytes, mostly empty).
inline void
CopyInts(const libcc_int_list& from, libcc_int_list& to)
{
    uint8_t n = from.n_hops <= LIBCC_INT_MAX_HOPS ? from.n_hops : LIBCC_INT_MAX_HOPS;
    to.n_hops = n;
    to.ts_bits = from.ts_bits;
    to.tx_bits = from.tx_bits;
    std::copy(from.hop, from.hop + n, to.hop);
}

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

NS_OBJECT_ENSURE_REGISTERED(RdmaNic);

TypeId
RdmaNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaNic")
            .SetParent<Object>()
            .SetGroupName("Libcc")
            .AddConstructor<RdmaNic>()
            .AddAttribute("PayloadSize",
                          "Payload bytes of a full data packet (the MTU's payload), bytes",
                          UintegerValue(1000), MakeUintegerAccessor(&RdmaNic::m_payload),
                          MakeUintegerChecker<uint32_t>(1, 9000))
            .AddAttribute("AckPriority", "Priority (0..7) of ACK, NACK and CNP packets",
                          UintegerValue(0), MakeUintegerAccessor(&RdmaNic::m_ackPrio),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddAttribute("RetransmitTimeout",
                          "Go back to the first unacknowledged byte when nothing was "
                          "acknowledged for this long while data is outstanding, time",
                          TimeValue(MilliSeconds(1)), MakeTimeAccessor(&RdmaNic::m_rto),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("NackInterval",
                          "Minimum time between two NACKs for the same missing byte, time",
                          TimeValue(MicroSeconds(100)), MakeTimeAccessor(&RdmaNic::m_nackInterval),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("FlowComplete",
                            "A flow sent by this NIC was fully acknowledged: size, start, "
                            "FCT and ideal FCT",
                            MakeTraceSourceAccessor(&RdmaNic::m_flowComplete),
                            "ns3::RdmaNic::FlowCompleteCallback")
            .AddTraceSource("RxDeliver",
                            "In-order data delivered to the receiving application: flow id, "
                            "first byte, bytes",
                            MakeTraceSourceAccessor(&RdmaNic::m_rxDeliver),
                            "ns3::RdmaNic::RxDeliverCallback")
            .AddTraceSource("TxData",
                            "A data packet left: flow id, first byte, payload bytes, "
                            "retransmission",
                            MakeTraceSourceAccessor(&RdmaNic::m_txData),
                            "ns3::RdmaNic::TxDataCallback");
    return tid;
}

RdmaNic::RdmaNic()
    : m_npCapacity(0)
    , m_rr(0)
    , m_ctrlBytes(0)
    , m_wakeAtPs(UINT64_MAX)
    , m_payload(1000)
    , m_ackPrio(0)
    , m_ackIntFormat(RoceIntHeader::FORMAT_HPCC)
{
}

class RdmaNic::WakeEvent : public EventImpl
{
  public:
    explicit WakeEvent(RdmaNic* nic)
        : m_nic(nic)
    {
    }

    uint64_t m_seq = 0;

  protected:
    void Notify() override
    {
        m_nic->Wake(m_seq);
    }

  private:
    RdmaNic* m_nic; //!< raw: DoDispose cancels pending wake-ups
};

RdmaNic::~RdmaNic() = default;

void
RdmaNic::DoDispose()
{
    m_wakePool.Clear(); // a pending one must not call into a disposed NIC
    m_wakeAtPs = UINT64_MAX;
    for (auto& qp : m_tx)
    {
        qp->m_rtoEvent.Cancel();
        qp->m_rtoArmed = false;
        qp->m_startEvent.Cancel();
        // An EventId keeps its event (and what the event holds) alive.
        qp->m_rtoEvent = EventId();
        qp->m_startEvent = EventId();
        qp->m_kick = Callback<void>();
        qp->StopCc();
    }
    m_tx.clear();
    m_active.clear();
    m_np.reset();
    m_ctrl.clear();
    if (m_dev)
    {
        m_dev->SetEgressSource(nullptr);
        m_dev->SetFrameReceiver(nullptr);
    }
    m_dev = nullptr;
    m_node = nullptr;
    m_cc = nullptr;
    Object::DoDispose();
}

void
RdmaNic::Setup(Ptr<Node> node, Ptr<QbbNetDevice> dev, Ipv4Address ip)
{
    m_node = node;
    m_dev = dev;
    m_ip = ip;
    m_ipBits = RoceAddr(ip);
    dev->SetEgressSource(this);
    dev->SetFrameReceiver(this);
}

void
RdmaNic::SetCcConfig(Ptr<LibccConfig> cfg)
{
    m_cc = cfg;
    // FNCC switches stamp the ACKs with their own hop format.
    m_ackIntFormat = (cfg && cfg->GetAlgorithm() == "fncc") ? RoceIntHeader::FORMAT_FNCC
                                                            : RoceIntHeader::FORMAT_HPCC;
}

uint32_t
RdmaNic::DataWireBytes() const
{
    return QbbNetDevice::WireBytes(RoceDataHeaderBytes(false, 0) + m_payload);
}

uint32_t
RdmaNic::DataOverheadBytes() const
{
    return DataWireBytes() - m_payload;
}

uint32_t
RdmaNic::AckWireBytes()
{
    RocePacketInfo a;
    a.type = RocePktType::ACK;
    return QbbNetDevice::WireBytes(RocePacketBytes(a));
}

Ptr<RdmaTxQueuePair>
RdmaNic::Connect(Ptr<RdmaNic> src, Ptr<RdmaNic> dst, const RdmaFlowParams& flowIn)
{
    if (flowIn.sizeBytes == 0)
    {
        throw std::invalid_argument("RdmaNic::Connect: a flow needs at least one byte");
    }
    RdmaFlowParams flow = flowIn;
    flow.srcIp = src->m_ip.Get();
    flow.dstIp = dst->m_ip.Get();
    uint32_t rxQpn = dst->AddRx(flow);
    uint32_t txQpn = src->m_tx.size();
    dst->m_rx[rxQpn].peerQpn = txQpn;
    Ptr<RdmaTxQueuePair> qp = CreateObject<RdmaTxQueuePair>();
    qp->Setup(flow, txQpn, rxQpn, src->m_payload);
    qp->m_kick = MakeCallback(&RdmaNic::Kick, PeekPointer(src));
    src->m_tx.push_back(qp);
    uint64_t now = LibccNow();
    Time delay = NanoSeconds(flow.startNs > now ? flow.startNs - now : 0);
    // Raw pointers: an event holding Ptrs, kept alive by the EventId stored in
    // the queue pair, would make a reference cycle. The NIC owns the queue pair
    // and cancels the event on dispose.
    qp->m_startEvent =
        Simulator::Schedule(delay, &RdmaNic::StartFlow, PeekPointer(src), PeekPointer(qp));
    return qp;
}

uint32_t
RdmaNic::AddRx(const RdmaFlowParams& flow)
{
    RdmaRxQueuePair rx;
    rx.flow = flow;
    rx.localQpn = m_rx.size();
    m_rx.push_back(rx);
    return rx.localQpn;
}

void
RdmaNic::StartFlow(RdmaTxQueuePair* qp)
{
    if (!m_cc)
    {
        SetCcConfig(LibccConfig::Create("none"));
    }
    qp->StartCc(m_cc->GetParams(), m_dev->GetDataRate().GetBitRate(), DataWireBytes());
    m_active.push_back(qp);
    m_dev->TriggerTransmit();
}

void
RdmaNic::Kick()
{
    // Called after a libcc timer call returned (libcc-agent.h's re-entry
    // policy), never from inside one: the device may dequeue at once.
    if (m_dev)
    {
        m_dev->TriggerTransmit();
    }
}

void
RdmaNic::FinishFlow(RdmaTxQueuePair* qp)
{
    qp->m_rtoEvent.Cancel();
    qp->m_rtoArmed = false;
    auto it = std::find(m_active.begin(), m_active.end(), qp);
    if (it != m_active.end())
    {
        size_t idx = it - m_active.begin();
        m_active.erase(it);
        if (m_rr > idx)
        {
            m_rr--;
        }
    }
    RdmaFlowRecord rec;
    rec.flow = qp->GetFlow();
    rec.fctNs = qp->GetFinishNs() - rec.flow.startNs;
    uint64_t packets = (rec.flow.sizeBytes + m_payload - 1) / m_payload;
    uint64_t wireBytes = rec.flow.sizeBytes + packets * DataOverheadBytes();
    rec.idealFctNs =
        rec.flow.baseRttNs +
        (rec.flow.bottleneckBps ? static_cast<uint64_t>(static_cast<unsigned __int128>(wireBytes) *
                                                        8 * 1000000000ull / rec.flow.bottleneckBps)
                                : 0);
    rec.retransmittedBytes = qp->GetRetransmittedBytes();
    rec.timeouts = qp->GetTimeouts();
    if (qp->GetCc())
    {
        m_counters.ccErrors += qp->GetCc()->GetErrors();
    }
    qp->StopCc();
    m_flowComplete(rec);
}

uint64_t
RdmaNic::GetQueueBytes(uint8_t prio) const
{
    return prio == m_ackPrio ? m_ctrlBytes : 0;
}

bool
RdmaNic::HasPending() const
{
    return !m_ctrl.empty() || !m_active.empty();
}

// Queues only: SendCnp runs inside libcc's send_cnp callback, so the
// device is triggered by whoever made the libcc call, once it returned.
void
RdmaNic::EnqueueControl(QbbFramePtr f)
{
    m_ctrlBytes += f->ipBytes;
    m_ctrl.push_back(std::move(f));
}

// The fields a flow's data and probe packets share: same 5-tuple (so ECMP
// sends probes along the data path), same priority, ECN-capable.
void
RdmaNic::FillFlowFields(RocePacketInfo& info, RocePktType type, const RdmaFlowParams& f,
                        const RdmaTxQueuePair& qp) const
{
    info.type = type;
    info.src = m_ipBits;
    info.dst = RoceAddr(f.dstIp);
    info.sport = f.sport;
    info.prio = f.prio;
    info.ecn = ROCE_ECN_ECT0;
    info.destQp = qp.GetPeerQpn();
}

// The fields ACK, NACK and CNP share: back to the flow's sender on its
// 5-tuple (ECMP takes the data path in reverse), control priority, not ECT.
void
RdmaNic::FillControlFields(RocePacketInfo& info, RocePktType type, const RdmaRxQueuePair& rx) const
{
    info.type = type;
    info.src = m_ipBits;
    info.dst = RoceAddr(rx.flow.srcIp);
    info.sport = rx.flow.sport;
    info.prio = m_ackPrio;
    info.ecn = ROCE_ECN_NOT_ECT;
    info.destQp = rx.peerQpn;
}

QbbFramePtr
RdmaNic::DequeueFrame(const std::array<bool, QBB_N_PRIO>& paused, uint8_t& prioOut)
{
    if (!m_ctrl.empty() && !paused[m_ackPrio])
    {
        QbbFramePtr f = std::move(m_ctrl.front());
        m_ctrl.pop_front();
        m_ctrlBytes -= f->ipBytes;
        prioOut = m_ackPrio;
        return f;
    }
    uint64_t nowPs = NowPs();
    uint64_t earliest = UINT64_MAX;
    size_t n = m_active.size();
    for (size_t i = 0; i < n; i++)
    {
        size_t idx = (m_rr + i) % n;
        RdmaTxQueuePair* qp = m_active[idx];
        const RdmaFlowParams& f = qp->GetFlow();
        if (paused[f.prio])
        {
            continue;
        }
        if (qp->ProbePending())
        {
            // HPCC++ probe: no payload, collects INT along the data path.
            qp->ClearProbe();
            QbbFramePtr fr = QbbFrameNew();
            RocePacketInfo& pr = fr->roce;
            FillFlowFields(pr, RocePktType::PROBE, f, *qp);
            pr.psn = PROBE_PSN;
            pr.seq = qp->GetSndNxt();
            pr.payloadBytes = 0;
            pr.hasInt = true;
            pr.intFormat = RoceIntHeader::FORMAT_HPCC;
            RoceIntHeader::InitWireList(pr.intFormat, pr.ints);
            fr->ipBytes = RocePacketBytes(pr);
            m_rr = (idx + 1) % n;
            prioOut = f.prio;
            m_counters.probesSent++;
            return fr;
        }
        if (!qp->HasDataToSend() || !qp->WindowOpen())
        {
            continue;
        }
        if (qp->NextAvailPs() > nowPs)
        {
            earliest = std::min(earliest, qp->NextAvailPs());
            continue;
        }
        uint64_t seq = qp->GetSndNxt();
        uint32_t payload = qp->NextPayload();
        unsigned flags = qp->CcOnTx(payload);
        QbbFramePtr fr = QbbFrameNew();
        RocePacketInfo& info = fr->roce;
        FillFlowFields(info, RocePktType::DATA, f, *qp);
        info.psn = static_cast<uint32_t>((seq / m_payload) % PROBE_PSN);
        info.last = seq + payload == f.sizeBytes;
        info.seq = seq;
        info.payloadBytes = payload;
        info.hasInt = (flags & LIBCC_TX_REQUEST_INT) != 0;
        info.intFormat = RoceIntHeader::FORMAT_HPCC;
        if (info.hasInt)
        {
            RoceIntHeader::InitWireList(info.intFormat, info.ints);
        }
        fr->ipBytes = RocePacketBytes(info);
        bool retx = qp->IsRetransmission();
        qp->OnSent(payload, QbbNetDevice::WireBytes(fr->ipBytes), nowPs);
        m_txData(f.flowId, seq, payload, retx);
        ArmRto(qp);
        m_counters.dataSent++;
        m_rr = (idx + 1) % n;
        prioOut = f.prio;
        return fr;
    }
    if (earliest != UINT64_MAX)
    {
        WakeAt(earliest);
    }
    return nullptr;
}

void
RdmaNic::WakeAt(uint64_t ps)
{
    if (m_wakeAtPs <= ps)
    {
        return; // the pending wake-up comes first
    }
    m_wakeAtPs = ps;
    uint64_t nowPs = NowPs();
    uint64_t delayPs = ps > nowPs ? ps - nowPs : 0;
    Time delay = PicoSeconds(delayPs);
    if (static_cast<uint64_t>(delay.GetPicoSeconds()) < delayPs)
    {
        // Coarser resolution than ps: round up, never wake before the pacer allows.
        delay += TimeStep(1);
    }
    WakeEvent* ev = m_wakePool.Take([this] { return Create<WakeEvent>(this); });
    ev->m_seq = ++m_wakeSeq;
    ScheduleReused(SimContext(), delay, ev);
}

void
RdmaNic::Wake(uint64_t seq)
{
    if (seq != m_wakeSeq || m_wakeAtPs == UINT64_MAX)
    {
        return; // superseded by an earlier wake-up, or already served
    }
    m_wakeAtPs = UINT64_MAX;
    m_dev->TriggerTransmit();
}

void
RdmaNic::ArmRto(RdmaTxQueuePair* qp)
{
    if (qp->m_rtoArmed)
    {
        return;
    }
    uint64_t at = qp->NextTimeoutCheck(m_rto.GetNanoSeconds());
    if (at == UINT64_MAX)
    {
        return;
    }
    uint64_t now = LibccNow();
    qp->m_rtoEvent =
        Simulator::Schedule(NanoSeconds(at > now ? at - now : 0), &RdmaNic::RtoFired, this, qp);
    qp->m_rtoArmed = true;
}

void
RdmaNic::RtoFired(RdmaTxQueuePair* qp)
{
    // The check is lazy: ACK progress only moves a timestamp, and this event
    // re-arms itself for the new expiry instead of being re-scheduled per ACK.
    qp->m_rtoArmed = false;
    uint64_t now = LibccNow();
    if (qp->CheckTimeout(now, m_rto.GetNanoSeconds()))
    {
        m_counters.timeouts++;
        m_dev->TriggerTransmit();
    }
    ArmRto(qp);
}

void
RdmaNic::ReceiveFrame(QbbNetDevice*, QbbFramePtr frame)
{
    if (frame->packet)
    {
        ReceiveBytes(frame->packet);
        return;
    }
    Dispatch(frame->roce);
}

void
RdmaNic::ReceiveBytes(Ptr<const Packet> p)
{
    RocePacketInfo info;
    if (!RoceParse(p, info))
    {
        m_counters.badPackets++;
        return;
    }
    Dispatch(info);
}

void
RdmaNic::Dispatch(const RocePacketInfo& info)
{
    switch (info.type)
    {
    case RocePktType::DATA:
    case RocePktType::PROBE:
        OnData(info);
        break;
    case RocePktType::ACK:
    case RocePktType::NACK:
        OnAckPacket(info);
        break;
    case RocePktType::CNP:
        if (info.destQp < m_tx.size())
        {
            m_counters.cnpsRcvd++;
            m_tx[info.destQp]->OnCnp();
            m_dev->TriggerTransmit(); // the rate may have changed the pacing
        }
        else
        {
            m_counters.badPackets++;
        }
        break;
    default:
        m_counters.badPackets++;
        break;
    }
}

void
RdmaNic::EnsureNp()
{
    // libcc's NP table is sized at creation. Flows opened after it was made
    // (rare: flows are normally installed before the run) make it grow; the
    // NP's per-flow state starts afresh then.
    if (m_np && m_rx.size() <= m_npCapacity)
    {
        return;
    }
    if (!m_cc)
    {
        SetCcConfig(LibccConfig::Create("none"));
    }
    libcc_np_info ni{};
    ni.max_flows = std::max<uint32_t>(m_rx.size(), m_npCapacity * 2);
    ni.max_flows = std::max<uint32_t>(ni.max_flows, 1);
    m_npCapacity = ni.max_flows;
    ni.line_rate_bps = m_dev->GetDataRate().GetBitRate();
    uint64_t rtt = 0;
    for (const auto& rx : m_rx)
    {
        rtt = std::max(rtt, rx.flow.baseRttNs);
    }
    ni.base_rtt_ns = rtt;
    m_np = std::make_unique<LibccNp>(m_cc->GetParams(), ni, MakeCallback(&RdmaNic::SendCnp, this),
                                     MakeCallback(&RdmaNic::Kick, this));
}

void
RdmaNic::OnData(const RocePacketInfo& info)
{
    if (info.destQp >= m_rx.size())
    {
        m_counters.badPackets++;
        return;
    }
    m_counters.dataRcvd++;
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
        m_dev->TriggerTransmit();
        return;
    }
    if (v == RdmaRxQueuePair::IN_ORDER)
    {
        m_rxDeliver(rx.flow.flowId, info.seq, info.payloadBytes);
    }
    EnsureNp();
    libcc_data_pkt pkt{};
    pkt.flow_id = rx.localQpn;
    pkt.seq = info.seq;
    pkt.bytes = info.payloadBytes;
    pkt.ecn_ce = ce;
    pkt.is_probe = probe;
    pkt.last_of_flow = info.last;
    pkt.ints = info.hasInt ? &info.ints : nullptr;
    libcc_np_verdict verdict; // libcc fills it (400 bytes: not zeroed twice per packet)
    if (!m_np->OnData(pkt, &verdict))
    {
        // Keep the flow alive without libcc's advice: acknowledge this packet.
        m_counters.ccErrors++;
        verdict = libcc_np_verdict{};
        verdict.send_ack = 1;
    }
    uint64_t now = LibccNow();
    if (v == RdmaRxQueuePair::GAP)
    {
        if (rx.NackDue(now, m_nackInterval.GetNanoSeconds()))
        {
            rx.nackSeq = rx.expected;
            rx.nackNs = now;
            SendAck(rx, true, &verdict, ce, info.psn, info.intFormat);
        }
        m_dev->TriggerTransmit(); // a CNP libcc asked for may be queued
        return;
    }
    bool complete = rx.expected >= rx.flow.sizeBytes && !probe;
    if (verdict.send_ack || complete || probe)
    {
        SendAck(rx, false, &verdict, ce, probe ? PROBE_PSN : info.psn, info.intFormat);
    }
    if (complete && !rx.done)
    {
        rx.done = true;
        m_np->FlowEnd(rx.localQpn);
    }
    m_dev->TriggerTransmit();
}

void
RdmaNic::SendAck(RdmaRxQueuePair& rx, bool nack, const libcc_np_verdict* verdict, bool ce,
                 uint32_t psn, uint8_t echoFormat)
{
    QbbFramePtr fr = QbbFrameNew();
    RocePacketInfo& a = fr->roce;
    FillControlFields(a, nack ? RocePktType::NACK : RocePktType::ACK, rx);
    a.psn = psn;
    a.ackSeq = rx.expected;
    a.hasInt = true;
    a.intFormat = m_ackIntFormat;
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
        if (!CopyEchoedHops(verdict->ack.ints, echoFormat, a.intFormat, a.ints))
        {
            // An INT hop that does not encode: send the ACK without hops.
            a.ints.n_hops = 0;
            m_counters.ccErrors++;
        }
    }
    fr->ipBytes = RocePacketBytes(a);
    if (nack)
    {
        m_counters.nacksSent++;
    }
    else
    {
        m_counters.acksSent++;
    }
    EnqueueControl(std::move(fr));
}

void
RdmaNic::SendCnp(uint64_t rxQpn)
{
    if (rxQpn >= m_rx.size())
    {
        return;
    }
    const RdmaRxQueuePair& rx = m_rx[rxQpn];
    QbbFramePtr fr = QbbFrameNew();
    FillControlFields(fr->roce, RocePktType::CNP, rx);
    fr->ipBytes = RocePacketBytes(fr->roce);
    m_counters.cnpsSent++;
    EnqueueControl(std::move(fr));
}

void
RdmaNic::OnAckPacket(const RocePacketInfo& info)
{
    if (info.destQp >= m_tx.size())
    {
        m_counters.badPackets++;
        return;
    }
    RdmaTxQueuePair* qp = PeekPointer(m_tx[info.destQp]);
    libcc_ack& ack = m_rxAck;
    ack.seq = info.ackSeq;
    ack.rx_window_bytes = info.rxWindow;
    ack.n_flows = info.nFlows;
    ack.ecn_echo = info.ecnEcho;
    ack.is_probe = info.psn == PROBE_PSN;
    CopyInts(info.ints, ack.ints);
    uint64_t now = LibccNow();
    bool done;
    if (info.type == RocePktType::NACK)
    {
        m_counters.nacksRcvd++;
        done = qp->OnNack(ack, now);
    }
    else
    {
        m_counters.acksRcvd++;
        done = qp->OnAck(ack, now);
    }
    if (done)
    {
        FinishFlow(qp);
    }
    m_dev->TriggerTransmit();
}

} // namespace ns3
