// SPDX-License-Identifier: GPL-2.0-only
//
// RoCEv2 packet codec: sizes from the documented layouts, round trips, the
// switch's raw-byte key, ECN and INT rewriting, and bad inputs.
#include "roce-test-headers.h"
#include "rocev2-packet.h"
#include "test_qbb_util.h"

#include "ns3/ipv4-header.h"
#include "ns3/udp-header.h"

#include <gtest/gtest.h>

using namespace ns3;
using qbbtest::Hop;

namespace
{

// The packet as ns-3's header classes (and roce-test-headers.h's) serialize
// it, one object per header: RoceBuild writes raw bytes and must produce
// exactly these.
Ptr<Packet>
BuildWithHeaderObjects(const RocePacketInfo& info)
{
    bool data = info.type == RocePktType::DATA || info.type == RocePktType::PROBE;
    bool ack = info.type == RocePktType::ACK || info.type == RocePktType::NACK;
    uint8_t flags = info.last ? RoceBthHeader::FLAG_LAST : 0;
    Ptr<Packet> p = Create<Packet>(info.type == RocePktType::DATA ? info.payloadBytes : 0);
    if ((data && info.hasInt) || ack)
    {
        RoceIntHeader ih;
        ih.SetFormat(info.intFormat);
        ih.SetList(info.ints);
        p->AddHeader(ih);
        flags |= RoceBthHeader::FLAG_INT;
    }
    uint8_t op = ROCE_OP_CNP;
    if (data)
    {
        RoceRethHeader reth;
        reth.SetSeq(info.seq);
        reth.SetLength(info.type == RocePktType::DATA ? info.payloadBytes : 0);
        p->AddHeader(reth);
        op = info.type == RocePktType::DATA ? ROCE_OP_DATA : ROCE_OP_PROBE;
    }
    else if (ack)
    {
        RoceAckHeader aeth;
        aeth.SetSyndrome(info.type == RocePktType::NACK ? RoceAckHeader::SYNDROME_NACK
                                                        : RoceAckHeader::SYNDROME_ACK);
        aeth.SetFlags(info.ecnEcho ? RoceAckHeader::FLAG_ECN_ECHO : 0);
        aeth.SetNFlows(info.nFlows);
        aeth.SetRxWindow(info.rxWindow);
        aeth.SetSeq(info.ackSeq);
        p->AddHeader(aeth);
        op = ROCE_OP_ACK;
    }
    else
    {
        RoceCnpHeader cnp;
        p->AddHeader(cnp);
    }
    RoceBthHeader bth;
    bth.SetOpcode(op);
    bth.SetFlags(flags);
    bth.SetDestQp(info.destQp);
    bth.SetPsn(info.psn);
    bth.SetAckReq(info.ackReq);
    p->AddHeader(bth);
    UdpHeader udp;
    udp.SetSourcePort(info.sport);
    udp.SetDestinationPort(info.dport);
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(info.src);
    ip.SetDestination(info.dst);
    ip.SetProtocol(17);
    ip.SetTtl(info.ttl);
    ip.SetTos(static_cast<uint8_t>((info.prio << 5) | info.ecn));
    ip.SetPayloadSize(p->GetSize());
    ip.EnableChecksum();
    p->AddHeader(ip);
    return p;
}

std::vector<uint8_t>
Bytes(Ptr<const Packet> p)
{
    std::vector<uint8_t> v(p->GetSize());
    p->CopyData(v.data(), v.size());
    return v;
}

} // namespace

TEST(Rocev2Packet, RawBuildEqualsTheHeaderClassesByteForByte)
{
    RocePacketInfo i;
    i.src = Ipv4Address("10.1.2.3");
    i.dst = Ipv4Address("192.168.7.9");
    i.sport = 51234;
    i.prio = 6;
    i.ecn = ROCE_ECN_ECT1;
    i.ttl = 33;
    i.destQp = 0x123456;
    i.psn = 0xABCDEF;
    i.ackReq = true;
    i.last = true;
    i.seq = 0x0102030405060708ull;
    i.payloadBytes = 300;
    i.ackSeq = 0x1112131415161718ull;
    i.nFlows = 513;
    i.rxWindow = 0x01020304;
    i.ecnEcho = true;
    libcc_int_list_init(&i.ints);
    libcc_int_hop h = Hop(100000000000ull, 77777, 128 * 5, 80 * 3);
    libcc_int_list_push(&i.ints, &h, 8);
    libcc_int_list_push(&i.ints, &h, 8);
    for (RocePktType t : {RocePktType::DATA, RocePktType::PROBE, RocePktType::ACK,
                          RocePktType::NACK, RocePktType::CNP})
    {
        for (bool withInt : {false, true})
        {
            i.type = t;
            i.hasInt = withInt;
            i.intFormat = withInt ? RoceIntHeader::FORMAT_HPCC : RoceIntHeader::FORMAT_FNCC;
            if (!withInt && (t == RocePktType::ACK || t == RocePktType::NACK))
            {
                libcc_int_list_init(&i.ints); // an ACK with an empty INT header
            }
            EXPECT_EQ(Bytes(RoceBuild(i)), Bytes(BuildWithHeaderObjects(i)))
                << "type " << int(t) << " int " << withInt;
        }
        libcc_int_list_push(&i.ints, &h, 8);
    }
}

