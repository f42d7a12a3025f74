// SPDX-License-Identifier: GPL-2.0-only
#include "qbb-pfc.h"

#include "pfc-header.h"
#include "qbb-net-device.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QbbPfc");

QbbPfc::QbbPfc(QbbNetDevice* dev, TracedCallback<uint8_t, uint16_t>& txTrace,
               TracedCallback<uint8_t, uint16_t>& rxTrace)
    : m_dev(dev)
    , m_txTrace(txTrace)
    , m_rxTrace(rxTrace)
{
}

void
QbbPfc::Queue(uint8_t prio, uint16_t quanta)
{
    PfcPauseHeader pfc;
    pfc.SetQuanta(prio, quanta);
    Ptr<Packet> body = Create<Packet>();
    body->AddHeader(pfc);
    m_queue.Push(QbbFrameFromPacket(body, true));
    NS_LOG_LOGIC("prio " << unsigned(prio) << (quanta > 0 ? " PAUSE" : " RESUME") << " to send, "
                         << quanta << " quanta");
    if (quanta > 0)
    {
        m_pausesSent[prio]++;
    }
    else
    {
        m_resumesSent[prio]++;
    }
    m_txTrace(prio, quanta);
}

bool
QbbPfc::Receive(Ptr<Packet> frame)
{
    NS_LOG_FUNCTION(this << frame);
    if (frame->GetSize() < PfcPauseHeader::BODY_BYTES)
    {
        return false;
    }
    PfcPauseHeader pfc;
    frame->RemoveHeader(pfc);
    if (pfc.GetOpcode() != PfcPauseHeader::OPCODE_PFC)
    {
        return false; // 802.3x global PAUSE and other MAC control opcodes are not modelled
    }
    Time now = Simulator::Now();
    bool resumed = false;
    for (uint8_t p = 0; p < QBB_N_PRIO; p++)
    {
        if (!pfc.IsEnabled(p))
        {
            continue;
        }
        uint16_t q = pfc.GetQuanta(p);
        m_pauseSeen = true;
        m_rxTrace(p, q);
        m_pauseEvent[p].Cancel();
        if (q == 0)
        {
            NS_LOG_LOGIC("prio " << unsigned(p) << " RESUME from the peer");
            m_resumesRcvd[p]++;
            m_pausedUntil[p] = now.GetTimeStep();
            resumed = true;
        }
        else
        {
            m_pausesRcvd[p]++;
            // A pause quantum is 512 bit times at this link's rate.
            Time d = m_dev->BitTime(static_cast<uint64_t>(q) * 512);
            NS_LOG_LOGIC("prio " << unsigned(p) << " PAUSE from the peer: " << q << " quanta, "
                                 << d.GetNanoSeconds() << " ns");
            m_pausedUntil[p] = (now + d).GetTimeStep();
            m_pauseEvent[p] = Simulator::Schedule(d, &QbbPfc::Expired, this, p);
        }
    }
    return resumed;
}

void
QbbPfc::Expired(uint8_t prio)
{
    NS_LOG_LOGIC("prio " << unsigned(prio) << " pause expired");
    (void)prio;
    m_dev->TriggerTransmit();
}

void
QbbPfc::Dispose()
{
    for (auto& e : m_pauseEvent)
    {
        e.Cancel();
    }
    m_queue.Clear();
}

} // namespace ns3
