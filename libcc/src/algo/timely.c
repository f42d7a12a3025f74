/* SPDX-License-Identifier: MIT */
/*
 * `timely`: TIMELY (Mittal et al., SIGCOMM 2015), rate control from the
 * RTT gradient. Algorithm 1 of the paper on every ACK that carries an RTT
 * sample (the data's echoed transmit timestamp); the `hpcc-sim` preset is
 * the HPCC simulator's variant (rdma-hw.cc, UpdateRateTimely, CC_MODE 7):
 * one update per window of ACKs, HAI after five increases of any kind.
 * docs/algorithms/timely.md maps each line to the code.
 */
#include "algo_util.h"

#include <stdio.h>
#include <string.h>

typedef struct timely_cfg {
    double alpha;
    double beta;
    uint64_t t_low_ns;
    uint64_t t_high_ns;
    uint64_t min_rtt_ns;
    uint64_t delta_bps;
    uint64_t hai_delta_bps;
    uint64_t min_rate_bps;
    uint32_t hai_thresh;
    bool per_window;
    bool hai_all_increases;
} timely_cfg;
LIBCC_CHECK_CFG(timely_cfg);

typedef struct timely_rp_state {
    double rate;     /* bits/s */
    double rtt_diff; /* EWMA of RTT differences, ns */
    double gradient; /* last normalized gradient */
    uint64_t prev_rtt_ns;
    uint64_t last_update_seq;
    uint64_t samples;
    uint32_t hai_count; /* completions counted toward HAI */
    uint8_t have_prev;
    uint8_t region; /* 0 none yet, 1 T_low, 2 T_high, 3 gradient <= 0, 4 gradient > 0 */
} timely_rp_state;
LIBCC_CHECK_RP_STATE(timely_rp_state);

static const libcc_param_desc timely_params[] = {
    {"alpha", LIBCC_UNIT_RATIO, 0.875, 0.0, 1.0,
     "EWMA weight of a new RTT difference: rtt_diff = (1-alpha)*rtt_diff + alpha*new_rtt_diff"},
    {"beta", LIBCC_UNIT_RATIO, 0.8, 0.0, 1.0, "multiplicative decrement factor beta"},
    {"t_low", LIBCC_UNIT_NS, 50e3, 0.0, 1e9, "below T_low an RTT only adds delta"},
    {"t_high", LIBCC_UNIT_NS, 500e3, 1.0, 1e9,
     "above T_high: rate *= 1 - beta*(1 - T_high/rtt), whatever the gradient"},
    {"min_rtt", LIBCC_UNIT_NS, 20e3, 1.0, 1e9, "minRTT normalising the gradient: rtt_diff/minRTT"},
    {"delta", LIBCC_UNIT_BPS, 10e6, 0.0, 1e12, "additive increment step delta"},
    {"hai_delta", LIBCC_UNIT_BPS, 50e6, 0.0, 1e12,
     "step in hyperactive increase (HAI): the paper's N*delta with N = 5"},
    {"hai_thresh", LIBCC_UNIT_COUNT, 5, 0, 1000000,
     "consecutive increases with gradient <= 0 before HAI (the paper's five completion events)"},
    {"min_rate", LIBCC_UNIT_BPS, 10e6, 1.0, 1e12, "floor of every decrease"},
    {"per_window", LIBCC_UNIT_BOOL, 0, 0, 1,
     "update once per window of ACKs, on the first ACK past the snd_nxt of the last update "
     "(the HPCC simulator); 0: on every ACK with an RTT sample (the paper's completion events)"},
    {"hai_all_increases", LIBCC_UNIT_BOOL, 0, 0, 1,
     "every increase, T_low ones too, counts toward and uses the HAI step (the HPCC simulator)"},
};

static const libcc_preset_desc timely_presets[] = {
    {"paper",
     "alpha=0.875 beta=0.8 t_low=50us t_high=500us min_rtt=20us delta=10Mbps hai_delta=50Mbps "
     "hai_thresh=5 min_rate=10Mbps per_window=0 hai_all_increases=0",
     "the TIMELY paper (Mittal et al., SIGCOMM 2015); the defaults"},
    {"hpcc-sim",
     "alpha=0.875 beta=0.8 t_low=50us t_high=500us min_rtt=20us delta=100Mbps hai_delta=500Mbps "
     "hai_thresh=5 min_rate=1Gbps per_window=1 hai_all_increases=1",
     "the HPCC simulator's run.py --cc timely at 100 Gbit/s (RATE_AI 100Mb/s, RATE_HAI 500Mb/s, "
     "MIN_RATE 1000Mb/s, Timely* attribute defaults)"},
};

