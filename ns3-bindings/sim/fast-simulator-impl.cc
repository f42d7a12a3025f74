// SPDX-License-Identifier: GPL-2.0-only
#include "fast-simulator-impl.h"

#include "sim-fast.h"

#include "ns3/enum.h"
#include "ns3/fatal-error.h"
#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <algorithm>
#include <chrono>
#include <type_traits>
#include <cstring>

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
                            .AddConstructor<FastSimulatorImpl>()
                            .AddAttribute("EventOrder",
                                          "Order of events at one timestamp: Uid (as "
                                          "DefaultSimulatorImpl) or Node (the same however the "
                                          "nodes are split over ranks; docs/distributed.md).",
                                          EnumValue(ORDER_UID),
                                          MakeEnumAccessor(&FastSimulatorImpl::SetOrder,
                                                           &FastSimulatorImpl::GetOrder),
                                          MakeEnumChecker(ORDER_UID, "Uid", ORDER_NODE, "Node"));
    return tid;
}

void
FastSimulatorImpl::Install()
{
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::FastSimulatorImpl"));
}

FastSimulatorImpl::FastSimulatorImpl()
    : m_uidQueue(1024, WheelShift())
    , m_nodeQueue(0, WheelShift())
    , m_currentTs(0)
    , m_eventCount(0)
    , m_currentUid(EventId::UID::INVALID)
    , m_currentContext(Simulator::NO_CONTEXT)
    , m_uid(EventId::UID::VALID)
    , m_stop(false)
{
    NS_LOG_FUNCTION(this);
    // A dumbbell keeps a few hundred events pending: no regrowth in the run
    // (the Node order's heap gets its room when SetOrder picks it).
    m_main = std::this_thread::get_id();
}

FastSimulatorImpl::~FastSimulatorImpl() = default;

unsigned
FastSimulatorImpl::WheelShift()
{
    // Buckets of about a nanosecond (1.024 ns at ps resolution): the
    // fabric's events are rarely closer (docs/simulator-impl.md, The queue).
    uint64_t perNs = static_cast<uint64_t>(NanoSeconds(1).GetTimeStep());
    unsigned shift = 0;
    while ((uint64_t(1) << shift) < perNs && shift < 63)
    {
        shift++;
    }
    return shift;
}

void
FastSimulatorImpl::DoDispose()
{
    if (s_running == this)
    {
        s_running = nullptr;
    }
    // Events never run still hold the queue's reference.
    m_uidQueue.ReleaseAll();
    m_nodeQueue.ReleaseAll();
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
    return m_link ? m_link->GetRank() : 0;
}

