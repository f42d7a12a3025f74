/* SPDX-License-Identifier: MIT */
/*
 * `rocc`: RoCC (Taheri, Menikkumbura, Vanini, Fahmy, Eugster, Edsall,
 * "RoCC: Robust Congestion Control for RDMA", CoNEXT 2020), as Cisco's
 * patent US 10,567,300 B2 ("Layer 3 fair rate congestion control
 * notification") and the public OMNeT++/INET RoCC model describe it. Each
 * switch egress port recomputes a fair rate F on a timer, every T, in
 * integer units (rate_unit, queue_unit): two multiplicative cuts for a
 * queue past q_max or growing by q_mid in one period, else a PI step on the
 * queue, with gains divided by 2^k as F falls below C/2^k; then it sends F
 * to every flow with packets in its queue. The sender follows the switch it
 * heard from last (or any lower rate) and doubles its rate for each
 * `recovery` without an accepted rate. docs/algorithms/rocc.md gives each
 * rule and default with its source.
 */
#include "algo_util.h"

#include <stdio.h>
#include <string.h>

typedef struct rocc_cfg {
    uint64_t interval_ns;
    uint64_t rate_unit_bps;
    uint64_t queue_unit_bytes;
    int64_t q_ref, q_mid, q_max; /* queue units */
    double a, b;                 /* gains in rate units per queue unit */
    int64_t f_min;               /* rate units */
    uint32_t max_gain_shift;
    uint32_t max_flows;
    uint32_t slots; /* flow table: a power of two, at least twice max_flows */
    uint64_t recovery_ns;
    uint64_t apply_delay_ns;
} rocc_cfg;
LIBCC_CHECK_CFG(rocc_cfg);

/* A flow with packets in the queue. */
typedef struct rocc_flow {
    uint64_t flow_id;
    uint32_t pkts; /* 0: free slot */
    uint32_t reserved;
} rocc_flow;

typedef struct rocc_cp_state {
    int64_t f;               /* fair rate, rate units */
    int64_t f_max, f_min;    /* rate units: C and the floor */
    uint64_t q_bytes;        /* the data queue as its last packet saw it */
    uint64_t q_old_bytes;    /* ... at the previous update */
    uint64_t updates;
    uint64_t overflows;      /* data packets whose flow found the table full */
    uint32_t n_flows;
    uint32_t reserved;
    rocc_flow flows[];       /* cfg->slots entries (cp_extra_size) */
} rocc_cp_state;
LIBCC_CHECK_CP_STATE(rocc_cp_state);

/* Rates waiting for apply_delay, oldest first. */
#define ROCC_PENDING 8
typedef struct rocc_pending {
    uint64_t due_ns;
    uint64_t rate_bps;
    uint32_t switch_id, port_id;
} rocc_pending;

typedef struct rocc_rp_state {
    uint64_t rise_ns; /* next doubling while limited */
    uint64_t feedbacks, accepted, doublings;
    uint32_t switch_id, port_id; /* the switch the rate follows */
    uint8_t follows;             /* a switch's rate was accepted once */
    uint8_t limited;             /* below line rate: the doubling timer runs */
    uint8_t head, n_pending;
    rocc_pending pending[ROCC_PENDING];
} rocc_rp_state;
LIBCC_CHECK_RP_STATE(rocc_rp_state);

static const libcc_param_desc rocc_params[] = {
    {"q_ref", LIBCC_UNIT_BYTES, 120e3, 0.0, 1e9, "queue the PI controller holds each egress queue at"},
    {"q_mid", LIBCC_UNIT_BYTES, 60e3, 0.0, 1e9,
     "growth of the queue in one period that halves the fair rate (F above C/8)"},
    {"q_max", LIBCC_UNIT_BYTES, 360e3, 0.0, 1e9,
     "queue at which the fair rate drops to f_min (F above C/8)"},
    {"alpha", LIBCC_UNIT_RATIO, 5000.0, 0.0, 1e9,
     "PI gain on q - q_ref, bits/s of fair rate per byte per update, before self-tuning "
     "(5000: the model's 0.3 x 10 Mbit/s per 600 B)"},
    {"beta", LIBCC_UNIT_RATIO, 25000.0, 0.0, 1e9,
     "PI gain on q - q_old, the queue's change in one period, bits/s per byte (25000: the "
     "model's 1.5)"},
    {"interval", LIBCC_UNIT_NS, 40e3, 1.0, 1e9,
     "period T of the switch's timer: F is recomputed and sent to the flows in the queue"},
    {"rate_unit", LIBCC_UNIT_BPS, 10e6, 1.0, 1e12, "the fair rate is an integer number of these"},
    {"queue_unit", LIBCC_UNIT_BYTES, 600.0, 1.0, 1e9,
     "queue lengths and thresholds are integer numbers of these"},
    {"f_min", LIBCC_UNIT_BPS, 10e6, 1.0, 1e12, "the fair rate never goes below f_min"},
    {"max_gain_shift", LIBCC_UNIT_COUNT, 5, 0, 30,
     "self-tuning: with F below C/2^k the gains are divided by 2^k, k at most this (0: fixed gains)"},
    {"max_flows", LIBCC_UNIT_COUNT, 64, 1, 65536,
     "flows each port's table holds (flows with packets queued); a flow finding it full gets "
     "no feedback while its packets wait"},
    {"recovery", LIBCC_UNIT_NS, 55e3, 1.0, 1e9,
     "sender: each recovery without an accepted rate doubles the rate, up to line rate"},
    {"apply_delay", LIBCC_UNIT_NS, 0.0, 0.0, 1e9,
     "sender: a rate takes effect this long after its feedback arrives (the model's 15us)"},
};

