// SPDX-License-Identifier: GPL-2.0-only
//
// EventWheel: FastSimulatorImpl's queue. A wheel of short time buckets for
// the events due soon, in front of an EventHeap for the rest; the least
// (ts, key) of the two is the next event, so either may hold any entry and
// the order is exactly the heap's (docs/simulator-impl.md, The queue).
#ifndef EVENT_WHEEL_H
#define EVENT_WHEEL_H

#include "event-heap.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * The fabric's events are due within a few microseconds (a frame's arrival
 * one link delay ahead, its end one frame time ahead) and few share a
 * nanosecond, so a wheel of WHEEL_BUCKETS buckets about a nanosecond wide
 * holds them with one or two entries per bucket: a push links the entry
 * into its bucket's sorted list, a pop takes the head of the first
 * non-empty bucket (a bitmap finds it). Each entry is placed once; unlike a
 * radix heap's buckets nothing is redistributed. An event beyond the
 * wheel's span (timers, flow starts), or whose place in its bucket's list
 * is more than WHEEL_MAX_WALK links past the head, goes to the heap.
 *
 * A bucket's head node also names the bucket's last node (Node::last, in
 * what was the node's padding): an entry that sorts after it is appended
 * at once. That is the crowded case: on a large fabric equal frames on
 * equal links end in the same nanosecond, and each event scheduled there
 * has the largest uid yet, so it sorts last (docs/simulator-impl.md, The
 * queue). A tail array beside the heads would cost 16 KB more per wheel.
 *
 * Buckets are numbered by ts >> shift; the wheel holds bucket numbers in
 * [m_cur, m_cur + WHEEL_BUCKETS), m_cur never above the least of them, so
 * bucket b lives at b mod WHEEL_BUCKETS without ambiguity.
 */
template <typename E> class EventWheel
{
  public:
    static constexpr uint32_t WHEEL_BUCKETS = 4096;
    static constexpr uint32_t WHEEL_MAX_WALK = 4;

    /// shift: log2 of a bucket's width in time steps.
    EventWheel(size_t heapCapacity, unsigned shift)
        : m_heap(heapCapacity),
          m_shift(shift)
    {
        m_head.fill(NIL);
        m_bits.fill(0);
    }
    size_t Size() const
    {
        return m_count + m_heap.Size();
    }
    /// In line: sim-fast.h's schedule has no call.
    [[gnu::always_inline]] void Push(const E& e)
    {
        uint64_t b = e.ts >> m_shift;
        if (__builtin_expect(b - m_cur < WHEEL_BUCKETS, 1))
        {
            uint32_t n = TakeNode();
            uint32_t slot = static_cast<uint32_t>(b) & (WHEEL_BUCKETS - 1);
            uint32_t head = m_head[slot];
            m_nodes[n].e = e;
            m_count++;
            if (head == NIL)
            {
                m_nodes[n].next = NIL;
                m_nodes[n].last = n;
                m_head[slot] = n;
                m_bits[slot / 64] |= uint64_t(1) << (slot % 64);
                return;
            }
            uint32_t last = m_nodes[head].last;
            if (!EventHeap<E>::Before(e, m_nodes[last].e))
            {
                m_nodes[n].next = NIL;
                m_nodes[last].next = n;
                m_nodes[head].last = n;
                return;
            }
            if (EventHeap<E>::Before(e, m_nodes[head].e))
            {
                m_nodes[n].next = head;
                m_nodes[n].last = last;
                m_head[slot] = n;
                return;
            }
            // Between the head and the last: walk from the head.
            uint32_t prev = head;
            for (uint32_t i = 1; EventHeap<E>::Before(m_nodes[m_nodes[prev].next].e, e); i++)
            {
                if (i == WHEEL_MAX_WALK)
                {
                    GiveNode(n);
                    m_count--;
                    m_heap.Push(e); // a crowded bucket: no long walks
                    return;
                }
                prev = m_nodes[prev].next;
            }
            m_nodes[n].next = m_nodes[prev].next;
            m_nodes[prev].next = n;
            return;
        }
        m_heap.Push(e);
    }
    /// The least entry, out of the queue (Size() must be non-zero).
    [[gnu::always_inline]] E PopMin()
    {
        if (m_count != 0)
        {
            uint32_t slot = FirstSlot();
            uint32_t n = m_head[slot];
            if (m_heap.Size() == 0 || !EventHeap<E>::Before(m_heap.Top(), m_nodes[n].e))
            {
                E top = m_nodes[n].e;
                UnlinkHead(slot, n);
                return top;
            }
        }
        E top = m_heap.PopMin();
        // Every entry left is at or after top: the wheel may move up to it,
        // so that what top's event schedules fits in.
        uint64_t b = top.ts >> m_shift;
        if (b > m_cur)
        {
            m_cur = b;
        }
        return top;
    }
    /// The least entry (Size() must be non-zero).
    const E& Top()
    {
        if (m_count != 0)
        {
            const E& w = m_nodes[m_head[FirstSlot()]].e;
            if (m_heap.Size() == 0 || !EventHeap<E>::Before(m_heap.Top(), w))
            {
                return w;
            }
        }
        return m_heap.Top();
    }
    /// Take out the entry of this uid and impl (linear: Remove is rare);
    /// false if none. The caller owns the entry's reference then.
    bool Remove(uint32_t uid, const EventImpl* impl)
    {
        // The non-empty buckets only, by the bitmap: a few list heads
        // instead of 4096.
        for (uint32_t w = 0; w < WORDS; w++)
        {
            for (uint64_t word = m_bits[w]; word != 0; word &= word - 1)
            {
                uint32_t slot = w * 64 + static_cast<uint32_t>(__builtin_ctzll(word));
                if (RemoveFrom(slot, uid, impl))
                {
                    return true;
                }
            }
        }
        return m_heap.Remove(uid, impl);
    }

    /// Drop every entry, releasing its reference.
    void ReleaseAll()
    {
        for (uint32_t slot = 0; slot < WHEEL_BUCKETS; slot++)
        {
            for (uint32_t n = m_head[slot]; n != NIL; n = m_nodes[n].next)
            {
                UntagImpl(m_nodes[n].e.impl)->Unref();
            }
        }
        m_head.fill(NIL);
        m_bits.fill(0);
        m_count = 0;
        std::vector<Node>().swap(m_nodes);
        m_free = NIL;
        m_heap.ReleaseAll();
    }
    /// Entries the wheel holds (the rest are in the heap): for tests.
    size_t WheelSize() const
    {
        return m_count;
    }

  private:
    static constexpr uint32_t NIL = UINT32_MAX;
    static constexpr uint32_t WORDS = WHEEL_BUCKETS / 64;
    static_assert(WHEEL_BUCKETS % 64 == 0 && (WHEEL_BUCKETS & (WHEEL_BUCKETS - 1)) == 0,
                  "a power of two, whole bitmap words");

    struct Node
    {
        E e;
        uint32_t next; ///< the bucket's next entry, or NIL
        uint32_t last; ///< in a bucket's head: its last entry
    };
    static_assert(sizeof(Node) == sizeof(E) + 8, "last fits where next's padding was");

    /// Remove's search of one bucket's list; the head's last follows.
    bool RemoveFrom(uint32_t slot, uint32_t uid, const EventImpl* impl)
    {
        uint32_t head = m_head[slot];
        uint32_t prev = NIL;
        for (uint32_t n = head; n != NIL; prev = n, n = m_nodes[n].next)
        {
            const E& e = m_nodes[n].e;
            if (e.Uid() != uid || UntagImpl(e.impl) != impl)
            {
                continue;
            }
            if (prev == NIL)
            {
                UnlinkHead(slot, n);
                return true;
            }
            uint32_t next = m_nodes[n].next;
            m_nodes[prev].next = next;
            if (next == NIL)
            {
                m_nodes[head].last = prev;
            }
            GiveNode(n);
            m_count--;
            return true;
        }
        return false;
    }

    /// Take slot's head n out of the wheel: the next entry, if any, becomes
    /// the head and names the bucket's last node.
    [[gnu::always_inline]] void UnlinkHead(uint32_t slot, uint32_t n)
    {
        uint32_t next = m_nodes[n].next;
        m_head[slot] = next;
        if (next == NIL)
        {
            m_bits[slot / 64] &= ~(uint64_t(1) << (slot % 64));
        }
        else
        {
            m_nodes[next].last = m_nodes[n].last;
        }
        GiveNode(n);
        m_count--;
    }

    /// The slot of the least bucket the wheel holds (m_count must be
    /// non-zero); m_cur moves up to it.
    [[gnu::always_inline]] uint32_t FirstSlot()
    {
        uint32_t slot = static_cast<uint32_t>(m_cur) & (WHEEL_BUCKETS - 1);
        uint32_t w = slot / 64;
        uint64_t word = m_bits[w] & (~uint64_t(0) << (slot % 64));
        uint32_t scanned = 0;
        while (word == 0)
        {
            // The next word, around the wheel; a set bit exists (m_count),
            // at the latest in the low bits of the starting word.
            w = (w + 1) % WORDS;
            word = m_bits[w];
            scanned++;
            if (scanned == WORDS)
            {
                break; // back at the start: its low bits, before slot
            }
        }
        uint32_t found = w * 64 + static_cast<uint32_t>(__builtin_ctzll(word));
        m_cur += (found - slot) & (WHEEL_BUCKETS - 1);
        return found;
    }
    uint32_t TakeNode()
    {
        if (m_free != NIL)
        {
            uint32_t n = m_free;
            m_free = m_nodes[n].next;
            return n;
        }
        m_nodes.push_back(Node{});
        return static_cast<uint32_t>(m_nodes.size() - 1);
    }
    void GiveNode(uint32_t n)
    {
        m_nodes[n].next = m_free;
        m_free = n;
    }

    std::vector<Node> m_nodes; ///< the wheel's entries, by index
    uint32_t m_free = NIL;     ///< free nodes, linked by next
    std::array<uint32_t, WHEEL_BUCKETS> m_head; ///< per slot: its bucket's least entry
    std::array<uint64_t, WORDS> m_bits;         ///< per slot: 1 if its bucket has entries
    uint64_t m_cur = 0;                         ///< bucket number, at most the least held
    size_t m_count = 0;                         ///< entries in the wheel
    EventHeap<E> m_heap;                        ///< the rest
    unsigned m_shift;
};

} // namespace ns3

#endif // EVENT_WHEEL_H
