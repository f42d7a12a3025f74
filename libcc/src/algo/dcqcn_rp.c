/* SPDX-License-Identifier: MIT */
/*
 * DCQCN Reaction Point: per-flow rate control driven by CNPs.
 *
 * Three clocks run per flow, all on the host's single timer (deadline_ns is
 * the earliest of them):
 *   alpha timer   every dce_tcp_rtt, from the flow's first CNP
 *   monitor end   the end of the rate_reduce_monitor_period a CNP came in
 *                 (periods on a grid from the first CNP; with cut_on_cnp,
 *                 a period opened by each decrease instead)
 *   timer stage   every rpg_time_reset after a decrease
 * Due events are handled in time order; at equal times alpha first (so a
 * decrease sees the alpha of its instant), then the decrease (which restarts
 * the increase timer, so a stage due at the same instant does not happen:
 * that period did not pass "without a decrease").
 *
 * A flow back at line rate with no CNP outstanding is quiescent: no timer,
 * no byte counting (an increase at line rate is a no-op). Alpha's decay in
 * that time is applied in one step when the next CNP comes, so an
 * uncongested flow costs the host no timer events at all.
 *
 * Rates are integer bits/s. A cut truncates; an averaging step rounds up,
 * so Rc reaches Rt exactly instead of stopping 1 bit/s short.
 */
#include "dcqcn.h"

#include <string.h>

#define NONE LIBCC_NO_DEADLINE

/* dcqcn_rp_state is in dcqcn.h: the algorithm table sizes flows by it. */

/* [dcqcn:rp-vars] */
const libcc_param_desc libcc_dcqcn_rp_vars[DCQCN_N_RP_VARS] = {
    [DCQCN_V_ALPHA] = {"alpha", LIBCC_UNIT_RATIO, 0, 0, 0,
                       "congestion estimate: the weight of the next cut"},
    [DCQCN_V_TARGET_RATE] = {"target_rate", LIBCC_UNIT_BPS, 0, 0, 0,
                             "Rt: the rate recovery heads for"},
    [DCQCN_V_CURRENT_RATE] = {"current_rate", LIBCC_UNIT_BPS, 0, 0, 0, "Rc (the pacing rate)"},
    [DCQCN_V_TIMER_STAGE] = {"timer_stage", LIBCC_UNIT_COUNT, 0, 0, 0,
                             "T: timer stages since the last decrease"},
    [DCQCN_V_BYTE_STAGE] = {"byte_stage", LIBCC_UNIT_COUNT, 0, 0, 0,
                            "B: byte-counter stages since the last decrease"},
    [DCQCN_V_BYTE_COUNTER] = {"byte_counter", LIBCC_UNIT_BYTES, 0, 0, 0,
                              "bytes sent towards the next byte stage"},
    [DCQCN_V_CNP_PENDING] = {"cnp_pending", LIBCC_UNIT_BOOL, 0, 0, 0,
                             "a CNP waits for the end of the monitor period"},
    [DCQCN_V_RECOVERING] = {"recovering", LIBCC_UNIT_BOOL, 0, 0, 0,
                            "increase stages are running (rate below line rate)"},
    [DCQCN_V_CNPS] = {"cnps", LIBCC_UNIT_COUNT, 0, 0, 0, "CNPs received"},
    [DCQCN_V_DECREASES] = {"decreases", LIBCC_UNIT_COUNT, 0, 0, 0, "rate decreases"},
};

static const dcqcn_cfg *cfg_of(const libcc_rp *rp)
{
    return (const dcqcn_cfg *)libcc_rp_config(rp);
}

