// SPDX-License-Identifier: GPL-2.0-only
#include "rocev2-codec.h"

#include "ns3/log.h"
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceCodec");

namespace
{

constexpr uint8_t IP_PROTO_UDP = 17;
constexpr uint8_t IP_PROTO_TCP = 6;
constexpr uint32_t IPV4_BYTES = 20;
constexpr uint32_t UDP_BYTES = 8;
// One offset for what follows the BTH's extension header, whatever the type.
static_assert(ROCE_RETH_BYTES == ROCE_AETH_BYTES && ROCE_AETH_BYTES == ROCE_CNP_BYTES &&
                  ROCE_CNP_BYTES == ROCE_FB_BYTES,
              "every extension header is 16 bytes");
constexpr uint32_t TS_BYTES = 8;
constexpr uint32_t NIC_TS_BYTES = 16;
constexpr uint32_t PINT_BYTES = 2;
constexpr uint32_t HOPS_BYTES = 1;

bool
IsData(RocePktType t)
{
    return t == RocePktType::DATA || t == RocePktType::PROBE;
}

bool
IsAck(RocePktType t)
{
    return t == RocePktType::ACK || t == RocePktType::NACK;
}

RocePktType
TypeOf(uint8_t opcode, uint8_t syndrome)
{
    switch (opcode)
    {
    case ROCE_OP_DATA:
        return RocePktType::DATA;
    case ROCE_OP_PROBE:
        return RocePktType::PROBE;
    case ROCE_OP_ACK:
        return syndrome == ROCE_AETH_SYNDROME_NACK ? RocePktType::NACK : RocePktType::ACK;
    case ROCE_OP_CNP:
        return RocePktType::CNP;
    case ROCE_OP_FEEDBACK:
        return RocePktType::FEEDBACK;
    default:
        return RocePktType::OTHER;
    }
}

uint8_t
OpcodeOf(RocePktType t)
{
    switch (t)
    {
    case RocePktType::DATA:
        return ROCE_OP_DATA;
    case RocePktType::PROBE:
        return ROCE_OP_PROBE;
    case RocePktType::ACK:
    case RocePktType::NACK:
        return ROCE_OP_ACK;
    case RocePktType::CNP:
        return ROCE_OP_CNP;
    case RocePktType::FEEDBACK:
        return ROCE_OP_FEEDBACK;
    default:
        return 0;
    }
}

} // namespace

uint32_t
RoceDataHeaderBytes(bool hasInt, uint32_t nHops)
{
    return IPV4_BYTES + UDP_BYTES + ROCE_BTH_BYTES + ROCE_RETH_BYTES +
           (hasInt ? RoceIntHeader::Size(nHops) : 0);
}

uint32_t
RoceSignalBytes(const RocePacketInfo& info)
{
    if (IsData(info.type))
    {
        return (info.hasTxTs ? TS_BYTES : 0) + (info.hasPint ? PINT_BYTES : 0);
    }
    if (IsAck(info.type))
    {
        return (info.hasTxTs ? TS_BYTES : 0) + (info.hasNicTs ? NIC_TS_BYTES : 0) +
               (info.hasPint ? PINT_BYTES : 0) + (info.hasHops ? HOPS_BYTES : 0);
    }
    return 0;
}

uint32_t
RocePacketBytes(const RocePacketInfo& info)
{
    uint32_t base = IPV4_BYTES + UDP_BYTES + ROCE_BTH_BYTES;
    switch (info.type)
    {
    case RocePktType::DATA:
    case RocePktType::PROBE:
        return RoceDataHeaderBytes(info.hasInt, info.ints.n_hops) + RoceSignalBytes(info) +
               (info.type == RocePktType::DATA ? info.payloadBytes : 0);
    case RocePktType::ACK:
    case RocePktType::NACK:
        return base + ROCE_AETH_BYTES + RoceSignalBytes(info) +
               RoceIntHeader::Size(info.ints.n_hops);
    case RocePktType::CNP:
        return base + ROCE_CNP_BYTES;
    case RocePktType::FEEDBACK:
        return base + ROCE_FB_BYTES;
    default:
        return 0;
    }
}

