/* SPDX-License-Identifier: MIT */
/*
 * `rocc`: RoCC (Taheri, Menikkumbura, Vanini, Fahmy, Eugster, Edsall,
 * "RoCC: Robust Congestion Control for RDMA", CoNEXT 2020): the switch
 * computes a fair rate per egress queue with a PI controller on the queue
 * length and sends it to the sources of the packets it forwards; the sender
 * follows the lowest rate its path reports. The details below are libcc's
 * reading of the design (docs/algorithms/rocc.md says which ones are
 * choices); no public RDMA implementation exists to compare with.
 */
#include "algo_util.h"

#include <string.h>

typedef struct rocc_cfg {
    uint64_t q_ref_bytes;
    double alpha; /* bits/s per byte */
    double beta;
    uint64_t interval_ns;
    uint64_t f_min_bps;
    uint64_t recovery_ns;
    uint32_t max_gain_shift;
} rocc_cfg;
LIBCC_CHECK_CFG(rocc_cfg);

typedef struct rocc_cp_state {
    double f;              /* fair rate, bits/s */
    uint64_t q_old;        /* queue at the previous update */
    uint64_t next_update_ns;
    uint64_t updates;
    uint8_t started;
} rocc_cp_state;
LIBCC_CHECK_CP_STATE(rocc_cp_state);

typedef struct rocc_rp_state {
    uint64_t last_feedback_ns;
    uint64_t feedbacks;
    uint32_t switch_id, port_id; /* the bottleneck the rate follows */
    uint8_t limited;             /* following a CP's rate */
} rocc_rp_state;
LIBCC_CHECK_RP_STATE(rocc_rp_state);

static const libcc_param_desc rocc_params[] = {
    {"q_ref", LIBCC_UNIT_BYTES, 100e3, 0.0, 1e9, "queue the PI controller holds each egress queue at"},
    {"alpha", LIBCC_UNIT_RATIO, 300.0, 0.0, 1e9,
     "proportional gain on q - q_ref: bits/s of fair rate per byte, per update (300: 0.3 Mbit/s per KB)"},
    {"beta", LIBCC_UNIT_RATIO, 1500.0, 0.0, 1e9,
     "gain on the queue's change since the last update, q - q_old: bits/s per byte"},
    {"interval", LIBCC_UNIT_NS, 20e3, 1.0, 1e9, "the fair rate is recomputed once per interval T"},
    {"f_min", LIBCC_UNIT_BPS, 10e6, 1.0, 1e12, "the fair rate never goes below f_min"},
    {"max_gain_shift", LIBCC_UNIT_COUNT, 6, 0, 30,
     "self-tuning: with F below C/2^k the gains are divided by 2^k, k at most this (0: fixed gains)"},
    {"recovery", LIBCC_UNIT_NS, 100e3, 1.0, 1e9,
     "sender: no feedback for this long means no congested queue on the path: back to line rate"},
};

static int rocc_cfg_init(void *cfg, const double *v, char *err, size_t err_len)
{
    (void)err;
    (void)err_len;
    rocc_cfg *c = cfg;
    c->q_ref_bytes = (uint64_t)v[0];
    c->alpha = v[1];
    c->beta = v[2];
    c->interval_ns = (uint64_t)v[3];
    c->f_min_bps = (uint64_t)v[4];
    c->max_gain_shift = (uint32_t)v[5];
    c->recovery_ns = (uint64_t)v[6];
    return LIBCC_OK;
}

/* ---- Congestion Point ---- */

static void rocc_cp_init(struct libcc_cp *cp)
{
    rocc_cp_state *s = (rocc_cp_state *)(void *)cp->priv;
    memset(s, 0, sizeof *s);
    s->f = (double)cp->info.link_rate_bps; /* an idle queue: the whole link */
}

/* Self-tuning: k with F in [C/2^(k+1), C/2^k), at most max_gain_shift. */
static unsigned gain_shift(const rocc_cfg *c, double f, double link)
{
    unsigned k = 0;
    while (k < c->max_gain_shift && f * (double)(UINT64_C(1) << (k + 1)) < link)
        k++;
    return k;
}

/* The PI controller, once per interval, on the queue as this packet sees it:
 *   F = F - alpha (q - q_ref) - beta (q - q_old),  F in [f_min, C]. */
static void rocc_cp_update(struct libcc_cp *cp, uint64_t now_ns, uint64_t q)
{
    const rocc_cfg *c = (const rocc_cfg *)cp->cfg;
    rocc_cp_state *s = (rocc_cp_state *)(void *)cp->priv;
    const double link = (double)cp->info.link_rate_bps;
    if (!s->started) { /* the first sample is the reference */
        s->started = 1;
        s->q_old = q;
        s->next_update_ns = libcc_add_sat(now_ns, c->interval_ns);
        return;
    }
    if (now_ns < s->next_update_ns)
        return;
    const double scale = (double)(UINT64_C(1) << gain_shift(c, s->f, link));
    const double f = s->f - c->alpha / scale * ((double)q - (double)c->q_ref_bytes) -
                     c->beta / scale * ((double)q - (double)s->q_old);
    const double fmin = (double)c->f_min_bps < link ? (double)c->f_min_bps : link;
    s->f = algo_clamp(f, fmin, link);
    s->q_old = q;
    s->updates++;
    /* one update per elapsed interval, on the grid from the first sample */
    const uint64_t late = now_ns - s->next_update_ns;
    s->next_update_ns = libcc_add_sat(now_ns, c->interval_ns - late % c->interval_ns);
}

