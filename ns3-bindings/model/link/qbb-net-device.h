// SPDX-License-Identifier: GPL-2.0-only
//
// QbbNetDevice: one end of a full-duplex point-to-point Ethernet link with
// eight priorities and IEEE 802.1Qbb Priority Flow Control (PFC).
//
// Egress is a PULL model, like a NIC or switch port scheduler: the owner
// (switch node or RDMA host) implements QbbEgressSource and calls
// TriggerTransmit() when it has new data; whenever the line goes idle the
// device asks the source for the next packet, telling it which priorities are
// paused. PAUSE frames the node asks for (SendPfc) are MAC control frames and
// go out ahead of anything the source offers, but never preempt a frame
// already on the wire. PFC's state and logic are a QbbPfc (qbb-pfc.h).
//
// What crosses the link is a QbbFrame (qbb-frame.h): an IPv4 packet (no
// Ethernet framing, which counts as line time only) as parsed RoCEv2 header
// fields between our own nodes, or as Packet bytes from a Packet-based
// source. Owners that speak frames implement DequeueFrame and
// QbbFrameReceiver; Packet-based owners (DequeueNext, SetQbbReceiveCallback,
// ns-3's ReceiveCallback) and a promiscuous listener get Packets built from
// the frames. pcap and the PhyTx/PhyRx traces see whole Ethernet frames,
// built only when someone listens, once per frame and link: the PhyTxBegin
// and the peer's PhyRxEnd (and pcap records) of a frame share its Packet uid.
//
// Transmit-complete: a frame's end is an event only if the source still has
// something queued when the frame starts (HasPending); an idle line just
// remembers when the frame ends, and a TriggerTransmit() before that time
// schedules the event then. Same frame times, one event fewer per frame on
// lightly loaded links (see docs/performance.md).
//
// Physics (see WireBytes): a frame of F = 14 + L + 4 bytes for an IPv4 packet
// of L bytes occupies the line for max(F, 64) + 20 bytes (8 preamble/SFD +
// 12 inter-frame gap) at DataRate. A frame arrives at the peer (and is
// handed up) when its last bit arrived: start + wire time + channel Delay.
#ifndef QBB_NET_DEVICE_H
#define QBB_NET_DEVICE_H

#include "qbb-frame.h"
#include "qbb-pfc.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <string>

