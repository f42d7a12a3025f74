// SPDX-License-Identifier: GPL-2.0-only
#include "qbb-helper.h"

#include "qbb-channel.h"
#include "qbb-net-device.h"
#include "switch-node.h"

#include "ns3/mac48-address.h"

#include <sstream>

namespace ns3
{

QbbHelper::QbbHelper()
{
    m_deviceFactory.SetTypeId("ns3::QbbNetDevice");
    m_channelFactory.SetTypeId("ns3::QbbChannel");
}

void
QbbHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
QbbHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

NetDeviceContainer
QbbHelper::Install(Ptr<Node> a, Ptr<Node> b)
{
    NetDeviceContainer c;
    Ptr<QbbChannel> ch = m_channelFactory.Create<QbbChannel>();
    for (Ptr<Node> n : {a, b})
    {
        Ptr<QbbNetDevice> dev = m_deviceFactory.Create<QbbNetDevice>();
        dev->SetAddress(Mac48Address::Allocate());
        n->AddDevice(dev);
        dev->Attach(ch);
        if (Ptr<SwitchNode> sw = DynamicCast<SwitchNode>(n))
        {
            sw->AttachPort(dev);
        }
        c.Add(dev);
    }
    return c;
}

void
QbbHelper::EnablePcap(const std::string& prefix, Ptr<NetDevice> dev)
{
    Ptr<QbbNetDevice> q = DynamicCast<QbbNetDevice>(dev);
    if (!q)
    {
        return;
    }
    std::ostringstream name;
    name << prefix << "-" << q->GetNode()->GetId() << "-" << q->GetIfIndex() << ".pcap";
    q->EnablePcap(name.str());
}

void
QbbHelper::EnablePcap(const std::string& prefix, const NetDeviceContainer& c)
{
    for (uint32_t i = 0; i < c.GetN(); i++)
    {
        EnablePcap(prefix, c.Get(i));
    }
}

} // namespace ns3
