// SPDX-License-Identifier: GPL-2.0-only
//
// The RoCEv2 header codec on plain bytes: no ns-3 Packet, so the same
// functions serve a Packet's leading bytes (rocev2-packet.h) and any other
// buffer a host or switch keeps headers in. It writes and reads every header
// itself, IPv4 and UDP included.
//
// Packet layouts (after the IPv4 and UDP headers):
//   DATA, PROBE  BTH(12) | RETH(16) | [TS(8)] [PINT(2)] | [INT(2 + 8n) if BTH INT flag] | payload
//   ACK, NACK    BTH(12) | AETH(16) | [TS(8)] [NIC TS(16)] [PINT(2)] [HOPS(1)] | INT(2 + 8n)
//                (INT header always present)
//   CNP          BTH(12) | CNP(16)
//   FEEDBACK     BTH(12) | FB(16)
// The optional fields between the extension header and INT are the signals
// libcc_algorithm_info.signals asks a host to carry (docs/signals.md): a
// BTH flag (data) or an AETH flag (ACK) says each one is present.
// The INT header is rocev2-header.h's.
//
// Priority: carried in the IPv4 DSCP as class selector CSp, i.e.
// TOS = (prio << 5) | ECN; a switch maps DSCP >> 3 back to the priority.
// ECN: the two low TOS bits (Not-ECT / ECT(1) / ECT(0) / CE).
// The IPv4 checksum is computed; UDP checksum 0 as RoCEv2 sends it; the
// RoCEv2 ICRC is not modelled.
#ifndef ROCEV2_CODEC_H
#define ROCEV2_CODEC_H

#include "rocev2-header.h"

#include "ns3/ipv4-address.h"

#include "libcc/libcc.h"

#include <cstdint>
#include <ostream>

namespace ns3
{

/// UDP destination port of RoCEv2.
constexpr uint16_t ROCEV2_UDP_PORT = 4791;
/// IPv4 TTL a host sends with; switches decrement it, so a receiver counts
/// the switches a packet crossed as ROCE_INITIAL_TTL - ttl.
constexpr uint8_t ROCE_INITIAL_TTL = 64;

/// Wire opcodes of the BTH (first byte).
enum RoceOpcode : uint8_t
{
    ROCE_OP_DATA = 0x0A,  //!< RC RDMA WRITE Only
    ROCE_OP_PROBE = 0x0B, //!< RC RDMA WRITE Only with Immediate, zero payload: HPCC++ probe
    ROCE_OP_ACK = 0x11,   //!< RC Acknowledge; ACK or NACK by the AETH syndrome
    ROCE_OP_CNP = 0x81,   //!< RoCEv2 Congestion Notification Packet
    /// A congestion point's rate feedback to a flow's source
    /// (LIBCC_SIGNAL_CP_FEEDBACK). Not an InfiniBand opcode: 0x82 sits
    /// beside the CNP's in the manufacturer-specific range.
    ROCE_OP_FEEDBACK = 0x82,
};

/**
 * Base Transport Header, the real BTH layout:
 *   opcode(8) | flags(8) | P_Key(16) | reserved(8) | dest QP(24) |
 *   AckReq(1) reserved(7) | PSN(24)
 * The flags byte (SE/M/Pad/TVer in InfiniBand) carries this simulator's
 * flags: LAST (last packet of the message) and INT (an INT header follows
 * the opcode's extension header).
 */
constexpr uint32_t ROCE_BTH_BYTES = 12;
constexpr uint8_t ROCE_BTH_FLAG_LAST = 0x01;
constexpr uint8_t ROCE_BTH_FLAG_INT = 0x02;
/// DATA/PROBE: an 8-byte sender NIC transmit timestamp (ns) follows the RETH.
constexpr uint8_t ROCE_BTH_FLAG_TS = 0x04;
/// DATA/PROBE: a 2-byte PINT field follows (after TS if present).
constexpr uint8_t ROCE_BTH_FLAG_PINT = 0x08;

/**
 * RDMA Extended Transport Header: virtual address (64) | R_Key (32) | DMA
 * length (32). The VA is the byte offset of the packet's first payload byte
 * in the message (libcc's seq); DMA length its payload bytes.
 */
constexpr uint32_t ROCE_RETH_BYTES = 16;

/**
 * ACK Extended Transport Header (AETH-like):
 *   syndrome(8): 0x00 ACK, 0x60 NACK (PSN sequence error, as in InfiniBand)
 *   flags(8): bit 0 ECN echo (the acknowledged data packet was CE)
 *   N(16): FNCC concurrent flows at the receiver (0 = absent)
 *   Rx window(32): Rx-HPCC window in bytes (0 = absent; saturates at 2^32-1)
 *   seq(64): cumulative, next byte expected by the receiver
 */
constexpr uint32_t ROCE_AETH_BYTES = 16;
constexpr uint8_t ROCE_AETH_SYNDROME_ACK = 0x00;
constexpr uint8_t ROCE_AETH_SYNDROME_NACK = 0x60;
constexpr uint8_t ROCE_AETH_FLAG_ECN_ECHO = 0x01;
/// ACK/NACK optional fields after the AETH, in this order when present:
/// the echoed data transmit timestamp (8 bytes, sender's clock),
constexpr uint8_t ROCE_AETH_FLAG_TS = 0x02;
/// the receiver NIC's data arrival and ACK departure times (2 x 8 bytes),
constexpr uint8_t ROCE_AETH_FLAG_NIC_TS = 0x04;
/// the echoed PINT field (2 bytes),
constexpr uint8_t ROCE_AETH_FLAG_PINT = 0x08;
/// the number of switches the acked data crossed (1 byte).
constexpr uint8_t ROCE_AETH_FLAG_HOPS = 0x10;
/**
 * Feedback body (FB): rate(64) bits/s | switch id(32) | port id(32). The
 * packet is addressed as the flow's ACKs are (IP source the data's
 * destination, UDP source port the data's, dest QP the data's), so it takes
 * the ACKs' path back and the source NIC finds the queue pair by (IP
 * source, dest QP).
 */
constexpr uint32_t ROCE_FB_BYTES = 16;

/// RoCEv2 CNP body: 16 reserved bytes (zero), as in the RoCEv2 annex.
constexpr uint32_t ROCE_CNP_BYTES = 16;

/// What a RoCEv2 packet is, independent of wire opcodes.
enum class RocePktType : uint8_t
{
    DATA,
    ACK,
    NACK,
    CNP,
    PROBE,
    FEEDBACK, //!< a congestion point's rate for a flow (ROCE_OP_FEEDBACK)
    OTHER,    //!< not RoCEv2 (not UDP 4791 or unknown opcode)
};

/// IPv4 ECN codepoints (low two TOS bits).
enum RoceEcn : uint8_t
{
    ROCE_ECN_NOT_ECT = 0,
    ROCE_ECN_ECT1 = 1,
    ROCE_ECN_ECT0 = 2,
    ROCE_ECN_CE = 3,
};

/**
 * An IPv4 address as a RocePacketInfo holds it: the 32 bits, host order,
 * readable inline (Ipv4Address::Get is a call into ns-3, and a switch reads
 * both addresses of every frame at every hop). Converts to and from
 * Ipv4Address, so code and tests use it as one.
 */
class RoceAddr
{
  public:
    RoceAddr() = default;
    RoceAddr(Ipv4Address a) // NOLINT: implicit, stands in for an Ipv4Address
        : m_bits(a.Get())
    {
    }
    /// From the 32 bits, host order (what Ipv4Address(uint32_t) takes).
    explicit RoceAddr(uint32_t bits)
        : m_bits(bits)
    {
    }
    operator Ipv4Address() const // NOLINT: implicit, as above
    {
        return Ipv4Address(m_bits);
    }
    uint32_t Get() const
    {
        return m_bits;
    }

