// SPDX-License-Identifier: GPL-2.0-only
#include "rdma-sender.h"

#include "rdma-nic-context.h"

#include <ns3/log.h>
#include <ns3/simulator.h>

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaSender");

class RdmaSender::WakeEvent : public FastEvent
{
  public:
    explicit WakeEvent(RdmaSender* s)
        : m_sender(s)
    {
    }

    uint64_t m_seq = 0;

  protected:
    void Notify() override
    {
        m_sender->Wake(m_seq);
    }

  private:
    RdmaSender* m_sender; //!< raw: Dispose cancels pending wake-ups
};

RdmaSender::RdmaSender(RdmaNicContext& ctx)
    : m_ctx(ctx)
    , m_rr(0)
    , m_wakeAtPs(UINT64_MAX)
    , m_wakeSeq(0)
    , m_starts(this, &RdmaSender::StartDue)
    , m_rtos(this, &RdmaSender::RtoFired)
{
}

RdmaSender::~RdmaSender() = default;

void
RdmaSender::Dispose()
{
    m_wakePool.Clear(); // a pending one must not call into a disposed NIC
    m_wakeAtPs = UINT64_MAX;
    m_starts.Clear();
    m_rtos.Clear();
    for (auto& qp : m_tx)
    {
        DisarmRto(PeekPointer(qp));
        if (qp->m_stopEvent)
        {
            qp->m_stopEvent->Cancel();
            qp->m_stopEvent = nullptr;
        }
        qp->m_kick = Callback<void>();
        qp->m_leaveNotify = Callback<void, uint32_t, uint64_t>();
        qp->StopCc();
    }
    m_tx.clear();
    m_active.clear();
}

Ptr<RdmaTxQueuePair>
RdmaSender::AddQueuePair(const RdmaFlowParams& flow, uint32_t peerQpn)
{
    uint32_t qpn = static_cast<uint32_t>(m_tx.size());
    Ptr<RdmaTxQueuePair> qp = CreateObject<RdmaTxQueuePair>();
    qp->Setup(flow, qpn, peerQpn, m_ctx.payload);
    qp->m_kick = MakeCallback(&RdmaNicContext::Kick, &m_ctx);
    m_tx.push_back(qp);
    m_byPeer[(static_cast<uint64_t>(flow.dstIp) << 32) | peerQpn] = qpn;
    // A distributed run builds every flow on every rank (queue pair numbers
    // agree) and starts it only on the rank that simulates its sender.
    Ptr<Node> node = m_ctx.node;
    if (node && node->GetSystemId() != Simulator::GetSystemId())
    {
        return qp;
    }
    // In the sending node's context, as ns-3 starts an Application: what the
    // flow schedules then is that node's (its events' order keys, logs).
    uint32_t ctx = NodeContext();
    m_starts.Add(flow.startNs, PeekPointer(qp), 0, ctx);
    if (flow.stopNs != 0)
    {
        uint64_t now = LibccNow();
        // Raw pointers: an event holding Ptrs, kept by the queue pair, would
        // make a reference cycle. The NIC owns the queue pair and cancels the
        // event on dispose.
        Time leave = NanoSeconds(flow.stopNs > now ? flow.stopNs - now : 0);
        qp->m_stopEvent = MakeEvent(&RdmaSender::LeaveFlow, this, PeekPointer(qp));
        Simulator::ScheduleWithContext(ctx, leave, PeekPointer(qp->m_stopEvent));
    }
    return qp;
}

uint32_t
RdmaSender::NodeContext() const
{
    Ptr<Node> node = m_ctx.node;
    return node ? node->GetId() : Simulator::GetContext();
}

void
RdmaSender::StartDue(RdmaTxQueuePair* qp, uint32_t)
{
    if (!qp->IsFinished()) // else it left before its start (LeaveFlow)
    {
        StartFlow(qp);
    }
}

void
RdmaSender::StartFlow(RdmaTxQueuePair* qp)
{
    m_ctx.EnsureCc();
    qp->StartCc(m_ctx.cc->GetParams(), m_ctx.dev->GetDataRate().GetBitRate(),
                m_ctx.DataWireBytes());
    m_active.push_back(qp);
    NS_LOG_INFO("flow " << qp->GetFlow().flowId << " starts, " << qp->GetFlow().sizeBytes
                        << " bytes");
    m_ctx.Kick();
}

