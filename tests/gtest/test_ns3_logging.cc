// SPDX-License-Identifier: GPL-2.0-only
//
// NS_LOG components: one per model and helper source file (one class, or a
// class and its small companions), registered under the class's name so
// NS_LOG=<Class>=all works as for ns-3's own modules; enabling one does not
// abort and a run with it enabled gives the same result as without.

#include "rdma-network.h"

#include <ns3/log.h>
#include <ns3/simulator.h>

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace ns3;

namespace
{

// Every file of ns3-bindings/ (but mpi/) with code and its component; not
// the headers-only ones, nor those with nothing to log (qbb-frame.cc, the
// frame pool; qbb-net-device-interface.cc, rdma-topology.cc,
// hpcc-config-reader.cc, hpcc-config-files.cc).
const std::set<std::string> kOurs = {
    "CcLogWriter",
    "CheckedOptions",
    "DistributedRun",
    "EcmpRouter",
    "FastSimulatorImpl",
    "HpccFormat",
    "HpccPacketTrace",
    "HpccQlenWriter",
    "LibccAgent",
    "LibccConfig",
    "PfcDeadlockDetector",
    "PfcPauseHeader",
    "QbbChannel",
    "QbbFrameWire",
    "QbbHelper",
    "QbbNetDevice",
    "QbbPfc",
    "RankMerge",
    "RdmaNetwork",
    "RdmaNic",
    "RdmaPartition",
    "RdmaReceiver",
    "RdmaSampledCsvs",
    "RdmaSender",
    "RdmaTraceHelper",
    "RdmaTraceSink",
    "RdmaTxQueuePair",
    "RoceCodec",
    "RoceIntHeader",
    "RocePacket",
    "SwitchCc",
    "SwitchMmu",
    "SwitchNode",
    "SwitchNodeCc",
    "SwitchPort",
};

uint64_t
LoneFlowFct()
{
    RdmaNetwork net;
    net.SetCongestionControl("dcqcn");
    net.Build(MakeDumbbellTopology(1, 1, 100000000000ull, 1000));
    Ptr<RdmaTxQueuePair> qp = net.AddFlow(FlowSpec{0, 1, 3, 100, 10000, 0, 0}, 0);
    Simulator::Stop(MicroSeconds(100));
    Simulator::Run();
    uint64_t fct = qp->IsFinished() ? qp->GetFinishNs() : 0;
    Simulator::Destroy();
    return fct;
}

} // namespace

TEST(Ns3Logging, EveryModelAndHelperFileHasItsComponent)
{
    const LogComponent::ComponentList* list = LogComponent::GetComponentList();
    for (const std::string& name : kOurs)
    {
        EXPECT_EQ(list->count(name), 1u) << name;
    }
    // And no component of ours that the list above does not know: each file
    // under ns3-bindings/ defines exactly one, named in kOurs.
    std::set<std::string> files;
    for (const auto& [name, component] : *list)
    {
        const std::string file = component->File();
        if (file.find("ns3-bindings/") != std::string::npos)
        {
            EXPECT_EQ(kOurs.count(name), 1u) << name << " in " << file;
            EXPECT_TRUE(files.insert(file).second) << "two components in " << file;
        }
    }
    EXPECT_EQ(files.size(), kOurs.size());
}

TEST(Ns3Logging, EnablingOurComponentsDoesNotAbortNorChangeTheRun)
{
    const uint64_t quiet = LoneFlowFct();
    // 10 packets of 1094 wire bytes at 100 Gbps (875.2 ns) + their last
    // re-serialization at the switch (87.52) + 2 x 1 us there, the ACK's
    // 96 bytes x 2 (15.36) + 2 x 1 us back: about 4978 ns.
    EXPECT_NEAR(double(quiet), 4978.0, 10.0);
    for (const std::string& name : kOurs)
    {
        LogComponentEnable(name.c_str(), LOG_LEVEL_ALL);
    }
    const uint64_t logged = LoneFlowFct();
    for (const std::string& name : kOurs)
    {
        LogComponentDisable(name.c_str(), LOG_LEVEL_ALL);
    }
    EXPECT_EQ(logged, quiet);
}
