// SPDX-License-Identifier: GPL-2.0-only
#include "fast-simulator-impl.h"

#include "ns3/fatal-error.h"
#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

// NS_LOG only outside the per-event path (construction, Run, Stop, Destroy):
// built with NS3_LOG_ENABLE, even a disabled NS_LOG costs a
// LogComponent::IsEnabled call.

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FastSimulatorImpl");

NS_OBJECT_ENSURE_REGISTERED(FastSimulatorImpl);

FastSimulatorImpl* FastSimulatorImpl::s_running = nullptr;

namespace
{

[[noreturn, gnu::cold, gnu::noinline]] void
NegativeDelay(const char* where, const Time& delay)
{
    NS_FATAL_ERROR("FastSimulatorImpl::" << where << ": negative delay " << delay);
}

} // namespace

TypeId
FastSimulatorImpl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FastSimulatorImpl")
                            .SetParent<SimulatorImpl>()
                            .SetGroupName("Libcc")
                            .AddConstructor<FastSimulatorImpl>();
    return tid;
}

void
FastSimulatorImpl::Install()
{
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::FastSimulatorImpl"));
}

FastSimulatorImpl::FastSimulatorImpl()
    : m_size(0)
    , m_currentTs(0)
    , m_eventCount(0)
    , m_currentUid(EventId::UID::INVALID)
    , m_currentContext(Simulator::NO_CONTEXT)
    , m_uid(EventId::UID::VALID)
    , m_stop(false)
{
    NS_LOG_FUNCTION(this);
    // A dumbbell keeps a few hundred events pending: no regrowth in the run.
    m_heap.resize(1024);
    m_main = std::this_thread::get_id();
}

FastSimulatorImpl::~FastSimulatorImpl() = default;

void
FastSimulatorImpl::DoDispose()
{
    if (s_running == this)
    {
        s_running = nullptr;
    }
    // Events never run still hold the queue's reference.
    for (size_t i = 0; i < m_size; ++i)
    {
        m_heap[i].impl->Unref();
    }
    m_size = 0;
    std::vector<Entry>().swap(m_heap);
    std::lock_guard<std::mutex> lock(m_foreignMutex);
    for (const Foreign& f : m_foreign)
    {
        f.event->Unref();
    }
    m_foreign.clear();
    SimulatorImpl::DoDispose();
}

void
FastSimulatorImpl::Destroy()
{
    NS_LOG_FUNCTION(this);
    // Simulator::Destroy() from inside an event: the rest of that event must
    // not reach this instance through the fast path once it is released.
    if (s_running == this)
    {
        s_running = nullptr;
    }
    // A destroy event may schedule another one: it runs too, as in Default.
    while (!m_destroyEvents.empty())
    {
        Ptr<EventImpl> ev = m_destroyEvents.front().PeekEventImpl();
        m_destroyEvents.pop_front();
        if (!ev->IsCancelled())
        {
            ev->Invoke();
        }
    }
}

void
FastSimulatorImpl::SetScheduler(ObjectFactory schedulerFactory)
{
    // The Simulator always calls this with the SchedulerType global value.
    // The order is (ts, uid) under every ns-3 scheduler, and so it is in our
    // own heap: nothing to migrate, nothing to create.
    (void)schedulerFactory;
}

uint32_t
FastSimulatorImpl::GetSystemId() const
{
    return 0;
}

bool
FastSimulatorImpl::IsFinished() const
{
    return m_size == 0 || m_stop;
}

// Inlined into Run(): a call returns the 24-byte Entry through memory.
[[gnu::always_inline]] inline FastSimulatorImpl::Entry
FastSimulatorImpl::PopMin()
{
    Entry* h = m_heap.data();
    Entry top = h[0];
    size_t n = --m_size;
    Entry last = h[n];
    if (n == 0)
    {
        return top;
    }
    // Floyd's pop: walk the hole from the root to a leaf along the smallest
    // children without comparing them to last (which nearly always belongs
    // near the bottom anyway), then let last rise from there.
    size_t hole = 0;
    for (;;)
    {
        size_t c = 4 * hole + 1;
        size_t best;
        if (c + 3 < n)
        {
            // Tournament of the 4 children in index arithmetic: no branch
            // to mispredict. Written with ?: gcc branches, and the pop costs
            // ~30% more wall time (docs/simulator-impl.md).
            size_t a = c + Before(h[c + 1], h[c]);
            size_t b = c + 2 + Before(h[c + 3], h[c + 2]);
            size_t m = Before(h[b], h[a]);
            // Hide that m is 0 or 1: inlined into Run(), gcc turns the
            // multiply back into a branch.
            asm("" : "+r"(m));
            best = a + m * (b - a);
        }
        else if (c < n)
        {
            best = c;
            for (size_t k = c + 1; k < n; ++k)
            {
                if (Before(h[k], h[best]))
                {
                    best = k;
                }
            }
        }
        else
        {
            break;
        }
        h[hole] = h[best];
        hole = best;
    }
    SiftUp(hole, last);
    return top;
}

