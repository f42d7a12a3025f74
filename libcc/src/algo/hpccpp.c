/* SPDX-License-Identifier: MIT */
/*
 * `hpcc++`: HPCC with the HPCC++ draft's section 6 options as parameters:
 *   telemetry    where INT comes from: every data packet, every k-th, or
 *                one probe per RTT while data is in flight (6.2.1);
 *   rx_hpcc      the receiver runs the window computation on the data
 *                packets' INT and returns W once per T (6.3.2, Figure 8);
 *   receiver_n   the receiver reports N and W_ai = W_init*(1-eta)/N (5, 6.3.2).
 * Delayed ACKs are the common ack_interval parameter (handled by the core).
 */
#include "hpcc_core.h"

#include <string.h>

static const libcc_param_desc pp_params[] = {
    HPCC_PARAM_ROWS,
    {"telemetry", LIBCC_UNIT_COUNT, 0, 0, 2,
     "INT source: 0 every data packet, 1 every int_interval-th data packet, 2 one probe per "
     "RTT (send_probe callback) while data is in flight"},
    {"int_interval", LIBCC_UNIT_COUNT, 4, 1, 65535,
     "k for telemetry=1: data packets 0, k, 2k, ... of a flow request INT"},
    {"rx_hpcc", LIBCC_UNIT_BOOL, 0, 0, 1,
     "Rx-HPCC: the receiver computes W from the data packets' INT and returns it in an ACK "
     "once per T; the sender applies it"},
    {"receiver_n", LIBCC_UNIT_BOOL, 0, 0, 1,
     "the receiver reports its concurrent flows N in every ACK; W_ai = W_init*(1-eta)/N "
     "replaces expected_flows (an explicit w_ai still wins)"},
};

static int pp_cfg_init(void *cfg, const double *values, char *err, size_t err_len)
{
    (void)err;
    (void)err_len;
    hpcc_cfg *c = cfg;
    c->variant = HPCC_V_PP;
    hpcc_cfg_common(c, values);
    c->telemetry = (uint32_t)values[HPCC_N_PARAM_ROWS + 0];
    c->int_interval_pkts = (uint32_t)values[HPCC_N_PARAM_ROWS + 1];
    c->rx_hpcc = values[HPCC_N_PARAM_ROWS + 2] != 0.0;
    c->receiver_n = values[HPCC_N_PARAM_ROWS + 3] != 0.0;
    return LIBCC_OK;
}

/* Probe mode (6.2.1 option 2): a probe goes out when data is in flight and
 * either none was ever sent, or the previous one was answered at least T
 * ago, or it went unanswered for HPCC_PROBE_LOSS_RTTS * T (lost). The
 * deadline wakes the sender for the next one. */
static void pp_probe(libcc_rp *rp, uint64_t now_ns, uint64_t snd_nxt)
{
    const hpcc_cfg *cfg = hpcc_rp_cfg(rp);
    hpcc_rp_state *s = hpcc_rp_priv(rp);
    if (cfg->telemetry != HPCC_TLM_PROBE)
        return;
    if (snd_nxt <= s->acked_seq) {
        libcc_rp_set_deadline_ns(rp, LIBCC_NO_DEADLINE); /* nothing in flight: no probing */
        return;
    }
    /* T came from a uint64_t, but as a double it may be 2^64: saturate. */
    const uint64_t t = libcc_sat_u64(s->ctl.t_ns);
    const uint64_t loss_wait = libcc_sat_mul(HPCC_PROBE_LOSS_RTTS, t);
    uint64_t due;
    if (!s->probe_ever)
        due = now_ns;
    else if (s->probe_pending)
        due = libcc_sat_add(s->probe_sent_ns, loss_wait);
    else
        due = libcc_sat_add(s->probe_sent_ns, t);
    if (now_ns >= due) {
        s->probe_ever = 1;
        s->probe_pending = 1;
        s->probe_sent_ns = now_ns;
        s->probes++;
        libcc_rp_request_probe(rp, now_ns);
        due = libcc_sat_add(now_ns, loss_wait);
    }
    libcc_rp_set_deadline_ns(rp, due);
}

