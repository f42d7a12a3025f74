// SPDX-License-Identifier: GPL-2.0-only
//
// SwitchPort: one egress port of a SwitchNode, its queues and its scheduler.
// 8 priorities x 2 classes: control (ACK, NACK, CNP) is served first, by
// strict priority, highest first; data is served round-robin among the
// priorities the peer has not paused. The port is its device's egress
// source; what a dequeued frame means to the switch (buffer release, PFC,
// congestion control) is its owner's business (Owner::OnDequeued).
// An Object so that Config paths reach it (SwitchNode's PortList:
// /NodeList/<n>/$ns3::SwitchNode/PortList/<port>/QueueBytes).

#ifndef SWITCH_PORT_H
#define SWITCH_PORT_H

#include "fifo-ring.h"
#include "qbb-net-device.h"
#include "rocev2-packet.h"
#include "sim-fast.h"

#include "ns3/event-id.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace ns3
{

// final: the switch calls GetQueueBytes and the rest on SwitchPort itself,
// per frame; without it gcc guards each inlined call with a vtable compare.
class SwitchPort final : public Object, public QbbEgressSource
{
  public:
    static TypeId GetTypeId();

    /// A queued frame and what the switch learnt of it on the way in.
    struct Entry
    {
        QbbFramePtr frame;
        uint32_t inPort = 0;
        uint32_t frameBytes = 0;
        RocePktType type = RocePktType::OTHER;
        bool ecnCapable = false;
        bool hasInt = false;
        uint32_t ccFlow = 0; //!< SwitchCc's index of a data frame's flow (per-flow feedback)
    };

    class Owner
    {
      public:
        virtual ~Owner() = default;
        /// e left queue (port, prio); the port's byte counts no longer hold it.
        virtual void OnDequeued(SwitchPort& port, Entry& e, uint8_t prio) = 0;
    };

    SwitchPort(Owner* owner, uint32_t index, Ptr<QbbNetDevice> dev);
    ~SwitchPort() override;

    /// Queue e at priority prio, in the control class if control.
    void Enqueue(Entry e, uint8_t prio, bool control);
    /**
     * Enqueue in place, without moving an Entry: the slot the next entry of
     * (prio, class) goes into, to be filled whole (every field: it holds a
     * dequeued entry's leftovers) and then queued by Commit with the same
     * prio and control. Nothing may be queued on that port between the two.
     */
    Entry& Reserve(uint8_t prio, bool control);
    void Commit(uint8_t prio, bool control);

    /**
     * A frame that finds the port empty and its device free
     * (QbbNetDevice::IsFreeFor) leaves without the ring, through the same
     * steps in the same order: fill DirectSlot whole, CommitDirect (the
     * bytes count as queued, as Commit), then, inside the device's
     * BeginDirect/FinishDirect, DequeueDirect and the owner's OnDequeued
     * (what DequeueFrame does). If the device turned busy in between,
     * QueueDirect puts the entry in the ring instead.
     */
    Entry& DirectSlot()
    {
        return m_direct;
    }
    void CommitDirect(uint8_t prio)
    {
        AddBytes(prio, m_direct.frameBytes);
    }
    /// DirectSlot leaves: the counters and round-robin as DequeueFrame's;
    /// the owner then runs its OnDequeued on DirectSlot itself (no virtual call).
    void DequeueDirect(uint8_t prio, bool control)
    {
        if (!control)
        {
            m_rrNext = static_cast<uint8_t>((prio + 1) % QBB_N_PRIO); // DequeueFrame's round-robin
        }
        CountDequeue(m_direct, prio);
    }
    void QueueDirect(uint8_t prio, bool control);
    /// Whether QueueBytes has a sink: without one, no trace of this port runs user code.
    bool IsQueueBytesTraced() const
    {
        return !m_queueTrace.IsEmpty();
    }

    // QbbEgressSource
    QbbFramePtr DequeueFrame(const std::array<bool, QBB_N_PRIO>& paused, uint8_t& prioOut) override;
    /// Bytes of frames queued at prio, both classes.
    uint64_t GetQueueBytes(uint8_t prio) const override;
    bool HasPending() const override;
    /// m_total: the device reads it per frame instead of calling HasPending.
    const uint64_t* PendingCounter() const override
    {
        return &m_total;
    }

    /// Bytes of frames in all queues of the port.
    uint64_t GetPortBytes() const
    {
        return m_total;
    }
    /// The most bytes its queues held together since the start or the last
    /// ResetPeakPortBytes (kept at each enqueue: no trace callback per frame).
    uint64_t GetPeakPortBytes() const
    {
        return m_peakTotal;
    }
    /// Start a new peak from the bytes queued now.
    void ResetPeakPortBytes()
    {
        m_peakTotal = m_total;
    }
    /// Frames the port has handed to its device so far.
    uint64_t GetDequeuedFrames() const
    {
        return m_dequeued;
    }
    /// Time step of the last frame handed to the device (0 if none yet).
    int64_t GetLastDequeueStep() const
    {
        return m_lastDequeueStep;
    }
    uint32_t GetIndex() const
    {
        return m_index;
    }
    Ptr<QbbNetDevice> GetDevice() const
    {
        return m_dev;
    }
    /// GetDevice without the Ptr copy (its Ref and Unref), for the per-frame path.
    QbbNetDevice* PeekDevice() const
    {
        return PeekPointer(m_dev);
    }
    /// The PAUSE refresh the switch keeps while it holds this port's
    /// ingress XOFF for prio.
    EventId& PauseRefresh(uint8_t prio)
    {
        return m_refresh[prio];
    }
    /// Drop every queued frame and pending event (dispose).
    void Clear();
    /// Fire QueueBytes for prio (the owner calls it after each enqueue and dequeue).
    void NotifyQueueBytes(uint8_t prio)
    {
        m_queueTrace(prio, m_bytes[prio]);
    }

    /// Signature of "QueueBytes": priority, bytes now in that queue (both classes).
    typedef void (*QueueBytesCallback)(uint8_t prio, uint64_t bytes);

  protected:
    void DoDispose() override;

  private:
    static constexpr uint32_t CONTROL = 0;
    static constexpr uint32_t DATA = 1;

    void AddBytes(uint8_t prio, uint32_t bytes)
    {
        m_bytes[prio] += bytes;
        m_total += bytes;
        m_peakTotal = std::max(m_peakTotal, m_total);
    }
    /// e leaves queue prio: the byte counts and dequeue counters.
    void CountDequeue(const Entry& e, uint8_t prio)
    {
        m_bytes[prio] -= e.frameBytes;
        m_total -= e.frameBytes;
        m_dequeued++;
        m_lastDequeueStep = SimNowStep();
    }

    Owner* m_owner;
    uint32_t m_index;
    Ptr<QbbNetDevice> m_dev;
    std::array<std::array<FifoRing<Entry>, 2>, QBB_N_PRIO> m_q;
    Entry m_direct; //!< a frame leaving without the ring (DirectSlot)
    std::array<uint64_t, QBB_N_PRIO> m_bytes{};
    uint64_t m_total = 0;
    uint64_t m_peakTotal = 0;
    uint64_t m_dequeued = 0;
    int64_t m_lastDequeueStep = 0;
    uint8_t m_rrNext = 0;
    std::array<uint32_t, 2> m_nonEmpty{}; //!< per class, bit p: queue of priority p has frames
    std::array<EventId, QBB_N_PRIO> m_refresh;
    TracedCallback<uint8_t, uint64_t> m_queueTrace;
};

// Per packet: inline.

inline void
SwitchPort::Enqueue(Entry e, uint8_t prio, bool control)
{
    Reserve(prio, control) = std::move(e);
    Commit(prio, control);
}

inline SwitchPort::Entry&
SwitchPort::Reserve(uint8_t prio, bool control)
{
    return m_q[prio][control ? CONTROL : DATA].BackSlot();
}

inline void
SwitchPort::Commit(uint8_t prio, bool control)
{
    uint32_t cls = control ? CONTROL : DATA;
    FifoRing<Entry>& q = m_q[prio][cls];
    uint32_t bytes = q.CommitBack().frameBytes;
    m_nonEmpty[cls] |= 1u << prio;
    AddBytes(prio, bytes);
}

inline uint64_t
SwitchPort::GetQueueBytes(uint8_t prio) const
{
    return prio < QBB_N_PRIO ? m_bytes[prio] : 0;
}

} // namespace ns3

#endif
