/* SPDX-License-Identifier: MIT */
/*
 * `swift`: Swift (Kumar et al., SIGCOMM 2020), delay-based AIMD on a
 * congestion window in packets. Two windows: a fabric window driven by the
 * fabric delay against a target that grows with the path's hop count and
 * shrinks with the window (flow scaling), and an endpoint window driven by
 * the delay the receiver's NIC timestamps show; the flow uses the smaller.
 * Below one packet the window becomes pacing: one packet per rtt/cwnd.
 * A retransmission timeout cuts the fabric window, and after
 * retx_reset_threshold of them in a row sets it to min_cwnd. The defaults
 * are those of Google's Isekai simulator (falcon-transport/isekai,
 * rue/algorithm/swift.cc DefaultConfiguration). docs/algorithms/swift.md
 * maps each line of the paper and of Isekai to the code and gives the
 * source of every default.
 */
#include "algo_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct swift_cfg {
    uint64_t base_target_ns;
    uint64_t hop_scale_ns;
    uint64_t fs_range_ns;
    double fs_min_cwnd;
    double fs_max_cwnd;
    double ai;
    double beta;
    double max_mdf;
    double min_cwnd;
    double max_cwnd; /* packets; 0: the flow's BDP */
    uint64_t endpoint_target_ns;
    double rtt_alpha;
    uint64_t min_rto_ns;
    double rto_scale;
    uint32_t retx_reset_threshold;
    double fs_alpha, fs_beta; /* derived: target flow scaling */
} swift_cfg;
LIBCC_CHECK_CFG(swift_cfg);

typedef struct swift_rp_state {
    double fcwnd, ecwnd, cwnd; /* packets */
    double max_cwnd;
    double target_ns;          /* fabric target of the last ACK */
    uint64_t rtt_ns;           /* latest RTT sample */
    double srtt_ns;            /* smoothed RTT: the RTO and the timeout's once-per-RTT gate */
    double pace_rtt_ns;        /* RTT the sub-packet pacing divides: the sample, srtt after a timeout */
    uint64_t fabric_delay_ns;
    uint64_t endpoint_delay_ns;
    uint64_t t_last_decrease_ns;
    uint64_t snd_una;
    uint64_t decreases;
    uint32_t retx_cnt;         /* timeouts since an ACK last acknowledged new data */
    uint64_t timeouts;
} swift_rp_state;
LIBCC_CHECK_RP_STATE(swift_rp_state);

static const libcc_param_desc swift_params[] = {
    {"base_target", LIBCC_UNIT_NS, 25e3, 1.0, 1e9,
     "fabric target delay before scaling (base RTT plus a little queueing)"},
    {"hop_scale", LIBCC_UNIT_NS, 1e3, 0.0, 1e8, "target added per switch hop the data crossed (h)"},
    {"fs_range", LIBCC_UNIT_NS, 100e3, 0.0, 1e9,
     "flow scaling: target added at fs_min_cwnd, falling as 1/sqrt(cwnd) to 0 at fs_max_cwnd"},
    {"fs_min_cwnd", LIBCC_UNIT_RATIO, 0.1, 0.001, 1e6, "window (packets) that gets all of fs_range"},
    {"fs_max_cwnd", LIBCC_UNIT_RATIO, 256.0, 0.001, 1e6,
     "window (packets) from which flow scaling adds nothing"},
    {"ai", LIBCC_UNIT_RATIO, 1.0, 0.0, 1e6, "additive increase: packets per RTT (ai/cwnd per acked packet)"},
    {"beta", LIBCC_UNIT_RATIO, 0.8, 0.0, 1.0,
     "multiplicative decrease: cwnd *= 1 - beta*(delay - target)/delay"},
    {"max_mdf", LIBCC_UNIT_RATIO, 0.5, 0.0, 1.0,
     "largest decrease per RTT: cwnd *= at least 1 - max_mdf (also the cut on a NACK and a first "
     "timeout)"},
    {"min_cwnd", LIBCC_UNIT_RATIO, 0.01, 1e-6, 1.0,
     "smallest window (packets); below 1 the flow is paced at cwnd*MTU per RTT"},
    {"max_cwnd", LIBCC_UNIT_RATIO, 256.0, 0.0, 1e9,
     "largest window (packets); the flow starts at the smaller of it and its line rate x base RTT "
     "(0: that BDP is the largest too)"},
    {"endpoint_target", LIBCC_UNIT_NS, 10e3, 0.0, 1e9,
     "target of the endpoint window: the delay the receiver's NIC timestamps (and the sender's "
     "ACK arrival stamp) show; 0: no endpoint window"},
    {"rtt_alpha", LIBCC_UNIT_RATIO, 0.75, 0.0, 0.999,
     "RTT smoothing: srtt = rtt_alpha*srtt + (1 - rtt_alpha)*sample, per ACK with a sample"},
    {"min_rto", LIBCC_UNIT_NS, 250e3, 1.0, 1e10, "smallest retransmission timeout"},
    {"rto_scale", LIBCC_UNIT_RATIO, 2.0, 1.0, 1e3,
     "retransmission timeout: max(min_rto, rto_scale*srtt + the pacing gap below one packet)"},
    {"retx_reset_threshold", LIBCC_UNIT_COUNT, 3.0, 1.0, 255.0,
     "timeouts in a row (no new data acknowledged) that set the fabric window to min_cwnd"},
};

