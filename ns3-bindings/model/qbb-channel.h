// SPDX-License-Identifier: GPL-2.0-only
//
// QbbChannel: a full-duplex point-to-point wire between two QbbNetDevices
// with a fixed propagation delay. Each direction is independent; the
// sending device serializes, the channel only adds Delay.
#ifndef QBB_CHANNEL_H
#define QBB_CHANNEL_H

#include "event-pool.h"
#include "fifo-ring.h"
#include "qbb-frame.h"

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

namespace ns3
{

class QbbNetDevice;
class Packet;

class QbbChannel : public Channel
{
  public:
    static TypeId GetTypeId();
    QbbChannel();

    /// Attach a device; a third one is refused (returns false).
    bool Attach(Ptr<QbbNetDevice> device);
    /**
     * The frame's first bit leaves src now and its last bit after txTime;
     * the peer receives it txTime + Delay from now. The Ethernet framing is
     * not carried in the frame (it is line time only).
     */
    /// txSteps: the frame's line time in simulator time steps.
    void Transmit(QbbFramePtr frame, const QbbNetDevice* src, int64_t txSteps);
    /// Frames checked by VerifyWireFormat, and those whose fields did not survive their bytes.
    uint64_t GetWireChecks() const;
    uint64_t GetWireMismatches() const;
    Ptr<QbbNetDevice> GetPeer(Ptr<const QbbNetDevice> self) const;
    Time GetDelay() const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  protected:
    void DoDispose() override;

  private:
    void VerifyWire(const QbbFrame& frame);

    Time m_delay;
    bool m_verifyWire = false;
    uint64_t m_wireChecks = 0;
    uint64_t m_wireMismatches = 0;
    Ptr<QbbNetDevice> m_dev[2];
    std::size_t m_nDevices;
    /// Event context (node id) of each end, looked up once it has a node
    /// instead of through two Ptr copies and a virtual call per frame.
    uint32_t m_ctx[2] = {0, 0};
    bool m_ctxKnown[2] = {false, false};
    /**
     * Frames in flight per direction, oldest first, and one arrival event
     * per direction for the oldest. A direction's frames arrive in the
     * order they were sent, so only the next arrival needs to be in the
     * simulator's queue: the queue holds a handful of events instead of one
     * per frame on every wire, and each pop is cheaper. The event of the
     * next frame is scheduled when the one before it arrives.
     */
    struct InFlight
    {
        QbbFrame* frame = nullptr; //!< owned (a released QbbFramePtr)
        int64_t arrival = 0;       //!< time step its last bit arrives
    };
    class RxEvent;
    struct Direction
    {
        FifoRing<InFlight> frames;
        Ptr<RxEvent> event;
    };
    void Arrive(uint32_t d);
    void ClearInFlight();
    Direction m_dir[2];
};

} // namespace ns3

#endif // QBB_CHANNEL_H
