// SPDX-License-Identifier: GPL-2.0-only
//
// Build and parse whole RoCEv2 packets (IPv4 | UDP | BTH | ...; see
// rocev2-header.h for the layouts) so hosts and switches share one codec.
//
// Priority: carried in the IPv4 DSCP as class selector CSp, i.e.
// TOS = (prio << 5) | ECN; a switch maps DSCP >> 3 back to the priority.
// ECN: the two low TOS bits (Not-ECT / ECT(1) / ECT(0) / CE).
// IPv4 and UDP checksums are computed (UDP checksum 0 is allowed by IPv4
// but Wireshark shows real ones); the RoCEv2 ICRC is not modelled.
#ifndef ROCEV2_PACKET_H
#define ROCEV2_PACKET_H

#include "rocev2-header.h"

#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/packet.h"

#include "libcc/libcc.h"

#include <cstdint>

namespace ns3
{

/// What a RoCEv2 packet is, independent of wire opcodes.
enum class RocePktType : uint8_t
{
    DATA,
    ACK,
    NACK,
    CNP,
    PROBE,
    OTHER, //!< not RoCEv2 (not UDP 4791 or unknown opcode)
};

/// IPv4 ECN codepoints (low two TOS bits).
enum RoceEcn : uint8_t
{
    ROCE_ECN_NOT_ECT = 0,
    ROCE_ECN_ECT1 = 1,
    ROCE_ECN_ECT0 = 2,
    ROCE_ECN_CE = 3,
};

/// Every field a RoCEv2 packet can carry; fields a type does not use are ignored.
struct RocePacketInfo
{
    RocePktType type = RocePktType::DATA;
    Ipv4Address src;
    Ipv4Address dst;
    uint16_t sport = 49152; //!< UDP source port: per-QP entropy for ECMP
    uint16_t dport = ROCEV2_UDP_PORT;
    uint8_t prio = 3;            //!< 0..7, DSCP class selector
    uint8_t ecn = ROCE_ECN_ECT0; //!< RoceEcn
    uint8_t ttl = 64;
    uint32_t destQp = 0; //!< 24 bits
    uint32_t psn = 0;    //!< 24 bits
    bool ackReq = false;
    bool last = false; //!< last packet of the message
    // DATA / PROBE
    uint64_t seq = 0;          //!< byte offset of the first payload byte
    uint32_t payloadBytes = 0; //!< zero-filled payload (PROBE: 0)
    bool hasInt = false;       //!< DATA/PROBE: carries an INT header; ACK/NACK: always
    uint8_t intFormat = RoceIntHeader::FORMAT_HPCC;
    libcc_int_list ints{}; //!< hops (n_hops == 0 for an empty INT header)
    // ACK / NACK
    uint64_t ackSeq = 0;   //!< next byte expected
    uint16_t nFlows = 0;   //!< FNCC N (0: absent)
    uint32_t rxWindow = 0; //!< Rx-HPCC window bytes (0: absent)
    bool ecnEcho = false;
};

/// Bytes of the IPv4 packet RoceBuild makes for info (IP header included).
uint32_t RocePacketBytes(const RocePacketInfo& info);
/// Header bytes of a DATA packet (IPv4 .. RETH, plus INT of nHops if hasInt).
uint32_t RoceDataHeaderBytes(bool hasInt, uint32_t nHops);

/// Build an IPv4 packet. Returns nullptr if a field is invalid (prio > 7,
/// ecn > 3, type OTHER, more hops than LIBCC_INT_MAX_HOPS, a hop that does
/// not encode).
Ptr<Packet> RoceBuild(const RocePacketInfo& info);

/// Parse an IPv4 packet without modifying it. Returns false for anything
/// that is not a well-formed RoCEv2 packet (info.type is then OTHER).
bool RoceParse(Ptr<const Packet> packet, RocePacketInfo& info);

/// Just the fields a switch forwards on, read from raw bytes (no header
/// objects): cheap enough for every packet.
struct RoceFlowKey
{
    uint32_t src = 0; //!< host order
    uint32_t dst = 0;
    uint16_t sport = 0;
    uint16_t dport = 0;
    uint8_t proto = 0;
    uint8_t prio = 0; //!< DSCP >> 3
    uint8_t ecn = 0;
    RocePktType type = RocePktType::OTHER;
    bool hasInt = false;
    /// Hops in the INT header if hasInt and the header is whole (what
    /// RoceIntEditor::Open accepts), else -1.
    int8_t intHops = -1;
};
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
 * (unchanged: the packet is left as it is). A switch uses it once per
 * INT-carrying packet per hop.
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
    uint8_t m_oldInt[RoceIntHeader::BASE_BYTES + RoceIntHeader::HOP_BYTES * LIBCC_INT_MAX_HOPS] = {};
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

/// RFC 1071 checksum of an IPv4 header of ihl bytes (its checksum field ignored).
uint16_t RoceIpv4Checksum(const uint8_t* header, uint32_t ihl);

} // namespace ns3

#endif // ROCEV2_PACKET_H
