// SPDX-License-Identifier: GPL-2.0-only
//
// FastSimulatorImpl: ns-3.37 DefaultSimulatorImpl semantics event by event
// (order by (timestamp, uid), contexts, Cancel/Remove/Stop/Destroy, uid and
// event counting), and the property the simulations rely on: a workload
// full of same-time ties runs in exactly the order Default runs it.
//
// Every test installs the impl itself and destroys it at the end, so suites
// that run before or after (shuffled or not) get ns-3's default impl.
#include "event-pool.h"
#include "fifo-ring.h"
#include "libcc-agent.h"
#include "fast-simulator-impl.h"
#include "sim-fast.h"

#include "ns3/default-simulator-impl.h"
#include "ns3/global-value.h"
#include "ns3/make-event.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

// The fixture carries the suite name, so ns3::FastSimulatorImpl is spelled
// out instead of `using namespace ns3`.
using ns3::CreateObject;
using ns3::EventId;
using ns3::NanoSeconds;
using ns3::Ptr;
using ns3::Simulator;
using ns3::SimulatorImpl;
using ns3::Time;
using ns3::TimeStep;

class FastSimulatorImpl : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        // Whatever an earlier test left (a default impl created lazily)
        // must go: SetImplementation is fatal while a simulator exists.
        Simulator::Destroy();
        Simulator::SetImplementation(CreateObject<ns3::FastSimulatorImpl>());
    }

    void TearDown() override
    {
        Simulator::Destroy();
    }

    struct Rec
    {
        Time t;
        int tag;
        uint32_t ctx;

        bool operator==(const Rec& o) const
        {
            return t == o.t && tag == o.tag && ctx == o.ctx;
        }
    };

    std::vector<Rec> m_log;

    /// Schedule an event that logs (Now, tag, context) when it runs.
    EventId At(int64_t ns, int tag)
    {
        return Simulator::Schedule(NanoSeconds(ns), [this, tag] { Log(tag); });
    }

    void Log(int tag)
    {
        m_log.push_back({Simulator::Now(), tag, Simulator::GetContext()});
    }

    std::vector<int> Tags() const
    {
        std::vector<int> v;
        for (const Rec& r : m_log)
        {
            v.push_back(r.tag);
        }
        return v;
    }
};

TEST_F(FastSimulatorImpl, IsTheInstalledImplementation)
{
    EXPECT_EQ(Simulator::GetImplementation()->GetInstanceTypeId().GetName(),
              "ns3::FastSimulatorImpl");
    EXPECT_EQ(Simulator::GetSystemId(), 0u);
    // Default's bound: the largest int64 time step.
    EXPECT_EQ(Simulator::GetMaximumSimulationTime(), TimeStep(0x7fffffffffffffffLL));
}

TEST_F(FastSimulatorImpl, DifferentTimesRunInTimeOrderAtTheirTime)
{
    At(30, 3);
    At(10, 1);
    At(20, 2);
    Simulator::Run();
    // Scheduled 30, 10, 20 ns: they run by time, each seeing Now() == its time.
    ASSERT_EQ(m_log.size(), 3u);
    EXPECT_EQ(m_log[0].tag, 1);
    EXPECT_EQ(m_log[0].t, NanoSeconds(10));
    EXPECT_EQ(m_log[1].tag, 2);
    EXPECT_EQ(m_log[1].t, NanoSeconds(20));
    EXPECT_EQ(m_log[2].tag, 3);
    EXPECT_EQ(m_log[2].t, NanoSeconds(30));
    EXPECT_EQ(Simulator::Now(), NanoSeconds(30));
    EXPECT_EQ(Simulator::GetEventCount(), 3u);
    EXPECT_TRUE(Simulator::IsFinished());
}

