// SPDX-License-Identifier: GPL-2.0-only
//
// The RoCEv2 header codec on plain bytes (no ns-3 Packet): byte positions
// and lengths from the documented layouts (IPv4 20 | UDP 8 | BTH 12 |
// RETH/AETH 16 | INT 2 + 8 per hop), truncation at every length, and the ECN
// rewrite checked against the RFC 1071 rule that a valid header sums to
// 0xFFFF.
#include "roce-test-headers.h"
#include "rocev2-codec.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace ns3;

namespace
{

// One's-complement sum of a header's 16-bit words, checksum included: 0xFFFF
// when the checksum is right (RFC 1071), computed here word by word.
uint32_t
OnesSum(const uint8_t* h, uint32_t len)
{
    uint32_t sum = 0;
    for (uint32_t i = 0; i + 1 < len; i += 2)
    {
        sum += (uint32_t(h[i]) << 8) | h[i + 1];
    }
    while (sum >> 16)
    {
        sum = (sum & 0xFFFF) + (sum >> 16);
    }
    return sum;
}

RocePacketInfo
AckWithTwoHops()
{
    RocePacketInfo i;
    i.type = RocePktType::ACK;
    i.src = Ipv4Address("10.0.0.2");
    i.dst = Ipv4Address("10.0.0.1");
    i.sport = 50000;
    i.prio = 0;
    i.ecn = ROCE_ECN_ECT0;
    i.ackSeq = 123456789;
    i.nFlows = 3;
    libcc_int_list_init(&i.ints);
    for (int h = 0; h < 2; h++)
    {
        libcc_int_hop hop{};
        hop.bandwidth_bps = 100000000000ull; // 100 Gbps: in both wire tables
        hop.ts_ns = 1000 + h;
        hop.tx_bytes = 128 * (10 + h);
        hop.qlen_bytes = 80 * h;
        libcc_int_list_push(&i.ints, &hop, LIBCC_INT_MAX_HOPS);
    }
    return i;
}

} // namespace

TEST(Rocev2Codec, WriteHeadersPutsEachFieldAtItsOffset)
{
    RocePacketInfo info = AckWithTwoHops();
    uint8_t b[ROCE_MAX_HEADER_BYTES];
    // 20 + 8 + 12 + 16 + (2 + 2 x 8) = 74 bytes, no payload.
    uint32_t len = RoceWriteHeaders(info, b);
    ASSERT_EQ(len, 74u);
    EXPECT_EQ(b[0], 0x45);                     // IPv4, IHL 5
    EXPECT_EQ(b[1], (0 << 5) | ROCE_ECN_ECT0); // DSCP CS0, ECT(0)
    EXPECT_EQ((b[2] << 8) | b[3], 74);         // total length
    EXPECT_EQ(b[9], 17);                       // UDP
    EXPECT_EQ(OnesSum(b, 20), 0xFFFFu);        // IPv4 checksum valid
    EXPECT_EQ((b[20] << 8) | b[21], 50000);    // UDP source port
    EXPECT_EQ((b[22] << 8) | b[23], 4791);     // RoCEv2
    EXPECT_EQ((b[24] << 8) | b[25], 74 - 20);  // UDP length
    EXPECT_EQ(b[28], ROCE_OP_ACK);             // BTH opcode
    EXPECT_EQ(b[29] & RoceBthHeader::FLAG_INT, RoceBthHeader::FLAG_INT);
    EXPECT_EQ(b[40], RoceAckHeader::SYNDROME_ACK); // AETH at 20 + 8 + 12
    EXPECT_EQ((b[42] << 8) | b[43], 3);            // N
    EXPECT_EQ(b[57], 2);                           // INT hop count at 56 + 1
    // Invalid fields write nothing usable: 0.
    info.prio = 8;
    EXPECT_EQ(RoceWriteHeaders(info, b), 0u);
}

TEST(Rocev2Codec, ParseHeadersNeedsEveryHeaderByte)
{
    RocePacketInfo info = AckWithTwoHops();
    uint8_t b[ROCE_MAX_HEADER_BYTES];
    uint32_t len = RoceWriteHeaders(info, b);
    ASSERT_EQ(len, 74u);
    RocePacketInfo out;
    ASSERT_TRUE(RoceParseHeaders(b, len, len, out));
    EXPECT_EQ(out.type, RocePktType::ACK);
    EXPECT_EQ(out.ackSeq, 123456789u);
    EXPECT_EQ(out.nFlows, 3);
    ASSERT_EQ(out.ints.n_hops, 2u);
    // 128-byte and 1-ns units keep these exactly.
    EXPECT_EQ(out.ints.hop[1].tx_bytes, 128u * 11);
    EXPECT_EQ(out.ints.hop[1].ts_ns, 1001u);
    // Any byte less of the headers is not a packet.
    for (uint32_t n = 0; n < len; n++)
    {
        EXPECT_FALSE(RoceParseHeaders(b, n, len, out)) << n << " bytes";
        EXPECT_EQ(out.type, RocePktType::OTHER);
    }
    // A packet shorter than its IPv4 total length is truncated.
    EXPECT_FALSE(RoceParseHeaders(b, len, len - 1, out));
    EXPECT_FALSE(RoceParseHeaders(nullptr, len, len, out));
}

