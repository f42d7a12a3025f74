// SPDX-License-Identifier: GPL-2.0-only
//
// Simulator-core micro-benchmark: N self-rescheduling events with a fixed
// number pending (a dumbbell keeps tens to hundreds), half through Schedule
// and half through ScheduleWithContext like devices and channels do, under
// ns-3's DefaultSimulatorImpl or FastSimulatorImpl (docs/simulator-impl.md).
//
//   build/bin/simbench --impl=default --events=10000000 --pending=50
//   build/bin/simbench --impl=libcc   --events=10000000 --pending=50
//   build/bin/simbench --impl=libcc   --events=10000000 --pending=50 --api=fast
//
// --api=fast schedules the ScheduleWithContext half through sim-fast.h's
// SimScheduleWithContext, as the fabric's reused events do (same events, same
// order: the last line does not change).
//
// The last line (end time, events) must be the same for both impls.

#include "checked-options.h"
#include "fast-simulator-impl.h"
#include "sim-fast.h"

#include <ns3/core-module.h>

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <ctime>

using namespace ns3;

namespace
{

uint64_t g_left;    // reschedules still to do
uint32_t g_lcg = 1; // delays from a fixed LCG: the same run for both impls
bool g_fast;        // --api=fast

void
Tick(uint32_t slot)
{
    if (g_left == 0)
    {
        return;
    }
    g_left--;
    g_lcg = g_lcg * 1664525u + 1013904223u;
    // 1..1000 ns: ties are rare but the queue stays mixed, as with links.
    Time delay = NanoSeconds(1 + (g_lcg >> 8) % 1000);
    if (slot & 1)
    {
        if (g_fast)
        {
            SimScheduleWithContext(slot, delay.GetTimeStep(), MakeEvent(&Tick, slot));
        }
        else
        {
            Simulator::ScheduleWithContext(slot, delay, &Tick, slot);
        }
    }
    else
    {
        Simulator::Schedule(delay, &Tick, slot);
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string impl = "default";
    std::string api = "simulator";
    uint64_t events = 10000000;
    uint32_t pending = 50;
    // The dumbbell's scheduler (docs/performance.md); --SchedulerType overrides it.
    GlobalValue::Bind("SchedulerType", StringValue("ns3::PriorityQueueScheduler"));
    CheckedOptions cmd("simbench", "The simulator core alone: events scheduled and run per "
                                   "second (docs/simulator-impl.md).");
    cmd.AddChoice("impl", "simulator core: default (ns-3's) or libcc (FastSimulatorImpl)", impl,
                  {"default", "libcc"});
    cmd.AddCount("events", "events to run", events, 1, 100000000000ull);
    cmd.AddCount("pending", "events kept pending", pending, 1, 10000000);
    cmd.AddChoice("api", "ScheduleWithContext half: simulator or fast (sim-fast.h)", api,
                  {"simulator", "fast"});
    int rc = cmd.Parse(argc, argv);
    if (rc >= 0)
    {
        return rc;
    }
    g_fast = api == "fast";
    if (impl == "libcc")
    {
        FastSimulatorImpl::Install(); // before the first Simulator call
    }

    g_left = events; // every Tick that schedules counts, the first ones too
    for (uint32_t i = 0; i < pending; ++i)
    {
        Tick(i);
    }
    // CPU time too: on a shared machine it is the steadier of the two.
    auto t0 = std::chrono::steady_clock::now();
    std::clock_t c0 = std::clock();
    Simulator::Run();
    std::clock_t c1 = std::clock();
    auto t1 = std::chrono::steady_clock::now();
    double s = std::chrono::duration<double>(t1 - t0).count();
    double cpu = double(c1 - c0) / CLOCKS_PER_SEC;
    uint64_t n = Simulator::GetEventCount();
    std::printf("impl %s api %s (%s): %" PRIu64 " events in %.3f s: %.2f M events/s, %.1f ns/event"
                " (CPU %.3f s, %.1f ns/event)\n",
                impl.c_str(), api.c_str(), Simulator::GetImplementation()->GetInstanceTypeId().GetName().c_str(),
                n, s, n / s / 1e6, s * 1e9 / n, cpu, cpu * 1e9 / n);
    std::printf("end %" PRId64 " ns, %" PRIu64 " events\n", Simulator::Now().GetNanoSeconds(), n);
    Simulator::Destroy();
    return 0;
}