namespace
{

void
Put16(uint8_t* b, uint32_t v)
{
    b[0] = static_cast<uint8_t>(v >> 8);
    b[1] = static_cast<uint8_t>(v);
}

void
Put32(uint8_t* b, uint32_t v)
{
    Put16(b, v >> 16);
    Put16(b + 2, v & 0xFFFF);
}

void
Put64(uint8_t* b, uint64_t v)
{
    Put32(b, static_cast<uint32_t>(v >> 32));
    Put32(b + 4, static_cast<uint32_t>(v));
}

uint32_t
Get16(const uint8_t* b)
{
    return (uint32_t(b[0]) << 8) | b[1];
}

uint32_t
Get32(const uint8_t* b)
{
    return (Get16(b) << 16) | Get16(b + 2);
}

uint64_t
Get64(const uint8_t* b)
{
    return (uint64_t(Get32(b)) << 32) | Get32(b + 4);
}

/// RFC 1071 checksum of an IPv4 header of ihl bytes (its checksum field ignored).
uint16_t
RoceIpv4Checksum(const uint8_t* h, uint32_t ihl)
{
    // Sum big-endian 32-bit words (2^16 = 1 modulo 0xFFFF, so each counts as
    // its two 16-bit halves) and take the checksum field back out: the same
    // positive sum modulo 0xFFFF as the RFC 1071 loop, hence the same folded
    // value, in a quarter of the steps. ihl is a multiple of 4 (IHL x 4).
    uint64_t sum = 0;
    uint32_t i = 0;
    for (; i + 3 < ihl; i += 4)
    {
        uint32_t w;
        std::memcpy(&w, h + i, sizeof(w));
        sum += __builtin_bswap32(w); // bytes are big-endian, x86 loads little-endian
    }
    for (; i + 1 < ihl; i += 2)
    {
        sum += (uint32_t(h[i]) << 8) | h[i + 1];
    }
    if (ihl >= 12)
    {
        sum -= (uint32_t(h[10]) << 8) | h[11];
    }
    while (sum >> 16)
    {
        sum = (sum & 0xFFFF) + (sum >> 16);
    }
    return static_cast<uint16_t>(~sum & 0xFFFF);
}

} // namespace

