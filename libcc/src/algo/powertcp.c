/* SPDX-License-Identifier: MIT */
/*
 * `powertcp` and `theta-powertcp`: PowerTCP (Addanki et al., NSDI 2022).
 * The sender reacts to the bottleneck's normalised power, current x
 * voltage: (queue growth + transmit rate) x (queue + bandwidth-delay
 * product), over B^2 tau. PowerTCP reads both from INT (HPCC's hop
 * records, Algorithm 1); theta-PowerTCP from the RTT and its gradient
 * alone (Algorithm 2). Both update the window as
 *   cwnd = gamma (cwnd_old / Gamma + beta) + (1 - gamma) cwnd,
 * with cwnd_old the window of the last once-per-RTT update. The `hpcc-sim`
 * presets are PowerTCP's public simulator (inet-tub/ns3-datacenter,
 * rdma-hw.cc UpdateRatePower). docs/algorithms/powertcp.md maps each line.
 */
#include "algo_util.h"
#include "hpcc_core.h" /* HPCC's INT: stamp, echo, path check */

#include <string.h>

typedef struct ptcp_cfg {
    double gamma;
    double eta;
    double min_current;
    uint64_t beta_rate_bps;
    uint64_t base_rtt_ns;
    bool ewma_on_old;
    bool track_min_rtt; /* theta only */
} ptcp_cfg;
LIBCC_CHECK_CFG(ptcp_cfg);

typedef struct ptcp_rp_state {
    double cwnd, cwnd_old; /* bytes */
    double w_min, w_max;
    double gamma_smooth; /* smoothed normalised power */
    double gamma_norm;   /* the last ACK's */
    double tau_ns;
    uint64_t last_updated_seq;
    uint64_t prev_rtt_ns;
    uint64_t prev_ack_ns;
    uint64_t updates;
    uint8_t have_prev; /* theta: a previous RTT; INT: prev list valid */
    libcc_int_list prev; /* INT: the previous ACK's hops */
} ptcp_rp_state;
LIBCC_CHECK_RP_STATE(ptcp_rp_state);

#define PTCP_ROWS                                                                               \
    {"gamma", LIBCC_UNIT_RATIO, 0.9, 0.0, 1.0,                                                  \
     "EWMA weight of the new window: cwnd = gamma*(cwnd_old/Gamma + beta) + (1-gamma)*cwnd"},   \
        {"beta_rate", LIBCC_UNIT_BPS, 150e6, 0.0, 1e12,                                         \
         "additive increase beta as a rate: beta = beta_rate * tau bytes (150Mbps: the "        \
         "PowerTCP simulator's)"},                                                              \
        {"eta", LIBCC_UNIT_RATIO, 1.0, 0.01, 2.0,                                               \
         "normalised power the window aims at: cwnd_old * eta / Gamma (1: the paper)"},         \
        {"min_current", LIBCC_UNIT_RATIO, 0.0, 0.0, 1.0,                                        \
         "floor of the current, as a fraction of the bandwidth (0: the paper)"},                \
        {"base_rtt", LIBCC_UNIT_NS, 0.0, 0.0, 1e9,                                              \
         "tau, the base RTT; 0: the flow's base_rtt_ns (5us if that is 0 too)"},                \
        {"ewma_on_old", LIBCC_UNIT_BOOL, 0, 0, 1,                                               \
         "the (1-gamma) share keeps cwnd_old instead of the current window (the simulator)"}

static const libcc_param_desc ptcp_params[] = {PTCP_ROWS};
static const libcc_param_desc theta_params[] = {
    PTCP_ROWS,
    {"track_min_rtt", LIBCC_UNIT_BOOL, 0, 0, 1,
     "tau follows the smallest RTT seen (the simulator); 0: tau stays the base RTT"},
};

static const libcc_preset_desc ptcp_presets[] = {
    {"hpcc-sim", "gamma=0.9 beta_rate=150Mbps eta=0.95 min_current=0.5 ewma_on_old=1",
     "PowerTCP's simulator (inet-tub/ns3-datacenter rdma-hw.cc, UpdateRatePower, INT mode)"},
};
static const libcc_preset_desc theta_presets[] = {
    {"hpcc-sim", "gamma=0.7 beta_rate=150Mbps eta=1.05 min_current=0.5 ewma_on_old=1 track_min_rtt=1",
     "PowerTCP's simulator (UpdateRatePower with PowerTCPdelay)"},
};

