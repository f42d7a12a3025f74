// SPDX-License-Identifier: GPL-2.0-only
//
// Test fixtures shared by the fabric tests: a minimal host (plain Node +
// QbbNetDevice + FIFO per priority, control class first) that records what
// it receives, and packet builders.
#ifndef TEST_QBB_UTIL_H
#define TEST_QBB_UTIL_H

#include "qbb-channel.h"
#include "qbb-helper.h"
#include "qbb-net-device.h"
#include "rocev2-packet.h"
#include "switch-node.h"

#include "ns3/data-rate.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include "ns3/string.h"

#include <array>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace qbbtest
{

using namespace ns3;

/// A host that sends what the test queued, highest priority first, and logs arrivals.
class TestHost : public QbbEgressSource
{
  public:
    struct Rx
    {
        Time t;
        Ptr<Packet> packet;
    };

    Ptr<Packet> DequeueNext(const std::array<bool, QBB_N_PRIO>& paused, uint8_t& prioOut) override
    {
        for (int p = QBB_N_PRIO - 1; p >= 0; p--)
        {
            if (!paused[p] && !q[p].empty())
            {
                Ptr<Packet> pkt = q[p].front();
                q[p].pop_front();
                prioOut = static_cast<uint8_t>(p);
                sentPrio.push_back(prioOut);
                return pkt;
            }
        }
        return nullptr;
    }

    bool HasPending() const override
    {
        for (const auto& d : q)
        {
            if (!d.empty())
            {
                return true;
            }
        }
        return false;
    }

    void Receive(Ptr<QbbNetDevice>, Ptr<Packet> p)
    {
        rx.push_back({Simulator::Now(), p});
    }

    void Attach(Ptr<QbbNetDevice> d)
    {
        dev = d;
        d->SetEgressSource(this);
        d->SetQbbReceiveCallback(MakeCallback(&TestHost::Receive, this));
    }

    /// Queue a packet now (call from a scheduled event or before Run) and kick the device.
    void Send(Ptr<Packet> p, uint8_t prio)
    {
        q[prio].push_back(p);
        dev->TriggerTransmit();
    }

    Ptr<QbbNetDevice> dev;
    std::array<std::deque<Ptr<Packet>>, QBB_N_PRIO> q;
    std::vector<Rx> rx;
    std::vector<uint8_t> sentPrio;
};

/// A RoCEv2 DATA packet of `payload` bytes, priority prio, ECT(0).
inline Ptr<Packet>
MakeData(const char* src, const char* dst, uint16_t sport, uint32_t payload, uint8_t prio = 3,
         bool withInt = false, uint64_t seq = 0)
{
    RocePacketInfo i;
    i.type = RocePktType::DATA;
    i.src = Ipv4Address(src);
    i.dst = Ipv4Address(dst);
    i.sport = sport;
    i.prio = prio;
    i.payloadBytes = payload;
    i.hasInt = withInt;
    i.seq = seq;
    return RoceBuild(i);
}

/// An ACK with no INT hops (format as given), priority prio.
inline Ptr<Packet>
MakeAck(const char* src, const char* dst, uint16_t sport, uint8_t prio = 3,
        uint8_t format = RoceIntHeader::FORMAT_HPCC)
{
    RocePacketInfo i;
    i.type = RocePktType::ACK;
    i.src = Ipv4Address(src);
    i.dst = Ipv4Address(dst);
    i.sport = sport;
    i.prio = prio;
    i.intFormat = format;
    i.ackSeq = 1000;
    return RoceBuild(i);
}

/// An INT hop with the four fields the wire carries (ids 0).
inline libcc_int_hop
Hop(uint64_t bps, uint64_t ts, uint64_t tx, uint64_t q)
{
    libcc_int_hop h{};
    h.bandwidth_bps = bps;
    h.ts_ns = ts;
    h.tx_bytes = tx;
    h.qlen_bytes = q;
    return h;
}

/// Picoseconds as a Time (the runner uses PS resolution).
inline Time
Ps(int64_t ps)
{
    return PicoSeconds(ps);
}

/// Hosts 10.0.0.(i+1) on switch port i; host i's link at rates[i], delay 1 us.
struct Star
{
    Ptr<SwitchNode> sw;
    std::vector<Ptr<Node>> nodes;
    std::vector<std::unique_ptr<TestHost>> hosts;

    explicit Star(const std::vector<const char*>& rates,
                  const std::vector<std::pair<std::string, std::string>>& swAttrs = {})
    {
        sw = CreateObject<SwitchNode>();
        for (const auto& a : swAttrs)
        {
            sw->SetAttribute(a.first, StringValue(a.second));
        }
        for (size_t i = 0; i < rates.size(); i++)
        {
            Ptr<Node> n = CreateObject<Node>();
            QbbHelper h;
            h.SetDeviceAttribute("DataRate", DataRateValue(DataRate(rates[i])));
            h.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
            NetDeviceContainer c = h.Install(n, sw);
            hosts.push_back(std::make_unique<TestHost>());
            hosts.back()->Attach(DynamicCast<QbbNetDevice>(c.Get(0)));
            nodes.push_back(n);
            sw->AddRoute(Addr(i), static_cast<uint32_t>(i));
        }
    }

    static Ipv4Address Addr(size_t i)
    {
        return Ipv4Address(static_cast<uint32_t>(0x0A000001 + i));
    }

    TestHost& H(size_t i)
    {
        return *hosts[i];
    }
};

} // namespace qbbtest

#endif // TEST_QBB_UTIL_H
