/* SPDX-License-Identifier: MIT */
/*
 * DCQCN: the parameter table (firmware names and firmware defaults), the
 * typed configuration and the algorithm table. The three roles live in
 * dcqcn_cp.c, dcqcn_np.c and dcqcn_rp.c.
 */
#include "dcqcn.h"

#include <math.h>
#include <stdio.h>

/* Ranges are wide on purpose: they reject nonsense (a negative time, a
 * probability above 1), not unusual experiments. Firmware times are in
 * microseconds, so 1 us is the floor of every periodic timer; it also keeps
 * a late host's catch-up loop short. */
#define MAX_RATE 1e13  /* 10 Tbit/s */
#define MAX_TIME 1e10  /* 10 s */
#define MAX_BYTES 1e12 /* 1 TB */

/* [dcqcn:param-table] */
const libcc_param_desc libcc_dcqcn_params[DCQCN_N_PARAMS] = {
    [DCQCN_P_KMIN] = {"kmin", LIBCC_UNIT_BYTES, 100e3, 0, MAX_BYTES,
                      "CP: queue length at or below which nothing is marked"},
    [DCQCN_P_KMAX] = {"kmax", LIBCC_UNIT_BYTES, 400e3, 0, MAX_BYTES,
                      "CP: queue length above which every ECN-capable data packet is marked"},
    [DCQCN_P_PMAX] = {"pmax", LIBCC_UNIT_RATIO, 0.2, 0, 1,
                      "CP: marking probability reached at kmax"},
    [DCQCN_P_MARK_AT_DEQUEUE] = {"ecn_mark_at_dequeue", LIBCC_UNIT_BOOL, 1, 0, 1,
                                 "CP: 1 marks at dequeue (queue after the packet left), "
                                 "0 at enqueue (queue before it joined)"},
    [DCQCN_P_G] = {"g", LIBCC_UNIT_RATIO, 5.0 / 1024.0, 0, 1,
                   "RP: alpha gain; firmware dce_tcp_g=1019 keeps 1019/1024, so g=5/1024"},
    [DCQCN_P_INITIAL_ALPHA] = {"initial_alpha", LIBCC_UNIT_RATIO, 1, 0, 1,
                               "RP: alpha set by the first CNP of a flow"},
    [DCQCN_P_DCE_TCP_RTT] = {"dce_tcp_rtt", LIBCC_UNIT_NS, 1e3, 1e3, MAX_TIME,
                             "RP: alpha update period"},
    [DCQCN_P_MONITOR_PERIOD] = {"rate_reduce_monitor_period", LIBCC_UNIT_NS, 4e3, 0, MAX_TIME,
                                "RP: CNPs are collected for this long, then the rate is cut once "
                                "if any came (0: every CNP cuts at once)"},
    [DCQCN_P_CUT_ON_CNP] = {"cut_on_cnp", LIBCC_UNIT_BOOL, 0, 0, 1,
                            "RP: 1 cuts at a CNP that finds no monitor period open, later CNPs "
                            "at its end (libcc 0.3); 0 cuts only at the end of the period a "
                            "CNP came in (NVIDIA notes, HPCC simulator)"},
    [DCQCN_P_TIME_RESET] = {"rpg_time_reset", LIBCC_UNIT_NS, 300e3, 1e3, MAX_TIME,
                            "RP: a timer increase stage every this long without a decrease"},
    [DCQCN_P_BYTE_RESET] = {"rpg_byte_reset", LIBCC_UNIT_BYTES, 32767, 0, MAX_BYTES,
                            "RP: a byte-counter increase stage every this many bytes sent "
                            "(0: off)"},
    [DCQCN_P_THRESHOLD] = {"rpg_threshold", LIBCC_UNIT_COUNT, 1, 1, 1e6,
                           "RP: F, stages of fast recovery before additive increase"},
    [DCQCN_P_AI_RATE] = {"rpg_ai_rate", LIBCC_UNIT_BPS, 5e6, 0, MAX_RATE,
                         "RP: target rate step of additive increase"},
    [DCQCN_P_HAI_RATE] = {"rpg_hai_rate", LIBCC_UNIT_BPS, 50e6, 0, MAX_RATE,
                          "RP: target rate step of hyper increase"},
    [DCQCN_P_HAI_SCALE] = {"rpg_hai_scale_by_stage", LIBCC_UNIT_BOOL, 0, 0, 1,
                           "RP: 1 steps hyper increase by i*rpg_hai_rate, "
                           "i = min(T,B)-F+1 (the paper); 0 by rpg_hai_rate (firmware)"},
    [DCQCN_P_KIND_BY_TIMER] = {"increase_kind_by_timer", LIBCC_UNIT_BOOL, 0, 0, 1,
                               "RP: 1 picks each increase by T alone, as the HPCC simulator: "
                               "T<F fast recovery, T=F additive, T>F hyper; 0 by T and B "
                               "(firmware, paper)"},
    [DCQCN_P_MIN_RATE] = {"rpg_min_rate", LIBCC_UNIT_BPS, 1e6, 1, MAX_RATE,
                          "RP: a decrease never takes the rate below this"},
    [DCQCN_P_MIN_DEC_FAC] = {"rpg_min_dec_fac", LIBCC_UNIT_COUNT, 50, 0, 100,
                             "RP: percent of the rate a single decrease keeps at least"},
    [DCQCN_P_GD] = {"rpg_gd", LIBCC_UNIT_COUNT, 11, 0, 20,
                    "RP: a decrease cuts Rc by alpha/2^(rpg_gd-10)"},
    [DCQCN_P_FIRST_CNP_RATE] = {"rate_to_set_on_first_cnp", LIBCC_UNIT_BPS, 0, 0, MAX_RATE,
                                "RP: rate set by a flow's first CNP, before its decrease "
                                "(0: off)"},
    [DCQCN_P_CLAMP] = {"clamp_tgt_rate", LIBCC_UNIT_BOOL, 0, 0, 1,
                       "RP: every decrease sets the target rate to the current rate"},
    [DCQCN_P_CLAMP_AFTER_TIME_INC] = {"clamp_tgt_rate_after_time_inc", LIBCC_UNIT_BOOL, 1, 0, 1,
                                      "RP: a decrease sets the target rate to the current rate "
                                      "if a timer increase happened since the last decrease"},
    [DCQCN_P_MIN_CNP_GAP] = {"min_time_between_cnps", LIBCC_UNIT_NS, 4e3, 0, MAX_TIME,
                             "NP: at most one CNP per flow per this interval"},
};

