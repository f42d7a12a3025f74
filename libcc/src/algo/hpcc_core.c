/* SPDX-License-Identifier: MIT */
/*
 * MeasureInflight / ComputeWind / NewAck of the HPCC++ draft (section 4.2),
 * shared by hpcc, hpcc++ and fncc. Units: B in bits/s, ts and T in ns,
 * txBytes, qlen and windows in bytes, so "B*T" in bytes is B*T/8e9.
 */
#include "hpcc_core.h"

#include <string.h>

void hpcc_cfg_common(hpcc_cfg *cfg, const double *v)
{
    cfg->eta = v[0];
    cfg->max_stage = (uint32_t)v[1];
    cfg->expected_flows = (uint32_t)v[2];
    cfg->w_ai_bytes = (uint64_t)v[3];
    cfg->base_rtt_ns = (uint64_t)v[4];
}

uint64_t hpcc_effective_t(const hpcc_cfg *cfg, uint64_t host_t_ns)
{
    if (cfg->base_rtt_ns)
        return cfg->base_rtt_ns;
    return host_t_ns ? host_t_ns : HPCC_DEFAULT_T_NS;
}

void hpcc_ctl_init(hpcc_ctl *c, const hpcc_cfg *cfg, uint64_t line_rate_bps, uint64_t t_ns,
                   uint32_t mtu_bytes)
{
    memset(c, 0, sizeof *c);
    libcc_int_list_init(&c->last);
    c->t_ns = (double)t_ns;
    /* Below one byte a window means nothing and W/T would round to 0. */
    c->w_init = (double)line_rate_bps * c->t_ns / HPCC_BIT_NS_PER_BYTE_S;
    if (c->w_init < 1.0)
        c->w_init = 1.0;
    /* One MTU keeps a packet in flight; on a path whose whole BDP is below
     * an MTU the BDP itself is the floor, or the floor would exceed the
     * line rate. */
    c->w_min = mtu_bytes ? (double)mtu_bytes : 1000.0;
    if (c->w_min > c->w_init)
        c->w_min = c->w_init;
    /* The reference simulator starts U at 1: a flow starting at line rate
     * is assumed to fill its path until telemetry says otherwise. */
    c->U = 1.0;
    c->W = c->w_init;
    c->Wc = c->w_init;
    hpcc_ctl_set_n(c, cfg, cfg->expected_flows);
}

void hpcc_ctl_set_n(hpcc_ctl *c, const hpcc_cfg *cfg, uint32_t n_flows)
{
    if (cfg->w_ai_bytes) {
        c->w_ai = (double)cfg->w_ai_bytes;
        return;
    }
    c->w_ai = c->w_init * (1.0 - cfg->eta) / (double)(n_flows ? n_flows : 1);
}

double hpcc_bound_window(const hpcc_ctl *c, double w)
{
    if (!(w >= c->w_min)) /* also catches a NaN, which cannot arise but must not escape */
        return c->w_min;
    return w > c->w_init ? c->w_init : w;
}

unsigned hpcc_int_width(uint8_t bits)
{
    return (bits == 0 || bits > 64) ? 64u : bits;
}

/* More than half the counter's range is read as "went backwards": modular
 * arithmetic cannot tell the two apart, and ACKs are far closer than half
 * a wrap period (8 ms for the simulator's 24-bit ns timestamp). */
static bool backwards(uint64_t diff, unsigned bits)
{
    return diff > (UINT64_C(1) << (bits - 1));
}

bool hpcc_same_path(const libcc_int_list *a, const libcc_int_list *b)
{
    if (a->n_hops != b->n_hops || hpcc_int_width(a->ts_bits) != hpcc_int_width(b->ts_bits) ||
        hpcc_int_width(a->tx_bits) != hpcc_int_width(b->tx_bits))
        return false;
    for (unsigned i = 0; i < a->n_hops; i++)
        if (a->hop[i].switch_id != b->hop[i].switch_id || a->hop[i].port_id != b->hop[i].port_id)
            return false;
    return true;
}

/* L is read only up to its n_hops (same_path checks the count first), so
 * only the used hops are copied: per ACK a few dozen bytes, not the whole
 * ~330-byte list. */
static void store_last(hpcc_ctl *c, const libcc_int_list *l)
{
    c->last.n_hops = l->n_hops;
    c->last.ts_bits = l->ts_bits;
    c->last.tx_bits = l->tx_bits;
    memcpy(c->last.hop, l->hop, l->n_hops * sizeof l->hop[0]);
    c->have_last = 1;
}

