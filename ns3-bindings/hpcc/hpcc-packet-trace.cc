// SPDX-License-Identifier: GPL-2.0-only

#include "hpcc-packet-trace.h"

#include "hpcc-format.h"
#include "pfc-header.h"

#include <ns3/log.h>
#include <ns3/simulator.h>

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccPacketTrace");

HpccPacketTrace::HpccPacketTrace(RdmaNetwork& net, RdmaTraceSink& sink)
    : m_net(net)
    , m_sink(sink)
{
}

void
HpccPacketTrace::Close()
{
    RdmaTraceSink::Close(m_file);
}

namespace
{

// The HPCC simulator's TraceFormat (its trace-format.h), as its
// analysis/trace_reader reads it with fread on x86-64: 56 bytes, little
// endian, the union of per-type fields at offset 32.
constexpr size_t TR_BYTES = 56;
constexpr uint8_t TR_RECV = 0;
constexpr uint8_t TR_DEQU = 2;

template <typename T>
void
Put(uint8_t* b, size_t off, T v)
{
    for (size_t i = 0; i < sizeof(T); i++)
    {
        b[off + i] = static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * i));
    }
}

} // namespace

void
HpccPacketTrace::Enable(const std::string& path, const std::vector<uint32_t>& nodes)
{
    for (uint32_t id : nodes)
    {
        if (id >= m_net.GetNNodes())
        {
            throw std::invalid_argument("trace node " + std::to_string(id) +
                                        " is not a node of the topology (0.." +
                                        std::to_string(m_net.GetNNodes() - 1) + ")");
        }
    }
    NS_LOG_FUNCTION(this << path);
    m_file = m_sink.Open(path, nullptr, true, TR_BYTES);
    // The header that simulator writes (its SimSetting): the count of
    // ports, then per port node (u16), interface (u8, from 1) and bits/s
    // (u64), packed; then the largest BDP of any host pair (u32), by its
    // pairRtt x bottleneck / 8.
    std::vector<uint8_t> head(4);
    uint32_t nPorts = 0;
    for (const Ptr<QbbNetDevice>& d : m_net.GetDevices())
    {
        uint8_t e[11];
        Put<uint16_t>(e, 0, m_net.TopoId(d->GetNode()));
        Put<uint8_t>(e, 2, d->GetIfIndex() + 1);
        Put<uint64_t>(e, 3, d->GetDataRate().GetBitRate());
        head.insert(head.end(), e, e + 11);
        nPorts++;
    }
    Put<uint32_t>(head.data(), 0, nPorts);
    uint64_t maxBdp = 0;
    std::vector<uint32_t> hosts;
    for (uint32_t id = 0; id < m_net.GetNNodes(); id++)
    {
        if (!m_net.IsSwitch(id))
        {
            hosts.push_back(id);
        }
    }
    for (uint32_t a : hosts)
    {
        for (uint32_t b : hosts)
        {
            if (a != b)
            {
                RdmaNetwork::PathInfo p = m_net.GetPath(a, b);
                maxBdp =
                    std::max<uint64_t>(maxBdp, p.hpccBaseRttNs * p.bottleneckBps / 8000000000ull);
            }
        }
    }
    uint8_t w[4];
    Put<uint32_t>(w, 0, static_cast<uint32_t>(std::min<uint64_t>(maxBdp, UINT32_MAX)));
    head.insert(head.end(), w, w + 4);
    if (m_sink.IsDistributed())
    {
        // Written once by the merge; every rank counts it, as one process.
        m_sink.SetCappedHeader(head);
    }
    else
    {
        std::fwrite(head.data(), 1, head.size(), m_file);
    }
    m_sink.Spend(head.size());
    // Flow ports: frames carry the flow's source port, not its dport.
    m_flows.clear();
    for (const Ptr<RdmaTxQueuePair>& qp : m_net.GetFlows())
    {
        const RdmaFlowParams& f = qp->GetFlow();
        m_flows[uint64_t(HpccNodeIp(f.dstNode)) << 32 | qp->GetPeerQpn()] = &f;
        m_flows[uint64_t(HpccNodeIp(f.srcNode)) << 32 | qp->GetLocalQpn()] = &f;
    }
    for (uint32_t id : nodes)
    {
        for (const Ptr<QbbNetDevice>& d : m_net.GetDevices())
        {
            if (m_net.TopoId(d->GetNode()) == id)
            {
                // A raw pointer: a Ptr bound into the device's own trace
                // source would keep the device alive forever (a cycle).
                d->TraceConnectWithoutContext(
                    "Frame",
                    MakeBoundCallback(&HpccPacketTrace::OnFrame, this,
                                      static_cast<const QbbNetDevice*>(PeekPointer(d)), id));
            }
        }
    }
}

