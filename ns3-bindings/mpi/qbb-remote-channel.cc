// SPDX-License-Identifier: GPL-2.0-only
#include "qbb-remote-channel.h"

#include "fast-simulator-impl.h"
#include "qbb-frame-wire.h"
#include "qbb-net-device.h"
#include "sim-fast.h"

#include "ns3/log.h"
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QbbRemoteChannel");

NS_OBJECT_ENSURE_REGISTERED(QbbRemoteChannel);

TypeId
QbbRemoteChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::QbbRemoteChannel")
                            .SetParent<QbbChannel>()
                            .SetGroupName("Libcc")
                            .AddConstructor<QbbRemoteChannel>();
    return tid;
}

QbbRemoteChannel::QbbRemoteChannel()
{
    NS_LOG_FUNCTION(this);
}

namespace
{
/// Whether FastSimulatorImpl runs over ranks itself (then the base class carries frames).
bool
FastRanks()
{
    FastSimulatorImpl* fast = FastSimulatorImpl::Running();
    if (fast)
    {
        return fast->GetRankLink() != nullptr;
    }
    Ptr<FastSimulatorImpl> impl = DynamicCast<FastSimulatorImpl>(Simulator::GetImplementation());
    return impl && impl->GetRankLink() != nullptr;
}
} // namespace

void
QbbRemoteChannel::EnableRemoteEnds()
{
    if (FastRanks() || !MpiInterface::IsEnabled())
    {
        return;
    }
    for (uint32_t d = 0; d < 2; ++d)
    {
        Ptr<NetDevice> dev = GetDevice(d);
        bool here = dev->GetNode()->GetSystemId() == MpiInterface::GetSystemId();
        bool peerAway = GetDevice(1 - d)->GetNode()->GetSystemId() != MpiInterface::GetSystemId();
        if (here && peerAway && !dev->GetObject<MpiReceiver>())
        {
            Ptr<MpiReceiver> rx = CreateObject<MpiReceiver>();
            rx->SetReceiveCallback(MakeCallback(&QbbRemoteChannel::FromMpi, this).Bind(d));
            dev->AggregateObject(rx);
        }
    }
}

void
QbbRemoteChannel::TransmitRemote(uint32_t d, QbbFramePtr frame, int64_t arrival)
{
    if (FastRanks())
    {
        QbbChannel::TransmitRemote(d, std::move(frame), arrival);
        return;
    }
    std::vector<uint8_t> bytes;
    if (!QbbFrameEncode(*frame, bytes))
    {
        NS_FATAL_ERROR("QbbRemoteChannel: a frame to another rank does not encode");
    }
    Ptr<NetDevice> dst = GetDevice(d);
    CountRemoteTx();
    MpiInterface::SendPacket(Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size())),
                             TimeStep(arrival), dst->GetNode()->GetId(), dst->GetIfIndex());
}

void
QbbRemoteChannel::FromMpi(uint32_t d, Ptr<Packet> p)
{
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), bytes.size());
    QbbFramePtr frame = QbbFrameDecode(bytes.data(), static_cast<uint32_t>(bytes.size()));
    if (!frame)
    {
        NS_FATAL_ERROR("QbbRemoteChannel: " << bytes.size() << " bytes from rank "
                                            << GetDevice(1 - d)->GetNode()->GetSystemId()
                                            << " are not a frame");
    }
    ReceiveRemoteNow(d, std::move(frame));
}

} // namespace ns3
