// SPDX-License-Identifier: GPL-2.0-only
#include "qbb-channel.h"

#include "qbb-frame-wire.h"
#include "qbb-net-device.h"
#include "rocev2-packet.h"
#include "sim-fast.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QbbChannel");

NS_OBJECT_ENSURE_REGISTERED(QbbChannel);

class QbbChannel::RxEvent : public FastEvent
{
  public:
    RxEvent(QbbChannel* ch, uint32_t d)
        : m_ch(ch)
        , m_d(d)
    {
    }

  protected:
    void Notify() override
    {
        m_ch->Arrive(m_d);
    }

  private:
    QbbChannel* m_ch; //!< raw: DoDispose cancels a pending event
    uint32_t m_d;
};

TypeId
QbbChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::QbbChannel")
            .SetParent<Channel>()
            .SetGroupName("Libcc")
            .AddConstructor<QbbChannel>()
            .AddAttribute("Delay", "Propagation delay of the wire, each direction (time).",
                          TimeValue(MicroSeconds(1)), MakeTimeAccessor(&QbbChannel::m_delay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("VerifyWireFormat",
                          "Check every RoCEv2 frame sent as header fields against its bytes: "
                          "serialize, parse back, compare (GetWireChecks / GetWireMismatches). "
                          "For tests; costs a Packet per frame.",
                          BooleanValue(false), MakeBooleanAccessor(&QbbChannel::m_verifyWire),
                          MakeBooleanChecker());
    return tid;
}

QbbChannel::QbbChannel()
    : m_delay(MicroSeconds(1))
    , m_nDevices(0)
{
    NS_LOG_FUNCTION(this);
}

QbbChannel::~QbbChannel() = default;

bool
QbbChannel::Attach(Ptr<QbbNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    if (m_nDevices >= 2 || !device)
    {
        return false;
    }
    m_dev[m_nDevices++] = device;
    return true;
}

Ptr<QbbNetDevice>
QbbChannel::GetPeer(Ptr<const QbbNetDevice> self) const
{
    if (m_nDevices < 2)
    {
        return nullptr;
    }
    return PeekPointer(m_dev[0]) == PeekPointer(self) ? m_dev[1] : m_dev[0];
}

void
QbbChannel::Transmit(QbbFramePtr&& frame, const QbbNetDevice* src, int64_t txSteps)
{
    if (m_nDevices < 2)
    {
        return; // an unconnected end: the frame leaves into the void
    }
    uint32_t d = PeekPointer(m_dev[0]) == src ? 1 : 0;
    uint32_t context = ContextOf(d);
    if (m_verifyWire)
    {
        VerifyWire(*frame);
    }
    Direction& dir = m_dir[d];
    int64_t delay = txSteps + m_delay.GetTimeStep();
    if (__builtin_expect(m_remote[d].active, 0))
    {
        TransmitRemote(d, std::move(frame), SimNowStep() + delay);
        return;
    }
    bool idle = dir.frames.Empty();
    dir.frames.Push({frame.release(), SimNowStep() + delay});
    // Node order (distributed runs): every frame's arrival is an event the
    // sender schedules, so its key is the sender's whichever rank receives;
    // Uid order keeps one event per direction, scheduled again on arrival.
    if (idle || SimNodeOrder())
    {
        if (!dir.event)
        {
            dir.event = Create<RxEvent>(this, d);
        }
        ScheduleReusedSteps(context, delay, PeekPointer(dir.event));
    }
}

uint32_t
QbbChannel::LookUpContext(uint32_t d)
{
    Ptr<Node> node = m_dev[d]->GetNode();
    if (!node)
    {
        return 0;
    }
    m_ctx[d] = node->GetId();
    m_ctxKnown[d] = true;
    return m_ctx[d];
}

void
QbbChannel::Arrive(uint32_t d)
{
    Direction& dir = m_dir[d];
    QbbFramePtr frame(dir.frames.Pop().frame);
    if (!dir.frames.Empty() && !SimNodeOrder())
    {
        // The next frame's arrival, in the context of the same receiver.
        ScheduleReusedSteps(m_ctx[d], dir.frames.Front().arrival - SimNowStep(),
                            PeekPointer(dir.event));
    }
    m_dev[d]->ReceiveFrame(std::move(frame));
}

void
QbbChannel::ClearInFlight()
{
    for (Direction& dir : m_dir)
    {
        if (dir.event)
        {
            dir.event->Cancel();
            dir.event = nullptr;
        }
        while (!dir.frames.Empty())
        {
            QbbFramePtr drop(dir.frames.Pop().frame); // back to the pool
        }
    }
}

void
QbbChannel::VerifyWire(const QbbFrame& frame)
{
    if (frame.packet)
    {
        return; // already bytes
    }
    m_wireChecks++;
    Ptr<Packet> bytes = RoceBuild(frame.roce);
    RocePacketInfo parsed;
    if (!bytes || bytes->GetSize() != frame.ipBytes || !RoceParse(bytes, parsed) ||
        !RoceWireEqual(frame.roce, parsed))
    {
        m_wireMismatches++;
    }
}

uint32_t
QbbChannel::IndexOf(const NetDevice* dev) const
{
    for (uint32_t i = 0; i < m_nDevices; ++i)
    {
        if (PeekPointer(m_dev[i]) == dev)
        {
            return i;
        }
    }
    return 2;
}

bool
QbbChannel::JoinsTwoRanks() const
{
    return m_nDevices == 2 && m_dev[0]->GetNode() && m_dev[1]->GetNode() &&
           m_dev[0]->GetNode()->GetSystemId() != m_dev[1]->GetNode()->GetSystemId();
}

bool
QbbChannel::EnableRemote(uint32_t portBase)
{
    NS_LOG_FUNCTION(this << portBase);
    if (m_nDevices < 2 || m_delay.GetTimeStep() <= 0)
    {
        return false;
    }
    uint32_t here = Simulator::GetSystemId();
    Ptr<FastSimulatorImpl> fast = DynamicCast<FastSimulatorImpl>(Simulator::GetImplementation());
    for (uint32_t d = 0; d < 2; ++d)
    {
        uint32_t rank = m_dev[d]->GetNode()->GetSystemId();
        uint32_t other = m_dev[1 - d]->GetNode()->GetSystemId();
        Remote& r = m_remote[d];
        r.active = rank != here && other == here;
        r.rank = rank;
        r.port = portBase + d;
        r.in.m_ch = this;
        r.in.m_d = d;
        if (rank == here && other != here)
        {
            // The frames towards our end come from the peer rank.
            if (fast)
            {
                fast->RegisterRemotePort(r.port, &r.in);
            }
        }
    }
    EnableRemoteEnds();
    return true;
}

void
QbbChannel::TransmitRemote(uint32_t d, QbbFramePtr frame, int64_t arrival)
{
    FastSimulatorImpl* fast = FastSimulatorImpl::Running();
    if (!fast || !fast->GetRankLink())
    {
        NS_FATAL_ERROR("QbbChannel: a frame for node " << m_dev[d]->GetNode()->GetId()
                                                      << " on rank " << m_remote[d].rank
                                                      << " needs a distributed simulator (FastSimulatorImpl "
                                                         "with a rank link, or QbbRemoteChannel)");
    }
    m_wire.clear();
    if (!QbbFrameEncode(*frame, m_wire, true))
    {
        NS_FATAL_ERROR("QbbChannel: a frame to another rank does not encode");
    }
    m_remoteTx++;
    fast->SendRemote(m_remote[d].rank, m_remote[d].port, static_cast<uint64_t>(arrival), m_ctx[d],
                     m_wire.data(), static_cast<uint32_t>(m_wire.size()));
}

void
QbbChannel::RemotePort::Deliver(uint64_t ts, uint64_t key, const uint8_t* data, uint32_t len)
{
    QbbFramePtr frame = QbbFrameDecode(data, len);
    if (!frame)
    {
        NS_FATAL_ERROR("QbbChannel: " << len << " bytes from another rank are not a frame");
    }
    QbbChannel* ch = m_ch;
    Direction& dir = ch->m_dir[m_d];
    ch->m_remoteRx++;
    dir.frames.Push({frame.release(), static_cast<int64_t>(ts)});
    if (!dir.event)
    {
        dir.event = Create<RxEvent>(ch, m_d);
    }
    dir.event->Ref();
    FastSimulatorImpl::Running()->InsertKeyed(ts, key, ch->ContextOf(m_d), PeekPointer(dir.event));
}

void
QbbChannel::ReceiveRemoteNow(uint32_t d, QbbFramePtr frame)
{
    m_remoteRx++;
    m_dev[d]->ReceiveFrame(std::move(frame));
}

uint64_t
QbbChannel::GetWireChecks() const
{
    return m_wireChecks;
}

uint64_t
QbbChannel::GetWireMismatches() const
{
    return m_wireMismatches;
}

Time
QbbChannel::GetDelay() const
{
    return m_delay;
}

std::size_t
QbbChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
QbbChannel::GetDevice(std::size_t i) const
{
    return i < m_nDevices ? m_dev[i] : nullptr;
}

void
QbbChannel::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_dev[0] = nullptr;
    m_dev[1] = nullptr;
    m_nDevices = 0;
    m_ctxKnown[0] = false;
    m_ctxKnown[1] = false;
    ClearInFlight();
    Channel::DoDispose();
}

} // namespace ns3