uint32_t
RoceWriteHeaders(const RocePacketInfo& info, uint8_t* b)
{
    if (info.prio > 7 || info.ecn > 3 || info.type == RocePktType::OTHER ||
        info.ints.n_hops > LIBCC_INT_MAX_HOPS)
    {
        return 0;
    }
    // What ns-3's Ipv4Header and UdpHeader and the header classes of
    // tests/gtest/roce-test-headers.h serialize (a test holds them to it).
    std::memset(b, 0, ROCE_MAX_HEADER_BYTES);
    uint32_t bth = IPV4_BYTES + UDP_BYTES;
    uint32_t ext = bth + ROCE_BTH_BYTES;
    uint32_t len = ext + ROCE_CNP_BYTES; // every extension header is 16 bytes
    bool withInt = (IsData(info.type) && info.hasInt) || IsAck(info.type);
    uint32_t payload = info.type == RocePktType::DATA ? info.payloadBytes : 0;
    uint8_t flags = info.last ? ROCE_BTH_FLAG_LAST : 0;
    uint8_t aethFlags = info.ecnEcho ? ROCE_AETH_FLAG_ECN_ECHO : 0;
    bool data = IsData(info.type);
    bool ack = IsAck(info.type);
    if ((data || ack) && info.hasTxTs)
    {
        Put64(b + len, info.txTsNs);
        len += TS_BYTES;
        flags |= data ? ROCE_BTH_FLAG_TS : 0;
        aethFlags |= ROCE_AETH_FLAG_TS;
    }
    if (ack && info.hasNicTs)
    {
        Put64(b + len, info.remoteRxNs);
        Put64(b + len + 8, info.remoteTxNs);
        len += NIC_TS_BYTES;
        aethFlags |= ROCE_AETH_FLAG_NIC_TS;
    }
    if ((data || ack) && info.hasPint)
    {
        Put16(b + len, info.pint);
        len += PINT_BYTES;
        flags |= data ? ROCE_BTH_FLAG_PINT : 0;
        aethFlags |= ROCE_AETH_FLAG_PINT;
    }
    if (ack && info.hasHops)
    {
        b[len] = info.hops;
        len += HOPS_BYTES;
        aethFlags |= ROCE_AETH_FLAG_HOPS;
    }
    if (withInt)
    {
        RoceIntHeader ih;
        ih.SetFormat(info.intFormat);
        if (!ih.SetList(info.ints))
        {
            return 0;
        }
        len += ih.CopyTo(b + len);
        flags |= ROCE_BTH_FLAG_INT;
    }
    // IPv4: version 4, IHL 5, no identification, no fragment flags.
    b[0] = 0x45;
    b[1] = static_cast<uint8_t>((info.prio << 5) | info.ecn);
    Put16(b + 2, len + payload);
    b[8] = info.ttl;
    b[9] = IP_PROTO_UDP;
    Put32(b + 12, info.src.Get());
    Put32(b + 16, info.dst.Get());
    uint16_t csum = RoceIpv4Checksum(b, IPV4_BYTES);
    Put16(b + 10, csum);
    // UDP, checksum 0 as RoCEv2 sends it (the ICRC protects the payload instead).
    Put16(b + IPV4_BYTES, info.sport);
    Put16(b + IPV4_BYTES + 2, info.dport);
    Put16(b + IPV4_BYTES + 4, len - IPV4_BYTES + payload);
    // BTH
    b[bth] = OpcodeOf(info.type);
    b[bth + 1] = flags;
    Put16(b + bth + 2, 0xFFFF); // default P_Key
    Put32(b + bth + 4, info.destQp & 0xFFFFFF);
    Put32(b + bth + 8, (info.ackReq ? 0x80000000u : 0u) | (info.psn & 0xFFFFFF));
    if (IsData(info.type))
    {
        Put64(b + ext, info.seq);
        Put32(b + ext + 12, payload); // R_Key 0, DMA length
    }
    else if (IsAck(info.type))
    {
        b[ext] = info.type == RocePktType::NACK ? ROCE_AETH_SYNDROME_NACK : ROCE_AETH_SYNDROME_ACK;
        b[ext + 1] = aethFlags;
        Put16(b + ext + 2, info.nFlows);
        Put32(b + ext + 4, info.rxWindow);
        Put64(b + ext + 8, info.ackSeq);
    }
    else if (info.type == RocePktType::FEEDBACK)
    {
        Put64(b + ext, info.fbRateBps);
        Put32(b + ext + 8, info.fbSwitchId);
        Put32(b + ext + 12, info.fbPortId);
    }
    return len;
}