TEST_F(FastSimulatorImpl, SameTimeEventsRunInSchedulingOrder)
{
    // Eight ties at 10 ns, then one earlier event scheduled last: the early
    // one first (time wins over uid), then the ties by uid = scheduling order.
    for (int i = 0; i < 8; ++i)
    {
        At(10, i);
    }
    At(5, 99);
    Simulator::Run();
    EXPECT_EQ(Tags(), (std::vector<int>{99, 0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST_F(FastSimulatorImpl, ZeroDelayFromInsideRunsAfterQueuedSameTimeEvents)
{
    // A, B, C at 10 ns take uids 4, 5, 6, F at 11 ns uid 7. A schedules D
    // (delay 0, uid 8) and E (ScheduleNow, uid 9): same time as B and C but
    // larger uids, so A B C D E, then F at 11 ns.
    Simulator::Schedule(NanoSeconds(10), [this] {
        Log(0);
        Simulator::Schedule(Time(0), [this] { Log(3); });
        Simulator::ScheduleNow([this] { Log(4); });
    });
    At(10, 1);
    At(10, 2);
    At(11, 5);
    Simulator::Run();
    EXPECT_EQ(Tags(), (std::vector<int>{0, 1, 2, 3, 4, 5}));
    ASSERT_EQ(m_log.size(), 6u);
    EXPECT_EQ(m_log[3].t, NanoSeconds(10));
    EXPECT_EQ(m_log[4].t, NanoSeconds(10));
    EXPECT_EQ(m_log[5].t, NanoSeconds(11));
}

TEST_F(FastSimulatorImpl, ContextIsThatOfTheRunningEvent)
{
    // No event has run yet.
    EXPECT_EQ(Simulator::GetContext(), static_cast<uint32_t>(Simulator::NO_CONTEXT));
    Simulator::ScheduleWithContext(7, NanoSeconds(10), [this] {
        Log(1);
        // Schedule inherits the running context (7); ScheduleWithContext sets its own.
        Simulator::Schedule(NanoSeconds(5), [this] { Log(3); });
        Simulator::ScheduleWithContext(3, Time(0), [this] { Log(2); });
    });
    // Scheduled outside any event: context NO_CONTEXT.
    At(20, 4);
    Simulator::Run();
    ASSERT_EQ(m_log.size(), 4u);
    EXPECT_EQ(m_log[0].tag, 1);
    EXPECT_EQ(m_log[0].ctx, 7u);
    EXPECT_EQ(m_log[0].t, NanoSeconds(10));
    EXPECT_EQ(m_log[1].tag, 2); // 10 ns + 0
    EXPECT_EQ(m_log[1].ctx, 3u);
    EXPECT_EQ(m_log[1].t, NanoSeconds(10));
    EXPECT_EQ(m_log[2].tag, 3); // 10 ns + 5 ns
    EXPECT_EQ(m_log[2].ctx, 7u);
    EXPECT_EQ(m_log[2].t, NanoSeconds(15));
    EXPECT_EQ(m_log[3].tag, 4);
    EXPECT_EQ(m_log[3].ctx, static_cast<uint32_t>(Simulator::NO_CONTEXT));
    // As in Default, the context stays that of the last event run.
    EXPECT_EQ(Simulator::GetContext(), static_cast<uint32_t>(Simulator::NO_CONTEXT));
}

TEST_F(FastSimulatorImpl, CancelSkipsTheEventButItStillCounts)
{
    At(10, 1);
    EventId b = At(20, 2);
    EventId c = At(30, 3);
    Simulator::Cancel(b);
    EXPECT_TRUE(Simulator::IsExpired(b));
    EXPECT_FALSE(Simulator::IsExpired(c));
    // The 10 ns event cancels c from inside the run.
    Simulator::Schedule(NanoSeconds(10), [c] { Simulator::Cancel(c); });
    Simulator::Run();
    EXPECT_EQ(Tags(), (std::vector<int>{1}));
    EXPECT_TRUE(Simulator::IsExpired(c));
    // Cancelled events stay queued: popped at 20 and 30 ns, counted like
    // Default counts them (4 popped = 2 run + 2 cancelled), and the clock
    // reached the last one.
    EXPECT_EQ(Simulator::GetEventCount(), 4u);
    EXPECT_EQ(Simulator::Now(), NanoSeconds(30));
}

TEST_F(FastSimulatorImpl, RemoveTakesTheEventOutOfTheQueue)
{
    At(10, 1);
    EventId b = At(20, 2);
    EventId c = At(30, 3);
    Simulator::Remove(b);
    EXPECT_TRUE(Simulator::IsExpired(b));
    EXPECT_EQ(Simulator::GetDelayLeft(b), Time(0));
    Simulator::Schedule(NanoSeconds(10), [c] { Simulator::Remove(c); });
    Simulator::Run();
    EXPECT_EQ(Tags(), (std::vector<int>{1}));
    // Only the two 10 ns events were popped; the clock never reached 20 or 30.
    EXPECT_EQ(Simulator::GetEventCount(), 2u);
    EXPECT_EQ(Simulator::Now(), NanoSeconds(10));
}

TEST_F(FastSimulatorImpl, RemoveFromTheMiddleKeepsTheHeapOrdered)
{
    // 40 events scheduled latest-first (40, 39, ..., 1 ns) so the heap is
    // shuffled, then every even time removed: the odd ones 1, 3, ..., 39 run
    // in ascending order.
    std::vector<EventId> ids(41);
    for (int t = 40; t >= 1; --t)
    {
        ids[t] = At(t, t);
    }
    for (int t = 2; t <= 40; t += 2)
    {
        Simulator::Remove(ids[t]);
    }
    Simulator::Run();
    std::vector<int> want;
    for (int t = 1; t <= 39; t += 2)
    {
        want.push_back(t);
    }
    EXPECT_EQ(Tags(), want);
    EXPECT_EQ(Simulator::GetEventCount(), 20u);
}

TEST_F(FastSimulatorImpl, QueueGrowsPastItsInitialCapacity)
{
    // 5000 pending (the heap starts with room for 1024). i * 7919 mod 5000
    // is a permutation of 0..4999 (7919 is prime, coprime with 5000), so
    // the events run at 0, 1, ..., 4999 ns, each at its own time.
    for (int i = 0; i < 5000; ++i)
    {
        int t = static_cast<int>((int64_t(i) * 7919) % 5000);
        At(t, t);
    }
    Simulator::Run();
    ASSERT_EQ(m_log.size(), 5000u);
    for (int t = 0; t < 5000; ++t)
    {
        ASSERT_EQ(m_log[t].tag, t);
        ASSERT_EQ(m_log[t].t, NanoSeconds(t));
    }
}

// EventHeap alone (the wheel's far part): entries (ts, key).
namespace
{
ns3::UidEntry
HeapEntry(uint64_t ts, uint64_t key, ns3::EventImpl* impl = nullptr)
{
    return ns3::UidEntry{ts, key, impl};
}
} // namespace

TEST(EventHeap, PopsByTimeThenKeyAndGrows)
{
    // Capacity 2, seven entries: it grows. Two ties at 20 break by key.
    ns3::EventHeap<ns3::UidEntry> heap(2);
    for (auto [ts, key] : std::vector<std::pair<uint64_t, uint64_t>>{
             {50, 1}, {20, 9}, {40, 2}, {20, 3}, {10, 4}, {30, 5}, {60, 6}})
    {
        heap.Push(HeapEntry(ts, key));
    }
    std::vector<std::pair<uint64_t, uint64_t>> got;
    while (heap.Size() != 0)
    {
        ns3::UidEntry e = heap.PopMin();
        got.emplace_back(e.ts, e.key);
    }
    EXPECT_EQ(got, (std::vector<std::pair<uint64_t, uint64_t>>{
                       {10, 4}, {20, 3}, {20, 9}, {30, 5}, {40, 2}, {50, 1}, {60, 6}}));
}

TEST(FifoRing, InPlaceSlotsKeepFifoOrderAcrossGrowth)
{
    // 10 in, 5 out (the head is now at slot 5 of 16), then 20 filled in
    // place: the ring grows to 32 with its elements unwrapped. An abandoned
    // BackSlot adds nothing. Out come 5..29 in order.
    ns3::FifoRing<std::unique_ptr<int>> ring;
    for (int i = 0; i < 10; i++)
    {
        ring.Push(std::make_unique<int>(i));
    }
    for (int i = 0; i < 5; i++)
    {
        EXPECT_EQ(*ring.Pop(), i);
    }
    ring.BackSlot() = std::make_unique<int>(-1); // never committed
    for (int i = 10; i < 30; i++)
    {
        ring.BackSlot() = std::make_unique<int>(i);
        EXPECT_EQ(*ring.CommitBack(), i);
    }
    EXPECT_EQ(ring.Size(), 25u);
    for (int i = 5; i < 30; i++)
    {
        std::unique_ptr<int>& front = ring.FrontSlot();
        ASSERT_TRUE(front);
        EXPECT_EQ(*front, i);
        std::unique_ptr<int> taken = std::move(front);
        ring.DropFront();
    }
    EXPECT_TRUE(ring.Empty());
}

// EventWheel: 4096 buckets of 2^shift steps in front of an EventHeap. With
// shift 4 a bucket is 16 steps and the wheel spans 65,536 steps from the
// bucket of the last event taken.
namespace
{
using Wheel = ns3::EventWheel<ns3::UidEntry>;

std::vector<uint64_t>
DrainTimes(Wheel& wheel)
{
    std::vector<uint64_t> ts;
    while (wheel.Size() != 0)
    {
        ts.push_back(wheel.PopMin().ts);
    }
    return ts;
}
} // namespace

TEST(EventWheel, NearEventsInTheWheelFarOnesInTheHeapOneOrder)
{
    Wheel wheel(4, 4);
    // 65,535 is in the last bucket the wheel holds from bucket 0 (4095 *
    // 16 = 65,520 .. 65,535); 65,536 is one bucket beyond.
    for (uint64_t ts : {65536, 3, 65535, 100000, 17, 16})
    {
        wheel.Push(HeapEntry(ts, ts));
    }
    EXPECT_EQ(wheel.Size(), 6u);
    EXPECT_EQ(wheel.WheelSize(), 4u); // 3, 16, 17, 65,535
    EXPECT_EQ(DrainTimes(wheel), (std::vector<uint64_t>{3, 16, 17, 65535, 65536, 100000}));
}

TEST(EventWheel, ACrowdedBucketSpillsIntoTheHeapInOrder)
{
    // Eight entries of one bucket (ts 32..47), pushed latest first: each
    // new one is the least, so it goes in front without a walk. Then eight
    // more of that bucket pushed in increasing order: an entry whose place
    // is more than 4 links down goes to the heap. The order is exact.
    Wheel wheel(4, 4);
    for (uint64_t ts = 47; ts >= 40; --ts)
    {
        wheel.Push(HeapEntry(ts, ts));
    }
    EXPECT_EQ(wheel.WheelSize(), 8u);
    for (uint64_t ts = 32; ts < 40; ++ts)
    {
        wheel.Push(HeapEntry(ts, ts)); // 32 goes first; 33 after 1 link, ...
    }
    // 32..36 walk 0..4 links: wheel; 37, 38, 39 would walk 5, 6, 7: heap.
    EXPECT_EQ(wheel.WheelSize(), 13u);
    EXPECT_EQ(wheel.Size(), 16u);
    std::vector<uint64_t> want;
    for (uint64_t ts = 32; ts < 48; ++ts)
    {
        want.push_back(ts);
    }
    EXPECT_EQ(DrainTimes(wheel), want);
}

TEST(EventWheel, EntriesSortingLastJoinTheirBucketWithoutAWalk)
{
    // A fat tree's crowded nanosecond: many events at one time, each
    // scheduled with a larger key than any before. All 16 are appended at
    // the bucket's tail, none goes to the heap (a walk from the head would
    // send every one past the fifth there), and they come out in order.
    Wheel wheel(4, 4);
    for (uint64_t key = 1; key <= 16; key++)
    {
        wheel.Push(HeapEntry(40, key));
    }
    EXPECT_EQ(wheel.WheelSize(), 16u);
    std::vector<uint64_t> keys;
    while (wheel.Size() != 0)
    {
        keys.push_back(wheel.PopMin().key);
    }
    std::vector<uint64_t> want;
    for (uint64_t key = 1; key <= 16; key++)
    {
        want.push_back(key);
    }
    EXPECT_EQ(keys, want);
}

TEST(EventWheel, RemovingABucketsLastEntryMovesItsTail)
{
    // ts 10, 12, 14 share bucket 0 (16 steps). Without its last entry (14)
    // the bucket ends at 12: 13 goes after it, 11 between 10 and 12; without
    // its first (10) too, 9 goes in front. The order stays exact.
    Wheel wheel(4, 4);
    for (uint64_t uid : {1, 2, 3})
    {
        wheel.Push(HeapEntry(8 + 2 * uid, uid << 32));
    }
    EXPECT_TRUE(wheel.Remove(3, nullptr));
    wheel.Push(HeapEntry(13, uint64_t(4) << 32));
    wheel.Push(HeapEntry(11, uint64_t(5) << 32));
    EXPECT_TRUE(wheel.Remove(1, nullptr));
    wheel.Push(HeapEntry(9, uint64_t(6) << 32));
    EXPECT_EQ(wheel.WheelSize(), 4u);
    EXPECT_EQ(DrainTimes(wheel), (std::vector<uint64_t>{9, 11, 12, 13}));
    EXPECT_EQ(wheel.Size(), 0u);
    wheel.Push(HeapEntry(20, uint64_t(7) << 32)); // the emptied bucket is usable again
    EXPECT_EQ(DrainTimes(wheel), (std::vector<uint64_t>{20}));
}

TEST(EventWheel, TiesAtOneTimeBreakByKey)
{
    Wheel wheel(4, 4);
    for (uint64_t key : {3, 1, 2})
    {
        wheel.Push(HeapEntry(50, key));
    }
    std::vector<uint64_t> keys;
    while (wheel.Size() != 0)
    {
        keys.push_back(wheel.PopMin().key);
    }
    EXPECT_EQ(keys, (std::vector<uint64_t>{1, 2, 3}));
}

TEST(EventWheel, RunsAroundItsRingAsTimeAdvances)
{
    // Each entry taken schedules one 40,000 steps later (2,500 buckets):
    // after two the wheel's buckets have gone round its 4096 slots; the
    // times come out in order and every one stays in the wheel.
    Wheel wheel(4, 4);
    wheel.Push(HeapEntry(5, 1));
    wheel.Push(HeapEntry(7, 2));
    std::vector<uint64_t> ts;
    uint64_t key = 3;
    for (int i = 0; i < 10; i++)
    {
        ns3::UidEntry e = wheel.PopMin();
        ts.push_back(e.ts);
        wheel.Push(HeapEntry(e.ts + 40000, key++));
        EXPECT_EQ(wheel.WheelSize(), 2u);
    }
    EXPECT_EQ(ts, (std::vector<uint64_t>{5, 7, 40005, 40007, 80005, 80007, 120005, 120007,
                                         160005, 160007}));
}

TEST(EventWheel, ComesOutSortedWhateverTheMix)
{
    // A simulator's pattern: take the least, schedule 0-3 events at or
    // after it, up to 200,000 steps ahead (beyond the span, or crowding a
    // bucket, some go to the heap). Whatever holds them, the times taken
    // never decrease and every pushed entry comes out once.
    Wheel wheel(4, 4);
    uint64_t lcg = 12345;
    auto next = [&lcg](uint64_t mod) {
        lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
        return (lcg >> 33) % mod;
    };
    uint64_t key = 1;
    for (int i = 0; i < 50; i++)
    {
        wheel.Push(HeapEntry(next(1000), key++));
    }
    uint64_t pushed = 50, taken = 0, last = 0;
    bool sorted = true;
    while (wheel.Size() != 0 && taken < 20000)
    {
        ns3::UidEntry e = wheel.PopMin();
        taken++;
        sorted = sorted && e.ts >= last;
        last = e.ts;
        uint64_t n = pushed < 15000 ? next(4) : 0;
        for (uint64_t k = 0; k < n; k++)
        {
            uint64_t far = next(10) == 0 ? 200000 : 64;
            wheel.Push(HeapEntry(e.ts + next(far), key++));
            pushed++;
        }
    }
    EXPECT_TRUE(sorted);
    EXPECT_EQ(taken, pushed);
    EXPECT_EQ(wheel.Size(), 0u);
}

TEST(EventWheel, RemoveTakesAnEntryFromInsideABucketList)
{
    // ts 10, 12, 14 share bucket 0 (16 steps); uid 2 is the list's middle.
    Wheel wheel(4, 4);
    for (uint64_t uid : {1, 2, 3})
    {
        wheel.Push(HeapEntry(8 + 2 * uid, uid << 32));
    }
    EXPECT_TRUE(wheel.Remove(2, nullptr));
    EXPECT_FALSE(wheel.Remove(2, nullptr));
    EXPECT_EQ(wheel.WheelSize(), 2u);
    EXPECT_EQ(DrainTimes(wheel), (std::vector<uint64_t>{10, 14}));
}

TEST(EventWheel, RemoveAndReleaseReachBothParts)
{
    Ptr<ns3::EventImpl> nearEv(ns3::MakeEvent([] {}), false);
    Ptr<ns3::EventImpl> farEv(ns3::MakeEvent([] {}), false);
    Ptr<ns3::EventImpl> keptEv(ns3::MakeEvent([] {}), false);
    Wheel wheel(4, 4);
    nearEv->Ref();
    wheel.Push(HeapEntry(10, uint64_t(1) << 32, PeekPointer(nearEv)));
    farEv->Ref();
    wheel.Push(HeapEntry(1000000, uint64_t(2) << 32, PeekPointer(farEv)));
    keptEv->Ref();
    wheel.Push(HeapEntry(20, uint64_t(3) << 32, PeekPointer(keptEv)));
    EXPECT_EQ(wheel.WheelSize(), 2u);
    EXPECT_TRUE(wheel.Remove(1, PeekPointer(nearEv)));
    nearEv->Unref();
    EXPECT_TRUE(wheel.Remove(2, PeekPointer(farEv)));
    farEv->Unref();
    EXPECT_FALSE(wheel.Remove(1, PeekPointer(nearEv)));
    EXPECT_EQ(wheel.Size(), 1u);
    EXPECT_EQ(wheel.Top().ts, 20u);
    wheel.ReleaseAll();
    EXPECT_EQ(keptEv->GetReferenceCount(), 1u);
    EXPECT_EQ(wheel.Size(), 0u);
    wheel.Push(HeapEntry(30, 4)); // usable again after ReleaseAll
    EXPECT_EQ(DrainTimes(wheel), (std::vector<uint64_t>{30}));
}

TEST_F(FastSimulatorImpl, QueueReleasesEveryEvent)
{
    // Each event holds a copy of token; use_count() tells whether the queue
    // still owns the EventImpl. 1 = only ours.
    auto token = std::make_shared<int>(0);
    {
        EventId removed = Simulator::Schedule(NanoSeconds(5), [token] {});
        Simulator::Remove(removed);
    }
    EXPECT_EQ(token.use_count(), 1);
    Simulator::Schedule(NanoSeconds(10), [token] {});
    Simulator::ScheduleWithContext(2, NanoSeconds(20), [token] {});
    EXPECT_EQ(token.use_count(), 3); // 1 + the two queued events
    Simulator::Stop(NanoSeconds(15));
    Simulator::Run();
    EXPECT_EQ(token.use_count(), 2); // the 10 ns one ran and was released
    // The 20 ns event never runs: the simulator's disposal releases it.
    Simulator::Destroy();
    EXPECT_EQ(token.use_count(), 1);
}

TEST_F(FastSimulatorImpl, DelayLeftCountsDownToZero)
{
    EventId target = At(100, 1);
    EXPECT_EQ(Simulator::GetDelayLeft(target), NanoSeconds(100));
    Time seenAt40;
    Simulator::Schedule(NanoSeconds(40), [&] { seenAt40 = Simulator::GetDelayLeft(target); });
    Time ownDelayLeft = NanoSeconds(-1);
    EventId self;
    self = Simulator::Schedule(NanoSeconds(50), [&] {
        // The running event is expired (ts == now, uid == current uid).
        ownDelayLeft = Simulator::GetDelayLeft(self);
    });
    Simulator::Run();
    EXPECT_EQ(seenAt40, NanoSeconds(60)); // 100 - 40
    EXPECT_EQ(ownDelayLeft, Time(0));
    EXPECT_EQ(Simulator::GetDelayLeft(target), Time(0)); // ran
    EXPECT_TRUE(Simulator::IsExpired(target));
}

TEST_F(FastSimulatorImpl, StopWithDelayLeavesLaterEventsForTheNextRun)
{
    At(10, 1);
    At(20, 2);
    At(30, 3);
    At(40, 4);
    Simulator::Stop(NanoSeconds(25));
    Simulator::Run();
    EXPECT_EQ(Tags(), (std::vector<int>{1, 2}));
    EXPECT_EQ(Simulator::Now(), NanoSeconds(25));
    EXPECT_TRUE(Simulator::IsFinished());      // stopped
    EXPECT_EQ(Simulator::GetEventCount(), 3u); // 10, 20 and the stop event
    // Run resumes where it stopped.
    Simulator::Run();
    EXPECT_EQ(Tags(), (std::vector<int>{1, 2, 3, 4}));
    EXPECT_EQ(Simulator::Now(), NanoSeconds(40));
    EXPECT_EQ(Simulator::GetEventCount(), 5u);
}

TEST_F(FastSimulatorImpl, StopInsideAnEventEndsRunAfterThatEvent)
{
    Simulator::Schedule(NanoSeconds(10), [this] {
        Log(1);
        Simulator::Stop();
    });
    At(10, 2); // same time, later uid: not run, Run checks the stop first
    At(20, 3);
    Simulator::Run();
    EXPECT_EQ(Tags(), (std::vector<int>{1}));
    EXPECT_EQ(Simulator::Now(), NanoSeconds(10));
    EXPECT_EQ(Simulator::GetEventCount(), 1u);
    EXPECT_TRUE(Simulator::IsFinished());
    Simulator::Run();
    EXPECT_EQ(Tags(), (std::vector<int>{1, 2, 3}));
    EXPECT_TRUE(Simulator::IsFinished()); // queue empty now
}

TEST_F(FastSimulatorImpl, DestroyRunsDestroyEventsFifoUnlessCancelledOrRemoved)
{
    EventId d1 = Simulator::ScheduleDestroy([this] {
        Log(1);
        // Scheduled while destroying: appended, so it runs after d3.
        Simulator::ScheduleDestroy([this] { Log(5); });
    });
    EventId d2 = Simulator::ScheduleDestroy([this] { Log(2); });
    EventId d3 = Simulator::ScheduleDestroy([this] { Log(3); });
    EventId d4 = Simulator::ScheduleDestroy([this] { Log(4); });
    At(10, 100); // a normal event never run: Destroy does not run the queue
    Simulator::Cancel(d2);
    Simulator::Remove(d4);
    EXPECT_FALSE(Simulator::IsExpired(d1));
    EXPECT_TRUE(Simulator::IsExpired(d2));
    EXPECT_FALSE(Simulator::IsExpired(d3));
    EXPECT_TRUE(Simulator::IsExpired(d4));
    EXPECT_EQ(d1.GetUid(), static_cast<uint32_t>(EventId::UID::DESTROY));
    Simulator::Destroy();
    EXPECT_EQ(Tags(), (std::vector<int>{1, 3, 5}));
}

TEST_F(FastSimulatorImpl, EveryScheduleKindTakesAUidLikeDefault)
{
    // Counter starts at UID::VALID = 4.
    EventId a = Simulator::Schedule(NanoSeconds(10), [] {});  // uid 4
    EventId d = Simulator::ScheduleDestroy([] {});            // DESTROY, counter 4 -> 6
    EventId n = Simulator::ScheduleNow([] {});                // uid 6
    Simulator::ScheduleWithContext(9, NanoSeconds(1), [] {}); // uid 7, not returned
    EventId b = Simulator::Schedule(NanoSeconds(3), [] {});   // uid 8
    EXPECT_EQ(a.GetUid(), 4u);
    EXPECT_EQ(a.GetTs(), static_cast<uint64_t>(NanoSeconds(10).GetTimeStep()));
    EXPECT_EQ(a.GetContext(), static_cast<uint32_t>(Simulator::NO_CONTEXT));
    EXPECT_EQ(d.GetUid(), 2u);
    EXPECT_EQ(d.GetContext(), 0xffffffffu);
    EXPECT_EQ(d.GetTs(), 0u);
    EXPECT_EQ(n.GetUid(), 6u);
    EXPECT_EQ(n.GetTs(), 0u);
    EXPECT_EQ(b.GetUid(), 8u);
    Simulator::Run();
    // n (0 ns), the context event (1 ns), b (3 ns), a (10 ns).
    EXPECT_EQ(Simulator::GetEventCount(), 4u);
}

TEST_F(FastSimulatorImpl, BadPathsAreHarmless)
{
    EventId none;
    EXPECT_TRUE(Simulator::IsExpired(none));
    EXPECT_EQ(Simulator::GetDelayLeft(none), Time(0));
    Simulator::Cancel(none);
    Simulator::Remove(none);

    // Run with nothing queued returns at once.
    Simulator::Run();
    EXPECT_EQ(Simulator::GetEventCount(), 0u);
    EXPECT_EQ(Simulator::Now(), Time(0));
    EXPECT_TRUE(Simulator::IsFinished());

    EventId a = At(10, 1);
    At(20, 2);
    Simulator::Remove(a);
    Simulator::Remove(a); // second time: already gone, the other stays
    Simulator::Cancel(a);
    Simulator::Run();
    EXPECT_EQ(Tags(), (std::vector<int>{2}));
    EXPECT_EQ(Simulator::GetEventCount(), 1u);

    // Cancel and Remove of an event that already ran change nothing.
    EventId ran = At(5, 3); // 20 + 5 ns
    Simulator::Run();
    Simulator::Cancel(ran);
    Simulator::Remove(ran);
    EXPECT_TRUE(Simulator::IsExpired(ran));
    EXPECT_EQ(Tags(), (std::vector<int>{2, 3}));
    EXPECT_EQ(Simulator::GetEventCount(), 2u);
}

TEST_F(FastSimulatorImpl, NegativeDelayIsFatal)
{
    EXPECT_DEATH(Simulator::Schedule(NanoSeconds(-1), [] {}), "negative delay");
    EXPECT_DEATH(Simulator::ScheduleWithContext(1, NanoSeconds(-1), [] {}), "negative delay");
}

// Default's main-thread check: another thread's ScheduleWithContext waits
// for Run(), which inserts it relative to the simulation time then.
TEST_F(FastSimulatorImpl, OtherThreadScheduleIsInsertedByRun)
{
    At(10, 1);
    std::thread([this] {
        Simulator::ScheduleWithContext(7, NanoSeconds(5), [this] { Log(2); });
    }).join();
    EXPECT_EQ(m_log.size(), 0u); // nothing ran on the other thread
    Simulator::Run();
    ASSERT_EQ(Tags(), (std::vector<int>{2, 1}));
    EXPECT_EQ(m_log[0].t, NanoSeconds(5));
    EXPECT_EQ(m_log[0].ctx, 7u);
}

TEST_F(FastSimulatorImpl, OtherThreadScheduleDuringRunCountsFromThatEvent)
{
    // The thread schedules 1 ns ahead while the event at 10 ns runs: the
    // event is inserted when that event returns, at 10 + 1 ns, before the
    // event at 20 ns.
    Simulator::Schedule(NanoSeconds(10), [this] {
        Log(1);
        std::thread([this] {
            Simulator::ScheduleWithContext(3, NanoSeconds(1), [this] { Log(2); });
        }).join();
    });
    At(20, 3);
    Simulator::Run();
    ASSERT_EQ(Tags(), (std::vector<int>{1, 2, 3}));
    EXPECT_EQ(m_log[1].t, NanoSeconds(11));
}

TEST_F(FastSimulatorImpl, SetSchedulerIsAcceptedAndIgnored)
{
    At(20, 2);
    ns3::ObjectFactory f;
    f.SetTypeId("ns3::ListScheduler");
    Simulator::SetScheduler(f);
    At(10, 1);
    Simulator::Run();
    EXPECT_EQ(Tags(), (std::vector<int>{1, 2}));
}

TEST_F(FastSimulatorImpl, InstallSelectsItThroughTheGlobalValue)
{
    Simulator::Destroy();
    ns3::StringValue before;
    ns3::GlobalValue::GetValueByName("SimulatorImplementationType", before);
    ns3::FastSimulatorImpl::Install();
    Simulator::Now(); // the first call creates the impl the global value names
    EXPECT_EQ(Simulator::GetImplementation()->GetInstanceTypeId().GetName(),
              "ns3::FastSimulatorImpl");
    Simulator::Destroy();
    // Put the global back: later suites must get ns-3's default.
    ns3::GlobalValue::Bind("SimulatorImplementationType", before);
    Simulator::Now();
    EXPECT_EQ(Simulator::GetImplementation()->GetInstanceTypeId().GetName(), before.Get());
}

namespace
{

/// Pseudo-random discrete-event workload with many same-time ties, cancels,
/// removes and destroy events, driven only through the Simulator API.
class Workload
{
  public:
    struct Rec
    {
        int64_t ts;
        int tag;
        uint32_t ctx;
        uint32_t uid; ///< uid of the returned EventId, 0 if none (run records)

        bool operator==(const Rec& o) const
        {
            return ts == o.ts && tag == o.tag && ctx == o.ctx && uid == o.uid;
        }
    };

    static constexpr int EVENTS = 10000;

    std::vector<Rec> runs;    ///< (time, tag, context) of every event run, in order
    std::vector<Rec> ids;     ///< (ts, tag, context, uid) of every EventId returned
    std::vector<int> destroy; ///< tags of destroy events, in the order run

    void Start()
    {
        for (int i = 0; i < 32; ++i)
        {
            Spawn();
        }
    }

  private:
    uint32_t m_lcg = 12345;
    int m_next = 0;
    EventId m_ring[64];
    uint32_t m_ringPos = 0;

    uint32_t Next()
    {
        // Numerical Recipes LCG; the high bits are the good ones.
        m_lcg = m_lcg * 1664525u + 1013904223u;
        return m_lcg >> 8;
    }

    void Keep(const EventId& id, int tag)
    {
        ids.push_back({static_cast<int64_t>(id.GetTs()), tag, id.GetContext(), id.GetUid()});
        m_ring[m_ringPos++ % 64] = id;
    }

    void Spawn()
    {
        if (m_next >= EVENTS)
        {
            return;
        }
        int tag = m_next++;
        uint32_t r = Next();
        // 0-3 ns: with hundreds pending, most times are shared by several events.
        Time delay = NanoSeconds(r % 4);
        auto fire = [this, tag] { Fire(tag); };
        switch ((r >> 2) % 4)
        {
        case 0:
            Keep(Simulator::Schedule(delay, fire), tag);
            break;
        case 1:
            Simulator::ScheduleWithContext((r >> 4) % 16, delay, fire);
            break;
        case 2:
            Keep(Simulator::ScheduleNow(fire), tag);
            break;
        default:
            Keep(Simulator::Schedule(delay, fire), tag);
            break;
        }
    }

    void Fire(int tag)
    {
        runs.push_back({Simulator::Now().GetTimeStep(), tag, Simulator::GetContext(), 0});
        uint32_t r = Next();
        Spawn();
        if (r % 3 == 0)
        {
            Spawn();
        }
        switch ((r >> 2) % 16)
        {
        case 0:
            Simulator::Cancel(m_ring[(r >> 6) % 64]);
            break;
        case 1:
            Simulator::Remove(m_ring[(r >> 6) % 64]);
            break;
        case 2: {
            int dtag = -1 - tag;
            Simulator::ScheduleDestroy([this, dtag] { destroy.push_back(dtag); });
            break;
        }
        default:
            break;
        }
    }
};

struct WorkloadResult
{
    std::vector<Workload::Rec> runs;
    std::vector<Workload::Rec> ids;
    std::vector<int> destroy;
    uint64_t eventCount;
    Time end;
};

WorkloadResult
RunWorkload(Ptr<SimulatorImpl> impl, const std::string& scheduler)
{
    Simulator::Destroy();
    Simulator::SetImplementation(impl);
    ns3::ObjectFactory f;
    f.SetTypeId(scheduler);
    Simulator::SetScheduler(f);
    Workload w;
    w.Start();
    Simulator::Run();
    WorkloadResult res;
    res.eventCount = Simulator::GetEventCount();
    res.end = Simulator::Now();
    Simulator::Destroy();
    res.runs = w.runs;
    res.ids = w.ids;
    res.destroy = w.destroy;
    return res;
}

} // namespace

TEST_F(FastSimulatorImpl, SameEventOrderAsDefaultSimulatorImpl)
{
    WorkloadResult mine = RunWorkload(CreateObject<ns3::FastSimulatorImpl>(), "ns3::MapScheduler");
    // The workload is not trivial: most of the 10000 events run, with ties,
    // cancels, removes and destroy events all exercised.
    ASSERT_GT(mine.runs.size(), 9000u);
    ASSERT_LT(mine.runs.size(), 10000u);
    size_t ties = 0;
    for (size_t i = 1; i < mine.runs.size(); ++i)
    {
        ties += mine.runs[i].ts == mine.runs[i - 1].ts;
    }
    EXPECT_GT(ties, 5000u);
    EXPECT_GT(mine.destroy.size(), 100u);

    // Default with each ns-3 scheduler that keeps the (ts, uid) order. Not
    // ns3::HeapScheduler: its Remove() moves the last entry into the hole and
    // only sifts it down, so after a Remove it can run events out of order
    // (this workload catches it; an ns-3.37 bug, see docs/simulator-impl.md).
    for (const char* sched : {"ns3::MapScheduler", "ns3::PriorityQueueScheduler",
                              "ns3::CalendarScheduler", "ns3::ListScheduler"})
    {
        SCOPED_TRACE(sched);
        WorkloadResult ref = RunWorkload(CreateObject<ns3::DefaultSimulatorImpl>(), sched);
        EXPECT_TRUE(ref.runs == mine.runs);
        EXPECT_TRUE(ref.ids == mine.ids);
        EXPECT_EQ(ref.destroy, mine.destroy);
        EXPECT_EQ(ref.eventCount, mine.eventCount);
        EXPECT_EQ(ref.end, mine.end);
    }
}

// ---------------------------------------------------------------------------
// sim-fast.h: SimNowStep, SimNow, SimContext, SimScheduleWithContext must be
// the Simulator:: calls they stand for, inside Run (fast path), outside Run
// and under DefaultSimulatorImpl (fallback). The runner's resolution is 1 ps
// (gtest_main.cc), so 1 ns = 1000 steps.

namespace
{

/// What an event saw: the fast functions next to the Simulator:: calls.
struct Seen
{
    int tag;
    int64_t step;     ///< SimNowStep()
    int64_t refStep;  ///< Simulator::Now().GetTimeStep()
    Time now;         ///< SimNow()
    uint32_t ctx;     ///< SimContext()
    uint32_t refCtx;  ///< Simulator::GetContext()
    bool fast;        ///< FastSimulatorImpl::Running() != nullptr
};

Seen
Look(int tag)
{
    return {tag,
            ns3::SimNowStep(),
            Simulator::Now().GetTimeStep(),
            ns3::SimNow(),
            ns3::SimContext(),
            Simulator::GetContext(),
            ns3::FastSimulatorImpl::Running() != nullptr};
}

/// The interleaving scenario shared by the Libcc and Default tests; returns
/// what every event saw, in run order, and the uids of the EventIds that
/// Simulator::Schedule handed out inside X.
void
Interleave(std::vector<Seen>& seen, std::vector<uint32_t>& uids)
{
    auto ev = [&seen](int tag) { return ns3::MakeEvent([&seen, tag] { seen.push_back(Look(tag)); }); };
    // Before Run (fallback path everywhere): the uid counter starts at 4.
    //   X: ScheduleWithContext(1, 10 ns)          uid 4, ts 10 ns, ctx 1
    //   G: SimScheduleWithContext(6, 15 ns)       uid 5, ts 15 ns, ctx 6
    //   H: Schedule(10 ns)                        uid 6, ts 10 ns, ctx NO_CONTEXT
    Simulator::ScheduleWithContext(1, NanoSeconds(10), [&seen, &uids, ev] {
        seen.push_back(Look('X'));
        // Inside X (now 10 ns, context 1), uids go on from 7:
        //   A: Schedule(5 ns)                     uid 7,  ts 15, ctx 1 (inherited)
        //   B: SimScheduleWithContext(2, 5 ns)    uid 8,  ts 15, ctx 2
        //   C: Schedule(0)                        uid 9,  ts 10, ctx 1
        //   D: SimScheduleWithContext(3, 0)       uid 10, ts 10, ctx 3
        //   E: Simulator::ScheduleWithContext(4, 5 ns) uid 11, ts 15, ctx 4
        //   F: SimScheduleWithContext(5, 2 ns)    uid 12, ts 12, ctx 5
        uids.push_back(Simulator::Schedule(NanoSeconds(5), [&seen] { seen.push_back(Look('A')); })
                           .GetUid());
        ns3::SimScheduleWithContext(2, NanoSeconds(5).GetTimeStep(), ev('B'));
        uids.push_back(Simulator::Schedule(Time(0), [&seen] { seen.push_back(Look('C')); }).GetUid());
        ns3::SimScheduleWithContext(3, 0, ev('D'));
        Simulator::ScheduleWithContext(4, NanoSeconds(5), [&seen] { seen.push_back(Look('E')); });
        ns3::SimScheduleWithContext(5, NanoSeconds(2).GetTimeStep(), ev('F'));
        // The next uid must be 13 if the fast path took 8, 10 and 12.
        uids.push_back(Simulator::Schedule(NanoSeconds(100), [] {}).GetUid());
    });
    ns3::SimScheduleWithContext(6, NanoSeconds(15).GetTimeStep(), ev('G'));
    Simulator::Schedule(NanoSeconds(10), [&seen] { seen.push_back(Look('H')); });
    Simulator::Run();
}

/// (ts, uid) order of the scenario above, by hand:
///   10 ns: X(4) H(6) C(9) D(10); 12 ns: F(12); 15 ns: G(5) A(7) B(8) E(11).
void
ExpectInterleaveOrder(const std::vector<Seen>& seen, const std::vector<uint32_t>& uids)
{
    const uint32_t none = Simulator::NO_CONTEXT;
    struct Want
    {
        int tag;
        int64_t step;
        uint32_t ctx;
    };
    const Want want[] = {{'X', 10000, 1},   {'H', 10000, none}, {'C', 10000, 1}, {'D', 10000, 3},
                         {'F', 12000, 5},   {'G', 15000, 6},    {'A', 15000, 1}, {'B', 15000, 2},
                         {'E', 15000, 4}};
    ASSERT_EQ(seen.size(), 9u);
    for (size_t i = 0; i < 9; ++i)
    {
        SCOPED_TRACE(static_cast<char>(want[i].tag));
        EXPECT_EQ(seen[i].tag, want[i].tag);
        EXPECT_EQ(seen[i].step, want[i].step);
        EXPECT_EQ(seen[i].refStep, want[i].step);
        EXPECT_EQ(seen[i].now, TimeStep(want[i].step));
        EXPECT_EQ(seen[i].ctx, want[i].ctx);
        EXPECT_EQ(seen[i].refCtx, want[i].ctx);
    }
    EXPECT_EQ(uids, (std::vector<uint32_t>{7, 9, 13}));
}

} // namespace

TEST_F(FastSimulatorImpl, SimFastFunctionsOutsideRunFallBackToTheSimulator)
{
    // Before any event: time 0, NO_CONTEXT, and no fast path.
    EXPECT_EQ(ns3::FastSimulatorImpl::Running(), nullptr);
    EXPECT_EQ(ns3::SimNowStep(), 0);
    EXPECT_EQ(ns3::SimNow(), Time(0));
    EXPECT_EQ(ns3::SimContext(), static_cast<uint32_t>(Simulator::NO_CONTEXT));
    // A run that ends with an event of context 9 at 25 ns + 3 ps.
    Simulator::ScheduleWithContext(9, NanoSeconds(25) + ns3::PicoSeconds(3), [] {});
    Simulator::Run();
    // After Run: the pointer is cleared, the values are the last event's.
    EXPECT_EQ(ns3::FastSimulatorImpl::Running(), nullptr);
    EXPECT_EQ(ns3::SimNowStep(), 25003);
    EXPECT_EQ(ns3::SimNow(), ns3::PicoSeconds(25003));
    EXPECT_EQ(ns3::SimContext(), 9u);
    // LibccNow truncates to ns (25003 ps -> 25), NowPs is the step itself.
    EXPECT_EQ(ns3::LibccNow(), 25u);
    EXPECT_EQ(ns3::NowPs(), 25003u);
}

TEST_F(FastSimulatorImpl, SimFastFunctionsInsideRunReadTheRunningImpl)
{
    std::vector<Seen> seen;
    SimulatorImpl* running = nullptr;
    uint64_t libccNow = 0;
    uint64_t nowPs = 0;
    Simulator::ScheduleWithContext(7, NanoSeconds(10) + ns3::PicoSeconds(1999), [&] {
        seen.push_back(Look(1));
        running = ns3::FastSimulatorImpl::Running();
        libccNow = ns3::LibccNow();
        nowPs = ns3::NowPs();
    });
    Simulator::Run();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_TRUE(seen[0].fast);
    // The pointer is the Simulator's own implementation.
    EXPECT_EQ(running, ns3::PeekPointer(Simulator::GetImplementation()));
    EXPECT_EQ(seen[0].step, 11999); // 10 ns + 1999 ps
    EXPECT_EQ(seen[0].refStep, 11999);
    EXPECT_EQ(seen[0].now, ns3::PicoSeconds(11999));
    EXPECT_EQ(seen[0].ctx, 7u);
    EXPECT_EQ(seen[0].refCtx, 7u);
    EXPECT_EQ(libccNow, 11u); // 11999 ps truncates to 11 ns, as GetNanoSeconds does
    EXPECT_EQ(nowPs, 11999u);
}

TEST_F(FastSimulatorImpl, SimScheduleWithContextInterleavesByTimeThenUid)
{
    std::vector<Seen> seen;
    std::vector<uint32_t> uids;
    Interleave(seen, uids);
    ExpectInterleaveOrder(seen, uids);
    // Every event ran inside Run: all saw the fast path.
    for (const Seen& s : seen)
    {
        EXPECT_TRUE(s.fast);
    }
}

TEST_F(FastSimulatorImpl, SimScheduleWithContextTakesOverTheCallersReference)
{
    // One reference held here, one handed to the queue (as ScheduleReused
    // does): 2 while queued, back to 1 once the event ran and was released.
    int runs = 0;
    // MakeEvent's reference, taken over by the Ptr (false: no extra Ref).
    Ptr<ns3::EventImpl> kept(ns3::MakeEvent([&runs] { runs++; }), false);
    EXPECT_EQ(kept->GetReferenceCount(), 1u);
    Simulator::Schedule(NanoSeconds(1), [&kept] {
        ns3::ScheduleReused(4, NanoSeconds(1), ns3::PeekPointer(kept)); // fast path
        EXPECT_EQ(kept->GetReferenceCount(), 2u);
    });
    Simulator::Run();
    EXPECT_EQ(runs, 1);
    EXPECT_EQ(kept->GetReferenceCount(), 1u);
    // Fallback path, and an event that never runs: the queue's reference
    // goes when the simulator is destroyed.
    ns3::ScheduleReused(4, NanoSeconds(1), ns3::PeekPointer(kept));
    EXPECT_EQ(kept->GetReferenceCount(), 2u);
    Simulator::Destroy();
    EXPECT_EQ(kept->GetReferenceCount(), 1u);
    EXPECT_EQ(runs, 1);
}

namespace
{
/// A FastEvent that appends its tag to a log when it fires.
class TagEvent : public ns3::FastEvent
{
  public:
    TagEvent(std::vector<int>& log, int tag)
        : m_log(log),
          m_tag(tag)
    {
    }

  protected:
    void Notify() override
    {
        m_log.push_back(m_tag);
    }

  private:
    std::vector<int>& m_log;
    int m_tag;
};

/// Inside an event at 1 ns: ordinary (O) and fast (F) events interleaved at
/// two times, a cancelled fast one (K) among them. Returns the run order.
std::vector<int>
RunMixedKinds(Ptr<TagEvent>& kept)
{
    std::vector<int> log;
    std::vector<Ptr<TagEvent>> fast;
    Simulator::Schedule(NanoSeconds(1), [&] {
        auto ordinary = [&log](int tag) { return ns3::MakeEvent([&log, tag] { log.push_back(tag); }); };
        for (int tag : {'F', 'G', 'K'})
        {
            fast.push_back(ns3::Create<TagEvent>(log, tag));
        }
        kept = fast[0];
        // Scheduled in this order, so at each time they run in it (by uid):
        ns3::SimScheduleWithContext(0, 2000, ordinary('a'));         // 3 ns
        ns3::ScheduleReusedSteps(0, 2000, ns3::PeekPointer(fast[0])); // 3 ns
        ns3::SimScheduleWithContext(0, 1000, ordinary('b'));         // 2 ns
        ns3::ScheduleReusedSteps(0, 1000, ns3::PeekPointer(fast[2])); // 2 ns, cancelled below
        ns3::ScheduleReusedSteps(0, 1000, ns3::PeekPointer(fast[1])); // 2 ns
        ns3::SimScheduleWithContext(0, 1000, ordinary('c'));         // 2 ns
        fast[2]->Cancel();
    });
    Simulator::Run();
    return log;
}
} // namespace

TEST_F(FastSimulatorImpl, FastEventsRunInTheSameOrderAsOrdinaryOnes)
{
    Ptr<TagEvent> kept;
    uint64_t before = Simulator::GetEventCount();
    std::vector<int> log = RunMixedKinds(kept);
    EXPECT_EQ(log, (std::vector<int>{'b', 'G', 'c', 'a', 'F'}));
    // 1 + 6 events popped; the cancelled one counts, as in Default.
    EXPECT_EQ(Simulator::GetEventCount() - before, 7u);
    // The queue's reference went when F ran: only ours is left.
    EXPECT_EQ(kept->GetReferenceCount(), 1u);
    EXPECT_EQ(Simulator::Now(), NanoSeconds(3));
}

TEST_F(FastSimulatorImpl, RunningIsRestoredAfterANestedRun)
{
    std::vector<bool> fast;
    int64_t after = -1;
    Simulator::Schedule(NanoSeconds(1), [&] {
        // A Run() nested in an event runs the 2 ns event (the only one
        // queued) and returns to this one: still inside the outer Run, so
        // still the fast path, with the clock the nested run moved to 2 ns.
        Simulator::Schedule(NanoSeconds(1), [&fast] {
            fast.push_back(ns3::FastSimulatorImpl::Running() != nullptr);
        });
        Simulator::Run();
        fast.push_back(ns3::FastSimulatorImpl::Running() != nullptr);
        after = ns3::SimNowStep();
    });
    Simulator::Run();
    EXPECT_EQ(fast, (std::vector<bool>{true, true}));
    EXPECT_EQ(after, 2000);
    EXPECT_EQ(ns3::FastSimulatorImpl::Running(), nullptr);
}

TEST_F(FastSimulatorImpl, RunningIsClearedWhenStopEndsRun)
{
    bool fastAfterResume = false;
    Simulator::Schedule(NanoSeconds(5), [] { Simulator::Stop(); });
    Simulator::Schedule(NanoSeconds(6), [&fastAfterResume] {
        fastAfterResume = ns3::FastSimulatorImpl::Running() != nullptr;
    });
    Simulator::Run();
    // Stopped at 5 ns with the 6 ns event pending: outside Run, the
    // fallback gives the stop time.
    EXPECT_EQ(ns3::FastSimulatorImpl::Running(), nullptr);
    EXPECT_EQ(ns3::SimNowStep(), 5000);
    EXPECT_FALSE(fastAfterResume);
    // A second Run() resumes on the fast path.
    Simulator::Run();
    EXPECT_TRUE(fastAfterResume);
    EXPECT_EQ(ns3::SimNowStep(), 6000);
    EXPECT_EQ(ns3::FastSimulatorImpl::Running(), nullptr);
}

TEST_F(FastSimulatorImpl, DestroyEventsUseTheFallback)
{
    // Destroy events run in Simulator::Destroy(), outside Run: the fallback
    // must still see the simulator's last time (3 ns).
    bool fast = true;
    int64_t step = -1;
    Simulator::Schedule(NanoSeconds(3), [] {});
    Simulator::ScheduleDestroy([&] {
        fast = ns3::FastSimulatorImpl::Running() != nullptr;
        step = ns3::SimNowStep();
    });
    Simulator::Run();
    Simulator::Destroy();
    EXPECT_FALSE(fast);
    EXPECT_EQ(step, 3000);
}

TEST_F(FastSimulatorImpl, SimScheduleWithContextNegativeDelayIsFatal)
{
    // Fast path (inside Run) and fallback (outside): both refuse.
    EXPECT_DEATH(
        {
            Simulator::Schedule(Time(0), [] { ns3::SimScheduleWithContext(1, -1, ns3::MakeEvent([] {})); });
            Simulator::Run();
        },
        "negative delay");
    EXPECT_DEATH(ns3::SimScheduleWithContext(1, -1, ns3::MakeEvent([] {})), "negative delay");
}

class SimFastUnderDefault : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        // Right after a FastSimulatorImpl simulation in the same process:
        // nothing of it may leak into the Default one.
        Simulator::Destroy();
        Simulator::SetImplementation(CreateObject<ns3::FastSimulatorImpl>());
        Simulator::Schedule(NanoSeconds(40), [] {});
        Simulator::Run();
        Simulator::Destroy();
        Simulator::SetImplementation(CreateObject<ns3::DefaultSimulatorImpl>());
    }

    void TearDown() override
    {
        Simulator::Destroy();
    }
};

TEST_F(SimFastUnderDefault, SameValuesAndOrderThroughTheSimulator)
{
    EXPECT_EQ(ns3::SimNowStep(), 0); // a fresh simulator, not the 40 ns of the last one
    std::vector<Seen> seen;
    std::vector<uint32_t> uids;
    Interleave(seen, uids);
    ExpectInterleaveOrder(seen, uids);
    for (const Seen& s : seen)
    {
        EXPECT_FALSE(s.fast);
    }
    EXPECT_EQ(ns3::SimNowStep(), 110000); // the last event: X's +100 ns one, at 110 ns
    EXPECT_EQ(ns3::SimContext(), 1u);     // it inherited X's context
}

TEST_F(SimFastUnderDefault, FastEventsAreOrdinaryEvents)
{
    Ptr<TagEvent> kept;
    std::vector<int> log = RunMixedKinds(kept);
    EXPECT_EQ(log, (std::vector<int>{'b', 'G', 'c', 'a', 'F'}));
    EXPECT_EQ(kept->GetReferenceCount(), 1u);
}