static int rocc_cfg_init(void *cfg, const double *v, char *err, size_t err_len)
{
    rocc_cfg *c = cfg;
    const uint64_t q_ref = (uint64_t)v[0], q_mid = (uint64_t)v[1], q_max = (uint64_t)v[2];
    c->interval_ns = (uint64_t)v[5];
    c->rate_unit_bps = (uint64_t)v[6];
    c->queue_unit_bytes = (uint64_t)v[7];
    const uint64_t f_min = (uint64_t)v[8];
    if (f_min < c->rate_unit_bps) {
        /* a fair rate of 0 units would stop the sources */
        if (err && err_len)
            snprintf(err, err_len, "f_min (%.0f bps) must not be below rate_unit (%.0f bps)", v[8],
                     v[6]);
        return LIBCC_ERR_OUT_OF_RANGE;
    }
    /* Thresholds and the floor are whole units, as the model divides them. */
    c->q_ref = (int64_t)(q_ref / c->queue_unit_bytes);
    c->q_mid = (int64_t)(q_mid / c->queue_unit_bytes);
    c->q_max = (int64_t)(q_max / c->queue_unit_bytes);
    c->f_min = (int64_t)(f_min / c->rate_unit_bps);
    /* bits/s per byte -> rate units per queue unit */
    c->a = v[3] * (double)c->queue_unit_bytes / (double)c->rate_unit_bps;
    c->b = v[4] * (double)c->queue_unit_bytes / (double)c->rate_unit_bps;
    c->max_gain_shift = (uint32_t)v[9];
    c->max_flows = (uint32_t)v[10];
    c->slots = 1;
    while (c->slots < 2 * c->max_flows)
        c->slots <<= 1;
    c->recovery_ns = (uint64_t)v[11];
    c->apply_delay_ns = (uint64_t)v[12];
    return LIBCC_OK;
}

/* ---- Congestion Point ---- */

static size_t rocc_cp_extra_size(const void *cfg)
{
    return (size_t)((const rocc_cfg *)cfg)->slots * sizeof(rocc_flow);
}

static rocc_cp_state *cp_state(libcc_cp *cp)
{
    return (rocc_cp_state *)(void *)libcc_cp_state(cp);
}

static void rocc_cp_init(libcc_cp *cp)
{
    const rocc_cfg *c = (const rocc_cfg *)libcc_cp_config(cp);
    rocc_cp_state *s = cp_state(cp);
    memset(s, 0, sizeof *s + rocc_cp_extra_size(c));
    s->f_max = (int64_t)(libcc_cp_get_info(cp)->link_rate_bps / c->rate_unit_bps);
    if (s->f_max < 1)
        s->f_max = 1;
    s->f_min = c->f_min < s->f_max ? c->f_min : s->f_max;
    /* An idle port's fair rate is its whole link (the model starts at 0
     * and climbs; see docs/algorithms/rocc.md). */
    s->f = s->f_max;
    libcc_cp_set_deadline_ns(cp, 0); /* due at once: the host's start is the first period's */
    libcc_cp_set_max_feedback(cp, c->max_flows);
}

static uint32_t flow_slot(uint64_t id, uint32_t mask)
{
    id ^= id >> 33;
    id *= 0xff51afd7ed558ccdull;
    id ^= id >> 33;
    return (uint32_t)id & mask;
}