bool
RoceParseHeaders(const uint8_t* b, uint32_t n, uint32_t ipBytes, RocePacketInfo& info)
{
    info.type = RocePktType::OTHER;
    if (!b || n < IPV4_BYTES || (b[0] >> 4) != 4)
    {
        return false;
    }
    uint32_t ihl = (b[0] & 0x0F) * 4u;
    uint32_t bth = ihl + UDP_BYTES;
    uint32_t ext = bth + ROCE_BTH_BYTES;
    uint32_t ipLen = Get16(b + 2);
    // Ethernet padding beyond the IPv4 total length is not part of the packet.
    if (ihl < IPV4_BYTES || b[9] != IP_PROTO_UDP || n < ext + 1 || ipLen > ipBytes || ipLen < ext)
    {
        return false;
    }
    uint16_t sport = static_cast<uint16_t>(Get16(b + ihl));
    uint16_t dport = static_cast<uint16_t>(Get16(b + ihl + 2));
    if (sport != ROCEV2_UDP_PORT && dport != ROCEV2_UDP_PORT)
    {
        return false;
    }
    RocePktType type = TypeOf(b[bth], n > ext ? b[ext] : 0);
    if (type == RocePktType::OTHER || ipLen < ext + ROCE_CNP_BYTES || n < ext + ROCE_CNP_BYTES)
    {
        return false;
    }
    RocePacketInfo out;
    out.type = type;
    out.src = Ipv4Address(Get32(b + 12));
    out.dst = Ipv4Address(Get32(b + 16));
    out.sport = sport;
    out.dport = dport;
    out.prio = b[1] >> 5;
    out.ecn = b[1] & 0x3;
    out.ttl = b[8];
    uint8_t flags = b[bth + 1];
    out.destQp = Get32(b + bth + 4) & 0xFFFFFF;
    uint32_t w = Get32(b + bth + 8);
    out.ackReq = (w & 0x80000000u) != 0;
    out.psn = w & 0xFFFFFF;
    out.last = (flags & ROCE_BTH_FLAG_LAST) != 0;
    libcc_int_list_init(&out.ints);
    uint32_t end = ext + ROCE_CNP_BYTES;
    bool wantInt = false;
    bool ts = false, nicTs = false, pint = false, hops = false;
    if (IsData(type))
    {
        out.seq = Get64(b + ext);
        wantInt = (flags & ROCE_BTH_FLAG_INT) != 0;
        ts = (flags & ROCE_BTH_FLAG_TS) != 0;
        pint = (flags & ROCE_BTH_FLAG_PINT) != 0;
    }
    else if (IsAck(type))
    {
        uint8_t af = b[ext + 1];
        out.ecnEcho = (af & ROCE_AETH_FLAG_ECN_ECHO) != 0;
        out.nFlows = static_cast<uint16_t>(Get16(b + ext + 2));
        out.rxWindow = Get32(b + ext + 4);
        out.ackSeq = Get64(b + ext + 8);
        wantInt = true;
        ts = (af & ROCE_AETH_FLAG_TS) != 0;
        nicTs = (af & ROCE_AETH_FLAG_NIC_TS) != 0;
        pint = (af & ROCE_AETH_FLAG_PINT) != 0;
        hops = (af & ROCE_AETH_FLAG_HOPS) != 0;
    }
    else if (type == RocePktType::FEEDBACK)
    {
        out.fbRateBps = Get64(b + ext);
        out.fbSwitchId = Get32(b + ext + 8);
        out.fbPortId = Get32(b + ext + 12);
    }
    uint32_t sig = (ts ? TS_BYTES : 0) + (nicTs ? NIC_TS_BYTES : 0) + (pint ? PINT_BYTES : 0) +
                   (hops ? HOPS_BYTES : 0);
    if (n < end + sig || ipLen < end + sig)
    {
        return false;
    }
    if (ts)
    {
        out.hasTxTs = true;
        out.txTsNs = Get64(b + end);
        end += TS_BYTES;
    }
    if (nicTs)
    {
        out.hasNicTs = true;
        out.remoteRxNs = Get64(b + end);
        out.remoteTxNs = Get64(b + end + 8);
        end += NIC_TS_BYTES;
    }
    if (pint)
    {
        out.hasPint = true;
        out.pint = static_cast<uint16_t>(Get16(b + end));
        end += PINT_BYTES;
    }
    if (hops)
    {
        out.hasHops = true;
        out.hops = b[end];
        end += HOPS_BYTES;
    }
    if (wantInt)
    {
        if (n < end + RoceIntHeader::BASE_BYTES || b[end + 1] > LIBCC_INT_MAX_HOPS ||
            n < end + RoceIntHeader::Size(b[end + 1]) ||
            ipLen < end + RoceIntHeader::Size(b[end + 1]))
        {
            return false;
        }
        RoceIntHeader ih;
        ih.SetFormat(b[end]);
        for (uint32_t h = 0; h < b[end + 1]; h++)
        {
            ih.PushRaw(b + end + RoceIntHeader::BASE_BYTES + RoceIntHeader::HOP_BYTES * h);
        }
        out.hasInt = true;
        out.intFormat = b[end];
        if (!ih.GetList(out.ints))
        {
            return false;
        }
        end += RoceIntHeader::Size(b[end + 1]);
    }
    out.payloadBytes = type == RocePktType::DATA ? ipLen - end : 0;
    info = out;
    return true;
}

