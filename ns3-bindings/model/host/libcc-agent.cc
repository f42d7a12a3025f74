// SPDX-License-Identifier: GPL-2.0-only

#include "libcc-agent.h"

#include "ns3/log.h"
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LibccAgent");

namespace
{

// Moves `timer` to fire at `deadline` (LIBCC_NO_DEADLINE: never). Keeps the
// pending event when the time did not change: libcc may repeat a deadline
// on every ACK, and an ns-3 event costs an allocation.
template <typename F>
bool
MoveTimer(EventId& timer, uint64_t& timerAt, uint64_t deadline, F fire)
{
    if (timer.IsRunning() && timerAt == deadline)
    {
        return false;
    }
    timer.Cancel();
    timerAt = deadline;
    if (deadline == LIBCC_NO_DEADLINE)
    {
        return true;
    }
    uint64_t now = LibccNow();
    Time delay = NanoSeconds(deadline > now ? deadline - now : 0);
    timer = Simulator::Schedule(delay, fire);
    return true;
}

} // namespace

LibccRp::LibccRp(const libcc_params* params, const libcc_flow_info& flow,
                 Callback<void, uint64_t> rate, Callback<void, uint64_t> window,
                 Callback<void> probe, Callback<void> wake)
    : m_rp(nullptr)
    , m_timerAt(LIBCC_NO_DEADLINE)
    , m_reschedules(0)
    , m_errors(0)
    , m_lastError(0)
    , m_rateCb(rate)
    , m_windowCb(window)
    , m_probeCb(probe)
    , m_wakeCb(wake)
    , m_fired(false)
{
    NS_LOG_FUNCTION(this << flow.flow_id << flow.line_rate_bps << flow.base_rtt_ns);
    libcc_rp_callbacks cbs{};
    cbs.rate_changed = &LibccRp::CbRate;
    cbs.window_changed = &LibccRp::CbWindow;
    cbs.deadline_changed = &LibccRp::CbDeadline;
    cbs.send_probe = &LibccRp::CbProbe;
    int rc = libcc_rp_new(&m_rp, params, &flow, &cbs, this, LibccNow());
    if (rc != LIBCC_OK)
    {
        throw std::invalid_argument(std::string("libcc_rp_new: ") + libcc_strerror(rc));
    }
    // An initial deadline came through deadline_changed inside
    // libcc_rp_new (before m_rp was set): the timer is armed already.
}

LibccRp::~LibccRp()
{
    m_timer.Cancel();
    libcc_rp_del(m_rp);
}

void
LibccRp::Check(int rc)
{
    if (rc != LIBCC_OK)
    {
        m_errors++;
        m_lastError = rc;
    }
}

void
LibccRp::OnAck(const libcc_ack& ack)
{
    Check(libcc_rp_on_ack(m_rp, LibccNow(), &ack));
}

void
LibccRp::OnNack(const libcc_ack& nack)
{
    Check(libcc_rp_on_nack(m_rp, LibccNow(), &nack));
}

void
LibccRp::OnTimeout()
{
    Check(libcc_rp_on_timeout(m_rp, LibccNow()));
}

uint64_t
LibccRp::GetRto() const
{
    return libcc_rp_rto_ns(m_rp);
}

void
LibccRp::OnCnp()
{
    int rc = libcc_rp_on_cnp(m_rp, LibccNow());
    // A CNP means nothing to the window algorithms; that is not an error.
    if (rc != LIBCC_ERR_UNSUPPORTED)
    {
        Check(rc);
    }
}

void
LibccRp::OnFeedback(const libcc_feedback& fb)
{
    int rc = libcc_rp_on_feedback(m_rp, LibccNow(), &fb);
    // Feedback for an algorithm that takes none is not an error of this flow.
    if (rc != LIBCC_ERR_UNSUPPORTED)
    {
        Check(rc);
    }
}

unsigned
LibccRp::OnTx(uint64_t seq, uint32_t bytes)
{
    unsigned flags = 0;
    Check(libcc_rp_on_tx(m_rp, LibccNow(), seq, bytes, &flags));
    return flags;
}

uint64_t
LibccRp::GetRate() const
{
    return libcc_rp_rate_bps(m_rp);
}

uint64_t
LibccRp::GetWindow() const
{
    return libcc_rp_window_bytes(m_rp);
}