namespace ns3
{

class QbbChannel;

/**
 * The owner of a QbbNetDevice's egress queues (plain interface, not an
 * Object). The source must outlive the device's use of it.
 */
class QbbEgressSource
{
  public:
    virtual ~QbbEgressSource() = default;
    /**
     * Called by the device when the line is idle. Return the next IPv4
     * packet to transmit, of a priority p with pausedPrio[p] == false, and
     * its priority in prioOut; or nullptr when nothing can be sent now (the
     * owner then calls TriggerTransmit() when that changes).
     */
    virtual Ptr<Packet> DequeueNext(const std::array<bool, QBB_N_PRIO>& pausedPrio,
                                    uint8_t& prioOut)
    {
        (void)pausedPrio;
        (void)prioOut;
        return nullptr;
    }
    /**
     * What the device calls: the next frame, as DequeueNext describes. The
     * default wraps DequeueNext's packet; our own nodes override it and hand
     * over parsed RoCEv2 frames without building a Packet.
     */
    virtual QbbFramePtr DequeueFrame(const std::array<bool, QBB_N_PRIO>& pausedPrio,
                                     uint8_t& prioOut)
    {
        Ptr<Packet> p = DequeueNext(pausedPrio, prioOut);
        return p ? QbbFrameFromPacket(p, false) : nullptr;
    }
    /**
     * Whether DequeueNext could return a packet at the end of the frame now
     * starting. False lets the device skip its transmit-complete event; the
     * owner must then call TriggerTransmit() when something new is queued
     * (it does anyway). True is always safe.
     */
    virtual bool HasPending() const
    {
        return true;
    }
    /**
     * A source whose HasPending() is "this counter is not zero" may give the
     * counter's address: the device reads it after each frame it starts
     * instead of calling HasPending (asked once, at SetEgressSource; the
     * counter must live as long as the source does). nullptr, the default:
     * the device calls HasPending.
     */
    virtual const uint64_t* PendingCounter() const
    {
        return nullptr;
    }
    /// Bytes queued for a priority (for traces and tests); 0 if unknown.
    virtual uint64_t GetQueueBytes(uint8_t prio) const
    {
        (void)prio;
        return 0;
    }
    /**
     * An IPv4 packet from the node's protocol stack (NetDevice::Send): queue
     * it for DequeueFrame and return true, or return false if it is not
     * taken (the device counts it as a MacTxDrop). The default takes
     * nothing: a switch port carries no traffic of its own node.
     */
    virtual bool EnqueuePacket(Ptr<Packet> packet)
    {
        (void)packet;
        return false;
    }
};

class QbbNetDevice;

/// A node that takes received frames as they are (no Packet built for it).
class QbbFrameReceiver
{
  public:
    virtual ~QbbFrameReceiver() = default;
    /// A non-PFC frame fully arrived on dev; the receiver owns it now (move
    /// from frame to keep it; what is left in it is freed after the call).
    /// By reference: no temporary per frame.
    virtual void ReceiveFrame(QbbNetDevice* dev, QbbFramePtr&& frame) = 0;
};

class QbbNetDevice : public NetDevice
{
  public:
    /// Ethernet II header (dst, src, type) without preamble.
    static constexpr uint32_t ETH_HEADER_BYTES = 14;
    /// Frame check sequence.
    static constexpr uint32_t ETH_FCS_BYTES = 4;
    /// Preamble + SFD (8) + minimum inter-frame gap (12): line time, not frame bytes.
    static constexpr uint32_t ETH_PREAMBLE_IFG_BYTES = 20;
    /// Minimum Ethernet frame, FCS included; shorter frames are padded on the wire.
    static constexpr uint32_t ETH_MIN_FRAME_BYTES = 64;
    /// MAC control EtherType (PAUSE / PFC).
    static constexpr uint16_t ETHERTYPE_MAC_CONTROL = 0x8808;
    static constexpr uint16_t ETHERTYPE_IPV4 = 0x0800;

    /// Frame bytes (header + packet + FCS) stored in a buffer for an IPv4 packet of ipBytes.
    static constexpr uint32_t FrameBytes(uint32_t ipBytes)
    {
        return ETH_HEADER_BYTES + ipBytes + ETH_FCS_BYTES;
    }
    /// Bytes of line time for an IPv4 packet of ipBytes: max(frame, 64) + 20.
    static constexpr uint32_t WireBytes(uint32_t ipBytes)
    {
        return (FrameBytes(ipBytes) < ETH_MIN_FRAME_BYTES ? ETH_MIN_FRAME_BYTES
                                                          : FrameBytes(ipBytes)) +
               ETH_PREAMBLE_IFG_BYTES;
    }
    /// Line bytes of a PAUSE frame: a 64-byte frame + 20.
    static constexpr uint32_t PAUSE_WIRE_BYTES = ETH_MIN_FRAME_BYTES + ETH_PREAMBLE_IFG_BYTES;

    static TypeId GetTypeId();
    QbbNetDevice();
    ~QbbNetDevice() override;

    /// Connect to a channel (at most two devices per channel).
    bool Attach(Ptr<QbbChannel> ch);

