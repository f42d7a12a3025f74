// SPDX-License-Identifier: GPL-2.0-only
//
// Event objects scheduled again and again instead of one allocated and freed
// per use (a channel direction's next arrival, a pacing wake-up, a frame's
// end): the per-packet path allocates nothing once warm.
#ifndef EVENT_POOL_H
#define EVENT_POOL_H

#include "fifo-ring.h"
#include "sim-fast.h"

#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/simulator.h"

#include <cstdint>

namespace ns3
{

/**
 * Schedule an event object that is not in the simulator's queue. The queue
 * owns one reference and drops it after the event ran, as for
 * Simulator::Schedule, with the same key (context, next uid) but without
 * building an EventId nobody keeps.
 */
inline void
ScheduleReusedSteps(uint32_t context, int64_t delaySteps, EventImpl* event)
{
    event->Ref();
    // Inline insert under FastSimulatorImpl (sim-fast.h): this is the
    // per-frame schedule of channels, NICs and devices.
    SimScheduleWithContext(context, delaySteps, event);
}

/// ScheduleReusedSteps for a FastEvent (run without EventImpl::Invoke).
/// Always in line, as SimScheduleWithContext: once per frame and link.
[[gnu::always_inline]] inline void
ScheduleReusedSteps(uint32_t context, int64_t delaySteps, FastEvent* event)
{
    event->Ref();
    SimScheduleWithContext(context, delaySteps, event);
}

/// ScheduleReusedSteps with the delay as a Time.
template <typename E>
inline void
ScheduleReused(uint32_t context, const Time& delay, E* event)
{
    ScheduleReusedSteps(context, delay.GetTimeStep(), event);
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
    EventPool() = default;
    EventPool(const EventPool&) = delete;
    EventPool& operator=(const EventPool&) = delete;
    ~EventPool()
    {
        Release(false);
    }

    /// An event not in the simulator's queue; make() creates one if needed.
    template <typename Make> E* Take(Make make)
    {
        // The pool's events, oldest first, each holding one reference of the
        // pool's (raw pointers: ns-3's Ptr has no move, so rotating Ptrs
        // would cost a Ref and an Unref per use).
        if (!m_events.Empty() && m_events.Front()->GetReferenceCount() == 1)
        {
            // The oldest is free: it becomes the newest.
            E* ev = m_events.Pop();
            m_events.Push(ev);
            return ev;
        }
        Ptr<E> made = make();
        E* ev = PeekPointer(made);
        ev->Ref();
        m_events.Push(ev);
        return ev;
    }

    /// Cancel the pending ones (their owner is going away) and let all go.
    void Clear()
    {
        Release(true);
    }

  private:
    void Release(bool cancel)
    {
        while (!m_events.Empty())
        {
            E* ev = m_events.Pop();
            if (cancel)
            {
                ev->Cancel();
            }
            ev->Unref();
        }
        m_events.Clear();
    }

    FifoRing<E*> m_events;
};

} // namespace ns3

#endif // EVENT_POOL_H
