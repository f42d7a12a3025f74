// SPDX-License-Identifier: GPL-2.0-only
//
// FifoRing: a FIFO on a power-of-two ring that only grows, so the per-packet
// queues of the fabric (switch egress queues, a channel's frames in flight,
// reused events) allocate nothing once warm, unlike std::deque's blocks.
#ifndef FIFO_RING_H
#define FIFO_RING_H

#include <cstddef>
#include <memory>
#include <utility>

namespace ns3
{

/// T must be default-constructible and movable (move-only is fine).
template <typename T> class FifoRing
{
  public:
    bool Empty() const
    {
        return m_size == 0;
    }
    size_t Size() const
    {
        return m_size;
    }
    /// The oldest element; the ring must not be empty.
    const T& Front() const
    {
        return m_buf[m_head];
    }
    void Push(T&& v)
    {
        Slot() = std::move(v);
        m_size++;
    }
    void Push(const T& v)
    {
        Slot() = v;
        m_size++;
    }
    /// The slot the next Push would fill, to be filled in place and then
    /// kept by CommitBack (or left: nothing was added). Valid until the
    /// next Push or BackSlot.
    T& BackSlot()
    {
        return Slot();
    }
    /// Keep what was written into BackSlot as the newest element, returned.
    T& CommitBack()
    {
        T& v = Behind();
        m_size++;
        return v;
    }
    /// The oldest element, to be used in place before DropFront; the ring
    /// must not be empty.
    T& FrontSlot()
    {
        return m_buf[m_head];
    }
    /// Forget the oldest element (its slot keeps whatever was left in it,
    /// e.g. a moved-from value, until it is filled again).
    void DropFront()
    {
        m_head = (m_head + 1) & m_mask;
        m_size--;
    }
    /// Take the oldest element out; the ring must not be empty.
    T Pop()
    {
        T v = std::move(FrontSlot());
        DropFront();
        return v;
    }
    /// Drop every element and the storage.
    void Clear()
    {
        m_buf.reset();
        m_cap = 0;
        m_mask = 0;
        m_head = 0;
        m_size = 0;
    }

  private:
    /// The free slot behind the newest element (the ring grows if full).
    T& Slot()
    {
        if (m_size == m_cap)
        {
            Grow();
        }
        return Behind();
    }
    /// The slot behind the newest element (the ring must have room).
    T& Behind()
    {
        return m_buf[(m_head + m_size) & m_mask];
    }

    void Grow()
    {
        size_t cap = m_cap == 0 ? 16 : m_cap * 2;
        std::unique_ptr<T[]> n(new T[cap]());
        for (size_t i = 0; i < m_size; i++)
        {
            n[i] = std::move(m_buf[(m_head + i) & m_mask]);
        }
        m_buf = std::move(n);
        m_cap = cap;
        m_mask = cap - 1;
        m_head = 0;
    }

    // A bare array and its mask, not a std::vector: the index of every
    // push and pop masks with one load instead of computing the size.
    std::unique_ptr<T[]> m_buf;
    size_t m_cap = 0;  ///< slots, a power of two (0 before the first push)
    size_t m_mask = 0; ///< m_cap - 1
    size_t m_head = 0;
    size_t m_size = 0;
};

} // namespace ns3

#endif // FIFO_RING_H