    /// The owner of the egress queues; not owned by the device.
    void SetEgressSource(QbbEgressSource* source);
    /// The owner has new data: start transmitting if the line is idle.
    void TriggerTransmit();
    /**
     * For an egress source that hands a frame straight to the line (a
     * SwitchPort whose queues are empty): whether a frame of priority prio
     * (< QBB_N_PRIO) queued now would leave at once on TriggerTransmit: the
     * line idle, no PAUSE frame waiting, prio not paused, not inside a
     * dequeue. Then BeginDirect, the source's own dequeue work, and
     * FinishDirect do what TriggerTransmit would, without asking the
     * source's DequeueFrame.
     */
    bool IsFreeFor(uint8_t prio, int64_t now) const
    {
        return !m_inDequeue && !m_txDonePending && now >= m_txEnd && m_channel && m_source &&
               !m_pfc.HasQueued() && m_pfc.GetPausedUntil(prio) <= now;
    }
    /// The source's dequeue starts: PFC it sends meanwhile waits behind the frame.
    void BeginDirect()
    {
        m_inDequeue = true;
    }
    /// The dequeued frame starts on the line now (after BeginDirect); frame is null after.
    void FinishDirect(QbbFramePtr&& frame, int64_t now)
    {
        m_inDequeue = false;
        uint32_t wire = WireBytes(frame->ipBytes);
        StartFrame(std::move(frame), wire, now);
    }

    typedef Callback<void, Ptr<QbbNetDevice>, Ptr<Packet>> QbbReceiveCallback;
    /// Received non-PFC packets (IPv4, Ethernet framing removed) go here.
    void SetQbbReceiveCallback(QbbReceiveCallback cb);
    /**
     * Received non-PFC frames go to receiver as frames (it must outlive the
     * device's use of it; nullptr detaches). Takes precedence over the
     * Packet callbacks.
     */
    void SetFrameReceiver(QbbFrameReceiver* receiver);

    /**
     * Ask the peer to stop sending priority prio for quanta x 512 bit times
     * at this link's rate; quanta 0 lets it resume at once. The PAUSE frame
     * goes out after the frame currently on the wire, before any data.
     */
    void SendPfc(uint8_t prio, uint16_t quanta);

    /// Whether this device's priority prio is paused by the peer now.
    bool IsPaused(uint8_t prio) const;
    /// When the current pause of prio ends (<= Now() if not paused).
    Time GetPausedUntil(uint8_t prio) const;
    DataRate GetDataRate() const;
    void SetDataRate(DataRate rate);
    /// Line time of wireBytes at DataRate, rounded down to the time resolution.
    Time LineTime(uint64_t wireBytes) const;
    /// Time of `bits` bit times at DataRate, rounded down (PAUSE: quanta x 512 bits).
    Time BitTime(uint64_t bits) const;
    /// Whether a frame is being serialized now.
    bool IsBusy() const;
    /// Transmit-complete events scheduled so far (one per frame at most).
    uint64_t GetTxDoneEvents() const;

    /// PAUSE frames (quanta > 0) sent / received for a priority.
    uint64_t GetPausesSent(uint8_t prio) const;
    uint64_t GetPausesReceived(uint8_t prio) const;
    /// RESUME frames (quanta 0) sent / received for a priority.
    uint64_t GetResumesSent(uint8_t prio) const;
    uint64_t GetResumesReceived(uint8_t prio) const;
    /// Wire bytes sent (WireBytes of every frame, PAUSE frames included).
    uint64_t GetTxBytes() const;
    /// Wire bytes received.
    uint64_t GetRxBytes() const;
    uint64_t GetTxPackets() const;
    /// Queue bytes of a priority as reported by the egress source.
    uint64_t GetQueueBytes(uint8_t prio) const;

    /**
     * Hand a received IPv4 packet to the node's protocol handlers (the
     * NetDevice receive callback Node::AddDevice installs), as ns-3's own
     * devices do. For a frame receiver that keeps some frames (RoCEv2) and
     * passes the others (IP traffic of the node's stack) up. False if no
     * receive callback is set.
     */
    bool ForwardUp(Ptr<Packet> packet);

    /// Write every frame this device sends and receives (DLT_EN10MB, no FCS)
    /// to filename, through the PromiscSniffer trace. QbbHelper::EnablePcap
    /// (ns-3's PcapHelperForDevice) names the files by node and device.
    void EnablePcap(const std::string& filename);