static int swift_cfg_init(void *cfg, const double *v, char *err, size_t err_len)
{
    swift_cfg *c = cfg;
    c->base_target_ns = (uint64_t)v[0];
    c->hop_scale_ns = (uint64_t)v[1];
    c->fs_range_ns = (uint64_t)v[2];
    c->fs_min_cwnd = v[3];
    c->fs_max_cwnd = v[4];
    c->ai = v[5];
    c->beta = v[6];
    c->max_mdf = v[7];
    c->min_cwnd = v[8];
    c->max_cwnd = v[9];
    c->endpoint_target_ns = (uint64_t)v[10];
    c->rtt_alpha = v[11];
    c->min_rto_ns = (uint64_t)v[12];
    c->rto_scale = v[13];
    c->retx_reset_threshold = (uint32_t)v[14];
    if (!(c->fs_min_cwnd < c->fs_max_cwnd)) {
        if (err)
            snprintf(err, err_len, "fs_min_cwnd (%g) must be below fs_max_cwnd (%g)", v[3], v[4]);
        return LIBCC_ERR_OUT_OF_RANGE;
    }
    if (c->max_cwnd != 0.0 && c->max_cwnd < c->min_cwnd) {
        if (err)
            snprintf(err, err_len, "max_cwnd (%g) must not be below min_cwnd (%g)", v[9], v[8]);
        return LIBCC_ERR_OUT_OF_RANGE;
    }
    /* Section 3.2: fs(cwnd) = alpha/sqrt(cwnd) + beta, fs(fs_min) = fs_range,
     * fs(fs_max) = 0. */
    c->fs_alpha = (double)c->fs_range_ns / (1.0 / sqrt(c->fs_min_cwnd) - 1.0 / sqrt(c->fs_max_cwnd));
    c->fs_beta = -c->fs_alpha / sqrt(c->fs_max_cwnd);
    return LIBCC_OK;
}

static swift_rp_state *st(libcc_rp *rp)
{
    return (swift_rp_state *)(void *)libcc_rp_state(rp);
}

static const swift_cfg *cfg_of(const libcc_rp *rp)
{
    return (const swift_cfg *)libcc_rp_config(rp);
}

/* Pacing below one packet: one MTU per rtt/cwnd; at or above, the line.
 * The RTO (Isekai's GetRetransmitTimeout) starts after the pacing gap, the
 * time the next packet waits beyond an RTT: rtt/cwnd - rtt. */
