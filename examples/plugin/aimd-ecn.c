/* SPDX-License-Identifier: MIT */
/*
 * `aimd-ecn`: a libcc algorithm as a plugin, the worked example of
 * docs/writing-an-algorithm.md. MIT like libcc itself (not GPL like the
 * rest of examples/), so you may copy it into your own module under any
 * licence.
 *
 * The classic AIMD rule on RoCE: switches mark data CE when the egress
 * queue is above k, the receiver echoes each packet's mark in its ACK, and
 * the sender
 *   - cuts its rate to md * rate on an echoed mark, at most once per window
 *     of data (until the ACKs pass what had been sent at the cut), never
 *     below min_rate;
 *   - adds ai_rate once per RTT without a mark, up to the line rate.
 * It uses only existing signals (ECN echo per ACK), so every program of
 * libcc runs it without a change. Built with <libcc/algorithm.h> alone.
 */
#include <libcc/algorithm.h>

/* The parameters, in table order: cfg_init receives their values so. */
enum { P_AI_RATE, P_MD, P_MIN_RATE, P_RTT, P_K, N_PARAMS };

static const libcc_param_desc aimd_params[N_PARAMS] = {
    [P_AI_RATE] = {"ai_rate", LIBCC_UNIT_BPS, 2e9, 1.0, 1e12,
                   "additive increase: added to the rate once per RTT without a mark"},
    [P_MD] = {"md", LIBCC_UNIT_RATIO, 0.8, 0.01, 0.99,
              "multiplicative decrease: the rate after a cut is md * rate"},
    [P_MIN_RATE] = {"min_rate", LIBCC_UNIT_BPS, 1e9, 1.0, 1e12, "no cut goes below it"},
    [P_RTT] = {"rtt", LIBCC_UNIT_NS, 0.0, 0.0, 1e9,
               "the period of the additive increase; 0: the flow's base RTT (10us if unknown)"},
    [P_K] = {"k", LIBCC_UNIT_BYTES, 40e3, 1.0, 1e9,
             "switches mark data CE when the queue it joins holds more than k"},
};

static const libcc_preset_desc aimd_presets[] = {
    {"tcp", "md=0.5 ai_rate=1Gbps", "halve on a mark, as TCP Reno does on a loss"},
};

/* The typed configuration: filled once from validated values. */
typedef struct aimd_cfg {
    uint64_t ai_rate_bps;
    double md;
    uint64_t min_rate_bps;
    uint64_t rtt_ns;
    uint64_t k_bytes;
} aimd_cfg;

/* One sending flow's state (libcc zeroes it before init). */
typedef struct aimd_rp {
    double rate;            /* bits/s, before rounding */
    uint64_t rtt_ns;        /* the increase period */
    uint64_t last_increase_ns;
    uint64_t cut_until_seq; /* no second cut before the ACKs pass it */
    uint64_t cuts;
} aimd_rp;

static int aimd_cfg_init(void *cfg, const double *v, char *err, size_t err_len)
{
    (void)err;
    (void)err_len;
    aimd_cfg *c = cfg;
    c->ai_rate_bps = libcc_sat_u64(v[P_AI_RATE]);
    c->md = v[P_MD];
    c->min_rate_bps = libcc_sat_u64(v[P_MIN_RATE]);
    c->rtt_ns = libcc_sat_u64(v[P_RTT]);
    c->k_bytes = libcc_sat_u64(v[P_K]);
    return LIBCC_OK;
}

/* ---- Reaction Point: the sender ---- */

static void aimd_apply(libcc_rp *rp, const aimd_rp *s)
{
    libcc_rp_set_rate_bps(rp, libcc_sat_u64(s->rate + 0.5));
}

static void aimd_rp_init(libcc_rp *rp, uint64_t now_ns)
{
    const aimd_cfg *c = libcc_rp_config(rp);
    const libcc_flow_info *flow = libcc_rp_flow(rp);
    aimd_rp *s = libcc_rp_state(rp);
    s->rate = (double)flow->line_rate_bps; /* RDMA NICs start at line rate */
    s->rtt_ns = c->rtt_ns ? c->rtt_ns : flow->base_rtt_ns ? flow->base_rtt_ns : 10000;
    s->last_increase_ns = now_ns;
    aimd_apply(rp, s);
}

