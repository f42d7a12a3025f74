/* SPDX-License-Identifier: MIT */
/*
 * DCQCN Notification Point: a CE-marked data packet asks the sender to slow
 * down with a CNP, but at most one CNP per flow per min_time_between_cnps so
 * a burst of marks costs the reverse path one packet, not one per mark.
 * Pacing is per flow: one congested flow never silences another.
 */
#include "dcqcn.h"

void libcc_dcqcn_np_flow_init(libcc_np *np, libcc_np_flow *flow, uint64_t now_ns)
{
    (void)np;
    (void)now_ns;
    dcqcn_np_flow *f = (dcqcn_np_flow *)libcc_np_flow_state(flow);
    f->last_cnp_ns = 0;
    f->cnp_sent = false;
}

/* [dcqcn:np-cnp] */
int libcc_dcqcn_np_on_data(libcc_np *np, libcc_np_flow *flow, uint64_t now_ns,
                           const libcc_data_pkt *pkt, libcc_np_verdict *verdict)
{
    const dcqcn_cfg *cfg = (const dcqcn_cfg *)libcc_np_config(np);
    dcqcn_np_flow *f = (dcqcn_np_flow *)libcc_np_flow_state(flow);

    if (!pkt->ecn_ce || pkt->is_probe)
        return LIBCC_OK;
    if (f->cnp_sent && now_ns - f->last_cnp_ns < cfg->min_cnp_gap_ns)
        return LIBCC_OK;
    f->cnp_sent = true;
    f->last_cnp_ns = now_ns;
    libcc_np_request_cnp(np, now_ns, libcc_np_flow_id(flow), verdict);
    return LIBCC_OK;
}
