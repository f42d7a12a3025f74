// SPDX-License-Identifier: GPL-2.0-only
//
// Pcap through ns-3's PcapHelperForDevice (QbbHelper) and one Packet uid per
// frame and link: what a device's PhyTxBegin reports, its peer's PhyRxEnd
// reports with the same Packet uid.

#include "qbb-helper.h"
#include "rdma-network.h"

#include <ns3/simulator.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

const uint64_t G100 = 100000000000ull;

// uids a device sent and received.
struct Uids
{
    std::multiset<uint64_t> tx;
    std::vector<uint64_t> rx;
    static void OnTx(Uids* u, Ptr<const Packet> p)
    {
        u->tx.insert(p->GetUid());
    }
    static void OnRx(Uids* u, Ptr<const Packet> p)
    {
        u->rx.push_back(p->GetUid());
    }
};

// Records in a pcap file, -1 if it is not one (magic, Ethernet link type).
int
PcapRecords(const std::string& file)
{
    FILE* f = std::fopen(file.c_str(), "rb");
    if (!f)
    {
        return -1;
    }
    uint8_t g[24];
    int n = -1;
    if (std::fread(g, 1, 24, f) == 24 && g[0] == 0xd4 && g[1] == 0xc3 && g[2] == 0xb2 &&
        g[3] == 0xa1 && g[20] == 1)
    {
        n = 0;
        uint8_t rh[16];
        while (std::fread(rh, 1, 16, f) == 16)
        {
            uint32_t incl = rh[8] | (rh[9] << 8) | (rh[10] << 16) | (uint32_t(rh[11]) << 24);
            if (std::fseek(f, incl, SEEK_CUR) != 0)
            {
                n = -1;
                break;
            }
            n++;
        }
    }
    std::fclose(f);
    return n;
}

// Sender 0 -> switch 2 -> receiver 1, 100 Gbps, 1 us; one 10-packet flow
// (10 x 1000 bytes), no congestion control: the receiver ACKs every packet.
struct TenPackets
{
    RdmaNetwork net;
    TenPackets()
    {
        net.SetCongestionControl("none");
        net.Build(MakeDumbbellTopology(1, 1, G100, 1000));
        net.AddFlow(FlowSpec{0, 1, 3, 100, 10000, 0, 0}, 0);
    }
};

} // namespace

TEST(QbbPcap, PhyRxEndCarriesTheUidOfThePeersPhyTxBegin)
{
    TenPackets t;
    std::map<Ptr<QbbNetDevice>, Uids> uids;
    for (const auto& d : t.net.GetDevices())
    {
        d->TraceConnectWithoutContext("PhyTxBegin", MakeBoundCallback(&Uids::OnTx, &uids[d]));
        d->TraceConnectWithoutContext("PhyRxEnd", MakeBoundCallback(&Uids::OnRx, &uids[d]));
    }
    Simulator::Stop(MicroSeconds(100));
    Simulator::Run();
    // Two links: (host 0, switch 2) and (switch 2, host 1).
    const std::pair<uint32_t, uint32_t> links[] = {{0, 2}, {2, 0}, {2, 1}, {1, 2}};
    for (const auto& [a, b] : links)
    {
        const Uids& rx = uids[t.net.GetLinkDevice(a, b)];
        const Uids& tx = uids[t.net.GetLinkDevice(b, a)];
        // Every frame: 10 data one way, 10 ACKs the other.
        EXPECT_EQ(rx.rx.size(), 10u) << a << " from " << b;
        EXPECT_EQ(tx.tx.size(), 10u) << b << " to " << a;
        for (uint64_t uid : rx.rx)
        {
            EXPECT_EQ(tx.tx.count(uid), 1u) << "uid " << uid << " at " << a << " from " << b;
        }
    }
    Simulator::Destroy();
}

// Runs TenPackets with pcap enabled by enable(net, prefix); returns the
// files <prefix>-<node id>-<device id>.pcap of every device.
std::vector<std::string>
RunWithPcap(const std::string& prefix, void (*enable)(RdmaNetwork&, const std::string&))
{
    std::vector<std::string> files;
    TenPackets t;
    enable(t.net, prefix);
    for (const auto& d : t.net.GetDevices())
    {
        files.push_back(prefix + "-" + std::to_string(d->GetNode()->GetId()) + "-" +
                        std::to_string(d->GetIfIndex()) + ".pcap");
    }
    Simulator::Stop(MicroSeconds(100));
    Simulator::Run();
    Simulator::Destroy();
    return files;
}

TEST(QbbPcap, FilesNamedByNodeAndDeviceHoldEveryFrame)
{
    const std::string prefix = "/tmp/libcc-gtest-pcap-" + std::to_string(getpid());
    std::vector<std::string> files =
        RunWithPcap(prefix, [](RdmaNetwork& net, const std::string& p) { net.EnablePcap(p); });
    // Host 0, switch 2 (ports 0 and 1), host 1: 4 devices. Each end of a
    // link sees 10 data frames and 10 ACKs (sent or received); no PFC (one
    // flow at the line rate never fills a queue).
    ASSERT_EQ(files.size(), 4u);
    for (const auto& f : files)
    {
        EXPECT_EQ(PcapRecords(f), 20) << f;
        std::remove(f.c_str());
    }
    // By hand for the first ids: node 0's only device is 0.
    EXPECT_NE(files[0].find("-0-0.pcap"), std::string::npos) << files[0];
}

TEST(QbbPcap, HelperEnablePcapAllAndExplicitFilename)
{
    const std::string prefix = "/tmp/libcc-gtest-pcapall-" + std::to_string(getpid());
    std::vector<std::string> files =
        RunWithPcap(prefix, [](RdmaNetwork& net, const std::string& p) {
            QbbHelper qbb;
            qbb.EnablePcapAll(p);
            qbb.EnablePcap(p + "-explicit.pcap", net.GetLinkDevice(1, 2), false, true);
        });
    ASSERT_EQ(files.size(), 4u);
    for (const auto& f : files)
    {
        EXPECT_EQ(PcapRecords(f), 20) << f;
        std::remove(f.c_str());
    }
    // The receiver's device: 10 data in, 10 ACKs out.
    EXPECT_EQ(PcapRecords(prefix + "-explicit.pcap"), 20);
    std::remove((prefix + "-explicit.pcap").c_str());
}