void
RdmaSender::LeaveFlow(RdmaTxQueuePair* qp)
{
    if (qp->IsFinished())
    {
        return; // it ended by its size first
    }
    if (std::find(m_active.begin(), m_active.end(), qp) == m_active.end())
    {
        // Leaving before its start: it never starts (StartDue skips a
        // finished one), and reports nothing.
        qp->Leave();
        qp->CompleteNow(LibccNow());
        return;
    }
    uint64_t size = qp->Leave();
    if (!qp->m_leaveNotify.IsNull())
    {
        qp->m_leaveNotify(qp->GetPeerQpn(), size);
    }
    NS_LOG_INFO("flow " << qp->GetFlow().flowId << " leaves after " << size << " bytes");
    if (qp->GetSndUna() >= size)
    {
        // Everything it sent is acknowledged (or nothing was sent): done now.
        qp->CompleteNow(LibccNow());
        FinishFlow(qp);
    }
    m_ctx.Kick();
}

void
RdmaSender::FinishFlow(RdmaTxQueuePair* qp)
{
    DisarmRto(qp);
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
    rec.payloadBytes = m_ctx.payload;
    rec.overheadBytes = m_ctx.DataOverheadBytes();
    rec.retransmittedBytes = qp->GetRetransmittedBytes();
    rec.timeouts = qp->GetTimeouts();
    if (qp->GetCc())
    {
        m_ctx.counters.ccErrors += qp->GetCc()->GetErrors();
        size_t n = 0;
        if (libcc_rp_vars(qp->GetCc()->Raw(), &rec.ccVarDescs, &n) == LIBCC_OK && n > 0)
        {
            rec.ccVars.resize(n);
            libcc_rp_read_vars(qp->GetCc()->Raw(), rec.ccVars.data(), n);
        }
    }
    qp->StopCc();
    NS_LOG_INFO("flow " << rec.flow.flowId << " complete, FCT " << rec.fctNs << " ns");
    (*m_ctx.flowComplete)(rec);
}

// The fields a flow's data and probe packets share: same 5-tuple (so ECMP
// sends probes along the data path), same priority, ECN-capable.
void
RdmaSender::FillFlowFields(RocePacketInfo& info, RocePktType type, const RdmaTxQueuePair& qp) const
{
    const RdmaFlowParams& f = qp.GetFlow();
    info.type = type;
    info.src = m_ctx.ipBits;
    info.dst = RoceAddr(f.dstIp);
    info.sport = f.sport;
    info.prio = f.prio;
    info.ecn = ROCE_ECN_ECT0;
    info.destQp = qp.GetPeerQpn();
    if (m_ctx.signals & LIBCC_SIGNAL_ACK_TX_TS)
    {
        info.hasTxTs = true; // the NIC stamps the packet as it starts to leave
        info.txTsNs = LibccNow();
    }
}

QbbFramePtr
RdmaSender::MakeProbe(RdmaTxQueuePair& qp)
{
    // HPCC++ probe: no payload, collects INT along the data path.
    qp.ClearProbe();
    QbbFramePtr fr = QbbFrameNew();
    RocePacketInfo& pr = fr->roce;
    FillFlowFields(pr, RocePktType::PROBE, qp);
    pr.psn = RdmaNicContext::PROBE_PSN;
    pr.seq = qp.GetSndNxt();
    pr.payloadBytes = 0;
    pr.hasInt = m_ctx.dataHasInt;
    pr.intFormat = m_ctx.dataIntFormat;
    if (pr.hasInt)
    {
        RoceIntHeader::InitWireList(pr.intFormat, pr.ints);
    }
    fr->ipBytes = RocePacketBytes(pr);
    m_ctx.counters.probesSent++;
    return fr;
}

