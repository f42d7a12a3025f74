// SPDX-License-Identifier: GPL-2.0-only
//
// RoCEv2-like transport headers carried in IPv4/UDP (destination port 4791).
// Packet layouts (after the IPv4 and UDP headers):
//   DATA, PROBE  BTH(12) | RETH(16) | [INT(2 + 8n) if BTH INT flag] | payload
//   ACK, NACK    BTH(12) | AETH(16) | INT(2 + 8n)   (INT header always present)
//   CNP          BTH(12) | CNP(16)
// Build and parse whole packets with rocev2-packet.h rather than by hand.
#ifndef ROCEV2_HEADER_H
#define ROCEV2_HEADER_H

#include "ns3/header.h"

#include "libcc/libcc.h"

#include <cstdint>

namespace ns3
{

/// UDP destination port of RoCEv2.
constexpr uint16_t ROCEV2_UDP_PORT = 4791;

/// Wire opcodes of the BTH (first byte).
enum RoceOpcode : uint8_t
{
    ROCE_OP_DATA = 0x0A,  //!< RC RDMA WRITE Only
    ROCE_OP_PROBE = 0x0B, //!< RC RDMA WRITE Only with Immediate, zero payload: HPCC++ probe
    ROCE_OP_ACK = 0x11,   //!< RC Acknowledge; ACK or NACK by the AETH syndrome
    ROCE_OP_CNP = 0x81,   //!< RoCEv2 Congestion Notification Packet
};

/**
 * Base Transport Header, 12 bytes, the real BTH layout:
 *   opcode(8) | flags(8) | P_Key(16) | reserved(8) | dest QP(24) |
 *   AckReq(1) reserved(7) | PSN(24)
 * The flags byte (SE/M/Pad/TVer in InfiniBand) carries this simulator's
 * flags: FLAG_LAST (last packet of the message) and FLAG_INT (an INT
 * header follows the opcode's extension header).
 */
class RoceBthHeader : public Header
{
  public:
    static constexpr uint8_t FLAG_LAST = 0x01;
    static constexpr uint8_t FLAG_INT = 0x02;
    static constexpr uint32_t SIZE = 12;

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    RoceBthHeader();

    void SetOpcode(uint8_t op);
    uint8_t GetOpcode() const;
    void SetFlags(uint8_t flags);
    uint8_t GetFlags() const;
    void SetPkey(uint16_t pkey);
    uint16_t GetPkey() const;
    /// 24 bits.
    void SetDestQp(uint32_t qp);
    uint32_t GetDestQp() const;
    void SetAckReq(bool ackReq);
    bool GetAckReq() const;
    /// 24 bits.
    void SetPsn(uint32_t psn);
    uint32_t GetPsn() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

  private:
    uint8_t m_opcode;
    uint8_t m_flags;
    uint16_t m_pkey;
    uint32_t m_destQp;
    bool m_ackReq;
    uint32_t m_psn;
};

/**
 * RDMA Extended Transport Header, 16 bytes: virtual address (64) | R_Key
 * (32) | DMA length (32). The VA is the byte offset of the packet's first
 * payload byte in the message (libcc's seq); DMA length its payload bytes.
 */
class RoceRethHeader : public Header
{
  public:
    static constexpr uint32_t SIZE = 16;
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    RoceRethHeader();

    void SetSeq(uint64_t seq);
    uint64_t GetSeq() const;
    void SetRkey(uint32_t rkey);
    uint32_t GetRkey() const;
    void SetLength(uint32_t len);
    uint32_t GetLength() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

  private:
    uint64_t m_seq;
    uint32_t m_rkey;
    uint32_t m_length;
};

/**
 * ACK Extended Transport Header (AETH-like), 16 bytes:
 *   syndrome(8): 0x00 ACK, 0x60 NACK (PSN sequence error, as in InfiniBand)
 *   flags(8): bit 0 ECN echo (the acknowledged data packet was CE)
 *   N(16): FNCC concurrent flows at the receiver (0 = absent)
 *   Rx window(32): Rx-HPCC window in bytes (0 = absent; saturates at 2^32-1)
 *   seq(64): cumulative, next byte expected by the receiver
 */
class RoceAckHeader : public Header
{
  public:
    static constexpr uint8_t SYNDROME_ACK = 0x00;
    static constexpr uint8_t SYNDROME_NACK = 0x60;
    static constexpr uint8_t FLAG_ECN_ECHO = 0x01;
    static constexpr uint32_t SIZE = 16;

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    RoceAckHeader();

