// SPDX-License-Identifier: GPL-2.0-only
//
// RdmaNetwork: builds a RoCEv2 network of SwitchNodes and RDMA hosts from a
// topology (rdma-topology.h: read from an HPCC-format file, or a dumbbell,
// chain or k-ary fat-tree), installs shortest-path
// ECMP routes, one libcc algorithm on every host and switch, and flows.
// Node ids are the topology's ids; hosts get the HPCC simulator's addresses
// (11.x.y.1) so fct files match that simulator's.

#ifndef RDMA_NETWORK_H
#define RDMA_NETWORK_H

#include "libcc-config.h"
#include "pfc-deadlock-detector.h"
#include "qbb-net-device.h"
#include "rdma-nic.h"
#include "rdma-topology.h"
#include "switch-node.h"

#include <ns3/ipv4-interface-container.h>
#include <ns3/node.h>
#include <ns3/object-factory.h>

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class RdmaNetwork
{
  public:
    /// A flow's source port: the HPCC simulator's, per (src, dst) pair from
    /// this, in flow order; a pair's 55,537th flow is refused (AddFlow).
    static constexpr uint32_t FIRST_SPORT = 10000;
    /// Links with an error rate: the loss draws of link i's ends use ns-3
    /// streams LOSS_STREAM_BASE + 2i and + 2i + 1.
    static constexpr int64_t LOSS_STREAM_BASE = 1000000;

    RdmaNetwork();

    /// Congestion control of every host and switch: algorithm name and
    /// libcc "name=value" assignments. Throws std::invalid_argument naming
    /// the bad parameter. Call before Build.
    void SetCongestionControl(const std::string& algorithm, const std::string& params = "");
    /// Or a prepared configuration (attributes already set).
    void SetCongestionControl(Ptr<LibccConfig> cfg, const std::string& params = "");
    Ptr<LibccConfig> GetCcConfig() const
    {
        return m_cc;
    }
    /**
     * Switch ports whose link rate is rateBps take the congestion control's
     * parameters with these libcc assignments applied on top (per-rate ECN
     * thresholds, for example), hosts and other ports keep the base set.
     * Checked by libcc here against the base set given so far and again in
     * Build; throws std::invalid_argument naming the rate and libcc's
     * complaint. Empty assignments remove the override.
     */
    void SetCongestionControlForRate(uint64_t rateBps, const std::string& assignments);
    /// The base set with rateBps's assignments applied (a new copy the
    /// caller frees with libcc_params_del); nullptr if the rate has none.
    libcc_params* MakeRateParams(uint64_t rateBps) const;
    /**
     * After Build, before the simulation runs: every switch port's
     * parameters (the base set, or its rate's) with these libcc assignments
     * applied on top, for values known only once the fabric is (its largest
     * base RTT, for example); hosts keep theirs. Throws
     * std::invalid_argument with libcc's complaint.
     */
    void AddSwitchCongestionControl(const std::string& assignments);
    /// Attributes of every SwitchNode, RdmaNic, QbbNetDevice made by Build.
    void SetSwitchAttribute(const std::string& name, const AttributeValue& v);
    void SetNicAttribute(const std::string& name, const AttributeValue& v);
    /// Attributes of the PfcDeadlockDetector Build installs (StallTime, ...).
    void SetDeadlockDetectorAttribute(const std::string& name, const AttributeValue& v);
    /// A program's --deadlockStall / --deadlockContinue as those attributes.
    void SetDeadlockOptions(const PfcDeadlockOptions& o);
    /// The detector watching every switch (nullptr before Build).
    Ptr<PfcDeadlockDetector> GetDeadlockDetector() const
    {
        return m_deadlock;
    }

    /**
     * A distributed run (docs/distributed.md): rank of each topology node
     * (PartitionTopology, ReadPartitionFile). Build gives every node its
     * rank as system id, every rank builds the whole network, and each link
     * between ranks carries its frames to the peer rank. Call before Build;
     * empty (the default): every node on rank 0.
     */
    void SetPartition(const std::vector<uint32_t>& rankOf);
    /// Rank of a topology node (0 without a partition).
    uint32_t GetRank(uint32_t id) const
    {
        return m_rankOf.empty() ? 0 : m_rankOf[id];
    }
    /// Whether this process simulates the node (its rank is Simulator::GetSystemId()).
    bool IsLocal(uint32_t id) const;

    /// Create the nodes, links and routes of a topology.
    void Build(const TopologySpec& topo);
    const TopologySpec& GetTopology() const
    {
        return m_topo;
    }

    uint32_t GetNNodes() const
    {
        return m_nodes.size();
    }
    bool IsSwitch(uint32_t id) const
    {
        return m_topo.isSwitch[id];
    }
    Ptr<Node> GetNode(uint32_t id) const
    {
        return m_nodes[id];
    }
    Ptr<SwitchNode> GetSwitch(uint32_t id) const;
    Ptr<RdmaNic> GetNic(uint32_t hostId) const;
    /// Topology id of an ns-3 node (UINT32_MAX if not ours).
    uint32_t TopoId(Ptr<const Node> node) const;
    /// The device of node a on its link to node b (nullptr if none).
    Ptr<QbbNetDevice> GetLinkDevice(uint32_t a, uint32_t b) const;
    /// Every device, in link order, both ends.
    const std::vector<Ptr<QbbNetDevice>>& GetDevices() const
    {
        return m_devices;
    }

    /// One shortest path's properties between two hosts (the one ECMP's
    /// lowest-id choice would take; fat-tree paths are all alike).
    struct PathInfo
    {
        uint32_t links = 0;
        uint64_t propNs = 0; ///< one way
        uint64_t bottleneckBps = 0;
        uint64_t baseRttNs = 0; ///< full data packet out + ACK back, empty network
        /// The HPCC simulator's base RTT of the pair (third.cc's pairRtt):
        /// 2 x propagation + one payload (no headers) serialized per hop,
        /// each hop's ns rounded down; no ACK time.
        uint64_t hpccBaseRttNs = 0;
        std::vector<uint32_t> nodes;
    };
    PathInfo GetPath(uint32_t src, uint32_t dst) const;

    /// One T for every flow's libcc (the HPCC simulator's GLOBAL_T 1):
    /// GetMaxHpccSimRtt() instead of each path's base RTT. The ideal FCT
    /// keeps the path's. Call before AddFlow.
    void SetGlobalBaseRtt(bool on)
    {
        m_globalBaseRtt = on;
    }
    /// The largest hpccBaseRttNs over every pair of hosts (that simulator's
    /// maxRtt). Call after Build.
    uint64_t GetMaxHpccSimRtt() const;

    /// Install one flow (start time relative to now); returns its sender QP.
    Ptr<RdmaTxQueuePair> AddFlow(const FlowSpec& f, uint32_t flowId);
    /// AddFlow for each, numbered in order. A flow refused (no path, not two
    /// hosts, ...) throws std::invalid_argument whose message starts with
    /// "FILE:LINE: " when fileName is given and the flow has its line.
    void AddFlows(const std::vector<FlowSpec>& flows, const std::string& fileName = "");
    const std::vector<Ptr<RdmaTxQueuePair>>& GetFlows() const
    {
        return m_flows;
    }

    /**
     * IPv4 beside RDMA (docs/ns3-bindings.md, "IP traffic beside RDMA"):
     * InternetStackHelper (IPv4 only) on every host, never on a switch, and
     * on each host's fabric device the address the switches route on, the
     * host's own (GetHostAddress), in one /8: every host is on-link to
     * every other, so hosts need no other route (and
     * Ipv4GlobalRoutingHelper::PopulateRoutingTables() finds nothing to add
     * but does not fail). ns-3's default traffic control (as
     * Ipv4AddressHelper installs it) goes on each fabric device. Call after
     * Build, once. Returns the interfaces in host id order.
     */
    Ipv4InterfaceContainer InstallInternetStack();
    /// The address of a host on the fabric (11.x.y.1, the HPCC simulator's).
    Ipv4Address GetHostAddress(uint32_t hostId) const;

    /// Pcap of every device through QbbHelper (ns-3's PcapHelperForDevice):
    /// <prefix>-<node id>-<device id>.pcap; over ranks, of this rank's nodes.
    void EnablePcap(const std::string& prefix) const;

  private:
    void BuildRoutes();

    TopologySpec m_topo;
    Ptr<LibccConfig> m_cc;
    std::string m_ccParams;
    std::map<uint64_t, std::string> m_rateCc; ///< SetCongestionControlForRate
    bool m_globalBaseRtt = false;
    ObjectFactory m_switchFactory;
    /// SetSwitchAttribute's values, set on each switch made with its rank.
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_switchAttrs;
    std::vector<uint32_t> m_rankOf;
    ObjectFactory m_nicFactory;
    ObjectFactory m_deadlockFactory;
    Ptr<PfcDeadlockDetector> m_deadlock;
    std::vector<Ptr<Node>> m_nodes;
    uint32_t m_firstNodeId;
    std::vector<Ptr<QbbNetDevice>> m_devices;
    /// per node: (neighbour, device, link index)
    struct Adj
    {
        uint32_t peer;
        Ptr<QbbNetDevice> dev;
        uint32_t link;
    };
    std::vector<std::vector<Adj>> m_adj;
    /// hop distance to each host: m_dist[hostIndex][node]
    std::vector<std::vector<uint16_t>> m_dist;
    std::vector<uint32_t> m_hostIndex;
    /// next source port per (src << 32 | dst)
    std::unordered_map<uint64_t, uint32_t> m_nextSport;
    std::vector<Ptr<RdmaTxQueuePair>> m_flows;
    mutable uint64_t m_maxHpccSimRtt = 0; ///< cached GetMaxHpccSimRtt
};

} // namespace ns3

#endif
