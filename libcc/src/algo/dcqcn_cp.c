/* SPDX-License-Identifier: MIT */
/*
 * DCQCN Congestion Point: RED-style ECN marking of the egress queue, as
 * commodity switches (and DCTCP) do it. Only ECN-capable data packets are
 * candidates: CNPs, ACKs and non-ECT traffic must never carry CE.
 * The queue is the egress queue of the packet's priority (queue_bytes), not
 * the whole port: the DCQCN paper's switches and the HPCC simulator apply
 * Kmin/Kmax per queue, so traffic of another class cannot get this one
 * marked.
 */
#include "dcqcn.h"

/* [dcqcn:cp-red] p(q) = 0 (q <= Kmin), Pmax (q-Kmin)/(Kmax-Kmin), 1 (q > Kmax) */
double libcc_dcqcn_cp_mark_probability(const libcc_cp *cp, uint64_t queue_bytes)
{
    const dcqcn_cfg *cfg = (const dcqcn_cfg *)libcc_cp_config(cp);

    if (queue_bytes <= cfg->kmin_bytes)
        return 0.0;
    /* Kmin == Kmax falls through here: a step from 0 to 1, no division. */
    if (queue_bytes > cfg->kmax_bytes)
        return 1.0;
    return cfg->pmax * (double)(queue_bytes - cfg->kmin_bytes) /
           (double)(cfg->kmax_bytes - cfg->kmin_bytes);
}

/* [dcqcn:cp-mark] */
static void maybe_mark(libcc_cp *cp, libcc_cp_pkt *pkt)
{
    if (pkt->kind != LIBCC_PKT_DATA || !pkt->ecn_capable)
        return;
    double p = libcc_dcqcn_cp_mark_probability(cp, pkt->queue_bytes);
    /* Draw only when the outcome is uncertain: a queue below Kmin costs no
     * randomness, and the sequence of draws depends only on real coin flips. */
    if (p >= 1.0 || (p > 0.0 && libcc_cp_rand_unit(cp) < p))
        pkt->mark_ce = 1; /* never cleared: an upstream CE mark stays */
}

int libcc_dcqcn_cp_on_enqueue(libcc_cp *cp, uint64_t now_ns, libcc_cp_pkt *pkt)
{
    (void)now_ns;
    if (!((const dcqcn_cfg *)libcc_cp_config(cp))->mark_at_dequeue)
        maybe_mark(cp, pkt);
    return LIBCC_OK;
}

int libcc_dcqcn_cp_on_dequeue(libcc_cp *cp, uint64_t now_ns, libcc_cp_pkt *pkt)
{
    (void)now_ns;
    if (((const dcqcn_cfg *)libcc_cp_config(cp))->mark_at_dequeue)
        maybe_mark(cp, pkt);
    return LIBCC_OK;
}