static uint64_t u64(double v)
{
    return (uint64_t)llround(v);
}

static int fail(char *err, size_t err_len, const char *msg, const char *a, double va,
                const char *b, double vb)
{
    if (err && err_len)
        snprintf(err, err_len, msg, a, va, b, vb);
    return LIBCC_ERR_OUT_OF_RANGE;
}

/* [dcqcn:cross-checks] The single ranges are checked by the core; this
 * checks relations. */
int libcc_dcqcn_cfg_init(void *cfgp, const double *v, char *err, size_t err_len)
{
    dcqcn_cfg *cfg = cfgp;

    if (v[DCQCN_P_KMIN] > v[DCQCN_P_KMAX])
        return fail(err, err_len, "%s (%.0f B) must not exceed %s (%.0f B)", "kmin",
                    v[DCQCN_P_KMIN], "kmax", v[DCQCN_P_KMAX]);
    if (v[DCQCN_P_HAI_RATE] < v[DCQCN_P_AI_RATE])
        return fail(err, err_len, "%s (%.0f bps) must not be below %s (%.0f bps)",
                    "rpg_hai_rate", v[DCQCN_P_HAI_RATE], "rpg_ai_rate", v[DCQCN_P_AI_RATE]);
    if (v[DCQCN_P_FIRST_CNP_RATE] != 0 && v[DCQCN_P_FIRST_CNP_RATE] < v[DCQCN_P_MIN_RATE])
        return fail(err, err_len, "%s (%.0f bps) must be 0 (off) or at least %s (%.0f bps)",
                    "rate_to_set_on_first_cnp", v[DCQCN_P_FIRST_CNP_RATE], "rpg_min_rate",
                    v[DCQCN_P_MIN_RATE]);

    cfg->kmin_bytes = u64(v[DCQCN_P_KMIN]);
    cfg->kmax_bytes = u64(v[DCQCN_P_KMAX]);
    cfg->pmax = v[DCQCN_P_PMAX];
    cfg->mark_at_dequeue = v[DCQCN_P_MARK_AT_DEQUEUE] != 0;
    cfg->min_cnp_gap_ns = u64(v[DCQCN_P_MIN_CNP_GAP]);
    cfg->g = v[DCQCN_P_G];
    cfg->initial_alpha = v[DCQCN_P_INITIAL_ALPHA];
    cfg->gd_scale = ldexp(1.0, 10 - (int)llround(v[DCQCN_P_GD]));
    cfg->alpha_period_ns = u64(v[DCQCN_P_DCE_TCP_RTT]);
    cfg->monitor_period_ns = u64(v[DCQCN_P_MONITOR_PERIOD]);
    cfg->cut_on_cnp = v[DCQCN_P_CUT_ON_CNP] != 0;
    cfg->time_reset_ns = u64(v[DCQCN_P_TIME_RESET]);
    cfg->byte_reset = u64(v[DCQCN_P_BYTE_RESET]);
    cfg->ai_rate_bps = u64(v[DCQCN_P_AI_RATE]);
    cfg->hai_rate_bps = u64(v[DCQCN_P_HAI_RATE]);
    cfg->min_rate_bps = u64(v[DCQCN_P_MIN_RATE]);
    cfg->first_cnp_rate_bps = u64(v[DCQCN_P_FIRST_CNP_RATE]);
    cfg->threshold = (uint32_t)u64(v[DCQCN_P_THRESHOLD]);
    cfg->min_dec_fac_pct = (uint32_t)u64(v[DCQCN_P_MIN_DEC_FAC]);
    cfg->hai_scale_by_stage = v[DCQCN_P_HAI_SCALE] != 0;
    cfg->kind_by_timer = v[DCQCN_P_KIND_BY_TIMER] != 0;
    cfg->clamp_tgt_rate = v[DCQCN_P_CLAMP] != 0;
    cfg->clamp_after_time_inc = v[DCQCN_P_CLAMP_AFTER_TIME_INC] != 0;
    return LIBCC_OK;
}