    /**
     * Random loss on receive, as the HPCC simulator's per-packet
     * RateErrorModel on a device: every arriving frame (data, ACK, CNP and
     * PAUSE alike) is dropped when a uniform draw in [0, 1) is below rate.
     * rate in [0, 1); 0 (the default) draws nothing. The draws come from an
     * ns-3 stream, seeded by RngSeed/RngRun: see AssignStreams.
     */
    void SetReceiveErrorRate(double rate);
    double GetReceiveErrorRate() const;
    /// Use stream `stream` for the loss draws; returns the streams used (1).
    int64_t AssignStreams(int64_t stream);
    /// Frames dropped by the receive error rate.
    uint64_t GetRxErrorDrops() const;

    /// Signature of the Frame trace: the frame, whether it is leaving
    /// (starts on the wire) or arriving (fully received and not lost).
    typedef void (*FrameTracedCallback)(const QbbFrame* frame, bool outgoing);

    /**
     * Called by the channel when the last bit of a frame arrived. Frames on
     * a QbbChannel carry their Ethernet framing as a length only (it costs
     * line time, see WireBytes, but no header objects per hop). Traces and
     * pcap see full frames, built only when someone listens.
     */
    void ReceiveFrame(QbbFramePtr&& frame)
    {
        // In line for the channel's arrival, per frame: the common case, a
        // data frame for a frame receiver with nothing lost, traced or
        // listening, takes these steps of ReceiveFrameFull and no call.
        if (m_rxErrorRate <= 0 && m_frameRx && !frame->macControl && !frame->traced &&
            m_frameTrace.IsEmpty() && m_sniffer.IsEmpty() && m_rxTrace.IsEmpty() &&
            m_promiscCallback.IsNull())
        {
            m_rxBytes += WireBytes(frame->ipBytes);
            m_frameRx->ReceiveFrame(this, std::move(frame));
            return;
        }
        ReceiveFrameFull(std::move(frame));
    }

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    /// Inline: a switch reads it per received frame (QbbNetDevice::GetIfIndex, not virtually).
    uint32_t GetIfIndex() const override
    {
        return m_ifIndex;
    }
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    /**
     * False, and IsBroadcast() true: an Ethernet port of a switched fabric,
     * as CsmaNetDevice is, not a PPP link. The node at the other end is
     * usually a SwitchNode, which is no IP node: ns-3's global routing takes
     * a point-to-point device's peer for an IP router (and aborts when it
     * has no Ipv4), but sees a broadcast port with no router behind it as
     * the stub network it is.
     */
    bool IsPointToPoint() const override;
    bool IsBridge() const override;
    /**
     * An IPv4 packet (protocolNumber 0x0800) from the node's stack goes to
     * the egress source's queue (QbbEgressSource::EnqueuePacket) and out to
     * the peer; dest is not used (one peer per link). False, and a
     * MacTxDrop, for any other protocol, a packet above the MTU, or a source
     * that does not take it.
     */
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    /// Send, if source is this device's address (frames carry no other); else false.
    bool SendFrom(Ptr<Packet> packet, const Address& source, const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    /**
     * Every received non-PFC frame goes to cb as an IPv4 Packet (PACKET_HOST:
     * a point-to-point link only carries frames for this end), before the
     * frame receiver or receive callback takes it, as on ns-3's
     * PointToPointNetDevice. PFC frames are MAC control, consumed here.
     */
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

    /// Signature of the PfcTx / PfcRx traces: priority and quanta.
    typedef void (*PfcTracedCallback)(uint8_t prio, uint16_t quanta);

  protected:
    void DoDispose() override;

  private:
    class TxDoneEvent;
    /// ReceiveFrame, every case.
    void ReceiveFrameFull(QbbFramePtr&& frame);
    // `now` is the current time step, passed down: one clock read per call chain.
    void TransmitNext(int64_t now);
    void TransmitComplete();
    /// Put the oldest queued PAUSE frame on the line; false if none is queued.
    bool StartQueuedPfc(int64_t now);
    /// Schedule the transmit-complete event at m_txEnd (once).
    void ScheduleTxDone(int64_t now);
    void StartFrame(QbbFramePtr&& frame, uint32_t wireBytes, int64_t now);
    /// A copy of packet with the Ethernet header (and FCS if withFcs) it travels in.
    Ptr<Packet> MakeFrame(Ptr<const Packet> packet, bool macControl, bool outgoing,
                          bool withFcs) const;
    Mac48Address PeerMac();
    /// A frame as pcap (PromiscSniffer) and a PhyTx/PhyRx trace see it
    /// (Ethernet header; FCS for the trace).
    void Tap(QbbFrame& frame, bool outgoing, const TracedCallback<Ptr<const Packet>>& trace);

    Ptr<Node> m_node;
    Ptr<QbbChannel> m_channel;
    QbbEgressSource* m_source;
    const uint64_t* m_pendingCounter = nullptr; //!< m_source's PendingCounter()
    QbbReceiveCallback m_qbbRx;
    QbbFrameReceiver* m_frameRx = nullptr;
    NetDevice::ReceiveCallback m_rxCallback;
    NetDevice::PromiscReceiveCallback m_promiscCallback;
    Mac48Address m_address;
    uint32_t m_ifIndex;
    uint16_t m_mtu;
    DataRate m_rate;
    /// m_rate in bits/s (DataRate::GetBitRate is a call into ns-3 per frame).
    uint64_t m_rateBps = 100000000000ull;
    /// Largest frame, in bits, whose serialization time fits 64-bit arithmetic.
    uint64_t m_maxBits64 = 0;
    bool m_inDequeue; //!< inside the source's DequeueNext: no re-entry
    int64_t m_txEnd;  //!< time step the frame on the line ends (past: line idle)
    bool m_txDonePending;
    uint64_t m_txDoneEvents = 0;
    uint64_t m_txCarry; //!< remainder (in 1/rate time steps) owed by back-to-back frames
    /// Time steps per second, taken at the first frame (the resolution is
    /// fixed by then): Seconds(1) is a 128-bit multiply per call.
    uint64_t m_stepsPerSecond = 0;
    /// The transmit-complete event, one object scheduled again for every
    /// frame that needs it (a device has one frame on the line at a time)
    /// instead of an event allocated and freed per frame.
    Ptr<TxDoneEvent> m_txDone;
    Mac48Address m_peerMac;
    bool m_peerMacKnown;
    uint64_t m_txBytes;
    uint64_t m_rxBytes;
    uint64_t m_txPackets;

    TracedCallback<uint8_t, uint16_t> m_pfcTxTrace;
    TracedCallback<uint8_t, uint16_t> m_pfcRxTrace;
    /// PAUSE frames to send, the peer's pauses, their counters (after the
    /// two traces it fires).
    QbbPfc m_pfc;
    TracedCallback<Ptr<const Packet>> m_txTrace; //!< frame starts on the wire (with FCS)
    TracedCallback<Ptr<const Packet>> m_rxTrace; //!< frame fully received (with FCS)

    TracedCallback<Ptr<const Packet>> m_macTxTrace;     //!< IP packet from the stack, taken
    TracedCallback<Ptr<const Packet>> m_macTxDropTrace; //!< IP packet from the stack, refused
    TracedCallback<Ptr<const Packet>> m_macRxTrace;     //!< IP packet handed up to the stack

    TracedCallback<const QbbFrame*, bool> m_frameTrace; //!< as fields, no Packet built
    double m_rxErrorRate = 0;
    Ptr<UniformRandomVariable> m_rxErrorRng;
    uint64_t m_rxErrorDrops = 0;
    TracedCallback<Ptr<const Packet>> m_sniffer; //!< both directions, no FCS (pcap)
};

} // namespace ns3

#endif // QBB_NET_DEVICE_H