static int ptcp_cfg_init(void *cfg, const double *v, char *err, size_t err_len)
{
    (void)err;
    (void)err_len;
    ptcp_cfg *c = cfg;
    c->gamma = v[0];
    c->beta_rate_bps = (uint64_t)v[1];
    c->eta = v[2];
    c->min_current = v[3];
    c->base_rtt_ns = (uint64_t)v[4];
    c->ewma_on_old = v[5] != 0.0;
    c->track_min_rtt = false;
    return LIBCC_OK;
}

static int theta_cfg_init(void *cfg, const double *v, char *err, size_t err_len)
{
    int rc = ptcp_cfg_init(cfg, v, err, err_len);
    ((ptcp_cfg *)cfg)->track_min_rtt = v[6] != 0.0;
    return rc;
}

static ptcp_rp_state *st(libcc_rp *rp)
{
    return (ptcp_rp_state *)(void *)libcc_rp_state(rp);
}

static const ptcp_cfg *cfg_of(const libcc_rp *rp)
{
    return (const ptcp_cfg *)libcc_rp_config(rp);
}

static void ptcp_apply(libcc_rp *rp, const ptcp_rp_state *s)
{
    libcc_rp_set_window_bytes(rp, libcc_sat_u64(s->cwnd + 0.5));
    libcc_rp_set_rate_bps(rp, libcc_sat_u64(s->cwnd * ALGO_BIT_NS_PER_BYTE_S / s->tau_ns + 0.5)); /* rate = cwnd/tau */
}

static void ptcp_rp_init(libcc_rp *rp, uint64_t now_ns)
{
    (void)now_ns;
    ptcp_rp_state *s = st(rp);
    memset(s, 0, sizeof *s);
    const uint64_t tau = algo_base_rtt(cfg_of(rp)->base_rtt_ns, rp);
    s->tau_ns = (double)tau;
    s->w_max = algo_bdp_bytes(libcc_rp_flow(rp)->line_rate_bps, tau);
    s->w_min = (double)libcc_rp_flow(rp)->mtu_bytes < s->w_max ? (double)libcc_rp_flow(rp)->mtu_bytes : s->w_max;
    s->cwnd = s->cwnd_old = s->w_max; /* line rate at the start, as HPCC */
    s->gamma_smooth = 1.0;
    libcc_int_list_init(&s->prev);
    ptcp_apply(rp, s);
}

/* Smoothing over the time the sample covers (Algorithm 1, NORMPOWER's
 * last lines), then UPDATEWINDOW. */
static void ptcp_update(libcc_rp *rp, ptcp_rp_state *s, const libcc_ack *ack, double gnorm,
                        double dt)
{
    const ptcp_cfg *c = cfg_of(rp);
    if (dt > s->tau_ns)
        dt = s->tau_ns;
    s->gamma_norm = gnorm;
    s->gamma_smooth = (s->gamma_smooth * (s->tau_ns - dt) + gnorm * dt) / s->tau_ns;
    if (ack->seq >= s->last_updated_seq) { /* once per RTT */
        s->cwnd_old = s->cwnd;
        s->last_updated_seq = libcc_rp_snd_nxt(rp);
    }
    const double beta = (double)c->beta_rate_bps * s->tau_ns / ALGO_BIT_NS_PER_BYTE_S;
    /* cwnd_old * eta / Gamma, without dividing by a Gamma of 0 */
    double target = s->gamma_smooth * s->w_max > s->cwnd_old * c->eta
                        ? s->cwnd_old * c->eta / s->gamma_smooth
                        : s->w_max;
    const double keep = c->ewma_on_old ? s->cwnd_old : s->cwnd;
    const double before = s->cwnd;
    s->cwnd = algo_clamp(c->gamma * (target + beta) + (1.0 - c->gamma) * keep, s->w_min, s->w_max);
    s->updates++;
    ptcp_apply(rp, s);
    if (libcc_rp_logging(rp)) {
        const libcc_decision_input in[] = {{"power", s->gamma_smooth},
                                           {"power_sample", gnorm},
                                           {"gamma", c->gamma},
                                           {"target_window", target},
                                           {"cwnd_old", s->cwnd_old}};
        libcc_rp_explain(rp, s->cwnd < before ? "decrease" : s->cwnd > before ? "increase" : "hold",
                         in, sizeof in / sizeof in[0]);
    }
}

