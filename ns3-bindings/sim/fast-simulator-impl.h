// SPDX-License-Identifier: GPL-2.0-only
//
// FastSimulatorImpl: a drop-in ns-3 SimulatorImpl with the exact event
// order of ns-3.37's DefaultSimulatorImpl (events by (timestamp, uid), the
// same uid counter), so a simulation gives byte-identical results under
// either, at a fraction of the per-event cost: a 4-ary heap of 32-byte POD
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
// Two event orders (attribute EventOrder, docs/distributed.md):
// - "Uid" (the default): (timestamp, uid), DefaultSimulatorImpl's.
// - "Node": (timestamp, scheduling node, that node's schedule count). The
//   key of an event depends only on the history of the node that scheduled
//   it, never on which other nodes share its process, so a simulation split
//   over ranks (SetRankLink) runs every node's events in the same order as
//   one process does: per-rank outputs merge into the single-process files.
//
// Select it before anything touches the Simulator, either with
// FastSimulatorImpl::Install() or, the ns-3 way,
//   GlobalValue::Bind("SimulatorImplementationType",
//                     StringValue("ns3::FastSimulatorImpl"));
// or, when no simulator exists (after Simulator::Destroy()),
//   Simulator::SetImplementation(CreateObject<FastSimulatorImpl>());
#ifndef FAST_SIMULATOR_IMPL_H
#define FAST_SIMULATOR_IMPL_H

#include "event-wheel.h"

#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"

#include <atomic>
#include <cstdint>
#include <list>
#include <mutex>
#include <thread>
#include <vector>

namespace ns3
{

/**
 * What FastSimulatorImpl needs of the ranks of a distributed run: one
 * collective exchange per time window. Implemented over MPI by
 * libns3-libcc-mpi (FastMpiRankLink); the core itself links no MPI.
 */
class FastRankLink
{
  public:
    virtual ~FastRankLink() = default;
    virtual uint32_t GetRank() const = 0;
    virtual uint32_t GetSize() const = 0;
    /// What one rank tells every other at the end of a window.
    struct Summary
    {
        uint64_t nextTs;  ///< earliest time step it holds or sent (UINT64_MAX: none)
        uint64_t stopped; ///< 1 if Stop() ran there
    };
    /**
     * Collective: out[r] goes to rank r (out[own rank] is empty), in gets
     * what every rank sent to this one, concatenated in rank order; all
     * gets every rank's summary, indexed by rank.
     */
    virtual void Exchange(const std::vector<std::vector<uint8_t>>& out, const Summary& mine,
                          std::vector<uint8_t>& in, std::vector<Summary>& all) = 0;
};

/// Receives what a peer rank sent to one port (a cut link's direction).
class FastRemotePort
{
  public:
    virtual ~FastRemotePort() = default;
    /// A message for time step ts whose event key is key (see SendRemote).
    virtual void Deliver(uint64_t ts, uint64_t key, const uint8_t* data, uint32_t len) = 0;
};

class FastSimulatorImpl final : public SimulatorImpl
{
  public:
    /// (ns-3.37's EnumValue holds an int: an unscoped enum.)
    enum Order
    {
        ORDER_UID,  ///< (ts, uid): DefaultSimulatorImpl's order
        ORDER_NODE, ///< (ts, scheduling node, its count): the same whatever the partition
    };
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

    /// Node order's key: the scheduling node (NODE_KEY_GLOBAL for
    /// events for no node) above its count.
    static constexpr unsigned NODE_KEY_SHIFT = 40;
    static constexpr uint32_t NODE_KEY_GLOBAL = (1u << (64 - NODE_KEY_SHIFT)) - 1;

    /// The event order; set before the first event is scheduled.
    void SetOrder(Order order);
    Order GetOrder() const
    {
        return m_nodeOrder ? ORDER_NODE : ORDER_UID;
    }
    bool IsNodeOrder() const
    {
        return m_nodeOrder;
    }

