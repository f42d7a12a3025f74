// SPDX-License-Identifier: GPL-2.0-only
//
// QbbFrame: what a QbbNetDevice carries across a link. Our own nodes (RDMA
// NIC, switch) exchange RoCEv2 packets as parsed header fields (`roce`), not
// as ns-3 Packets: building, copying, parsing and editing Packet bytes was
// most of the per-hop cost (docs/performance.md). The wire format stays the
// one of rocev2-codec: every frame serializes to exactly the bytes a Packet
// would have had (RoceBuild), which is what pcap files, PhyTx/PhyRx traces
// and Packet-based receivers get, and what the channel's VerifyWireFormat
// mode checks on every hop (a frame must parse back to its own fields).
//
// A frame from a Packet-based source (QbbEgressSource::DequeueNext, e.g. a
// test host) or a PAUSE frame carries its bytes in `packet` instead.
//
// Frames come from a free list and go back to it when their QbbFramePtr is
// dropped: the per-packet path allocates nothing once warm.
#ifndef QBB_FRAME_H
#define QBB_FRAME_H

#include "rocev2-codec.h"

#include "ns3/packet.h"

#include <cstdint>
#include <memory>

namespace ns3
{

struct QbbFrame
{
    /// The IPv4 packet (or PFC body if macControl) as bytes; null when
    /// `roce` describes the packet.
    Ptr<Packet> packet;
    /// The RoCEv2 headers, when packet is null. INT hops hold the values
    /// the wire encoding keeps (see RoceIntHeader::QuantizeHop), as a parser would read them.
    RocePacketInfo roce;
    /// Bytes of the IPv4 packet (or of the PFC body).
    uint32_t ipBytes = 0;
    /// A MAC control (PFC) frame: packet holds its body.
    bool macControl = false;
    /// The Packet a device built from `roce` for its traces or pcap: the
    /// sender's traces build it, the receiver's reuse it, so both ends of a
    /// link report one Packet uid for the frame. The receiving device drops
    /// it before anyone may change `roce` (a switch forwarding the frame).
    Ptr<Packet> traced;

    /// The IPv4 packet as an ns-3 Packet: `packet` itself, or built from
    /// `roce`. Null if roce cannot be serialized.
    Ptr<Packet> ToPacket() const;
    /// ToPacket, built at most once per link: `packet`, else `traced`,
    /// else built from `roce` and kept in `traced`.
    Ptr<Packet> TracedPacket();

  private:
    friend struct QbbFrameRelease;
    friend class QbbFramePool;
    QbbFrame* m_nextFree = nullptr;
};

/// Gives a frame back to the pool (the deleter of QbbFramePtr).
struct QbbFrameRelease
{
    void operator()(QbbFrame* f) const;
};

/// The one owner of a frame in flight (a queue, a channel, a device).
using QbbFramePtr = std::unique_ptr<QbbFrame, QbbFrameRelease>;

/**
 * A frame from the pool with `roce` set to a default RocePacketInfo except
 * for the INT hop slots (only n_hops is reset: callers write the hops they
 * use), no packet, not MAC control.
 */
QbbFramePtr QbbFrameNew();
/// A frame carrying packet's bytes (macControl: a PFC body).
QbbFramePtr QbbFrameFromPacket(Ptr<Packet> packet, bool macControl);

/// Frames allocated so far (tests, memory figures): the pool's size.
uint64_t QbbFramesAllocated();

} // namespace ns3

#endif // QBB_FRAME_H
