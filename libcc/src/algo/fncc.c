/* SPDX-License-Identifier: MIT */
/*
 * `fncc`: Fast Notification Congestion Control (Xu et al., 2024). HPCC's
 * window controller (hpcc_core.c) fed by telemetry the ACK collects on its
 * way back (Algorithm 1), plus last-hop congestion speedup (Algorithms 2
 * and 3) using the receiver's count of concurrent flows N.
 *
 * Hop order: the ACK is stamped by the switches it crosses, first switch
 * first, and the first switch an ACK meets is the receiver's ToR, i.e. the
 * LAST hop of the request path. Index 0 of ack.int_list is that last hop, which
 * is why the paper's line 25 reads ack.L[0].B.
 */
#include "hpcc_core.h"

static const libcc_param_desc fncc_params[] = {
    HPCC_PARAM_ROWS,
    {"alpha", LIBCC_UNIT_RATIO, 1.05, 0.0, 100.0,
     "last-hop speedup fires when the last hop's u' exceeds alpha (Algorithm 2, line 11)"},
    {"beta", LIBCC_UNIT_RATIO, 0.9, 0.01, 1.0,
     "last-hop speedup sets Wc = B*T*beta/N: beta < 1 drains the queue (line 12)"},
    {"lhcs", LIBCC_UNIT_BOOL, 1, 0, 1, "last-hop congestion speedup on/off"},
    {"table_refresh", LIBCC_UNIT_NS, 0, 0, 1e9,
     "switch rewrites its port's All_INT_Table entry at most this often (at a dequeue); "
     "0: at every dequeue"},
};

static int fncc_cfg_init(void *cfg, const double *values, char *err, size_t err_len)
{
    (void)err;
    (void)err_len;
    hpcc_cfg *c = cfg;
    c->variant = HPCC_V_FNCC;
    hpcc_cfg_common(c, values);
    c->alpha = values[HPCC_N_PARAM_ROWS + 0];
    c->beta = values[HPCC_N_PARAM_ROWS + 1];
    c->lhcs = values[HPCC_N_PARAM_ROWS + 2] != 0.0;
    c->table_refresh_ns = (uint64_t)values[HPCC_N_PARAM_ROWS + 3];
    return LIBCC_OK;
}

/* Algorithm 3 lines 16-28, run at the start of ComputeWind. U_j are the
 * per-hop u' of this ACK's measurement (line 9). U_max and hop are found
 * afresh on every ACK: keeping a maximum across ACKs would let one old
 * spike trigger the speedup forever. */
static void fncc_update_wc(libcc_rp *rp, hpcc_rp_state *s, const libcc_ack *ack)
{
    const hpcc_cfg *cfg = hpcc_rp_cfg(rp);
    hpcc_ctl *c = &s->ctl;
    double u_max = 0.0;
    uint32_t hop = 0;
    for (uint32_t j = 0; j < c->n_u_hop; j++) { /* Hop_Detection, lines 17-20 */
        if (c->u_hop[j] > u_max) {
            u_max = c->u_hop[j];
            hop = j;
        }
    }
    s->u_max = u_max;
    s->hot_hop = hop;
    if (cfg->lhcs && hop == 0 && u_max > cfg->alpha) { /* line 24: index 0 = last hop */
        /* line 25: Wc = ack.L[0].B * RTT * beta / ack.N, RTT = T; an ACK
         * without N (0) counts as one flow. */
        const double n = ack->n_flows ? (double)ack->n_flows : 1.0;
        const double wc =
            (double)ack->int_list->hop[0].bandwidth_bps * c->t_ns * cfg->beta / HPCC_BIT_NS_PER_BYTE_S / n;
        c->Wc = hpcc_bound_window(c, wc);
        s->lhcs_fired++;
        s->lhcs_u_sum += u_max;
        s->lhcs_n_sum += n;
        if (!(c->queued_hops & 1u))
            s->lhcs_no_queue++;
    }
}

static int fncc_rp_on_ack(libcc_rp *rp, uint64_t now_ns, const libcc_ack *ack)
{
    (void)now_ns;
    return hpcc_rp_new_ack(rp, ack, fncc_update_wc);
}

static int fncc_rp_on_tx(libcc_rp *rp, uint64_t now_ns, uint64_t seq, uint32_t bytes,
                         unsigned *tx_flags)
{
    /* Data packets collect nothing in FNCC: only ACKs are stamped. */
    (void)rp;
    (void)now_ns;
    (void)seq;
    (void)bytes;
    (void)tx_flags;
    return LIBCC_OK;
}