TEST(Rocev2Codec, PeekKeyReadsTheHopCountOnlyWhenTheIntHeaderIsWhole)
{
    RocePacketInfo info = AckWithTwoHops();
    uint8_t b[ROCE_MAX_HEADER_BYTES];
    uint32_t len = RoceWriteHeaders(info, b);
    RoceFlowKey key;
    ASSERT_TRUE(RocePeekKeyBytes(b, len, key));
    EXPECT_EQ(key.type, RocePktType::ACK);
    EXPECT_TRUE(key.hasInt);
    EXPECT_EQ(key.intHops, 2);
    EXPECT_EQ(key.src, (10u << 24) | 2u);
    EXPECT_EQ(key.sport, 50000);
    // Cut inside the second hop (74 - 1): the count is not trusted.
    ASSERT_TRUE(RocePeekKeyBytes(b, len - 1, key));
    EXPECT_EQ(key.intHops, -1);
    // Another UDP port: forwarded by the 5-tuple, not RoCEv2.
    b[22] = 0;
    b[23] = 53;
    ASSERT_TRUE(RocePeekKeyBytes(b, len, key));
    EXPECT_EQ(key.type, RocePktType::OTHER);
    EXPECT_FALSE(key.hasInt);
    // Not IPv4.
    b[0] = 0x65;
    EXPECT_FALSE(RocePeekKeyBytes(b, len, key));
}

TEST(Rocev2Codec, MarkCeSetsBothEcnBitsAndKeepsTheChecksumValid)
{
    RocePacketInfo info = AckWithTwoHops();
    uint8_t b[ROCE_MAX_HEADER_BYTES];
    RoceWriteHeaders(info, b);
    uint8_t before[20];
    std::memcpy(before, b, 20);
    ASSERT_TRUE(RoceMarkCeBytes(b, 20));
    EXPECT_EQ(b[1] & 0x3, ROCE_ECN_CE);
    EXPECT_EQ(b[1] >> 2, before[1] >> 2); // DSCP untouched
    EXPECT_EQ(OnesSum(b, 20), 0xFFFFu);
    // Already CE: nothing to do.
    EXPECT_FALSE(RoceMarkCeBytes(b, 20));
    // Not ECN-capable: never marked, bytes unchanged.
    info.ecn = ROCE_ECN_NOT_ECT;
    RoceWriteHeaders(info, b);
    std::memcpy(before, b, 20);
    EXPECT_FALSE(RoceMarkCeBytes(b, 20));
    EXPECT_EQ(std::memcmp(before, b, 20), 0);
    // Less than a whole IPv4 header.
    info.ecn = ROCE_ECN_ECT1;
    RoceWriteHeaders(info, b);
    EXPECT_FALSE(RoceMarkCeBytes(b, 19));
    EXPECT_FALSE(RoceMarkCeBytes(nullptr, 20));
}

TEST(Rocev2Codec, UdpChecksumIsZeroAsRoceV2SendsIt)
{
    // RoCEv2 senders put 0 in the UDP checksum (the ICRC covers the
    // transport headers and payload instead); UDP over IPv4 allows it. The
    // checksum is the last 16 bits of the UDP header, bytes 26 and 27.
    RocePacketInfo info = AckWithTwoHops();
    uint8_t b[ROCE_MAX_HEADER_BYTES];
    for (RocePktType t : {RocePktType::DATA, RocePktType::PROBE, RocePktType::ACK,
                          RocePktType::NACK, RocePktType::CNP})
    {
        info.type = t;
        info.hasInt = true;
        info.payloadBytes = 1000;
        std::memset(b, 0xAA, sizeof(b));
        ASSERT_GT(RoceWriteHeaders(info, b), 28u);
        EXPECT_EQ((b[26] << 8) | b[27], 0) << "type " << int(t);
        // A CE mark rewrites the IPv4 checksum only.
        ASSERT_TRUE(RoceMarkCeBytes(b, 20));
        EXPECT_EQ((b[26] << 8) | b[27], 0) << "type " << int(t);
    }
}

