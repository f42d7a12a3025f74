// SPDX-License-Identifier: GPL-2.0-only
//
// QbbHelper: connect two nodes with a QbbChannel and two QbbNetDevices.
// When an end is a SwitchNode its device becomes a switch port
// (SwitchNode::AttachPort); a host owner hooks its device itself
// (SetEgressSource, SetQbbReceiveCallback).
#ifndef QBB_HELPER_H
#define QBB_HELPER_H

#include "ns3/attribute.h"
#include "ns3/net-device-container.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{

class QbbHelper
{
  public:
    QbbHelper();
    /// Attribute of every QbbNetDevice made ("DataRate", "Mtu").
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    /// Attribute of every QbbChannel made ("Delay").
    void SetChannelAttribute(const std::string& name, const AttributeValue& value);
    /// Link a and b; the container holds a's device first.
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b);
    /// Pcap of every device in c: <prefix>-<node>-<ifindex>.pcap (DLT_EN10MB).
    static void EnablePcap(const std::string& prefix, const NetDeviceContainer& c);
    static void EnablePcap(const std::string& prefix, Ptr<NetDevice> dev);

  private:
    ObjectFactory m_deviceFactory;
    ObjectFactory m_channelFactory;
};

} // namespace ns3

#endif // QBB_HELPER_H