static void swift_apply(libcc_rp *rp, const swift_rp_state *s)
{
    const swift_cfg *c = (const swift_cfg *)libcc_rp_config(rp);
    const double mtu = (double)libcc_rp_flow(rp)->mtu_bytes;
    double gap = 0.0;
    if (s->cwnd < 1.0) {
        const double rtt = s->pace_rtt_ns;
        libcc_rp_set_rate_bps(rp, libcc_sat_u64(s->cwnd * mtu * ALGO_BIT_NS_PER_BYTE_S / rtt + 0.5));
        libcc_rp_set_window_bytes(rp, libcc_rp_flow(rp)->mtu_bytes);
        gap = rtt / s->cwnd - rtt;
    } else {
        libcc_rp_set_rate_bps(rp, libcc_rp_flow(rp)->line_rate_bps);
        libcc_rp_set_window_bytes(rp, libcc_sat_u64(s->cwnd * mtu + 0.5));
    }
    const double rto = c->rto_scale * s->srtt_ns + gap;
    libcc_rp_set_rto_ns(rp, rto > (double)c->min_rto_ns ? libcc_sat_u64(rto + 0.5) : c->min_rto_ns);
}

static void swift_rp_init(libcc_rp *rp, uint64_t now_ns)
{
    const swift_cfg *c = cfg_of(rp);
    swift_rp_state *s = st(rp);
    memset(s, 0, sizeof *s);
    const uint64_t base_rtt = algo_base_rtt(0, rp);
    double bdp = algo_bdp_bytes(libcc_rp_flow(rp)->line_rate_bps, base_rtt) / libcc_rp_flow(rp)->mtu_bytes;
    if (bdp < 1.0)
        bdp = 1.0;
    s->max_cwnd = c->max_cwnd != 0.0 ? c->max_cwnd : bdp;
    if (s->max_cwnd < c->min_cwnd)
        s->max_cwnd = c->min_cwnd;
    /* RDMA flows start at line rate: one BDP, unless max_cwnd is smaller. */
    s->cwnd = bdp < s->max_cwnd ? bdp : s->max_cwnd;
    s->fcwnd = s->ecwnd = s->cwnd;
    /* Before the first sample the path's base RTT stands for the RTT (Isekai
     * starts rtt_state at a constant 25 us; libcc knows the path). */
    s->srtt_ns = s->pace_rtt_ns = (double)base_rtt;
    s->t_last_decrease_ns = now_ns;
    swift_apply(rp, s);
}

/* Target delay of the fabric window (section 3.2): base, per hop, per flow. */
static double fabric_target(const swift_cfg *c, double fcwnd, unsigned hops)
{
    double fs = c->fs_alpha / sqrt(fcwnd) + c->fs_beta;
    fs = algo_clamp(fs, 0.0, (double)c->fs_range_ns);
    return (double)c->base_target_ns + (double)hops * (double)c->hop_scale_ns + fs;
}

/* Algorithm 1, "on receiving ACK", for one window. */
static double aimd(const swift_cfg *c, double cwnd, double delay, double target, double acked,
                   bool can_decrease)
{
    if (delay < target) {
        if (cwnd >= 1.0)
            cwnd += c->ai / cwnd * acked;
        else
            cwnd += c->ai * acked;
    } else if (can_decrease) {
        double f = 1.0 - c->beta * (delay - target) / delay;
        if (f < 1.0 - c->max_mdf)
            f = 1.0 - c->max_mdf;
        cwnd *= f;
    }
    return cwnd;
}

static void finish(libcc_rp *rp, swift_rp_state *s, uint64_t now_ns, double prev)
{
    const swift_cfg *c = cfg_of(rp);
    s->fcwnd = algo_clamp(s->fcwnd, c->min_cwnd, s->max_cwnd);
    s->ecwnd = algo_clamp(s->ecwnd, c->min_cwnd, s->max_cwnd);
    s->cwnd = s->fcwnd < s->ecwnd ? s->fcwnd : s->ecwnd;
    if (s->cwnd < prev) {
        s->t_last_decrease_ns = now_ns;
        s->decreases++;
    }
    swift_apply(rp, s);
}

/* The delays against their targets decide Swift's windows. */
static void explain(libcc_rp *rp, const swift_rp_state *s, const char *action)
{
    const libcc_decision_input in[] = {{"fabric_delay", (double)s->fabric_delay_ns},
                                       {"target", s->target_ns},
                                       {"endpoint_delay", (double)s->endpoint_delay_ns},
                                       {"fcwnd", s->fcwnd},
                                       {"ecwnd", s->ecwnd},
                                       {"retx_cnt", (double)s->retx_cnt}};
    libcc_rp_explain(rp, action, in, sizeof in / sizeof in[0]);
}

