// SPDX-License-Identifier: GPL-2.0-only
//
// QbbRemoteChannel: a QbbChannel whose two ends are simulated by different
// MPI ranks, for ns-3's own distributed engines (DistributedSimulatorImpl,
// NullMessageSimulatorImpl), as PointToPointRemoteChannel is for
// point-to-point links: a frame (PAUSE included) leaves as a Packet of its
// QbbFrameEncode bytes through MpiInterface::SendPacket, and the MpiReceiver
// aggregated to the receiving device hands it back to the channel, which
// decodes it and delivers it. Under FastSimulatorImpl's distributed Run the
// base class's own rank link carries it instead. QbbHelper makes one for a
// link whose nodes have different system ids when this library is loaded.
#ifndef QBB_REMOTE_CHANNEL_H
#define QBB_REMOTE_CHANNEL_H

#include "qbb-channel.h"

#include "ns3/packet.h"

namespace ns3
{

class QbbRemoteChannel : public QbbChannel
{
  public:
    static TypeId GetTypeId();
    QbbRemoteChannel();

  protected:
    void TransmitRemote(uint32_t d, QbbFramePtr frame, int64_t arrival) override;
    void EnableRemoteEnds() override;

  private:
    /// MpiReceiver's callback for frames towards end d.
    void FromMpi(uint32_t d, Ptr<Packet> p);
};

} // namespace ns3

#endif // QBB_REMOTE_CHANNEL_H
