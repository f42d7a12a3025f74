// SPDX-License-Identifier: GPL-2.0-only
//
// SwitchNode: an output-queued shared-buffer Ethernet switch for RoCEv2.
//
// Forwarding: by destination IPv4 with ECMP over the equal-cost ports added
// with AddRoute, chosen by a SYMMETRIC 5-tuple hash (see SymmetricHash), so a
// flow's data and its ACKs use the same switches in reverse order when the
// topology is symmetric. Equal-cost ports of one destination are kept sorted
// by the id of the node at their other end, so two switches that see the
// same set of next-hop nodes pick the same one for a flow.
//
// Per egress port: 8 priorities x 2 classes (control: ACK/NACK/CNP, served
// first by strict priority; data: served round-robin among priorities that
// are not paused). The MMU (switch-mmu.h) accounts bytes per (ingress,
// priority) and sends PFC upstream for lossless priorities.
//
// Congestion control: one libcc Congestion Point per egress port
// (SetCongestionControl): ECN CE marking (DCQCN), INT stamping of DATA at
// dequeue (HPCC), ingress-port tagging of ACKs and All_INT_Table records at
// egress (FNCC: one libcc_int_table per switch).
#ifndef SWITCH_NODE_H
#define SWITCH_NODE_H

#include "qbb-net-device.h"
#include "rocev2-packet.h"
#include "switch-mmu.h"

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

class SwitchNode : public Node, public QbbFrameReceiver
{
  public:
    static TypeId GetTypeId();
    SwitchNode();
    ~SwitchNode() override;

    /**
     * Make dev (already added to this node with AddDevice) a switch port:
     * port number = dev->GetIfIndex(). QbbHelper calls it for SwitchNodes.
     */
    void AttachPort(Ptr<QbbNetDevice> dev);
    uint32_t GetNPorts() const;
    Ptr<QbbNetDevice> GetPort(uint32_t port) const;

    /// Add port as one equal-cost next hop towards dst (call once per port).
    void AddRoute(Ipv4Address dst, uint32_t port);
    void ClearRoutes();
    /// The egress port the switch would use for this 5-tuple; -1 if no route.
    int32_t LookupRoute(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport,
                        uint8_t proto) const;

    /**
     * Congestion control of every egress port: algo is a libcc algorithm
     * name ("none", "dcqcn", "hpcc", "hpcc++", "fncc"), params are
     * libcc_params_parse assignments ("kmin=5KB,kmax=200KB,pmax=0.2").
     * Throws (NS_FATAL_ERROR) with libcc's message naming the bad item.
     */
    void SetCongestionControl(const std::string& algo, const std::string& params);
    /// Returns libcc's error code instead of aborting; err gets the message.
    int TrySetCongestionControl(const std::string& algo, const std::string& params,
                                std::string& err);
    /// The CP of an egress port (nullptr before the first packet / without CC).
    const libcc_cp* GetCp(uint32_t port) const;
    /// This switch's FNCC All_INT_Table (nullptr unless algo is fncc).
    const libcc_int_table* GetIntTable() const;

    /**
     * Hops from this switch to the nearest non-switch node (a host): 1 for a
     * ToR/leaf, 2 for an aggregation/spine, 3 for a core. Computed by walking
     * the links when routes are (re)built; 0 if no host is reachable.
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
    uint64_t GetDrops() const;
    uint64_t GetEcnMarks() const;
    uint64_t GetIntStamps() const;
    uint64_t GetNoRouteDrops() const;
    /// INT hops libcc asked for that the wire format could not encode (rate not in its table).
    uint64_t GetIntEncodeErrors() const;
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
    class Port;
    struct RouteSlot
    {
        uint32_t key = 0;   //!< destination address (host order)
        uint32_t group = 0; //!< index into m_groups + 1; 0 = empty slot
    };

    void ReceiveFrame(QbbNetDevice* dev, QbbFramePtr frame) override;
    QbbFramePtr Dequeue(uint32_t port, const std::array<bool, QBB_N_PRIO>& paused,
                        uint8_t& prioOut);
    void EnsureSetup();
    void BuildCps();
    void FreeCps();
    void RebuildRouteIndex();
    uint32_t ComputeTier() const;
    void OnMmuPfc(uint32_t port, uint8_t prio, bool pause);
    void RefreshPause(uint32_t port, uint8_t prio);
    static uint64_t RandForCp(void* user);

    std::vector<std::unique_ptr<Port>> m_ports;
    SwitchMmu m_mmu;

    // routing: open addressing on dst, groups of equal-cost ports
    std::vector<std::vector<uint32_t>> m_groups;
    std::vector<uint32_t> m_groupDst;
    mutable std::vector<RouteSlot> m_routeIndex;
    mutable uint32_t m_routeMask;
    mutable bool m_routesDirty;

    // congestion control
    libcc_params* m_ccParams;
    libcc_int_table* m_intTable;
    bool m_cpsBuilt;
    uint32_t m_maxHops; //!< the CC's max_hops: a list this long gets no stamp
    Ptr<UniformRandomVariable> m_rng;

    // attributes
    uint32_t m_ecmpSeed;
    bool m_ecmpTierSalt;
    mutable uint32_t m_tier;
    mutable uint32_t m_ecmpSeedEff;
    uint16_t m_pauseQuanta;
    uint64_t m_bufferBytes;
    uint64_t m_pfcStaticThreshold;
    double m_pfcAlpha;
    uint64_t m_headroomBytes;
    uint64_t m_xonOffsetBytes;
    uint64_t m_lossyQueueLimit;
    uint8_t m_losslessMask;
    bool m_mmuConfigured;

    uint64_t m_drops;
    uint64_t m_ecnMarks;
    uint64_t m_intStamps;
    uint64_t m_noRoute;
    uint64_t m_intEncodeErrors;
    /// The hop list the CP appends to: zeroed once, only n_hops is set per
    /// packet (upstream records are not decoded; see Dequeue).
    libcc_int_list m_cpInts;

    TracedCallback<uint32_t, uint8_t, uint64_t> m_queueTrace;
    TracedCallback<Time, uint32_t, uint32_t, uint8_t, bool> m_pfcTrace;
    TracedCallback<Ptr<const Packet>, uint32_t, uint32_t, uint8_t> m_dropTrace;

    friend class Port;
};

} // namespace ns3

#endif // SWITCH_NODE_H