bool
FastSimulatorImpl::IsFinished() const
{
    return QueueSize() == 0 || m_stop;
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

template <typename E, bool Distributed>
void
FastSimulatorImpl::RunLoop(EventWheel<E>& queue, uint64_t limitTs)
{
    constexpr bool NodeOrder = std::is_same<E, NodeEntry>::value;
    while (queue.Size() != 0 && !m_stop)
    {
        if (Distributed && queue.Top().ts >= limitTs)
        {
            return;
        }
        E next = queue.PopMin();
        // Cancelled events are popped, counted and become "current" exactly
        // as in Default: IsExpired and GetEventCount depend on it.
        m_eventCount++;
        if (NodeOrder)
        {
            if (next.ts != m_currentTs)
            {
                m_ranNow.clear();
            }
            m_ranNow.push_back(next.Uid());
        }
        m_currentTs = next.ts;
        m_currentContext = next.Context();
        m_currentUid = next.Uid();
        if (NodeOrder)
        {
            m_currentKey = next.key;
        }
        if (IsTaggedFast(next.impl))
        {
            FastEvent* fast = static_cast<FastEvent*>(UntagImpl(next.impl));
            fast->Fire();
            fast->Unref();
        }
        else
        {
            next.impl->Invoke();
            next.impl->Unref();
        }
        if (__builtin_expect(m_foreignPending.load(std::memory_order_acquire), 0))
        {
            InsertForeign();
        }
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
    if (m_link)
    {
        RunDistributed();
    }
    else if (m_nodeOrder)
    {
        RunLoop<NodeEntry, false>(m_nodeQueue, UINT64_MAX);
    }
    else
    {
        RunLoop<UidEntry, false>(m_uidQueue, UINT64_MAX);
    }
}

// Conservative windows (ns-3's granted-time-window scheme): every rank
// learns every other's earliest pending time G; nothing sent at or after G
// arrives before G + lookahead, so each rank runs its events before that
// bound, then all exchange what their cut links carried. Messages are
// counted into the summary before they are delivered, so G covers them.
//
// Stop() inside a window ends this rank's window at once and is its vote
// to end the run; the rank goes on serving its nodes (its links still
// carry the others' traffic) until every rank voted, so a Stop at one time
// on every rank (Stop(delay)) ends the run exactly there, and a rank that
// is done early (its own flows finished) waits for the others.
void
FastSimulatorImpl::RunDistributed()
{
    uint32_t n = m_link->GetSize();
    m_outbox.resize(n);
    std::vector<uint8_t> in;
    std::vector<FastRankLink::Summary> all;
    bool voted = false;
    m_voteTs = UINT64_MAX;
    m_voteKey = UINT64_MAX;
    using Clock = std::chrono::steady_clock;
    auto secondsSince = [](Clock::time_point t) {
        return std::chrono::duration<double>(Clock::now() - t).count();
    };
    for (;;)
    {
        Clock::time_point t0 = Clock::now();
        if (m_stop && !voted)
        {
            // The event that voted: where one process would have stopped,
            // if this vote turns out to be the last (GetVote).
            m_voteTs = m_currentTs;
            m_voteKey = m_currentKey;
        }
        voted = voted || m_stop;
        m_stop = false;
        FastRankLink::Summary mine{m_nodeQueue.Size() != 0 ? m_nodeQueue.Top().ts : UINT64_MAX,
                                   voted ? 1u : 0u};
        mine.nextTs = std::min(mine.nextTs, m_outboxMinTs);
        m_link->Exchange(m_outbox, mine, in, all);
        for (std::vector<uint8_t>& o : m_outbox)
        {
            o.clear();
        }
        m_outboxMinTs = UINT64_MAX;
        Deliver(in);
        m_exchangeSeconds += secondsSince(t0);
        uint64_t g = UINT64_MAX;
        bool everyone = true;
        for (const FastRankLink::Summary& r : all)
        {
            g = std::min(g, r.nextTs);
            everyone = everyone && r.stopped != 0;
        }
        if (everyone || g == UINT64_MAX)
        {
            m_stop = everyone;
            return;
        }
        uint64_t limit = g + static_cast<uint64_t>(m_lookahead);
        if (limit < g)
        {
            limit = UINT64_MAX;
        }
        m_windows++;
        Clock::time_point t1 = Clock::now();
        RunLoop<NodeEntry, true>(m_nodeQueue, limit);
        m_computeSeconds += secondsSince(t1);
    }
}

namespace
{
// A message to a peer rank: port, length, time step, key, then its bytes.
struct RemoteHeader
{
    uint32_t port;
    uint32_t len;
    uint64_t ts;
    uint64_t key;
};
} // namespace

void
FastSimulatorImpl::Deliver(const std::vector<uint8_t>& in)
{
    size_t at = 0;
    while (at + sizeof(RemoteHeader) <= in.size())
    {
        RemoteHeader h;
        std::memcpy(&h, in.data() + at, sizeof h);
        at += sizeof h;
        if (h.port >= m_ports.size() || !m_ports[h.port] || at + h.len > in.size())
        {
            NS_FATAL_ERROR("FastSimulatorImpl: a peer rank sent " << h.len << " bytes to port "
                                                                   << h.port
                                                                   << ", which this rank does not have");
        }
        m_remoteReceived++;
        m_ports[h.port]->Deliver(h.ts, h.key, in.data() + at, h.len);
        at += h.len;
    }
}

void
FastSimulatorImpl::SetOrder(Order order)
{
    bool node = order == ORDER_NODE;
    if (node != m_nodeOrder && (QueueSize() != 0 || m_eventCount != 0))
    {
        NS_FATAL_ERROR("FastSimulatorImpl::SetOrder: the order is fixed once an event was "
                       "scheduled or run");
    }
    m_nodeOrder = node;
    if (node && m_nodeQueue.Size() == 0)
    {
        m_nodeQueue = EventWheel<NodeEntry>(1024, WheelShift());
    }
}

void
FastSimulatorImpl::SetRankLink(FastRankLink* link, int64_t lookaheadSteps)
{
    NS_LOG_FUNCTION(this << link << lookaheadSteps);
    if (link && link->GetSize() > 1 && lookaheadSteps <= 0)
    {
        NS_FATAL_ERROR("FastSimulatorImpl::SetRankLink: the lookahead must be > 0 (a link "
                       "between ranks has no delay)");
    }
    SetOrder(ORDER_NODE);
    m_link = link;
    m_lookahead = lookaheadSteps;
}

void
FastSimulatorImpl::RegisterRemotePort(uint32_t id, FastRemotePort* port)
{
    if (id >= m_ports.size())
    {
        m_ports.resize(id + 1, nullptr);
    }
    m_ports[id] = port;
}

void
FastSimulatorImpl::SendRemote(uint32_t rank, uint32_t port, uint64_t ts, uint32_t context,
                              const uint8_t* data, uint32_t len)
{
    if (rank >= m_outbox.size())
    {
        m_outbox.resize(rank + 1);
    }
    RemoteHeader h{port, len, ts, TakeKey(context)};
    std::vector<uint8_t>& o = m_outbox[rank];
    size_t at = o.size();
    o.resize(at + sizeof h + len);
    std::memcpy(o.data() + at, &h, sizeof h);
    std::memcpy(o.data() + at + sizeof h, data, len);
    m_outboxMinTs = std::min(m_outboxMinTs, ts);
    m_remoteSent++;
}

void
FastSimulatorImpl::InsertKeyed(uint64_t ts, uint64_t key, uint32_t context, EventImpl* event)
{
    m_nodeQueue.Push(NodeEntry{ts, key, event, m_uid++, context});
}

uint64_t*
FastSimulatorImpl::SeqOf(uint32_t who)
{
    if (who == Simulator::NO_CONTEXT)
    {
        return &m_globalSeq;
    }
    if (who >= NODE_KEY_GLOBAL)
    {
        NS_FATAL_ERROR("FastSimulatorImpl: Node order keys hold node ids below "
                       << NODE_KEY_GLOBAL << "; context " << who << " is too large");
    }
    m_nodeSeq.resize(std::max<size_t>(who + 1, 2 * m_nodeSeq.size()), 0);
    return &m_nodeSeq[who];
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
    if (m_nodeOrder ? m_nodeQueue.Remove(id.GetUid(), impl) : m_uidQueue.Remove(id.GetUid(), impl))
    {
        impl->Cancel();
        impl->Unref();
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
    if (impl == nullptr || id.GetTs() < m_currentTs || impl->IsCancelled())
    {
        return true;
    }
    if (id.GetTs() > m_currentTs)
    {
        return false;
    }
    if (m_nodeOrder)
    {
        return std::find(m_ranNow.begin(), m_ranNow.end(), id.GetUid()) != m_ranNow.end();
    }
    return id.GetUid() <= m_currentUid;
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
FastSimulatorImpl::NegativeDelaySteps(int64_t delaySteps)
{
    NegativeDelay("ScheduleWithContext", TimeStep(delaySteps));
}

namespace simslow
{

int64_t
NowStep()
{
    return Simulator::Now().GetTimeStep();
}

int64_t
NowNs()
{
    return Simulator::Now().GetNanoSeconds();
}

int64_t
NowPs()
{
    return Simulator::Now().GetPicoSeconds();
}

uint32_t
Context()
{
    return Simulator::GetContext();
}

void
ScheduleWithContext(uint32_t context, int64_t delaySteps, EventImpl* event)
{
    Simulator::ScheduleWithContext(context, TimeStep(delaySteps), event);
}

} // namespace simslow

} // namespace ns3