/* [dcqcn:presets] The defaults are the firmware's; these are the settings
 * the literature runs DCQCN with. Each preset assigns every parameter, so
 * it means the same whatever was set before it; where its source gives no
 * value it takes the firmware's (docs/algorithms/dcqcn.md says which). */
static const libcc_preset_desc dcqcn_presets[] = {
    {"paper",
     "kmin=5KB kmax=200KB pmax=1% ecn_mark_at_dequeue=1 g=1/256 initial_alpha=1 "
     "dce_tcp_rtt=55us rate_reduce_monitor_period=0ns cut_on_cnp=0 rpg_time_reset=55us "
     "rpg_byte_reset=10MB rpg_threshold=5 rpg_ai_rate=40Mbps rpg_hai_rate=50Mbps "
     "rpg_hai_scale_by_stage=1 increase_kind_by_timer=0 rpg_min_rate=1Mbps rpg_min_dec_fac=0 "
     "rpg_gd=11 rate_to_set_on_first_cnp=0bps clamp_tgt_rate=1 "
     "clamp_tgt_rate_after_time_inc=1 min_time_between_cnps=50us",
     "the DCQCN paper (Zhu et al., SIGCOMM 2015), as the FNCC paper compares against it"},
    {"hpcc-sim",
     "kmin=400KB kmax=1600KB pmax=0.2 ecn_mark_at_dequeue=1 g=1/256 initial_alpha=1 "
     "dce_tcp_rtt=1us rate_reduce_monitor_period=4us cut_on_cnp=0 rpg_time_reset=300us "
     "rpg_byte_reset=0B rpg_threshold=1 rpg_ai_rate=20Mbps rpg_hai_rate=200Mbps "
     "rpg_hai_scale_by_stage=0 increase_kind_by_timer=1 rpg_min_rate=1Gbps rpg_min_dec_fac=0 "
     "rpg_gd=11 rate_to_set_on_first_cnp=0bps clamp_tgt_rate=0 "
     "clamp_tgt_rate_after_time_inc=1 min_time_between_cnps=0ns",
     "the HPCC simulator's DCQCN as its run.py --cc dcqcn sets it for 100 Gbit/s NICs"},
    {"hpcc-sim-config",
     "kmin=400KB kmax=1600KB pmax=0.2 ecn_mark_at_dequeue=1 g=1/256 initial_alpha=1 "
     "dce_tcp_rtt=1us rate_reduce_monitor_period=4us cut_on_cnp=0 rpg_time_reset=900us "
     "rpg_byte_reset=0B rpg_threshold=1 rpg_ai_rate=50Mbps rpg_hai_rate=100Mbps "
     "rpg_hai_scale_by_stage=0 increase_kind_by_timer=1 rpg_min_rate=100Mbps rpg_min_dec_fac=0 "
     "rpg_gd=11 rate_to_set_on_first_cnp=0bps clamp_tgt_rate=0 "
     "clamp_tgt_rate_after_time_inc=1 min_time_between_cnps=0ns",
     "the HPCC simulator's DCQCN with the values of its shipped mix/config.txt (100G row of "
     "its maps)"},
    {"firmware",
     "kmin=100KB kmax=400KB pmax=0.2 ecn_mark_at_dequeue=1 g=5/1024 initial_alpha=1 "
     "dce_tcp_rtt=1us rate_reduce_monitor_period=4us cut_on_cnp=0 rpg_time_reset=300us "
     "rpg_byte_reset=32767B rpg_threshold=1 rpg_ai_rate=5Mbps rpg_hai_rate=50Mbps "
     "rpg_hai_scale_by_stage=0 increase_kind_by_timer=0 rpg_min_rate=1Mbps rpg_min_dec_fac=50 "
     "rpg_gd=11 rate_to_set_on_first_cnp=0bps clamp_tgt_rate=0 "
     "clamp_tgt_rate_after_time_inc=1 min_time_between_cnps=4us",
     "the NVIDIA firmware defaults (the defaults of this table), to undo another preset"},
};