  private:
    uint32_t m_bits = 0;
};

inline bool
operator==(RoceAddr a, RoceAddr b)
{
    return a.Get() == b.Get();
}

inline bool
operator!=(RoceAddr a, RoceAddr b)
{
    return a.Get() != b.Get();
}

// Mixed comparisons, exact matches (either conversion would be ambiguous).
inline bool
operator==(RoceAddr a, const Ipv4Address& b)
{
    return a.Get() == b.Get();
}

inline bool
operator==(const Ipv4Address& a, RoceAddr b)
{
    return a.Get() == b.Get();
}

inline bool
operator!=(RoceAddr a, const Ipv4Address& b)
{
    return a.Get() != b.Get();
}

inline bool
operator!=(const Ipv4Address& a, RoceAddr b)
{
    return a.Get() != b.Get();
}

inline std::ostream&
operator<<(std::ostream& os, RoceAddr a)
{
    return os << Ipv4Address(a);
}

/// Every field a RoCEv2 packet can carry; fields a type does not use are ignored.
struct RocePacketInfo
{
    RocePktType type = RocePktType::DATA;
    RoceAddr src;
    RoceAddr dst;
    uint16_t sport = 49152; //!< UDP source port: per-QP entropy for ECMP
    uint16_t dport = ROCEV2_UDP_PORT;
    uint8_t prio = 3;            //!< 0..7, DSCP class selector
    uint8_t ecn = ROCE_ECN_ECT0; //!< RoceEcn
    uint8_t ttl = ROCE_INITIAL_TTL;
    uint32_t destQp = 0; //!< 24 bits
    uint32_t psn = 0;    //!< 24 bits
    bool ackReq = false;
    bool last = false; //!< last packet of the message
    // DATA / PROBE
    uint64_t seq = 0;          //!< byte offset of the first payload byte
    uint32_t payloadBytes = 0; //!< zero-filled payload (PROBE: 0)
    bool hasInt = false;       //!< DATA/PROBE: carries an INT header; ACK/NACK: always
    uint8_t intFormat = RoceIntHeader::FORMAT_HPCC;
    // ACK / NACK
    uint64_t ackSeq = 0;   //!< next byte expected
    uint16_t nFlows = 0;   //!< FNCC N (0: absent)
    uint32_t rxWindow = 0; //!< Rx-HPCC window bytes (0: absent)
    bool ecnEcho = false;
    // Signals (optional fields; see the layouts above)
    bool hasTxTs = false; //!< DATA/PROBE: sender's transmit stamp; ACK/NACK: its echo
    uint64_t txTsNs = 0;
    bool hasPint = false; //!< DATA/PROBE: PINT field; ACK/NACK: its echo
    uint16_t pint = 0;
    bool hasNicTs = false; //!< ACK/NACK: receiver NIC timestamps
    uint64_t remoteRxNs = 0;
    uint64_t remoteTxNs = 0;
    bool hasHops = false; //!< ACK/NACK: switches the acked data crossed
    uint8_t hops = 0;
    // FEEDBACK
    uint64_t fbRateBps = 0;
    uint32_t fbSwitchId = 0;
    uint32_t fbPortId = 0;
    /// Hops (n_hops == 0 for an empty INT header). Last, so that a reused
    /// RocePacketInfo can be reset without its hundreds of bytes of hop slots.
    libcc_int_list ints{};
};

/// Bytes of the IPv4 packet RoceBuild makes for info (IP header included).
uint32_t RocePacketBytes(const RocePacketInfo& info);
/// Header bytes of a DATA packet (IPv4 .. RETH, plus INT of nHops if hasInt).
uint32_t RoceDataHeaderBytes(bool hasInt, uint32_t nHops);
/// Bytes of the optional signal fields info carries (zero when it carries none).
uint32_t RoceSignalBytes(const RocePacketInfo& info);

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
    /// Hops in the INT header if hasInt and the header is whole (all its
    /// bytes read, at most LIBCC_INT_MAX_HOPS hops), else -1.
    int8_t intHops = -1;
};
/// Largest header block the codec writes: IPv4 without options, UDP, BTH,
/// RETH/AETH, the largest INT header.
/// Most bytes of optional signal fields a packet carries (an ACK with all four).
constexpr uint32_t ROCE_MAX_SIGNAL_BYTES = 8 + 16 + 2 + 1;
constexpr uint32_t ROCE_MAX_HEADER_BYTES = 20 + 8 + ROCE_BTH_BYTES + ROCE_RETH_BYTES +
                                           ROCE_MAX_SIGNAL_BYTES + RoceIntHeader::BASE_BYTES +
                                           RoceIntHeader::HOP_BYTES * LIBCC_INT_MAX_HOPS;