static int timely_cfg_init(void *cfg, const double *v, char *err, size_t err_len)
{
    timely_cfg *c = cfg;
    c->alpha = v[0];
    c->beta = v[1];
    c->t_low_ns = (uint64_t)v[2];
    c->t_high_ns = (uint64_t)v[3];
    c->min_rtt_ns = (uint64_t)v[4];
    c->delta_bps = (uint64_t)v[5];
    c->hai_delta_bps = (uint64_t)v[6];
    c->hai_thresh = (uint32_t)v[7];
    c->min_rate_bps = (uint64_t)v[8];
    c->per_window = v[9] != 0.0;
    c->hai_all_increases = v[10] != 0.0;
    if (c->t_low_ns > c->t_high_ns) {
        if (err)
            snprintf(err, err_len, "t_low (%.0f ns) must not exceed t_high (%.0f ns)", v[2], v[3]);
        return LIBCC_ERR_OUT_OF_RANGE;
    }
    return LIBCC_OK;
}

static timely_rp_state *st(libcc_rp *rp)
{
    return (timely_rp_state *)(void *)libcc_rp_state(rp);
}

static void timely_rp_init(libcc_rp *rp, uint64_t now_ns)
{
    (void)now_ns;
    timely_rp_state *s = st(rp);
    memset(s, 0, sizeof *s);
    s->rate = (double)libcc_rp_flow(rp)->line_rate_bps; /* RDMA flows start at line rate */
}

static void increase(libcc_rp *rp, timely_rp_state *s, bool counts)
{
    const timely_cfg *c = (const timely_cfg *)libcc_rp_config(rp);
    const bool hai = counts && s->hai_count >= c->hai_thresh;
    s->rate += (double)(hai ? c->hai_delta_bps : c->delta_bps);
    if (s->rate > (double)libcc_rp_flow(rp)->line_rate_bps)
        s->rate = (double)libcc_rp_flow(rp)->line_rate_bps;
    if (counts && s->hai_count < UINT32_MAX)
        s->hai_count++;
}

static void decrease(libcc_rp *rp, timely_rp_state *s, double factor)
{
    const timely_cfg *c = (const timely_cfg *)libcc_rp_config(rp);
    const uint64_t m = c->min_rate_bps < libcc_rp_flow(rp)->line_rate_bps ? c->min_rate_bps : libcc_rp_flow(rp)->line_rate_bps;
    s->rate *= factor > 0.0 ? factor : 0.0;
    if (s->rate < (double)m)
        s->rate = (double)m;
    s->hai_count = 0;
}

/* Algorithm 1 with new_rtt = rtt. */
static void timely_update(libcc_rp *rp, timely_rp_state *s, uint64_t rtt)
{
    const timely_cfg *c = (const timely_cfg *)libcc_rp_config(rp);
    const double new_rtt_diff = (double)rtt - (double)s->prev_rtt_ns;
    s->rtt_diff = (1.0 - c->alpha) * s->rtt_diff + c->alpha * new_rtt_diff;
    s->gradient = s->rtt_diff / (double)c->min_rtt_ns;
    const uint32_t hai_before = s->hai_count;
    if (rtt < c->t_low_ns) {
        s->region = 1;
        increase(rp, s, c->hai_all_increases);
    } else if (rtt > c->t_high_ns) {
        s->region = 2;
        decrease(rp, s, 1.0 - c->beta * (1.0 - (double)c->t_high_ns / (double)rtt));
    } else if (s->gradient <= 0.0) {
        s->region = 3;
        increase(rp, s, true);
    } else {
        s->region = 4;
        decrease(rp, s, 1.0 - c->beta * s->gradient);
    }
    if (libcc_rp_logging(rp)) {
        /* the increase was HAI when the count had reached the threshold */
        static const char *const action[] = {"", "increase-below-t-low", "decrease-above-t-high",
                                             "increase-gradient", "decrease-gradient"};
        const bool counts = s->region == 3 || (s->region == 1 && c->hai_all_increases);
        const bool hai = counts && hai_before >= c->hai_thresh;
        const libcc_decision_input in[] = {{"rtt", (double)rtt},
                                           {"rtt_diff", s->rtt_diff},
                                           {"gradient", s->gradient},
                                           {"hai_count", (double)s->hai_count}};
        libcc_rp_explain(rp, hai ? "hyper-increase" : action[s->region], in,
                         sizeof in / sizeof in[0]);
    }
}