static int aimd_rp_on_ack(libcc_rp *rp, uint64_t now_ns, const libcc_ack *ack)
{
    const aimd_cfg *c = libcc_rp_config(rp);
    const double line = (double)libcc_rp_flow(rp)->line_rate_bps;
    aimd_rp *s = libcc_rp_state(rp);
    const char *action = NULL;

    if (ack->ecn_echo && ack->seq >= s->cut_until_seq) {
        const double lowest = (double)c->min_rate_bps < line ? (double)c->min_rate_bps : line;
        const double r = s->rate * c->md;
        s->rate = r > lowest ? r : lowest;
        s->cut_until_seq = libcc_rp_snd_nxt(rp);
        s->last_increase_ns = now_ns; /* the next RTT starts now */
        s->cuts++;
        action = "cut";
    } else if (!ack->ecn_echo && now_ns - s->last_increase_ns >= s->rtt_ns) {
        const double r = s->rate + (double)c->ai_rate_bps;
        s->rate = r < line ? r : line;
        s->last_increase_ns = now_ns;
        action = "additive-increase";
    }
    /* Why the rate moved, for a host that logs decisions (--ccLog); one
     * test when none does. */
    if (action && libcc_rp_logging(rp)) {
        const libcc_decision_input in[] = {{"ecn_echo", ack->ecn_echo}, {"cuts", (double)s->cuts}};
        libcc_rp_explain(rp, action, in, sizeof in / sizeof in[0]);
    }
    aimd_apply(rp, s);
    return LIBCC_OK;
}

static const libcc_param_desc aimd_vars[] = {
    {"rate", LIBCC_UNIT_BPS, 0, 0, 0, "rate before rounding"},
    {"cuts", LIBCC_UNIT_COUNT, 0, 0, 0, "cuts so far"},
};

static void aimd_read_vars(const libcc_rp *rp, double *v)
{
    const aimd_rp *s = libcc_rp_state_const(rp);
    v[0] = s->rate;
    v[1] = (double)s->cuts;
}

static const libcc_rp_ops aimd_rp_ops = {
    .state_size = sizeof(aimd_rp),
    .init = aimd_rp_init,
    .on_ack = aimd_rp_on_ack,
    .on_nack = aimd_rp_on_ack, /* a NACK echoes a mark as an ACK does */
    .vars = aimd_vars,
    .n_vars = sizeof aimd_vars / sizeof aimd_vars[0],
    .read_vars = aimd_read_vars,
};

/* ---- Notification Point: the receiver echoes each packet's mark ---- */

static int aimd_np_on_data(libcc_np *np, libcc_np_flow *flow, uint64_t now_ns,
                           const libcc_data_pkt *pkt, libcc_np_verdict *verdict)
{
    (void)np;
    (void)flow;
    (void)now_ns;
    verdict->ack.ecn_echo = pkt->ecn_ce;
    return LIBCC_OK;
}

static const libcc_np_ops aimd_np_ops = {
    .on_data = aimd_np_on_data,
};

/* ---- Congestion Point: a switch port marks above k ---- */

static double aimd_mark_probability(const libcc_cp *cp, uint64_t queue_bytes)
{
    const aimd_cfg *c = libcc_cp_config(cp);
    return queue_bytes > c->k_bytes ? 1.0 : 0.0;
}

static int aimd_cp_on_enqueue(libcc_cp *cp, uint64_t now_ns, libcc_cp_pkt *pkt)
{
    (void)now_ns;
    if (pkt->kind == LIBCC_PKT_DATA && pkt->ecn_capable &&
        aimd_mark_probability(cp, pkt->queue_bytes) > 0.0)
        pkt->mark_ce = 1;
    return LIBCC_OK;
}

static const libcc_cp_ops aimd_cp_ops = {
    .on_enqueue = aimd_cp_on_enqueue,
    .mark_probability = aimd_mark_probability,
};

/* ---- What it is ---- */

static const libcc_algorithm aimd_ecn = {
    .abi_version = LIBCC_ALGORITHM_ABI_VERSION,
    .name = "aimd-ecn",
    .summary = "AIMD on ECN echoes: +ai_rate per RTT, *md on a marked ACK (example plugin)",
    .roles = LIBCC_ROLE_RP | LIBCC_ROLE_NP | LIBCC_ROLE_CP,
    .data_int = LIBCC_INT_FORMAT_NONE,
    .ack_int = LIBCC_INT_FORMAT_NONE,
    .signals = LIBCC_SIGNAL_ACK_ECN_ECHO,
    .params = aimd_params,
    .n_params = N_PARAMS,
    .presets = aimd_presets,
    .n_presets = sizeof aimd_presets / sizeof aimd_presets[0],
    .cfg_size = sizeof(aimd_cfg),
    .cfg_init = aimd_cfg_init,
    .rp = &aimd_rp_ops,
    .np = &aimd_np_ops,
    .cp = &aimd_cp_ops,
};

/* The one symbol a plugin exports (LIBCC_PLUGIN_ENTRY). */
__attribute__((visibility("default"))) int libcc_plugin_init(char *err, size_t err_len)
{
    return libcc_algorithm_register(&aimd_ecn, err, err_len);
}

/* A plugin must fit libcc's fixed areas: checked when it is compiled. */
_Static_assert(sizeof(aimd_cfg) <= LIBCC_ALGORITHM_CFG_MAX, "aimd_cfg too large");
_Static_assert(N_PARAMS <= LIBCC_MAX_ALGORITHM_PARAMS, "too many parameters");
