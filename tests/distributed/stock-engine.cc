// SPDX-License-Identifier: GPL-2.0-only
//
// The fabric on ns-3's own MPI engines (tests/distributed/run.sh runs it
// with mpirun): a dumbbell (2 senders on switch 3, switch 4, receiver 2 on
// switch 5; 100 Gbps, 1 us links) split at its middle switch, so every
// data packet and every ACK crosses ranks through QbbRemoteChannel,
// MpiInterface::SendPacket and an MpiReceiver. Two 1 MB flows from t = 0
// with no congestion control share the bottleneck: each finishes, and
// since they share it fairly the pair takes at least 2 MB over 100 Gbps,
// 160 us, and both end within 10% of each other.
//
// usage: stock-engine ns3::DistributedSimulatorImpl|ns3::NullMessageSimulatorImpl
// prints, on rank 0: "stock-engine: flows=2 completed=2 fct_us=A,B"

#include "ns3/qbb-remote-channel.h"
#include "ns3/rdma-network.h"
#include "ns3/rdma-partition.h"

#include "ns3/core-module.h"
#include "ns3/mpi-interface.h"

#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

using namespace ns3;

namespace
{
std::vector<uint64_t> g_fctNs;

void
Done(const RdmaFlowRecord& r)
{
    g_fctNs.push_back(r.fctNs);
}
} // namespace

int
main(int argc, char* argv[])
{
    if (argc != 2)
    {
        std::fprintf(stderr, "usage: %s SIMULATOR_IMPL_TYPEID\n", argv[0]);
        return 2;
    }
    GlobalValue::Bind("SimulatorImplementationType", StringValue(argv[1]));
    MpiInterface::Enable(&argc, &argv);
    uint32_t rank = MpiInterface::GetSystemId();
    uint32_t size = MpiInterface::GetSize();

    TopologySpec topo = MakeDumbbellTopology(2, 3, 100000000000ull, 1000);
    RdmaNetwork net;
    net.SetCongestionControl("none");
    net.SetPartition(PartitionTopology(topo, size));
    net.Build(topo);
    std::vector<FlowSpec> flows;
    for (uint32_t s = 0; s < 2; ++s)
    {
        flows.push_back(FlowSpec{s, 2, 3, 100, 1000000, 0, 0});
    }
    net.AddFlows(flows);
    for (uint32_t h = 0; h < 2; ++h)
    {
        net.GetNic(h)->TraceConnectWithoutContext("FlowComplete", MakeCallback(&Done));
    }
    uint64_t remote = 0;
    uint64_t remoteTx = 0;
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    for (const Ptr<QbbNetDevice>& d : net.GetDevices())
    {
        if (Ptr<QbbChannel> ch = DynamicCast<QbbChannel>(d->GetChannel()))
        {
            remote += ch->GetRemoteRx();
            remoteTx += ch->GetRemoteTx();
        }
    }
    // The senders are on rank 0 (or everything is): rank 0 reports.
    if (rank == 0)
    {
        std::printf("stock-engine: ranks=%u flows=%zu completed=%zu fct_us=", size, flows.size(),
                    g_fctNs.size());
        for (size_t i = 0; i < g_fctNs.size(); ++i)
        {
            std::printf("%s%.3f", i ? "," : "", g_fctNs[i] / 1e3);
        }
        // Each channel is seen from both of its devices: halved.
        std::printf(" remote_rx=%" PRIu64 " remote_tx=%" PRIu64 "\n", remote / 2, remoteTx / 2);
    }
    else
    {
        std::printf("stock-engine: rank %u remote_rx=%" PRIu64 " remote_tx=%" PRIu64 "\n", rank,
                    remote / 2, remoteTx / 2);
    }
    Simulator::Destroy();
    MpiInterface::Disable();
    return 0;
}