static int pp_rp_on_ack(libcc_rp *rp, uint64_t now_ns, const libcc_ack *ack)
{
    const hpcc_cfg *cfg = hpcc_rp_cfg(rp);
    hpcc_rp_state *s = hpcc_rp_priv(rp);
    int rc = LIBCC_OK;
    if (ack->seq > s->acked_seq)
        s->acked_seq = ack->seq;
    if (ack->is_probe)
        s->probe_pending = 0;
    if (cfg->rx_hpcc) {
        /* The receiver did MeasureInflight/ComputeWind; only its W counts.
         * ACKs without one (rx_window_bytes 0) change nothing. */
        if (ack->rx_window_bytes) {
            s->acks++;
            s->ctl.W = hpcc_bound_window(&s->ctl, (double)ack->rx_window_bytes);
            hpcc_rp_apply(rp, &s->ctl, s->ctl.W);
            if (libcc_rp_logging(rp)) {
                const libcc_decision_input in[] = {{"rx_window", (double)ack->rx_window_bytes},
                                                   {"W", s->ctl.W}};
                libcc_rp_explain(rp, "receiver-window", in, sizeof in / sizeof in[0]);
            }
        }
    } else {
        if (cfg->receiver_n && ack->n_flows && ack->n_flows != s->n_flows) {
            s->n_flows = ack->n_flows;
            hpcc_ctl_set_n(&s->ctl, cfg, ack->n_flows);
        }
        rc = hpcc_rp_new_ack(rp, ack, NULL);
    }
    pp_probe(rp, now_ns, libcc_rp_snd_nxt(rp));
    return rc;
}

static int pp_rp_on_tx(libcc_rp *rp, uint64_t now_ns, uint64_t seq, uint32_t bytes,
                       unsigned *tx_flags)
{
    const hpcc_cfg *cfg = hpcc_rp_cfg(rp);
    hpcc_rp_state *s = hpcc_rp_priv(rp);
    if (cfg->telemetry == HPCC_TLM_EVERY ||
        (cfg->telemetry == HPCC_TLM_EVERY_K && s->tx_pkts % cfg->int_interval_pkts == 0))
        *tx_flags |= LIBCC_TX_REQUEST_INT;
    s->tx_pkts++;
    /* Whether the core has already advanced snd_nxt or not, this packet
     * is in flight. */
    uint64_t end = seq + bytes;
    pp_probe(rp, now_ns, end > libcc_rp_snd_nxt(rp) ? end : libcc_rp_snd_nxt(rp));
    return LIBCC_OK;
}

static int pp_rp_on_timer(libcc_rp *rp, uint64_t now_ns)
{
    pp_probe(rp, now_ns, libcc_rp_snd_nxt(rp));
    return LIBCC_OK;
}

/* Rx-HPCC receiver state of one flow: a whole controller, run on int.L. */
typedef struct pp_np_flow {
    hpcc_ctl ctl;
    uint64_t last_update_ns;
    uint8_t updated_once;
    uint32_t bad_records;
} pp_np_flow;
LIBCC_CHECK_NP_FLOW_STATE(pp_np_flow);

static const hpcc_cfg *np_cfg(const libcc_np *np)
{
    return (const hpcc_cfg *)(const void *)libcc_np_config(np);
}

static void pp_np_flow_init(libcc_np *np, libcc_np_flow *flow, uint64_t now_ns)
{
    (void)now_ns;
    const hpcc_cfg *cfg = np_cfg(np);
    pp_np_flow *f = (pp_np_flow *)(void *)libcc_np_flow_state(flow);
    memset(f, 0, sizeof *f);
    /* The receiver knows its own NIC rate and T, not the sender's: W_init
     * is its line rate times T, the MTU floor the 1000-byte default. */
    hpcc_ctl_init(&f->ctl, cfg, libcc_np_get_info(np)->line_rate_bps, hpcc_effective_t(cfg, libcc_np_get_info(np)->base_rtt_ns),
                  0);
}

