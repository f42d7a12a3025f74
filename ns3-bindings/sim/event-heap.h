// SPDX-License-Identifier: GPL-2.0-only
//
// EventHeap: FastSimulatorImpl's queue, a 4-ary min-heap of POD entries
// ordered by (ts, key) compared as one 128-bit integer. Two entry kinds:
// UidEntry (24 bytes: the key is uid << 32 | context, so it holds both) for
// DefaultSimulatorImpl's order, NodeEntry (32 bytes: uid and context beside
// a key that is neither) for the Node order; one heap of each, so the
// default order keeps its 24-byte moves (docs/simulator-impl.md).
#ifndef EVENT_HEAP_H
#define EVENT_HEAP_H

#include "ns3/event-impl.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * An event of the per-frame path (a channel's arrival, a device's
 * transmit-complete, a pacing wake-up). FastSimulatorImpl runs it with
 * Fire(), inline, instead of EventImpl::Invoke: that is a call into
 * libns3-core through the GOT with a LogComponent check before the virtual
 * Notify, about 30 instructions per event. Scheduled like any EventImpl
 * (the same key, the same reference the queue holds), so the order and the
 * object's lifetime are those of an ordinary event; under another
 * SimulatorImpl it is one.
 */
class FastEvent : public EventImpl
{
  public:
    /**
     * EventImpl::Cancel, also noted here: EventImpl::IsCancelled is out of
     * line in libns3-core, with a log check. Cancel a FastEvent through this
     * (its owner does; no EventId of it is ever handed out).
     */
    void Cancel()
    {
        m_cancelled = true;
        EventImpl::Cancel();
    }
    /// EventImpl::Invoke without its calls into libns3-core.
    void Fire()
    {
        if (!m_cancelled)
        {
            Notify();
        }
    }

  private:
    bool m_cancelled = false;
};

/// An entry's impl with its low bit set is a FastEvent (objects are at
/// least 2-aligned); the rest of the bits are the EventImpl.
constexpr uintptr_t FAST_EVENT_TAG = 1;
inline EventImpl*
TagFast(FastEvent* event)
{
    return reinterpret_cast<EventImpl*>(reinterpret_cast<uintptr_t>(static_cast<EventImpl*>(event)) |
                                        FAST_EVENT_TAG);
}
inline EventImpl*
UntagImpl(EventImpl* impl)
{
    return reinterpret_cast<EventImpl*>(reinterpret_cast<uintptr_t>(impl) & ~FAST_EVENT_TAG);
}
inline bool
IsTaggedFast(const EventImpl* impl)
{
    return (reinterpret_cast<uintptr_t>(impl) & FAST_EVENT_TAG) != 0;
}

struct UidEntry
{
    uint64_t ts;
    uint64_t key; ///< uid << 32 | context: orders like the uid (unique)
    EventImpl* impl; ///< tagged if a FastEvent (TagFast)
    uint32_t Uid() const
    {
        return static_cast<uint32_t>(key >> 32);
    }
    uint32_t Context() const
    {
        return static_cast<uint32_t>(key);
    }
};

struct NodeEntry
{
    uint64_t ts;
    uint64_t key; ///< scheduling node above its count (FastSimulatorImpl::TakeKey)
    EventImpl* impl; ///< tagged if a FastEvent (TagFast)
    uint32_t uid;
    uint32_t context;
    uint32_t Uid() const
    {
        return uid;
    }
    uint32_t Context() const
    {
        return context;
    }
};

