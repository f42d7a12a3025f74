// SPDX-License-Identifier: GPL-2.0-only
//
// FastSimulatorImpl: a drop-in ns-3 SimulatorImpl with the exact event
// order of ns-3.37's DefaultSimulatorImpl (events by (timestamp, uid), the
// same uid counter), so a simulation gives byte-identical results under
// either, at a fraction of the per-event cost: a 4-ary heap of 24-byte POD
// entries inlined into Run(), no Scheduler object, no virtual call, log
// check, EventId or allocation per processed event. sim-fast.h reads its
// clock and inserts into its queue inline while Run() executes.
//
// Differences from DefaultSimulatorImpl (docs/simulator-impl.md):
// - The inline helpers of sim-fast.h are for model code, which runs on the
//   main thread: they skip the thread check. ScheduleWithContext itself makes
//   it as Default does: a call from another thread is queued under a mutex
//   and inserted by Run() before its next event; the main thread's own calls
//   take no lock.
// - SetScheduler is accepted and ignored: the class has its own queue, and
//   the order is fixed by (timestamp, uid) whatever the SchedulerType.
// - PreEventHook is not called (nothing in this project overrides it).
// - A negative delay is a fatal error instead of a debug-only assertion.
//
// Select it before anything touches the Simulator, either with
// FastSimulatorImpl::Install() or, the ns-3 way,
//   GlobalValue::Bind("SimulatorImplementationType",
//                     StringValue("ns3::FastSimulatorImpl"));
// or, when no simulator exists (after Simulator::Destroy()),
//   Simulator::SetImplementation(CreateObject<FastSimulatorImpl>());
#ifndef FAST_SIMULATOR_IMPL_H
#define FAST_SIMULATOR_IMPL_H

#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/simulator-impl.h"

#include <atomic>
#include <cstdint>
#include <list>
#include <mutex>
#include <thread>
#include <vector>

namespace ns3
{

class FastSimulatorImpl final : public SimulatorImpl
{
  public:
    static TypeId GetTypeId();

    /**
     * Bind the SimulatorImplementationType global value to this class. Must
     * run before the first Simulator call (any Schedule, Now, ...): the
     * Simulator creates its implementation once, on first use.
     */
    static void Install();

    FastSimulatorImpl();
    ~FastSimulatorImpl() override;

    void Destroy() override;
    bool IsFinished() const override;
    void Stop() override;
    void Stop(const Time& delay) override;
    EventId Schedule(const Time& delay, EventImpl* event) override;
    void ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event) override;
    EventId ScheduleNow(EventImpl* event) override;
    EventId ScheduleDestroy(EventImpl* event) override;
    void Remove(const EventId& id) override;
    void Cancel(const EventId& id) override;
    bool IsExpired(const EventId& id) const override;
    void Run() override;
    Time Now() const override;
    Time GetDelayLeft(const EventId& id) const override;
    Time GetMaximumSimulationTime() const override;
    void SetScheduler(ObjectFactory schedulerFactory) override;
    uint32_t GetSystemId() const override;
    uint32_t GetContext() const override;
    uint64_t GetEventCount() const override;

    /**
     * The instance whose Run() is executing, nullptr outside Run(). Model
     * code only runs inside Run() (or before/after it, where the Simulator::
     * calls are not hot), so sim-fast.h reads the clock and inserts events
     * through this pointer without the Simulator:: wrapper, its log check and
     * the virtual call; whenever it is nullptr (another SimulatorImpl, set-up,
     * destroy events) it falls back to the Simulator:: calls.
     */
    static FastSimulatorImpl* Running()
    {
        return s_running;
    }

    /// Now() as a time step, without building a Time.
    int64_t NowStep() const
    {
        return static_cast<int64_t>(m_currentTs);
    }

    /// Now().GetNanoSeconds() / GetPicoSeconds() without a Time (whose
    /// construction and destruction check ns-3's marking flag): the same
    /// truncating conversion by the resolution's factor, worked out when
    /// Run() starts (the resolution is fixed by then).
    int64_t NowNs() const
    {
        return m_ns.Convert(static_cast<int64_t>(m_currentTs));
    }
    int64_t NowPs() const
    {
        return m_ps.Convert(static_cast<int64_t>(m_currentTs));
    }

