// SPDX-License-Identifier: GPL-2.0-only
//
// The RoCEv2 transport headers as ns-3 Header classes, one object per
// header, for tests that build or inspect packets header by header. The
// model writes and reads these headers as raw bytes (rocev2-codec.h); these
// classes spell the layouts out a second time, field by field, so that a
// test can hold the codec's bytes to them. Also a Packet edit the fabric
// does not need (it stamps INT hops on frame fields).
#ifndef ROCE_TEST_HEADERS_H
#define ROCE_TEST_HEADERS_H

#include "rocev2-codec.h"

#include "ns3/header.h"
#include "ns3/packet.h"

#include "libcc/libcc.h"

#include <cstdint>

namespace ns3
{

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
 * Append one hop to the INT header of a RoCEv2 packet, header object by
 * header object: the packet grows by 8 bytes, with the IPv4 total length
 * and header checksum and the UDP length rewritten (the UDP checksum stays
 * 0). False, packet untouched, if it has no INT header, the header is full
 * or the hop does not encode.
 */
bool RoceAppendIntHop(Ptr<Packet> packet, const libcc_int_hop& hop);

} // namespace ns3

#endif // ROCE_TEST_HEADERS_H
