// SPDX-License-Identifier: GPL-2.0-only
//
// QbbChannel: a full-duplex point-to-point wire between two QbbNetDevices
// with a fixed propagation delay. Each direction is independent; the
// sending device serializes, the channel only adds Delay.
#ifndef QBB_CHANNEL_H
#define QBB_CHANNEL_H

#include "event-pool.h"
#include "fast-simulator-impl.h"
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
    /// Out of line: RxEvent is complete only in qbb-channel.cc.
    ~QbbChannel() override;

    /// Attach a device; a third one is refused (returns false).
    bool Attach(Ptr<QbbNetDevice> device);
    /**
     * The frame's first bit leaves src now and its last bit after txTime;
     * the peer receives it txTime + Delay from now. The Ethernet framing is
     * not carried in the frame (it is line time only).
     */
    /// txSteps: the frame's line time in simulator time steps.
    /// Takes the frame (frame is null after), by reference: no temporary per hop.
    void Transmit(QbbFramePtr&& frame, const QbbNetDevice* src, int64_t txSteps);
    /// Frames checked by VerifyWireFormat, and those whose fields did not survive their bytes.
    uint64_t GetWireChecks() const;
    uint64_t GetWireMismatches() const;
    Ptr<QbbNetDevice> GetPeer(Ptr<const QbbNetDevice> self) const;
    Time GetDelay() const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

    /**
     * A link between two ranks (docs/distributed.md): after both devices
     * are attached and their nodes carry their system ids, a direction
     * whose receiver is on another rank than this process
     * (Simulator::GetSystemId()) sends its frames there as bytes
     * (QbbFrameEncode), and the direction whose receiver is here takes
     * them from the peer. portBase and portBase + 1 (one per direction)
     * must be the same on every rank. Under FastSimulatorImpl's distributed
     * Run the channel does it itself; QbbRemoteChannel (libns3-libcc-mpi)
     * adds ns-3's own MPI engines. A zero Delay is refused (false): the
     * ranks' lookahead is the smallest delay of such a link.
     */
    bool EnableRemote(uint32_t portBase);
    /// Whether its two ends' nodes have different system ids (MPI ranks).
    bool JoinsTwoRanks() const;
    /// Frames sent to and received from the other rank.
    uint64_t GetRemoteTx() const
    {
        return m_remoteTx;
    }
    uint64_t GetRemoteRx() const
    {
        return m_remoteRx;
    }

  protected:
    void DoDispose() override;
    /**
     * Carry a frame to the receiver m_dev[d], on another rank, arriving at
     * time step arrival. The base class uses FastSimulatorImpl's rank link
     * and fails otherwise.
     */
    virtual void TransmitRemote(uint32_t d, QbbFramePtr frame, int64_t arrival);
    /// A frame from the other rank for m_dev[d], arriving now (ns-3's engines).
    void ReceiveRemoteNow(uint32_t d, QbbFramePtr frame);
    /// Called by EnableRemote once the ends are known (QbbRemoteChannel
    /// hooks ns-3's MpiReceivers here).
    virtual void EnableRemoteEnds()
    {
    }
    void CountRemoteTx()
    {
        m_remoteTx++;
    }
    /// The device index of dev (0 or 1), 2 if not attached.
    uint32_t IndexOf(const NetDevice* dev) const;

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
    /// The event context (node id) of end d, looked up once it has a node
    /// (inline: it is read per frame).
    uint32_t ContextOf(uint32_t d)
    {
        return __builtin_expect(m_ctxKnown[d], 1) ? m_ctx[d] : LookUpContext(d);
    }
    [[gnu::cold, gnu::noinline]] uint32_t LookUpContext(uint32_t d);
    void ClearInFlight();
    Direction m_dir[2];

    /// One direction's port for FastSimulatorImpl's rank link.
    class RemotePort : public FastRemotePort
    {
      public:
        QbbChannel* m_ch = nullptr;
        uint32_t m_d = 0;
        void Deliver(uint64_t ts, uint64_t key, const uint8_t* data, uint32_t len) override;
    };
    struct Remote
    {
        bool active = false; //!< frames towards this end cross ranks
        uint32_t rank = 0;   //!< the receiving end's rank
        uint32_t port = 0;
        RemotePort in;       //!< receives them, when the end is here
    };
    Remote m_remote[2];
    std::vector<uint8_t> m_wire; //!< scratch for one encoded frame
    uint64_t m_remoteTx = 0;
    uint64_t m_remoteRx = 0;
};

} // namespace ns3

#endif // QBB_CHANNEL_H
