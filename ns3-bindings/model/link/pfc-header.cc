// SPDX-License-Identifier: GPL-2.0-only
#include "pfc-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcPauseHeader");

NS_OBJECT_ENSURE_REGISTERED(PfcPauseHeader);

TypeId
PfcPauseHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcPauseHeader")
                            .SetParent<Header>()
                            .SetGroupName("Libcc")
                            .AddConstructor<PfcPauseHeader>();
    return tid;
}

TypeId
PfcPauseHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

PfcPauseHeader::PfcPauseHeader()
    : m_opcode(OPCODE_PFC)
    , m_enable(0)
    , m_quanta{}
{
}

void
PfcPauseHeader::SetQuanta(uint8_t prio, uint16_t quanta)
{
    if (prio >= 8)
    {
        return;
    }
    m_enable |= static_cast<uint16_t>(1u << prio);
    m_quanta[prio] = quanta;
}

bool
PfcPauseHeader::IsEnabled(uint8_t prio) const
{
    return prio < 8 && (m_enable & (1u << prio)) != 0;
}

uint16_t
PfcPauseHeader::GetQuanta(uint8_t prio) const
{
    return prio < 8 ? m_quanta[prio] : 0;
}

uint16_t
PfcPauseHeader::GetEnableVector() const
{
    return m_enable;
}

uint16_t
PfcPauseHeader::GetOpcode() const
{
    return m_opcode;
}

uint32_t
PfcPauseHeader::GetSerializedSize() const
{
    return BODY_BYTES + PAD_BYTES;
}

void
PfcPauseHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteHtonU16(m_opcode);
    i.WriteHtonU16(m_enable);
    for (uint16_t q : m_quanta)
    {
        i.WriteHtonU16(q);
    }
    i.WriteU8(0, PAD_BYTES);
}

uint32_t
PfcPauseHeader::Deserialize(Buffer::Iterator i)
{
    m_opcode = i.ReadNtohU16();
    // Bits 8..15 are reserved by 802.1Qbb: ignore them rather than index past 8.
    m_enable = i.ReadNtohU16() & 0x00FF;
    for (auto& q : m_quanta)
    {
        q = i.ReadNtohU16();
    }
    i.Next(PAD_BYTES);
    return BODY_BYTES + PAD_BYTES;
}

void
PfcPauseHeader::Print(std::ostream& os) const
{
    os << "PFC opcode=0x" << std::hex << m_opcode << " enable=0x" << m_enable << std::dec;
    for (uint32_t p = 0; p < 8; p++)
    {
        if (IsEnabled(p))
        {
            os << " p" << p << "=" << m_quanta[p];
        }
    }
}

} // namespace ns3