/* Algorithm 1, NORMPOWER: the largest normalised power over the hops, and
 * the time its sample covers. false when no hop gives one. */
static bool int_power(const ptcp_cfg *c, const ptcp_rp_state *s, const libcc_int_list *l,
                      double *gnorm, double *dt_out)
{
    const unsigned ts_bits = hpcc_int_width(l->ts_bits), tx_bits = hpcc_int_width(l->tx_bits);
    bool any = false;
    for (unsigned i = 0; i < l->n_hops; i++) {
        const libcc_int_hop *h = &l->hop[i], *p = &s->prev.hop[i];
        const uint64_t dts = libcc_wrap_diff(h->ts_ns, p->ts_ns, ts_bits);
        const uint64_t dtx = libcc_wrap_diff(h->tx_bytes, p->tx_bytes, tx_bits);
        /* no rate to normalise by, no time passed, or a counter ran
         * backwards (more than half a wrap) */
        if (h->bandwidth_bps == 0 || dts == 0 || (ts_bits < 64 && dts > (UINT64_C(1) << (ts_bits - 1))) ||
            (tx_bits < 64 && dtx > (UINT64_C(1) << (tx_bits - 1))))
            continue;
        const double B = (double)h->bandwidth_bps, dt = (double)dts;
        const double bdp = B * s->tau_ns / ALGO_BIT_NS_PER_BYTE_S; /* bytes */
        const double qdot = ((double)h->qlen_bytes - (double)p->qlen_bytes) / dt;   /* B/ns */
        const double mu = (double)dtx / dt;                                          /* B/ns */
        double lambda = (qdot + mu) * ALGO_BIT_NS_PER_BYTE_S;                       /* bits/s */
        if (lambda < c->min_current * B)
            lambda = c->min_current * B;
        /* Gamma' / e = lambda (q + B tau) / (B^2 tau) */
        const double g = lambda / B * ((double)h->qlen_bytes + bdp) / bdp;
        if (!any || g > *gnorm) {
            *gnorm = g;
            *dt_out = dt;
        }
        any = true;
    }
    return any;
}

static int ptcp_rp_on_ack(libcc_rp *rp, uint64_t now_ns, const libcc_ack *ack)
{
    (void)now_ns;
    ptcp_rp_state *s = st(rp);
    const libcc_int_list *l = ack->int_list;
    if (!l || l->n_hops == 0)
        return LIBCC_OK; /* no telemetry */
    if (l->n_hops > libcc_rp_common(rp)->max_hops)
        return LIBCC_ERR_BAD_TELEMETRY;
    double g = 0.0, dt = 0.0;
    const bool usable = s->have_prev && hpcc_same_path(l, &s->prev) && int_power(cfg_of(rp), s, l, &g, &dt);
    /* the new list is the reference of the next ACK (Algorithm 1: prevInt) */
    s->prev.n_hops = l->n_hops;
    s->prev.ts_bits = l->ts_bits;
    s->prev.tx_bits = l->tx_bits;
    memcpy(s->prev.hop, l->hop, l->n_hops * sizeof l->hop[0]);
    s->have_prev = 1;
    if (usable)
        ptcp_update(rp, s, ack, g, dt);
    return LIBCC_OK;
}

/* Algorithm 2: theta-PowerTCP, power from the RTT. */
static int theta_rp_on_ack(libcc_rp *rp, uint64_t now_ns, const libcc_ack *ack)
{
    const ptcp_cfg *c = cfg_of(rp);
    ptcp_rp_state *s = st(rp);
    uint64_t rtt;
    if (!libcc_ack_rtt(ack, now_ns, &rtt))
        return LIBCC_OK;
    if (c->track_min_rtt && rtt > 0 && (double)rtt < s->tau_ns)
        s->tau_ns = (double)rtt;
    if (s->have_prev && now_ns > s->prev_ack_ns) {
        const double dt = (double)(now_ns - s->prev_ack_ns);
        double current = ((double)rtt - (double)s->prev_rtt_ns) / dt + 1.0; /* theta-dot + 1 */
        if (current < c->min_current)
            current = c->min_current;
        ptcp_update(rp, s, ack, current * (double)rtt / s->tau_ns, dt);
    }
    s->prev_rtt_ns = rtt;
    s->prev_ack_ns = now_ns;
    s->have_prev = 1;
    return LIBCC_OK;
}