static int timely_rp_on_ack(libcc_rp *rp, uint64_t now_ns, const libcc_ack *ack)
{
    const timely_cfg *c = (const timely_cfg *)libcc_rp_config(rp);
    timely_rp_state *s = st(rp);
    uint64_t rtt;
    if (!libcc_ack_rtt(ack, now_ns, &rtt))
        return LIBCC_OK; /* no sample, nothing to learn */
    if (c->per_window) {
        if (s->have_prev && ack->seq <= s->last_update_seq)
            return LIBCC_OK; /* the simulator's fast react does nothing */
        s->last_update_seq = libcc_rp_snd_nxt(rp);
    }
    s->samples++;
    if (s->have_prev)
        timely_update(rp, s, rtt);
    /* The first sample only sets prev_rtt: a difference needs two. */
    s->prev_rtt_ns = rtt;
    s->have_prev = 1;
    libcc_rp_set_rate_bps(rp, libcc_sat_u64(s->rate + 0.5));
    return LIBCC_OK;
}

static const libcc_param_desc timely_vars[] = {
    {"rate", LIBCC_UNIT_BPS, 0, 0, 0, "rate before rounding"},
    {"rtt", LIBCC_UNIT_NS, 0, 0, 0, "latest RTT sample used (prev_rtt)"},
    {"rtt_diff", LIBCC_UNIT_NS, 0, 0, 0, "EWMA of RTT differences"},
    {"gradient", LIBCC_UNIT_RATIO, 0, 0, 0, "normalized gradient rtt_diff/minRTT"},
    {"hai_count", LIBCC_UNIT_COUNT, 0, 0, 0, "increases counted toward HAI"},
    {"region", LIBCC_UNIT_COUNT, 0, 0, 0,
     "branch of the last update: 1 T_low, 2 T_high, 3 gradient <= 0, 4 gradient > 0 (0: none)"},
    {"samples", LIBCC_UNIT_COUNT, 0, 0, 0, "RTT samples used"},
};
#define TIMELY_N_VARS (sizeof timely_vars / sizeof timely_vars[0])

static void timely_read_vars(const libcc_rp *rp, double *v)
{
    const timely_rp_state *s = (const timely_rp_state *)libcc_rp_state_const(rp);
    v[0] = s->rate;
    v[1] = (double)s->prev_rtt_ns;
    v[2] = s->rtt_diff;
    v[3] = s->gradient;
    v[4] = (double)s->hai_count;
    v[5] = s->region;
    v[6] = (double)s->samples;
}

static const libcc_rp_ops timely_rp_ops = {
    .state_size = sizeof(timely_rp_state),
    .vars = timely_vars,
    .n_vars = TIMELY_N_VARS,
    .init = timely_rp_init,
    .on_ack = timely_rp_on_ack,
    .on_nack = timely_rp_on_ack, /* a NACK's echo is an RTT sample too */
    .read_vars = timely_read_vars,
};

const libcc_algorithm libcc_algorithm_timely = {
    .abi_version = LIBCC_ALGORITHM_ABI_VERSION,
    .name = "timely",
    .hpcc_sim_cc_mode = 7, /* the HPCC simulator's CC_MODE (run.py) */
    /* The NP echoes the data's transmit timestamp (core); no switch work. */
    .roles = LIBCC_ROLE_RP | LIBCC_ROLE_NP,
    .data_int = LIBCC_INT_FORMAT_NONE,
    .ack_int = LIBCC_INT_FORMAT_NONE,
    .signals = LIBCC_SIGNAL_ACK_TX_TS,
    .params = timely_params,
    .n_params = sizeof timely_params / sizeof timely_params[0],
    .cfg_init = timely_cfg_init,
    .cfg_size = sizeof(timely_cfg),
    .presets = timely_presets,
    .n_presets = sizeof timely_presets / sizeof timely_presets[0],
    .rp = &timely_rp_ops,
};