    /// GetContext(), non-virtual.
    uint32_t CurrentContext() const
    {
        return m_currentContext;
    }

    /// ScheduleWithContext(context, TimeStep(delaySteps), event), inline:
    /// the same key (now + delay, next uid) and the queue takes over the
    /// caller's reference, as there.
    void ScheduleWithContextSteps(uint32_t context, int64_t delaySteps, EventImpl* event)
    {
        if (__builtin_expect(delaySteps < 0, 0))
        {
            NegativeDelaySteps(delaySteps);
        }
        Insert(m_currentTs + static_cast<uint64_t>(delaySteps), context, event);
    }

  private:
    /// One queued event, 24 bytes. The queue owns one reference to impl.
    struct Entry
    {
        uint64_t ts;
        /// uid << 32 | context: (ts, uidContext) orders like (ts, uid), since
        /// uids are unique, and compares as one 128-bit integer.
        uint64_t uidContext;
        EventImpl* impl;

        uint32_t Uid() const
        {
            return static_cast<uint32_t>(uidContext >> 32);
        }
        uint32_t Context() const
        {
            return static_cast<uint32_t>(uidContext);
        }
    };

    void DoDispose() override;

    /// Strict (ts, uid) order, branch-free (cmp + sbb).
    static bool Before(const Entry& a, const Entry& b)
    {
        using U128 = unsigned __int128;
        return ((U128(a.ts) << 64) | a.uidContext) < ((U128(b.ts) << 64) | b.uidContext);
    }
    /// Inline (with SiftUp) so that sim-fast.h's schedule has no call.
    void Insert(uint64_t ts, uint32_t context, EventImpl* event)
    {
        Entry e{ts, (uint64_t(m_uid++) << 32) | context, event};
        if (__builtin_expect(m_size == m_heap.size(), 0))
        {
            Grow();
        }
        SiftUp(m_size++, e);
    }
    void SiftUp(size_t i, Entry e)
    {
        // Move the hole up instead of swapping: one store per level.
        Entry* h = m_heap.data();
        while (i > 0)
        {
            size_t parent = (i - 1) / 4;
            if (!Before(e, h[parent]))
            {
                break;
            }
            h[i] = h[parent];
            i = parent;
        }
        h[i] = e;
    }
    [[gnu::cold, gnu::noinline]] void Grow();
    [[noreturn, gnu::cold, gnu::noinline]] static void NegativeDelaySteps(int64_t delaySteps);
    Entry PopMin();
    void SiftDown(size_t i, Entry e);

    static FastSimulatorImpl* s_running; ///< See Running()

    /// ScheduleWithContext from another thread, waiting for Run().
    struct Foreign
    {
        uint32_t context;
        int64_t delaySteps;
        EventImpl* event;
    };
    /// Insert what other threads scheduled (Default's ProcessEventsWithContext).
    void InsertForeign();
    std::thread::id m_main; ///< the thread that created the simulator
    std::mutex m_foreignMutex;
    std::vector<Foreign> m_foreign;
    std::atomic<bool> m_foreignPending{false};

    /// Steps -> one unit, as Time::ToInteger does it: a multiply (coarser
    /// resolution than the unit) or a truncating divide (finer).
    struct UnitConv
    {
        int64_t mul = 1;
        int64_t div = 1;
        void Set(Time::Unit unit);
        int64_t Convert(int64_t steps) const
        {
            return div == 1 ? steps * mul : steps / div;
        }
    };
    UnitConv m_ns;
    UnitConv m_ps;

    /// 4-ary min-heap in m_heap[0, m_size): children of i are 4i+1..4i+4.
    /// The vector only grows (its size is the capacity), so an insert is a
    /// compare and a store, not emplace_back's construct-then-overwrite.
    std::vector<Entry> m_heap;
    size_t m_size;
    std::list<EventId> m_destroyEvents; ///< Run FIFO by Destroy(); each holds the queue's ref
    uint64_t m_currentTs;
    uint64_t m_eventCount;
    uint32_t m_currentUid;
    uint32_t m_currentContext;
    uint32_t m_uid; ///< Next uid; bumped by every Schedule* (Destroy too), as in Default
    bool m_stop;
};

} // namespace ns3

#endif /* FAST_SIMULATOR_IMPL_H */
