// SPDX-License-Identifier: GPL-2.0-only
//
// The FNCC paper's dumbbell (section 5.1, Figures 9 and 10): two senders on
// the first of three switches in a chain, one receiver on the last; every
// link 100 Gbps (or 200, 400) with 1.5 us delay, PFC threshold 500 KB.
// flow0 starts at 0, flow1 at 300 us, both long-lived; the run lasts 1 ms.
// The congestion point is the first switch's port towards the second.
//
//   ./dumbbell --algo=fncc --out=out/dumbbell-fncc
//   bash scripts/mpirun.sh -np 2 ./dumbbell ...   # one simulation over 2 ranks
//
// Over MPI ranks (docs/distributed.md) each rank reads the values of its
// own nodes; after the run they are reduced over the ranks, and rank 0
// writes one process's files and summary (Node event order).
//
// Writes the CSVs of RdmaTraceHelper into --out and prints a summary: when
// flow0 first slowed down after flow1 started, peak and mean queue at the
// congestion point, PFC pauses, bottleneck utilisation and the time both
// flows took to reach a fair share. Each flow's goodput (bytes delivered in
// order at the receiver) goes to goodput.csv and, over the run's last
// 100 us, into the summary: what a flow really got, whether its algorithm
// sets a rate or a window (a window-bound flow can pace at line rate).

#include "cc-log-writer.h"
#include "checked-options.h"
#include "distributed-run.h"
#include "hpcc-format.h"
#include "libcc-agent.h"
#include "libcc-config.h"
#include "fast-simulator-impl.h"
#include "rdma-network.h"
#include "quick-exit.h"
#include "rdma-partition.h"
#include "rdma-trace.h"

#include <ns3/core-module.h>

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <vector>

using namespace ns3;