static int reset_history(hpcc_ctl *c, const libcc_int_list *l)
{
    store_last(c, l);
    c->n_u_hop = 0;
    c->resets++;
    return HPCC_RESET;
}

int hpcc_measure_inflight(hpcc_ctl *c, const libcc_int_list *l, unsigned max_hops)
{
    unsigned bound = (max_hops == 0 || max_hops > LIBCC_INT_MAX_HOPS) ? LIBCC_INT_MAX_HOPS : max_hops;
    bool bad = l->n_hops == 0 || l->n_hops > bound;
    for (unsigned i = 0; !bad && i < l->n_hops; i++)
        bad = l->hop[i].bandwidth_bps == 0; /* u' divides by B */
    if (bad) {
        /* Nothing in this list can be trusted, not even as a future L. */
        c->have_last = 0;
        c->n_u_hop = 0;
        c->resets++;
        return LIBCC_ERR_BAD_TELEMETRY;
    }
    if (!c->have_last) {
        store_last(c, l); /* first telemetry: line 27 only */
        return HPCC_FIRST;
    }
    if (!hpcc_same_path(l, &c->last))
        return reset_history(c, l); /* differences of different links mean nothing */

    const unsigned ts_bits = hpcc_int_width(l->ts_bits), tx_bits = hpcc_int_width(l->tx_bits);
    const double T = c->t_ns;
    double u_hop[LIBCC_INT_MAX_HOPS];
    double u = -1.0, tau = 0.0;
    unsigned fresh = 0, queued = 0;
    for (unsigned i = 0; i < l->n_hops; i++) { /* line 3 */
        const libcc_int_hop *cur = &l->hop[i], *prev = &c->last.hop[i];
        uint64_t dts = libcc_wrap_diff(cur->ts_ns, prev->ts_ns, ts_bits);
        uint64_t dtx = libcc_wrap_diff(cur->tx_bytes, prev->tx_bytes, tx_bits);
        if (dts == 0 && dtx == 0 && cur->qlen_bytes == prev->qlen_bytes) {
            /* The record the previous ACK carried, again: an FNCC switch
             * rewrites a port's All_INT_Table entry only when the port
             * dequeues, so a port that sent nothing since gives the same
             * record. Nothing left it, so it has no new rate and is not the
             * hop building a queue: it takes no part in this U (u' 0 for
             * FNCC's hop detection) and the history stays. */
            u_hop[i] = 0.0;
            continue;
        }
        /* A record that did not advance in time, or whose time or counter ran
         * backwards, gives no rate: start over from this record. */
        if (dts == 0 || backwards(dts, ts_bits) || backwards(dtx, tx_bits))
            return reset_history(c, l);
        const double B = (double)cur->bandwidth_bps;
        const double tx_rate = (double)dtx * HPCC_BIT_NS_PER_BYTE_S / (double)dts; /* line 4, bits/s */
        if (tx_rate > HPCC_MAX_TXRATE_OVER_B * B)
            return reset_history(c, l);
        const uint64_t q = cur->qlen_bytes < prev->qlen_bytes ? cur->qlen_bytes : prev->qlen_bytes;
        /* line 5: qlen / (B*T) with B*T in bytes, plus txRate / B */
        const double up = (double)q * HPCC_BIT_NS_PER_BYTE_S / (B * T) + tx_rate / B;
        u_hop[i] = up;
        if (q)
            queued |= 1u << i;
        /* lines 6-7. Starting u below 0 makes the first hop win ties, so tau
         * is defined even on an idle path where every u' is 0 (the draft
         * leaves tau unset there) and U then decays towards 0. */
        if (up > u) {
            u = up;
            tau = (double)dts;
        }
        fresh++;
    }
    if (fresh == 0)
        return HPCC_UNCHANGED; /* L is this list already; U and W stay */
    if (tau > T) /* line 8 */
        tau = T;
    c->U = (1.0 - tau / T) * c->U + tau / T * u; /* line 9 */
    memcpy(c->u_hop, u_hop, l->n_hops * sizeof u_hop[0]);
    c->n_u_hop = l->n_hops;
    c->queued_hops = (uint8_t)queued;
    store_last(c, l); /* line 27: L = ack.L */
    return HPCC_MEASURED;
}

