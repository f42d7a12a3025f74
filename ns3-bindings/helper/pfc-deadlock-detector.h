// SPDX-License-Identifier: GPL-2.0-only
//
// PfcDeadlockDetector: tells a PFC deadlock from congestion. A cyclic buffer
// dependency (each switch of a ring pausing the previous one while its own
// paused queue waits for the next) stops every flow in the cycle for good;
// without a word the run would end at its stop time with flows unfinished.
//
// A switch egress (port, priority) is STUCK when its peer has paused it,
// it holds queued bytes, and the port has sent no frame for StallTime. The
// check runs on a grid of CheckInterval from Install, reads counters only
// (it changes nothing, so a run without deadlock gives the same results with
// or without it) and stops re-arming once nothing else is left to simulate.
//
// Nothing can be stuck while no watched port is paused, so the check runs
// only then: a PAUSE received by a watched port (its device's PfcRx trace)
// arms it for the next grid point, and a check that finds no port paused
// disarms it. A run without PAUSE frames to switches schedules no check at
// all (GetChecks; AlwaysCheck restores the check on every grid point, for
// comparison). The first check after an idle stretch dates each port's
// last move from the port's last dequeue time, to the grid point that
// would have seen it, so reports are those of a check running all along.
//
// When stuck queues exist, the detector follows who waits for whom: a stuck
// (S, p, prio) waits for the switch D at the other end of port p, which
// holds its ingress from S in XOFF, and so for D's stuck egress queues of
// that priority. A cycle in that graph is a deadlock: it is reported (trace
// source "Deadlock", GetCycle, Describe) and, with StopOnDeadlock, the
// simulation stops.
//
// Over ranks (FastSimulatorImpl with a rank link) every rank installs the
// detector on all switches (every rank builds the whole topology) and
// checks its own. A cycle may cross ranks, so a check that finds stuck
// queues does not search alone: it sends what it sees (each of its ports'
// stuck and XOFF priorities) to every other rank, to arrive a lookahead
// later, and keeps a copy; at that time every rank that holds any such
// view searches their union, the graph one process would have searched
// at the check's time, and so finds the same cycle, dated at the check.
// Ranks exchange nothing while no watched queue is stuck anywhere.

#ifndef PFC_DEADLOCK_DETECTOR_H
#define PFC_DEADLOCK_DETECTOR_H

#include "checked-options.h"
#include "fast-simulator-impl.h"
#include "switch-node.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/// A program's deadlock options: --deadlockStall and --deadlockContinue.
struct PfcDeadlockOptions
{
    Time stall = MicroSeconds(500); //!< StallTime; checked every fifth of it
    bool keepRunning = false;       //!< report and run on instead of stopping
    /// Declare the two options on cmd.
    void AddTo(CheckedOptions& cmd);
};

class PfcDeadlockDetector : public Object
{
  public:
    /// One egress queue: a switch (ns-3 node id), its port, a priority.
    struct Queue
    {
        uint32_t node = 0;
        uint32_t port = 0;
        uint8_t prio = 0;
    };

    static TypeId GetTypeId();
    PfcDeadlockDetector();
    ~PfcDeadlockDetector() override;

    /// Watch these switches (all of a network's, in the same order on
    /// every rank) from now on; only this rank's are read.
    void Install(const std::vector<Ptr<SwitchNode>>& switches);
    /// Over ranks: peers' views of stuck queues arrive at this rank-link
    /// port id (the same on every rank, used by nothing else). Call after
    /// Install, before Run; without it each rank searches only its own.
    void EnableRanks(uint32_t portId);

    bool IsDeadlocked() const
    {
        return !m_cycle.empty();
    }
    /// When the deadlock was found (meaningful if IsDeadlocked()).
    Time GetDetectionTime() const
    {
        return m_detectedAt;
    }
    /// Which report one process makes of several (over ranks, where the
    /// ranks that searched a union found the same): the detection's time
    /// step, UINT64_MAX without a deadlock (DistributedRun::First).
    uint64_t GetReportOrder() const
    {
        return IsDeadlocked() ? static_cast<uint64_t>(m_detectedAt.GetTimeStep()) : UINT64_MAX;
    }
    /// The queues of the cycle, in waiting order (each waits for the next,
    /// the last for the first); empty if none was found.
    const std::vector<Queue>& GetCycle() const
    {
        return m_cycle;
    }
    /// One line: "PFC deadlock at <t> us: switch 3 port 1 -> switch 4 port 2
    /// -> switch 3 port 1 (priority 3), no frame sent for <stall> us while
    /// paused with bytes queued"; "" if none.
    std::string Describe() const;

