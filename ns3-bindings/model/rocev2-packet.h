// SPDX-License-Identifier: GPL-2.0-only
//
// RoCEv2 packets as ns-3 Packets: the byte codec of rocev2-codec.h applied
// to a Packet's leading bytes (one copy out, one raw header back in), for
// code that works on Packets. The fabric itself carries parsed fields
// (qbb-frame.h) and uses these only when bytes are needed.
//
// Priority: carried in the IPv4 DSCP as class selector CSp, i.e.
// TOS = (prio << 5) | ECN; a switch maps DSCP >> 3 back to the priority.
// ECN: the two low TOS bits (Not-ECT / ECT(1) / ECT(0) / CE).
// IPv4 and UDP checksums are computed (UDP checksum 0 is allowed by IPv4
// but Wireshark shows real ones); the RoCEv2 ICRC is not modelled.
#ifndef ROCEV2_PACKET_H
#define ROCEV2_PACKET_H

#include "rocev2-codec.h"
#include "rocev2-header.h"

#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/packet.h"

#include "libcc/libcc.h"

#include <cstdint>

namespace ns3
{

/// Build an IPv4 packet. Returns nullptr if a field is invalid (prio > 7,
/// ecn > 3, type OTHER, more hops than LIBCC_INT_MAX_HOPS, a hop that does
/// not encode).
Ptr<Packet> RoceBuild(const RocePacketInfo& info);

/// Parse an IPv4 packet without modifying it. Returns false for anything
/// that is not a well-formed RoCEv2 packet (info.type is then OTHER).
bool RoceParse(Ptr<const Packet> packet, RocePacketInfo& info);

/// False if the packet is not IPv4 (then only nothing is valid).
bool RocePeekKey(Ptr<const Packet> packet, RoceFlowKey& key);

/// Rewrite the IPv4 ECN bits to CE (if the packet is ECN-capable). Returns
/// whether the packet was marked now (false if not ECT or already CE).
bool RoceMarkCe(Ptr<Packet> packet);

/// Decode the INT hop list of a packet that has one (DATA/PROBE with the
/// flag, ACK/NACK). False if none or malformed.
bool RoceGetInt(Ptr<const Packet> packet, libcc_int_list& list, uint8_t& format);

/// Append one hop to the packet's INT header (the packet grows by 8 bytes;
/// IPv4 and UDP lengths and checksums are updated). False if the packet has
/// no INT header, it is full, or the hop does not encode.
bool RoceAppendIntHop(Ptr<Packet> packet, const libcc_int_hop& hop);

/**
 * Edit a packet's INT header in place: Open reads the bytes from the IPv4
 * header to the end of the INT header (one copy, no header objects); Close,
 * if the INT header changed, replaces them with one raw block with the IPv4
 * total length and checksum and the UDP length fixed for the hops added
 * (unchanged: the packet is left as it is). RoceAppendIntHop is one Open,
 * a push and a Close; Packet-based code can edit several hops at once.
 */
class RoceIntEditor
{
  public:
    /// False (packet untouched) if the packet carries no INT header.
    bool Open(Ptr<Packet> packet);
    RoceIntHeader& Int();
    /// Restore the headers. Must follow a successful Open.
    void Close();

  private:
    static constexpr uint32_t PREFIX_MAX = 60 + 8 + 12 + 16; //!< IPv4 with options .. RETH/AETH
    Ptr<Packet> m_packet;
    uint8_t m_prefix[PREFIX_MAX] = {};
    uint32_t m_prefixLen = 0;
    uint32_t m_ihl = 0;
    uint32_t m_oldIntLen = 0;
    /// The INT header as Open found it: Close leaves the packet alone if it
    /// is unchanged (one copy instead of a header removed and added back).
    uint8_t m_oldInt[RoceIntHeader::BASE_BYTES + RoceIntHeader::HOP_BYTES * LIBCC_INT_MAX_HOPS] =
        {};
    RoceIntHeader m_int;
};

/**
 * Bytes put back in front of a packet as they are (what RoceIntEditor and
 * RoceMarkCe use instead of a stack of header objects).
 */
class RoceRawHeader : public Header
{
  public:
    static constexpr uint32_t MAX_BYTES = 256;
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    RoceRawHeader();
    /// Copy len bytes (at most MAX_BYTES).
    void Set(const uint8_t* bytes, uint32_t len);
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    /// Reads as many bytes as the last Set (a raw block has no length field).
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

  private:
    uint8_t m_bytes[MAX_BYTES];
    uint32_t m_len;
};

} // namespace ns3

#endif // ROCEV2_PACKET_H