double hpcc_compute_wind(hpcc_ctl *c, const hpcc_cfg *cfg, bool update_wc)
{
    double w;
    if (hpcc_multiplicative(c, cfg)) { /* line 12 */
        /* line 13, W = Wc/(U/eta) + W_ai. U is 0 on an idle path: the limit
         * is then unbounded, so compare before dividing and cap at W_init. */
        if (c->U * c->w_init <= c->Wc * cfg->eta)
            w = c->w_init;
        else
            w = c->Wc * cfg->eta / c->U;
        w = hpcc_bound_window(c, w + c->w_ai);
        if (update_wc) { /* lines 14-15 */
            c->inc_stage = 0;
            c->Wc = w;
        }
    } else {
        w = hpcc_bound_window(c, c->Wc + c->w_ai); /* line 17 */
        if (update_wc) {                            /* lines 18-19 */
            c->inc_stage++;
            c->Wc = w;
        }
    }
    c->W = w;
    return w;
}

void hpcc_rp_apply(libcc_rp *rp, const hpcc_ctl *c, double w)
{
    /* line 27: R = W/T, in bits/s. The core bounds it to [1 bit/s, line
     * rate] after every event (rp.c); here only the conversion to an
     * integer must stay defined. A window beyond 2^64 bytes (line rate and
     * T both near 2^64) saturates: that large it limits nothing. */
    const double r = w * HPCC_BIT_NS_PER_BYTE_S / c->t_ns;
    libcc_rp_set_rate_bps(rp, libcc_sat_u64(r + 0.5));
    libcc_rp_set_window_bytes(rp, libcc_sat_u64(w + 0.5));
}

void hpcc_rp_init_common(libcc_rp *rp, uint64_t now_ns)
{
    (void)now_ns;
    hpcc_rp_state *s = hpcc_rp_priv(rp);
    const hpcc_cfg *cfg = hpcc_rp_cfg(rp);
    memset(s, 0, sizeof *s);
    hpcc_ctl_init(&s->ctl, cfg, libcc_rp_flow(rp)->line_rate_bps, hpcc_effective_t(cfg, libcc_rp_flow(rp)->base_rtt_ns),
                  libcc_rp_flow(rp)->mtu_bytes);
    /* Flows start at line rate (the core's start) with a BDP window (draft
     * section 5). */
    libcc_rp_set_window_bytes(rp, libcc_sat_u64(s->ctl.w_init + 0.5));
}

int hpcc_rp_new_ack(libcc_rp *rp, const libcc_ack *ack, hpcc_update_wc_fn update_wc)
{
    hpcc_rp_state *s = hpcc_rp_priv(rp);
    const hpcc_cfg *cfg = hpcc_rp_cfg(rp);
    s->acks++;
    if (!ack->int_list || ack->int_list->n_hops == 0)
        return LIBCC_OK; /* an ACK without telemetry carries no load information */
    int m = hpcc_measure_inflight(&s->ctl, ack->int_list, libcc_rp_common(rp)->max_hops);
    if (m < 0)
        return m;
    if (m != HPCC_MEASURED)
        return LIBCC_OK; /* first record, history reset or nothing new: W stays */
    const bool update = ack->seq > s->last_update_seq; /* line 22 */
    const uint32_t lhcs_before = s->lhcs_fired;
    if (update_wc)
        update_wc(rp, s, ack);
    const bool logging = libcc_rp_logging(rp);
    const bool mult = logging && hpcc_multiplicative(&s->ctl, cfg);
    double w = hpcc_compute_wind(&s->ctl, cfg, update); /* lines 23 / 26 */
    if (update)
        s->last_update_seq = libcc_rp_snd_nxt(rp); /* line 24 */
    hpcc_rp_apply(rp, &s->ctl, w);
    if (logging)
        hpcc_explain(rp, s, s->lhcs_fired != lhcs_before ? "last-hop-speedup"
                            : mult                        ? "multiplicative"
                                                          : "additive-increase",
                     update);
    return LIBCC_OK;
}

void hpcc_explain(libcc_rp *rp, const hpcc_rp_state *s, const char *action, bool update_wc)
{
    /* FNCC's hop detection adds the hottest hop and its u' */
    const libcc_decision_input in[] = {{"U", s->ctl.U},
                                       {"W", s->ctl.W},
                                       {"Wc", s->ctl.Wc},
                                       {"inc_stage", (double)s->ctl.inc_stage},
                                       {"update_wc", update_wc ? 1.0 : 0.0},
                                       {"u_max", s->u_max},
                                       {"hot_hop", (double)s->hot_hop}};
    const size_t n = hpcc_rp_cfg(rp)->variant == HPCC_V_FNCC ? 7 : 5;
    libcc_rp_explain(rp, action, in, n);
}

