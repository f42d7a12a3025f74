// SPDX-License-Identifier: GPL-2.0-only
//
// RoCEv2 packets as ns-3 Packets: the byte codec of rocev2-codec.h applied
// to a Packet's leading bytes (one copy out, one raw header back in), for
// code that works on Packets. The fabric itself carries parsed fields
// (qbb-frame.h) and uses these only when bytes are needed: pcap and traces,
// Packet-based hosts, and the switch's ECN mark on a packet that is not
// RoCEv2. Header fields, priority, ECN and checksums as rocev2-codec.h
// describes them.
#ifndef ROCEV2_PACKET_H
#define ROCEV2_PACKET_H

#include "rocev2-codec.h"

#include "ns3/packet.h"

namespace ns3
{

/// Build an IPv4 packet. Returns nullptr if a field is invalid (prio > 7,
/// ecn > 3, type OTHER, more hops than LIBCC_INT_MAX_HOPS, a hop that does
/// not encode).
Ptr<Packet> RoceBuild(const RocePacketInfo& info);

/// Parse an IPv4 packet without modifying it. Returns false for anything
/// that is not a well-formed RoCEv2 packet (info.type is then OTHER).
bool RoceParse(Ptr<const Packet> packet, RocePacketInfo& info);

/// The forwarding fields of the packet; false (key all defaults) if it is not IPv4.
bool RocePeekKey(Ptr<const Packet> packet, RoceFlowKey& key);

/// Rewrite the IPv4 ECN bits to CE (if the packet is ECN-capable). Returns
/// whether the packet was marked now (false if not ECT or already CE).
bool RoceMarkCe(Ptr<Packet> packet);

} // namespace ns3

#endif // ROCEV2_PACKET_H