    /**
     * Run over ranks: this process simulates the nodes whose system id is
     * link->GetRank(); windows of lookahead steps (the smallest delay of a
     * link between ranks, > 0) are processed between exchanges. Sets the
     * Node order. Call before Run; the link must outlive Run.
     */
    void SetRankLink(FastRankLink* link, int64_t lookaheadSteps);
    FastRankLink* GetRankLink() const
    {
        return m_link;
    }
    /// Windows processed by the distributed Run (0 in one process).
    uint64_t GetWindowCount() const
    {
        return m_windows;
    }
    /// Wall seconds the distributed Run spent running events and in the
    /// rank link's exchanges (waiting for the slowest rank included): the
    /// inputs of the scaling model in docs/performance.md.
    double GetComputeSeconds() const
    {
        return m_computeSeconds;
    }
    double GetExchangeSeconds() const
    {
        return m_exchangeSeconds;
    }
    /// A peer's messages to port id go to port (ids agree over ranks).
    void RegisterRemotePort(uint32_t id, FastRemotePort* port);
    /**
     * Queue a message for rank's port, delivered there before the window
     * holding ts runs, with the key an event the running one scheduled for
     * context would get here (TakeKey): the receiver inserts its arrival
     * under that key (InsertKeyed), as one process would have.
     */
    void SendRemote(uint32_t rank, uint32_t port, uint64_t ts, uint32_t context,
                    const uint8_t* data, uint32_t len);
    /// Insert an event under a key a peer took (FastRemotePort::Deliver).
    void InsertKeyed(uint64_t ts, uint64_t key, uint32_t context, EventImpl* event);
    /// Messages sent to and received from peer ranks.
    uint64_t GetRemoteSent() const
    {
        return m_remoteSent;
    }
    uint64_t GetRemoteReceived() const
    {
        return m_remoteReceived;
    }
    /**
     * After a distributed Run: the (timestamp, key) of the event whose
     * Stop() was this rank's vote to end (UINT64_MAX both: it never voted).
     * The largest over the ranks, if a node's event, is where one process
     * would have stopped; what the ranks ran after it (at most a window)
     * one process would not have run (MergeRankFiles drops its records).
     */
    void GetVote(uint64_t& ts, uint64_t& key) const
    {
        ts = m_voteTs;
        key = m_voteKey;
    }
    /// The running event's (timestamp, key): merging per-rank outputs in
    /// this order gives one process's order (Node order).
    uint64_t CurrentKey() const
    {
        return m_currentKey;
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

    /// ScheduleWithContextSteps for a FastEvent: run by Fire(), always in
    /// line (the per-frame schedule of channels and devices).
    [[gnu::always_inline]] void ScheduleFastSteps(uint32_t context, int64_t delaySteps,
                                                  FastEvent* event)
    {
        if (__builtin_expect(delaySteps < 0, 0))
        {
            NegativeDelaySteps(delaySteps);
        }
        Insert(m_currentTs + static_cast<uint64_t>(delaySteps), context, TagFast(event));
    }

  private:
    uint64_t TakeKey(uint32_t context)
    {
        // Set-up code (outside Run) that schedules for a node counts in that
        // node's sequence: whichever rank holds the node makes the same
        // calls. An event for no node counts in the global sequence, even
        // when a node schedules it (a global watcher armed by what one rank
        // sees must not move that node's count).
        uint32_t who = context == Simulator::NO_CONTEXT             ? context
                       : m_currentContext != Simulator::NO_CONTEXT ? m_currentContext
                       : s_running != this                         ? context
                                                                   : Simulator::NO_CONTEXT;
        uint64_t* seq = __builtin_expect(who < m_nodeSeq.size(), 1) ? &m_nodeSeq[who] : SeqOf(who);
        uint64_t slot = who < NODE_KEY_GLOBAL ? who : NODE_KEY_GLOBAL;
        return (slot << NODE_KEY_SHIFT) | (*seq)++;
    }
    /// The counter of who (grown to hold it), or the global one for NO_CONTEXT.
    [[gnu::cold, gnu::noinline]] uint64_t* SeqOf(uint32_t who);
    template <typename E, bool Distributed> void RunLoop(EventWheel<E>& queue, uint64_t limitTs);
    void Deliver(const std::vector<uint8_t>& in);
    void RunDistributed();

    void DoDispose() override;

    /// In line so that sim-fast.h's schedule has no call, in either order:
    /// an out-of-line Node-order insert cost a distributed run 32
    /// instructions per packet-hop in its call and the saving of the
    /// registers the wheel's push needs (k=8 fat tree, 1,281 -> 1,249); the
    /// Uid order pays 2-3 per hop for the larger callers.
    [[gnu::always_inline]] void Insert(uint64_t ts, uint32_t context, EventImpl* event)
    {
        if (__builtin_expect(m_nodeOrder, 0))
        {
            m_nodeQueue.Push(NodeEntry{ts, TakeKey(context), event, m_uid++, context});
            return;
        }
        m_uidQueue.Push(UidEntry{ts, (uint64_t(m_uid++) << 32) | context, event});
    }
    /// Events queued, in whichever queue the order uses.
    size_t QueueSize() const
    {
        return m_nodeOrder ? m_nodeQueue.Size() : m_uidQueue.Size();
    }
    [[noreturn, gnu::cold, gnu::noinline]] static void NegativeDelaySteps(int64_t delaySteps);

    static FastSimulatorImpl* s_running; ///< See Running()
    /// log2 of the event wheel's bucket width in time steps (about 1 ns).
    static unsigned WheelShift();

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

    /// The queue: m_uidQueue in the Uid order, m_nodeQueue in the Node order.
    EventWheel<UidEntry> m_uidQueue;
    EventWheel<NodeEntry> m_nodeQueue;
    std::list<EventId> m_destroyEvents; ///< Run FIFO by Destroy(); each holds the queue's ref
    uint64_t m_currentTs;
    uint64_t m_eventCount;
    uint32_t m_currentUid;
    uint32_t m_currentContext;
    uint32_t m_uid; ///< Next uid; bumped by every Schedule* (Destroy too), as in Default
    bool m_stop;
    bool m_nodeOrder = false;
    uint64_t m_currentKey = 0;
    /// Node order: schedules made so far per node (index NODE_KEY_GLOBAL: no node).
    std::vector<uint64_t> m_nodeSeq;
    uint64_t m_globalSeq = 0;
    /// Node order: uids of the events run at the current timestamp, for
    /// IsExpired (a key does not say whether an event ran before another).
    std::vector<uint32_t> m_ranNow;
    FastRankLink* m_link = nullptr;
    int64_t m_lookahead = 0;
    uint64_t m_windows = 0;
    double m_computeSeconds = 0;
    uint64_t m_voteTs = UINT64_MAX;
    uint64_t m_voteKey = UINT64_MAX;
    double m_exchangeSeconds = 0;
    uint64_t m_remoteSent = 0;
    uint64_t m_remoteReceived = 0;
    std::vector<std::vector<uint8_t>> m_outbox; ///< per rank
    uint64_t m_outboxMinTs = UINT64_MAX;
    std::vector<FastRemotePort*> m_ports;       ///< by port id
};

} // namespace ns3

#endif /* FAST_SIMULATOR_IMPL_H */
