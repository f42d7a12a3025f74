// SPDX-License-Identifier: GPL-2.0-only
#include "rocev2-packet.h"

#include "ns3/udp-header.h"

#include <cstring>

namespace ns3
{

namespace
{
constexpr uint32_t UDP_BYTES = 8;
} // namespace

Ptr<Packet>
RoceBuild(const RocePacketInfo& info)
{
    // One raw header of every header's bytes: one AddHeader instead of six
    // header objects.
    uint8_t b[ROCE_MAX_HEADER_BYTES];
    uint32_t len = RoceWriteHeaders(info, b);
    if (len == 0)
    {
        return nullptr;
    }
    Ptr<Packet> p = Create<Packet>(info.type == RocePktType::DATA ? info.payloadBytes : 0);
    RoceRawHeader raw;
    raw.Set(b, len);
    p->AddHeader(raw);
    return p;
}

bool
RoceParse(Ptr<const Packet> packet, RocePacketInfo& info)
{
    uint8_t b[ROCE_MAX_PARSE_BYTES];
    if (!packet)
    {
        info.type = RocePktType::OTHER;
        return false;
    }
    uint32_t n = packet->CopyData(b, sizeof(b));
    return RoceParseHeaders(b, n, packet->GetSize(), info);
}

bool
RocePeekKey(Ptr<const Packet> packet, RoceFlowKey& key)
{
    // As much as RoceIntEditor::Open reads, so intHops means it will open.
    uint8_t b[ROCE_MAX_PARSE_BYTES];
    uint32_t n = packet->CopyData(b, sizeof(b));
    return RocePeekKeyBytes(b, n, key);
}

bool
RoceMarkCe(Ptr<Packet> packet)
{
    uint8_t h[60];
    uint32_t n = packet->CopyData(h, sizeof(h));
    if (!RoceMarkCeBytes(h, n))
    {
        return false;
    }
    // One copy out, the IPv4 header back as raw bytes: no header objects.
    uint32_t ihl = (h[0] & 0x0F) * 4u;
    packet->RemoveAtStart(ihl);
    RoceRawHeader raw;
    raw.Set(h, ihl);
    packet->AddHeader(raw);
    return true;
}

bool
RoceGetInt(Ptr<const Packet> packet, libcc_int_list& list, uint8_t& format)
{
    RocePacketInfo info;
    if (!RoceParse(packet, info) || !info.hasInt)
    {
        return false;
    }
    list = info.ints;
    format = info.intFormat;
    return true;
}

bool
RoceAppendIntHop(Ptr<Packet> packet, const libcc_int_hop& hop)
{
    RoceIntEditor ed;
    if (!ed.Open(packet))
    {
        return false;
    }
    bool ok = ed.Int().PushHop(hop);
    ed.Close();
    return ok;
}

bool
RoceIntEditor::Open(Ptr<Packet> packet)
{
    // One copy of everything up to the end of the largest INT header; the
    // codec's key says whether an INT header is there and whole.
    uint8_t b[ROCE_MAX_PARSE_BYTES];
    uint32_t n = packet->CopyData(b, sizeof(b));
    RoceFlowKey key;
    if (!RocePeekKeyBytes(b, n, key) || !key.hasInt || key.intHops < 0)
    {
        return false;
    }
    uint32_t ihl = (b[0] & 0x0F) * 4u;
    static_assert(ROCE_RETH_BYTES == ROCE_AETH_BYTES, "one INT offset for both");
    uint32_t off = ihl + UDP_BYTES + ROCE_BTH_BYTES + ROCE_RETH_BYTES;
    uint8_t nHops = static_cast<uint8_t>(key.intHops);
    uint32_t intLen = RoceIntHeader::Size(nHops);
    std::memcpy(m_prefix, b, off);
    m_prefixLen = off;
    m_ihl = ihl;
    m_oldIntLen = intLen;
    m_int.SetFormat(b[off]);
    m_int.Clear();
    for (uint32_t h = 0; h < nHops; h++)
    {
        m_int.PushRaw(b + off + RoceIntHeader::BASE_BYTES + RoceIntHeader::HOP_BYTES * h);
    }
    // The bytes stay in the packet until Close knows the INT header changed.
    std::memcpy(m_oldInt, b + off, intLen);
    m_packet = packet;
    return true;
}

RoceIntHeader&
RoceIntEditor::Int()
{
    return m_int;
}

void
RoceIntEditor::Close()
{
    uint8_t intBytes[RoceIntHeader::BASE_BYTES + RoceIntHeader::HOP_BYTES * LIBCC_INT_MAX_HOPS];
    uint32_t intLen = m_int.CopyTo(intBytes);
    if (intLen == m_oldIntLen && std::memcmp(intBytes, m_oldInt, intLen) == 0)
    {
        m_packet = nullptr; // nothing changed: the packet's bytes are already right
        return;
    }
    m_packet->RemoveAtStart(m_prefixLen + m_oldIntLen);
    uint8_t block[PREFIX_MAX + RoceIntHeader::BASE_BYTES +
                  RoceIntHeader::HOP_BYTES * LIBCC_INT_MAX_HOPS];
    std::memcpy(block, m_prefix, m_prefixLen);
    // The packet grew (or not) by the hops added: fix both length fields.
    uint32_t ipLen = ((uint32_t(block[2]) << 8) | block[3]) + intLen - m_oldIntLen;
    block[2] = static_cast<uint8_t>(ipLen >> 8);
    block[3] = static_cast<uint8_t>(ipLen & 0xFF);
    uint16_t csum = RoceIpv4Checksum(block, m_ihl);
    block[10] = static_cast<uint8_t>(csum >> 8);
    block[11] = static_cast<uint8_t>(csum & 0xFF);
    uint32_t udpLen = ((uint32_t(block[m_ihl + 4]) << 8) | block[m_ihl + 5]) + intLen - m_oldIntLen;
    block[m_ihl + 4] = static_cast<uint8_t>(udpLen >> 8);
    block[m_ihl + 5] = static_cast<uint8_t>(udpLen & 0xFF);
    std::memcpy(block + m_prefixLen, intBytes, intLen);
    RoceRawHeader raw;
    raw.Set(block, m_prefixLen + intLen);
    m_packet->AddHeader(raw);
    m_packet = nullptr;
}

// ---- raw header -----------------------------------------------------------------

NS_OBJECT_ENSURE_REGISTERED(RoceRawHeader);

TypeId
RoceRawHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceRawHeader")
                            .SetParent<Header>()
                            .SetGroupName("Libcc")
                            .AddConstructor<RoceRawHeader>();
    return tid;
}

TypeId
RoceRawHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

RoceRawHeader::RoceRawHeader()
    : m_len(0)
{
}

void
RoceRawHeader::Set(const uint8_t* bytes, uint32_t len)
{
    m_len = len < MAX_BYTES ? len : MAX_BYTES;
    std::memcpy(m_bytes, bytes, m_len);
}

uint32_t
RoceRawHeader::GetSerializedSize() const
{
    return m_len;
}

void
RoceRawHeader::Serialize(Buffer::Iterator start) const
{
    start.Write(m_bytes, m_len);
}

uint32_t
RoceRawHeader::Deserialize(Buffer::Iterator start)
{
    start.Read(m_bytes, m_len);
    return m_len;
}

void
RoceRawHeader::Print(std::ostream& os) const
{
    os << "raw " << m_len << " bytes";
}

} // namespace ns3