/* Open addressing with linear probing over `slots` entries. */
static void flow_add(rocc_cp_state *s, const rocc_cfg *c, uint64_t id)
{
    const uint32_t mask = c->slots - 1;
    uint32_t i = flow_slot(id, mask);
    while (s->flows[i].pkts != 0) {
        if (s->flows[i].flow_id == id) {
            s->flows[i].pkts++;
            return;
        }
        i = (i + 1) & mask;
    }
    if (s->n_flows >= c->max_flows) {
        s->overflows++;
        return;
    }
    s->flows[i].flow_id = id;
    s->flows[i].pkts = 1;
    s->n_flows++;
}

static void flow_remove(rocc_cp_state *s, const rocc_cfg *c, uint64_t id)
{
    const uint32_t mask = c->slots - 1;
    uint32_t i = flow_slot(id, mask);
    while (s->flows[i].pkts != 0 && s->flows[i].flow_id != id)
        i = (i + 1) & mask;
    if (s->flows[i].pkts == 0) /* not recorded (the table was full) */
        return;
    if (--s->flows[i].pkts != 0)
        return;
    s->n_flows--;
    /* Backward-shift deletion: move up every later entry of the probe run
     * whose home slot the hole now cuts off. */
    uint32_t hole = i;
    for (uint32_t j = (i + 1) & mask; s->flows[j].pkts != 0; j = (j + 1) & mask) {
        const uint32_t home = flow_slot(s->flows[j].flow_id, mask);
        if (((j - home) & mask) >= ((j - hole) & mask)) {
            s->flows[hole] = s->flows[j];
            s->flows[j].pkts = 0;
            hole = j;
        }
    }
    s->flows[hole].pkts = 0;
}

static int rocc_cp_on_enqueue(libcc_cp *cp, uint64_t now_ns, libcc_cp_pkt *pkt)
{
    (void)now_ns;
    if (pkt->kind != LIBCC_PKT_DATA)
        return LIBCC_OK;
    rocc_cp_state *s = cp_state(cp);
    s->q_bytes = pkt->queue_bytes + pkt->bytes;
    if (pkt->has & LIBCC_PKT_HAS_FLOW_ID)
        flow_add(s, (const rocc_cfg *)libcc_cp_config(cp), pkt->flow_id);
    return LIBCC_OK;
}

static int rocc_cp_on_dequeue(libcc_cp *cp, uint64_t now_ns, libcc_cp_pkt *pkt)
{
    (void)now_ns;
    if (pkt->kind != LIBCC_PKT_DATA)
        return LIBCC_OK;
    rocc_cp_state *s = cp_state(cp);
    s->q_bytes = pkt->queue_bytes;
    if (pkt->has & LIBCC_PKT_HAS_FLOW_ID)
        flow_remove(s, (const rocc_cfg *)libcc_cp_config(cp), pkt->flow_id);
    return LIBCC_OK;
}

/* One update, the model's integer arithmetic: queue lengths truncated to
 * queue units, F in rate units, a PI result truncated toward zero. */
static void rocc_update(const rocc_cfg *c, rocc_cp_state *s)
{
    const int64_t q = (int64_t)(s->q_bytes / c->queue_unit_bytes);
    const int64_t q_old = (int64_t)(s->q_old_bytes / c->queue_unit_bytes);
    const int64_t eighth = s->f_max / 8;
    int64_t f;
    if (q >= c->q_max && s->f > eighth) {
        f = s->f_min;
    } else if (q - q_old >= c->q_mid && s->f > eighth) {
        f = s->f / 2;
    } else {
        /* ratio 2^k for F below f_max / 2^k (each bound truncated, as the
         * model divides), k at most max_gain_shift */
        uint32_t k = 0;
        while (k < c->max_gain_shift && k < 62 && s->f < (s->f_max >> (k + 1)))
            k++;
        const double ratio = (double)(UINT64_C(1) << k);
        double v = (double)s->f - c->a / ratio * (double)(q - c->q_ref) -
                   c->b / ratio * (double)(q - q_old);
        v = algo_clamp(v, (double)s->f_min, (double)s->f_max); /* before the cast */
        f = (int64_t)v;
    }
    if (f < s->f_min)
        f = s->f_min;
    if (f > s->f_max)
        f = s->f_max;
    s->f = f;
    s->q_old_bytes = s->q_bytes;
    s->updates++;
}

