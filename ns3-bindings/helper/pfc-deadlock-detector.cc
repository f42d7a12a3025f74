// SPDX-License-Identifier: GPL-2.0-only
#include "pfc-deadlock-detector.h"

#include "qbb-channel.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>
#include <cstring>
#include <iomanip>
#include <map>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcDeadlockDetector");
NS_OBJECT_ENSURE_REGISTERED(PfcDeadlockDetector);

TypeId
PfcDeadlockDetector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcDeadlockDetector")
            .SetParent<Object>()
            .SetGroupName("Libcc")
            .AddConstructor<PfcDeadlockDetector>()
            .AddAttribute("StallTime",
                          "A paused egress queue with bytes is stuck when its port sent no "
                          "frame for this long, time",
                          TimeValue(MicroSeconds(500)),
                          MakeTimeAccessor(&PfcDeadlockDetector::m_stall),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("CheckInterval", "How often the counters are read, time",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&PfcDeadlockDetector::m_interval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("StopOnDeadlock", "Stop the simulation when a deadlock is found",
                          BooleanValue(true),
                          MakeBooleanAccessor(&PfcDeadlockDetector::m_stopOnDeadlock),
                          MakeBooleanChecker())
            .AddAttribute("AlwaysCheck",
                          "Check on every grid point from Install on, PAUSE or not (the "
                          "same reports at a higher cost; for comparison)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&PfcDeadlockDetector::m_alwaysCheck),
                          MakeBooleanChecker())
            .AddTraceSource("Deadlock", "A PFC deadlock was found: time, the cycle of queues",
                            MakeTraceSourceAccessor(&PfcDeadlockDetector::m_deadlockTrace),
                            "ns3::PfcDeadlockDetector::DeadlockCallback");
    return tid;
}

void
PfcDeadlockOptions::AddTo(CheckedOptions& cmd)
{
    cmd.AddTime("deadlockStall",
                "PFC deadlock: a paused queue with bytes that sent nothing for this long, in a "
                "cycle of such queues, stops the run (exit 3)",
                stall, MicroSeconds(1), Seconds(10));
    cmd.AddBool("deadlockContinue", "on a PFC deadlock, report it and run on to --stop (exit 0)",
                keepRunning);
}

PfcDeadlockDetector::PfcDeadlockDetector()
    : m_interval(MicroSeconds(100))
    , m_stall(MicroSeconds(500))
    , m_stopOnDeadlock(true)
    , m_alwaysCheck(false)
{
}

PfcDeadlockDetector::~PfcDeadlockDetector() = default;

void
PfcDeadlockDetector::DoDispose()
{
    m_event.Cancel();
    if (m_armEvent)
    {
        m_armEvent->Cancel();
        m_armEvent = nullptr;
    }
    Disconnect();
    m_ports.clear();
    m_local.clear();
    m_pending.clear();
    Object::DoDispose();
}

void
PfcDeadlockDetector::Disconnect()
{
    for (const Ptr<QbbNetDevice>& dev : m_devices)
    {
        dev->TraceDisconnectWithoutContext(
            "PfcRx", MakeCallback(&PfcDeadlockDetector::OnPfcRx, this));
    }
    m_devices.clear();
    m_armed = false;
}

void
PfcDeadlockDetector::Install(const std::vector<Ptr<SwitchNode>>& switches)
{
    m_event.Cancel();
    if (m_armEvent)
    {
        m_armEvent->Cancel();
        m_armEvent = nullptr;
    }
    Disconnect();
    m_ports.clear();
    m_local.clear();
    m_pending.clear();
    m_switchPorts.clear();
    std::map<uint32_t, uint32_t> swIndexOfNode;
    Time now = Simulator::Now();
    for (uint32_t si = 0; si < switches.size(); si++)
    {
        const Ptr<SwitchNode>& sw = switches[si];
        swIndexOfNode[sw->GetId()] = si;
        uint32_t first = static_cast<uint32_t>(m_ports.size());
        for (uint32_t p = 0; p < sw->GetNPorts(); p++)
        {
            if (!sw->GetPort(p))
            {
                continue;
            }
            PortState st;
            st.sw = sw;
            st.swIndex = si;
            st.port = p;
            st.local = sw->GetSystemId() == Simulator::GetSystemId();
            st.dequeued = st.local ? sw->GetDequeuedFrames(p) : 0;
            st.lastMoveAt = now;
            if (st.local)
            {
                m_local.push_back(static_cast<uint32_t>(m_ports.size()));
            }
            m_ports.push_back(st);
        }
        m_switchPorts.emplace_back(first, static_cast<uint32_t>(m_ports.size()));
    }
    for (PortState& st : m_ports)
    {
        Ptr<QbbNetDevice> dev = st.sw->GetPort(st.port);
        Ptr<QbbChannel> ch = DynamicCast<QbbChannel>(dev->GetChannel());
        Ptr<QbbNetDevice> peer = ch ? ch->GetPeer(dev) : nullptr;
        if (!peer || !peer->GetNode())
        {
            continue;
        }
        auto it = swIndexOfNode.find(peer->GetNode()->GetId());
        if (it != swIndexOfNode.end())
        {
            st.peerSwIndex = it->second;
            st.peerPort = peer->GetIfIndex();
        }
    }
    for (PortState& st : m_ports)
    {
        if (st.peerSwIndex == UINT32_MAX)
        {
            continue;
        }
        auto range = m_switchPorts[st.peerSwIndex];
        for (uint32_t w = range.first; w < range.second; w++)
        {
            if (m_ports[w].port == st.peerPort)
            {
                st.peerIndex = w;
            }
        }
    }
    m_installedAt = now;
    m_installed = true;
    m_done = false;
    m_catchUp = true; // no check ran since Install
    bool paused = false;
    for (uint32_t i : m_local)
    {
        const PortState& st = m_ports[i];
        Ptr<QbbNetDevice> dev = st.sw->GetPort(st.port);
        dev->TraceConnectWithoutContext("PfcRx",
                                        MakeCallback(&PfcDeadlockDetector::OnPfcRx, this));
        m_devices.push_back(dev);
        paused = paused || AnyPaused(*dev);
    }
    if (paused || m_alwaysCheck)
    {
        Arm();
    }
}

void
PfcDeadlockDetector::EnableRanks(uint32_t portId)
{
    FastSimulatorImpl* fast =
        PeekPointer(DynamicCast<FastSimulatorImpl>(Simulator::GetImplementation()));
    if (!fast || !fast->GetRankLink() || fast->GetRankLink()->GetSize() < 2)
    {
        return; // one process: every switch is ours, each check searches alone
    }
    // A view must reach every rank before any has run to its time: a
    // lookahead or more later. The smallest delay of a watched link
    // between ranks is that (the lookahead is the smallest of all cut
    // links'); with none cut no cycle crosses ranks. Every rank has every
    // switch's ports, so all agree on it.
    int64_t delay = INT64_MAX;
    for (const PortState& p : m_ports)
    {
        Ptr<QbbChannel> ch = DynamicCast<QbbChannel>(p.sw->GetPort(p.port)->GetChannel());
        if (ch && ch->JoinsTwoRanks() && p.peerSwIndex != UINT32_MAX)
        {
            delay = std::min(delay, ch->GetDelay().GetTimeStep());
        }
    }
    if (delay == INT64_MAX || delay <= 0)
    {
        return;
    }
    m_viewDelay = delay;
    m_ranks = fast;
    m_rankCount = fast->GetRankLink()->GetSize();
    m_rankPortId = portId;
    m_rankPort.m_det = this;
    fast->RegisterRemotePort(portId, &m_rankPort);
}

bool
PfcDeadlockDetector::AnyPaused(const QbbNetDevice& dev)
{
    for (uint8_t prio = 0; prio < QBB_N_PRIO; prio++)
    {
        if (dev.IsPaused(prio))
        {
            return true;
        }
    }
    return false;
}

Time
PfcDeadlockDetector::NextGridPoint(Time t) const
{
    if (t < m_installedAt)
    {
        return m_installedAt + m_interval;
    }
    int64_t k = (t - m_installedAt).GetTimeStep() / m_interval.GetTimeStep();
    return m_installedAt + TimeStep((k + 1) * m_interval.GetTimeStep());
}

void
PfcDeadlockDetector::Arm()
{
    Time now = Simulator::Now();
    // MakeEvent's reference goes to the queue, the Ptr takes its own.
    m_armEvent = MakeEvent(&PfcDeadlockDetector::Check, this);
    Simulator::ScheduleWithContext(Simulator::NO_CONTEXT, NextGridPoint(now) - now,
                                   PeekPointer(m_armEvent));
    m_armed = true;
}

void
PfcDeadlockDetector::OnPfcRx(uint8_t prio, uint16_t quanta)
{
    (void)prio;
    // A RESUME ends a pause; only a PAUSE can make a queue stuck. The check
    // the PAUSE arms is the grid point after now: one at now ran already
    // (it was scheduled CheckInterval ago, before this frame's arrival).
    if (quanta == 0 || m_armed || !m_installed || m_done)
    {
        return;
    }
    Arm();
}

bool
PfcDeadlockDetector::Stuck(const PortState& p, uint8_t prio, Time now) const
{
    return now - p.lastMoveAt >= m_stall && p.sw->GetQueueBytes(p.port, prio) > 0 &&
           p.sw->GetPort(p.port)->IsPaused(prio);
}

PfcDeadlockDetector::View
PfcDeadlockDetector::LocalView(Time now) const
{
    View g;
    g.stuck.assign(m_ports.size(), 0);
    g.xoff.assign(m_ports.size(), 0);
    for (uint32_t i : m_local)
    {
        const PortState& p = m_ports[i];
        for (uint8_t prio = 0; prio < QBB_N_PRIO; prio++)
        {
            g.stuck[i] |= Stuck(p, prio, now) ? 1u << prio : 0u;
            g.xoff[i] |= p.sw->GetMmu().IsXoff(p.port, prio) ? 1u << prio : 0u;
        }
    }
    return g;
}

std::vector<uint32_t>
PfcDeadlockDetector::WaitsFor(const View& g, uint32_t v, uint8_t prio) const
{
    // Stuck queues of the same priority on the switch that holds v's
    // traffic back (its ingress from v's switch is XOFF for prio).
    std::vector<uint32_t> out;
    const PortState& pv = m_ports[v];
    if (pv.peerIndex == UINT32_MAX || !(g.xoff[pv.peerIndex] & (1u << prio)))
    {
        return out;
    }
    auto range = m_switchPorts[pv.peerSwIndex];
    for (uint32_t w = range.first; w < range.second; w++)
    {
        if (g.stuck[w] & (1u << prio))
        {
            out.push_back(w);
        }
    }
    return out;
}

std::vector<PfcDeadlockDetector::Queue>
PfcDeadlockDetector::FindCycle(const View& g) const
{
    // Depth-first over (port, priority) vertices; a vertex met again on the
    // current path closes a cycle.
    const uint32_t n = static_cast<uint32_t>(m_ports.size());
    struct Frame
    {
        uint32_t v;
        std::vector<uint32_t> next;
        size_t i;
    };
    for (uint8_t prio = 0; prio < QBB_N_PRIO; prio++)
    {
        std::vector<uint8_t> color(n, 0); // 0 new, 1 on the path, 2 done
        for (uint32_t start = 0; start < n; start++)
        {
            if (color[start] != 0 || !(g.stuck[start] & (1u << prio)))
            {
                continue;
            }
            std::vector<Frame> path{{start, WaitsFor(g, start, prio), 0}};
            color[start] = 1;
            while (!path.empty())
            {
                Frame& f = path.back();
                if (f.i == f.next.size())
                {
                    color[f.v] = 2;
                    path.pop_back();
                    continue;
                }
                uint32_t w = f.next[f.i++];
                if (color[w] == 1)
                {
                    std::vector<Queue> cycle;
                    size_t k = 0;
                    while (path[k].v != w)
                    {
                        k++;
                    }
                    for (; k < path.size(); k++)
                    {
                        const PortState& q = m_ports[path[k].v];
                        cycle.push_back(Queue{q.sw->GetId(), q.port, prio});
                    }
                    return cycle;
                }
                if (color[w] == 0)
                {
                    color[w] = 1;
                    path.push_back(Frame{w, WaitsFor(g, w, prio), 0});
                }
            }
        }
    }
    return {};
}

void
PfcDeadlockDetector::Found(Time t, std::vector<Queue> cycle)
{
    m_cycle = std::move(cycle);
    m_detectedAt = t;
    NS_LOG_WARN(Describe());
    m_deadlockTrace(t, m_cycle);
    if (m_stopOnDeadlock)
    {
        Simulator::Stop();
    }
    // A deadlock does not resolve itself: nothing more to watch.
    m_done = true;
    m_event.Cancel();
    if (m_armEvent)
    {
        m_armEvent->Cancel();
    }
    m_armed = false;
}

void
PfcDeadlockDetector::AddView(uint64_t t, uint64_t ts, uint64_t key, const uint8_t* data,
                             uint32_t len)
{
    // A view: (port index, stuck priorities, XOFF priorities) per port
    // that has either, as 4 + 1 + 1 bytes.
    Pending& p = m_pending[t];
    if (p.view.stuck.empty())
    {
        p.view.stuck.assign(m_ports.size(), 0);
        p.view.xoff.assign(m_ports.size(), 0);
    }
    for (uint32_t at = 0; at + 6 <= len; at += 6)
    {
        uint32_t i;
        std::memcpy(&i, data + at, 4);
        if (i >= m_ports.size())
        {
            NS_FATAL_ERROR("PfcDeadlockDetector: a peer rank's view names port " << i << " of "
                                                                                  << m_ports.size());
        }
        p.view.stuck[i] |= data[at + 4];
        p.view.xoff[i] |= data[at + 5];
    }
    if (p.searchScheduled)
    {
        return;
    }
    p.searchScheduled = true;
    EventImpl* ev = MakeEvent(&PfcDeadlockDetector::SearchUnion, this, t);
    if (key == UINT64_MAX)
    {
        Simulator::ScheduleWithContext(Simulator::NO_CONTEXT,
                                       TimeStep(static_cast<int64_t>(ts)) - Simulator::Now(), ev);
    }
    else
    {
        m_ranks->InsertKeyed(ts, key, Simulator::NO_CONTEXT, ev);
    }
}

void
PfcDeadlockDetector::RankPort::Deliver(uint64_t ts, uint64_t key, const uint8_t* data, uint32_t len)
{
    uint64_t t;
    if (len < sizeof t)
    {
        NS_FATAL_ERROR("PfcDeadlockDetector: " << len << " bytes from a peer rank are not a view");
    }
    std::memcpy(&t, data, sizeof t);
    m_det->AddView(t, ts, key, data + sizeof t, len - static_cast<uint32_t>(sizeof t));
}

void
PfcDeadlockDetector::SearchUnion(uint64_t t)
{
    auto it = m_pending.find(t);
    if (it == m_pending.end())
    {
        return;
    }
    View g = std::move(it->second.view);
    m_pending.erase(it);
    if (m_done)
    {
        return; // an earlier check's union had a cycle
    }
    std::vector<Queue> cycle = FindCycle(g);
    if (!cycle.empty())
    {
        Found(TimeStep(static_cast<int64_t>(t)), std::move(cycle));
    }
}

void
PfcDeadlockDetector::Check()
{
    m_armed = false;
    m_checks++;
    Time now = Simulator::Now();
    bool anyStuck = false;
    bool anyPaused = false;
    for (uint32_t i : m_local)
    {
        PortState& p = m_ports[i];
        anyPaused = anyPaused || AnyPaused(*p.sw->GetPort(p.port));
        uint64_t d = p.sw->GetDequeuedFrames(p.port);
        if (d != p.dequeued)
        {
            p.dequeued = d;
            // After an idle stretch: the grid point that would have seen
            // the port's last frame leave (a frame at this very step left
            // before this check, one at an earlier grid point after it).
            p.lastMoveAt =
                m_catchUp ? std::min(now, NextGridPoint(p.sw->GetLastDequeueTime(p.port))) : now;
            continue;
        }
        for (uint8_t prio = 0; prio < QBB_N_PRIO && !anyStuck; prio++)
        {
            anyStuck = Stuck(p, prio, now);
        }
    }
    m_catchUp = false;
    if (anyStuck && !m_ranks)
    {
        std::vector<Queue> cycle = FindCycle(LocalView(now));
        if (!cycle.empty())
        {
            Found(now, std::move(cycle));
            return;
        }
    }
    else if (anyStuck)
    {
        // A cycle may run through other ranks' switches: every rank gets
        // this view a lookahead from now (no rank has run that far yet)
        // and searches the union of the views it got for this check.
        View g = LocalView(now);
        std::vector<uint8_t> msg(sizeof(uint64_t));
        uint64_t t = static_cast<uint64_t>(now.GetTimeStep());
        std::memcpy(msg.data(), &t, sizeof t);
        for (uint32_t i : m_local)
        {
            if (g.stuck[i] | g.xoff[i])
            {
                size_t at = msg.size();
                msg.resize(at + 6);
                std::memcpy(msg.data() + at, &i, 4);
                msg[at + 4] = g.stuck[i];
                msg[at + 5] = g.xoff[i];
            }
        }
        uint64_t ts = t + static_cast<uint64_t>(m_viewDelay);
        uint32_t me = Simulator::GetSystemId();
        for (uint32_t r = 0; r < m_rankCount; r++)
        {
            if (r != me)
            {
                m_ranks->SendRemote(r, m_rankPortId, ts, Simulator::NO_CONTEXT, msg.data(),
                                    static_cast<uint32_t>(msg.size()));
            }
        }
        AddView(t, ts, UINT64_MAX, msg.data() + sizeof t,
                static_cast<uint32_t>(msg.size() - sizeof t));
    }
    // Only while there is something else to simulate: the check alone must
    // not keep a run without a stop time going forever. With no port
    // paused nothing can get stuck before the next PAUSE, which re-arms.
    if ((anyPaused || m_alwaysCheck) && !Simulator::IsFinished())
    {
        m_event = Simulator::Schedule(m_interval, &PfcDeadlockDetector::Check, this);
        m_armed = true;
    }
    else
    {
        m_catchUp = true;
    }
}

std::string
PfcDeadlockDetector::Describe() const
{
    if (m_cycle.empty())
    {
        return "";
    }
    std::ostringstream os;
    os << std::fixed << std::setprecision(3) << "PFC deadlock at "
       << m_detectedAt.GetNanoSeconds() / 1000.0 << " us: ";
    for (const Queue& q : m_cycle)
    {
        os << "switch " << q.node << " port " << q.port << " -> ";
    }
    os << "switch " << m_cycle[0].node << " port " << m_cycle[0].port << " (priority "
       << unsigned(m_cycle[0].prio) << "); each paused by the next with bytes queued, no frame sent for "
       << m_stall.GetNanoSeconds() / 1000.0 << " us";
    return os.str();
}

} // namespace ns3
