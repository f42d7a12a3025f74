// SPDX-License-Identifier: GPL-2.0-only
#include "switch-port.h"

#include "sim-fast.h"

#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchPort");
NS_OBJECT_ENSURE_REGISTERED(SwitchPort);

TypeId
SwitchPort::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SwitchPort")
            .SetParent<Object>()
            .SetGroupName("Libcc")
            .AddAttribute("Index", "Port number: the device's interface index on the switch.",
                          TypeId::ATTR_GET, UintegerValue(0),
                          MakeUintegerAccessor(&SwitchPort::GetIndex),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Device", "The QbbNetDevice this port sends on.", TypeId::ATTR_GET,
                          PointerValue(), MakePointerAccessor(&SwitchPort::GetDevice),
                          MakePointerChecker<QbbNetDevice>())
            .AddTraceSource("QueueBytes",
                            "Bytes (frames, both classes) in one priority's egress queue of "
                            "this port after every enqueue and dequeue: priority, bytes.",
                            MakeTraceSourceAccessor(&SwitchPort::m_queueTrace),
                            "ns3::SwitchPort::QueueBytesCallback");
    return tid;
}

SwitchPort::SwitchPort(Owner* owner, uint32_t index, Ptr<QbbNetDevice> dev)
    : m_owner(owner)
    , m_index(index)
    , m_dev(dev)
{
    NS_LOG_FUNCTION(this << index << dev);
}

SwitchPort::~SwitchPort() = default;

void
SwitchPort::DoDispose()
{
    NS_LOG_FUNCTION(this);
    Clear();
    m_owner = nullptr;
    Object::DoDispose();
}

QbbFramePtr
SwitchPort::DequeueFrame(const std::array<bool, QBB_N_PRIO>& paused, uint8_t& prioOut)
{
    uint32_t open = 0xFF;
    // Nothing paused is the common case: one 8-byte test instead of a loop.
    uint64_t anyPaused;
    static_assert(sizeof(paused) == sizeof(anyPaused), "8 one-byte flags");
    std::memcpy(&anyPaused, paused.data(), sizeof(anyPaused));
    if (anyPaused != 0)
    {
        for (uint32_t p = 0; p < QBB_N_PRIO; p++)
        {
            open &= ~(static_cast<uint32_t>(paused[p]) << p);
        }
    }
    int prio;
    uint32_t cls;
    if (uint32_t ctl = m_nonEmpty[CONTROL] & open)
    {
        cls = CONTROL;
        prio = 31 - __builtin_clz(ctl);
    }
    else if (uint32_t data = m_nonEmpty[DATA] & open)
    {
        // Round-robin: start at the priority after the last one served.
        cls = DATA;
        uint32_t rr = m_rrNext;
        uint32_t rot = ((data >> rr) | (data << (QBB_N_PRIO - rr))) & 0xFF;
        prio = static_cast<int>((rr + __builtin_ctz(rot)) % QBB_N_PRIO);
        m_rrNext = static_cast<uint8_t>((prio + 1) % QBB_N_PRIO);
    }
    else
    {
        return nullptr;
    }
    // In place: the entry leaves its slot only as the frame handed back.
    // Nothing queues on this port while its owner looks (its device is
    // inside this dequeue).
    FifoRing<Entry>& q = m_q[prio][cls];
    uint8_t p8 = static_cast<uint8_t>(prio);
    Entry& e = q.FrontSlot();
    CountDequeue(e, p8);
    m_owner->OnDequeued(*this, e, p8);
    QbbFramePtr frame = std::move(e.frame);
    q.DropFront();
    if (q.Empty())
    {
        m_nonEmpty[cls] &= ~(1u << prio);
    }
    prioOut = p8;
    return frame;
}

void
SwitchPort::QueueDirect(uint8_t prio, bool control)
{
    uint32_t cls = control ? CONTROL : DATA;
    m_q[prio][cls].Push(std::move(m_direct));
    m_nonEmpty[cls] |= 1u << prio;
}

bool
SwitchPort::HasPending() const
{
    return m_total > 0;
}

void
SwitchPort::Clear()
{
    NS_LOG_FUNCTION(this);
    for (auto& e : m_refresh)
    {
        e.Cancel();
    }
    for (auto& pq : m_q)
    {
        pq[CONTROL].Clear();
        pq[DATA].Clear();
    }
    m_bytes.fill(0);
    m_total = 0;
    m_nonEmpty.fill(0);
    m_dev = nullptr;
}

} // namespace ns3
