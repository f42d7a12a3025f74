// SPDX-License-Identifier: GPL-2.0-only
#include "qbb-helper.h"

#include "qbb-channel.h"
#include "qbb-net-device.h"
#include "switch-node.h"

#include "ns3/log.h"
#include "ns3/mac48-address.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QbbHelper");

QbbHelper::QbbHelper()
{
    NS_LOG_FUNCTION(this);
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
    NS_LOG_FUNCTION(this << a << b);
    NetDeviceContainer c;
    // Ends on two ranks: QbbRemoteChannel when libns3-libcc-mpi is loaded
    // (ns-3's MPI engines need it), as PointToPointHelper does.
    TypeId remote;
    Ptr<QbbChannel> ch;
    if (a->GetSystemId() != b->GetSystemId() &&
        TypeId::LookupByNameFailSafe("ns3::QbbRemoteChannel", &remote))
    {
        ObjectFactory f = m_channelFactory;
        f.SetTypeId(remote);
        ch = f.Create<QbbChannel>();
    }
    else
    {
        ch = m_channelFactory.Create<QbbChannel>();
    }
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
QbbHelper::EnablePcapInternal(std::string prefix, Ptr<NetDevice> nd, bool promiscuous,
                              bool explicitFilename)
{
    NS_LOG_FUNCTION(this << prefix << nd << promiscuous << explicitFilename);
    Ptr<QbbNetDevice> dev = DynamicCast<QbbNetDevice>(nd);
    if (!dev)
    {
        NS_LOG_INFO("QbbHelper::EnablePcapInternal(): device " << nd << " is not a QbbNetDevice");
        return;
    }
    PcapHelper pcap;
    std::string file = explicitFilename ? prefix : pcap.GetFilenameFromDevice(prefix, dev);
    dev->EnablePcap(file);
}

} // namespace ns3