    void SetSyndrome(uint8_t s);
    uint8_t GetSyndrome() const;
    bool IsNack() const;
    void SetFlags(uint8_t f);
    uint8_t GetFlags() const;
    void SetNFlows(uint16_t n);
    uint16_t GetNFlows() const;
    void SetRxWindow(uint32_t bytes);
    uint32_t GetRxWindow() const;
    void SetSeq(uint64_t seq);
    uint64_t GetSeq() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

  private:
    uint8_t m_syndrome;
    uint8_t m_flags;
    uint16_t m_nFlows;
    uint32_t m_rxWindow;
    uint64_t m_seq;
};

/// RoCEv2 CNP body: 16 reserved bytes (zero), as in the RoCEv2 annex.
class RoceCnpHeader : public Header
{
  public:
    static constexpr uint32_t SIZE = 16;
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;
};

/**
 * INT header: format(8) | n hops(8) | n x 8-byte hop records, first switch
 * first. format selects libcc's hop encoding: FORMAT_HPCC
 * (libcc_int_hpcc_encode, default units) or FORMAT_FNCC
 * (libcc_int_fncc_encode, default units). Hops are kept as wire bytes so
 * that forwarding never re-quantizes them.
 */
class RoceIntHeader : public Header
{
  public:
    static constexpr uint8_t FORMAT_HPCC = 0;
    static constexpr uint8_t FORMAT_FNCC = 1;
    /// The FORMAT_* that writes libcc's wire format f (HPCC for NONE).
    static constexpr uint8_t WireFormat(libcc_int_format f)
    {
        return f == LIBCC_INT_FORMAT_FNCC ? FORMAT_FNCC : FORMAT_HPCC;
    }
    /**
     * Make list an empty hop list as GetList returns it for format (the
     * wire's wrap widths); the hop slots are left as they are.
     */
    static void InitWireList(uint8_t format, libcc_int_list& list);
    /**
     * Replace hop with what a receiver decodes after format's 8-byte
     * encoding (units, wrap, saturation; switch and port ids are not on the
     * wire). False, hop unchanged, if it does not encode (PushHop would fail).
     */
    static bool QuantizeHop(uint8_t format, libcc_int_hop& hop);
    static constexpr uint32_t HOP_BYTES = 8;
    static constexpr uint32_t BASE_BYTES = 2;
    static constexpr uint32_t Size(uint32_t nHops)
    {
        return BASE_BYTES + HOP_BYTES * nHops;
    }

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    RoceIntHeader();

    void SetFormat(uint8_t format);
    uint8_t GetFormat() const;
    uint8_t GetNHops() const;
    /// Remove all hops.
    void Clear();
    /// Append one hop encoded in this header's format; false if full
    /// (LIBCC_INT_MAX_HOPS) or the hop does not encode.
    bool PushHop(const libcc_int_hop& hop);
    /// Append raw 8 wire bytes; false if full.
    bool PushRaw(const uint8_t hop[8]);
    /// Encode a whole list (replaces the hops); false if a hop fails.
    bool SetList(const libcc_int_list& list);
    /// Decode every hop into list (ts_bits / tx_bits set for the format);
    /// false if a record does not decode.
    bool GetList(libcc_int_list& list) const;

    /// Write the serialized header (Size(GetNHops()) bytes) to out; returns its length.
    uint32_t CopyTo(uint8_t* out) const;

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

  private:
    uint8_t m_format;
    uint8_t m_nHops;
    uint8_t m_hops[LIBCC_INT_MAX_HOPS][HOP_BYTES];
};

} // namespace ns3

#endif // ROCEV2_HEADER_H
