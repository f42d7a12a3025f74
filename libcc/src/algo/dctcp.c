/* SPDX-License-Identifier: MIT */
/*
 * `dctcp`: DCTCP (Alizadeh et al., SIGCOMM 2010) as the HPCC simulator runs
 * it on RDMA NICs (rdma-hw.cc, HandleAckDctcp, CC_MODE 8): switches mark CE
 * above a threshold K, the receiver echoes each packet's mark in its ACK,
 * the sender estimates the marked fraction F per window of ACKs, keeps
 * alpha = (1-g) alpha + g F, cuts by alpha/2 at most once per window and
 * adds a fixed rate once per window without a cut. The `paper` preset is
 * the window-based original: the same alpha and cut on a congestion
 * window, which grows by one MTU per window of data. docs/algorithms/dctcp.md
 * maps each line to the code.
 */
#include "algo_util.h"

#include <string.h>

enum { DCTCP_RATE = 0, DCTCP_RATE_VARWIN = 1, DCTCP_WINDOW = 2 };

typedef struct dctcp_cfg {
    double g;
    double initial_alpha;
    uint64_t rate_ai_bps;
    uint64_t min_rate_bps;
    uint64_t base_rtt_ns;
    uint64_t k_bytes;
    uint32_t mode;
    bool mark_at_dequeue;
} dctcp_cfg;
LIBCC_CHECK_CFG(dctcp_cfg);

typedef struct dctcp_rp_state {
    double alpha;
    double rate;  /* bits/s (rate modes) */
    double cwnd;  /* bytes (window mode) */
    double w_max; /* line rate x T */
    double frac;  /* F of the last finished window */
    uint64_t t_ns;
    uint64_t last_update_seq; /* end of the window alpha is measured over */
    uint64_t high_seq;        /* CWR lasts until an ACK passes it */
    uint64_t snd_una;         /* highest cumulative ACK seen */
    uint64_t cuts;
    uint32_t ecn_cnt; /* marked ACKs in this window */
    uint32_t batch;   /* packets in the window: F's denominator */
    uint8_t started;
    uint8_t cwr;
} dctcp_rp_state;
LIBCC_CHECK_RP_STATE(dctcp_rp_state);

static const libcc_param_desc dctcp_params[] = {
    {"g", LIBCC_UNIT_RATIO, 1.0 / 16, 0.0, 1.0,
     "alpha EWMA gain g: alpha = (1-g)*alpha + g*F once per window (paper and HPCC simulator: 1/16)"},
    {"initial_alpha", LIBCC_UNIT_RATIO, 1.0, 0.0, 1.0,
     "alpha of a new flow (the HPCC simulator and Linux start at 1: the first cut halves)"},
    {"rate_ai", LIBCC_UNIT_BPS, 615e6, 0.0, 1e12,
     "rate modes: added once per window of ACKs outside CWR; 615Mbps is one 1000 B MTU per 13 us "
     "(the HPCC simulator's run.py)"},
    {"min_rate", LIBCC_UNIT_BPS, 1e9, 1.0, 1e12,
     "rate modes: floor of a cut (the HPCC simulator's MIN_RATE)"},
    {"window", LIBCC_UNIT_COUNT, 1, 0, 2,
     "0: rate only; 1: rate plus a window of rate*T (the HPCC simulator's VAR_WIN); "
     "2: window-based DCTCP of the paper, unpaced"},
    {"base_rtt", LIBCC_UNIT_NS, 0.0, 0.0, 1e9,
     "T of the windows; 0: the flow's base_rtt_ns (5us if that is 0 too)"},
    {"k", LIBCC_UNIT_BYTES, 0.0, 0.0, 1e9,
     "switch marks data CE when its queue exceeds K; 0: 3 KB per Gbps of the port "
     "(the HPCC simulator's 300KB at 100Gbps)"},
    {"mark_at_dequeue", LIBCC_UNIT_BOOL, 1, 0, 1,
     "compare the queue with K when the packet leaves (HPCC simulator) or arrives (0, the paper)"},
};