    /// Checks run so far (each reads every watched port's counters).
    uint64_t GetChecks() const
    {
        return m_checks;
    }

    /// Signature of "Deadlock": detection time, the cycle.
    typedef void (*DeadlockCallback)(Time t, const std::vector<Queue>& cycle);

  protected:
    void DoDispose() override;

  private:
    /// Per watched port (index into m_ports): priorities whose egress
    /// queue is stuck, priorities whose ingress is XOFF. One rank's view,
    /// or the union of every rank's.
    struct View
    {
        std::vector<uint8_t> stuck;
        std::vector<uint8_t> xoff;
    };
    /// Receives a peer's View (rank-link messages).
    class RankPort : public FastRemotePort
    {
      public:
        PfcDeadlockDetector* m_det = nullptr;
        void Deliver(uint64_t ts, uint64_t key, const uint8_t* data, uint32_t len) override;
    };
    struct PortState
    {
        Ptr<SwitchNode> sw;
        uint32_t swIndex = 0; //!< into m_switchPorts
        uint32_t port = 0;
        uint64_t dequeued = 0; //!< GetDequeuedFrames at lastMoveAt
        Time lastMoveAt;       //!< last check at which the port had sent more
        uint32_t peerSwIndex = UINT32_MAX; //!< the switch at the far end (UINT32_MAX: a host)
        uint32_t peerPort = 0;             //!< that switch's port facing us
        uint32_t peerIndex = UINT32_MAX;   //!< that port's index in m_ports
        bool local = true;                 //!< its switch runs on this rank
    };

    void Check();
    /// A watched port received PFC: arm the check if idle (quanta > 0).
    void OnPfcRx(uint8_t prio, uint16_t quanta);
    /// Schedule the check at the first grid point after now.
    void Arm();
    /// Stop listening to the watched devices' PfcRx.
    void Disconnect();
    static bool AnyPaused(const QbbNetDevice& dev);
    /// The first grid point (Install + k x CheckInterval) after t.
    Time NextGridPoint(Time t) const;
    bool Stuck(const PortState& p, uint8_t prio, Time now) const;
    /// This rank's view at now (its own ports only).
    View LocalView(Time now) const;
    /// The stuck queues stuck queue v (of priority prio) waits for.
    std::vector<uint32_t> WaitsFor(const View& g, uint32_t v, uint8_t prio) const;
    std::vector<Queue> FindCycle(const View& g) const;
    /// A cycle was found in the view of check time t: report it, stop.
    void Found(Time t, std::vector<Queue> cycle);
    /// Search the union of the views of check time step t (a lookahead ago).
    void SearchUnion(uint64_t t);
    /// Merge a view of check time step t, arriving at ts; schedule the
    /// search at ts once (key: a peer's event key, or UINT64_MAX: ours).
    void AddView(uint64_t t, uint64_t ts, uint64_t key, const uint8_t* data, uint32_t len);

    std::vector<PortState> m_ports;
    /// Indices of this rank's ports in m_ports.
    std::vector<uint32_t> m_local;
    /// Over ranks: the simulator, its rank count, the port id; views of
    /// each check time step waiting for their search.
    FastSimulatorImpl* m_ranks = nullptr;
    uint32_t m_rankCount = 1;
    uint32_t m_rankPortId = 0;
    int64_t m_viewDelay = 0; //!< time steps from a check to the search of its views
    RankPort m_rankPort;
    struct Pending
    {
        View view;
        bool searchScheduled = false;
    };
    std::map<uint64_t, Pending> m_pending;
    /// The watched ports' devices, whose PfcRx trace arms the check.
    std::vector<Ptr<QbbNetDevice>> m_devices;
    /// Per watched switch: its ports' range [first, second) in m_ports.
    std::vector<std::pair<uint32_t, uint32_t>> m_switchPorts;
    Time m_interval;
    Time m_stall;
    bool m_stopOnDeadlock;
    bool m_alwaysCheck;
    EventId m_event;
    /// The check a PAUSE arms, scheduled for no node (a Node-order run keeps
    /// the receiving node's event count free of it: docs/distributed.md).
    Ptr<EventImpl> m_armEvent;
    Time m_installedAt;      //!< the grid's origin
    bool m_installed = false;
    bool m_armed = false;    //!< a check is scheduled
    bool m_catchUp = false;  //!< the next check follows an idle stretch
    bool m_done = false;     //!< a deadlock was found: no check until Install again
    uint64_t m_checks = 0;
    std::vector<Queue> m_cycle;
    Time m_detectedAt;
    TracedCallback<Time, const std::vector<Queue>&> m_deadlockTrace;
};

} // namespace ns3

#endif