static bool can_decrease(const swift_rp_state *s, uint64_t now_ns)
{
    return now_ns - s->t_last_decrease_ns >= s->rtt_ns;
}

static int swift_rp_on_ack(libcc_rp *rp, uint64_t now_ns, const libcc_ack *ack)
{
    const swift_cfg *c = cfg_of(rp);
    swift_rp_state *s = st(rp);
    uint64_t rtt, remote = 0;
    double acked = 0.0;
    if (ack->seq > s->snd_una) {
        acked = (double)(ack->seq - s->snd_una) / (double)libcc_rp_flow(rp)->mtu_bytes;
        s->snd_una = ack->seq;
        s->retx_cnt = 0;
    }
    if (!libcc_ack_rtt(ack, now_ns, &rtt))
        return LIBCC_OK; /* no delay sample */
    /* Isekai smooths the RTT only (rtt_smoothing_alpha); the delay compared
     * with the target is the sample itself (its delay_smoothing_alpha is 0),
     * and so is the RTT of the once-per-RTT gate and of pacing. */
    s->srtt_ns = c->rtt_alpha * s->srtt_ns + (1.0 - c->rtt_alpha) * (double)rtt;
    s->pace_rtt_ns = (double)rtt;
    const bool have_remote = libcc_ack_remote_delay(ack, &remote);
    /* the sender's own share: from its NIC's arrival stamp to now */
    const uint64_t local = (ack->has & LIBCC_ACK_HAS_RX_TS) ? now_ns - ack->rx_ts_ns : 0;
    s->rtt_ns = rtt;
    s->fabric_delay_ns = rtt > remote ? rtt - remote : 0;
    s->endpoint_delay_ns = libcc_sat_add(remote, local);
    const bool dec = can_decrease(s, now_ns);
    const double prev = s->cwnd;
    s->target_ns = fabric_target(c, s->fcwnd, ack->n_hops);
    s->fcwnd = aimd(c, s->fcwnd, (double)s->fabric_delay_ns, s->target_ns, acked, dec);
    if (c->endpoint_target_ns && (have_remote || local))
        s->ecwnd = aimd(c, s->ecwnd, (double)s->endpoint_delay_ns, (double)c->endpoint_target_ns,
                        acked, dec);
    finish(rp, s, now_ns, prev);
    if (libcc_rp_logging(rp)) {
        /* by the fabric delay against its target; "hold": above it, but
         * the window was cut less than an RTT ago */
        const bool below = (double)s->fabric_delay_ns < s->target_ns;
        explain(rp, s, below ? "additive-increase" : dec ? "multiplicative-decrease" : "hold");
    }
    return LIBCC_OK;
}

/* A NACK is Swift's fast recovery: cut by max_mdf, at most once per RTT. */
static int swift_rp_on_nack(libcc_rp *rp, uint64_t now_ns, const libcc_ack *nack)
{
    const swift_cfg *c = cfg_of(rp);
    swift_rp_state *s = st(rp);
    const double prev = s->cwnd;
    if (nack->seq > s->snd_una) { /* what precedes the hole arrived */
        s->snd_una = nack->seq;
        s->retx_cnt = 0;
    }
    const bool dec = can_decrease(s, now_ns);
    if (dec) {
        s->fcwnd *= 1.0 - c->max_mdf;
        s->ecwnd *= 1.0 - c->max_mdf;
    }
    finish(rp, s, now_ns, prev);
    if (libcc_rp_logging(rp))
        explain(rp, s, dec ? "nack-decrease" : "hold");
    return LIBCC_OK;
}

/* Isekai's ComputeTimeoutFabricCongestionWindow: at most once per smoothed
 * RTT, the first timeout of a run cuts by max_mdf, the second leaves the
 * window, from retx_reset_threshold on it is min_cwnd. The endpoint window
 * is left alone (Isekai: "no nic congestion window alteration"). */
