// SPDX-License-Identifier: GPL-2.0-only
//
// SwitchMmu: shared-buffer admission and PFC decisions of one switch.
// Plain C++ (no simulator calls) so the arithmetic is testable alone.
//
// Model (all sizes are frame bytes: Ethernet header + IP packet + FCS):
//   headroom     = Headroom bytes reserved per ingress port (as the HPCC
//                  simulator does), usable by any of its lossless priorities;
//                  one (ingress, priority) may use all of it
//   shared pool  = BufferSize - nPorts x Headroom (if any priority is lossless)
//   threshold T  = PfcStaticThreshold if nonzero, else
//                  PfcAlpha x (shared pool - shared bytes in use)   (dynamic)
// A packet of s bytes from ingress i, priority p, to egress e:
//   lossless p:  if shared(i,p) + s <= T and the pool has room: charged to
//                the shared pool; else, if headroom(i) + s <= Headroom:
//                charged to the headroom of i (and counted for (i,p)); else
//                dropped (headroom overflow - a misconfiguration: too little
//                headroom for the link's bandwidth-delay product).
//                XOFF for (i,p) when a packet is charged to headroom.
//   lossy p:     dropped if egress(e,p) + s > LossyQueueLimit or the pool is
//                full; else charged to the shared pool. Never pauses.
// Release of s bytes of (i,p), whichever packet leaves: min(s, headroom(i,p))
// comes off the headroom, the rest off shared(i,p) and the pool (counters,
// not per-packet charges, so the tail packets that went to headroom do not
// hold XOFF until the queue has drained).
// XON (hysteresis) for (i,p) in XOFF when, after a release, headroom(i,p) is
// empty and shared(i,p) + XonOffset <= T (or shared(i,p) is 0).
//
// With egressScope (an option, for experiments that state one PFC threshold
// for a congested queue, as the FNCC paper's "PFC threshold 500KB" on a
// dumbbell does): the static threshold applies to the egress queue (e,p) a
// lossless packet joins instead of its ingress's share: if egress(e,p) + s
// > T the packet goes to i's headroom and (i,p) goes XOFF, remembering e;
// (i,p) resumes when its headroom is empty and egress(e,p) + XonOffset <= T.
// A release of any packet of (e,p) re-checks every ingress paused for it.
#ifndef SWITCH_MMU_H
#define SWITCH_MMU_H

#include <array>
#include <cstdint>
#include <vector>

namespace ns3
{

class SwitchMmu
{
  public:
    static constexpr uint32_t N_PRIO = 8;

    struct Config
    {
        uint64_t bufferBytes = 12u * 1024 * 1024; //!< total shared buffer
        uint64_t pfcStaticThreshold = 0;          //!< bytes per (ingress, prio); 0: dynamic
        double pfcAlpha = 0.125;                  //!< dynamic threshold factor
        uint64_t headroomBytes = 64 * 1024;       //!< per (ingress, lossless prio)
        uint64_t xonOffsetBytes = 2 * 1538;       //!< hysteresis below T
        uint64_t lossyQueueLimit = 256 * 1024;    //!< per (egress, lossy prio)
        uint8_t losslessMask = 0xFF;              //!< bit p: priority p is lossless
        bool egressScope = false; //!< the static threshold is per egress queue (see above)
    };

    enum class Charge : uint8_t
    {
        SHARED,
        HEADROOM,
        DROPPED,
    };

    /// What an admission or release asks the switch to do about PFC.
    enum class Pfc : uint8_t
    {
        NONE,
        XOFF, //!< send PAUSE out of the ingress port for the priority
        XON,  //!< send RESUME (quanta 0)
    };

    struct Result
    {
        Charge charge = Charge::DROPPED;
        Pfc pfc = Pfc::NONE;
    };

    SwitchMmu();
    /// False if the headroom reservation leaves no shared pool (nPorts x
    /// headroomBytes >= bufferBytes); the MMU is configured anyway.
    bool Configure(const Config& cfg, uint32_t nPorts);
    /// The shared pool cfg leaves on nPorts ports once every port's headroom
    /// is reserved (0: none left, which Configure refuses).
    static uint64_t SharedPoolBytes(const Config& cfg, uint32_t nPorts);
    const Config& GetConfig() const;
    uint32_t GetNPorts() const;

    Result Admit(uint32_t inPort, uint32_t outPort, uint8_t prio, uint32_t bytes);
    /// An admitted packet of `bytes` left egress outPort. Its bytes come off
    /// the headroom of (inPort, prio) first, whatever it was charged to at
    /// admission (a dropped packet was never admitted: nothing to release).
    Pfc Release(uint32_t inPort, uint32_t outPort, uint8_t prio, uint32_t bytes);
    /// With egressScope: after a Release on (outPort, prio), the OTHER ingress
    /// ports paused for that egress queue that may resume now (their XOFF is
    /// cleared; the switch sends the RESUMEs). Appends to resumed.
    void TakeResumes(uint32_t outPort, uint8_t prio, std::vector<uint32_t>& resumed);

    bool IsLossless(uint8_t prio) const;
    bool IsXoff(uint32_t inPort, uint8_t prio) const;
    uint64_t GetThreshold() const;
    uint64_t GetSharedPoolBytes() const;
    uint64_t GetSharedUsed() const;
    uint64_t GetIngressShared(uint32_t inPort, uint8_t prio) const;
    uint64_t GetIngressHeadroom(uint32_t inPort, uint8_t prio) const;
    /// Headroom in use by all priorities of an ingress port.
    uint64_t GetPortHeadroom(uint32_t inPort) const;
    uint64_t GetEgressBytes(uint32_t outPort, uint8_t prio) const;
    uint64_t GetLossyDrops() const;
    uint64_t GetHeadroomDrops() const;

  private:
    Config m_cfg;
    uint32_t m_nPorts;
    uint64_t m_sharedPool;
    uint64_t m_sharedUsed;
    std::vector<std::array<uint64_t, N_PRIO>> m_inShared;
    std::vector<std::array<uint64_t, N_PRIO>> m_inHeadroom;
    std::vector<uint64_t> m_portHeadroom; //!< headroom in use per ingress port
    std::vector<std::array<uint64_t, N_PRIO>> m_egress;
    std::vector<std::array<bool, N_PRIO>> m_xoff;
    /// egressScope: the egress port whose queue paused (i,p).
    std::vector<std::array<uint32_t, N_PRIO>> m_xoffFor;
    /// egressScope: may (in,prio), paused for its egress queue, resume?
    bool EgressAllowsXon(uint32_t in, uint8_t prio) const;
    uint64_t m_lossyDrops;
    uint64_t m_headroomDrops;
};

} // namespace ns3

#endif // SWITCH_MMU_H