static const libcc_rp_ops dcqcn_rp_ops = {
    .state_size = sizeof(dcqcn_rp_state),
    .vars = libcc_dcqcn_rp_vars,
    .n_vars = DCQCN_N_RP_VARS,
    .init = libcc_dcqcn_rp_init,
    .on_cnp = libcc_dcqcn_rp_on_cnp,
    .on_tx = libcc_dcqcn_rp_on_tx,
    .on_timer = libcc_dcqcn_rp_on_timer,
    .read_vars = libcc_dcqcn_rp_read_vars,
};

static const libcc_np_ops dcqcn_np_ops = {
    .flow_state_size = sizeof(dcqcn_np_flow),
    .flow_init = libcc_dcqcn_np_flow_init,
    .on_data = libcc_dcqcn_np_on_data,
};

static const libcc_cp_ops dcqcn_cp_ops = {
    .on_enqueue = libcc_dcqcn_cp_on_enqueue,
    .on_dequeue = libcc_dcqcn_cp_on_dequeue,
    .mark_probability = libcc_dcqcn_cp_mark_probability,
};

const libcc_algorithm libcc_algorithm_dcqcn = {
    .abi_version = LIBCC_ALGORITHM_ABI_VERSION,
    .name = "dcqcn",
    .hpcc_sim_cc_mode = 1, /* the HPCC simulator's CC_MODE (run.py) */
    .roles = LIBCC_ROLE_RP | LIBCC_ROLE_NP | LIBCC_ROLE_CP,
    .params = libcc_dcqcn_params,
    .n_params = DCQCN_N_PARAMS,
    .cfg_init = libcc_dcqcn_cfg_init,
    .cfg_size = sizeof(dcqcn_cfg),
    .presets = dcqcn_presets,
    .n_presets = sizeof dcqcn_presets / sizeof dcqcn_presets[0],
    .rp = &dcqcn_rp_ops,
    .np = &dcqcn_np_ops,
    .cp = &dcqcn_cp_ops,
};
