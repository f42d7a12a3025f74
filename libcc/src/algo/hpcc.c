/* SPDX-License-Identifier: MIT */
/*
 * `hpcc`: the sender-based algorithm of the HPCC++ draft, section 4, with
 * INT collected by every data packet (section 6.2.1 option 1) and echoed
 * by the receiver in every ACK. The arithmetic lives in hpcc_core.c.
 */
#include "hpcc_core.h"

static const libcc_param_desc hpcc_params[] = {HPCC_PARAM_ROWS};

static int hpcc_cfg_init(void *cfg, const double *values, char *err, size_t err_len)
{
    (void)err;
    (void)err_len;
    hpcc_cfg *c = cfg;
    c->variant = HPCC_V_HPCC;
    hpcc_cfg_common(c, values);
    return LIBCC_OK;
}

static int hpcc_rp_on_ack(libcc_rp *rp, uint64_t now_ns, const libcc_ack *ack)
{
    (void)now_ns;
    return hpcc_rp_new_ack(rp, ack, NULL);
}

/* The HPCC simulator's HPCC (CC_MODE 3) adds a fixed RATE_AI per update;
 * libcc's rule of thumb W_ai = W_init (1 - eta) / N adds line rate x
 * (1 - eta) / N, so at a 100 Gbit/s NIC N = 5 Gbit/s / RATE_AI. */
static const libcc_preset_desc hpcc_presets[] = {
    {"hpcc-sim", "eta=0.95 max_stage=0 expected_flows=125 w_ai=0B base_rtt=0ns",
     "the HPCC simulator's HPCC as its run.py --cc hp sets it for 100 Gbit/s NICs "
     "(RATE_AI 40Mb/s, U_TARGET 0.95, MI_THRESH 0)"},
    {"hpcc-sim-config", "eta=0.95 max_stage=0 expected_flows=100 w_ai=0B base_rtt=0ns",
     "the HPCC simulator's HPCC with its shipped mix/config.txt at 100 Gbit/s NICs "
     "(RATE_AI 50Mb/s, U_TARGET 0.95, MI_THRESH 0)"},
};

static const libcc_rp_ops hpcc_rp_ops = {
    .state_size = sizeof(hpcc_rp_state),
    .vars = hpcc_vars,
    .n_vars = HPCC_N_VARS,
    .init = hpcc_rp_init_common,
    .on_ack = hpcc_rp_on_ack,
    /* The reference simulator runs the same update on NACKs: they carry the
     * same echoed telemetry. */
    .on_nack = hpcc_rp_on_ack,
    .on_tx = hpcc_rp_int_every_packet, /* basic algorithm: every data packet */
    .read_vars = hpcc_read_vars,
};

static const libcc_np_ops hpcc_np_ops = {
    .on_data = hpcc_np_echo,
};

static const libcc_cp_ops hpcc_cp_ops = {
    .on_dequeue = hpcc_cp_stamp, /* draft section 3: stamp at egress */
};

const libcc_algorithm libcc_algorithm_hpcc = {
    .abi_version = LIBCC_ALGORITHM_ABI_VERSION,
    .name = "hpcc",
    .hpcc_sim_cc_mode = 3, /* the HPCC simulator's CC_MODE (run.py) */
    .roles = LIBCC_ROLE_RP | LIBCC_ROLE_NP | LIBCC_ROLE_CP,
    .data_int = LIBCC_INT_FORMAT_HPCC, /* switches stamp data at egress */
    .ack_int = LIBCC_INT_FORMAT_HPCC,  /* the receiver echoes the data's hops */
    .params = hpcc_params,
    .n_params = sizeof hpcc_params / sizeof hpcc_params[0],
    .cfg_init = hpcc_cfg_init,
    .cfg_size = sizeof(hpcc_cfg),
    .presets = hpcc_presets,
    .n_presets = sizeof hpcc_presets / sizeof hpcc_presets[0],
    .rp = &hpcc_rp_ops,
    .np = &hpcc_np_ops,
    .cp = &hpcc_cp_ops,
};