void
LibccRp::OnTimer()
{
    m_timerAt = LIBCC_NO_DEADLINE;
    m_fired = false;
    Check(libcc_rp_on_timer(m_rp, LibccNow()));
    if (m_fired && !m_wakeCb.IsNull())
    {
        m_wakeCb();
    }
}

void
LibccRp::CbRate(libcc_rp*, uint64_t, uint64_t rate, void* self)
{
    auto me = static_cast<LibccRp*>(self);
    me->m_fired = true;
    if (!me->m_rateCb.IsNull())
    {
        me->m_rateCb(rate);
    }
}

void
LibccRp::CbWindow(libcc_rp*, uint64_t, uint64_t window, void* self)
{
    auto me = static_cast<LibccRp*>(self);
    me->m_fired = true;
    if (!me->m_windowCb.IsNull())
    {
        me->m_windowCb(window);
    }
}

void
LibccRp::CbDeadline(libcc_rp*, uint64_t deadline, void* self)
{
    auto me = static_cast<LibccRp*>(self);
    if (MoveTimer(me->m_timer, me->m_timerAt, deadline, [me]() { me->OnTimer(); }))
    {
        me->m_reschedules++;
    }
}

void
LibccRp::CbProbe(libcc_rp*, uint64_t, void* self)
{
    auto me = static_cast<LibccRp*>(self);
    me->m_fired = true;
    if (!me->m_probeCb.IsNull())
    {
        me->m_probeCb();
    }
}

LibccNp::LibccNp(const libcc_params* params, const libcc_np_info& info,
                 Callback<void, uint64_t> cnp, Callback<void> wake)
    : m_np(nullptr)
    , m_timerAt(LIBCC_NO_DEADLINE)
    , m_errors(0)
    , m_lastError(0)
    , m_cnpCb(cnp)
    , m_wakeCb(wake)
    , m_fired(false)
{
    NS_LOG_FUNCTION(this << info.max_flows << info.line_rate_bps);
    libcc_np_callbacks cbs{};
    cbs.send_cnp = &LibccNp::CbCnp;
    cbs.deadline_changed = &LibccNp::CbDeadline;
    int rc = libcc_np_new(&m_np, params, &info, &cbs, this);
    if (rc != LIBCC_OK)
    {
        throw std::invalid_argument(std::string("libcc_np_new: ") + libcc_strerror(rc));
    }
}

LibccNp::~LibccNp()
{
    m_timer.Cancel();
    libcc_np_del(m_np);
}

bool
LibccNp::OnData(const libcc_data_pkt& pkt, libcc_np_verdict* verdict)
{
    int rc = libcc_np_on_data(m_np, LibccNow(), &pkt, verdict);
    if (rc != LIBCC_OK)
    {
        m_errors++;
        m_lastError = rc;
        return false;
    }
    return true;
}

void
LibccNp::FlowEnd(uint64_t flowId)
{
    int rc = libcc_np_flow_end(m_np, LibccNow(), flowId);
    if (rc != LIBCC_OK && rc != LIBCC_ERR_NOT_FOUND)
    {
        m_errors++;
        m_lastError = rc;
    }
}

uint32_t
LibccNp::ActiveFlows() const
{
    return libcc_np_active_flows(m_np, LibccNow());
}

void
LibccNp::OnTimer()
{
    m_timerAt = LIBCC_NO_DEADLINE;
    m_fired = false;
    int rc = libcc_np_on_timer(m_np, LibccNow());
    if (rc != LIBCC_OK)
    {
        m_errors++;
        m_lastError = rc;
    }
    if (m_fired && !m_wakeCb.IsNull())
    {
        m_wakeCb();
    }
}

void
LibccNp::CbCnp(libcc_np*, uint64_t, uint64_t flow, void* self)
{
    auto me = static_cast<LibccNp*>(self);
    me->m_fired = true;
    if (!me->m_cnpCb.IsNull())
    {
        me->m_cnpCb(flow);
    }
}

void
LibccNp::CbDeadline(libcc_np*, uint64_t deadline, void* self)
{
    auto me = static_cast<LibccNp*>(self);
    MoveTimer(me->m_timer, me->m_timerAt, deadline, [me]() { me->OnTimer(); });
}

} // namespace ns3
