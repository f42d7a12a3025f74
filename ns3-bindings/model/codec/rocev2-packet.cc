// SPDX-License-Identifier: GPL-2.0-only
#include "rocev2-packet.h"

#include "ns3/log.h"
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RocePacket");

namespace
{

/**
 * Bytes put back in front of a packet as they are. ns-3's Packet takes
 * bytes at its front only from a Header, and a header object per protocol
 * layer (Ipv4Header, UdpHeader, ...) costs more than the codec's one copy.
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
    // Enough for the largest INT header, so that intHops is filled in.
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

} // namespace ns3
