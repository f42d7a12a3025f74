// SPDX-License-Identifier: GPL-2.0-only
#include "qbb-frame-wire.h"

#include "ns3/log.h"

#include <cstddef>
#include <cstring>
#include <type_traits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QbbFrameWire");

namespace
{
enum Kind : uint8_t
{
    KIND_ROCE = 0,   //!< RocePacketInfo as its headers
    KIND_PACKET = 1, //!< an IPv4 Packet, serialized
    KIND_MAC = 2,    //!< a MAC control (PFC) body, serialized
    KIND_FIELDS = 3, //!< RocePacketInfo as it is in memory, hops in use only
};
static_assert(std::is_trivially_copyable<RocePacketInfo>::value,
              "a RocePacketInfo is copied as bytes between ranks");
static_assert(std::is_standard_layout<RocePacketInfo>::value, "offsetof below");
// Everything before the hop slots, then n_hops of them.
constexpr size_t FIELDS_HEAD = offsetof(RocePacketInfo, ints) + offsetof(libcc_int_list, hop);
constexpr uint32_t LEAD = 1 + 4; // kind, ipBytes

void
PutLead(std::vector<uint8_t>& out, Kind kind, uint32_t ipBytes)
{
    out.push_back(kind);
    uint8_t b[4];
    std::memcpy(b, &ipBytes, 4);
    out.insert(out.end(), b, b + 4);
}
} // namespace

bool
QbbFrameEncode(const QbbFrame& frame, std::vector<uint8_t>& out, bool asFields)
{
    size_t at = out.size();
    if (!frame.packet && asFields)
    {
        PutLead(out, KIND_FIELDS, frame.ipBytes);
        size_t n = FIELDS_HEAD + frame.roce.ints.n_hops * sizeof(libcc_int_hop);
        out.resize(at + LEAD + n);
        std::memcpy(out.data() + at + LEAD, &frame.roce, n);
        return true;
    }
    if (!frame.packet)
    {
        PutLead(out, KIND_ROCE, frame.ipBytes);
        out.resize(at + LEAD + ROCE_MAX_HEADER_BYTES);
        uint32_t n = RoceWriteHeaders(frame.roce, out.data() + at + LEAD);
        if (n == 0)
        {
            out.resize(at);
            return false;
        }
        out.resize(at + LEAD + n);
        return true;
    }
    PutLead(out, frame.macControl ? KIND_MAC : KIND_PACKET, frame.ipBytes);
    uint32_t size = frame.packet->GetSerializedSize();
    out.resize(at + LEAD + size);
    if (!frame.packet->Serialize(out.data() + at + LEAD, size))
    {
        out.resize(at);
        return false;
    }
    return true;
}

QbbFramePtr
QbbFrameDecode(const uint8_t* b, uint32_t n)
{
    if (n < LEAD)
    {
        return nullptr;
    }
    uint32_t ipBytes;
    std::memcpy(&ipBytes, b + 1, 4);
    const uint8_t* body = b + LEAD;
    uint32_t len = n - LEAD;
    if (b[0] == KIND_ROCE)
    {
        QbbFramePtr f = QbbFrameNew();
        if (!RoceParseHeaders(body, len, ipBytes, f->roce))
        {
            return nullptr;
        }
        f->ipBytes = ipBytes;
        return f;
    }
    if (b[0] == KIND_FIELDS)
    {
        if (len < FIELDS_HEAD)
        {
            return nullptr;
        }
        QbbFramePtr f = QbbFrameNew();
        std::memcpy(static_cast<void*>(&f->roce), body, FIELDS_HEAD);
        size_t hops = f->roce.ints.n_hops;
        if (hops > LIBCC_INT_MAX_HOPS || len != FIELDS_HEAD + hops * sizeof(libcc_int_hop))
        {
            return nullptr;
        }
        std::memcpy(&f->roce.ints.hop[0], body + FIELDS_HEAD, hops * sizeof(libcc_int_hop));
        f->ipBytes = ipBytes;
        return f;
    }
    if (b[0] != KIND_PACKET && b[0] != KIND_MAC)
    {
        return nullptr;
    }
    Ptr<Packet> p = Create<Packet>(body, len, true);
    QbbFramePtr f = QbbFrameFromPacket(p, b[0] == KIND_MAC);
    f->ipBytes = ipBytes;
    return f;
}

} // namespace ns3
