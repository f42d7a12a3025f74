// SPDX-License-Identifier: GPL-2.0-only
#include "qbb-frame.h"

#include "rocev2-packet.h"

#include <cstddef>
#include <cstring>
#include <type_traits>

namespace ns3
{

/// The free list. One per process, like ns-3's own packet metadata free
/// list: frames move between nodes, so a pool per node would not do.
class QbbFramePool
{
  public:
    static QbbFramePool& Get()
    {
        static QbbFramePool pool;
        return pool;
    }

    QbbFrame* Take()
    {
        QbbFrame* f = m_free;
        if (f)
        {
            m_free = f->m_nextFree;
            f->m_nextFree = nullptr;
            return f;
        }
        m_allocated++;
        return new QbbFrame();
    }

    void Give(QbbFrame* f)
    {
        // A free frame does not keep a Packet alive. Most frames never had
        // one: test first (assigning a null Ptr is a call per frame).
        if (f->packet)
        {
            f->packet = nullptr;
        }
        if (f->traced)
        {
            f->traced = nullptr;
        }
        f->m_nextFree = m_free;
        m_free = f;
    }

    ~QbbFramePool()
    {
        while (m_free)
        {
            QbbFrame* f = m_free;
            m_free = f->m_nextFree;
            delete f;
        }
    }

    uint64_t m_allocated = 0;

  private:
    QbbFrame* m_free = nullptr;
};

void
QbbFrameRelease::operator()(QbbFrame* f) const
{
    QbbFramePool::Get().Give(f);
}

QbbFramePtr
QbbFrameNew()
{
    static_assert(std::is_standard_layout<RocePacketInfo>::value &&
                      std::is_trivially_copyable<RocePacketInfo>::value,
                  "RocePacketInfo is reset by copying its leading bytes");
    // The defaults up to and including the hop list's header (n_hops,
    // ts_bits, tx_bits), but not its hop slots: a writer fills the hops it uses.
    static const RocePacketInfo fresh;
    constexpr size_t prefix = offsetof(RocePacketInfo, ints) + offsetof(libcc_int_list, hop);
    QbbFrame* f = QbbFramePool::Get().Take();
    f->ipBytes = 0;
    f->macControl = false;
    std::memcpy(static_cast<void*>(&f->roce), &fresh, prefix);
    f->roce.ints.ts_bits = 64;
    f->roce.ints.tx_bits = 64;
    return QbbFramePtr(f);
}

QbbFramePtr
QbbFrameFromPacket(Ptr<Packet> packet, bool macControl)
{
    QbbFramePtr f = QbbFrameNew();
    f->ipBytes = packet->GetSize();
    f->macControl = macControl;
    f->packet = std::move(packet);
    return f;
}

Ptr<Packet>
QbbFrame::ToPacket() const
{
    return packet ? packet : RoceBuild(roce);
}

Ptr<Packet>
QbbFrame::TracedPacket()
{
    if (packet)
    {
        return packet;
    }
    if (!traced)
    {
        traced = RoceBuild(roce);
    }
    return traced;
}

uint64_t
QbbFramesAllocated()
{
    return QbbFramePool::Get().m_allocated;
}

} // namespace ns3
