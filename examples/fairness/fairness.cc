// SPDX-License-Identifier: GPL-2.0-only
//
// The FNCC paper's fairness experiment (section 5.3, Figure 13e): senders on
// a dumbbell join one after another, every --interval, and then leave in
// the same order, every --interval; with 4 senders the phases hold 1, 2, 3,
// 4, 3, 2 and 1 flows. Writes per-flow goodput over time and, per phase,
// each flow's goodput and Jain's fairness index over the phase's second
// half (after the flows had time to converge).
//
//   ./fairness --algo=fncc --interval=100ms --out=out/fairness   # the paper's time scale
//   ./fairness --algo=fncc --interval=1ms                        # a short one
//
// Over MPI ranks (docs/distributed.md): the middle switches go to the other
// ranks, the receiver's goodput is summed over them, rank 0 writes the files.

#include "cc-log-writer.h"
#include "checked-options.h"
#include "distributed-run.h"
#include "fast-simulator-impl.h"
#include "libcc-config.h"
#include "quick-exit.h"
#include "rdma-network.h"
#include "rdma-trace.h"

#include <ns3/core-module.h>

#include <cinttypes>
#include <cstdio>
#include <iostream>
#include <map>
#include <vector>

using namespace ns3;

namespace
{

/// Bytes each flow delivered in order to the receiver, per sample interval.
struct Goodput
{
    uint64_t intervalNs;
    std::vector<std::vector<uint64_t>> bytes; // [flow][sample]
    static void On(Goodput* g, uint32_t flow, uint64_t, uint32_t bytes)
    {
        size_t k = LibccNow() / g->intervalNs;
        auto& v = g->bytes[flow];
        if (v.size() <= k)
        {
            v.resize(k + 1, 0);
        }
        v[k] += bytes;
    }
};

/**
 * The partition over ranks: the switches between the first and the last
 * go to ranks 1.., contiguously; the senders, the receiver and the two end
 * switches stay on rank 0. The flows leave early (a stop time), which
 * needs each flow's two hosts on one rank (RdmaNetwork::AddFlow); with
 * fewer than three switches everything is rank 0's.
 */
std::vector<uint32_t>
MiddleSwitchesApart(const TopologySpec& topo, uint32_t nSenders, uint32_t nSwitches,
                    uint32_t ranks)
{
    std::vector<uint32_t> rankOf(topo.nNodes, 0);
    uint32_t middles = nSwitches > 2 ? nSwitches - 2 : 0;
    uint32_t firstMiddle = nSenders + 1 + 1; // hosts, then switch 0
    for (uint32_t m = 0; m < middles && ranks > 1; m++)
    {
        rankOf[firstMiddle + m] = 1 + static_cast<uint32_t>(uint64_t(m) * (ranks - 1) / middles);
    }
    return rankOf;
}

/// Jain's index (sum x)^2 / (n sum x^2); 1 for n = 0 or all zero.
double
Jain(const std::vector<double>& x)
{
    double s = 0, s2 = 0;
    for (double v : x)
    {
        s += v;
        s2 += v * v;
    }
    return s2 > 0 ? s * s / (x.size() * s2) : 1.0;
}

int
Main(int argc, char* argv[])
{
    std::string algo = "fncc";
    std::string ccParams;
    uint32_t nSenders = 4;
    Time interval = MilliSeconds(100);
    uint32_t rateGbps = 100;
    Time delay = NanoSeconds(1500);
    uint32_t nSwitches = 3;
    uint64_t pfcThreshold = 500000;
    std::string out = "out/fairness";
    FlowIdSet ccLog;
    PfcDeadlockOptions deadlock;

    FastSimulatorImpl::Install();
    // Under mpirun/srun: one simulation over the ranks (docs/distributed.md);
    // rank 0 writes the files and the summary.
    DistributedRun dist;
    if (int rc = dist.StartProgram("fairness", &argc, &argv))
    {
        return rc;
    }
    CheckedOptions cmd("fairness",
                       "FNCC paper section 5.3 (Figure 13e): senders join a dumbbell one every "
                       "--interval and leave in the same order; goodput per flow and Jain's index "
                       "per phase. Writes goodput.csv, phases.csv and summary.txt into --out.");
    cmd.AddCongestionControl(algo, ccParams);
    cmd.AddCount("senders", "number of senders", nSenders, 2, 64);
    cmd.AddTime("interval", "time between joins (and between leaves)", interval,
                MicroSeconds(1), Seconds(100));
    cmd.AddGbps("rate", "link rate of every link", rateGbps, 1, 1600);
    cmd.AddTime("delay", "propagation delay of every link", delay, Time(0), Seconds(1));
    cmd.AddCount("switches", "switches in the chain", nSwitches, 1, 16);
    cmd.AddBytes("pfcThreshold", "PFC static threshold per ingress (0: dynamic)", pfcThreshold, 0,
                 1000000000000ull);
    cmd.AddText("out", "output directory", out);
    cmd.AddFlowIds("ccLog", "flows whose libcc decisions go to cc-log.csv in --out "
                            "(docs/decision-log.md)", ccLog);
    deadlock.AddTo(cmd);
    int rc = cmd.Parse(argc, argv);
    if (rc >= 0)
    {
        return rc;
    }
    if (!MakeOutputDir(out))
    {
        std::cerr << "fairness: --out=" << out << ": cannot create the directory\n";
        return 1;
    }
    uint64_t rateBps = uint64_t(rateGbps) * 1000000000ull;
    uint64_t T = interval.GetNanoSeconds();
    uint32_t nPhases = 2 * nSenders - 1;
    RdmaNetwork net;
    if (!cmd.ApplyCongestionControl(net))
    {
        return 2;
    }
    try
    {
        net.SetSwitchAttribute("PfcStaticThreshold", UintegerValue(pfcThreshold));
        net.SetDeadlockOptions(deadlock);
        TopologySpec topo = MakeDumbbellTopology(nSenders, nSwitches, rateBps, delay.GetNanoSeconds());
        if (DistributedRun::UnderLauncher())
        {
            dist.UsePartition("fairness", net, topo, MiddleSwitchesApart(topo, nSenders, nSwitches, dist.GetSize()));
        }
        net.Build(topo);
    }
    catch (const std::exception& e)
    {
        std::cerr << "fairness: the fabric of --senders=" << nSenders << " --switches=" << nSwitches
                  << " --rate=" << rateGbps << ": " << e.what() << "\n";
        return 2;
    }
    // Flow i joins at i T and leaves at (nSenders + i) T; the last one runs
    // to the end of the last phase.
    for (uint32_t i = 0; i < nSenders; i++)
    {
        FlowSpec f{i, nSenders, 3, 100, 0, i * T, 0};
        f.stopNs = i + 1 < nSenders ? (nSenders + i) * T : 0;
        f.sizeBytes = static_cast<uint64_t>(double(nPhases) * T * 1e-9 * rateBps / 8) + 1000000;
        net.AddFlow(f, i);
    }
    Goodput g{std::max<uint64_t>(T / 100, 1000), {}};
    g.bytes.resize(nSenders);
    net.GetNic(nSenders)->TraceConnectWithoutContext("RxDeliver",
                                                     MakeBoundCallback(&Goodput::On, &g));
    CcLogWriter ccLogWriter;
    if (int st = ccLogWriter.Start("fairness", net, ccLog, out + "/cc-log.csv", dist.GetRank(),
                                   dist.GetSize());
        st >= 0)
    {
        return st;
    }
    dist.SpeakAgain();
    RdmaTraceHelper tr(net);
    if (dist.GetRank() == 0)
    {
        tr.EnableProgress(NanoSeconds(nPhases * T));
    }
    Simulator::Stop(NanoSeconds(nPhases * T));
    Simulator::Run();
    size_t nSamples = (nPhases * T) / g.intervalNs;
    if (dist.IsDistributed())
    {
        // The receiver's rank counted the goodput; the others hold zeros.
        std::vector<uint64_t> all(size_t(nSenders) * nSamples, 0);
        for (uint32_t i = 0; i < nSenders && net.IsLocal(nSenders); i++)
        {
            for (size_t k = 0; k < nSamples && k < g.bytes[i].size(); k++)
            {
                all[i * nSamples + k] = g.bytes[i][k];
            }
        }
        dist.Sum(all);
        for (uint32_t i = 0; i < nSenders; i++)
        {
            g.bytes[i].assign(all.begin() + i * nSamples, all.begin() + (i + 1) * nSamples);
        }
    }
    Ptr<PfcDeadlockDetector> dl = net.GetDeadlockDetector();
    bool deadlocked = dist.Max(dl->IsDeadlocked() ? 1 : 0) != 0;
    std::string report = dist.First(dl->Describe(), dl->GetReportOrder());
    ccLogWriter.Close();
    if (dist.IsDistributed())
    {
        dist.Barrier(); // every rank's cc-log is closed
        std::string err;
        if (dist.GetRank() == 0 && !ccLogWriter.MergeRanks(err))
        {
            std::cerr << "fairness: merging the ranks' cc-log: " << err << "\n";
            return 1;
        }
    }
    if (dist.GetRank() > 0)
    {
        Simulator::Destroy();
        return deadlocked && !deadlock.keepRunning ? 3 : 0;
    }

    std::FILE* gp = std::fopen((out + "/goodput.csv").c_str(), "w");
    std::FILE* ph = std::fopen((out + "/phases.csv").c_str(), "w");
    std::FILE* sf = std::fopen((out + "/summary.txt").c_str(), "w");
    if (!gp || !ph || !sf)
    {
        std::cerr << "fairness: cannot write into " << out << "\n";
        return 1;
    }
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
    std::fprintf(ph, "phase,start_ns,end_ns,active_flows,flow,goodput_gbps,jain,utilization\n");
    double worstJain = 1.0;
    for (uint32_t p = 0; p < nPhases; p++)
    {
        // Active: joined at or before the phase start, not yet left.
        std::vector<uint32_t> active;
        for (uint32_t i = 0; i < nSenders; i++)
        {
            bool joined = i <= p;
            bool left = i + 1 < nSenders && nSenders + i <= p;
            if (joined && !left)
            {
                active.push_back(i);
            }
        }
        // The phase's second half, in whole samples.
        size_t k0 = (p * T + T / 2) / g.intervalNs;
        size_t k1 = ((p + 1) * T) / g.intervalNs;
        std::vector<double> gbps;
        for (uint32_t i : active)
        {
            uint64_t b = 0;
            for (size_t k = k0; k < k1 && k < g.bytes[i].size(); k++)
            {
                b += g.bytes[i][k];
            }
            gbps.push_back(k1 > k0 ? b * 8.0 / ((k1 - k0) * g.intervalNs) : 0.0);
        }
        double j = Jain(gbps);
        double sum = 0;
        for (double v : gbps)
        {
            sum += v;
        }
        worstJain = std::min(worstJain, j);
        for (size_t a = 0; a < active.size(); a++)
        {
            std::fprintf(ph, "%u,%" PRIu64 ",%" PRIu64 ",%zu,%u,%.4f,%.4f,%.4f\n", p, p * T,
                         (p + 1) * T, active.size(), active[a], gbps[a], j, sum / rateGbps);
        }
    }
    for (std::FILE* f : {stdout, sf})
    {
        std::fprintf(f, "algorithm=%s\ncc=%s\nsenders=%u\ninterval_ns=%" PRIu64
                        "\nrate_gbps=%u\nphases=%u\njain_min=%.4f\npfc_deadlock=%s\n",
                     algo.c_str(), ccParams.c_str(), nSenders, T, rateGbps, nPhases, worstJain,
                     deadlocked ? "yes" : "no");
    }
    std::fclose(gp);
    std::fclose(ph);
    std::fclose(sf);
    if (!report.empty())
    {
        std::cerr << "fairness: " << report << "\n";
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
