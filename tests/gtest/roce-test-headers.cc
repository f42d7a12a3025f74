// SPDX-License-Identifier: GPL-2.0-only
#include "roce-test-headers.h"

#include "rocev2-packet.h"

#include "ns3/ipv4-header.h"
#include "ns3/udp-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceBthHeader);
NS_OBJECT_ENSURE_REGISTERED(RoceRethHeader);
NS_OBJECT_ENSURE_REGISTERED(RoceAckHeader);
NS_OBJECT_ENSURE_REGISTERED(RoceCnpHeader);

// ---- BTH --------------------------------------------------------------------

TypeId
RoceBthHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceBthHeader")
                            .SetParent<Header>()
                            .SetGroupName("Libcc")
                            .AddConstructor<RoceBthHeader>();
    return tid;
}

TypeId
RoceBthHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

RoceBthHeader::RoceBthHeader()
    : m_opcode(ROCE_OP_DATA)
    , m_flags(0)
    , m_pkey(0xFFFF)
    , m_destQp(0)
    , m_ackReq(false)
    , m_psn(0)
{
}

void
RoceBthHeader::SetOpcode(uint8_t op)
{
    m_opcode = op;
}

uint8_t
RoceBthHeader::GetOpcode() const
{
    return m_opcode;
}

void
RoceBthHeader::SetFlags(uint8_t flags)
{
    m_flags = flags;
}

uint8_t
RoceBthHeader::GetFlags() const
{
    return m_flags;
}

void
RoceBthHeader::SetPkey(uint16_t pkey)
{
    m_pkey = pkey;
}

uint16_t
RoceBthHeader::GetPkey() const
{
    return m_pkey;
}

void
RoceBthHeader::SetDestQp(uint32_t qp)
{
    m_destQp = qp & 0xFFFFFF;
}

uint32_t
RoceBthHeader::GetDestQp() const
{
    return m_destQp;
}

void
RoceBthHeader::SetAckReq(bool ackReq)
{
    m_ackReq = ackReq;
}

bool
RoceBthHeader::GetAckReq() const
{
    return m_ackReq;
}

void
RoceBthHeader::SetPsn(uint32_t psn)
{
    m_psn = psn & 0xFFFFFF;
}

uint32_t
RoceBthHeader::GetPsn() const
{
    return m_psn;
}

uint32_t
RoceBthHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RoceBthHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteU8(m_opcode);
    i.WriteU8(m_flags);
    i.WriteHtonU16(m_pkey);
    i.WriteHtonU32(m_destQp & 0xFFFFFF); // reserved byte first, then 24-bit QP
    i.WriteHtonU32((m_ackReq ? 0x80000000u : 0u) | (m_psn & 0xFFFFFF));
}

uint32_t
RoceBthHeader::Deserialize(Buffer::Iterator i)
{
    m_opcode = i.ReadU8();
    m_flags = i.ReadU8();
    m_pkey = i.ReadNtohU16();
    m_destQp = i.ReadNtohU32() & 0xFFFFFF;
    uint32_t w = i.ReadNtohU32();
    m_ackReq = (w & 0x80000000u) != 0;
    m_psn = w & 0xFFFFFF;
    return SIZE;
}

void
RoceBthHeader::Print(std::ostream& os) const
{
    os << "BTH op=0x" << std::hex << unsigned(m_opcode) << std::dec
       << " flags=" << unsigned(m_flags) << " qp=" << m_destQp << " psn=" << m_psn
       << (m_ackReq ? " A" : "");
}

// ---- RETH -------------------------------------------------------------------

TypeId
RoceRethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceRethHeader")
                            .SetParent<Header>()
                            .SetGroupName("Libcc")
                            .AddConstructor<RoceRethHeader>();
    return tid;
}

TypeId
RoceRethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

RoceRethHeader::RoceRethHeader()
    : m_seq(0)
    , m_rkey(0)
    , m_length(0)
{
}

void
RoceRethHeader::SetSeq(uint64_t seq)
{
    m_seq = seq;
}

uint64_t
RoceRethHeader::GetSeq() const
{
    return m_seq;
}

void
RoceRethHeader::SetRkey(uint32_t rkey)
{
    m_rkey = rkey;
}

uint32_t
RoceRethHeader::GetRkey() const
{
    return m_rkey;
}

void
RoceRethHeader::SetLength(uint32_t len)
{
    m_length = len;
}

uint32_t
RoceRethHeader::GetLength() const
{
    return m_length;
}

uint32_t
RoceRethHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RoceRethHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteHtonU64(m_seq);
    i.WriteHtonU32(m_rkey);
    i.WriteHtonU32(m_length);
}

uint32_t
RoceRethHeader::Deserialize(Buffer::Iterator i)
{
    m_seq = i.ReadNtohU64();
    m_rkey = i.ReadNtohU32();
    m_length = i.ReadNtohU32();
    return SIZE;
}

void
RoceRethHeader::Print(std::ostream& os) const
{
    os << "RETH seq=" << m_seq << " len=" << m_length;
}