static dcqcn_rp_state *state_of(libcc_rp *rp)
{
    return (dcqcn_rp_state *)libcc_rp_state(rp);
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* x^n by squaring: O(log n) for a long quiet stretch. */
static double pow_u64(double x, uint64_t n)
{
    double r = 1.0;
    while (n) {
        if (n & 1)
            r *= x;
        x *= x;
        n >>= 1;
    }
    return r;
}

/* Alpha after every update due at or before `until`; *ticks: how many.
 * [dcqcn:alpha-update] CNP in the period: alpha = (1-g) alpha + g;
 *                      none:                alpha = (1-g) alpha */
static double alpha_at(const dcqcn_rp_state *s, const dcqcn_cfg *c, uint64_t until,
                       uint64_t *ticks)
{
    *ticks = 0;
    if (s->alpha_next_ns == NONE || s->alpha_next_ns > until)
        return s->alpha;
    uint64_t n = (until - s->alpha_next_ns) / c->alpha_period_ns + 1;
    double keep = 1.0 - c->g;
    double a = s->alpha;
    uint64_t quiet = n;
    if (s->alpha_cnp) { /* only the first period can hold the CNP */
        a = keep * a + c->g;
        quiet--;
    }
    /* One multiplication per period, as a host firing every tick gets; the
     * closed form only for stretches long enough to matter for speed. */
    if (quiet <= 64)
        for (uint64_t i = 0; i < quiet; i++)
            a *= keep;
    else
        a *= pow_u64(keep, quiet);
    *ticks = n;
    return a;
}

static void alpha_advance(dcqcn_rp_state *s, const dcqcn_cfg *c, uint64_t until)
{
    uint64_t n;
    s->alpha = alpha_at(s, c, until, &n);
    if (n) {
        s->alpha_next_ns = libcc_sat_add(s->alpha_next_ns, libcc_sat_mul(n, c->alpha_period_ns));
        s->alpha_cnp = false;
    }
}

static void decrease(libcc_rp *rp, dcqcn_rp_state *s, const dcqcn_cfg *c, uint64_t t)
{
    uint64_t line = libcc_rp_flow(rp)->line_rate_bps;
    uint64_t rc_old = s->rc_bps;

    /* [dcqcn:remember-target] */
    if (s->n_decreases == 0 || c->clamp_tgt_rate ||
        (c->clamp_after_time_inc && s->time_inc_since_dec))
        s->rt_bps = rc_old;

    /* [dcqcn:rate-cut] Rc = Rc (1 - alpha / 2^(rpg_gd-10)) */
    double cut = s->alpha * c->gd_scale;
    if (cut > 1.0)
        cut = 1.0;
    /* (double)rc_old may be 2^64 (a line rate near 2^64, no cut). */
    uint64_t rc = libcc_sat_u64((double)rc_old * (1.0 - cut));
    /* [dcqcn:min-dec-fac] Rc >= Rc_old * rpg_min_dec_fac / 100, overflow-free */
    uint64_t pct = c->min_dec_fac_pct;
    uint64_t floor_fac = rc_old / 100 * pct + rc_old % 100 * pct / 100;
    if (rc < floor_fac)
        rc = floor_fac;
    /* [dcqcn:min-rate] */
    if (rc < c->min_rate_bps)
        rc = c->min_rate_bps;
    s->rc_bps = min_u64(rc, line);

    /* [dcqcn:reset-counters] */
    s->timer_stage = 0;
    s->byte_stage = 0;
    s->byte_counter = 0;
    s->time_inc_since_dec = false;
    s->inc_next_ns = libcc_sat_add(t, c->time_reset_ns);
    s->n_decreases++;

    /* [dcqcn:monitor-open] With cut_on_cnp the cut starts a hold-off period
     * anchored here; otherwise the next CNP finds its period on the grid. */
    s->period_cnp = false;
    s->period_end_ns = c->cut_on_cnp && c->monitor_period_ns ? libcc_sat_add(t, c->monitor_period_ns) : NONE;
    if (libcc_rp_logging(rp)) {
        const libcc_decision_input in[] = {
            {"alpha", s->alpha}, {"target_rate", (double)s->rt_bps}, {"decreases", (double)s->n_decreases}};
        libcc_rp_explain(rp, "cut", in, sizeof in / sizeof in[0]);
    }
}

/* [dcqcn:line-cap] Rt + step, saturating at the line rate. */
static uint64_t add_capped(uint64_t rt, uint64_t step, uint64_t line)
{
    return step >= line || rt >= line - step ? line : rt + step;
}

/* One increase stage; T and B are the stages completed before this one.
 * With F = rpg_threshold this gives F stages of fast recovery first. */
static void increase(libcc_rp *rp, dcqcn_rp_state *s, const dcqcn_cfg *c)
{
    uint64_t line = libcc_rp_flow(rp)->line_rate_bps;
    uint64_t T = s->timer_stage, B = s->byte_stage, F = c->threshold;
    bool fast, hyper;
    uint64_t i; /* the paper's hyper stage number, from 1 */

    if (c->kind_by_timer) {
        /* [dcqcn:kind-by-timer] the HPCC simulator's RateIncEventMlx: one
         * additive stage at T = F, hyper after it, without byte stages. */
        fast = T < F;
        hyper = T > F;
        i = hyper ? T - F : 0;
    } else {
        fast = T < F && B < F;
        hyper = T >= F && B >= F;
        i = hyper ? min_u64(T, B) - F + 1 : 0;
    }
    if (fast) {
        /* [dcqcn:fast-recovery] Rt unchanged */
    } else if (hyper) {
        /* [dcqcn:hyper-increase] Rt += rpg_hai_rate (paper: i * rpg_hai_rate) */
        uint64_t step = c->hai_rate_bps;
        if (c->hai_scale_by_stage)
            step = step && i > line / step ? line : step * i;
        s->rt_bps = add_capped(s->rt_bps, step, line);
    } else {
        /* [dcqcn:additive-increase] Rt += rpg_ai_rate */
        s->rt_bps = add_capped(s->rt_bps, c->ai_rate_bps, line);
    }
    /* [dcqcn:average] Rc = (Rt + Rc) / 2, rounded up, without overflow */
    uint64_t a = s->rc_bps, b = s->rt_bps;
    s->rc_bps = min_u64(a / 2 + b / 2 + (a % 2 + b % 2 + 1) / 2, line);
    if (libcc_rp_logging(rp)) { /* T and B: the stages completed before this one */
        const libcc_decision_input in[] = {{"target_rate", (double)s->rt_bps},
                                           {"T", (double)T},
                                           {"B", (double)B},
                                           {"alpha", s->alpha}};
        libcc_rp_explain(rp, fast ? "fast-recovery" : hyper ? "hyper-increase" : "additive-increase",
                         in, sizeof in / sizeof in[0]);
    }
}

/* [dcqcn:quiescent] back at line rate with nothing outstanding: stop. */
static bool quiesce(libcc_rp *rp, dcqcn_rp_state *s)
{
    if (s->rc_bps < libcc_rp_flow(rp)->line_rate_bps || s->period_end_ns != NONE || s->alpha_cnp)
        return false;
    s->inc_next_ns = NONE;
    s->byte_counter = 0;
    return true;
}

/* [dcqcn:time-order] Handle every timer due at or before now, in time
 * order: alpha, then monitor end, then timer stage at equal times. */
static void advance(libcc_rp *rp, dcqcn_rp_state *s, const dcqcn_cfg *c, uint64_t now)
{
    for (;;) {
        uint64_t t = min_u64(s->period_end_ns, s->inc_next_ns);
        if (t == NONE || t > now)
            break;
        alpha_advance(s, c, t);
        if (s->period_end_ns == t) {
            /* [dcqcn:monitor-end] decrease if a CNP came in [start, end);
             * without one (a cut_on_cnp hold-off) the period just ends */
            if (s->period_cnp)
                decrease(rp, s, c, t);
            else
                s->period_end_ns = NONE;
        } else {
            /* [dcqcn:timer-stage] */
            increase(rp, s, c);
            s->timer_stage++;
            s->time_inc_since_dec = true;
            s->inc_next_ns = libcc_sat_add(t, c->time_reset_ns);
        }
        quiesce(rp, s);
    }
    alpha_advance(s, c, now);
}

/* Publish the module's view in the common fields; the core fires callbacks. */
static void publish(libcc_rp *rp, dcqcn_rp_state *s)
{
    quiesce(rp, s);
    libcc_rp_set_rate_bps(rp, s->rc_bps);
    uint64_t d = min_u64(s->period_end_ns, s->inc_next_ns);
    /* The alpha timer wakes the host only while the flow is in congestion;
     * a quiescent flow's alpha decay is applied lazily (alpha_at). */
    if (d != NONE || s->alpha_cnp)
        d = min_u64(d, s->alpha_next_ns);
    libcc_rp_set_deadline_ns(rp, d);
}

void libcc_dcqcn_rp_init(libcc_rp *rp, uint64_t now_ns)
{
    (void)now_ns;
    dcqcn_rp_state *s = state_of(rp);
    memset(s, 0, sizeof *s);
    s->rc_bps = libcc_rp_flow(rp)->line_rate_bps;
    s->rt_bps = libcc_rp_flow(rp)->line_rate_bps;
    s->alpha = cfg_of(rp)->initial_alpha;
    s->alpha_next_ns = NONE;
    s->period_end_ns = NONE;
    s->inc_next_ns = NONE;
    libcc_rp_set_window_bytes(rp, LIBCC_WINDOW_UNLIMITED);
    publish(rp, s);
}

/* [dcqcn:monitor-grid] The end of the monitor period holding `now`: periods
 * [t1 + kP, t1 + (k+1)P) from the first CNP t1, half-open, so the end is
 * always after now (never a deadline in the past). */
static uint64_t period_end_after(const dcqcn_rp_state *s, const dcqcn_cfg *c, uint64_t now)
{
    uint64_t p = c->monitor_period_ns;
    return libcc_sat_add(s->monitor_origin_ns, libcc_sat_mul((now - s->monitor_origin_ns) / p + 1, p));
}

int libcc_dcqcn_rp_on_cnp(libcc_rp *rp, uint64_t now_ns)
{
    dcqcn_rp_state *s = state_of(rp);
    const dcqcn_cfg *c = cfg_of(rp);

    advance(rp, s, c, now_ns);
    s->n_cnps++;
    if (!s->started) {
        /* [dcqcn:first-cnp] alpha starts at initial_alpha, which accounts
         * for this CNP; its clock and the monitor grid are anchored here.
         * rate_to_set_on_first_cnp acts now (mlx5: when the first CNP
         * arrives), on the target too as in the HPCC simulator, so until
         * the cut Rt shows no rate the flow may no longer reach. */
        s->started = true;
        s->alpha = c->initial_alpha;
        s->alpha_cnp = false;
        s->alpha_next_ns = libcc_sat_add(now_ns, c->alpha_period_ns);
        s->monitor_origin_ns = now_ns;
        if (c->first_cnp_rate_bps) {
            s->rc_bps = min_u64(c->first_cnp_rate_bps, libcc_rp_flow(rp)->line_rate_bps);
            s->rt_bps = s->rc_bps;
        }
    } else {
        s->alpha_cnp = true;
    }
    if (c->monitor_period_ns == 0) {
        decrease(rp, s, c, now_ns); /* the paper: every CNP cuts */
    } else if (c->cut_on_cnp) {
        /* [dcqcn:cut-on-cnp] cut now unless a hold-off period is open */
        if (s->period_end_ns != NONE)
            s->period_cnp = true;
        else
            decrease(rp, s, c, now_ns);
    } else {
        /* [dcqcn:monitor-end] "After this time elapses, if CNPs were
         * detected, the rate is cut": the cut waits for the period end. */
        if (s->period_end_ns == NONE)
            s->period_end_ns = period_end_after(s, c, now_ns);
        s->period_cnp = true;
    }
    if (s->period_cnp && libcc_rp_logging(rp)) { /* the cut waits for the period's end */
        const libcc_decision_input in[] = {{"alpha", s->alpha},
                                           {"period_end", (double)s->period_end_ns}};
        libcc_rp_explain(rp, "cut-pending", in, sizeof in / sizeof in[0]);
    }
    publish(rp, s);
    return LIBCC_OK;
}

int libcc_dcqcn_rp_on_tx(libcc_rp *rp, uint64_t now_ns, uint64_t seq, uint32_t bytes,
                         unsigned *tx_flags)
{
    (void)seq;
    (void)tx_flags;
    dcqcn_rp_state *s = state_of(rp);
    const dcqcn_cfg *c = cfg_of(rp);

    advance(rp, s, c, now_ns);
    if (s->inc_next_ns != NONE && c->byte_reset) {
        /* [dcqcn:byte-stage] one stage per rpg_byte_reset bytes since the
         * last decrease; a packet that crosses several boundaries completes
         * several stages, the remainder carries over. */
        s->byte_counter += bytes;
        while (s->byte_counter >= c->byte_reset) {
            uint64_t rc0 = s->rc_bps, rt0 = s->rt_bps;
            s->byte_counter -= c->byte_reset;
            increase(rp, s, c);
            s->byte_stage++;
            /* Past F byte stages the mode cannot change within this packet,
             * so a stage that changed nothing means the rest change nothing:
             * count them at once (a tiny rpg_byte_reset must not loop). */
            if (rc0 == s->rc_bps && rt0 == s->rt_bps && s->byte_stage > c->threshold) {
                s->byte_stage += s->byte_counter / c->byte_reset;
                s->byte_counter %= c->byte_reset;
                break;
            }
        }
    }
    publish(rp, s);
    return LIBCC_OK;
}

int libcc_dcqcn_rp_on_timer(libcc_rp *rp, uint64_t now_ns)
{
    dcqcn_rp_state *s = state_of(rp);
    advance(rp, s, cfg_of(rp), now_ns);
    publish(rp, s);
    return LIBCC_OK;
}

void libcc_dcqcn_rp_read_vars(const libcc_rp *rp, double *v)
{
    const dcqcn_rp_state *s = (const dcqcn_rp_state *)libcc_rp_state_const(rp);
    /* Every event brings alpha up to its time (advance), so this is alpha as
     * of the last event, a quiescent flow's decay included. */
    v[DCQCN_V_ALPHA] = s->alpha;
    v[DCQCN_V_TARGET_RATE] = (double)s->rt_bps;
    v[DCQCN_V_CURRENT_RATE] = (double)s->rc_bps;
    v[DCQCN_V_TIMER_STAGE] = (double)s->timer_stage;
    v[DCQCN_V_BYTE_STAGE] = (double)s->byte_stage;
    v[DCQCN_V_BYTE_COUNTER] = (double)s->byte_counter;
    v[DCQCN_V_CNP_PENDING] = s->period_cnp;
    v[DCQCN_V_RECOVERING] = s->inc_next_ns != NONE;
    v[DCQCN_V_CNPS] = (double)s->n_cnps;
    v[DCQCN_V_DECREASES] = (double)s->n_decreases;
}