TEST(Rocev2Packet, SizesFollowTheLayouts)
{
    RocePacketInfo d;
    d.type = RocePktType::DATA;
    d.payloadBytes = 1000;
    // IPv4 20 + UDP 8 + BTH 12 + RETH 16 + payload
    EXPECT_EQ(RocePacketBytes(d), 1056u);
    d.hasInt = true;
    libcc_int_list_init(&d.ints);
    libcc_int_hop h = Hop(100000000000ull, 5, 0, 0);
    libcc_int_list_push(&d.ints, &h, 8);
    libcc_int_list_push(&d.ints, &h, 8);
    // + INT 2 + 2 x 8
    EXPECT_EQ(RocePacketBytes(d), 1074u);
    EXPECT_EQ(RoceBuild(d)->GetSize(), 1074u);
    RocePacketInfo a;
    a.type = RocePktType::ACK;
    // 20 + 8 + 12 + AETH 16 + INT 2 (no hops)
    EXPECT_EQ(RoceBuild(a)->GetSize(), 58u);
    RocePacketInfo c;
    c.type = RocePktType::CNP;
    // 20 + 8 + 12 + 16 reserved
    EXPECT_EQ(RoceBuild(c)->GetSize(), 56u);
}

TEST(Rocev2Packet, DataRoundTripKeepsEveryField)
{
    RocePacketInfo i;
    i.type = RocePktType::DATA;
    i.src = Ipv4Address("10.1.2.3");
    i.dst = Ipv4Address("10.4.5.6");
    i.sport = 50001;
    i.prio = 5;
    i.ecn = ROCE_ECN_ECT1;
    i.destQp = 0xABCDEF;
    i.psn = 0x123456;
    i.ackReq = true;
    i.last = true;
    i.seq = 0x1122334455ull;
    i.payloadBytes = 777;
    i.hasInt = true;
    libcc_int_list_init(&i.ints);
    // HPCC wire units: ts 1 ns, txBytes 128 B, qLen 80 B: choose exact multiples.
    libcc_int_hop h = Hop(25000000000ull, 123456, 128 * 1000, 80 * 7);
    ASSERT_EQ(libcc_int_list_push(&i.ints, &h, 8), LIBCC_OK);
    Ptr<Packet> p = RoceBuild(i);
    ASSERT_TRUE(p);
    RocePacketInfo o;
    ASSERT_TRUE(RoceParse(p, o));
    EXPECT_EQ(o.type, RocePktType::DATA);
    EXPECT_EQ(o.src, i.src);
    EXPECT_EQ(o.dst, i.dst);
    EXPECT_EQ(o.sport, 50001);
    EXPECT_EQ(o.dport, ROCEV2_UDP_PORT);
    EXPECT_EQ(o.prio, 5);
    EXPECT_EQ(o.ecn, ROCE_ECN_ECT1);
    EXPECT_EQ(o.destQp, 0xABCDEFu);
    EXPECT_EQ(o.psn, 0x123456u);
    EXPECT_TRUE(o.ackReq);
    EXPECT_TRUE(o.last);
    EXPECT_EQ(o.seq, 0x1122334455ull);
    EXPECT_EQ(o.payloadBytes, 777u);
    ASSERT_TRUE(o.hasInt);
    ASSERT_EQ(o.ints.n_hops, 1);
    EXPECT_EQ(o.ints.hop[0].bandwidth_bps, 25000000000ull);
    EXPECT_EQ(o.ints.hop[0].ts_ns, 123456u);
    EXPECT_EQ(o.ints.hop[0].tx_bytes, 128000u);
    EXPECT_EQ(o.ints.hop[0].qlen_bytes, 560u);
    // 24-bit ts in 1 ns units, 20-bit txBytes in 128 B units (2^7): 24 and 27 bits.
    EXPECT_EQ(o.ints.ts_bits, 24);
    EXPECT_EQ(o.ints.tx_bits, 27);
    // DSCP class selector: TOS = 5 << 5 | ECT(1) = 0xA1
    Ipv4Header ip;
    p->PeekHeader(ip);
    EXPECT_EQ(ip.GetTos(), 0xA1);
}