// ---- AETH (ACK / NACK) ------------------------------------------------------

TypeId
RoceAckHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceAckHeader")
                            .SetParent<Header>()
                            .SetGroupName("Libcc")
                            .AddConstructor<RoceAckHeader>();
    return tid;
}

TypeId
RoceAckHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

RoceAckHeader::RoceAckHeader()
    : m_syndrome(SYNDROME_ACK)
    , m_flags(0)
    , m_nFlows(0)
    , m_rxWindow(0)
    , m_seq(0)
{
}

void
RoceAckHeader::SetSyndrome(uint8_t s)
{
    m_syndrome = s;
}

uint8_t
RoceAckHeader::GetSyndrome() const
{
    return m_syndrome;
}

bool
RoceAckHeader::IsNack() const
{
    return m_syndrome == SYNDROME_NACK;
}

void
RoceAckHeader::SetFlags(uint8_t f)
{
    m_flags = f;
}

uint8_t
RoceAckHeader::GetFlags() const
{
    return m_flags;
}

void
RoceAckHeader::SetNFlows(uint16_t n)
{
    m_nFlows = n;
}

uint16_t
RoceAckHeader::GetNFlows() const
{
    return m_nFlows;
}

void
RoceAckHeader::SetRxWindow(uint32_t bytes)
{
    m_rxWindow = bytes;
}

uint32_t
RoceAckHeader::GetRxWindow() const
{
    return m_rxWindow;
}

void
RoceAckHeader::SetSeq(uint64_t seq)
{
    m_seq = seq;
}

uint64_t
RoceAckHeader::GetSeq() const
{
    return m_seq;
}

uint32_t
RoceAckHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RoceAckHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteU8(m_syndrome);
    i.WriteU8(m_flags);
    i.WriteHtonU16(m_nFlows);
    i.WriteHtonU32(m_rxWindow);
    i.WriteHtonU64(m_seq);
}

uint32_t
RoceAckHeader::Deserialize(Buffer::Iterator i)
{
    m_syndrome = i.ReadU8();
    m_flags = i.ReadU8();
    m_nFlows = i.ReadNtohU16();
    m_rxWindow = i.ReadNtohU32();
    m_seq = i.ReadNtohU64();
    return SIZE;
}

void
RoceAckHeader::Print(std::ostream& os) const
{
    os << (IsNack() ? "NACK" : "ACK") << " seq=" << m_seq << " N=" << m_nFlows
       << " rxwin=" << m_rxWindow << ((m_flags & FLAG_ECN_ECHO) ? " ECE" : "");
}

// ---- CNP --------------------------------------------------------------------

TypeId
RoceCnpHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceCnpHeader")
                            .SetParent<Header>()
                            .SetGroupName("Libcc")
                            .AddConstructor<RoceCnpHeader>();
    return tid;
}

TypeId
RoceCnpHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceCnpHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RoceCnpHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteU8(0, SIZE);
}

uint32_t
RoceCnpHeader::Deserialize(Buffer::Iterator i)
{
    i.Next(SIZE);
    return SIZE;
}

void
RoceCnpHeader::Print(std::ostream& os) const
{
    os << "CNP";
}

// ---- INT hop append ---------------------------------------------------------

bool
RoceAppendIntHop(Ptr<Packet> packet, const libcc_int_hop& hop)
{
    RocePacketInfo info;
    if (!RoceParse(packet, info) || !info.hasInt)
    {
        return false;
    }
    // Take a copy apart, so that a refused hop leaves the packet as it was.
    Ptr<Packet> p = packet->Copy();
    Ipv4Header ip;
    p->RemoveHeader(ip);
    UdpHeader udp;
    p->RemoveHeader(udp);
    RoceBthHeader bth;
    p->RemoveHeader(bth);
    bool ack = bth.GetOpcode() == ROCE_OP_ACK;
    RoceRethHeader reth;
    RoceAckHeader aeth;
    if (ack)
    {
        p->RemoveHeader(aeth);
    }
    else
    {
        p->RemoveHeader(reth);
    }
    RoceIntHeader ih;
    p->RemoveHeader(ih);
    if (!ih.PushHop(hop))
    {
        return false;
    }
    p->AddHeader(ih);
    if (ack)
    {
        p->AddHeader(aeth);
    }
    else
    {
        p->AddHeader(reth);
    }
    p->AddHeader(bth);
    // A fresh UDP header: its length is what follows it (the parsed one would
    // write back the old length), checksum 0.
    UdpHeader grown;
    grown.SetSourcePort(udp.GetSourcePort());
    grown.SetDestinationPort(udp.GetDestinationPort());
    p->AddHeader(grown);
    ip.SetPayloadSize(p->GetSize());
    ip.EnableChecksum();
    p->AddHeader(ip);
    // The edited bytes into the caller's packet (same uid and tags).
    packet->RemoveAtEnd(packet->GetSize());
    packet->AddAtEnd(p);
    return true;
}

} // namespace ns3