bool
RocePeekKeyBytes(const uint8_t* b, uint32_t n, RoceFlowKey& key)
{
    key = RoceFlowKey();
    if (!b || n < IPV4_BYTES || (b[0] >> 4) != 4)
    {
        return false;
    }
    uint32_t ihl = (b[0] & 0x0F) * 4u;
    if (ihl < IPV4_BYTES || n < ihl)
    {
        return false;
    }
    key.prio = b[1] >> 5;
    key.ecn = b[1] & 0x3;
    key.proto = b[9];
    key.src = (uint32_t(b[12]) << 24) | (uint32_t(b[13]) << 16) | (uint32_t(b[14]) << 8) | b[15];
    key.dst = (uint32_t(b[16]) << 24) | (uint32_t(b[17]) << 16) | (uint32_t(b[18]) << 8) | b[19];
    // UDP and TCP both start with the ports: ECMP hashes IP traffic's
    // 5-tuple as it does RoCEv2's.
    if ((key.proto != IP_PROTO_UDP && key.proto != IP_PROTO_TCP) || n < ihl + 4)
    {
        return true;
    }
    key.sport = static_cast<uint16_t>((b[ihl] << 8) | b[ihl + 1]);
    key.dport = static_cast<uint16_t>((b[ihl + 2] << 8) | b[ihl + 3]);
    if (key.proto != IP_PROTO_UDP || n < ihl + UDP_BYTES)
    {
        return true;
    }
    uint32_t bth = ihl + UDP_BYTES;
    if ((key.dport != ROCEV2_UDP_PORT && key.sport != ROCEV2_UDP_PORT) ||
        n < bth + ROCE_BTH_BYTES + 1)
    {
        return true;
    }
    uint8_t opcode = b[bth];
    uint8_t flags = b[bth + 1];
    key.type = TypeOf(opcode, b[bth + ROCE_BTH_BYTES]);
    key.hasInt = IsAck(key.type) || (IsData(key.type) && (flags & ROCE_BTH_FLAG_INT));
    // The hop count only if the INT header is whole: intHops >= 0 promises
    // that every hop can be read from these bytes.
    uint32_t off = bth + ROCE_BTH_BYTES + ROCE_RETH_BYTES;
    if (IsData(key.type))
    {
        off += ((flags & ROCE_BTH_FLAG_TS) ? TS_BYTES : 0) +
               ((flags & ROCE_BTH_FLAG_PINT) ? PINT_BYTES : 0);
    }
    else if (IsAck(key.type) && n >= bth + ROCE_BTH_BYTES + 2)
    {
        uint8_t af = b[bth + ROCE_BTH_BYTES + 1];
        off += ((af & ROCE_AETH_FLAG_TS) ? TS_BYTES : 0) +
               ((af & ROCE_AETH_FLAG_NIC_TS) ? NIC_TS_BYTES : 0) +
               ((af & ROCE_AETH_FLAG_PINT) ? PINT_BYTES : 0) +
               ((af & ROCE_AETH_FLAG_HOPS) ? HOPS_BYTES : 0);
    }
    if (key.hasInt && n >= off + RoceIntHeader::BASE_BYTES)
    {
        uint8_t nHops = b[off + 1];
        if (nHops <= LIBCC_INT_MAX_HOPS && n >= off + RoceIntHeader::Size(nHops))
        {
            key.intHops = static_cast<int8_t>(nHops);
        }
    }
    return true;
}