namespace
{

struct Watch
{
    // flow0's first rate decrease after flow1's start: the first time its
    // rate falls more than 5% below what it was when flow1 started (window
    // algorithms jitter by a few percent around their operating point).
    uint64_t flow1StartNs = 0;
    int64_t firstDecreaseNs = -1;
    uint64_t rateAtFlow1 = 0;
    // congestion point queue (all priorities of the port)
    uint32_t port = 0;
    uint64_t peakAfter = 0; // from flow 1's start (SwitchNode's port peak)
    bool peakFromFlow1 = false;
    // rate samples for convergence
    std::vector<uint64_t> t;
    std::vector<uint64_t> r0, r1;
    // queue samples for the mean
    uint64_t qSum = 0; // bytes: exact, and summed over ranks as such
    uint64_t qN = 0;
};

/// Bytes each flow delivered in order to the receiver: per sample interval
/// (goodput.csv) and in total (the summary's end goodput).
struct Goodput
{
    uint64_t intervalNs;
    std::vector<std::vector<uint64_t>> bytes; // [flow][sample]
    std::vector<uint64_t> total;              // [flow]
    std::vector<uint64_t> atEndWindow;        // [flow]: total at stop - the end window
    // A member, not a bound function: ns-3's bound callback is two
    // std::function calls per delivered packet.
    void On(uint32_t flow, uint64_t, uint32_t delivered)
    {
        if (flow >= total.size())
        {
            return;
        }
        total[flow] += delivered;
        size_t k = LibccNow() / intervalNs;
        auto& v = bytes[flow];
        if (v.size() <= k)
        {
            v.resize(k + 1, 0);
        }
        v[k] += delivered;
    }
};

void
OnFlow0Rate(Watch* w, uint64_t oldv, uint64_t newv)
{
    (void)oldv;
    uint64_t now = LibccNow(); // inline clock (sim-fast.h): called per rate change
    if (now < w->flow1StartNs)
    {
        w->rateAtFlow1 = newv;
    }
    else if (w->firstDecreaseNs < 0 && newv < 0.95 * w->rateAtFlow1)
    {
        w->firstDecreaseNs = static_cast<int64_t>(now);
    }
}

void
SampleWatch(Watch* w, Ptr<SwitchNode> sw, Ptr<RdmaTxQueuePair> f0, Ptr<RdmaTxQueuePair> f1,
            Time interval)
{
    uint64_t now = LibccNow();
    if (now >= w->flow1StartNs)
    {
        w->t.push_back(now);
        w->r0.push_back(f0->GetRate());
        w->r1.push_back(f1->GetRate());
        w->qSum += sw->GetPortQueueBytes(w->port);
        w->qN++;
    }
    Simulator::Schedule(interval, &SampleWatch, w, sw, f0, f1, interval);
}

/// What the summary counts over the whole fabric, over ranks: each value
/// is its owner's (the rank that simulates its node), the others add zeros.
struct Totals
{
    uint64_t cpTxAfterFlow1 = 0;
    uint64_t txPackets = 0;
    uint64_t timeouts = 0;
    uint64_t nacks = 0;
    uint64_t cnps = 0;
    uint64_t pauses = 0;
};

/**
 * Make w and g (flow 0's and 1's rates, the congestion point's queue, the
 * receiver's goodput: each read on its node's rank) one process's on
 * every rank, and count the totals. Alone: only the totals.
 */
Totals
ReduceOverRanks(const DistributedRun& dist, const RdmaNetwork& net, Watch& w, Goodput& g,
                size_t nSamples, uint32_t cpNode, uint32_t receiver, uint64_t cpTxAfterFlow1,
                uint64_t pauses)
{
    Totals t;
    for (const auto& d : net.GetDevices())
    {
        t.txPackets += net.IsLocal(net.TopoId(d->GetNode())) ? d->GetTxPackets() : 0;
    }
    for (uint32_t id = 0; id < net.GetNNodes(); id++)
    {
        if (!net.IsSwitch(id) && net.IsLocal(id))
        {
            t.timeouts += net.GetNic(id)->GetCounters().timeouts;
            t.nacks += net.GetNic(id)->GetCounters().nacksSent;
            t.cnps += net.GetNic(id)->GetCounters().cnpsSent;
        }
    }
    t.cpTxAfterFlow1 = cpTxAfterFlow1;
    t.pauses = pauses;
    if (!dist.IsDistributed())
    {
        return t;
    }
    // Scalars: the owners' (others hold zeros, -1 for "none" as 0 after +1).
    bool cpMine = net.IsLocal(cpNode);
    bool rxMine = net.IsLocal(receiver);
    std::vector<uint64_t> sums{t.txPackets,
                               t.timeouts,
                               t.nacks,
                               t.cnps,
                               t.pauses,
                               cpMine ? t.cpTxAfterFlow1 : 0,
                               cpMine ? w.qSum : 0};
    dist.Sum(sums);
    t.txPackets = sums[0];
    t.timeouts = sums[1];
    t.nacks = sums[2];
    t.cnps = sums[3];
    t.pauses = sums[4];
    t.cpTxAfterFlow1 = sums[5];
    w.qSum = sums[6];
    std::vector<uint64_t> maxima{cpMine ? w.peakAfter : 0,
                                 net.IsLocal(0) ? uint64_t(w.firstDecreaseNs + 1) : 0};
    dist.Max(maxima);
    w.peakAfter = maxima[0];
    w.firstDecreaseNs = static_cast<int64_t>(maxima[1]) - 1;
    // Flow 0's and 1's rate samples (the sampler runs on every rank, at
    // the same times), from their senders' ranks.
    for (auto [rates, sender] : {std::pair{&w.r0, 0u}, std::pair{&w.r1, 1u}})
    {
        if (!net.IsLocal(sender))
        {
            std::fill(rates->begin(), rates->end(), 0);
        }
        rates->resize(dist.Max(rates->size())); // one size for the reduction, whatever happens
        dist.Sum(*rates);
    }
    // The receiver's goodput, per flow and sample, and its totals.
    size_t nFlows = g.total.size();
    std::vector<uint64_t> all(nFlows * (nSamples + 2), 0);
    for (size_t i = 0; i < nFlows && rxMine; i++)
    {
        for (size_t k = 0; k < nSamples && k < g.bytes[i].size(); k++)
        {
            all[i * (nSamples + 2) + k] = g.bytes[i][k];
        }
        all[i * (nSamples + 2) + nSamples] = g.total[i];
        all[i * (nSamples + 2) + nSamples + 1] = g.atEndWindow[i];
    }
    dist.Sum(all);
    for (size_t i = 0; i < nFlows; i++)
    {
        g.bytes[i].assign(all.begin() + i * (nSamples + 2),
                          all.begin() + i * (nSamples + 2) + nSamples);
        g.total[i] = all[i * (nSamples + 2) + nSamples];
        g.atEndWindow[i] = all[i * (nSamples + 2) + nSamples + 1];
    }
    return t;
}

// --preset then --cc as one libcc parameter text (items apply left to right).
std::string
EffectiveCcParams(const std::string& algo, const std::string& preset, const std::string& cc)
{
    std::string p = preset;
    if (p == "auto")
    {
        // The FNCC paper (section 5.1) ran DCQCN with the values the DCQCN
        // paper recommends; libcc's own defaults are the NIC firmware's.
        p = algo == "dcqcn" ? "paper" : "defaults";
    }
    std::string text = p == "defaults" ? "" : "preset=" + p;
    if (!cc.empty())
    {
        text += (text.empty() ? "" : ",") + cc;
    }
    return text;
}

// Above any shared buffer a switch has today, and far from uint64_t's top.
constexpr uint64_t kMaxBufferBytes = 1000000000000ull;

int
Main(int argc, char* argv[])
{
    std::string algo = "dcqcn";
    std::string ccParams;
    std::string preset = "auto";
    uint32_t rateGbps = 100;
    Time delay = NanoSeconds(1500);
    uint32_t payload = 1000;
    uint64_t pfcThreshold = 500000;
    std::string pfcScope = "ingress";
    uint64_t bufferBytes = 32000000;
    Time flow1Start = MicroSeconds(300);
    Time stop = MilliSeconds(1);
    uint32_t nSenders = 2;
    uint32_t nSwitches = 3;
    std::string congestion = "first";
    std::string out = "out/dumbbell";
    Time sample = MicroSeconds(1);
    bool pcap = false;
    bool traces = true;
    FlowIdSet ccLog;
    PfcDeadlockOptions deadlock;

    // Our simulator core: ns-3's event order (same results) at a lower cost
    // per event (docs/simulator-impl.md). --SimulatorImplementationType=
    // ns3::DefaultSimulatorImpl selects ns-3's own, which then uses the
    // fastest of its schedulers for this workload (docs/performance.md);
    // --SchedulerType overrides that.
    FastSimulatorImpl::Install();
    GlobalValue::Bind("SchedulerType", StringValue("ns3::PriorityQueueScheduler"));
    // Under mpirun/srun: one simulation over the ranks, split by the
    // partitioner (docs/distributed.md); rank 0 writes the summary and files.
    DistributedRun dist;
    if (int rc = dist.StartProgram("dumbbell", &argc, &argv))
    {
        return rc;
    }

    CheckedOptions cmd("dumbbell",
                       "FNCC paper dumbbell (Figure 9/10): flow0 from t=0, flow1 from "
                       "--flow1Start, both long-lived, into one receiver through --switches "
                       "switches.");
    cmd.AddCongestionControl(algo, ccParams);
    cmd.AddText("preset",
                "libcc preset applied before --cc: auto (dcqcn: paper, the DCQCN paper's "
                "values the FNCC paper compares against; others: libcc defaults), defaults, "
                "or a preset name of the algorithm (the preset= lines of its table below)",
                preset);
    cmd.AddGbps("rate", "link rate of every link", rateGbps, 1, 1600);
    cmd.AddTime("delay", "propagation delay of every link", delay, Time(0), Seconds(1));
    cmd.AddCount("payload", "payload of a full data packet, bytes (1000: 1074-byte frames)",
                 payload, 1, 1460);
    cmd.AddBytes("pfcThreshold", "PFC static threshold (what it bounds: --pfcScope)", pfcThreshold,
                 0, kMaxBufferBytes);
    cmd.AddBytes("buffer", "switch shared buffer", bufferBytes, 1, kMaxBufferBytes);
    cmd.AddTime("flow1Start", "start of flow1", flow1Start, Time(0), Seconds(1000));
    cmd.AddTime("stop", "simulated duration", stop, NanoSeconds(1), Seconds(1000));
    cmd.AddCount("senders", "number of senders (flows)", nSenders, 2, 1024);
    cmd.AddChoice("pfcScope",
                  "what --pfcThreshold bounds: ingress (each ingress port's share, as switches "
                  "count) or egress (the queue a packet joins; pauses every ingress feeding it)",
                  pfcScope, {"ingress", "egress"});
    cmd.AddCount("switches", "switches in the chain", nSwitches, 1, 64);
    cmd.AddChoice("congestion",
                  "where flow1's sender joins the chain, so where the congestion is (the FNCC "
                  "paper's Figure 11): first (the dumbbell: switch 0's egress), middle (switch "
                  "switches/2), last (the last switch's port to the receiver)",
                  congestion, {"first", "middle", "last"});
    cmd.AddText("out", "output directory for CSVs, fct, pfc, summary", out);
    cmd.AddTime("sample", "sampling interval of the CSVs", sample, NanoSeconds(100), Seconds(1));
    cmd.AddBool("pcap", "write pcap files of every device into --out", pcap);
    cmd.AddBool("traces", "write the CSV traces (off for benchmarks)", traces);
    cmd.AddFlowIds("ccLog", "flows whose libcc decisions go to cc-log.csv in --out "
                            "(docs/decision-log.md)", ccLog);
    deadlock.AddTo(cmd);
    int rc = cmd.Parse(argc, argv);
    if (rc >= 0)
    {
        return rc;
    }

    const uint32_t joinSwitch = congestion == "first"    ? 0
                                : congestion == "middle" ? nSwitches / 2
                                                         : nSwitches - 1;
    if (!MakeOutputDir(out))
    {
        std::cerr << "dumbbell: --out=" << out << ": cannot create the directory\n";
        return 1;
    }

    uint64_t rateBps = uint64_t(rateGbps) * 1000000000ull;
    const std::string ccText = EffectiveCcParams(algo, preset, ccParams);
    RdmaNetwork net;
    if (!cmd.ApplyCongestionControl(net, &ccText))
    {
        return 2;
    }
    net.SetNicAttribute("PayloadSize", UintegerValue(payload));
    net.SetSwitchAttribute("PfcStaticThreshold", UintegerValue(pfcThreshold));
    net.SetSwitchAttribute("BufferSize", UintegerValue(bufferBytes));
    net.SetSwitchAttribute("PfcEgressScope", BooleanValue(pfcScope == "egress"));
    net.SetDeadlockOptions(deadlock);
    // Sender 0 (flow0) on the first switch, the others where --congestion says.
    std::vector<uint32_t> senderSwitch(nSenders, joinSwitch);
    senderSwitch[0] = 0;
    TopologySpec topo = MakeChainTopology(senderSwitch, nSwitches, rateBps, delay.GetNanoSeconds());
    try
    {
        if (DistributedRun::UnderLauncher())
        {
            dist.UsePartition("dumbbell", net, topo, PartitionTopology(topo, dist.GetSize()));
        }
        net.Build(topo); // refuses a link rate INT cannot carry, a buffer all headroom
    }
    catch (const std::exception& e)
    {
        std::cerr << "dumbbell: the fabric of --senders=" << nSenders << " --switches=" << nSwitches
                  << " --rate=" << rateGbps << " --buffer=" << bufferBytes << ": " << e.what()
                  << "\n";
        return 2;
    }

    uint32_t receiver = nSenders;
    uint32_t sw0 = nSenders + 1;
    std::vector<FlowSpec> flows;
    for (uint32_t i = 0; i < nSenders; i++)
    {
        FlowSpec f{};
        f.src = i;
        f.dst = receiver;
        f.pg = 3;
        f.dport = 100;
        // Long-lived: more than the link can carry in the run.
        f.sizeBytes = static_cast<uint64_t>(stop.GetSeconds() * rateBps / 8 * 2) + 1000000;
        f.startNs = i == 0 ? 0 : flow1Start.GetNanoSeconds();
        flows.push_back(f);
    }
    net.AddFlows(flows);
    CcLogWriter ccLogWriter;
    if (int st = ccLogWriter.Start("dumbbell", net, ccLog, out + "/cc-log.csv", dist.GetRank(),
                                   dist.GetSize());
        st >= 0)
    {
        return st;
    }
    dist.SpeakAgain();
    if (pcap)
    {
        net.EnablePcap(out + "/dumbbell");
    }

    RdmaTraceHelper tr(net);
    tr.SetRanks(dist.GetRank(), dist.GetSize(), dist.GetLookaheadNs());
    tr.EnableFct(out + "/fct.txt", out + "/fct.csv");
    tr.EnablePfc(out + "/pfc.txt", out + "/pfc.csv");
    // The congestion point: the egress of the switch where flows meet,
    // towards the receiver.
    uint32_t cpSwitch = sw0 + joinSwitch;
    uint32_t congestionPeer = joinSwitch + 1 < nSwitches ? cpSwitch + 1 : receiver;
    if (traces)
    {
        tr.TrackLink(cpSwitch, congestionPeer);
        tr.EnableSampling(sample, out + "/queue.csv", out + "/rate.csv", out + "/link.csv");
    }
    if (dist.GetRank() == 0)
    {
        tr.EnableProgress(stop);
    }

    Watch w;
    w.flow1StartNs = flow1Start.GetNanoSeconds();
    w.rateAtFlow1 = rateBps;
    Ptr<SwitchNode> cp = net.GetSwitch(cpSwitch);
    Ptr<QbbNetDevice> cpDev = net.GetLinkDevice(cpSwitch, congestionPeer);
    w.port = cpDev->GetIfIndex();
    net.GetFlows()[0]->TraceConnectWithoutContext("Rate", MakeBoundCallback(&OnFlow0Rate, &w));
    Simulator::Schedule(flow1Start, &SampleWatch, &w, cp, net.GetFlows()[0], net.GetFlows()[1],
                        sample);
    uint64_t txAtFlow1 = 0;
    Simulator::Schedule(flow1Start, [&]() { txAtFlow1 = cpDev->GetTxBytes(); });
    // The congestion point's peak queue from flow 1's start, kept by the
    // switch (a QueueBytes callback per frame cost ~45 instructions per
    // packet-hop of the whole run).
    Simulator::Schedule(flow1Start, [&]() {
        cp->ResetPortPeakQueueBytes(w.port);
        w.peakFromFlow1 = true;
    });
    // Goodput: per --sample interval, and over the run's last 100 us (all of
    // it, if shorter).
    Goodput g{static_cast<uint64_t>(sample.GetNanoSeconds()), {}, {}, {}};
    g.bytes.resize(nSenders);
    g.total.assign(nSenders, 0);
    g.atEndWindow.assign(nSenders, 0);
    const Time endWindow = std::min(MicroSeconds(100), stop);
    net.GetNic(receiver)->TraceConnectWithoutContext("RxDeliver", MakeCallback(&Goodput::On, &g));
    Simulator::Schedule(stop - endWindow, [&]() { g.atEndWindow = g.total; });

    auto wall0 = std::chrono::steady_clock::now();
    Simulator::Stop(stop);
    Simulator::Run();
    w.peakAfter = w.peakFromFlow1 ? cp->GetPortPeakQueueBytes(w.port) : 0;
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    size_t nSamples = static_cast<uint64_t>(stop.GetNanoSeconds()) / g.intervalNs;
    Totals tot = ReduceOverRanks(dist, net, w, g, nSamples, cpSwitch, receiver,
                                 cpDev->GetTxBytes() - txAtFlow1, tr.GetPfcPauses());
    Ptr<PfcDeadlockDetector> dl = net.GetDeadlockDetector();
    bool deadlocked = dist.Max(dl->IsDeadlocked() ? 1 : 0) != 0;
    std::string report = dist.First(dl->Describe(), dl->GetReportOrder());
    wall = static_cast<double>(dist.Max(static_cast<uint64_t>(wall * 1e6))) / 1e6;
    tr.Close();
    ccLogWriter.Close();
    if (dist.IsDistributed())
    {
        dist.Barrier(); // every rank's files are closed
        std::string err;
        if (dist.GetRank() == 0 && (!tr.MergeRanks(err) || !ccLogWriter.MergeRanks(err)))
        {
            std::cerr << "dumbbell: merging the ranks' outputs: " << err << "\n";
            return 1;
        }
    }
    if (dist.GetRank() > 0)
    {
        Simulator::Destroy();
        return deadlocked && !deadlock.keepRunning ? 3 : 0;
    }

    if (traces)
    {
        std::FILE* gp = std::fopen((out + "/goodput.csv").c_str(), "w");
        if (!gp)
        {
            std::cerr << "dumbbell: cannot write " << out << "/goodput.csv\n";
            return 1;
        }
        // One row per flow per interval, at the interval's end.
        std::fprintf(gp, "time_ns,flow,goodput_gbps\n");
        for (size_t k = 0; k < nSamples; k++)
        {
            for (uint32_t i = 0; i < nSenders; i++)
            {
                uint64_t b = k < g.bytes[i].size() ? g.bytes[i][k] : 0;
                std::fprintf(gp, "%" PRIu64 ",%u,%.4f\n", (k + 1) * g.intervalNs, i,
                             b * 8.0 / g.intervalNs);
            }
        }
        std::fclose(gp);
    }

    // Summary.
    double afterS = (stop - flow1Start).GetSeconds();
    double util = afterS > 0 ? tot.cpTxAfterFlow1 * 8.0 / afterS / rateBps : 0;
    double fair = static_cast<double>(rateBps) / 2;
    int64_t convergeNs = -1;
    // The earliest sample from which both flows stay within 10% of the fair share.
    for (size_t i = w.t.size(); i-- > 0;)
    {
        bool ok =
            std::fabs(w.r0[i] - fair) <= 0.1 * fair && std::fabs(w.r1[i] - fair) <= 0.1 * fair;
        if (!ok)
        {
            break;
        }
        convergeNs = static_cast<int64_t>(w.t[i] - w.flow1StartNs);
    }
    uint64_t txPackets = tot.txPackets;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);