const libcc_param_desc hpcc_vars[HPCC_N_VARS + HPCC_N_FNCC_VARS] = {
    {"U", LIBCC_UNIT_RATIO, 0, 0, 0, "EWMA of the most loaded hop's normalised inflight (line 9)"},
    {"W", LIBCC_UNIT_BYTES, 0, 0, 0, "window W before rounding (line 13 or 17)"},
    {"Wc", LIBCC_UNIT_BYTES, 0, 0, 0, "reference window Wc, synced with W once per RTT"},
    {"inc_stage", LIBCC_UNIT_COUNT, 0, 0, 0, "additive steps since the last multiplicative one"},
    {"w_ai", LIBCC_UNIT_BYTES, 0, 0, 0, "additive step W_ai in use"},
    {"T", LIBCC_UNIT_NS, 0, 0, 0, "base RTT T in use"},
    {"resets", LIBCC_UNIT_COUNT, 0, 0, 0, "telemetry history resets (path change, garbage)"},
    {"u_max", LIBCC_UNIT_RATIO, 0, 0, 0, "FNCC: largest per-hop u' of the latest ACK"},
    {"hot_hop", LIBCC_UNIT_COUNT, 0, 0, 0,
     "FNCC: its index in the ACK's list (0: last hop of the request path)"},
    {"lhcs", LIBCC_UNIT_COUNT, 0, 0, 0, "FNCC: times last-hop speedup set Wc"},
    {"lhcs_u_mean", LIBCC_UNIT_RATIO, 0, 0, 0, "FNCC: mean last-hop u' at those times (0: none)"},
    {"lhcs_n_mean", LIBCC_UNIT_RATIO, 0, 0, 0,
     "FNCC: mean N the ACK reported at those times (0: none)"},
    {"lhcs_no_queue", LIBCC_UNIT_COUNT, 0, 0, 0,
     "FNCC: of those, times the last hop had no queue (u' from txRate alone)"},
};

void hpcc_read_vars(const libcc_rp *rp, double *v)
{
    const hpcc_rp_state *s = hpcc_rp_cpriv(rp);
    v[0] = s->ctl.U;
    v[1] = s->ctl.W;
    v[2] = s->ctl.Wc;
    v[3] = (double)s->ctl.inc_stage;
    v[4] = s->ctl.w_ai;
    v[5] = s->ctl.t_ns;
    v[6] = (double)s->ctl.resets;
    if (hpcc_rp_cfg(rp)->variant == HPCC_V_FNCC) {
        v[7] = s->u_max;
        v[8] = (double)s->hot_hop;
        v[9] = (double)s->lhcs_fired;
        const double k = s->lhcs_fired ? (double)s->lhcs_fired : 1.0;
        v[10] = s->lhcs_u_sum / k;
        v[11] = s->lhcs_n_sum / k;
        v[12] = (double)s->lhcs_no_queue;
    }
}

int hpcc_cp_stamp(libcc_cp *cp, uint64_t now_ns, libcc_cp_pkt *pkt)
{
    /* The sender asked for INT by giving the packet a header (HPCC++ every-k
     * sends the others without one); ACKs carry the echo and are not the
     * switch's to stamp. */
    if ((pkt->kind != LIBCC_PKT_DATA && pkt->kind != LIBCC_PKT_PROBE) || !pkt->int_list)
        return LIBCC_OK;
    libcc_int_hop hop;
    int rc = libcc_cp_int_record(cp, now_ns, pkt->port_queue_bytes, &hop);
    return rc ? rc : libcc_cp_stamp(cp, pkt, &hop);
}

int hpcc_rp_int_every_packet(libcc_rp *rp, uint64_t now_ns, uint64_t seq, uint32_t bytes,
                             unsigned *tx_flags)
{
    (void)rp;
    (void)now_ns;
    (void)seq;
    (void)bytes;
    *tx_flags |= LIBCC_TX_REQUEST_INT;
    return LIBCC_OK;
}

int hpcc_np_echo(libcc_np *np, libcc_np_flow *flow, uint64_t now_ns,
                 const libcc_data_pkt *pkt, libcc_np_verdict *verdict)
{
    (void)np;
    (void)flow;
    (void)now_ns;
    /* The receiver reflects the telemetry (section 3); with delayed ACKs the
     * ACK carries the newest packet's list, the freshest load. The host
     * copies it into the ACK it builds: pointing at it saves a copy here. */
    verdict->ack.int_list = pkt->int_list;
    return LIBCC_OK;
}
