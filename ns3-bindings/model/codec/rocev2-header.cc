// SPDX-License-Identifier: GPL-2.0-only
#include "rocev2-header.h"

#include "ns3/log.h"
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceIntHeader");

NS_OBJECT_ENSURE_REGISTERED(RoceIntHeader);

TypeId
RoceIntHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceIntHeader")
                            .SetParent<Header>()
                            .SetGroupName("Libcc")
                            .AddConstructor<RoceIntHeader>();
    return tid;
}

TypeId
RoceIntHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

RoceIntHeader::RoceIntHeader()
    : m_format(FORMAT_HPCC)
    , m_nHops(0)
    , m_hops{}
{
}

void
RoceIntHeader::SetFormat(uint8_t format)
{
    m_format = format;
}

uint8_t
RoceIntHeader::GetNHops() const
{
    return m_nHops;
}

bool
RoceIntHeader::PushRaw(const uint8_t hop[8])
{
    if (m_nHops >= LIBCC_INT_MAX_HOPS)
    {
        return false;
    }
    std::memcpy(m_hops[m_nHops], hop, HOP_BYTES);
    m_nHops++;
    return true;
}

bool
RoceIntHeader::PushHop(const libcc_int_hop& hop)
{
    uint8_t raw[HOP_BYTES];
    int rc = m_format == FORMAT_FNCC ? libcc_int_fncc_encode(&hop, nullptr, raw)
                                     : libcc_int_hpcc_encode(&hop, nullptr, raw);
    return rc == LIBCC_OK && PushRaw(raw);
}

bool
RoceIntHeader::SetList(const libcc_int_list& list)
{
    m_nHops = 0;
    if (list.n_hops > LIBCC_INT_MAX_HOPS)
    {
        return false;
    }
    for (uint32_t h = 0; h < list.n_hops; h++)
    {
        if (!PushHop(list.hop[h]))
        {
            return false;
        }
    }
    return true;
}

namespace
{

/// A format's default units and wrap widths, worked out once instead of per
/// decoded packet (they depend on the format only).
struct IntDecodeSetup
{
    libcc_int_wire_format fmt;
    uint8_t tsBits;
    uint8_t txBits;
    bool ok;
};

IntDecodeSetup
MakeIntDecodeSetup(bool fncc)
{
    IntDecodeSetup s{};
    if (fncc)
    {
        libcc_int_fncc_format_default(&s.fmt);
    }
    else
    {
        libcc_int_hpcc_format_default(&s.fmt);
    }
    unsigned tsBits = 64;
    unsigned txBits = 64;
    s.ok = libcc_int_wire_wrap_bits(&s.fmt, &tsBits, &txBits) == LIBCC_OK;
    s.tsBits = static_cast<uint8_t>(tsBits);
    s.txBits = static_cast<uint8_t>(txBits);
    return s;
}

} // namespace

void
RoceIntHeader::InitWireList(uint8_t format, libcc_int_list& list)
{
    static const IntDecodeSetup hpcc = MakeIntDecodeSetup(false);
    static const IntDecodeSetup fncc = MakeIntDecodeSetup(true);
    const IntDecodeSetup& s = format == FORMAT_FNCC ? fncc : hpcc;
    list.n_hops = 0;
    list.ts_bits = s.ok ? s.tsBits : 64;
    list.tx_bits = s.ok ? s.txBits : 64;
}

bool
RoceIntHeader::QuantizeHop(uint8_t format, libcc_int_hop& hop)
{
    // libcc's quantize is decode(encode(hop)) without the bytes, with the
    // default units PushHop and GetList use: the hop reads exactly as it
    // would after a trip through the wire. On error hop is left as it is.
    int rc = format == FORMAT_FNCC ? libcc_int_fncc_quantize(&hop, nullptr, &hop)
                                   : libcc_int_hpcc_quantize(&hop, nullptr, &hop);
    return rc == LIBCC_OK;
}

bool
RoceIntHeader::GetList(libcc_int_list& list) const
{
    static const IntDecodeSetup hpcc = MakeIntDecodeSetup(false);
    static const IntDecodeSetup fncc = MakeIntDecodeSetup(true);
    const IntDecodeSetup& s = m_format == FORMAT_FNCC ? fncc : hpcc;
    libcc_int_list_init(&list);
    if (!s.ok)
    {
        return false;
    }
    list.ts_bits = s.tsBits;
    list.tx_bits = s.txBits;
    for (uint32_t h = 0; h < m_nHops; h++)
    {
        int rc = m_format == FORMAT_FNCC ? libcc_int_fncc_decode(m_hops[h], &s.fmt, &list.hop[h])
                                         : libcc_int_hpcc_decode(m_hops[h], &s.fmt, &list.hop[h]);
        if (rc != LIBCC_OK)
        {
            list.n_hops = 0;
            return false;
        }
    }
    list.n_hops = m_nHops;
    return true;
}

uint32_t
RoceIntHeader::CopyTo(uint8_t* out) const
{
    out[0] = m_format;
    out[1] = m_nHops;
    std::memcpy(out + BASE_BYTES, m_hops, HOP_BYTES * m_nHops);
    return Size(m_nHops);
}

uint32_t
RoceIntHeader::GetSerializedSize() const
{
    return Size(m_nHops);
}

void
RoceIntHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteU8(m_format);
    i.WriteU8(m_nHops);
    for (uint32_t h = 0; h < m_nHops; h++)
    {
        i.Write(m_hops[h], HOP_BYTES);
    }
}

uint32_t
RoceIntHeader::Deserialize(Buffer::Iterator i)
{
    m_format = i.ReadU8();
    uint8_t n = i.ReadU8();
    // A corrupt count must not overrun m_hops: keep what fits and skip the rest.
    m_nHops = n > LIBCC_INT_MAX_HOPS ? LIBCC_INT_MAX_HOPS : n;
    for (uint32_t h = 0; h < m_nHops; h++)
    {
        i.Read(m_hops[h], HOP_BYTES);
    }
    if (n > m_nHops)
    {
        i.Next((n - m_nHops) * HOP_BYTES);
    }
    return Size(n);
}

void
RoceIntHeader::Print(std::ostream& os) const
{
    os << "INT fmt=" << unsigned(m_format) << " hops=" << unsigned(m_nHops);
}

} // namespace ns3
