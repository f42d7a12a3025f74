// SPDX-License-Identifier: GPL-2.0-only
//
// QbbNetDevice's side as an ns-3 NetDevice: addresses, MTU, link state, the
// protocol stack's callbacks and Send. What every ns-3 device carries,
// apart from the transmit machine (qbb-net-device.cc) and PFC (qbb-pfc.cc).
#include "qbb-channel.h"
#include "qbb-net-device.h"

#include "ns3/node.h"

namespace ns3
{

void
QbbNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

Ptr<Channel>
QbbNetDevice::GetChannel() const
{
    return m_channel;
}

void
QbbNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
QbbNetDevice::GetAddress() const
{
    return m_address;
}

bool
QbbNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
QbbNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
QbbNetDevice::IsLinkUp() const
{
    return m_channel != nullptr;
}

void
QbbNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    (void)callback;
}

bool
QbbNetDevice::IsBroadcast() const
{
    return true;
}

Address
QbbNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
QbbNetDevice::IsMulticast() const
{
    return false;
}

Address
QbbNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
QbbNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
QbbNetDevice::IsPointToPoint() const
{
    // ns-3's MPI engines take their lookahead from the Delay of the
    // channels of point-to-point devices whose peer is on another rank, so
    // a link between ranks says so; any other stays a broadcast-like
    // device, as ns-3's global routing needs (it would look for IPv4 on a
    // point-to-point peer, and a switch has none).
    return m_channel && m_channel->JoinsTwoRanks();
}

bool
QbbNetDevice::IsBridge() const
{
    return false;
}

bool
QbbNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    (void)dest; // one peer per link: every frame goes to it
    if (protocolNumber != ETHERTYPE_IPV4 || packet->GetSize() > m_mtu || !m_channel || !m_source ||
        !m_source->EnqueuePacket(packet))
    {
        m_macTxDropTrace(packet);
        return false;
    }
    m_macTxTrace(packet);
    TriggerTransmit();
    return true;
}

bool
QbbNetDevice::SendFrom(Ptr<Packet> packet, const Address& source, const Address& dest,
                       uint16_t protocolNumber)
{
    if (source != Address(m_address))
    {
        m_macTxDropTrace(packet);
        return false;
    }
    return Send(packet, dest, protocolNumber);
}

Ptr<Node>
QbbNetDevice::GetNode() const
{
    return m_node;
}

void
QbbNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
QbbNetDevice::NeedsArp() const
{
    return false;
}

void
QbbNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
QbbNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
    m_promiscCallback = cb;
}

bool
QbbNetDevice::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
