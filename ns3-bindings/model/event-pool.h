// SPDX-License-Identifier: GPL-2.0-only
//
// Event objects scheduled again and again instead of one allocated and freed
// per use (a frame's arrival, a pacing wake-up, a frame's end): the per-packet
// path allocates nothing beyond ns-3's Packet.
#ifndef EVENT_POOL_H
#define EVENT_POOL_H

#include "sim-fast.h"

#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/simulator.h"

#include <cstdint>
#include <deque>

namespace ns3
{

/**
 * Schedule an event object that is not in the simulator's queue. The queue
 * owns one reference and drops it after the event ran, as for
 * Simulator::Schedule, with the same key (context, next uid) but without
 * building an EventId nobody keeps.
 */
inline void
ScheduleReused(uint32_t context, const Time& delay, EventImpl* event)
{
    event->Ref();
    // Inline insert under LibccSimulatorImpl (sim-fast.h): this is the
    // per-frame schedule of channels, NICs and devices.
    SimScheduleWithContext(context, delay.GetTimeStep(), event);
}

/**
 * Event objects of one kind, reused once fired. Take() hands out the oldest
 * if only the pool still holds it (it fired, or was never scheduled), else a
 * new one: with events that fire in the order they were taken this keeps a
 * handful of objects per pool.
 */
template <typename E> class EventPool
{
  public:
    /// An event not in the simulator's queue; make() creates one if needed.
    template <typename Make> E* Take(Make make)
    {
        Ptr<E> ev;
        if (!m_events.empty() && m_events.front()->GetReferenceCount() == 1)
        {
            ev = m_events.front();
            m_events.pop_front();
        }
        else
        {
            ev = make();
        }
        m_events.push_back(ev);
        return PeekPointer(ev);
    }

    /// Cancel the pending ones (their owner is going away) and let all go.
    void Clear()
    {
        for (Ptr<E>& ev : m_events)
        {
            ev->Cancel();
        }
        m_events.clear();
    }

  private:
    std::deque<Ptr<E>> m_events;
};

} // namespace ns3

#endif // EVENT_POOL_H