    // Which core ran (--SimulatorImplementationType): results are the same
    // under both, speed is not.
    StringValue simulator;
    GlobalValue::GetValueByName("SimulatorImplementationType", simulator);

    std::FILE* sf = std::fopen((out + "/summary.txt").c_str(), "w");
    for (std::FILE* f : {stdout, sf})
    {
        if (!f)
        {
            continue;
        }
        std::fprintf(f, "algorithm=%s\n", algo.c_str());
        std::fprintf(f, "cc=%s\n", ccText.c_str());
        std::fprintf(f, "rate_gbps=%u\n", rateGbps);
        std::fprintf(f, "congestion=%s\n", congestion.c_str());
        std::fprintf(f, "pfc_threshold_bytes=%" PRIu64 "\npfc_scope=%s\n", pfcThreshold,
                     pfcScope.c_str());
        std::fprintf(f, "cp_node=%u\n", cpSwitch);
        std::fprintf(f, "cp_port=%u\n", w.port);
        std::fprintf(f, "flow1_start_us=%.3f\n", flow1Start.GetSeconds() * 1e6);
        if (w.firstDecreaseNs >= 0)
            std::fprintf(f, "flow0_first_decrease_us=%.3f\n", w.firstDecreaseNs / 1e3);
        else
            std::fprintf(f, "flow0_first_decrease_us=none\n");
        std::fprintf(f, "queue_peak_kb=%.1f\n", w.peakAfter / 1e3);
        std::fprintf(f, "queue_mean_kb=%.1f\n", w.qN ? double(w.qSum) / w.qN / 1e3 : 0.0);
        std::fprintf(f, "pfc_pauses=%" PRIu64 "\n", tot.pauses);
        std::fprintf(f, "pfc_deadlock=%s\n", deadlocked ? "yes" : "no");
        std::fprintf(f, "bottleneck_utilization=%.3f\n", util);
        if (convergeNs >= 0)
            std::fprintf(f, "fair_convergence_us=%.1f\n", convergeNs / 1e3);
        else
            std::fprintf(f, "fair_convergence_us=none\n");
        std::fprintf(f, "flow0_rate_end_gbps=%.2f\n", w.r0.empty() ? 0.0 : w.r0.back() / 1e9);
        std::fprintf(f, "flow1_rate_end_gbps=%.2f\n", w.r1.empty() ? 0.0 : w.r1.back() / 1e9);
        for (uint32_t i = 0; i < 2; i++)
        {
            double gbps = endWindow.IsStrictlyPositive()
                              ? (g.total[i] - g.atEndWindow[i]) * 8.0 / endWindow.GetNanoSeconds()
                              : 0.0;
            std::fprintf(f, "flow%u_goodput_end_gbps=%.2f\n", i, gbps);
        }
        std::fprintf(f, "goodput_end_window_us=%.1f\n", endWindow.GetSeconds() * 1e6);
        std::fprintf(f, "cnps=%" PRIu64 "\n", tot.cnps);
        std::fprintf(f, "nacks=%" PRIu64 "\n", tot.nacks);
        std::fprintf(f, "timeouts=%" PRIu64 "\n", tot.timeouts);
        std::fprintf(f, "link_packets=%" PRIu64 "\n", txPackets);
        std::fprintf(f, "simulator=%s\n", simulator.Get().c_str());
        std::fprintf(f, "wall_s=%.3f\n", wall);
        std::fprintf(f, "packets_per_wall_s=%.0f\n", wall > 0 ? txPackets / wall : 0.0);
        std::fprintf(f, "peak_rss_mb=%.1f\n", ru.ru_maxrss / 1024.0);
        std::fprintf(f, "libcc_rp_bytes_per_flow=%zu\n",
                     libcc_rp_size(net.GetCcConfig()->GetParams()));
    }
    if (sf)
    {
        std::fclose(sf);
    }
    if (!report.empty())
    {
        std::cerr << "dumbbell: " << report << "\n";
    }
    Simulator::Destroy();
    return deadlocked && !deadlock.keepRunning ? 3 : 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    // Every object of the run is gone when Main returns.
    QuickExit(Main(argc, argv));
}