void
FastSimulatorImpl::UnitConv::Set(Time::Unit unit)
{
    // One unit in steps (>= 1 when the resolution is as fine or finer),
    // else one step in units.
    int64_t stepsPerUnit = Time::FromInteger(1, unit).GetTimeStep();
    if (stepsPerUnit >= 1)
    {
        mul = 1;
        div = stepsPerUnit;
    }
    else
    {
        mul = TimeStep(1).ToInteger(unit);
        div = 1;
    }
}

void
FastSimulatorImpl::Run()
{
    NS_LOG_FUNCTION(this);
    // Restored, not cleared, on the way out: a Run() nested in an event of
    // an outer one returns to the outer's fast path. A destructor, so an
    // exception leaving an event does not leave a stale pointer behind.
    struct RunningGuard
    {
        FastSimulatorImpl* outer;
        ~RunningGuard()
        {
            s_running = outer;
        }
    } guard{s_running};
    m_ns.Set(Time::NS);
    m_ps.Set(Time::PS);
    s_running = this;
    m_stop = false;
    if (m_foreignPending.load(std::memory_order_acquire))
    {
        InsertForeign();
    }
    while (m_size != 0 && !m_stop)
    {
        Entry next = PopMin();
        // Cancelled events are popped, counted and become "current" exactly
        // as in Default: IsExpired and GetEventCount depend on it.
        m_eventCount++;
        m_currentTs = next.ts;
        m_currentContext = next.Context();
        m_currentUid = next.Uid();
        next.impl->Invoke();
        next.impl->Unref();
        if (__builtin_expect(m_foreignPending.load(std::memory_order_acquire), 0))
        {
            InsertForeign();
        }
    }
}

void
FastSimulatorImpl::Stop()
{
    m_stop = true;
}

void
FastSimulatorImpl::Stop(const Time& delay)
{
    NS_LOG_FUNCTION(this << delay);
    // Through the Simulator like Default, so the stop event takes a uid.
    Simulator::Schedule(delay, static_cast<void (*)()>(&Simulator::Stop));
}

EventId
FastSimulatorImpl::Schedule(const Time& delay, EventImpl* event)
{
    if (delay.IsStrictlyNegative())
    {
        NegativeDelay("Schedule", delay);
    }
    uint64_t ts = m_currentTs + static_cast<uint64_t>(delay.GetTimeStep());
    uint32_t uid = m_uid;
    Insert(ts, m_currentContext, event);
    return EventId(event, ts, m_currentContext, uid);
}

void
FastSimulatorImpl::ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event)
{
    if (delay.IsStrictlyNegative())
    {
        NegativeDelay("ScheduleWithContext", delay);
    }
    if (__builtin_expect(std::this_thread::get_id() != m_main, 0))
    {
        // As Default: the event's time and uid are taken when Run() inserts
        // it, relative to the simulation time then.
        std::lock_guard<std::mutex> lock(m_foreignMutex);
        m_foreign.push_back(Foreign{context, delay.GetTimeStep(), event});
        m_foreignPending.store(true, std::memory_order_release);
        return;
    }
    Insert(m_currentTs + static_cast<uint64_t>(delay.GetTimeStep()), context, event);
}

void
FastSimulatorImpl::InsertForeign()
{
    std::vector<Foreign> batch;
    {
        std::lock_guard<std::mutex> lock(m_foreignMutex);
        batch.swap(m_foreign);
        m_foreignPending.store(false, std::memory_order_relaxed);
    }
    for (const Foreign& f : batch)
    {
        Insert(m_currentTs + static_cast<uint64_t>(f.delaySteps), f.context, f.event);
    }
}