TEST(Rocev2Packet, AckNackCnpProbeRoundTrip)
{
    RocePacketInfo a;
    a.type = RocePktType::NACK;
    a.ackSeq = 4242;
    a.nFlows = 17;
    a.rxWindow = 65536;
    a.ecnEcho = true;
    a.intFormat = RoceIntHeader::FORMAT_FNCC;
    RocePacketInfo o;
    ASSERT_TRUE(RoceParse(RoceBuild(a), o));
    EXPECT_EQ(o.type, RocePktType::NACK);
    EXPECT_EQ(o.ackSeq, 4242u);
    EXPECT_EQ(o.nFlows, 17);
    EXPECT_EQ(o.rxWindow, 65536u);
    EXPECT_TRUE(o.ecnEcho);
    EXPECT_TRUE(o.hasInt);
    EXPECT_EQ(o.intFormat, RoceIntHeader::FORMAT_FNCC);
    EXPECT_EQ(o.ints.n_hops, 0);
    a.type = RocePktType::ACK;
    ASSERT_TRUE(RoceParse(RoceBuild(a), o));
    EXPECT_EQ(o.type, RocePktType::ACK);
    RocePacketInfo c;
    c.type = RocePktType::CNP;
    c.destQp = 99;
    ASSERT_TRUE(RoceParse(RoceBuild(c), o));
    EXPECT_EQ(o.type, RocePktType::CNP);
    EXPECT_EQ(o.destQp, 99u);
    RocePacketInfo pr;
    pr.type = RocePktType::PROBE;
    pr.payloadBytes = 500; // ignored: a probe has no payload
    ASSERT_TRUE(RoceParse(RoceBuild(pr), o));
    EXPECT_EQ(o.type, RocePktType::PROBE);
    EXPECT_EQ(o.payloadBytes, 0u);
}

TEST(Rocev2Packet, PeekKeyReadsTheRawHeaders)
{
    RocePacketInfo i;
    i.type = RocePktType::ACK;
    i.src = Ipv4Address("1.2.3.4");
    i.dst = Ipv4Address("5.6.7.8");
    i.sport = 1234;
    i.prio = 7;
    i.ecn = ROCE_ECN_NOT_ECT;
    RoceFlowKey k;
    ASSERT_TRUE(RocePeekKey(RoceBuild(i), k));
    EXPECT_EQ(k.src, 0x01020304u);
    EXPECT_EQ(k.dst, 0x05060708u);
    EXPECT_EQ(k.sport, 1234);
    EXPECT_EQ(k.dport, 4791);
    EXPECT_EQ(k.proto, 17);
    EXPECT_EQ(k.prio, 7);
    EXPECT_EQ(k.ecn, 0);
    EXPECT_EQ(k.type, RocePktType::ACK);
    EXPECT_TRUE(k.hasInt);
    i.type = RocePktType::DATA;
    ASSERT_TRUE(RocePeekKey(RoceBuild(i), k));
    EXPECT_EQ(k.type, RocePktType::DATA);
    EXPECT_FALSE(k.hasInt);
}

TEST(Rocev2Packet, MarkCeOnlyWhenEcnCapable)
{
    RocePacketInfo i;
    i.type = RocePktType::DATA;
    i.payloadBytes = 10;
    i.ecn = ROCE_ECN_ECT0;
    Ptr<Packet> p = RoceBuild(i);
    EXPECT_TRUE(RoceMarkCe(p));
    RocePacketInfo o;
    ASSERT_TRUE(RoceParse(p, o));
    EXPECT_EQ(o.ecn, ROCE_ECN_CE);
    Ipv4Header ip;
    ip.EnableChecksum();
    p->PeekHeader(ip);
    EXPECT_TRUE(ip.IsChecksumOk());
    EXPECT_FALSE(RoceMarkCe(p)); // already CE: not marked again
    i.ecn = ROCE_ECN_NOT_ECT;
    Ptr<Packet> q = RoceBuild(i);
    EXPECT_FALSE(RoceMarkCe(q));
    ASSERT_TRUE(RoceParse(q, o));
    EXPECT_EQ(o.ecn, ROCE_ECN_NOT_ECT);
}

