// SPDX-License-Identifier: GPL-2.0-only
//
// SwitchCc: a switch's congestion-control glue. One libcc Congestion Point
// per egress port and, when the algorithm asks for one, the switch's shared
// INT table. It hands libcc each frame at enqueue and at dequeue and applies
// what libcc decided (a CE mark, an INT hop); every decision is libcc's.

#ifndef SWITCH_CC_H
#define SWITCH_CC_H

#include "qbb-frame.h"
#include "switch-port.h"

#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include "libcc/libcc.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class SwitchCc
{
  public:
    SwitchCc();
    ~SwitchCc();
    SwitchCc(const SwitchCc&) = delete;
    SwitchCc& operator=(const SwitchCc&) = delete;

    /// Use a copy of params; nullptr: no congestion control. Drops the CPs.
    void SetParams(const libcc_params* params);
    const libcc_params* GetParams() const
    {
        return m_params;
    }
    /// CPs draw from rng (nullptr: libcc's own generator). Drops the CPs.
    void SetRandom(Ptr<UniformRandomVariable> rng);

    /**
     * Create the CPs: portRates[i] is the rate of port i (0: no port there).
     * False when libcc refuses a port (a rate the algorithm's INT format
     * cannot carry): err names the switch, the port and the rate.
     */
    bool Build(uint32_t switchId, const std::vector<uint64_t>& portRates, std::string& err);
    bool IsBuilt() const
    {
        return m_built;
    }
    /// The CPs are out of date (a port was added): Build again before use.
    void Invalidate()
    {
        m_built = false;
    }
    void Free();

    /// e is about to join queue (port, prio) holding queueBytes (portBytes in
    /// the whole port): libcc may CE-mark it.
    void OnEnqueue(uint32_t port, SwitchPort::Entry& e, uint64_t queueBytes, uint64_t portBytes);
    /// e left queue (port, prio), which now holds queueBytes (portBytes in
    /// the whole port): libcc may CE-mark it or append an INT hop.
    void OnDequeue(uint32_t port, SwitchPort::Entry& e, uint64_t queueBytes, uint64_t portBytes);

    const libcc_cp* GetCp(uint32_t port) const
    {
        return port < m_cps.size() ? m_cps[port] : nullptr;
    }
    const libcc_int_table* GetIntTable() const
    {
        return m_intTable;
    }
    uint64_t GetEcnMarks() const
    {
        return m_ecnMarks;
    }
    uint64_t GetIntStamps() const
    {
        return m_intStamps;
    }

  private:
    static uint64_t Rand(void* self);
    /// Apply libcc's decisions on e's frame.
    void Apply(SwitchPort::Entry& e, const libcc_cp_pkt& pkt);

    libcc_params* m_params;
    std::vector<libcc_cp*> m_cps; //!< by port index; nullptr: no port
    libcc_int_table* m_intTable;
    Ptr<UniformRandomVariable> m_rng;
    bool m_built;
    uint32_t m_hopBytes; //!< wire bytes of a hop libcc stamps
    uint64_t m_ecnMarks;
    uint64_t m_intStamps;
};

} // namespace ns3

#endif