static int fncc_np_on_data(libcc_np *np, libcc_np_flow *flow, uint64_t now_ns,
                           const libcc_data_pkt *pkt, libcc_np_verdict *verdict)
{
    (void)flow;
    (void)pkt;
    /* Section 3.2.3: N on every ACK, 16 bits on the wire. */
    uint32_t n = libcc_np_active_flows(np, now_ns);
    verdict->ack.n_flows = n > 65535u ? 65535u : n;
    /* ack.int_list stays NULL (the core's start): the ACK leaves with an empty
     * header, which the return path's switches fill. */
    return LIBCC_OK;
}

typedef struct fncc_cp_state {
    uint64_t next_refresh_ns;
    uint8_t written;
} fncc_cp_state;
LIBCC_CHECK_CP_STATE(fncc_cp_state);

static void fncc_cp_init(libcc_cp *cp)
{
    fncc_cp_state *st = (fncc_cp_state *)(void *)libcc_cp_state(cp);
    st->next_refresh_ns = 0;
    st->written = 0;
}

/* Algorithm 1. The host tags an ACK with the port it entered on
 * (pkt->ingress_port, line 3); at egress the ACK gets that port's entry,
 * which is the egress port of the data it acknowledges (lines 7-9). The
 * core refuses to create an FNCC CP without a table (cp_needs_int_table). */
static int fncc_cp_on_dequeue(libcc_cp *cp, uint64_t now_ns, libcc_cp_pkt *pkt)
{
    libcc_int_table *table = libcc_cp_get_info(cp)->int_table;
    const hpcc_cfg *cfg = (const hpcc_cfg *)(const void *)libcc_cp_config(cp);
    fncc_cp_state *st = (fncc_cp_state *)(void *)libcc_cp_state(cp);
    int stamp_rc = LIBCC_OK;

    if ((pkt->kind == LIBCC_PKT_ACK || pkt->kind == LIBCC_PKT_NACK) && pkt->int_list) {
        libcc_int_hop hop;
        /* An entry never written (no data left by that port yet) has no
         * telemetry to give: the ACK passes unstamped. An entry a host wrote
         * with a rate FNCC has no code for is reported, and the table is
         * still maintained below. */
        if (libcc_int_table_get(table, pkt->ingress_port, &hop) == LIBCC_OK)
            stamp_rc = libcc_cp_stamp(cp, pkt, &hop);
    }

    /* All_INT_Table management (section 4.1): this port's entry, at full
     * precision; it is quantized when an ACK carries it away. */
    if (cfg->table_refresh_ns == 0 || !st->written || now_ns >= st->next_refresh_ns) {
        libcc_int_hop rec;
        int rc = libcc_cp_int_record(cp, now_ns, pkt->port_queue_bytes, &rec);
        if (rc == LIBCC_OK)
            rc = libcc_int_table_update(table, libcc_cp_get_info(cp)->port_id, &rec);
        if (rc)
            return rc; /* port_id outside the table, or a zero link rate */
        st->written = 1;
        st->next_refresh_ns = libcc_sat_add(now_ns, cfg->table_refresh_ns);
    }
    return stamp_rc;
}

static const libcc_rp_ops fncc_rp_ops = {
    .state_size = sizeof(hpcc_rp_state),
    .vars = hpcc_vars,
    .n_vars = HPCC_N_VARS + HPCC_N_FNCC_VARS,
    .init = hpcc_rp_init_common,
    .on_ack = fncc_rp_on_ack,
    .on_nack = fncc_rp_on_ack, /* a NACK crosses the same switches: same telemetry */
    .on_tx = fncc_rp_on_tx,
    .read_vars = hpcc_read_vars,
};

static const libcc_np_ops fncc_np_ops = {
    .on_data = fncc_np_on_data,
};

static const libcc_cp_ops fncc_cp_ops = {
    .needs_int_table = true, /* Algorithm 1 reads All_INT_Table on every ACK */
    .state_size = sizeof(fncc_cp_state),
    .init = fncc_cp_init,
    .on_dequeue = fncc_cp_on_dequeue,
};

const libcc_algorithm libcc_algorithm_fncc = {
    .abi_version = LIBCC_ALGORITHM_ABI_VERSION,
    .name = "fncc",
    .roles = LIBCC_ROLE_RP | LIBCC_ROLE_NP | LIBCC_ROLE_CP,
    /* Data collects nothing (fncc_rp_on_tx); switches stamp the ACK from
     * the All_INT_Table on its way back (Algorithm 1). */
    .data_int = LIBCC_INT_FORMAT_NONE,
    .ack_int = LIBCC_INT_FORMAT_FNCC,
    .params = fncc_params,
    .n_params = sizeof fncc_params / sizeof fncc_params[0],
    .cfg_init = fncc_cfg_init,
    .cfg_size = sizeof(hpcc_cfg),
    .rp = &fncc_rp_ops,
    .np = &fncc_np_ops,
    .cp = &fncc_cp_ops,
};