void
HpccPacketTrace::OnFrame(HpccPacketTrace* self, const QbbNetDevice* dev, uint32_t node,
                         const QbbFrame* frame, bool outgoing)
{
    if (self->m_sink.IsCapped() || !self->m_file)
    {
        return;
    }
    uint8_t b[TR_BYTES] = {};
    const RocePacketInfo& r = frame->roce;
    uint8_t prio = frame->macControl || frame->packet ? 0 : r.prio;
    uint8_t qidx = outgoing ? prio : 0;
    Put<uint64_t>(b, 0, Simulator::Now().GetNanoSeconds());
    Put<uint16_t>(b, 8, node);
    Put<uint8_t>(b, 10, dev->GetIfIndex() + 1);
    Put<uint8_t>(b, 11, qidx);
    Put<uint32_t>(b, 12, static_cast<uint32_t>(dev->GetQueueBytes(qidx)));
    Put<uint16_t>(b, 24, 14 + frame->ipBytes); // Ethernet header + IP packet
    Put<uint8_t>(b, 27, outgoing ? TR_DEQU : TR_RECV);
    Put<uint8_t>(b, 29, self->m_net.IsSwitch(node) ? 1 : 0);
    if (frame->macControl)
    {
        PfcPauseHeader pfc;
        Ptr<Packet> body = frame->packet->Copy();
        body->RemoveHeader(pfc);
        for (uint8_t p = 0; p < QBB_N_PRIO; p++)
        {
            if (pfc.IsEnabled(p))
            {
                Put<uint32_t>(b, 32, pfc.GetQuanta(p)); // pfc.time
                Put<uint8_t>(b, 40, p);                 // pfc.qIndex
                break;
            }
        }
        Put<uint8_t>(b, 26, 0xFE);
    }
    else if (!frame->packet)
    {
        Put<uint32_t>(b, 16, r.src.Get());
        Put<uint32_t>(b, 20, r.dst.Get());
        Put<uint8_t>(b, 28, r.ecn & 3);
        auto it = self->m_flows.find(uint64_t(r.dst.Get()) << 32 | r.destQp);
        const RdmaFlowParams* f = it == self->m_flows.end() ? nullptr : it->second;
        uint16_t sport = f ? f->sport : r.sport;
        uint16_t dport = f ? f->dport : r.dport;
        switch (r.type)
        {
        case RocePktType::DATA:
        case RocePktType::PROBE:
            Put<uint8_t>(b, 26, 0x11);
            Put<uint16_t>(b, 32, sport);
            Put<uint16_t>(b, 34, dport);
            Put<uint32_t>(b, 36, static_cast<uint32_t>(r.seq));
            Put<uint16_t>(b, 48, r.prio);
            Put<uint16_t>(b, 50, r.payloadBytes);
            break;
        case RocePktType::ACK:
        case RocePktType::NACK:
            // From the receiver: its ports swapped, as that simulator's ACKs.
            Put<uint8_t>(b, 26, r.type == RocePktType::ACK ? 0xFC : 0xFD);
            Put<uint16_t>(b, 32, dport);
            Put<uint16_t>(b, 34, sport);
            Put<uint16_t>(b, 36, r.ecnEcho ? 1 : 0);
            Put<uint16_t>(b, 38, r.prio);
            Put<uint32_t>(b, 40, static_cast<uint32_t>(r.ackSeq));
            break;
        case RocePktType::CNP:
            Put<uint8_t>(b, 26, 0xFF);
            Put<uint16_t>(b, 32, sport); // cnp.fid
            Put<uint8_t>(b, 34, r.prio); // cnp.qIndex
            break;
        default:
            Put<uint8_t>(b, 26, 0x11);
            break;
        }
    }
    else
    {
        return; // a Packet-based test host's frame: not RoCEv2 fields
    }
    if (self->m_sink.Spend(TR_BYTES))
    {
        self->m_sink.Stamp(self->m_file);
        std::fwrite(b, 1, TR_BYTES, self->m_file);
    }
}

} // namespace ns3
