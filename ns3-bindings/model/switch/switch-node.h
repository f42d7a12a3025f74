// SPDX-License-Identifier: GPL-2.0-only
//
// SwitchNode: an output-queued shared-buffer Ethernet switch for RoCEv2. It
// composes four parts, each in its own file:
//   EcmpRouter (ecmp-router.h)  destination -> equal-cost ports, symmetric hash
//   SwitchPort (switch-port.h)  an egress port's queues and scheduler
//   SwitchMmu  (switch-mmu.h)   shared buffer accounting, PFC thresholds
//   SwitchCc   (switch-cc.h)    one libcc Congestion Point per egress port
// and does the rest: admission, PFC PAUSE/RESUME out of the ingress port,
// drop and queue traces (switch-node.cc); the congestion points' set-up and
// timers are switch-node-cc.cc's.
#ifndef SWITCH_NODE_H
#define SWITCH_NODE_H

#include "ecmp-router.h"
#include "qbb-net-device.h"
#include "rocev2-packet.h"
#include "switch-cc.h"
#include "switch-mmu.h"
#include "switch-port.h"

#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include "libcc/libcc.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class SwitchNode : public Node, public QbbFrameReceiver, private SwitchPort::Owner
{
  public:
    static TypeId GetTypeId();
    SwitchNode();
    /// A switch simulated by rank systemId of a distributed run.
    explicit SwitchNode(uint32_t systemId);
    ~SwitchNode() override;

    /**
     * Make dev (already added to this node with AddDevice) a switch port:
     * port number = dev->GetIfIndex(). QbbHelper calls it for SwitchNodes.
     */
    void AttachPort(Ptr<QbbNetDevice> dev);
    /// Ports by number (ifIndex), also the "PortList" attribute (Config paths
    /// .../$ns3::SwitchNode/PortList/<port>/QueueBytes). Every device of a
    /// switch is a port (QbbHelper makes them so).
    uint32_t GetNPorts() const;
    Ptr<QbbNetDevice> GetPort(uint32_t port) const;
    Ptr<SwitchPort> GetSwitchPort(uint32_t port) const;

    /// Add port as one equal-cost next hop towards dst (call once per port,
    /// after the port's link exists: the group is ordered by the peer's id).
    void AddRoute(Ipv4Address dst, uint32_t port);
    void ClearRoutes();
    /// The egress port the switch would use for this 5-tuple; -1 if no route.
    int32_t LookupRoute(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport,
                        uint8_t proto) const;

    /**
     * Congestion control of every egress port: algo is a libcc algorithm
     * name, params libcc_params_parse assignments ("kmin=5KB,kmax=200KB").
     * Aborts (NS_FATAL_ERROR) with libcc's message naming the bad item.
     */
    void SetCongestionControl(const std::string& algo, const std::string& params);
    /// Returns libcc's error code instead of aborting; err gets the message.
    int TrySetCongestionControl(const std::string& algo, const std::string& params,
                                std::string& err);
    /// Use a copy of params (the hosts' own values, no text round trip).
    void SetCongestionControl(const libcc_params* params);
    /// Ports whose link rate is rateBps use a copy of params instead
    /// (per-rate marking thresholds); nullptr: back to the switch's set.
    void SetCongestionControlForRate(uint64_t rateBps, const libcc_params* params);
    /// The parameter set of port's Congestion Point (nullptr: none, or not
    /// built yet: CheckCongestionControl builds them).
    const libcc_params* GetCpParams(uint32_t port) const;
    /**
     * Create the ports' Congestion Points now. False if libcc refuses a
     * port, e.g. a link rate the algorithm's INT format cannot carry; err
     * names the switch, port and rate. Call it before the run to refuse a
     * configuration instead of running without congestion control; the
     * switch aborts at its first packet otherwise.
     */
    bool CheckCongestionControl(std::string& err);
    /**
     * Whether BufferSize leaves a shared pool once HeadroomBytes is reserved
     * on every port; false + err naming the switch and the numbers. Call it
     * before the run; the switch aborts at its first packet otherwise.
     */
    bool CheckBuffer(std::string& err) const;
    /// The CP of an egress port (nullptr before set-up / without CC).
    const libcc_cp* GetCp(uint32_t port) const;
    /// This switch's shared INT table (nullptr unless the algorithm has one).
    const libcc_int_table* GetIntTable() const;

    /**
     * Hops from this switch to the nearest non-switch node (a host): 1 for a
     * ToR/leaf, 2 for an aggregation/spine, 3 for a core; 0 if no host is
     * reachable. Walks the links on every call.
     */
    uint32_t GetTier() const;
    /// The seed the ECMP hash uses: EcmpSeed, mixed with the tier if EcmpTierSalt.
    uint32_t GetEffectiveEcmpSeed() const;

    /// The symmetric 5-tuple hash: equal for (s,d,sp,dp,p) and (d,s,dp,sp,p).
    static uint32_t SymmetricHash(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport,
                                  uint8_t proto, uint32_t seed);

    const SwitchMmu& GetMmu() const;
    /// Bytes in the egress queue of (port, prio), both classes (frame bytes).
    uint64_t GetQueueBytes(uint32_t port, uint8_t prio) const;
    /// Bytes in all queues of a port.
    uint64_t GetPortQueueBytes(uint32_t port) const;
    /// The most bytes a port's queues held together since the start or the
    /// last ResetPortPeakQueueBytes (0 for no such port).
    uint64_t GetPortPeakQueueBytes(uint32_t port) const;
    /// Start a port's peak anew from the bytes it holds now (a measurement
    /// window; a no-op for no such port).
    void ResetPortPeakQueueBytes(uint32_t port);
    /// Frames a port has sent from its queues so far (PAUSE frames not counted).
    uint64_t GetDequeuedFrames(uint32_t port) const;
    /// When a port last sent a frame from its queues (0 if never).
    Time GetLastDequeueTime(uint32_t port) const;
    uint64_t GetDrops() const;
    uint64_t GetEcnMarks() const;
    uint64_t GetIntStamps() const;
    uint64_t GetNoRouteDrops() const;
    /// Rate feedback packets this switch sent (LIBCC_SIGNAL_CP_FEEDBACK).
    uint64_t GetFeedbackSent() const
    {
        return m_feedbackSent;
    }
    /// Frames dropped because their IPv4 TTL ran out.
    uint64_t GetTtlDrops() const
    {
        return m_ttlDrops;
    }
    /// Use stream numbers from `stream` for the CPs' randomness; returns how many (1).
    int64_t AssignStreams(int64_t stream);

    /// Signature of "QueueBytes": egress port, priority, bytes now in the queue.
    typedef void (*QueueBytesCallback)(uint32_t port, uint8_t prio, uint64_t bytes);
    /// Signature of "PfcEvent": time, node id, port the PAUSE went out of, priority, 1 pause / 0
    /// resume.
    typedef void (*PfcEventCallback)(Time t, uint32_t node, uint32_t port, uint8_t prio,
                                     bool pause);
    /// Signature of "Drop": packet, ingress port, egress port, priority.
    typedef void (*DropCallback)(Ptr<const Packet> p, uint32_t inPort, uint32_t outPort,
                                 uint8_t prio);

  protected:
    void DoInitialize() override;
    void DoDispose() override;

  private:
    void ReceiveFrame(QbbNetDevice* dev, QbbFramePtr&& frame) override;
    void OnDequeued(SwitchPort& port, SwitchPort::Entry& e, uint8_t prio) override;
    void EnsureSetup();
    SwitchMmu::Config MmuConfig() const;
    void SetupCc();
    void Drop(const QbbFrame& f, uint32_t in, uint32_t out, uint8_t prio);
    /// Fire the QueueBytes traces (the switch's, the port's) for (port,
    /// prio) if they have sinks; whether one had: user code may have run.
    bool TraceQueue(SwitchPort& port, uint32_t idx, uint8_t prio);
    /// Route, admit and queue a frame that came in on port `in` (or that
    /// this switch made on behalf of a frame that did).
    void Forward(QbbFramePtr f, uint32_t in);
    /// Queue a rate feedback packet to the source of data frame `data`
    /// (which came in on port `in`), sent by the CP of port `port`.
    void QueueFeedback(const RocePacketInfo& data, uint32_t in, uint32_t port, uint64_t rateBps);
    /// Queue a rate feedback packet to flow `to`'s source, sent by port's CP.
    void QueueFeedbackTo(const SwitchCc::FlowAddr& to, uint32_t port, uint64_t rateBps);
    /// (Re)schedule the timers of the ports whose CP has one (libcc asks
    /// for it through libcc_cp_deadline_ns); this rank's switches only.
    void ArmCpTimers();
    /// Port's CP timer fired: run it, send the feedback it asks for, and
    /// schedule the next; a timer of an earlier arming (gen) does nothing.
    void CpTimer(uint32_t port, uint64_t gen);
    /// Schedule CpTimer(port, gen) at the port's CP deadline (now if past),
    /// on this switch's context; nothing if the CP has none.
    void ScheduleCpTimer(uint32_t port, uint64_t gen);
    /// Forward the feedback packets queued so far.
    void FlushFeedback();
    void OnMmuPfc(uint32_t port, uint8_t prio, bool pause);
    void RefreshPause(uint32_t port, uint8_t prio);

    std::vector<Ptr<SwitchPort>> m_ports;
    EcmpRouter m_router;
    bool m_routerSeeded; //!< the router has the seed of the current topology
    SwitchMmu m_mmu;
    bool m_mmuConfigured;
    SwitchCc m_cc;

    // attributes
    uint32_t m_ecmpSeed;
    bool m_ecmpTierSalt;
    uint16_t m_pauseQuanta;
    uint64_t m_bufferBytes;
    uint64_t m_pfcStaticThreshold;
    double m_pfcAlpha;
    uint64_t m_headroomBytes;
    uint64_t m_xonOffsetBytes;
    uint64_t m_lossyQueueLimit;
    uint8_t m_losslessMask;
    bool m_pfcEgressScope;
    std::vector<uint32_t> m_resumed; //!< scratch for SwitchMmu::TakeResumes

    uint8_t m_feedbackPrio;
    /// Feedback packets waiting to be forwarded, with their ingress port.
    std::vector<std::pair<QbbFramePtr, uint32_t>> m_feedback;
    bool m_feedbackFlushPending;
    uint64_t m_cpTimerGen = 0; //!< arming of the CP timers that runs

    uint64_t m_drops;
    uint64_t m_noRoute;
    uint64_t m_feedbackSent;
    uint64_t m_ttlDrops;

    TracedCallback<uint32_t, uint8_t, uint64_t> m_queueTrace;
    TracedCallback<Time, uint32_t, uint32_t, uint8_t, bool> m_pfcTrace;
    TracedCallback<Ptr<const Packet>, uint32_t, uint32_t, uint8_t> m_dropTrace;
};

} // namespace ns3

#endif // SWITCH_NODE_H