QbbFramePtr
RdmaSender::MakeData(RdmaTxQueuePair& qp, uint64_t nowPs)
{
    const RdmaFlowParams& f = qp.GetFlow();
    uint64_t seq = qp.GetSndNxt();
    uint32_t payload = qp.NextPayload();
    unsigned flags = qp.CcOnTx(payload);
    QbbFramePtr fr = QbbFrameNew();
    RocePacketInfo& info = fr->roce;
    FillFlowFields(info, RocePktType::DATA, qp);
    info.psn = static_cast<uint32_t>((seq / m_ctx.payload) % RdmaNicContext::PROBE_PSN);
    info.last = seq + payload == f.sizeBytes;
    info.seq = seq;
    info.payloadBytes = payload;
    info.hasInt = m_ctx.dataHasInt && (flags & LIBCC_TX_REQUEST_INT) != 0;
    info.intFormat = m_ctx.dataIntFormat;
    info.hasPint =
        (m_ctx.signals & LIBCC_SIGNAL_DATA_PINT) != 0 && (flags & LIBCC_TX_REQUEST_PINT) != 0;
    if (info.hasInt)
    {
        RoceIntHeader::InitWireList(info.intFormat, info.ints);
    }
    fr->ipBytes = RocePacketBytes(info);
    bool retx = qp.IsRetransmission();
    qp.OnSent(payload, QbbNetDevice::WireBytes(fr->ipBytes), nowPs);
    (*m_ctx.txData)(f.flowId, seq, payload, retx);
    ArmRto(&qp);
    m_ctx.counters.dataSent++;
    return fr;
}

QbbFramePtr
RdmaSender::Dequeue(const std::array<bool, QBB_N_PRIO>& paused, uint8_t& prioOut)
{
    uint64_t nowPs = NowPs();
    uint64_t earliest = UINT64_MAX;
    size_t n = m_active.size();
    for (size_t i = 0; i < n; i++)
    {
        size_t idx = (m_rr + i) % n;
        RdmaTxQueuePair* qp = m_active[idx];
        uint8_t prio = qp->GetFlow().prio;
        if (paused[prio])
        {
            continue;
        }
        QbbFramePtr fr;
        if (qp->ProbePending())
        {
            fr = MakeProbe(*qp);
        }
        else if (!qp->HasDataToSend() || !qp->WindowOpen())
        {
            continue;
        }
        else if (qp->NextAvailPs() > nowPs)
        {
            earliest = std::min(earliest, qp->NextAvailPs());
            continue;
        }
        else
        {
            fr = MakeData(*qp, nowPs);
        }
        m_rr = (idx + 1) % n;
        prioOut = prio;
        return fr;
    }
    if (earliest != UINT64_MAX)
    {
        WakeAt(earliest);
    }
    return nullptr;
}

void
RdmaSender::WakeAt(uint64_t ps)
{
    if (m_wakeAtPs <= ps)
    {
        return; // the pending wake-up comes first
    }
    m_wakeAtPs = ps;
    WakeEvent* ev = m_wakePool.Take([this] { return Create<WakeEvent>(this); });
    ev->m_seq = ++m_wakeSeq;
    // Never before the pacer allows, whatever the time resolution.
    ScheduleReused(SimContext(), DelayUntilPs(ps), ev);
}

void
RdmaSender::Wake(uint64_t seq)
{
    if (seq != m_wakeSeq || m_wakeAtPs == UINT64_MAX)
    {
        return; // superseded by an earlier wake-up, or already served
    }
    m_wakeAtPs = UINT64_MAX;
    m_ctx.Kick();
}

void
RdmaSender::ArmRto(RdmaTxQueuePair* qp)
{
    if (qp->m_rtoArmed)
    {
        return;
    }
    uint64_t at = qp->NextTimeoutCheck(RtoNs(qp));
    if (at == UINT64_MAX)
    {
        return;
    }
    qp->m_rtoArmed = true;
    m_rtos.Add(at, qp, ++qp->m_rtoGen, NodeContext());
}

void
RdmaSender::DisarmRto(RdmaTxQueuePair* qp)
{
    qp->m_rtoArmed = false;
    qp->m_rtoGen++;
}

