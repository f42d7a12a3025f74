// SPDX-License-Identifier: GPL-2.0-only
//
// Run an HPCC-simulator experiment unchanged: its topology file and flow
// file in, its fct and pfc files out (same columns), plus our CSV traces.
// A k-ary fat-tree can replace the topology file (--fattree=k).
//
//   ./rdma-sim --topo=topology.txt --flows=flow.txt --algo=hpcc --out=out/run1
//
// Bad input files stop the run with an error naming file, line and field.

#include "hpcc-format.h"
#include "libcc-config.h"
#include "fast-simulator-impl.h"
#include "rdma-network.h"
#include "rdma-trace.h"

#include <ns3/core-module.h>

#include <sys/stat.h>

#include <cinttypes>
#include <cstdio>
#include <iostream>

using namespace ns3;

namespace
{

struct StopWhenDone
{
    uint64_t expected;
    uint64_t done = 0;
    static void On(StopWhenDone* s, const RdmaFlowRecord&)
    {
        if (++s->done == s->expected)
        {
            Simulator::Stop();
        }
    }
};

} // namespace

int
main(int argc, char* argv[])
{
    std::string topoFile;
    std::string flowFile;
    uint32_t fatTreeK = 0;
    uint32_t fatTreeGbps = 100;
    Time fatTreeDelay = MicroSeconds(1);
    std::string algo = "hpcc";
    std::string ccParams;
    uint32_t payload = 1000;
    uint64_t pfcThreshold = 0;
    Time stop = Seconds(10);
    std::string out = "out/rdma-sim";
    Time sample = MicroSeconds(10);
    bool traces = true;
    bool pcap = false;
    bool ccVars = false;
    PfcDeadlockOptions deadlock;

    // Our simulator core: ns-3's event order (same results) at a lower cost
    // per event (docs/simulator-impl.md). --SimulatorImplementationType=
    // ns3::DefaultSimulatorImpl selects ns-3's own, which then uses the
    // fastest of its schedulers for this workload (docs/performance.md);
    // --SchedulerType overrides that.
    FastSimulatorImpl::Install();
    GlobalValue::Bind("SchedulerType", StringValue("ns3::PriorityQueueScheduler"));
    CommandLine cmd(__FILE__);
    cmd.Usage("Run HPCC-simulator topology and flow files with a libcc algorithm; "
              "writes fct.txt and pfc.txt in that simulator's formats.");
    cmd.AddValue("topo", "HPCC-format topology file (N S L / switch ids / links)", topoFile);
    cmd.AddValue("fattree", "instead of --topo: k-ary fat-tree, k even (hosts first)", fatTreeK);
    cmd.AddValue("fattreeRate", "fat-tree link rate, Gbps", fatTreeGbps);
    cmd.AddValue("fattreeDelay", "fat-tree link delay, time", fatTreeDelay);
    cmd.AddValue("flows", "HPCC-format flow file (F / src dst pg dport size start_s)", flowFile);
    cmd.AddValue("algo", "congestion control: none, dcqcn, hpcc, hpcc++, fncc", algo);
    cmd.AddValue("cc", "libcc parameters, name=value[,name=value]", ccParams);
    cmd.AddValue("payload", "payload of a full data packet, bytes", payload);
    cmd.AddValue("pfcThreshold", "PFC static threshold, bytes (0: dynamic)", pfcThreshold);
    cmd.AddValue("stop", "stop at this simulated time even if flows remain, time", stop);
    cmd.AddValue("out", "output directory", out);
    cmd.AddValue("sample", "CSV sampling interval, time", sample);
    cmd.AddValue("traces", "write sampled queue/rate/link CSVs", traces);
    cmd.AddValue("pcap", "write pcap files of every device", pcap);
    cmd.AddValue("ccVars",
                 "write fct-cc.csv: per finished flow, libcc's internal variables at its end",
                 ccVars);
    deadlock.AddTo(cmd);
    cmd.Parse(argc, argv);

    if (topoFile.empty() == (fatTreeK == 0) || flowFile.empty())
    {
        std::cerr << "rdma-sim: give --flows and exactly one of --topo, --fattree (see --help)\n";
        return 2;
    }
    mkdir(out.c_str(), 0755);
    RdmaNetwork net;
    std::vector<FlowSpec> flows;
    try
    {
        TopologySpec topo =
            fatTreeK ? MakeFatTreeTopology(fatTreeK, uint64_t(fatTreeGbps) * 1000000000ull,
                                           fatTreeDelay.GetNanoSeconds())
                     : ReadTopologyFile(topoFile);
        flows = ReadFlowFile(flowFile, &topo);
        net.SetCongestionControl(algo, ccParams);
        net.SetNicAttribute("PayloadSize", UintegerValue(payload));
        net.SetSwitchAttribute("PfcStaticThreshold", UintegerValue(pfcThreshold));
        net.SetDeadlockOptions(deadlock);
        net.Build(topo);
        net.AddFlows(flows);
    }
    catch (const std::exception& e)
    {
        std::cerr << "rdma-sim: " << e.what() << "\n";
        return 2;
    }
    if (pcap)
    {
        net.EnablePcap(out + "/rdma");
    }
    RdmaTraceHelper tr(net);
    tr.EnableFct(out + "/fct.txt", out + "/fct.csv");
    tr.EnablePfc(out + "/pfc.txt", out + "/pfc.csv");
    if (ccVars)
    {
        tr.EnableCcVars(out + "/fct-cc.csv");
    }
    if (traces)
    {
        tr.TrackAllSwitchLinks();
        tr.EnableSampling(sample, out + "/queue.csv", out + "/rate.csv", out + "/link.csv");
    }
    tr.EnableProgress(stop);
    StopWhenDone sd{flows.size()};
    for (uint32_t id = 0; id < net.GetNNodes(); id++)
    {
        if (!net.IsSwitch(id))
        {
            net.GetNic(id)->TraceConnectWithoutContext("FlowComplete",
                                                       MakeBoundCallback(&StopWhenDone::On, &sd));
        }
    }
    Simulator::Stop(stop);
    Simulator::Run();
    Ptr<PfcDeadlockDetector> dl = net.GetDeadlockDetector();
    std::printf("flows=%zu completed=%" PRIu64 " simulated_ms=%.3f pfc_pauses=%" PRIu64
                " pfc_deadlock=%s\n",
                flows.size(), sd.done, Simulator::Now().GetSeconds() * 1e3, tr.GetPfcPauses(),
                dl->IsDeadlocked() ? "yes" : "no");
    bool deadlocked = dl->IsDeadlocked();
    if (deadlocked)
    {
        std::cerr << "rdma-sim: " << dl->Describe() << "\n";
    }
    tr.Close();
    Simulator::Destroy();
    if (deadlocked && !deadlock.keepRunning)
    {
        return 3; // the run stopped at the deadlock: its results are not an experiment's
    }
    return sd.done == flows.size() || deadlocked ? 0 : 1;
}
