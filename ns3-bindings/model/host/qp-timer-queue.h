// SPDX-License-Identifier: GPL-2.0-only
//
// QpTimerQueue: a NIC's queue pairs waiting for a time (a flow's start, a
// retransmission-timeout check), kept in a small heap of the NIC's own with
// one simulator event for the earliest, instead of an event each in the
// simulator's queue. A k=8 fat tree at 50% FB_Hadoop load has about 2,400
// armed timeout checks and, over 20 ms of arrivals, 133 k flows not started
// yet: as events they made the simulator's heap 5 to 50 times deeper than
// the frames on the wires need, and every event of the run paid for that
// in its pop (docs/performance.md, "Timers out of the event queue").

#ifndef QP_TIMER_QUEUE_H
#define QP_TIMER_QUEUE_H

#include "event-pool.h"
#include "libcc-agent.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

namespace ns3
{

class RdmaTxQueuePair;

template <typename Owner> class QpTimerQueue
{
  public:
    /// Called as (owner->*handler)(qp, tag) when qp's time comes.
    using Handler = void (Owner::*)(RdmaTxQueuePair* qp, uint32_t tag);

    QpTimerQueue(Owner* owner, Handler handler)
        : m_owner(owner),
          m_handler(handler)
    {
    }
    QpTimerQueue(const QpTimerQueue&) = delete;
    QpTimerQueue& operator=(const QpTimerQueue&) = delete;

    /**
     * Call the handler for qp at deadline atNs, counted on the ns clock as
     * an event scheduled with NanoSeconds(atNs - LibccNow()) would be (now,
     * if atNs has passed): the times the per-queue-pair events ran at
     * before. Entries of one time run in the order they were added, as
     * those events did. The event runs in context (the NIC's node).
     */
    void Add(uint64_t atNs, RdmaTxQueuePair* qp, uint32_t tag, uint32_t context)
    {
        uint64_t nowPs = NowPs();
        uint64_t nowNs = LibccNow();
        uint64_t atPs = nowPs + (atNs > nowNs ? atNs - nowNs : 0) * 1000;
        m_heap.push_back(Entry{atPs, m_added++, qp, tag});
        std::push_heap(m_heap.begin(), m_heap.end(), std::greater<>());
        m_context = context;
        Arm();
    }
    /// Forget every entry; a pending event does nothing when it fires.
    void Clear()
    {
        m_heap.clear();
        m_atPs = UINT64_MAX;
        m_pool.Clear();
        m_clears++;
    }
    size_t Size() const
    {
        return m_heap.size();
    }

  private:
    struct Entry
    {
        uint64_t atPs;
        uint64_t seq; ///< order of Add: ties at one time
        RdmaTxQueuePair* qp;
        uint32_t tag;
        bool operator>(const Entry& o) const
        {
            return atPs != o.atPs ? atPs > o.atPs : seq > o.seq;
        }
    };

    class TimerEvent : public FastEvent
    {
      public:
        explicit TimerEvent(QpTimerQueue* q)
            : m_queue(q)
        {
        }
        uint64_t m_seq = 0;

      protected:
        void Notify() override
        {
            m_queue->Fire(m_seq);
        }

      private:
        QpTimerQueue* m_queue; //!< raw: Clear (and the pool's end) cancels it
    };

    /// An event for the earliest entry, unless one pending comes first.
    void Arm()
    {
        if (m_heap.empty() || m_atPs <= m_heap.front().atPs)
        {
            return;
        }
        m_atPs = m_heap.front().atPs;
        TimerEvent* ev = m_pool.Take([this] { return Create<TimerEvent>(this); });
        ev->m_seq = ++m_armed;
        ScheduleReused(m_context, DelayUntilPs(m_atPs), ev);
    }

    /// The event armed as number seq fired: run what is due, arm the next.
    void Fire(uint64_t seq)
    {
        if (seq != m_armed || m_atPs == UINT64_MAX)
        {
            return; // superseded by an earlier one, or cleared
        }
        m_atPs = UINT64_MAX;
        uint64_t nowPs = NowPs();
        // Taken out first: a handler adds again (a re-armed check), and what
        // it adds for now runs in an event of its own, as before.
        std::vector<Entry> due;
        due.swap(m_due);
        while (!m_heap.empty() && m_heap.front().atPs <= nowPs)
        {
            std::pop_heap(m_heap.begin(), m_heap.end(), std::greater<>());
            due.push_back(m_heap.back());
            m_heap.pop_back();
        }
        uint64_t clears = m_clears;
        for (const Entry& e : due)
        {
            if (m_clears != clears)
            {
                break; // a handler cleared the queue: its queue pairs are gone
            }
            (m_owner->*m_handler)(e.qp, e.tag);
        }
        due.clear();
        m_due.swap(due); // its capacity, for the next time
        Arm();
    }

    Owner* m_owner;
    Handler m_handler;
    std::vector<Entry> m_heap; ///< a min-heap on (atPs, seq)
    std::vector<Entry> m_due;
    EventPool<TimerEvent> m_pool;
    uint64_t m_atPs = UINT64_MAX; ///< the pending event's time, UINT64_MAX if none
    uint64_t m_armed = 0;         ///< the pending event's number
    uint64_t m_added = 0;
    uint64_t m_clears = 0;
    uint32_t m_context = 0;
};

} // namespace ns3

#endif