static int rocc_cp_on_timer(libcc_cp *cp, uint64_t now_ns, libcc_cp_feedback *out,
                            size_t *n_out)
{
    const rocc_cfg *c = (const rocc_cfg *)libcc_cp_config(cp);
    rocc_cp_state *s = cp_state(cp);
    rocc_update(c, s);
    uint64_t rate = libcc_sat_mul((uint64_t)s->f, c->rate_unit_bps);
    if (rate > libcc_cp_get_info(cp)->link_rate_bps)
        rate = libcc_cp_get_info(cp)->link_rate_bps;
    /* Every flow with packets queued hears F, whatever it is: a source
     * that follows this port learns its queue drained. */
    size_t n = 0;
    for (uint32_t i = 0; i < c->slots && n < s->n_flows; i++) {
        if (s->flows[i].pkts == 0)
            continue;
        out[n].flow_id = s->flows[i].flow_id;
        out[n].rate_bps = rate;
        n++;
    }
    *n_out = n;
    libcc_cp_set_deadline_ns(cp, libcc_sat_add(now_ns, c->interval_ns));
    return LIBCC_OK;
}

/* ---- Reaction Point ---- */

static void rocc_rp_init(libcc_rp *rp, uint64_t now_ns)
{
    (void)now_ns;
    memset(libcc_rp_state(rp), 0, sizeof(rocc_rp_state));
}

/* The model's rule: a rate is taken from the switch the flow follows,
 * whatever it is, from another only if lower, and from any when the flow
 * follows none yet. */
static void rocc_apply(libcc_rp *rp, uint64_t at_ns, const rocc_pending *m)
{
    const rocc_cfg *c = (const rocc_cfg *)libcc_rp_config(rp);
    rocc_rp_state *s = (rocc_rp_state *)(void *)libcc_rp_state(rp);
    const bool same = s->follows && m->switch_id == s->switch_id && m->port_id == s->port_id;
    if (libcc_rp_logging(rp)) {
        const libcc_decision_input in[] = {{"fed_back_rate", (double)m->rate_bps},
                                           {"switch", (double)m->switch_id},
                                           {"port", (double)m->port_id}};
        /* another switch's rate counts only when lower than the one followed */
        const bool take = !s->follows || same || m->rate_bps < libcc_rp_rate_bps(rp);
        libcc_rp_explain(rp, take ? "take-rate" : "ignore-rate", in, sizeof in / sizeof in[0]);
    }
    if (s->follows && !same && m->rate_bps >= libcc_rp_rate_bps(rp))
        return;
    s->accepted++;
    s->follows = 1;
    s->switch_id = m->switch_id;
    s->port_id = m->port_id;
    /* at least 1 bit/s (as the core clamps): doubling 0 would never end */
    libcc_rp_set_rate_bps(rp, m->rate_bps ? m->rate_bps : 1);
    s->limited = libcc_rp_rate_bps(rp) < libcc_rp_flow(rp)->line_rate_bps;
    s->rise_ns = libcc_sat_add(at_ns, c->recovery_ns);
}

static void rocc_set_deadline(libcc_rp *rp)
{
    const rocc_rp_state *s = (const rocc_rp_state *)libcc_rp_state(rp);
    uint64_t d = s->limited ? s->rise_ns : LIBCC_NO_DEADLINE;
    if (s->n_pending && s->pending[s->head].due_ns < d)
        d = s->pending[s->head].due_ns;
    libcc_rp_set_deadline_ns(rp, d);
}

/* Everything due by now_ns, in time order: delayed rates and doublings. */
static void rocc_run(libcc_rp *rp, uint64_t now_ns)
{
    const rocc_cfg *c = (const rocc_cfg *)libcc_rp_config(rp);
    rocc_rp_state *s = (rocc_rp_state *)(void *)libcc_rp_state(rp);
    for (;;) {
        const uint64_t tp = s->n_pending ? s->pending[s->head].due_ns : LIBCC_NO_DEADLINE;
        const uint64_t tr = s->limited ? s->rise_ns : LIBCC_NO_DEADLINE;
        /* times saturate at the clock's end: test presence, not the time */
        if (s->n_pending && tp <= tr && tp <= now_ns) {
            const rocc_pending m = s->pending[s->head];
            s->head = (uint8_t)((s->head + 1) % ROCC_PENDING);
            s->n_pending--;
            rocc_apply(rp, tp, &m);
        } else if (s->limited && (tr < tp || !s->n_pending) && tr <= now_ns) {
            const uint64_t line = libcc_rp_flow(rp)->line_rate_bps;
            libcc_rp_set_rate_bps(rp, libcc_rp_rate_bps(rp) > line / 2 ? line : 2 * libcc_rp_rate_bps(rp));
            s->doublings++;
            if (libcc_rp_logging(rp)) { /* no rate taken for a recovery period */
                const libcc_decision_input in[] = {{"doublings", (double)s->doublings}};
                libcc_rp_explain(rp, "double", in, 1);
            }
            s->limited = libcc_rp_rate_bps(rp) < line;
            s->rise_ns = libcc_sat_add(tr, c->recovery_ns);
        } else {
            break;
        }
    }
    rocc_set_deadline(rp);
}