static const libcc_preset_desc dctcp_presets[] = {
    {"hpcc-sim", "g=1/16 initial_alpha=1 rate_ai=615Mbps min_rate=1Gbps window=1 k=0B mark_at_dequeue=1",
     "the HPCC simulator's run.py --cc dctcp (CC_MODE 8, HAS_WIN 1, VAR_WIN 1); the defaults"},
    {"paper", "g=1/16 initial_alpha=1 window=2 mark_at_dequeue=0",
     "window-based DCTCP (Alizadeh et al., SIGCOMM 2010): cut cwnd, one MTU per window, marks on "
     "arrival"},
};

static int dctcp_cfg_init(void *cfg, const double *v, char *err, size_t err_len)
{
    (void)err;
    (void)err_len;
    dctcp_cfg *c = cfg;
    c->g = v[0];
    c->initial_alpha = v[1];
    c->rate_ai_bps = (uint64_t)v[2];
    c->min_rate_bps = (uint64_t)v[3];
    c->mode = (uint32_t)v[4];
    c->base_rtt_ns = (uint64_t)v[5];
    c->k_bytes = (uint64_t)v[6];
    c->mark_at_dequeue = v[7] != 0.0;
    return LIBCC_OK;
}

static dctcp_rp_state *st(libcc_rp *rp)
{
    return (dctcp_rp_state *)(void *)libcc_rp_state(rp);
}

static const dctcp_cfg *cfg_of(const libcc_rp *rp)
{
    return (const dctcp_cfg *)libcc_rp_config(rp);
}

/* What the host sees: a paced rate (with a rate*T window in VAR_WIN mode),
 * or an unpaced window. */
static void dctcp_apply(libcc_rp *rp, const dctcp_rp_state *s)
{
    switch (cfg_of(rp)->mode) {
    case DCTCP_WINDOW:
        libcc_rp_set_rate_bps(rp, libcc_rp_flow(rp)->line_rate_bps);
        libcc_rp_set_window_bytes(rp, libcc_sat_u64(s->cwnd + 0.5));
        break;
    case DCTCP_RATE_VARWIN:
        libcc_rp_set_rate_bps(rp, libcc_sat_u64(s->rate + 0.5));
        libcc_rp_set_window_bytes(rp, algo_rate_to_window(s->rate, s->t_ns));
        break;
    default:
        libcc_rp_set_rate_bps(rp, libcc_sat_u64(s->rate + 0.5));
        libcc_rp_set_window_bytes(rp, LIBCC_WINDOW_UNLIMITED);
    }
}

static void dctcp_rp_init(libcc_rp *rp, uint64_t now_ns)
{
    (void)now_ns;
    const dctcp_cfg *c = cfg_of(rp);
    dctcp_rp_state *s = st(rp);
    memset(s, 0, sizeof *s);
    s->alpha = c->initial_alpha;
    s->rate = (double)libcc_rp_flow(rp)->line_rate_bps;
    s->t_ns = algo_base_rtt(c->base_rtt_ns, rp);
    s->w_max = algo_bdp_bytes(libcc_rp_flow(rp)->line_rate_bps, s->t_ns);
    s->cwnd = s->w_max; /* RDMA NICs start at line rate: a BDP of window */
    dctcp_apply(rp, s);
}

static double floor_rate(const libcc_rp *rp)
{
    const uint64_t m = cfg_of(rp)->min_rate_bps;
    return (double)(m < libcc_rp_flow(rp)->line_rate_bps ? m : libcc_rp_flow(rp)->line_rate_bps);
}

/* alpha and F (the marked fraction of the last complete window) decide
 * both the cut and whether there is one. */
static void explain(libcc_rp *rp, const dctcp_rp_state *s, const char *action)
{
    if (!libcc_rp_logging(rp))
        return;
    const libcc_decision_input in[] = {{"alpha", s->alpha}, {"F", s->frac}};
    libcc_rp_explain(rp, action, in, sizeof in / sizeof in[0]);
}

