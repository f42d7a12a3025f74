// SPDX-License-Identifier: GPL-2.0-only
//
// RDMA and TCP side by side (docs/ns3-bindings.md, "IP traffic beside
// RDMA"): a dumbbell of 3 senders, one switch and a receiver, 100 Gbps,
// 1 us links. Hosts 0 and 1 each send an RDMA flow under libcc's
// congestion control (FNCC by default); host 2 sends a TCP bulk transfer
// (ns-3's InternetStackHelper, BulkSendApplication, PacketSink) on its own
// priority, lossless or lossy. Prints each RDMA flow's FCT and the TCP
// transfer's completion time.
//
//   build/bin/tcp-beside-rdma --algo=fncc --rdmaSize=2MB --tcpSize=2MB
//   build/bin/tcp-beside-rdma --ipLossy=1 --lossyLimit=20KB

#include "checked-options.h"
#include "rdma-network.h"
#include "rdma-trace.h"

#include <ns3/applications-module.h>
#include <ns3/core-module.h>
#include <ns3/internet-module.h>

#include <cinttypes>
#include <cstdio>

using namespace ns3;

namespace
{

struct TcpDone
{
    uint64_t want = 0;
    uint64_t got = 0;
    Time start;
    Time end;
};

void
OnRdmaDone(uint32_t* done, const RdmaFlowRecord& r)
{
    (*done)++;
    std::printf("rdma flow %u: %" PRIu64 " bytes, FCT %" PRIu64 " ns, ideal %" PRIu64 " ns\n",
                r.flow.flowId, r.flow.sizeBytes, r.fctNs, RdmaIdealFctNs(r));
}

void
OnTcpRx(TcpDone* d, Ptr<const Packet> p, const Address&)
{
    d->got += p->GetSize();
    if (d->got >= d->want && d->end.IsZero())
    {
        d->end = Simulator::Now();
        std::printf("tcp flow: %" PRIu64 " bytes, completion %" PRIu64 " ns\n", d->got,
                    static_cast<uint64_t>((d->end - d->start).GetNanoSeconds()));
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string algo = "fncc";
    std::string cc;
    uint64_t rdmaSize = 2000000;
    uint64_t tcpSize = 2000000;
    uint32_t ipPrio = 1;
    bool ipLossy = false;
    uint64_t lossyLimit = 256 * 1024;
    Time stop = Seconds(2);
    CheckedOptions cmd("tcp-beside-rdma",
                       "Two RDMA flows and a TCP bulk transfer through one bottleneck.");
    cmd.AddCongestionControl(algo, cc);
    cmd.AddBytes("rdmaSize", "size of each RDMA flow", rdmaSize, 1, 1000000000000ull);
    cmd.AddBytes("tcpSize", "bytes the TCP flow sends", tcpSize, 1, 1000000000000ull);
    cmd.AddCount("ipPrio", "priority of IP traffic (RDMA uses 3)", ipPrio, 0, 7);
    cmd.AddBool("ipLossy", "make the IP priority lossy (no PFC, tail drop at lossyLimit)", ipLossy);
    cmd.AddBytes("lossyLimit", "switch queue limit of a lossy priority", lossyLimit, 1,
                 1000000000ull);
    cmd.AddTime("stop", "simulated time limit", stop, MicroSeconds(1), Seconds(100));
    // TCP as a data centre runs it (before Parse: --ns3::TcpSocket...=
    // overrides): full-MTU segments (1500 = IPv4 20 + TCP 20 + 1460), an RTO
    // in ms, not 1 s, and no timestamps: ns-3's count milliseconds, which
    // at RTTs of microseconds leaves a loss recovered one segment per RTO.
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1460));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(1)));
    Config::SetDefault("ns3::TcpSocketBase::ClockGranularity", TimeValue(MicroSeconds(1)));
    int rc = cmd.Parse(argc, argv);
    if (rc >= 0)
    {
        return rc;
    }

    RdmaNetwork net;
    if (!cmd.ApplyCongestionControl(net))
    {
        return 2;
    }
    net.SetNicAttribute("IpPriority", UintegerValue(ipPrio));
    uint32_t lossless = ipLossy ? 0xFF & ~(1u << ipPrio) : 0xFF;
    net.SetSwitchAttribute("LosslessPriorities", UintegerValue(lossless));
    net.SetSwitchAttribute("LossyQueueLimit", UintegerValue(lossyLimit));
    // Senders 0, 1 (RDMA) and 2 (TCP), receiver 3, switch 4.
    net.Build(MakeDumbbellTopology(3, 1, 100000000000ull, 1000));
    net.InstallInternetStack();

    uint32_t rdmaDone = 0;
    for (uint32_t h = 0; h < 2; h++)
    {
        net.GetNic(h)->TraceConnectWithoutContext("FlowComplete",
                                                  MakeBoundCallback(&OnRdmaDone, &rdmaDone));
        net.AddFlow(FlowSpec{h, 3, 3, 100, rdmaSize, 0, 0}, h);
    }
    const uint16_t port = 5000;
    PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sink = sinkHelper.Install(net.GetNode(3));
    TcpDone tcp;
    tcp.want = tcpSize;
    sink.Get(0)->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnTcpRx, &tcp));
    BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(net.GetHostAddress(3), port));
    bulk.SetAttribute("MaxBytes", UintegerValue(tcpSize));
    bulk.SetAttribute("SendSize", UintegerValue(1460));
    bulk.Install(net.GetNode(2)).Start(Seconds(0));

    Simulator::Stop(stop);
    Simulator::Run();
    uint64_t drops = net.GetSwitch(4)->GetDrops();
    std::printf("tcp received %" PRIu64 " of %" PRIu64 " bytes; switch drops %" PRIu64 "\n",
                tcp.got, tcpSize, drops);
    bool tcpDone = tcp.got == tcpSize;
    Simulator::Destroy();
    if (!tcpDone || rdmaDone != 2)
    {
        std::fprintf(stderr,
                     "tcp-beside-rdma: not finished by --stop (tcp %s, %u of 2 RDMA flows)\n",
                     tcpDone ? "done" : "not done", rdmaDone);
        return 1;
    }
    return 0;
}