/* Every data packet that joins a queue whose fair rate is below the link
 * rate gets its source told that rate. */
static int rocc_cp_on_enqueue(struct libcc_cp *cp, uint64_t now_ns, libcc_cp_pkt *pkt)
{
    rocc_cp_state *s = (rocc_cp_state *)(void *)cp->priv;
    rocc_cp_update(cp, now_ns, pkt->queue_bytes);
    if (pkt->kind == LIBCC_PKT_DATA && s->f < (double)cp->info.link_rate_bps) {
        pkt->send_feedback = 1;
        pkt->feedback_rate_bps = libcc_u64_sat(s->f + 0.5);
    }
    return LIBCC_OK;
}

/* ---- Reaction Point ---- */

static void rocc_rp_init(struct libcc_rp *rp, uint64_t now_ns)
{
    (void)now_ns;
    memset(rp->priv, 0, sizeof(rocc_rp_state));
}

/* The path's lowest fair rate: a rate from the bottleneck the flow follows
 * is taken whatever it is (its queue drained or grew), one from another
 * switch only if it is lower (that switch is the new bottleneck). */
static int rocc_rp_on_feedback(struct libcc_rp *rp, uint64_t now_ns, const libcc_feedback *fb)
{
    const rocc_cfg *c = (const rocc_cfg *)rp->cfg;
    rocc_rp_state *s = (rocc_rp_state *)(void *)rp->priv;
    const bool same = s->limited && fb->switch_id == s->switch_id && fb->port_id == s->port_id;
    s->feedbacks++;
    if (!same && fb->rate_bps >= rp->rate_bps)
        return LIBCC_OK;
    rp->rate_bps = fb->rate_bps;
    s->switch_id = fb->switch_id;
    s->port_id = fb->port_id;
    s->limited = 1;
    s->last_feedback_ns = now_ns;
    rp->deadline_ns = libcc_add_sat(now_ns, c->recovery_ns);
    return LIBCC_OK;
}

static int rocc_rp_on_timer(struct libcc_rp *rp, uint64_t now_ns)
{
    rocc_rp_state *s = (rocc_rp_state *)(void *)rp->priv;
    if (rp->deadline_ns == LIBCC_NO_DEADLINE || now_ns < rp->deadline_ns)
        return LIBCC_OK; /* early: nothing is due */
    rp->rate_bps = rp->flow.line_rate_bps;
    s->limited = 0;
    rp->deadline_ns = LIBCC_NO_DEADLINE;
    return LIBCC_OK;
}

static const libcc_param_desc rocc_vars[] = {
    {"limited", LIBCC_UNIT_BOOL, 0, 0, 0, "following a switch's fair rate"},
    {"switch", LIBCC_UNIT_COUNT, 0, 0, 0, "switch id of the bottleneck followed"},
    {"port", LIBCC_UNIT_COUNT, 0, 0, 0, "its port id"},
    {"feedbacks", LIBCC_UNIT_COUNT, 0, 0, 0, "feedback packets received"},
};
#define ROCC_N_VARS (sizeof rocc_vars / sizeof rocc_vars[0])

static void rocc_read_vars(const struct libcc_rp *rp, double *v)
{
    const rocc_rp_state *s = (const rocc_rp_state *)(const void *)rp->priv;
    v[0] = s->limited;
    v[1] = s->switch_id;
    v[2] = s->port_id;
    v[3] = (double)s->feedbacks;
}

const libcc_algo libcc_algo_rocc = {
    .name = "rocc",
    .roles = LIBCC_ROLE_RP | LIBCC_ROLE_CP, /* the receiver has nothing to do */
    .data_int = LIBCC_INT_FORMAT_NONE,
    .ack_int = LIBCC_INT_FORMAT_NONE,
    .signals = LIBCC_SIGNAL_CP_FEEDBACK,
    .params = rocc_params,
    .n_params = sizeof rocc_params / sizeof rocc_params[0],
    .cfg_init = rocc_cfg_init,
    .cfg_size = sizeof(rocc_cfg),
    .rp_state_size = sizeof(rocc_rp_state),
    .cp_state_size = sizeof(rocc_cp_state),
    .rp_vars = rocc_vars,
    .n_rp_vars = ROCC_N_VARS,
    .rp_init = rocc_rp_init,
    .rp_on_feedback = rocc_rp_on_feedback,
    .rp_on_timer = rocc_rp_on_timer,
    .rp_read_vars = rocc_read_vars,
    .cp_init = rocc_cp_init,
    .cp_on_enqueue = rocc_cp_on_enqueue,
};