static const libcc_param_desc ptcp_vars[] = {
    {"cwnd", LIBCC_UNIT_BYTES, 0, 0, 0, "window before rounding"},
    {"cwnd_old", LIBCC_UNIT_BYTES, 0, 0, 0, "window at the last once-per-RTT update"},
    {"power", LIBCC_UNIT_RATIO, 0, 0, 0, "smoothed normalised power Gamma"},
    {"power_sample", LIBCC_UNIT_RATIO, 0, 0, 0, "the last ACK's normalised power"},
    {"tau", LIBCC_UNIT_NS, 0, 0, 0, "tau in use"},
    {"updates", LIBCC_UNIT_COUNT, 0, 0, 0, "window updates"},
};
#define PTCP_N_VARS (sizeof ptcp_vars / sizeof ptcp_vars[0])

static void ptcp_read_vars(const libcc_rp *rp, double *v)
{
    const ptcp_rp_state *s = (const ptcp_rp_state *)libcc_rp_state_const(rp);
    v[0] = s->cwnd;
    v[1] = s->cwnd_old;
    v[2] = s->gamma_smooth;
    v[3] = s->gamma_norm;
    v[4] = s->tau_ns;
    v[5] = (double)s->updates;
}

static const libcc_rp_ops powertcp_rp_ops = {
    .state_size = sizeof(ptcp_rp_state),
    .vars = ptcp_vars,
    .n_vars = PTCP_N_VARS,
    .init = ptcp_rp_init,
    .on_ack = ptcp_rp_on_ack,
    .on_nack = ptcp_rp_on_ack, /* a NACK echoes the same telemetry */
    .on_tx = hpcc_rp_int_every_packet, /* every data packet collects INT */
    .read_vars = ptcp_read_vars,
};

static const libcc_np_ops powertcp_np_ops = {
    .on_data = hpcc_np_echo, /* the receiver echoes the hops */
};

static const libcc_cp_ops powertcp_cp_ops = {
    .on_dequeue = hpcc_cp_stamp,
};

const libcc_algorithm libcc_algorithm_powertcp = {
    .abi_version = LIBCC_ALGORITHM_ABI_VERSION,
    .name = "powertcp",
    .roles = LIBCC_ROLE_RP | LIBCC_ROLE_NP | LIBCC_ROLE_CP,
    .data_int = LIBCC_INT_FORMAT_HPCC, /* HPCC's hop: B, ts, txBytes, qLen */
    .ack_int = LIBCC_INT_FORMAT_HPCC,
    .params = ptcp_params,
    .n_params = sizeof ptcp_params / sizeof ptcp_params[0],
    .cfg_init = ptcp_cfg_init,
    .cfg_size = sizeof(ptcp_cfg),
    .presets = ptcp_presets,
    .n_presets = sizeof ptcp_presets / sizeof ptcp_presets[0],
    .rp = &powertcp_rp_ops,
    .np = &powertcp_np_ops,
    .cp = &powertcp_cp_ops,
};

static const libcc_rp_ops theta_powertcp_rp_ops = {
    .state_size = sizeof(ptcp_rp_state),
    .vars = ptcp_vars,
    .n_vars = PTCP_N_VARS,
    .init = ptcp_rp_init,
    .on_ack = theta_rp_on_ack,
    .on_nack = theta_rp_on_ack,
    .read_vars = ptcp_read_vars,
};

const libcc_algorithm libcc_algorithm_theta_powertcp = {
    .abi_version = LIBCC_ALGORITHM_ABI_VERSION,
    .name = "theta-powertcp",
    .roles = LIBCC_ROLE_RP | LIBCC_ROLE_NP, /* the NP core echoes the timestamp */
    .data_int = LIBCC_INT_FORMAT_NONE,
    .ack_int = LIBCC_INT_FORMAT_NONE,
    .signals = LIBCC_SIGNAL_ACK_TX_TS,
    .params = theta_params,
    .n_params = sizeof theta_params / sizeof theta_params[0],
    .cfg_init = theta_cfg_init,
    .cfg_size = sizeof(ptcp_cfg),
    .presets = theta_presets,
    .n_presets = sizeof theta_presets / sizeof theta_presets[0],
    .rp = &theta_powertcp_rp_ops,
};
