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

#include "cc-log-writer.h"
#include "checked-options.h"
#include "distributed-run.h"
#include "fast-simulator-impl.h"
#include "hpcc-config.h"
#include "hpcc-format.h"
#include "libcc-config.h"
#include "quick-exit.h"
#include "rdma-network.h"
#include "rank-merge.h"
#include "rdma-partition.h"
#include "rdma-trace.h"

#include <ns3/core-module.h>

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <iostream>

using namespace ns3;

namespace
{

// Over ranks: each counts the flows its own hosts send, and Stop is its
// vote; the run ends once every rank voted (FastSimulatorImpl).
struct StopWhenDone
{
    uint64_t expected;
    uint64_t done = 0;
    std::vector<int64_t> doneAt; ///< time steps: what finished before a deadlock stop
    static void On(StopWhenDone* s, const RdmaFlowRecord&)
    {
        s->doneAt.push_back(Simulator::Now().GetTimeStep());
        if (++s->done == s->expected)
        {
            Simulator::Stop();
        }
    }
};

int
Main(int argc, char* argv[])
{
    std::string topoFile;
    std::string flowFile;
    uint32_t fatTreeK = 0;
    uint32_t fatTreeGbps = 100;
    Time fatTreeDelay = MicroSeconds(1);
    std::string algo = "hpcc";
    std::string ccParams;
    // --cc as given: applied again after what --config derives once the
    // topology is built, so that nothing derived replaces a value given.
    std::string userCc;
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
    std::string configFile;
    bool configIgnoreUnsupported = false;
    bool globalT = false;
    bool unfinishedIsError = false;
    uint64_t bufferBytes = 0;
    PfcDeadlockOptions deadlock;

    // Our simulator core: ns-3's event order (same results) at a lower cost
    // per event (docs/simulator-impl.md). --SimulatorImplementationType=
    // ns3::DefaultSimulatorImpl selects ns-3's own, which then uses the
    // fastest of its schedulers for this workload (docs/performance.md);
    // --SchedulerType overrides that.
    FastSimulatorImpl::Install();
    GlobalValue::Bind("SchedulerType", StringValue("ns3::PriorityQueueScheduler"));
    // Under mpirun/srun with more than one rank: one simulation over them
    // (docs/distributed.md); alone, nothing happens here.
    DistributedRun dist;
    if (int rc = dist.StartProgram("rdma-sim", &argc, &argv))
    {
        return rc;
    }
    std::string partitionFile;
    bool runStats = false;
    FlowIdSet ccLog;
    CheckedOptions cmd("rdma-sim", "Run HPCC-simulator topology and flow files with a libcc "
                                   "algorithm; writes fct.txt and pfc.txt in that simulator's "
                                   "formats.");
    cmd.AddText("topo", "HPCC-format topology file (N S L / switch ids / links)", topoFile);
    cmd.AddCount("fattree", "instead of --topo: k-ary fat-tree, k even (hosts first); 0: off",
                 fatTreeK, 0, 64);
    cmd.AddGbps("fattreeRate", "fat-tree link rate", fatTreeGbps, 1, 1600);
    cmd.AddTime("fattreeDelay", "fat-tree link delay", fatTreeDelay, Time(0), Seconds(1));
    cmd.AddText("flows", "HPCC-format flow file (F / src dst pg dport size start_s)", flowFile);
    cmd.AddCongestionControl(algo, ccParams);
    cmd.AddCount("payload", "payload of a full data packet, bytes", payload, 1, 1460);
    cmd.AddBytes("pfcThreshold", "PFC static threshold (0: dynamic)", pfcThreshold, 0,
                 1000000000000ull);
    cmd.AddTime("stop", "stop at this simulated time even if flows remain", stop, NanoSeconds(1),
                Seconds(1000));
    cmd.AddText("out", "output directory", out);
    cmd.AddFlowIds("ccLog", "flows whose libcc decisions go to cc-log.csv in --out "
                            "(docs/decision-log.md)", ccLog);
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
    cmd.AddText("config",
                "the HPCC simulator's config.txt, read unchanged (docs/hpcc-sim.md); options "
                "given here override its keys",
                configFile);
    cmd.AddBool("configIgnoreUnsupported",
                "run a --config whose keys we cannot honour, one warning line per key",
                configIgnoreUnsupported);
    cmd.AddBool("globalT",
                "one libcc T for every flow: the largest base RTT of any host pair, as the HPCC "
                "simulator computes it (GLOBAL_T 1; the default under --config)",
                globalT);
    cmd.AddBool("unfinishedIsError",
                "exit 1 when --stop comes with flows unfinished (default: exit 0, the count "
                "reported)",
                unfinishedIsError);
    cmd.AddBytes("buffer", "switch buffer (0: SwitchNode's BufferSize default)", bufferBytes, 0,
                 1000000000000ull);
    deadlock.AddTo(cmd);
    cmd.AddText("partition",
                "under mpirun/srun: the rank of each node, lines \"node rank\" (default: pods, "
                "or blocks of the topology, balanced by the flows' bytes; docs/distributed.md)",
                partitionFile);
    cmd.AddBool("runStats",
                "print, per rank, events, windows, frames between ranks and the seconds spent "
                "running events, exchanging and in Simulator::Run (always under mpirun/srun)",
                runStats);
    int rc = cmd.Parse(argc, argv);
    if (rc >= 0)
    {
        return rc;
    }
    // --config: the file's keys as our options, unless given on the command line.
    HpccConfig hcfg;
    std::string fctFile; // "": <out>/fct.txt
    std::string pfcFile;
    std::string qlenFile;
    std::string mixTrFile;
    bool haveConfig = !configFile.empty();
    if (haveConfig)
    {
        try
        {
            hcfg = ReadHpccConfig(configFile, configIgnoreUnsupported);
        }
        catch (const FileIoError& e)
        {
            std::cerr << "rdma-sim: --config: " << e.what() << "\n";
            return 1;
        }
        catch (const FileFormatError& e)
        {
            std::cerr << "rdma-sim: --config: " << e.what() << "\n";
            return 2;
        }
        for (const std::string& w : hcfg.warnings)
        {
            std::cerr << "rdma-sim: warning: " << w << " (ignored: --configIgnoreUnsupported)\n";
        }
        auto given = [&](const char* o) { return cmd.WasGiven(o); };
        if (!given("topo") && !given("fattree"))
        {
            topoFile = hcfg.topologyFile;
        }
        if (!given("flows"))
        {
            flowFile = hcfg.flowFile;
        }
        if (!given("algo"))
        {
            algo = hcfg.algorithm;
            // The file's values first, --cc after them (it overrides).
            if (given("cc"))
            {
                userCc = ccParams;
            }
            ccParams = given("cc") ? hcfg.ccParams + " " + ccParams : hcfg.ccParams;
        }
        if (!given("payload"))
        {
            payload = hcfg.payloadBytes;
        }
        if (!given("stop") && hcfg.stopNs)
        {
            stop = NanoSeconds(hcfg.stopNs);
        }
        if (!given("buffer") && hcfg.bufferBytes)
        {
            bufferBytes = hcfg.bufferBytes;
        }
        if (!given("globalT"))
        {
            globalT = hcfg.globalT;
        }
        // QLEN_MON_FILE: that simulator always writes it.
        if (!given("qlen") && !hcfg.qlenMonFile.empty())
        {
            qlen = true;
            qlenFile = hcfg.qlenMonFile;
        }
        if (!given("qlenMonStart"))
        {
            qlenStart = NanoSeconds(hcfg.qlenMonStartNs);
        }
        if (!given("qlenMonEnd"))
        {
            qlenEnd = NanoSeconds(hcfg.qlenMonEndNs);
        }
        if (!given("out"))
        {
            // Outputs where the file says; our CSVs beside the fct file.
            if (!hcfg.fctOutputFile.empty())
            {
                fctFile = hcfg.fctOutputFile;
                auto slash = fctFile.find_last_of('/');
                out = slash == std::string::npos ? "." : fctFile.substr(0, slash);
            }
            pfcFile = hcfg.pfcOutputFile;
        }
    }
    fctFile = fctFile.empty() ? out + "/fct.txt" : fctFile;
    pfcFile = pfcFile.empty() ? out + "/pfc.txt" : pfcFile;
    qlenFile = qlenFile.empty() || cmd.WasGiven("out") ? out + "/qlen.txt" : qlenFile;
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
        for (const std::string& w : topo.warnings)
        {
            std::cerr << "rdma-sim: warning: " << w << "\n";
        }
        std::vector<std::string> flowWarnings;
        flows = ReadFlowFile(flowFile, &topo, &flowWarnings);
        for (const std::string& w : flowWarnings)
        {
            std::cerr << "rdma-sim: warning: " << w << "\n";
        }
        if (!partitionFile.empty() || DistributedRun::UnderLauncher())
        {
            // Without a file, blocks are balanced by the bytes their hosts
            // send and receive: a rank's events follow its frames, and the
            // busiest rank sets every window's length.
            std::vector<uint64_t> load = FlowBytesPerNode(flows, topo.nNodes);
            // A bad --partition file: FileFormatError (file:line:field), exit 2.
            std::vector<uint32_t> rankOf =
                partitionFile.empty() ? PartitionTopology(topo, dist.GetSize(), load)
                                      : ReadPartitionFile(partitionFile, topo, dist.GetSize());
            dist.UsePartition("rdma-sim", net, topo, rankOf);
            if (dist.IsDistributed() && dist.GetRank() == 0)
            {
                std::cerr << "rdma-sim: flow bytes per rank (each flow at its source and its "
                             "destination):";
                for (uint64_t b : PartitionLoads(rankOf, dist.GetSize(), load))
                {
                    std::cerr << " " << b;
                }
                std::cerr << "\n";
            }
        }
        if (haveConfig)
        {
            // third.cc: ERROR_RATE_PER_LINK on every link whose error_rate is 0.
            for (TopologyLinkSpec& l : topo.links)
            {
                l.errorRate = l.errorRate > 0 ? l.errorRate : hcfg.errorRatePerLink;
            }
            // ENABLE_TRACE 1: mix.tr of TRACE_FILE's nodes, at TRACE_OUTPUT_FILE.
            if (hcfg.enableTrace && !cmd.WasGiven("traceNodes") && !hcfg.traceFile.empty())
            {
                traceNodeIds = ReadHpccTraceNodes(hcfg.traceFile, topo.nNodes);
                mixTrFile = hcfg.traceOutputFile;
            }
        }
        net.SetNicAttribute("PayloadSize", UintegerValue(payload));
        net.SetSwitchAttribute("PfcStaticThreshold", UintegerValue(pfcThreshold));
        if (bufferBytes)
        {
            net.SetSwitchAttribute("BufferSize", UintegerValue(bufferBytes));
        }
        if (haveConfig && hcfg.hasAckHighPrio)
        {
            // ACK_HIGH_PRIO 1: priority 0, strict above data; 0: the data's
            // priority group 3 (that simulator's ack_q_idx).
            net.SetNicAttribute("AckPriority", UintegerValue(hcfg.ackHighPrio ? 0 : 3));
        }
        if (haveConfig && !cmd.WasGiven("algo"))
        {
            // Per link rate ECN thresholds (KMIN_MAP ...): every switch port's
            // rate needs its row, as third.cc asserts.
            for (const TopologyLinkSpec& l : topo.links)
            {
                if (!hcfg.thresholdsUsed || (!topo.isSwitch[l.a] && !topo.isSwitch[l.b]))
                {
                    continue;
                }
                std::string rateText = HpccRateCcParams(hcfg, l.rateBps);
                if (rateText.empty())
                {
                    auto line = hcfg.keyLines.find("KMIN_MAP");
                    std::cerr << "rdma-sim: --config: " << hcfg.file << ":"
                              << (line == hcfg.keyLines.end() ? 0 : line->second)
                              << ":KMIN_MAP: no row for link rate " << l.rateBps << " ("
                              << topo.file << ":" << l.line
                              << "); every switch port's rate needs KMIN_MAP, KMAX_MAP and "
                                 "PMAX_MAP rows\n";
                    return 2;
                }
                net.SetCongestionControlForRate(l.rateBps, rateText + " " + userCc);
            }
        }
        net.SetGlobalBaseRtt(globalT);
        net.SetDeadlockOptions(deadlock);
        net.Build(topo);
        if (haveConfig && !cmd.WasGiven("algo"))
        {
            // Switch parameters that need the fabric's largest base RTT
            // (HPCC-PINT's T): known now.
            std::string sw = HpccSwitchCcParams(hcfg, net.GetMaxHpccSimRtt());
            if (!sw.empty())
            {
                net.AddSwitchCongestionControl(sw + " " + userCc);
            }
            // HPCC's RATE_AI needs T and the NIC rate: known now.
            uint64_t nicBps = 0;
            for (uint32_t id = 0; id < topo.nNodes && !nicBps; id++)
            {
                if (!topo.isSwitch[id])
                {
                    nicBps = net.GetNic(id)->GetDevice()->GetDataRate().GetBitRate();
                }
            }
            std::string host = hcfg.hpccRateAiBps
                                   ? HpccHostCcParams(hcfg, net.GetMaxHpccSimRtt(), nicBps)
                                   : std::string();
            std::string err;
            if (!host.empty() && !net.GetCcConfig()->Parse(host, &err))
            {
                std::cerr << "rdma-sim: --config: " << hcfg.file << ": RATE_AI as " << host << ": "
                          << err << "\n";
                return 2;
            }
            if (!host.empty() && !net.GetCcConfig()->Parse(userCc, &err))
            {
                std::cerr << "rdma-sim: --cc: " << err << "\n"; // parsed once already: not expected
                return 2;
            }
        }
        net.AddFlows(flows, flowFile);
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
    for (uint32_t id : traceNodeIds)
    {
        if (id >= net.GetNNodes())
        {
            std::cerr << "rdma-sim: --traceNodes=" << traceNodes << ": trace node " << id
                      << " is not a node of the topology (0.." << net.GetNNodes() - 1 << ")\n";
            return 2;
        }
    }
    CcLogWriter ccLogWriter;
    if (int st = ccLogWriter.Start("rdma-sim", net, ccLog, out + "/cc-log.csv", dist.GetRank(),
                                   dist.GetSize());
        st >= 0)
    {
        return st;
    }
    // From here on errors are a rank's own (its files): every rank speaks.
    dist.SpeakAgain();
    if (pcap)
    {
        net.EnablePcap(out + "/rdma");
    }
    RdmaTraceHelper tr(net);
    tr.SetRanks(dist.GetRank(), dist.GetSize(), dist.GetLookaheadNs());
    tr.SetMaxTraceBytes(maxTraceBytes);
    tr.SetIdealFct(idealFct == "hpcc-sim" ? IdealFctKind::HPCC_SIM : IdealFctKind::OURS);
    tr.EnableFct(fctFile, out + "/fct.csv");
    tr.EnablePfc(pfcFile, out + "/pfc.csv");
    if (ccVars)
    {
        tr.EnableCcVars(out + "/fct-cc.csv");
    }
    try
    {
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
        tr.EnableQlen(qlenFile, qlenStart, qlenEnd);
    }
    if (!traceNodeIds.empty())
    {
        try
        {
            tr.EnablePacketTrace(mixTrFile.empty() || cmd.WasGiven("out") ? out + "/mix.tr"
                                                                          : mixTrFile,
                                 traceNodeIds);
        }
        catch (const std::invalid_argument& e)
        {
            std::cerr << "rdma-sim: --traceNodes=" << traceNodes << ": " << e.what() << "\n";
            return 2;
        }
    }
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "rdma-sim: " << e.what() << "\n";
        return 2;
    }
    if (dist.GetRank() == 0)
    {
        tr.EnableProgress(stop); // one progress line, rank 0's (the windows keep ranks in step)
    }
    uint64_t localFlows = 0;
    for (const FlowSpec& f : flows)
    {
        localFlows += net.IsLocal(f.src) ? 1 : 0;
    }
    StopWhenDone sd{localFlows, 0, {}};
    for (uint32_t id = 0; id < net.GetNNodes(); id++)
    {
        if (!net.IsSwitch(id))
        {
            net.GetNic(id)->TraceConnectWithoutContext("FlowComplete",
                                                       MakeBoundCallback(&StopWhenDone::On, &sd));
        }
    }
    Simulator::Stop(stop);
    auto runStart = std::chrono::steady_clock::now();
    Simulator::Run();
    double runSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - runStart).count();
    Ptr<PfcDeadlockDetector> dl = net.GetDeadlockDetector();
    Ptr<FastSimulatorImpl> impl = DynamicCast<FastSimulatorImpl>(Simulator::GetImplementation());
    uint64_t completed = dist.Sum(sd.done);
    // Over ranks, the run ends where one process would have: at the event
    // that cast the last vote to stop (the last flow's end, --stop, a
    // deadlock), which the ranks that voted earlier ran past by up to a window.
    int64_t endStep = Simulator::Now().GetTimeStep();
    uint64_t lastTs = UINT64_MAX;
    uint64_t lastKey = UINT64_MAX;
    if (dist.IsDistributed())
    {
        uint64_t voteTs = 0;
        uint64_t voteKey = 0;
        impl->GetVote(voteTs, voteKey);
        lastTs = dist.Max(voteTs + 1) - 1; // UINT64_MAX (no vote) wraps to 0
        lastKey = dist.Max(voteTs == lastTs ? voteKey + 1 : 0) - 1;
        endStep = lastTs != UINT64_MAX ? static_cast<int64_t>(lastTs) : endStep;
    }
    bool deadlocked = dist.Max(dl->IsDeadlocked() ? 1 : 0) != 0;
    if (runStats || DistributedRun::UnderLauncher())
    {
        // How the work split: events per rank, the windows, frames between
        // ranks, where the time went (bench/mpi_scaling.py reads this line).
        bool windows = impl->GetRankLink() != nullptr;
        std::fprintf(stderr,
                     "rdma-sim: rank %u: %" PRIu64 " events, %" PRIu64 " windows, %" PRIu64
                     " frames to other ranks, %" PRIu64 " from them, %.3f s running events, "
                     "%.3f s exchanging, %.3f s in Run\n",
                     dist.GetRank(), impl->GetEventCount(), impl->GetWindowCount(),
                     impl->GetRemoteSent(), impl->GetRemoteReceived(),
                     windows ? impl->GetComputeSeconds() : runSeconds,
                     impl->GetExchangeSeconds(), runSeconds);
    }
    uint64_t pauses = dist.Sum(tr.GetPfcPauses());
    // One report, as one process's: the first rank to find a cycle (each
    // watches its own switches).
    std::string report = dist.First(dl->Describe(), dl->GetReportOrder());
    if (!report.empty() && dist.GetRank() == 0)
    {
        std::cerr << "rdma-sim: " << report << "\n";
    }
    // The records past the last vote are not one process's; a vote of no
    // node (Stop at a time, on every rank) ended every rank there exactly.
    std::string endStamp;
    bool byNode = lastTs != UINT64_MAX && (lastKey >> FastSimulatorImpl::NODE_KEY_SHIFT) !=
                                              FastSimulatorImpl::NODE_KEY_GLOBAL;
    if (dist.IsDistributed() && completed == flows.size() && byNode)
    {
        endStamp = RankStamp(lastTs, lastKey);
    }
    // A deadlock stops one process at its check, an event for no node after
    // the nodes' events of its time; over ranks only the rank that found it
    // voted, and the others ran on (to their flows' end or --stop): the
    // run is cut there, and what finished after it is not counted.
    uint64_t firstDeadlock = UINT64_MAX - dist.Max(UINT64_MAX - dl->GetReportOrder());
    if (dist.IsDistributed() && deadlocked && !deadlock.keepRunning)
    {
        const uint64_t lastNodeKey =
            (uint64_t(FastSimulatorImpl::NODE_KEY_GLOBAL) << FastSimulatorImpl::NODE_KEY_SHIFT) - 1;
        endStamp = RankStamp(firstDeadlock, lastNodeKey);
        endStep = static_cast<int64_t>(firstDeadlock);
        completed = dist.Sum(std::count_if(sd.doneAt.begin(), sd.doneAt.end(),
                                           [&](int64_t t) { return t <= endStep; }));
    }
    if (dist.IsDistributed())
    {
        tr.EndRunAt(static_cast<uint64_t>(endStep), !endStamp.empty());
    }
    tr.Close();
    ccLogWriter.Close();
    Simulator::Destroy();
    if (dist.IsDistributed())
    {
        dist.Barrier(); // every rank's files are closed
        std::string err;
        if (dist.GetRank() == 0 &&
            (!tr.MergeRanks(err, endStamp) || !ccLogWriter.MergeRanks(err, endStamp)))
        {
            std::cerr << "rdma-sim: merging the ranks' outputs: " << err << "\n";
            return 1;
        }
        if (!endStamp.empty() && dist.GetRank() == 0)
        {
            // The ranks' counts include PAUSEs after one process's end: the
            // merged pfc file has exactly one process's ("... pause" lines).
            std::ifstream in(pfcFile);
            pauses = 0;
            for (std::string line; std::getline(in, line);)
            {
                pauses += line.size() >= 2 && line.compare(line.size() - 2, 2, " 1") == 0;
            }
        }
    }
    std::printf("flows=%zu completed=%" PRIu64 " unfinished=%" PRIu64
                " simulated_ms=%.3f pfc_pauses=%" PRIu64 " pfc_deadlock=%s\n",
                flows.size(), completed, uint64_t(flows.size() - completed),
                TimeStep(endStep).GetSeconds() * 1e3, pauses, deadlocked ? "yes" : "no");
    std::fflush(stdout);
    if (deadlocked && !deadlock.keepRunning)
    {
        return 3; // the run stopped at the deadlock: its results are not an experiment's
    }
    uint64_t unfinished = flows.size() - completed;
    if (unfinished > 0 && !deadlocked)
    {
        // An open-loop flow file's normal end (the HPCC simulator exits 0).
        std::cerr << "rdma-sim: " << unfinished << " of " << flows.size()
                  << " flows unfinished at --stop=" << stop.GetNanoSeconds() << "ns"
                  << (unfinishedIsError ? " (--unfinishedIsError)" : "") << "\n";
    }
    return unfinished == 0 || deadlocked || !unfinishedIsError ? 0 : 1;
}

} // namespace

int
main(int argc, char* argv[])
{
    // Every object of the run is gone when Main returns.
    QuickExit(Main(argc, argv));
}
