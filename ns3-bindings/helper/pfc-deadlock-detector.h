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

#ifndef PFC_DEADLOCK_DETECTOR_H
#define PFC_DEADLOCK_DETECTOR_H

#include "checked-options.h"
#include "switch-node.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

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

    /// Watch these switches (all of a network's) from now on.
    void Install(const std::vector<Ptr<SwitchNode>>& switches);

    bool IsDeadlocked() const
    {
        return !m_cycle.empty();
    }
    /// When the deadlock was found (meaningful if IsDeadlocked()).
    Time GetDetectionTime() const
    {
        return m_detectedAt;
    }
    /// Which report one process makes of several (over ranks, each
    /// rank's detector watching its own switches): the detection's time
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
    struct PortState
    {
        Ptr<SwitchNode> sw;
        uint32_t swIndex = 0; //!< into m_switchPorts
        uint32_t port = 0;
        uint64_t dequeued = 0; //!< GetDequeuedFrames at lastMoveAt
        Time lastMoveAt;       //!< last check at which the port had sent more
        uint32_t peerSwIndex = UINT32_MAX; //!< the switch at the far end (UINT32_MAX: a host)
        uint32_t peerPort = 0;             //!< that switch's port facing us
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
    /// The stuck queues stuck queue v (of priority prio) waits for.
    std::vector<uint32_t> WaitsFor(uint32_t v, uint8_t prio, Time now) const;
    std::vector<Queue> FindCycle(Time now) const;

    std::vector<PortState> m_ports;
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
