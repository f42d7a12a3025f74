/* SPDX-License-Identifier: MIT */
/*
 * `hpcc-pint`: HPCC on probabilistic in-band telemetry (PINT, Ben Basat et
 * al., SIGCOMM 2020, section 5's HPCC use case) as the HPCC simulator runs
 * it (CC_MODE 10: switch-node.cc's PINT branch, rdma-hw.cc
 * HandleAckHpPint). Instead of an 8-byte record per hop, a data packet
 * carries one small field: each switch keeps an EWMA U of its port's
 * utilisation, encodes it on a logarithmic scale with randomised rounding,
 * and writes it when it exceeds what the field holds, so the field arrives
 * with the bottleneck's U. Only a sampled fraction of data packets carries
 * the field (PINT's global hash on the packet). The receiver echoes it; the
 * sender runs HPCC's ComputeWind on that U. docs/algorithms/hpcc-pint.md.
 */
#include "hpcc_core.h"

#include <float.h>
#include <math.h>
#include <string.h>

typedef struct pint_cfg {
    hpcc_cfg h; /* first: hpcc_rp_cfg() reads it */
    double log_base;
    double max_flows;
    double sample_prob;
} pint_cfg;
LIBCC_CHECK_CFG(pint_cfg);

typedef struct pint_cp_state {
    double u;          /* the port's utilisation EWMA */
    uint64_t last_ts;  /* previous dequeue of any packet (0 at the start, as the simulator) */
    uint32_t last_size;
} pint_cp_state;
LIBCC_CHECK_CP_STATE(pint_cp_state);

static const libcc_param_desc pint_params[] = {
    HPCC_PARAM_ROWS,
    {"log_base", LIBCC_UNIT_RATIO, 1.05, 1.001, 2.0,
     "PINT encodes U as the exponent p of log_base^p / max_flows (the simulator's PINT_LOG_BASE)"},
    {"max_flows", LIBCC_UNIT_COUNT, 512, 1, 65535,
     "U is encoded in steps of 1/max_flows at the bottom of the scale (the simulator's "
     "max_concurrent)"},
    {"sample_prob", LIBCC_UNIT_RATIO, 1.0, 0.0, 1.0,
     "fraction of data packets that carry the PINT field, by a hash of their sequence number "
     "(the simulator's PINT_PROB)"},
};

static const libcc_preset_desc pint_presets[] = {
    {"hpcc-sim", "eta=0.95 max_stage=0 w_ai=0B expected_flows=125 log_base=1.01 max_flows=512 sample_prob=1",
     "the HPCC simulator's run.py --cc hpccPint at 100 Gbit/s: MI_THRESH 0, RATE_AI 40Mb/s "
     "(expected_flows 125 gives W_ai = W_init*0.05/125, 40Mbps per T), PINT_LOG_BASE 1.01, PINT_PROB 1"},
};

static int pint_cfg_init(void *cfg, const double *v, char *err, size_t err_len)
{
    (void)err;
    (void)err_len;
    pint_cfg *c = cfg;
    memset(c, 0, sizeof *c);
    c->h.variant = HPCC_V_HPCC;
    hpcc_cfg_common(&c->h, v);
    c->log_base = v[HPCC_N_PARAM_ROWS + 0];
    c->max_flows = v[HPCC_N_PARAM_ROWS + 1];
    c->sample_prob = v[HPCC_N_PARAM_ROWS + 2];
    return LIBCC_OK;
}

/* ---- the encoding (the simulator's Pint::encode_u / decode_u) ---- */

#define PINT_MAX_CODE 65535.0

/* An exponent past what a double holds (above 1023 at log_base 2, 14549 at
 * 1.05: the encoder writes 65535 for any U beyond its range) is more
 * congestion than U can say: the largest finite U, not an infinity that
 * libcc_rp_read_vars would hand the host (found by libcc-conformance). */
static double pint_decode(const pint_cfg *c, uint16_t p)
{
    const double u = pow(c->log_base, (double)p) / c->max_flows;
    return u <= DBL_MAX ? u : DBL_MAX;
}

/* The exponent of U*max_flows (at least 1), rounded up with probability
 * (x - lower)/(upper - lower): unbiased in the value, not the exponent. */
static uint16_t pint_encode(const pint_cfg *c, double u, libcc_cp *cp)
{
    double x = ceil(u * c->max_flows);
    if (!(x >= 1.0))
        x = 1.0;
    const double power = log(x) / log(c->log_base);
    if (power >= PINT_MAX_CODE)
        return (uint16_t)PINT_MAX_CODE;
    const double lo = floor(power), hi = ceil(power);
    const double lower = pow(c->log_base, lo);
    const double upper = hi == lo ? lower * c->log_base : pow(c->log_base, hi);
    const double up = (x - lower) / (upper - lower);
    /* draw only when the outcome is uncertain */
    const bool round_up = up >= 1.0 || (up > 0.0 && libcc_cp_rand_unit(cp) < up);
    return (uint16_t)(round_up && hi > lo ? hi : lo);
}

/* ---- Congestion Point ---- */

static void pint_cp_init(libcc_cp *cp)
{
    memset(libcc_cp_state(cp), 0, sizeof(pint_cp_state));
}

/* The simulator's per-port EWMA at each data packet's dequeue (its exact
 * form; the simulator computes it with log2 approximations):
 *   U = U (T - dt)/T + qlen dt/(B T^2) + lastPktSize/(B T),  dt <= T,
 * the previous U decayed, plus dt/T times the instantaneous
 * qlen/(B T) + txRate/B with txRate = lastPktSize/dt. */