TEST(Rocev2Packet, AppendIntHopGrowsThePacketAndFixesLengths)
{
    RocePacketInfo i;
    i.type = RocePktType::DATA;
    i.payloadBytes = 100;
    i.hasInt = true;
    Ptr<Packet> p = RoceBuild(i);
    ASSERT_EQ(p->GetSize(), 20u + 8 + 12 + 16 + 2 + 100);
    ASSERT_TRUE(RoceAppendIntHop(p, Hop(100000000000ull, 1000, 256, 160)));
    ASSERT_TRUE(RoceAppendIntHop(p, Hop(400000000000ull, 2000, 512, 0)));
    EXPECT_EQ(p->GetSize(), 20u + 8 + 12 + 16 + 2 + 16 + 100);
    Ipv4Header ip;
    ip.EnableChecksum();
    p->PeekHeader(ip);
    EXPECT_EQ(ip.GetPayloadSize(), p->GetSize() - 20);
    EXPECT_TRUE(ip.IsChecksumOk());
    Ptr<Packet> c = p->Copy();
    c->RemoveHeader(ip);
    UdpHeader udp;
    c->RemoveHeader(udp);
    uint8_t len[2];
    Ptr<Packet> u = p->Copy();
    u->RemoveAtStart(20 + 4);
    u->CopyData(len, 2);
    EXPECT_EQ((len[0] << 8) | len[1], int(p->GetSize() - 20)); // UDP length = header + payload
    RocePacketInfo o;
    ASSERT_TRUE(RoceParse(p, o));
    ASSERT_EQ(o.ints.n_hops, 2);
    EXPECT_EQ(o.ints.hop[0].ts_ns, 1000u);
    EXPECT_EQ(o.ints.hop[0].qlen_bytes, 160u);
    EXPECT_EQ(o.ints.hop[1].bandwidth_bps, 400000000000ull);
    EXPECT_EQ(o.ints.hop[1].tx_bytes, 512u);
    EXPECT_EQ(o.payloadBytes, 100u);
    // A packet without an INT header is refused and left alone.
    i.hasInt = false;
    Ptr<Packet> n = RoceBuild(i);
    uint32_t before = n->GetSize();
    EXPECT_FALSE(RoceAppendIntHop(n, Hop(100000000000ull, 1, 1, 1)));
    EXPECT_EQ(n->GetSize(), before);
}

TEST(Rocev2Packet, IntHeaderRefusesTheNinthHopAndUnencodableRates)
{
    RoceIntHeader h;
    libcc_int_hop ok = Hop(100000000000ull, 1, 0, 0);
    for (int k = 0; k < LIBCC_INT_MAX_HOPS; k++)
    {
        ASSERT_TRUE(h.PushHop(ok));
    }
    EXPECT_FALSE(h.PushHop(ok));
    RoceIntHeader e;
    // 1.6 Tbps has no code in the HPCC rate table (25/50/100/200/400 and
    // our 10/40/800)...
    EXPECT_FALSE(e.PushHop(Hop(1600000000000ull, 1, 0, 0)));
    EXPECT_EQ(e.GetNHops(), 0);
    // ... but has one in the FNCC table.
    e.SetFormat(RoceIntHeader::FORMAT_FNCC);
    EXPECT_TRUE(e.PushHop(Hop(1600000000000ull, 1, 0, 0)));
}

TEST(Rocev2Packet, BadInputsAreRefused)
{
    RocePacketInfo i;
    i.prio = 8;
    EXPECT_FALSE(RoceBuild(i));
    i.prio = 3;
    i.ecn = 4;
    EXPECT_FALSE(RoceBuild(i));
    i.ecn = 0;
    i.type = RocePktType::OTHER;
    EXPECT_FALSE(RoceBuild(i));
    // Not RoCE: UDP to port 53.
    Ptr<Packet> p = Create<Packet>(40);
    UdpHeader u;
    u.SetSourcePort(1000);
    u.SetDestinationPort(53);
    p->AddHeader(u);
    Ipv4Header ip;
    ip.SetProtocol(17);
    ip.SetPayloadSize(p->GetSize());
    p->AddHeader(ip);
    RocePacketInfo o;
    EXPECT_FALSE(RoceParse(p, o));
    EXPECT_EQ(o.type, RocePktType::OTHER);
    // Truncated.
    EXPECT_FALSE(RoceParse(Create<Packet>(10), o));
}