EventId
FastSimulatorImpl::ScheduleNow(EventImpl* event)
{
    uint32_t uid = m_uid;
    Insert(m_currentTs, m_currentContext, event);
    return EventId(event, m_currentTs, m_currentContext, uid);
}

EventId
FastSimulatorImpl::ScheduleDestroy(EventImpl* event)
{
    // The list entry takes over the caller's reference (no extra Ref), and
    // the uid counter moves although the id carries UID::DESTROY: Default
    // does both, and later uids must match its.
    EventId id(Ptr<EventImpl>(event, false), m_currentTs, 0xffffffff, EventId::UID::DESTROY);
    m_destroyEvents.push_back(id);
    m_uid++;
    return id;
}

Time
FastSimulatorImpl::Now() const
{
    return TimeStep(m_currentTs);
}

Time
FastSimulatorImpl::GetDelayLeft(const EventId& id) const
{
    if (IsExpired(id))
    {
        return TimeStep(0);
    }
    return TimeStep(id.GetTs() - m_currentTs);
}

void
FastSimulatorImpl::Remove(const EventId& id)
{
    if (id.GetUid() == EventId::UID::DESTROY)
    {
        for (auto i = m_destroyEvents.begin(); i != m_destroyEvents.end(); ++i)
        {
            if (*i == id)
            {
                m_destroyEvents.erase(i);
                break;
            }
        }
        return;
    }
    if (IsExpired(id))
    {
        return;
    }
    // Linear: Remove is rare (most code Cancels). uid alone is unique within
    // one simulator; impl also guards against an id from an earlier one.
    EventImpl* impl = id.PeekEventImpl();
    for (size_t i = 0; i < m_size; ++i)
    {
        if (m_heap[i].Uid() == id.GetUid() && m_heap[i].impl == impl)
        {
            Entry last = m_heap[--m_size];
            if (i < m_size)
            {
                if (i > 0 && Before(last, m_heap[(i - 1) / 4]))
                {
                    SiftUp(i, last);
                }
                else
                {
                    SiftDown(i, last);
                }
            }
            impl->Cancel();
            impl->Unref();
            return;
        }
    }
}

void
FastSimulatorImpl::Cancel(const EventId& id)
{
    if (!IsExpired(id))
    {
        id.PeekEventImpl()->Cancel();
    }
}

bool
FastSimulatorImpl::IsExpired(const EventId& id) const
{
    EventImpl* impl = id.PeekEventImpl();
    if (id.GetUid() == EventId::UID::DESTROY)
    {
        if (impl == nullptr || impl->IsCancelled())
        {
            return true;
        }
        for (const EventId& d : m_destroyEvents)
        {
            if (d == id)
            {
                return false;
            }
        }
        return true;
    }
    return impl == nullptr || id.GetTs() < m_currentTs ||
           (id.GetTs() == m_currentTs && id.GetUid() <= m_currentUid) || impl->IsCancelled();
}

Time
FastSimulatorImpl::GetMaximumSimulationTime() const
{
    return TimeStep(0x7fffffffffffffffLL);
}

uint32_t
FastSimulatorImpl::GetContext() const
{
    return m_currentContext;
}

uint64_t
FastSimulatorImpl::GetEventCount() const
{
    return m_eventCount;
}

void
FastSimulatorImpl::Grow()
{
    m_heap.resize(2 * m_heap.size() + 1024);
}

void
FastSimulatorImpl::NegativeDelaySteps(int64_t delaySteps)
{
    NegativeDelay("ScheduleWithContext", TimeStep(delaySteps));
}

void
FastSimulatorImpl::SiftDown(size_t i, Entry e)
{
    Entry* h = m_heap.data();
    size_t n = m_size;
    for (;;)
    {
        size_t first = 4 * i + 1;
        if (first >= n)
        {
            break;
        }
        size_t end = first + 4 < n ? first + 4 : n;
        size_t best = first;
        for (size_t c = first + 1; c < end; ++c)
        {
            if (Before(h[c], h[best]))
            {
                best = c;
            }
        }
        if (!Before(h[best], e))
        {
            break;
        }
        h[i] = h[best];
        i = best;
    }
    h[i] = e;
}

} // namespace ns3