static int pint_cp_on_dequeue(libcc_cp *cp, uint64_t now_ns, libcc_cp_pkt *pkt)
{
    const pint_cfg *c = (const pint_cfg *)libcc_cp_config(cp);
    pint_cp_state *s = (pint_cp_state *)(void *)libcc_cp_state(cp);
    if (pkt->kind == LIBCC_PKT_DATA) {
        const double T = (double)hpcc_effective_t(&c->h, 0);
        const double B = (double)libcc_cp_get_info(cp)->link_rate_bps / HPCC_BIT_NS_PER_BYTE_S; /* bytes/ns */
        double dt = now_ns >= s->last_ts ? (double)(now_ns - s->last_ts) : 0.0;
        if (dt > T)
            dt = T;
        s->u = s->u * (T - dt) / T + (double)pkt->port_queue_bytes * dt / (B * T * T) +
               (double)s->last_size / (B * T);
        if (pkt->has & LIBCC_PKT_HAS_PINT) {
            const uint16_t p = pint_encode(c, s->u, cp);
            if (p > pkt->pint)
                pkt->pint = p; /* the field keeps the largest: the bottleneck */
        }
    }
    s->last_ts = now_ns;
    s->last_size = pkt->bytes;
    return LIBCC_OK;
}

/* ---- Reaction Point ---- */

/* splitmix64: the packet's hash, the same at every switch (PINT's global
 * hash) and in every run. */
static uint64_t hash_seq(uint64_t x)
{
    x += UINT64_C(0x9E3779B97F4A7C15);
    x = (x ^ (x >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94D049BB133111EB);
    return x ^ (x >> 31);
}

static int pint_rp_on_tx(libcc_rp *rp, uint64_t now_ns, uint64_t seq, uint32_t bytes,
                         unsigned *tx_flags)
{
    (void)now_ns;
    (void)bytes;
    const pint_cfg *c = (const pint_cfg *)libcc_rp_config(rp);
    if ((double)(hash_seq(seq) >> 11) * 0x1p-53 < c->sample_prob)
        *tx_flags |= LIBCC_TX_REQUEST_PINT;
    return LIBCC_OK;
}

/* HandleAckHpPint / UpdateRateHpPint: the first ACK only opens the first
 * window; then every ACK with a PINT value runs ComputeWind on its U, and
 * the reference window Wc moves once per window of ACKs. */
static int pint_rp_on_ack(libcc_rp *rp, uint64_t now_ns, const libcc_ack *ack)
{
    (void)now_ns;
    const pint_cfg *c = (const pint_cfg *)libcc_rp_config(rp);
    hpcc_rp_state *s = hpcc_rp_priv(rp);
    s->acks++;
    if (!(ack->has & LIBCC_ACK_HAS_PINT))
        return LIBCC_OK;
    if (!s->ctl.have_last) {
        s->ctl.have_last = 1;
        s->last_update_seq = libcc_rp_snd_nxt(rp);
        return LIBCC_OK;
    }
    s->ctl.U = pint_decode(c, ack->pint);
    const bool update = ack->seq > s->last_update_seq;
    const bool logging = libcc_rp_logging(rp);
    const bool mult = logging && hpcc_multiplicative(&s->ctl, &c->h);
    const double w = hpcc_compute_wind(&s->ctl, &c->h, update);
    if (update)
        s->last_update_seq = libcc_rp_snd_nxt(rp);
    hpcc_rp_apply(rp, &s->ctl, w);
    if (logging)
        hpcc_explain(rp, s, mult ? "multiplicative" : "additive-increase", update);
    return LIBCC_OK;
}

static const libcc_rp_ops hpcc_pint_rp_ops = {
    .state_size = sizeof(hpcc_rp_state),
    .vars = hpcc_vars,
    .n_vars = HPCC_N_VARS,
    .init = hpcc_rp_init_common,
    .on_ack = pint_rp_on_ack,
    .on_nack = pint_rp_on_ack,
    .on_tx = pint_rp_on_tx,
    .read_vars = hpcc_read_vars,
};

static const libcc_cp_ops hpcc_pint_cp_ops = {
    .state_size = sizeof(pint_cp_state),
    .init = pint_cp_init,
    .on_dequeue = pint_cp_on_dequeue,
};

const libcc_algorithm libcc_algorithm_hpcc_pint = {
    .abi_version = LIBCC_ALGORITHM_ABI_VERSION,
    .name = "hpcc-pint",
    .hpcc_sim_cc_mode = 10, /* the HPCC simulator's CC_MODE (run.py) */
    .roles = LIBCC_ROLE_RP | LIBCC_ROLE_NP | LIBCC_ROLE_CP,
    .data_int = LIBCC_INT_FORMAT_NONE,
    .ack_int = LIBCC_INT_FORMAT_NONE,
    .signals = LIBCC_SIGNAL_DATA_PINT,
    .pint_bits = 16,
    .params = pint_params,
    .n_params = sizeof pint_params / sizeof pint_params[0],
    .cfg_init = pint_cfg_init,
    .cfg_size = sizeof(pint_cfg),
    .presets = pint_presets,
    .n_presets = sizeof pint_presets / sizeof pint_presets[0],
    .rp = &hpcc_pint_rp_ops,
    .cp = &hpcc_pint_cp_ops,
};
