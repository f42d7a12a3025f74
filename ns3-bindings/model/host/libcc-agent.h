// SPDX-License-Identifier: GPL-2.0-only
//
// C++ owners of libcc's Reaction Point and Notification Point that map libcc's
// deadlines onto ns-3 events. libcc owns no timers: it reports the next time
// it must be called through deadline_changed; we keep exactly one pending
// ns-3 event per object, cancelled and re-scheduled whenever that time moves.
//
// Re-entry policy, the same for every libcc callback: a callback only
// records (a new rate, a window, a probe or a CNP to send); it never calls
// into the device or back into libcc. Whoever made the libcc call acts on
// what was recorded once the call returned: the NIC after an ACK, CNP or data
// packet it handed to libcc, and these classes, through their `wake`
// callback, after a timer call (nobody else is there to look).

#ifndef LIBCC_AGENT_H
#define LIBCC_AGENT_H

#include <ns3/callback.h>
#include <ns3/event-id.h>
#include <ns3/nstime.h>
#include <ns3/simulator.h>

#include "sim-fast.h"

#include <libcc/libcc.h>

namespace ns3
{

/// ns time as libcc wants it, whatever the simulator's time resolution
/// (tests run with ps resolution). SimNowNs is inline under
/// FastSimulatorImpl (called per packet) and converts as Time does, so the
/// result is Simulator::Now().GetNanoSeconds()'s to the step.
inline uint64_t
LibccNow()
{
    return static_cast<uint64_t>(SimNowNs());
}

/// Now in ps (the NIC paces in ps so rounding never costs throughput).
inline uint64_t
NowPs()
{
    return static_cast<uint64_t>(SimNowPs());
}

/// The delay from now to atPs (0 if it has passed), rounded up to a whole
/// time step when the resolution is coarser than ps: what is scheduled with
/// it never runs before atPs (a pacer's next departure, a NIC timer).
inline Time
DelayUntilPs(uint64_t atPs)
{
    uint64_t nowPs = NowPs();
    uint64_t delayPs = atPs > nowPs ? atPs - nowPs : 0;
    Time delay = PicoSeconds(delayPs);
    if (static_cast<uint64_t>(delay.GetPicoSeconds()) < delayPs)
    {
        delay += TimeStep(1);
    }
    return delay;
}

/// One flow's Reaction Point. Not copyable; lives as long as its queue pair.
class LibccRp
{
  public:
    /// rate: called with the new pacing rate (bits/s); window: with the new
    /// window (bytes, LIBCC_WINDOW_UNLIMITED for none); probe: HPCC++ probe;
    /// wake: after a timer call in which any of those fired.
    LibccRp(const libcc_params* params, const libcc_flow_info& flow, Callback<void, uint64_t> rate,
            Callback<void, uint64_t> window, Callback<void> probe, Callback<void> wake);
    ~LibccRp();
    LibccRp(const LibccRp&) = delete;
    LibccRp& operator=(const LibccRp&) = delete;

    void OnAck(const libcc_ack& ack);
    void OnNack(const libcc_ack& nack);
    void OnCnp();
    void OnFeedback(const libcc_feedback& fb);
    /// The flow's retransmission timer expired (libcc_rp_on_timeout).
    void OnTimeout();
    /// The retransmission timeout libcc wants for the flow (ns); 0: none.
    uint64_t GetRto() const;
    /// Returns libcc's tx flags (LIBCC_TX_REQUEST_INT).
    unsigned OnTx(uint64_t seq, uint32_t bytes);

    uint64_t GetRate() const;
    uint64_t GetWindow() const;
    libcc_rp* Raw() const
    {
        return m_rp;
    }
    /// Calls that libcc refused (should stay 0; tests check it).
    uint64_t GetErrors() const
    {
        return m_errors;
    }
    /// The last libcc error code (0 if none).
    int GetLastError() const
    {
        return m_lastError;
    }
    /// Pending deadline event, for tests of the timer mapping.
    const EventId& GetTimerEvent() const
    {
        return m_timer;
    }
    uint64_t GetTimerReschedules() const
    {
        return m_reschedules;
    }

  private:
    static void CbRate(libcc_rp* rp, uint64_t now, uint64_t rate, void* self);
    static void CbWindow(libcc_rp* rp, uint64_t now, uint64_t window, void* self);
    static void CbDeadline(libcc_rp* rp, uint64_t deadline, void* self);
    static void CbProbe(libcc_rp* rp, uint64_t now, void* self);
    void OnTimer();
    void Check(int rc);

    libcc_rp* m_rp;
    EventId m_timer;
    uint64_t m_timerAt;
    uint64_t m_reschedules;
    uint64_t m_errors;
    int m_lastError;
    Callback<void, uint64_t> m_rateCb;
    Callback<void, uint64_t> m_windowCb;
    Callback<void> m_probeCb;
    Callback<void> m_wakeCb;
    bool m_fired; //!< a rate/window/probe callback fired in the current call
};

/// One receiving NIC's Notification Point.
class LibccNp
{
  public:
    /// cnp: called with libcc's flow id when a CNP must be sent; wake: after
    /// a timer call in which cnp fired.
    LibccNp(const libcc_params* params, const libcc_np_info& info, Callback<void, uint64_t> cnp,
            Callback<void> wake);
    ~LibccNp();
    LibccNp(const LibccNp&) = delete;
    LibccNp& operator=(const LibccNp&) = delete;

    /// Fills *verdict; returns false if libcc refused the packet.
    bool OnData(const libcc_data_pkt& pkt, libcc_np_verdict* verdict);
    void FlowEnd(uint64_t flowId);
    uint32_t ActiveFlows() const;
    uint64_t GetErrors() const
    {
        return m_errors;
    }
    int GetLastError() const
    {
        return m_lastError;
    }

  private:
    static void CbCnp(libcc_np* np, uint64_t now, uint64_t flow, void* self);
    static void CbDeadline(libcc_np* np, uint64_t deadline, void* self);
    void OnTimer();

    libcc_np* m_np;
    EventId m_timer;
    uint64_t m_timerAt;
    uint64_t m_errors;
    int m_lastError;
    Callback<void, uint64_t> m_cnpCb;
    Callback<void> m_wakeCb;
    bool m_fired;
};

} // namespace ns3

#endif
