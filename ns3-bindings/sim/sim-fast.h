// SPDX-License-Identifier: GPL-2.0-only
//
// The clock read and event insert of the per-packet path, inline.
//
// Why: Simulator::Now() costs ~51 instructions (the static wrapper,
// Simulator::GetImpl(), a virtual call and, in Debian's build, a
// LogComponent::IsEnabled check), and the dumbbell calls it ~300 times per
// simulated microsecond; Simulator::ScheduleWithContext pays the same on top
// of the insert. Together that was 9-10% of Simulator::Run().
//
// How: while FastSimulatorImpl::Run() executes, FastSimulatorImpl::Running()
// points at it, and these functions read its fields and insert into its heap
// directly. Everywhere else (before and after Run, in destroy events, under
// DefaultSimulatorImpl or any other SimulatorImpl) Running() is nullptr and
// they call the Simulator:: function they stand for, so the value is the same
// in every case (docs/simulator-impl.md, "The fast path").
//
// Precondition of the fast path: the FastSimulatorImpl that runs is the
// Simulator's implementation (it is whenever Run() is reached through
// Simulator::Run()).
#ifndef SIM_FAST_H
#define SIM_FAST_H

#include "fast-simulator-impl.h"

#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"

#include <cstdint>

namespace ns3
{

/// The Simulator:: calls the functions below stand for, out of line and
/// cold: inlined, their Time temporaries made every caller save registers
/// on the fast path too (fast-simulator-impl.cc).
namespace simslow
{
[[gnu::cold, gnu::noinline]] int64_t NowStep();
[[gnu::cold, gnu::noinline]] int64_t NowNs();
[[gnu::cold, gnu::noinline]] int64_t NowPs();
[[gnu::cold, gnu::noinline]] uint32_t Context();
[[gnu::cold, gnu::noinline]] void ScheduleWithContext(uint32_t context, int64_t delaySteps,
                                                      EventImpl* event);
} // namespace simslow

/// Simulator::Now().GetTimeStep(), without building a Time on the fast path
/// (the callers want a number of steps or convert it themselves).
inline int64_t
SimNowStep()
{
    FastSimulatorImpl* impl = FastSimulatorImpl::Running();
    if (__builtin_expect(impl != nullptr, 1))
    {
        return impl->NowStep();
    }
    return simslow::NowStep();
}

/// Simulator::Now().GetNanoSeconds(), without a Time on the fast path.
inline int64_t
SimNowNs()
{
    FastSimulatorImpl* impl = FastSimulatorImpl::Running();
    if (__builtin_expect(impl != nullptr, 1))
    {
        return impl->NowNs();
    }
    return simslow::NowNs();
}

/// Simulator::Now().GetPicoSeconds(), without a Time on the fast path.
inline int64_t
SimNowPs()
{
    FastSimulatorImpl* impl = FastSimulatorImpl::Running();
    if (__builtin_expect(impl != nullptr, 1))
    {
        return impl->NowPs();
    }
    return simslow::NowPs();
}

/// Simulator::Now(), for callers that want a Time: one inline load.
inline Time
SimNow()
{
    return TimeStep(SimNowStep());
}

/// Whether the running simulator orders events by node (FastSimulatorImpl's
/// ORDER_NODE, every distributed run): false under any other SimulatorImpl.
inline bool
SimNodeOrder()
{
    FastSimulatorImpl* impl = FastSimulatorImpl::Running();
    return impl != nullptr && impl->IsNodeOrder();
}

/// Simulator::GetContext(): the running event's context (NO_CONTEXT outside
/// any event), without the wrapper and virtual call.
inline uint32_t
SimContext()
{
    FastSimulatorImpl* impl = FastSimulatorImpl::Running();
    if (__builtin_expect(impl != nullptr, 1))
    {
        return impl->CurrentContext();
    }
    return simslow::Context();
}

/**
 * Simulator::ScheduleWithContext(context, TimeStep(delaySteps), event):
 * the event runs at now + delaySteps with the next uid, so it orders among
 * all other events by (timestamp, uid) exactly as through the Simulator;
 * the queue takes over the caller's reference to event (the caller Refs
 * first if it keeps the event). A negative delay is fatal, as in
 * FastSimulatorImpl::ScheduleWithContext. Single-threaded, as that is.
 */
inline void
SimScheduleWithContext(uint32_t context, int64_t delaySteps, EventImpl* event)
{
    FastSimulatorImpl* impl = FastSimulatorImpl::Running();
    if (__builtin_expect(impl != nullptr, 1))
    {
        impl->ScheduleWithContextSteps(context, delaySteps, event);
        return;
    }
    simslow::ScheduleWithContext(context, delaySteps, event);
}

/// SimScheduleWithContext for a FastEvent: FastSimulatorImpl::Run fires it
/// without EventImpl::Invoke (the same key and reference as any event).
/// Always in line: the per-frame schedule of channels and devices, where a
/// call cost more than a sixth of the insert.
[[gnu::always_inline]] inline void
SimScheduleWithContext(uint32_t context, int64_t delaySteps, FastEvent* event)
{
    FastSimulatorImpl* impl = FastSimulatorImpl::Running();
    if (__builtin_expect(impl != nullptr, 1))
    {
        impl->ScheduleFastSteps(context, delaySteps, event);
        return;
    }
    simslow::ScheduleWithContext(context, delaySteps, event);
}

} // namespace ns3

#endif // SIM_FAST_H