static int dctcp_rp_on_ack(libcc_rp *rp, uint64_t now_ns, const libcc_ack *ack)
{
    (void)now_ns;
    const dctcp_cfg *c = cfg_of(rp);
    dctcp_rp_state *s = st(rp);
    const double mtu = (double)libcc_rp_flow(rp)->mtu_bytes;
    const bool ecn = ack->ecn_echo != 0;
    bool new_batch = false;
    uint64_t acked = 0;

    if (ack->seq > s->snd_una) {
        acked = ack->seq - s->snd_una;
        s->snd_una = ack->seq;
    }
    if (ecn && s->ecn_cnt < UINT32_MAX)
        s->ecn_cnt++;
    if (ack->seq > s->last_update_seq || !s->started) { /* a window of ACKs is complete */
        new_batch = true;
        uint64_t inflight;
        if (!s->started) {
            /* first ACK: the window is what was sent so far */
            s->started = 1;
            inflight = libcc_rp_snd_nxt(rp);
        } else {
            s->frac = (double)s->ecn_cnt / (double)s->batch;
            if (s->frac > 1.0)
                s->frac = 1.0;
            s->alpha = (1.0 - c->g) * s->alpha + c->g * s->frac;
            s->ecn_cnt = 0;
            inflight = libcc_rp_snd_nxt(rp) > ack->seq ? libcc_rp_snd_nxt(rp) - ack->seq : 0;
        }
        s->last_update_seq = libcc_rp_snd_nxt(rp);
        const uint64_t pkts = inflight / libcc_rp_flow(rp)->mtu_bytes + 1;
        s->batch = pkts > UINT32_MAX ? UINT32_MAX : (uint32_t)pkts;
    }
    if (s->cwr && ack->seq > s->high_seq) /* CWR ends: the window after the cut is acked */
        s->cwr = 0;
    if (ecn && !s->cwr) { /* cut by alpha/2, at most once per window */
        if (c->mode == DCTCP_WINDOW) {
            s->cwnd = algo_clamp(s->cwnd * (1.0 - s->alpha / 2.0), mtu, s->w_max);
        } else {
            const double r = s->rate * (1.0 - s->alpha / 2.0);
            s->rate = r > floor_rate(rp) ? r : floor_rate(rp);
        }
        s->cwr = 1;
        s->high_seq = libcc_rp_snd_nxt(rp);
        s->cuts++;
        explain(rp, s, "cut");
    } else if (!s->cwr) { /* additive increase */
        if (c->mode == DCTCP_WINDOW) {
            /* congestion avoidance: one MTU per window of acked data */
            s->cwnd = algo_clamp(s->cwnd + mtu * (double)acked / s->cwnd, mtu, s->w_max);
            explain(rp, s, "additive-increase");
        } else if (new_batch) {
            const double r = s->rate + (double)c->rate_ai_bps, line = (double)libcc_rp_flow(rp)->line_rate_bps;
            s->rate = r < line ? r : line;
            explain(rp, s, "additive-increase");
        }
    }
    dctcp_apply(rp, s);
    return LIBCC_OK;
}

static const libcc_param_desc dctcp_vars[] = {
    {"alpha", LIBCC_UNIT_RATIO, 0, 0, 0, "EWMA of the marked fraction"},
    {"F", LIBCC_UNIT_RATIO, 0, 0, 0, "marked fraction of the last complete window"},
    {"rate", LIBCC_UNIT_BPS, 0, 0, 0, "rate before rounding (rate modes)"},
    {"cwnd", LIBCC_UNIT_BYTES, 0, 0, 0, "congestion window before rounding (window mode)"},
    {"cwr", LIBCC_UNIT_BOOL, 0, 0, 0, "in CWR: no further cut or increase until high_seq is acked"},
    {"cuts", LIBCC_UNIT_COUNT, 0, 0, 0, "cuts so far"},
};
#define DCTCP_N_VARS (sizeof dctcp_vars / sizeof dctcp_vars[0])

