// SPDX-License-Identifier: GPL-2.0-only
//
// QbbHelper: connect two nodes with a QbbChannel and two QbbNetDevices.
// When an end is a SwitchNode its device becomes a switch port
// (SwitchNode::AttachPort); a host owner hooks its device itself
// (SetEgressSource, SetQbbReceiveCallback). Pcap as every ns-3 device
// helper: EnablePcap(prefix, device | container | node | ids), EnablePcapAll
// write <prefix>-<node id>-<device id>.pcap (DLT_EN10MB, no FCS).
#ifndef QBB_HELPER_H
#define QBB_HELPER_H

#include "ns3/attribute.h"
#include "ns3/net-device-container.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/trace-helper.h"

#include <string>

namespace ns3
{

class QbbHelper : public PcapHelperForDevice
{
  public:
    QbbHelper();
    ~QbbHelper() override = default;
    /// Attribute of every QbbNetDevice made ("DataRate", "Mtu").
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    /// Attribute of every QbbChannel made ("Delay").
    void SetChannelAttribute(const std::string& name, const AttributeValue& value);
    /// Link a and b; the container holds a's device first.
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b);

  private:
    /// PcapHelperForDevice: hook a pcap file to a QbbNetDevice's
    /// PromiscSniffer (every frame it sends and receives; promiscuous or not
    /// is the same on a point-to-point link). Other devices are skipped.
    void EnablePcapInternal(std::string prefix, Ptr<NetDevice> nd, bool promiscuous,
                            bool explicitFilename) override;

    ObjectFactory m_deviceFactory;
    ObjectFactory m_channelFactory;
};

} // namespace ns3

#endif // QBB_HELPER_H