static int rocc_rp_on_feedback(libcc_rp *rp, uint64_t now_ns, const libcc_feedback *fb)
{
    const rocc_cfg *c = (const rocc_cfg *)libcc_rp_config(rp);
    rocc_rp_state *s = (rocc_rp_state *)(void *)libcc_rp_state(rp);
    s->feedbacks++;
    rocc_run(rp, now_ns); /* what was due first */
    if (s->n_pending == ROCC_PENDING) {
        /* full: the oldest takes effect now, early, rather than be lost */
        const rocc_pending m = s->pending[s->head];
        s->head = (uint8_t)((s->head + 1) % ROCC_PENDING);
        s->n_pending--;
        rocc_apply(rp, now_ns, &m);
    }
    const rocc_pending m = {libcc_sat_add(now_ns, c->apply_delay_ns), fb->rate_bps, fb->switch_id,
                            fb->port_id};
    s->pending[(s->head + s->n_pending) % ROCC_PENDING] = m;
    s->n_pending++;
    rocc_run(rp, now_ns); /* apply_delay 0: now */
    return LIBCC_OK;
}

static int rocc_rp_on_timer(libcc_rp *rp, uint64_t now_ns)
{
    rocc_run(rp, now_ns);
    return LIBCC_OK;
}

static const libcc_param_desc rocc_vars[] = {
    {"limited", LIBCC_UNIT_BOOL, 0, 0, 0, "below line rate: the rate doubles each recovery"},
    {"switch", LIBCC_UNIT_COUNT, 0, 0, 0, "switch id of the port the rate follows"},
    {"port", LIBCC_UNIT_COUNT, 0, 0, 0, "its port id"},
    {"feedbacks", LIBCC_UNIT_COUNT, 0, 0, 0, "feedback packets received"},
    {"accepted", LIBCC_UNIT_COUNT, 0, 0, 0, "rates taken"},
    {"doublings", LIBCC_UNIT_COUNT, 0, 0, 0, "times the rate doubled without an accepted rate"},
};
#define ROCC_N_VARS (sizeof rocc_vars / sizeof rocc_vars[0])

static void rocc_read_vars(const libcc_rp *rp, double *v)
{
    const rocc_rp_state *s = (const rocc_rp_state *)libcc_rp_state_const(rp);
    v[0] = s->limited;
    v[1] = s->switch_id;
    v[2] = s->port_id;
    v[3] = (double)s->feedbacks;
    v[4] = (double)s->accepted;
    v[5] = (double)s->doublings;
}

static const libcc_rp_ops rocc_rp_ops = {
    .state_size = sizeof(rocc_rp_state),
    .vars = rocc_vars,
    .n_vars = ROCC_N_VARS,
    .init = rocc_rp_init,
    .on_feedback = rocc_rp_on_feedback,
    .on_timer = rocc_rp_on_timer,
    .read_vars = rocc_read_vars,
};

static const libcc_cp_ops rocc_cp_ops = {
    .state_size = sizeof(rocc_cp_state),
    .init = rocc_cp_init,
    .on_enqueue = rocc_cp_on_enqueue,
    .on_dequeue = rocc_cp_on_dequeue,
    .extra_size = rocc_cp_extra_size,
    .on_timer = rocc_cp_on_timer,
};

const libcc_algorithm libcc_algorithm_rocc = {
    .abi_version = LIBCC_ALGORITHM_ABI_VERSION,
    .name = "rocc",
    .roles = LIBCC_ROLE_RP | LIBCC_ROLE_CP, /* the receiver has nothing to do */
    .data_int = LIBCC_INT_FORMAT_NONE,
    .ack_int = LIBCC_INT_FORMAT_NONE,
    .signals = LIBCC_SIGNAL_CP_FEEDBACK,
    .params = rocc_params,
    .n_params = sizeof rocc_params / sizeof rocc_params[0],
    .cfg_init = rocc_cfg_init,
    .cfg_size = sizeof(rocc_cfg),
    .rp = &rocc_rp_ops,
    .cp = &rocc_cp_ops,
};