namespace
{

void
PutChecksum(uint8_t* h, uint32_t ihl)
{
    uint16_t c = RoceIpv4Checksum(h, ihl);
    h[10] = static_cast<uint8_t>(c >> 8);
    h[11] = static_cast<uint8_t>(c & 0xFF);
}

} // namespace

bool
RoceMarkCeBytes(uint8_t* h, uint32_t n)
{
    if (!h || n < IPV4_BYTES || (h[0] >> 4) != 4)
    {
        return false;
    }
    uint32_t ihl = (h[0] & 0x0F) * 4u;
    if (ihl < IPV4_BYTES || n < ihl || (h[1] & 0x3) == ROCE_ECN_NOT_ECT ||
        (h[1] & 0x3) == ROCE_ECN_CE)
    {
        return false; // not a whole header, not ECN-capable, or already marked upstream
    }
    h[1] |= ROCE_ECN_CE;
    PutChecksum(h, ihl);
    return true;
}

namespace
{

bool
HopEqual(const libcc_int_hop& a, const libcc_int_hop& b)
{
    return a.bandwidth_bps == b.bandwidth_bps && a.ts_ns == b.ts_ns && a.tx_bytes == b.tx_bytes &&
           a.qlen_bytes == b.qlen_bytes && a.switch_id == b.switch_id && a.port_id == b.port_id;
}

} // namespace

bool
RoceWireEqual(const RocePacketInfo& a, const RocePacketInfo& b)
{
    if (a.type != b.type || a.src != b.src || a.dst != b.dst || a.sport != b.sport ||
        a.dport != b.dport || a.prio != b.prio || a.ecn != b.ecn || a.ttl != b.ttl ||
        a.destQp != b.destQp || a.psn != b.psn || a.ackReq != b.ackReq || a.last != b.last)
    {
        return false;
    }
    bool data = IsData(a.type);
    bool ack = IsAck(a.type);
    if (data && (a.seq != b.seq || a.payloadBytes != b.payloadBytes || a.hasInt != b.hasInt))
    {
        return false;
    }
    if (ack && (a.ackSeq != b.ackSeq || a.nFlows != b.nFlows || a.rxWindow != b.rxWindow ||
                a.ecnEcho != b.ecnEcho || a.hasInt != b.hasInt))
    {
        return false;
    }
    if ((data || ack) && (a.hasTxTs != b.hasTxTs || (a.hasTxTs && a.txTsNs != b.txTsNs) ||
                          a.hasPint != b.hasPint || (a.hasPint && a.pint != b.pint)))
    {
        return false;
    }
    if (ack && (a.hasNicTs != b.hasNicTs ||
                (a.hasNicTs && (a.remoteRxNs != b.remoteRxNs || a.remoteTxNs != b.remoteTxNs)) ||
                a.hasHops != b.hasHops || (a.hasHops && a.hops != b.hops)))
    {
        return false;
    }
    if (a.type == RocePktType::FEEDBACK &&
        (a.fbRateBps != b.fbRateBps || a.fbSwitchId != b.fbSwitchId || a.fbPortId != b.fbPortId))
    {
        return false;
    }
    if ((data && a.hasInt) || ack)
    {
        if (a.intFormat != b.intFormat || a.ints.n_hops != b.ints.n_hops ||
            a.ints.ts_bits != b.ints.ts_bits || a.ints.tx_bits != b.ints.tx_bits ||
            a.ints.n_hops > LIBCC_INT_MAX_HOPS)
        {
            return false;
        }
        for (uint32_t h = 0; h < a.ints.n_hops; h++)
        {
            if (!HopEqual(a.ints.hop[h], b.ints.hop[h]))
            {
                return false;
            }
        }
    }
    return true;
}

} // namespace ns3