// The signal fields (docs/signals.md) sit between the 16-byte extension
// header and INT, each announced by a flag. An ACK with all four: 56 +
// TS 8 + NIC TS 16 + PINT 2 + HOPS 1 = 83, then INT (2 + 2 x 8) = 101.
TEST(Rocev2Codec, AckSignalsSitBeforeIntAndRoundTrip)
{
    RocePacketInfo info = AckWithTwoHops();
    info.hasTxTs = true;
    info.txTsNs = 0x0102030405060708ull;
    info.hasNicTs = true;
    info.remoteRxNs = 5000;
    info.remoteTxNs = 5100;
    info.hasPint = true;
    info.pint = 0xBEEF;
    info.hasHops = true;
    info.hops = 3;
    EXPECT_EQ(RoceSignalBytes(info), 27u);
    EXPECT_EQ(RocePacketBytes(info), 101u);
    uint8_t b[ROCE_MAX_HEADER_BYTES];
    uint32_t len = RoceWriteHeaders(info, b);
    ASSERT_EQ(len, 101u);
    EXPECT_EQ(b[41], ROCE_AETH_FLAG_TS | ROCE_AETH_FLAG_NIC_TS | ROCE_AETH_FLAG_PINT |
                         ROCE_AETH_FLAG_HOPS); // AETH flags, ECN echo clear
    EXPECT_EQ(b[56], 0x01);                    // TS, big-endian, right after the AETH
    EXPECT_EQ(b[63], 0x08);
    EXPECT_EQ((b[80] << 8) | b[81], 0xBEEF); // PINT at 56 + 8 + 16
    EXPECT_EQ(b[82], 3);                     // hops
    EXPECT_EQ(b[84], 2);                     // INT hop count at 83 + 1
    RocePacketInfo out;
    ASSERT_TRUE(RoceParseHeaders(b, len, len, out));
    EXPECT_EQ(out.txTsNs, 0x0102030405060708ull);
    EXPECT_EQ(out.remoteRxNs, 5000u);
    EXPECT_EQ(out.remoteTxNs, 5100u);
    EXPECT_EQ(out.pint, 0xBEEF);
    EXPECT_EQ(out.hops, 3);
    ASSERT_EQ(out.ints.n_hops, 2u);
    EXPECT_EQ(out.ints.hop[1].tx_bytes, 128u * 11);
    RoceFlowKey key;
    ASSERT_TRUE(RocePeekKeyBytes(b, len, key));
    EXPECT_EQ(key.intHops, 2); // found past the signal fields
    RocePacketInfo changed = out;
    EXPECT_TRUE(RoceWireEqual(out, changed));
    changed.hops = 4;
    EXPECT_FALSE(RoceWireEqual(out, changed));
    for (uint32_t n = 0; n < len; n++)
    {
        EXPECT_FALSE(RoceParseHeaders(b, n, len, out)) << n << " bytes";
    }
}

// Data: 56 + TS 8 + PINT 2 = 66 header bytes, flags in the BTH.
TEST(Rocev2Codec, DataSignalsRoundTrip)
{
    RocePacketInfo info;
    info.type = RocePktType::DATA;
    info.payloadBytes = 1000;
    info.hasTxTs = true;
    info.txTsNs = 123456789;
    info.hasPint = true;
    info.pint = 7;
    EXPECT_EQ(RocePacketBytes(info), 1066u);
    uint8_t b[ROCE_MAX_HEADER_BYTES];
    uint32_t len = RoceWriteHeaders(info, b);
    ASSERT_EQ(len, 66u);
    EXPECT_EQ(b[29], ROCE_BTH_FLAG_TS | ROCE_BTH_FLAG_PINT);
    RocePacketInfo out;
    ASSERT_TRUE(RoceParseHeaders(b, len, 1066, out));
    EXPECT_TRUE(RoceWireEqual(info, out));
    EXPECT_EQ(out.payloadBytes, 1000u);
    EXPECT_EQ(out.txTsNs, 123456789u);
    EXPECT_EQ(out.pint, 7u);
}

// Feedback: 56 bytes, rate | switch | port in the 16-byte body.
TEST(Rocev2Codec, FeedbackCarriesRateAndItsCongestionPoint)
{
    RocePacketInfo info;
    info.type = RocePktType::FEEDBACK;
    info.destQp = 9;
    info.fbRateBps = 40000000000ull;
    info.fbSwitchId = 4;
    info.fbPortId = 2;
    uint8_t b[ROCE_MAX_HEADER_BYTES];
    uint32_t len = RoceWriteHeaders(info, b);
    ASSERT_EQ(len, 56u);
    EXPECT_EQ(b[28], ROCE_OP_FEEDBACK);
    RocePacketInfo out;
    ASSERT_TRUE(RoceParseHeaders(b, len, len, out));
    EXPECT_EQ(out.type, RocePktType::FEEDBACK);
    EXPECT_EQ(out.fbRateBps, 40000000000ull);
    EXPECT_EQ(out.fbSwitchId, 4u);
    EXPECT_EQ(out.fbPortId, 2u);
    EXPECT_EQ(out.destQp, 9u);
    EXPECT_TRUE(RoceWireEqual(info, out));
}
