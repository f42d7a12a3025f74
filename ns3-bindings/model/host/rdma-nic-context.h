// SPDX-License-Identifier: GPL-2.0-only
//
// RdmaNicContext: what an RdmaNic shares with its two sides, RdmaSender and
// RdmaReceiver (rdma-nic.h), instead of letting them reach into the NIC:
// the device the NIC drives, libcc's description of the algorithm its queue
// pairs run, the NIC attributes both sides read, the counters and trace
// sources they feed, and the way back to the NIC's egress (the control
// queue, served before data, and the transmit kick). The NIC owns it and
// outlives both sides; they hold a reference.

#ifndef RDMA_NIC_CONTEXT_H
#define RDMA_NIC_CONTEXT_H

#include "fifo-ring.h"
#include "libcc-config.h"
#include "qbb-net-device.h"
#include "rdma-queue-pair.h"
#include "rocev2-packet.h"

#include <ns3/node.h>
#include <ns3/nstime.h>
#include <ns3/ptr.h>
#include <ns3/traced-callback.h>

#include <cstdint>

namespace ns3
{

/// What an RdmaNic counted (RdmaNic::GetCounters).
struct RdmaNicCounters
{
    uint64_t dataSent = 0;
    uint64_t probesSent = 0;
    uint64_t dataRcvd = 0;
    uint64_t acksSent = 0;
    uint64_t nacksSent = 0;
    uint64_t cnpsSent = 0;
    uint64_t acksRcvd = 0;
    uint64_t nacksRcvd = 0;
    uint64_t cnpsRcvd = 0;
    uint64_t feedbackRcvd = 0; ///< congestion points' rate feedback packets
    uint64_t timeouts = 0;
    uint64_t badPackets = 0; ///< malformed RoCEv2 or unknown queue pair
    uint64_t ccErrors = 0;   ///< calls libcc refused
    uint64_t ipSent = 0;     ///< IPv4 packets of the node's stack sent
    uint64_t ipRcvd = 0;     ///< IPv4 packets (not RoCEv2) handed up to the stack
    uint64_t ipDrops = 0;    ///< IPv4 packets refused: IP queue full
};

struct RdmaNicContext
{
    /// BTH PSN of HPCC++ probes and of the ACKs answering them: how the
    /// sender tells a probe response from a data ACK. Data PSNs skip it.
    static constexpr uint32_t PROBE_PSN = 0xffffff;

    // The host (RdmaNic::Setup).
    Ptr<Node> node;
    Ptr<QbbNetDevice> dev;
    RoceAddr ipBits; ///< the NIC's IPv4 address as frames carry it

    // The congestion control every queue pair uses and libcc's description
    // of it (libcc_algorithm_info): whether data asking for INT (and
    // probes) carry an INT header, the formats (RoceIntHeader::FORMAT_*) of
    // theirs and of every ACK/NACK's, the LIBCC_SIGNAL_* packets carry.
    Ptr<LibccConfig> cc;
    bool dataHasInt = false;
    uint8_t dataIntFormat = RoceIntHeader::FORMAT_HPCC;
    uint8_t ackIntFormat = RoceIntHeader::FORMAT_HPCC;
    uint32_t signals = 0;

    // The NIC's attributes the two sides read (RdmaNic's TypeId).
    uint32_t payload = 1000;
    uint8_t ackPrio = 0;
    Time rto;
    Time nackInterval;

    RdmaNicCounters counters;
    // RdmaNic's trace sources (its TypeId names them, so they stay its members).
    TracedCallback<const RdmaFlowRecord&>* flowComplete = nullptr;
    TracedCallback<uint32_t, uint64_t, uint32_t>* rxDeliver = nullptr;
    TracedCallback<uint32_t, uint64_t, uint32_t, bool>* txData = nullptr;

    // ACK, NACK and CNP frames waiting: the NIC sends them before data (a
    // ring: nothing allocated per ACK once warm).
    FifoRing<QbbFramePtr> ctrl;
    uint64_t ctrlBytes = 0;

    /// libcc's description of cfg's algorithm into the fields above.
    void SetCc(Ptr<LibccConfig> cfg);
    /// Use "none" if no congestion control was set (a flow starts or arrives).
    void EnsureCc();
    /// An empty packet of type carrying the signal fields the algorithm names.
    RocePacketInfo WithSignals(RocePktType type) const;
    /// Wire bytes of a full data packet (no INT) and of its per-packet overhead.
    uint32_t DataWireBytes() const;
    uint32_t DataOverheadBytes() const;

    /// Queue an ACK, NACK or CNP; the device is kicked by the caller.
    void EnqueueControl(QbbFramePtr f)
    {
        ctrlBytes += f->ipBytes;
        ctrl.Push(std::move(f));
    }

    /// Let the device send what is now allowed (libcc-agent.h's re-entry
    /// policy: never called from inside a libcc call).
    void Kick()
    {
        if (dev)
        {
            dev->TriggerTransmit();
        }
    }
};

} // namespace ns3

#endif