/* Figure 8, lines 28-34: NewINT. */
static void pp_np_new_int(libcc_np *np, pp_np_flow *f, uint64_t now_ns,
                          const libcc_data_pkt *pkt, libcc_np_verdict *verdict)
{
    const hpcc_cfg *cfg = np_cfg(np);
    int m = hpcc_measure_inflight(&f->ctl, pkt->int_list, libcc_np_common(np)->max_hops);
    if (m < 0) {
        /* Garbage INT must not cost the sender its ACK: count it, and
         * the history is already forgotten. */
        f->bad_records++;
        return;
    }
    if (m != HPCC_MEASURED)
        return;
    /* line 29; the first computed W goes out at once rather than waiting
     * for T after time 0. */
    const bool update = !f->updated_once || now_ns > libcc_sat_add(f->last_update_ns, libcc_sat_u64(f->ctl.t_ns));
    double w = hpcc_compute_wind(&f->ctl, cfg, update); /* lines 30 / 34 */
    if (update) {
        verdict->send_ack = 1; /* line 31: send_ack(W) */
        verdict->ack.rx_window_bytes = libcc_sat_u64(w + 0.5);
        f->last_update_ns = now_ns; /* line 32 */
        f->updated_once = 1;
    }
}

static int pp_np_on_data(libcc_np *np, libcc_np_flow *flow, uint64_t now_ns,
                         const libcc_data_pkt *pkt, libcc_np_verdict *verdict)
{
    const hpcc_cfg *cfg = np_cfg(np);
    pp_np_flow *f = (pp_np_flow *)(void *)libcc_np_flow_state(flow);
    uint32_t n = 0;
    if (cfg->receiver_n) {
        n = libcc_np_active_flows(np, now_ns);
        verdict->ack.n_flows = n > 65535u ? 65535u : n;
    }
    if (!cfg->rx_hpcc) {
        verdict->ack.int_list = pkt->int_list; /* sender-based: reflect the telemetry */
        return LIBCC_OK;
    }
    /* Rx-HPCC: ack.int_list stays NULL, the window replaces the telemetry. */
    if (cfg->receiver_n)
        hpcc_ctl_set_n(&f->ctl, cfg, n);
    if (pkt->int_list && pkt->int_list->n_hops)
        pp_np_new_int(np, f, now_ns, pkt, verdict);
    return LIBCC_OK;
}

static const libcc_rp_ops hpccpp_rp_ops = {
    .state_size = sizeof(hpcc_rp_state),
    .vars = hpcc_vars,
    .n_vars = HPCC_N_VARS,
    .init = hpcc_rp_init_common,
    .on_ack = pp_rp_on_ack,
    .on_nack = pp_rp_on_ack,
    .on_tx = pp_rp_on_tx,
    .on_timer = pp_rp_on_timer,
    .read_vars = hpcc_read_vars,
};

static const libcc_np_ops hpccpp_np_ops = {
    .flow_state_size = sizeof(pp_np_flow),
    .flow_init = pp_np_flow_init,
    .on_data = pp_np_on_data,
};

static const libcc_cp_ops hpccpp_cp_ops = {
    .on_dequeue = hpcc_cp_stamp, /* draft section 3: stamp at egress */
};

const libcc_algorithm libcc_algorithm_hpccpp = {
    .abi_version = LIBCC_ALGORITHM_ABI_VERSION,
    .name = "hpcc++",
    .roles = LIBCC_ROLE_RP | LIBCC_ROLE_NP | LIBCC_ROLE_CP,
    /* Data (every or every k-th) and probes collect hops; the receiver
     * echoes them, or, with rx_hpcc, sends a window and an empty header. */
    .data_int = LIBCC_INT_FORMAT_HPCC,
    .ack_int = LIBCC_INT_FORMAT_HPCC,
    .params = pp_params,
    .n_params = sizeof pp_params / sizeof pp_params[0],
    .cfg_init = pp_cfg_init,
    .cfg_size = sizeof(hpcc_cfg),
    .rp = &hpccpp_rp_ops,
    .np = &hpccpp_np_ops,
    .cp = &hpccpp_cp_ops,
};