/// Largest leading block a parser reads: as above with a 60-byte IPv4 header.
constexpr uint32_t ROCE_MAX_PARSE_BYTES = ROCE_MAX_HEADER_BYTES + 40;

/**
 * Write every header of info into b (at least ROCE_MAX_HEADER_BYTES); the
 * payload (info.payloadBytes of DATA) is not written but counted in the
 * IPv4 and UDP lengths. Returns the header bytes, 0 if a field is invalid
 * (prio > 7, ecn > 3, type OTHER, too many hops, a hop that does not encode).
 */
uint32_t RoceWriteHeaders(const RocePacketInfo& info, uint8_t* b);

/**
 * Parse the leading n bytes of an IPv4 packet of ipBytes bytes in all
 * (n may stop short of the payload). False, info.type OTHER, for anything
 * that is not a well-formed RoCEv2 packet.
 */
bool RoceParseHeaders(const uint8_t* b, uint32_t n, uint32_t ipBytes, RocePacketInfo& info);

/// The forwarding fields of the leading n bytes (ports of UDP and TCP). False if not IPv4.
bool RocePeekKeyBytes(const uint8_t* b, uint32_t n, RoceFlowKey& key);

/**
 * Set the ECN bits of an IPv4 header (its first n bytes, n >= IHL) to CE
 * and fix its checksum. Returns whether it was marked now (false if not
 * ECN-capable, already CE, or not a whole IPv4 header).
 */
bool RoceMarkCeBytes(uint8_t* b, uint32_t n);

/**
 * Whether a and b are the same packet on the wire: every field the codec
 * writes and parses (for the INT list, the hops in use and the wrap widths;
 * fields a type does not carry are ignored). What the fabric's
 * VerifyWireFormat mode compares a frame's fields with their parsed bytes by.
 */
bool RoceWireEqual(const RocePacketInfo& a, const RocePacketInfo& b);

} // namespace ns3

#endif // ROCEV2_CODEC_H