void
RdmaSender::RtoFired(RdmaTxQueuePair* qp, uint32_t gen)
{
    if (gen != qp->m_rtoGen || !qp->m_rtoArmed)
    {
        return; // disarmed (finished) since
    }
    // The check is lazy: ACK progress only moves a timestamp, and the check
    // re-arms itself for the new expiry instead of being moved per ACK.
    qp->m_rtoArmed = false;
    uint64_t now = LibccNow();
    if (qp->CheckTimeout(now, RtoNs(qp)))
    {
        m_ctx.counters.timeouts++;
        NS_LOG_INFO("flow " << qp->GetFlow().flowId << " timeout: back to " << qp->GetSndUna());
        if (LibccRp* cc = qp->GetCc())
        {
            cc->OnTimeout();
        }
        m_ctx.Kick();
    }
    ArmRto(qp);
}

uint64_t
RdmaSender::RtoNs(const RdmaTxQueuePair* qp) const
{
    const LibccRp* cc = qp->GetCc();
    uint64_t rto = cc ? cc->GetRto() : 0;
    return rto != 0 ? rto : static_cast<uint64_t>(m_ctx.rto.GetNanoSeconds());
}

void
RdmaSender::OnAck(const RocePacketInfo& info)
{
    if (info.destQp >= m_tx.size())
    {
        m_ctx.counters.badPackets++;
        return;
    }
    RdmaTxQueuePair* qp = PeekPointer(m_tx[info.destQp]);
    libcc_ack ack{};
    ack.seq = info.ackSeq;
    ack.rx_window_bytes = info.rxWindow;
    ack.n_flows = info.nFlows;
    ack.ecn_echo = info.ecnEcho;
    ack.is_probe = info.psn == RdmaNicContext::PROBE_PSN;
    ack.int_list = info.hasInt ? &info.ints : nullptr; // read in place, not copied
    uint64_t now = LibccNow();
    // Signals the ACK carries (libcc_algorithm_info.signals), as libcc names them.
    if (info.hasTxTs)
    {
        ack.has |= LIBCC_ACK_HAS_TX_TS;
        ack.tx_ts_ns = info.txTsNs;
    }
    if (info.hasNicTs)
    {
        ack.has |= LIBCC_ACK_HAS_REMOTE_TS | LIBCC_ACK_HAS_RX_TS;
        ack.remote_rx_ts_ns = info.remoteRxNs;
        ack.remote_tx_ts_ns = info.remoteTxNs;
        ack.rx_ts_ns = now; // this NIC stamps the ACK's arrival
    }
    if (info.hasPint)
    {
        ack.has |= LIBCC_ACK_HAS_PINT;
        ack.pint = info.pint;
    }
    if (info.hasHops)
    {
        ack.n_hops = info.hops;
    }
    bool done;
    if (info.type == RocePktType::NACK)
    {
        m_ctx.counters.nacksRcvd++;
        NS_LOG_LOGIC("flow " << qp->GetFlow().flowId << " NACK: go back to " << info.ackSeq);
        done = qp->OnNack(ack, now);
    }
    else
    {
        m_ctx.counters.acksRcvd++;
        done = qp->OnAck(ack, now);
    }
    if (done)
    {
        FinishFlow(qp);
    }
    m_ctx.Kick();
}

void
RdmaSender::OnCnp(uint32_t qpn)
{
    if (qpn >= m_tx.size())
    {
        m_ctx.counters.badPackets++;
        return;
    }
    m_ctx.counters.cnpsRcvd++;
    NS_LOG_LOGIC("flow " << m_tx[qpn]->GetFlow().flowId << " CNP");
    m_tx[qpn]->OnCnp();
    m_ctx.Kick(); // the rate may have changed the pacing
}

void
RdmaSender::OnFeedback(const RocePacketInfo& info)
{
    auto it = m_byPeer.find((static_cast<uint64_t>(info.src.Get()) << 32) | info.destQp);
    if (it == m_byPeer.end())
    {
        m_ctx.counters.badPackets++;
        return;
    }
    m_ctx.counters.feedbackRcvd++;
    NS_LOG_LOGIC("flow " << m_tx[it->second]->GetFlow().flowId << " feedback: " << info.fbRateBps
                         << " bit/s from switch " << info.fbSwitchId << " port "
                         << info.fbPortId);
    libcc_feedback fb{};
    fb.rate_bps = info.fbRateBps;
    fb.switch_id = info.fbSwitchId;
    fb.port_id = info.fbPortId;
    m_tx[it->second]->OnFeedback(fb);
    m_ctx.Kick();
}

} // namespace ns3