/// A heap of E in m_v[0, m_size): children of i are 4i+1..4i+4. The vector
/// only grows (its size is the capacity), so a push is a compare and a
/// store, not emplace_back's construct-then-overwrite. Each entry owns one
/// reference to its impl (the owner releases them: ReleaseAll).
template <typename E> class EventHeap
{
  public:
    explicit EventHeap(size_t capacity)
        : m_v(capacity),
          m_size(0)
    {
    }
    size_t Size() const
    {
        return m_size;
    }
    const E& Top() const
    {
        return m_v[0];
    }
    /// Strict (ts, key) order, branch-free (cmp + sbb).
    static bool Before(const E& a, const E& b)
    {
        using U128 = unsigned __int128;
        return ((U128(a.ts) << 64) | a.key) < ((U128(b.ts) << 64) | b.key);
    }
    /// Inline (with SiftUp) so that sim-fast.h's schedule has no call.
    void Push(const E& e)
    {
        if (__builtin_expect(m_size == m_v.size(), 0))
        {
            Grow();
        }
        SiftUp(m_size++, e);
    }
    /// Inlined into Run(): a call returns the Entry through memory.
    [[gnu::always_inline]] E PopMin()
    {
        E* h = m_v.data();
        E top = h[0];
        size_t n = --m_size;
        E last = h[n];
        if (n == 0)
        {
            return top;
        }
        // Floyd's pop: walk the hole from the root to a leaf along the
        // smallest children without comparing them to last (which nearly
        // always belongs near the bottom anyway), then let last rise.
        size_t hole = 0;
        for (;;)
        {
            size_t c = 4 * hole + 1;
            size_t best;
            if (c + 3 < n)
            {
                // Tournament of the 4 children in index arithmetic: no
                // branch to mispredict. Written with ?: gcc branches, and the
                // pop costs ~30% more wall time (docs/simulator-impl.md).
                size_t a = c + Before(h[c + 1], h[c]);
                size_t b = c + 2 + Before(h[c + 3], h[c + 2]);
                size_t m = Before(h[b], h[a]);
                // Hide that m is 0 or 1: inlined into Run(), gcc turns the
                // multiply back into a branch.
                asm("" : "+r"(m));
                best = a + m * (b - a);
            }
            else if (c < n)
            {
                best = c;
                for (size_t k = c + 1; k < n; ++k)
                {
                    if (Before(h[k], h[best]))
                    {
                        best = k;
                    }
                }
            }
            else
            {
                break;
            }
            h[hole] = h[best];
            hole = best;
        }
        SiftUp(hole, last);
        return top;
    }
    /// Take out the entry of this uid and impl (linear: Remove is rare);
    /// false if none. The caller owns the entry's reference then.
    bool Remove(uint32_t uid, const EventImpl* impl)
    {
        for (size_t i = 0; i < m_size; ++i)
        {
            if (m_v[i].Uid() == uid && UntagImpl(m_v[i].impl) == impl)
            {
                E last = m_v[--m_size];
                if (i < m_size)
                {
                    if (i > 0 && Before(last, m_v[(i - 1) / 4]))
                    {
                        SiftUp(i, last);
                    }
                    else
                    {
                        SiftDown(i, last);
                    }
                }
                return true;
            }
        }
        return false;
    }
    /// Drop every entry, releasing its reference.
    void ReleaseAll()
    {
        for (size_t i = 0; i < m_size; ++i)
        {
            UntagImpl(m_v[i].impl)->Unref();
        }
        m_size = 0;
        std::vector<E>().swap(m_v);
    }

  private:
    void SiftUp(size_t i, E e)
    {
        // Move the hole up instead of swapping: one store per level.
        E* h = m_v.data();
        while (i > 0)
        {
            size_t parent = (i - 1) / 4;
            if (!Before(e, h[parent]))
            {
                break;
            }
            h[i] = h[parent];
            i = parent;
        }
        h[i] = e;
    }
    void SiftDown(size_t i, E e)
    {
        E* h = m_v.data();
        size_t n = m_size;
        for (;;)
        {
            size_t first = 4 * i + 1;
            if (first >= n)
            {
                break;
            }
            size_t end = first + 4 < n ? first + 4 : n;
            size_t best = first;
            for (size_t c = first + 1; c < end; ++c)
            {
                if (Before(h[c], h[best]))
                {
                    best = c;
                }
            }
            if (!Before(h[best], e))
            {
                break;
            }
            h[i] = h[best];
            i = best;
        }
        h[i] = e;
    }
    [[gnu::cold, gnu::noinline]] void Grow()
    {
        m_v.resize(2 * m_v.size() + 1024);
    }

    std::vector<E> m_v;
    size_t m_size;
};

} // namespace ns3

#endif // EVENT_HEAP_H
