// SPDX-License-Identifier: GPL-2.0-only
#include "switch-tag.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(FnccIngressPortTag);

TypeId
FnccIngressPortTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FnccIngressPortTag")
                            .SetParent<Tag>()
                            .SetGroupName("Libcc")
                            .AddConstructor<FnccIngressPortTag>();
    return tid;
}

TypeId
FnccIngressPortTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

FnccIngressPortTag::FnccIngressPortTag()
    : m_port(0)
{
}

FnccIngressPortTag::FnccIngressPortTag(uint32_t port)
    : m_port(port)
{
}

void
FnccIngressPortTag::SetPort(uint32_t port)
{
    m_port = port;
}

uint32_t
FnccIngressPortTag::GetPort() const
{
    return m_port;
}

uint32_t
FnccIngressPortTag::GetSerializedSize() const
{
    return 4;
}

void
FnccIngressPortTag::Serialize(TagBuffer i) const
{
    i.WriteU32(m_port);
}

void
FnccIngressPortTag::Deserialize(TagBuffer i)
{
    m_port = i.ReadU32();
}

void
FnccIngressPortTag::Print(std::ostream& os) const
{
    os << "ingress_port=" << m_port;
}

} // namespace ns3