static int swift_rp_on_timeout(libcc_rp *rp, uint64_t now_ns)
{
    const swift_cfg *c = cfg_of(rp);
    swift_rp_state *s = st(rp);
    const double prev = s->cwnd;
    s->timeouts++;
    if (s->retx_cnt < UINT32_MAX)
        s->retx_cnt++;
    const char *action = "hold";
    if ((double)(now_ns - s->t_last_decrease_ns) >= s->srtt_ns) {
        if (s->retx_cnt >= c->retx_reset_threshold) {
            s->fcwnd = c->min_cwnd;
            action = "timeout-reset";
        } else if (s->retx_cnt == 1) {
            s->fcwnd *= 1.0 - c->max_mdf;
            action = "timeout-decrease";
        }
    }
    s->pace_rtt_ns = s->srtt_ns;
    finish(rp, s, now_ns, prev);
    if (libcc_rp_logging(rp))
        explain(rp, s, action);
    return LIBCC_OK;
}

static const libcc_param_desc swift_vars[] = {
    {"cwnd", LIBCC_UNIT_RATIO, 0, 0, 0, "window in packets: min(fcwnd, ecwnd)"},
    {"fcwnd", LIBCC_UNIT_RATIO, 0, 0, 0, "fabric window (packets)"},
    {"ecwnd", LIBCC_UNIT_RATIO, 0, 0, 0, "endpoint window (packets)"},
    {"target", LIBCC_UNIT_NS, 0, 0, 0, "fabric target delay of the last ACK"},
    {"rtt", LIBCC_UNIT_NS, 0, 0, 0, "latest RTT sample"},
    {"fabric_delay", LIBCC_UNIT_NS, 0, 0, 0, "RTT minus the receiver's delay"},
    {"endpoint_delay", LIBCC_UNIT_NS, 0, 0, 0, "receiver's delay plus the sender's ACK delay"},
    {"decreases", LIBCC_UNIT_COUNT, 0, 0, 0, "times the window shrank"},
    {"srtt", LIBCC_UNIT_NS, 0, 0, 0, "smoothed RTT"},
    {"rto", LIBCC_UNIT_NS, 0, 0, 0, "retransmission timeout the flow wants"},
    {"retx_cnt", LIBCC_UNIT_COUNT, 0, 0, 0, "timeouts since new data was last acknowledged"},
    {"timeouts", LIBCC_UNIT_COUNT, 0, 0, 0, "retransmission timeouts"},
};
#define SWIFT_N_VARS (sizeof swift_vars / sizeof swift_vars[0])

static void swift_read_vars(const libcc_rp *rp, double *v)
{
    const swift_rp_state *s = (const swift_rp_state *)libcc_rp_state_const(rp);
    v[0] = s->cwnd;
    v[1] = s->fcwnd;
    v[2] = s->ecwnd;
    v[3] = s->target_ns;
    v[4] = (double)s->rtt_ns;
    v[5] = (double)s->fabric_delay_ns;
    v[6] = (double)s->endpoint_delay_ns;
    v[7] = (double)s->decreases;
    v[8] = s->srtt_ns;
    v[9] = (double)libcc_rp_rto_ns(rp);
    v[10] = (double)s->retx_cnt;
    v[11] = (double)s->timeouts;
}

static const libcc_rp_ops swift_rp_ops = {
    .state_size = sizeof(swift_rp_state),
    .vars = swift_vars,
    .n_vars = SWIFT_N_VARS,
    .init = swift_rp_init,
    .on_ack = swift_rp_on_ack,
    .on_nack = swift_rp_on_nack,
    .on_timeout = swift_rp_on_timeout,
    .read_vars = swift_read_vars,
};

const libcc_algorithm libcc_algorithm_swift = {
    .abi_version = LIBCC_ALGORITHM_ABI_VERSION,
    .name = "swift",
    .roles = LIBCC_ROLE_RP | LIBCC_ROLE_NP, /* the NP echoes timestamps and hops */
    .data_int = LIBCC_INT_FORMAT_NONE,
    .ack_int = LIBCC_INT_FORMAT_NONE,
    .signals = LIBCC_SIGNAL_ACK_TX_TS | LIBCC_SIGNAL_ACK_NIC_TS | LIBCC_SIGNAL_ACK_HOPS,
    .params = swift_params,
    .n_params = sizeof swift_params / sizeof swift_params[0],
    .cfg_init = swift_cfg_init,
    .cfg_size = sizeof(swift_cfg),
    .rp = &swift_rp_ops,
};