static void dctcp_read_vars(const libcc_rp *rp, double *v)
{
    const dctcp_rp_state *s = (const dctcp_rp_state *)libcc_rp_state_const(rp);
    v[0] = s->alpha;
    v[1] = s->frac;
    v[2] = s->rate;
    v[3] = s->cwnd;
    v[4] = s->cwr;
    v[5] = (double)s->cuts;
}

/* ---- Congestion Point: step marking at K ---- */

static uint64_t dctcp_k(const libcc_cp *cp)
{
    const dctcp_cfg *c = (const dctcp_cfg *)libcc_cp_config(cp);
    if (c->k_bytes)
        return c->k_bytes;
    /* 30 KB per 10 Gbps, as the HPCC simulator's run.py maps K to link rates */
    return libcc_sat_u64((double)libcc_cp_get_info(cp)->link_rate_bps * 3e-6);
}

static double dctcp_cp_mark_probability(const libcc_cp *cp, uint64_t queue_bytes)
{
    return queue_bytes > dctcp_k(cp) ? 1.0 : 0.0;
}

static void dctcp_mark(libcc_cp *cp, libcc_cp_pkt *pkt)
{
    if (pkt->kind == LIBCC_PKT_DATA && pkt->ecn_capable && pkt->queue_bytes > dctcp_k(cp))
        pkt->mark_ce = 1;
}

static int dctcp_cp_on_enqueue(libcc_cp *cp, uint64_t now_ns, libcc_cp_pkt *pkt)
{
    (void)now_ns;
    if (!((const dctcp_cfg *)libcc_cp_config(cp))->mark_at_dequeue)
        dctcp_mark(cp, pkt);
    return LIBCC_OK;
}

static int dctcp_cp_on_dequeue(libcc_cp *cp, uint64_t now_ns, libcc_cp_pkt *pkt)
{
    (void)now_ns;
    if (((const dctcp_cfg *)libcc_cp_config(cp))->mark_at_dequeue)
        dctcp_mark(cp, pkt);
    return LIBCC_OK;
}

static const libcc_rp_ops dctcp_rp_ops = {
    .state_size = sizeof(dctcp_rp_state),
    .vars = dctcp_vars,
    .n_vars = DCTCP_N_VARS,
    .init = dctcp_rp_init,
    .on_ack = dctcp_rp_on_ack,
    .on_nack = dctcp_rp_on_ack, /* a NACK echoes a mark like an ACK */
    .read_vars = dctcp_read_vars,
};

static const libcc_cp_ops dctcp_cp_ops = {
    .on_enqueue = dctcp_cp_on_enqueue,
    .on_dequeue = dctcp_cp_on_dequeue,
    .mark_probability = dctcp_cp_mark_probability,
};

const libcc_algorithm libcc_algorithm_dctcp = {
    .abi_version = LIBCC_ALGORITHM_ABI_VERSION,
    .name = "dctcp",
    .hpcc_sim_cc_mode = 8, /* the HPCC simulator's CC_MODE (run.py) */
    .roles = LIBCC_ROLE_RP | LIBCC_ROLE_NP | LIBCC_ROLE_CP,
    .data_int = LIBCC_INT_FORMAT_NONE,
    .ack_int = LIBCC_INT_FORMAT_NONE,
    .signals = LIBCC_SIGNAL_ACK_ECN_ECHO, /* the NP core echoes each packet's CE */
    .params = dctcp_params,
    .n_params = sizeof dctcp_params / sizeof dctcp_params[0],
    .cfg_init = dctcp_cfg_init,
    .cfg_size = sizeof(dctcp_cfg),
    .presets = dctcp_presets,
    .n_presets = sizeof dctcp_presets / sizeof dctcp_presets[0],
    .rp = &dctcp_rp_ops,
    .cp = &dctcp_cp_ops,
};
