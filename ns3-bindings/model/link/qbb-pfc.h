// SPDX-License-Identifier: GPL-2.0-only
//
// QbbPfc: the IEEE 802.1Qbb Priority Flow Control of one QbbNetDevice, kept
// beside its transmit machine (as ns-3's PointToPointNetDevice keeps its
// own small): the PAUSE frames the node asked to send, which go out ahead of
// data but never preempt a frame on the wire; until when the peer paused
// each priority, and the event that ends a pause; the PAUSE and RESUME
// counters. The device asks it which priorities are paused before each
// frame and hands it every MAC control frame that arrives.

#ifndef QBB_PFC_H
#define QBB_PFC_H

#include "fifo-ring.h"
#include "qbb-frame.h"

#include "ns3/event-id.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>

namespace ns3
{

class QbbNetDevice;

/// Number of IEEE 802.1Qbb priorities.
constexpr uint32_t QBB_N_PRIO = 8;

class QbbPfc
{
  public:
    /// dev: whose line rate times a pause and whose transmit a resume
    /// kicks; txTrace and rxTrace: its PfcTx and PfcRx trace sources.
    QbbPfc(QbbNetDevice* dev, TracedCallback<uint8_t, uint16_t>& txTrace,
           TracedCallback<uint8_t, uint16_t>& rxTrace);
    QbbPfc(const QbbPfc&) = delete;
    QbbPfc& operator=(const QbbPfc&) = delete;

    /// Queue a PAUSE of prio for quanta (0: RESUME) and count it; the
    /// caller kicks the device. prio < QBB_N_PRIO.
    void Queue(uint8_t prio, uint16_t quanta);
    bool HasQueued() const
    {
        return !m_queue.Empty();
    }
    /// The oldest queued PAUSE frame (HasQueued()).
    QbbFramePtr PopQueued()
    {
        return m_queue.Pop();
    }

    /// Which priorities the peer pauses at time step now. Until a PAUSE
    /// ever arrived none is, and the clock is not read.
    void GetPaused(int64_t now, std::array<bool, QBB_N_PRIO>& paused) const
    {
        if (m_pauseSeen)
        {
            for (uint32_t p = 0; p < QBB_N_PRIO; p++)
            {
                paused[p] = m_pausedUntil[p] > now;
            }
        }
    }
    /// The time step the current pause of prio ends (<= now if not paused).
    int64_t GetPausedUntil(uint8_t prio) const
    {
        return m_pausedUntil[prio];
    }

    /// A MAC control frame arrived (Ethernet framing removed). True if a
    /// priority resumed, so the device may send again now.
    bool Receive(Ptr<Packet> frame);

    uint64_t GetPausesSent(uint8_t prio) const
    {
        return m_pausesSent[prio];
    }
    uint64_t GetPausesReceived(uint8_t prio) const
    {
        return m_pausesRcvd[prio];
    }
    uint64_t GetResumesSent(uint8_t prio) const
    {
        return m_resumesSent[prio];
    }
    uint64_t GetResumesReceived(uint8_t prio) const
    {
        return m_resumesRcvd[prio];
    }

    /// Cancel the pause timers and drop the queued frames (the device is disposed).
    void Dispose();

  private:
    /// The pause of prio ran out: the device may send it again.
    void Expired(uint8_t prio);

    QbbNetDevice* m_dev; //!< the owner (raw: it owns this object)
    TracedCallback<uint8_t, uint16_t>& m_txTrace;
    TracedCallback<uint8_t, uint16_t>& m_rxTrace;
    /// A PFC PAUSE was ever received: until then no priority can be paused
    /// and GetPaused skips reading the clock.
    bool m_pauseSeen = false;
    /// PAUSE frames waiting for the line; a ring, allocated at the first
    /// one (a std::deque allocates 576 bytes per device up front).
    FifoRing<QbbFramePtr> m_queue;
    /// Time step each priority's pause ends: steps, not Times, which ns-3
    /// records one by one (Time::Mark) while the resolution may change.
    std::array<int64_t, QBB_N_PRIO> m_pausedUntil{};
    std::array<EventId, QBB_N_PRIO> m_pauseEvent;
    std::array<uint64_t, QBB_N_PRIO> m_pausesSent{};
    std::array<uint64_t, QBB_N_PRIO> m_pausesRcvd{};
    std::array<uint64_t, QBB_N_PRIO> m_resumesSent{};
    std::array<uint64_t, QBB_N_PRIO> m_resumesRcvd{};
};

} // namespace ns3

#endif // QBB_PFC_H
