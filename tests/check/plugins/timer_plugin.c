/* SPDX-License-Identifier: MIT */
/* A plugin as a user writes one, built outside libcc against
 * <libcc/algorithm.h> only: algorithm "plugin-timer". Its NP arms a timer
 * `delay` after each data packet (lowering the NP's deadline, so the
 * earliest wins) and, when it fires, asks for a CNP for flow 0 (the NP has
 * no state of its own to remember a flow in); its RP halves the rate on a
 * CNP. check_algorithm.c loads it and checks each step by hand. */
#include <libcc/algorithm.h>

typedef struct {
    uint64_t delay_ns;
} timer_cfg;

typedef struct {
    uint64_t pkts;
} timer_flow;

static const libcc_param_desc timer_params[] = {
    {"delay", LIBCC_UNIT_NS, 10000, 1, 1e9, "time from a data packet to the NP's timer"},
};

static int timer_cfg_init(void *cfg, const double *values, char *err, size_t err_len)
{
    (void)err;
    (void)err_len;
    ((timer_cfg *)cfg)->delay_ns = (uint64_t)values[0];
    return LIBCC_OK;
}

static int timer_on_data(libcc_np *np, libcc_np_flow *flow, uint64_t now_ns,
                         const libcc_data_pkt *pkt, libcc_np_verdict *verdict)
{
    (void)pkt;
    (void)verdict;
    const timer_cfg *c = libcc_np_config(np);
    ((timer_flow *)libcc_np_flow_state(flow))->pkts++;
    libcc_np_set_deadline_ns(np, libcc_sat_add(now_ns, c->delay_ns));
    return LIBCC_OK;
}

static int timer_on_timer(libcc_np *np, uint64_t now_ns)
{
    libcc_np_request_cnp(np, now_ns, 0, NULL);
    return LIBCC_OK;
}

static int timer_rp_on_cnp(libcc_rp *rp, uint64_t now_ns)
{
    (void)now_ns;
    libcc_rp_set_rate_bps(rp, libcc_rp_rate_bps(rp) / 2);
    return LIBCC_OK;
}

static const libcc_rp_ops timer_rp = {
    .on_cnp = timer_rp_on_cnp,
};

static const libcc_np_ops timer_np = {
    .flow_state_size = sizeof(timer_flow),
    .on_data = timer_on_data,
    .on_timer = timer_on_timer,
};

static const libcc_algorithm timer_algorithm = {
    .abi_version = LIBCC_ALGORITHM_ABI_VERSION,
    .name = "plugin-timer",
    .summary = "test plugin: an NP timer after each data packet, a CNP when it fires",
    .roles = LIBCC_ROLE_RP | LIBCC_ROLE_NP,
    .params = timer_params,
    .n_params = 1,
    .cfg_size = sizeof(timer_cfg),
    .cfg_init = timer_cfg_init,
    .rp = &timer_rp,
    .np = &timer_np,
};

int libcc_plugin_init(char *err, size_t err_len)
{
    return libcc_algorithm_register(&timer_algorithm, err, err_len);
}
