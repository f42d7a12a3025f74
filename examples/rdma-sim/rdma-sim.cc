// SPDX-License-Identifier: GPL-2.0-only
//
// Run an HPCC-simulator experiment unchanged: its topology file and flow
// file in, its fct and pfc files out (same columns), on request its qlen
// file and binary packet trace (mix.tr) of chosen nodes, plus our CSV traces
// (off by default; every trace stops at --maxTraceBytes).
// A k-ary fat-tree can replace the topology file (--fattree=k).
//
//   ./rdma-sim --topo=topology.txt --flows=flow.txt --algo=hpcc --out=out/run1
//
// Bad input files stop the run with an error naming file, line and field.

#include "checked-options.h"
#include "hpcc-format.h"
#include "libcc-config.h"
#include "fast-simulator-impl.h"
#include "rdma-network.h"
#include "rdma-trace.h"

#include <ns3/core-module.h>

#include <sys/stat.h>

#include <algorithm>
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
    bool traces = false;
    std::string traceNodes;
    uint64_t maxTraceBytes = 200000000;
    bool qlen = false;
    Time qlenStart = Seconds(2);
    Time qlenEnd = MilliSeconds(2100);
    std::string idealFct = "ours";
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
    CheckedOptions cmd("rdma-sim", "Run HPCC-simulator topology and flow files with a libcc "
                                   "algorithm; writes fct.txt and pfc.txt in that simulator's "
                                   "formats.");
    cmd.AddText("topo", "HPCC-format topology file (N S L / switch ids / links)", topoFile);
    cmd.AddCount("fattree", "instead of --topo: k-ary fat-tree, k even (hosts first); 0: off",
                 fatTreeK, 0, 64);
    cmd.AddCount("fattreeRate", "fat-tree link rate, Gbps", fatTreeGbps, 1, 1600);
    cmd.AddTime("fattreeDelay", "fat-tree link delay", fatTreeDelay, Time(0), Seconds(1));
    cmd.AddText("flows", "HPCC-format flow file (F / src dst pg dport size start_s)", flowFile);
    cmd.AddCongestionControl(algo, ccParams);
    cmd.AddCount("payload", "payload of a full data packet, bytes", payload, 1, 1460);
    cmd.AddBytes("pfcThreshold", "PFC static threshold (0: dynamic)", pfcThreshold, 0,
                 1000000000000ull);
    cmd.AddTime("stop", "stop at this simulated time even if flows remain", stop, NanoSeconds(1),
                Seconds(1000));
    cmd.AddText("out", "output directory", out);
    cmd.AddTime("sample", "CSV sampling interval", sample, NanoSeconds(100), Seconds(1));
    cmd.AddBool("traces", "write sampled queue/rate/link CSVs, from the first flow's start on",
                traces);
    cmd.AddText("traceNodes",
                "write mix.tr, the HPCC simulator's binary packet trace, of these nodes' "
                "devices: comma-separated node ids (analysis/trace_reader.py reads it); "
                "empty: none",
                traceNodes);
    cmd.AddBool("qlen",
                "write qlen.txt, the HPCC simulator's per-port queue histogram, sampled "
                "every 100 ns from --qlenMonStart to --qlenMonEnd",
                qlen);
    cmd.AddTime("qlenMonStart", "qlen.txt: first sample (HPCC's QLEN_MON_START)", qlenStart,
                Time(0), Seconds(1000));
    cmd.AddTime("qlenMonEnd", "qlen.txt: last sample (HPCC's QLEN_MON_END)", qlenEnd, Time(0),
                Seconds(1000));
    cmd.AddBytes("maxTraceBytes",
                 "stop the CSV traces, qlen.txt and mix.tr (one warning) once together they "
                 "wrote this many bytes",
                 maxTraceBytes, 1000, 10000000000000ull);
    cmd.AddChoice("idealFct",
                  "ideal FCT in fct.txt/fct.csv: ours (our base RTT and wire bytes) or "
                  "hpcc-sim (that simulator's standalone_fct, docs/ns3-bindings.md)",
                  idealFct, {"ours", "hpcc-sim"});
    cmd.AddBool("pcap", "write pcap files of every device", pcap);
    cmd.AddBool("ccVars",
                "write fct-cc.csv: per finished flow, libcc's internal variables at its end",
                ccVars);
    deadlock.AddTo(cmd);
    int rc = cmd.Parse(argc, argv);
    if (rc >= 0)
    {
        return rc;
    }
    if (topoFile.empty() == (fatTreeK == 0) || flowFile.empty())
    {
        std::cerr << "rdma-sim: give --flows and exactly one of --topo, --fattree (see --help)\n";
        return 2;
    }
    if (fatTreeK % 2 != 0)
    {
        std::cerr << "rdma-sim: --fattree=" << fatTreeK << ": accepted an even number, 2 .. 64\n";
        return 2;
    }
    std::vector<uint32_t> traceNodeIds;
    for (size_t i = 0; i < traceNodes.size();)
    {
        size_t j = traceNodes.find(',', i);
        std::string id = traceNodes.substr(i, j == std::string::npos ? std::string::npos : j - i);
        if (id.empty() || id.size() > 9 || id.find_first_not_of("0123456789") != std::string::npos)
        {
            std::cerr << "rdma-sim: --traceNodes=" << traceNodes
                      << ": accepted comma-separated node ids (0 or more), like 0,3,5\n";
            return 2;
        }
        traceNodeIds.push_back(static_cast<uint32_t>(std::stoul(id)));
        i = j == std::string::npos ? traceNodes.size() : j + 1;
    }
    if (qlenEnd < qlenStart)
    {
        std::cerr << "rdma-sim: --qlenMonEnd must not be before --qlenMonStart\n";
        return 2;
    }
    if (!MakeOutputDir(out))
    {
        std::cerr << "rdma-sim: --out=" << out << ": cannot create the directory\n";
        return 1;
    }
    RdmaNetwork net;
    if (!cmd.ApplyCongestionControl(net))
    {
        return 2;
    }
    std::vector<FlowSpec> flows;
    try
    {
        TopologySpec topo =
            fatTreeK ? MakeFatTreeTopology(fatTreeK, uint64_t(fatTreeGbps) * 1000000000ull,
                                           fatTreeDelay.GetNanoSeconds())
                     : ReadTopologyFile(topoFile);
        flows = ReadFlowFile(flowFile, &topo);
        net.SetNicAttribute("PayloadSize", UintegerValue(payload));
        net.SetSwitchAttribute("PfcStaticThreshold", UintegerValue(pfcThreshold));
        net.SetDeadlockOptions(deadlock);
        net.Build(topo);
        net.AddFlows(flows);
    }
    catch (const FileIoError& e)
    {
        std::cerr << "rdma-sim: " << e.what() << "\n";
        return 1; // the file could not be read: an I/O failure, not a bad line
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
    tr.SetMaxTraceBytes(maxTraceBytes);
    tr.SetIdealFct(idealFct == "hpcc-sim" ? IdealFctKind::HPCC_SIM : IdealFctKind::OURS);
    tr.EnableFct(out + "/fct.txt", out + "/fct.csv");
    tr.EnablePfc(out + "/pfc.txt", out + "/pfc.csv");
    if (ccVars)
    {
        tr.EnableCcVars(out + "/fct-cc.csv");
    }
    if (traces)
    {
        tr.TrackAllSwitchLinks();
        uint64_t firstStart = UINT64_MAX;
        for (const FlowSpec& f : flows)
        {
            firstStart = std::min(firstStart, f.startNs);
        }
        tr.EnableSampling(sample, out + "/queue.csv", out + "/rate.csv", out + "/link.csv",
                          NanoSeconds(flows.empty() ? 0 : firstStart));
    }
    if (qlen)
    {
        tr.EnableQlen(out + "/qlen.txt", qlenStart, qlenEnd);
    }
    if (!traceNodeIds.empty())
    {
        try
        {
            tr.EnablePacketTrace(out + "/mix.tr", traceNodeIds);
        }
        catch (const std::invalid_argument& e)
        {
            std::cerr << "rdma-sim: --traceNodes=" << traceNodes << ": " << e.what() << "\n";
            return 2;
        }
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
