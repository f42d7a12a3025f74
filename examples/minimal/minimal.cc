// SPDX-License-Identifier: GPL-2.0-only
//
// The smallest program against the installed bindings (docs/ns3-bindings.md):
// two hosts on one switch, one 1 MB flow, print its FCT and the ideal.
//
//   g++ -std=c++17 minimal.cc $(pkg-config --cflags --libs ns3-libcc) -o minimal
//   ./minimal --algo=fncc --size=1000000

#include "ns3/checked-options.h"
#include "ns3/rdma-network.h"
#include "ns3/rdma-trace.h"

#include <ns3/core-module.h>

#include <cinttypes>
#include <cstdio>

using namespace ns3;

static void
Done(const RdmaFlowRecord& r)
{
    std::printf("flow %u: %" PRIu64 " bytes, FCT %" PRIu64 " ns, ideal %" PRIu64 " ns\n",
                r.flow.flowId, r.flow.sizeBytes, r.fctNs, RdmaIdealFctNs(r));
}

int
main(int argc, char* argv[])
{
    std::string algo = "hpcc";
    std::string cc;
    uint64_t size = 1000000;
    bool pcap = false;
    CheckedOptions cmd("minimal", "One flow across one switch: the smallest program using the "
                                  "bindings.");
    cmd.AddCongestionControl(algo, cc);
    cmd.AddBytes("size", "flow size", size, 1, 1000000000000ull);
    cmd.AddBool("pcap", "write minimal-<node>-<if>.pcap", pcap);
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
    // 1 sender (node 0), receiver (node 1), one switch (node 2); 100 Gbps, 1 us.
    net.Build(MakeDumbbellTopology(1, 1, 100000000000ull, 1000));
    net.GetNic(0)->TraceConnectWithoutContext("FlowComplete", MakeCallback(&Done));
    net.AddFlow(FlowSpec{0, 1, 3, 100, size, 0, 0}, 0);
    if (pcap)
    {
        net.EnablePcap("minimal");
    }
    RdmaTraceHelper tr(net);
    tr.EnableProgress(Seconds(1)); // a line on stderr every ~2 s of wall time
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    tr.Close();
    Simulator::Destroy();
    return 0;
}
