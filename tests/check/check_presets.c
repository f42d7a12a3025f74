/* SPDX-License-Identifier: MIT */
/* Named parameter presets: what each sets (values written out from the
 * papers, not read back from the table), order against other items, bad
 * names, and the docs table kept in step with the code. */
#include "test_support.h"

#include <check.h>
#include <libcc/libcc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double get(const libcc_params *p, const char *name)
{
    double v = -1;
    ck_assert_msg(libcc_params_get(p, name, &v) == LIBCC_OK, "no parameter %s", name);
    return v;
}

static libcc_params *dcqcn_params(void)
{
    libcc_params *p = NULL;
    ck_assert_int_eq(libcc_params_new(&p, "dcqcn"), LIBCC_OK);
    return p;
}

/* Every value a preset claims, typed in from its source (not read back from
 * the table). A preset sets every parameter, so each parameter is here; the
 * ones its source does not give are said to be so. */
START_TEST(paper_sets_the_dcqcn_paper_values)
{
    libcc_params *p = dcqcn_params();
    ck_assert_int_eq(libcc_params_apply_preset(p, "paper"), LIBCC_OK);
    /* Zhu et al., "Congestion Control for Large-Scale RDMA Deployments",
     * SIGCOMM 2015 (dcqcn-formulas.md, "DCQCN paper" column):
     * CP: Kmin 5 KB, Kmax 200 KB, Pmax 1%. */
    ck_assert_double_eq(get(p, "kmin"), 5000);
    ck_assert_double_eq(get(p, "kmax"), 200000);
    ck_assert_double_eq_tol(get(p, "pmax"), 0.01, 1e-12);
    /* NP: at most one CNP per flow every N = 50 us. */
    ck_assert_double_eq(get(p, "min_time_between_cnps"), 50000);
    /* RP, equation (1): on a CNP, RT = RC, RC = RC (1 - alpha/2) -- every
     * CNP cuts (no monitor period) and every cut remembers the target. */
    ck_assert_double_eq(get(p, "rate_reduce_monitor_period"), 0);
    ck_assert_double_eq(get(p, "clamp_tgt_rate"), 1);
    ck_assert_double_eq(get(p, "rpg_gd"), 11); /* alpha/2^(11-10) = alpha/2 */
    /* g = 1/256; alpha timer K = 55 us. */
    ck_assert_double_eq_tol(get(p, "g"), 1.0 / 256, 1e-12);
    ck_assert_double_eq(get(p, "dce_tcp_rtt"), 55000);
    /* Increase: timer 55 us, byte counter 10 MB, F = 5, R_AI = 40 Mbps,
     * hyper increase RT += i R_HAI, both counters past F for hyper. */
    ck_assert_double_eq(get(p, "rpg_time_reset"), 55000);
    ck_assert_double_eq(get(p, "rpg_byte_reset"), 10e6);
    ck_assert_double_eq(get(p, "rpg_threshold"), 5);
    ck_assert_double_eq(get(p, "rpg_ai_rate"), 40e6);
    ck_assert_double_eq(get(p, "rpg_hai_scale_by_stage"), 1);
    ck_assert_double_eq(get(p, "increase_kind_by_timer"), 0);
    /* No floor but the equation's own (alpha <= 1: at most a halving). */
    ck_assert_double_eq(get(p, "rpg_min_dec_fac"), 0);
    /* Not in the paper, so the firmware's: R_HAI 50 Mbps (the paper gives
     * no value), min rate 1 Mbps, initial alpha 1, no first-CNP rate,
     * dequeue marking; cut_on_cnp and clamp_tgt_rate_after_time_inc do
     * nothing here (every CNP cuts, every cut clamps). */
    ck_assert_double_eq(get(p, "rpg_hai_rate"), 50e6);
    ck_assert_double_eq(get(p, "rpg_min_rate"), 1e6);
    ck_assert_double_eq(get(p, "initial_alpha"), 1);
    ck_assert_double_eq(get(p, "rate_to_set_on_first_cnp"), 0);
    ck_assert_double_eq(get(p, "ecn_mark_at_dequeue"), 1);
    ck_assert_double_eq(get(p, "cut_on_cnp"), 0);
    ck_assert_double_eq(get(p, "clamp_tgt_rate_after_time_inc"), 1);
    ck_assert_int_eq(libcc_params_validate(p), LIBCC_OK);
    libcc_params_del(p);
}
END_TEST

/* The HPCC simulator (alibaba-edu/High-Precision-Congestion-Control) as its
 * own runs use DCQCN: simulation/run.py --cc dcqcn at --bw 100 (100 Gbit/s
 * NICs, the rate of this project's dumbbell), read by scratch/third.cc
 * into the Mlx functions of src/point-to-point/model/rdma-hw.cc. */
START_TEST(hpcc_sim_sets_the_hpcc_simulators_values)
{
    libcc_params *p = dcqcn_params();
    /* Through libcc_params_set, as an ns-3 string attribute would. */
    ck_assert_int_eq(libcc_params_set(p, "preset", "hpcc-sim"), LIBCC_OK);
    /* run.py:97-98 KMIN_MAP/KMAX_MAP/PMAX_MAP at the NIC rate bw:
     * 100*bw/25 and 400*bw/25 KB (x 1000 in SwitchMmu::ConfigEcn), 0.2;
     * at bw = 100: 400 KB, 1600 KB (mix/config.txt's 100G row agrees). */
    ck_assert_double_eq(get(p, "kmin"), 400e3);
    ck_assert_double_eq(get(p, "kmax"), 1600e3);
    ck_assert_double_eq_tol(get(p, "pmax"), 0.2, 1e-12);
    /* switch-node.cc SwitchNotifyDequeue marks at dequeue. */
    ck_assert_double_eq(get(p, "ecn_mark_at_dequeue"), 1);
    /* rdma-hw.cc ReceiveUdp: the ACK of every CE data packet carries a CNP
     * (L2_ACK_INTERVAL 1, run.py:33): no pacing. */
    ck_assert_double_eq(get(p, "min_time_between_cnps"), 0);
    /* run.py:104 --cc dcqcn: t_alpha = 1 us, t_dec = 4 us, t_inc = 300 us,
     * g = 0.00390625 = 1/256. (mix/config.txt's RP_TIMER 900 belongs to
     * its CC_MODE 3 = HPCC run, where the DCQCN timers are unused.) */
    ck_assert_double_eq(get(p, "dce_tcp_rtt"), 1000);
    ck_assert_double_eq(get(p, "rate_reduce_monitor_period"), 4000);
    ck_assert_double_eq(get(p, "rpg_time_reset"), 300000);
    ck_assert_double_eq_tol(get(p, "g"), 1.0 / 256, 1e-12);
    /* CheckRateDecreaseMlx: the cut at the end of each 4 us period. */
    ck_assert_double_eq(get(p, "cut_on_cnp"), 0);
    /* run.py:25 FAST_RECOVERY_TIMES 1; :100-101 RATE_AI = 5*bw/25 Mb/s,
     * RATE_HAI = 50*bw/25 Mb/s: 20 and 200 Mbps at bw = 100. */
    ck_assert_double_eq(get(p, "rpg_threshold"), 1);
    ck_assert_double_eq(get(p, "rpg_ai_rate"), 20e6);
    ck_assert_double_eq(get(p, "rpg_hai_rate"), 200e6);
    /* RateIncEventMlx: timer stages only, T < F fast recovery, T == F
     * additive, T > F hyper; HyperIncreaseMlx adds a constant RATE_HAI. */
    ck_assert_double_eq(get(p, "rpg_byte_reset"), 0);
    ck_assert_double_eq(get(p, "increase_kind_by_timer"), 1);
    ck_assert_double_eq(get(p, "rpg_hai_scale_by_stage"), 0);
    /* run.py:28 MIN_RATE 1000Mb/s; CheckRateDecreaseMlx: Rc =
     * max(min rate, Rc (1 - alpha/2)), no other floor. */
    ck_assert_double_eq(get(p, "rpg_min_rate"), 1e9);
    ck_assert_double_eq(get(p, "rpg_gd"), 11);
    ck_assert_double_eq(get(p, "rpg_min_dec_fac"), 0);
    /* cnp_received_mlx: alpha = 1 on the first CNP; RateOnFirstCnp keeps
     * its default 1.0 (third.cc never sets it): the rate is kept. */
    ck_assert_double_eq(get(p, "initial_alpha"), 1);
    ck_assert_double_eq(get(p, "rate_to_set_on_first_cnp"), 0);
    /* run.py:22 CLAMP_TARGET_RATE 0; CheckRateDecreaseMlx clamps when a
     * timer stage happened since the last cut. */
    ck_assert_double_eq(get(p, "clamp_tgt_rate"), 0);
    ck_assert_double_eq(get(p, "clamp_tgt_rate_after_time_inc"), 1);
    ck_assert_int_eq(libcc_params_validate(p), LIBCC_OK);
    libcc_params_del(p);
}
END_TEST

/* The NVIDIA firmware defaults as a preset (dcqcn-formulas.md, firmware
 * column; the switch side has no firmware value, so the HPCC simulator's
 * per-25G thresholds, as in the defaults). */
/* The HPCC simulator's shipped simulation/mix/config.txt (read by
 * scratch/third.cc), with DCQCN (CC_MODE 1) in place of its CC_MODE 3: the
 * values differ from run.py's (hpcc-sim above) in RP_TIMER, RATE_AI,
 * RATE_HAI and MIN_RATE. */
START_TEST(hpcc_sim_config_sets_the_shipped_config_values)
{
    libcc_params *p = dcqcn_params();
    ck_assert_int_eq(libcc_params_apply_preset(p, "hpcc-sim-config"), LIBCC_OK);
    /* config.txt KMIN_MAP / KMAX_MAP / PMAX_MAP, 100000000000 row: 400 and
     * 1600 (KB, x 1000 in SwitchMmu::ConfigEcn), 0.2. */
    ck_assert_double_eq(get(p, "kmin"), 400e3);
    ck_assert_double_eq(get(p, "kmax"), 1600e3);
    ck_assert_double_eq_tol(get(p, "pmax"), 0.2, 1e-12);
    ck_assert_double_eq(get(p, "ecn_mark_at_dequeue"), 1);
    /* ALPHA_RESUME_INTERVAL 1, RATE_DECREASE_INTERVAL 4, RP_TIMER 900 (us),
     * EWMA_GAIN 0.00390625. */
    ck_assert_double_eq(get(p, "dce_tcp_rtt"), 1000);
    ck_assert_double_eq(get(p, "rate_reduce_monitor_period"), 4000);
    ck_assert_double_eq(get(p, "rpg_time_reset"), 900000);
    ck_assert_double_eq_tol(get(p, "g"), 1.0 / 256, 1e-12);
    ck_assert_double_eq(get(p, "cut_on_cnp"), 0);
    /* FAST_RECOVERY_TIMES 1, RATE_AI 50Mb/s, RATE_HAI 100Mb/s, MIN_RATE 100Mb/s. */
    ck_assert_double_eq(get(p, "rpg_threshold"), 1);
    ck_assert_double_eq(get(p, "rpg_ai_rate"), 50e6);
    ck_assert_double_eq(get(p, "rpg_hai_rate"), 100e6);
    ck_assert_double_eq(get(p, "rpg_min_rate"), 100e6);
    /* CLAMP_TARGET_RATE 0; L2_ACK_INTERVAL 1: a CNP with every CE ACK. */
    ck_assert_double_eq(get(p, "clamp_tgt_rate"), 0);
    ck_assert_double_eq(get(p, "min_time_between_cnps"), 0);
    /* The simulator's mechanism, as in hpcc-sim (rdma-hw.cc Mlx functions). */
    ck_assert_double_eq(get(p, "rpg_byte_reset"), 0);
    ck_assert_double_eq(get(p, "increase_kind_by_timer"), 1);
    ck_assert_double_eq(get(p, "rpg_hai_scale_by_stage"), 0);
    ck_assert_double_eq(get(p, "rpg_gd"), 11);
    ck_assert_double_eq(get(p, "rpg_min_dec_fac"), 0);
    ck_assert_double_eq(get(p, "initial_alpha"), 1);
    ck_assert_double_eq(get(p, "rate_to_set_on_first_cnp"), 0);
    ck_assert_double_eq(get(p, "clamp_tgt_rate_after_time_inc"), 1);
    ck_assert_int_eq(libcc_params_validate(p), LIBCC_OK);
    libcc_params_del(p);
}
END_TEST

/* HPCC (CC_MODE 3): rdma-hw.cc UpdateRateHp adds RATE_AI per update; libcc's
 * W_ai = W_init (1 - eta) / N is a rate step of line x (1 - eta) / N, so at
 * 100 Gbit/s: N = 100e9 x 0.05 / RATE_AI. run.py --cc hp --bw 100: RATE_AI
 * = 10 x 100 / 25 = 40 Mb/s -> N = 125; config.txt: 50 Mb/s -> N = 100.
 * Both: U_TARGET 0.95, MI_THRESH 0. */
START_TEST(hpcc_presets_set_the_hpcc_simulators_values)
{
    libcc_params *p = NULL;
    ck_assert_int_eq(libcc_params_new(&p, "hpcc"), LIBCC_OK);
    ck_assert_int_eq(libcc_params_apply_preset(p, "hpcc-sim"), LIBCC_OK);
    ck_assert_double_eq_tol(get(p, "eta"), 0.95, 1e-12);
    ck_assert_double_eq(get(p, "max_stage"), 0);
    ck_assert_double_eq(get(p, "expected_flows"), 125);
    ck_assert_double_eq(get(p, "w_ai"), 0);
    ck_assert_double_eq(get(p, "base_rtt"), 0);
    ck_assert_double_eq_tol(100e9 * (1 - get(p, "eta")) / get(p, "expected_flows"), 40e6, 1);
    ck_assert_int_eq(libcc_params_apply_preset(p, "hpcc-sim-config"), LIBCC_OK);
    ck_assert_double_eq_tol(get(p, "eta"), 0.95, 1e-12);
    ck_assert_double_eq(get(p, "max_stage"), 0);
    ck_assert_double_eq(get(p, "expected_flows"), 100);
    ck_assert_double_eq_tol(100e9 * (1 - get(p, "eta")) / get(p, "expected_flows"), 50e6, 1);
    ck_assert_int_eq(libcc_params_validate(p), LIBCC_OK);
    libcc_params_del(p);
}
END_TEST

START_TEST(firmware_sets_the_firmware_defaults)
{
    libcc_params *p = dcqcn_params();
    ck_assert_int_eq(libcc_params_parse(p, "preset=paper preset=firmware"), LIBCC_OK);
    ck_assert_double_eq(get(p, "kmin"), 100e3);
    ck_assert_double_eq(get(p, "kmax"), 400e3);
    ck_assert_double_eq_tol(get(p, "pmax"), 0.2, 1e-12);
    ck_assert_double_eq(get(p, "ecn_mark_at_dequeue"), 1);
    ck_assert_double_eq(get(p, "g"), 5.0 / 1024); /* dce_tcp_g 1019 of 1024 kept */
    ck_assert_double_eq(get(p, "initial_alpha"), 1); /* 1023/1023 */
    ck_assert_double_eq(get(p, "dce_tcp_rtt"), 1000);
    ck_assert_double_eq(get(p, "rate_reduce_monitor_period"), 4000);
    ck_assert_double_eq(get(p, "cut_on_cnp"), 0); /* NVIDIA notes: cut after the period */
    ck_assert_double_eq(get(p, "rpg_time_reset"), 300000);
    ck_assert_double_eq(get(p, "rpg_byte_reset"), 32767);
    ck_assert_double_eq(get(p, "rpg_threshold"), 1);
    ck_assert_double_eq(get(p, "rpg_ai_rate"), 5e6);
    ck_assert_double_eq(get(p, "rpg_hai_rate"), 50e6);
    ck_assert_double_eq(get(p, "rpg_hai_scale_by_stage"), 0);
    ck_assert_double_eq(get(p, "increase_kind_by_timer"), 0); /* notes: hyper needs both */
    ck_assert_double_eq(get(p, "rpg_min_rate"), 1e6);
    ck_assert_double_eq(get(p, "rpg_min_dec_fac"), 50);
    ck_assert_double_eq(get(p, "rpg_gd"), 11);
    ck_assert_double_eq(get(p, "rate_to_set_on_first_cnp"), 0);
    ck_assert_double_eq(get(p, "clamp_tgt_rate"), 0);
    ck_assert_double_eq(get(p, "clamp_tgt_rate_after_time_inc"), 1);
    ck_assert_double_eq(get(p, "min_time_between_cnps"), 4000);
    libcc_params_del(p);
}
END_TEST

static libcc_params *preset_of(const char *algo, const char *preset)
{
    libcc_params *p = NULL;
    ck_assert_int_eq(libcc_params_new(&p, algo), LIBCC_OK);
    ck_assert_msg(libcc_params_apply_preset(p, preset) == LIBCC_OK, "%s/%s: %s", algo, preset,
                  libcc_params_error(p));
    ck_assert_int_eq(libcc_params_validate(p), LIBCC_OK);
    return p;
}

/* DCTCP as the HPCC simulator's run.py --cc dctcp sets it at --bw 100:
 * CC_MODE 8, EWMA_GAIN 0.0625, DCTCP_RATE_AI 615 Mb/s ("calculated from
 * RTT=13us and MTU=1KB"), MIN_RATE 1000Mb/s, HAS_WIN 1 and VAR_WIN 1,
 * KMIN = KMAX = 30*bw/10 KB = 300 KB (k=0 is 3 KB per Gbps of the port,
 * 300 KB at 100 Gbps), PMAX 1, marking at dequeue (switch-node.cc);
 * rdma-queue-pair.cc starts dctcp.m_alpha at 1. */
START_TEST(dctcp_hpcc_sim_sets_run_py_values)
{
    libcc_params *p = preset_of("dctcp", "hpcc-sim");
    ck_assert_double_eq(get(p, "g"), 0.0625);
    ck_assert_double_eq(get(p, "rate_ai"), 615e6);
    ck_assert_double_eq(get(p, "min_rate"), 1e9);
    ck_assert_double_eq(get(p, "window"), 1);
    ck_assert_double_eq(get(p, "k"), 0);
    ck_assert_double_eq(get(p, "mark_at_dequeue"), 1);
    ck_assert_double_eq(get(p, "initial_alpha"), 1);
    libcc_params_del(p);
}
END_TEST

/* DCTCP, the paper (Alizadeh et al., SIGCOMM 2010): g = 1/16 (section
 * 3.4), a TCP window cut by alpha/2 (equation 2), marks "arriving packets"
 * above K (section 3.1). alpha's start is not in the paper: 1, as Linux
 * and the HPCC simulator. K (65 packets at 10 Gbps) depends on the link
 * and is not part of the preset. */
START_TEST(dctcp_paper_sets_the_papers_values)
{
    libcc_params *p = preset_of("dctcp", "paper");
    ck_assert_double_eq(get(p, "g"), 1.0 / 16);
    ck_assert_double_eq(get(p, "window"), 2);
    ck_assert_double_eq(get(p, "mark_at_dequeue"), 0);
    ck_assert_double_eq(get(p, "initial_alpha"), 1);
    libcc_params_del(p);
}
END_TEST

/* TIMELY: the HPCC simulator's RdmaHw attribute defaults (rdma-hw.cc:
 * TimelyAlpha 0.875, TimelyBeta 0.8, TimelyTLow 50000 ns, TimelyTHigh
 * 500000 ns, TimelyMinRtt 20000 ns, five increases before HAI in
 * UpdateRateTimely) and run.py --cc timely at --bw 100: RATE_AI = 10*bw/10
 * = 100 Mb/s, RATE_HAI = 50*bw/10 = 500 Mb/s, MIN_RATE 1000Mb/s; one update
 * per window (m_lastUpdateSeq), every increase staged. */
START_TEST(timely_hpcc_sim_sets_the_simulators_values)
{
    libcc_params *p = preset_of("timely", "hpcc-sim");
    ck_assert_double_eq(get(p, "alpha"), 0.875);
    ck_assert_double_eq_tol(get(p, "beta"), 0.8, 1e-12);
    ck_assert_double_eq(get(p, "t_low"), 50000);
    ck_assert_double_eq(get(p, "t_high"), 500000);
    ck_assert_double_eq(get(p, "min_rtt"), 20000);
    ck_assert_double_eq(get(p, "delta"), 100e6);
    ck_assert_double_eq(get(p, "hai_delta"), 500e6);
    ck_assert_double_eq(get(p, "hai_thresh"), 5);
    ck_assert_double_eq(get(p, "min_rate"), 1e9);
    ck_assert_double_eq(get(p, "per_window"), 1);
    ck_assert_double_eq(get(p, "hai_all_increases"), 1);
    libcc_params_del(p);
}
END_TEST

/* TIMELY, the paper (Mittal et al., SIGCOMM 2015): Algorithm 1 (N = 5:
 * HAI adds 5 x delta after five completions with a negative gradient, an
 * update per completion event) and its settings alpha 0.875, beta 0.8,
 * T_low 50 us, T_high 500 us, minRTT 20 us, delta 10 Mbps, which the HPCC
 * simulator's Timely* attribute defaults repeat; the 10 Mbps floor is
 * libcc's (the paper gives none). */
START_TEST(timely_paper_sets_the_papers_values)
{
    libcc_params *p = preset_of("timely", "paper");
    ck_assert_double_eq(get(p, "alpha"), 0.875);
    ck_assert_double_eq_tol(get(p, "beta"), 0.8, 1e-12);
    ck_assert_double_eq(get(p, "t_low"), 50000);
    ck_assert_double_eq(get(p, "t_high"), 500000);
    ck_assert_double_eq(get(p, "min_rtt"), 20000);
    ck_assert_double_eq(get(p, "delta"), 10e6);
    ck_assert_double_eq(get(p, "hai_delta"), 5 * 10e6);
    ck_assert_double_eq(get(p, "hai_thresh"), 5);
    ck_assert_double_eq(get(p, "min_rate"), 10e6);
    ck_assert_double_eq(get(p, "per_window"), 0);
    ck_assert_double_eq(get(p, "hai_all_increases"), 0);
    libcc_params_del(p);
}
END_TEST

/* HPCC-PINT as run.py --cc hpccPint sets it at --bw 100: U_TARGET 0.95
 * (--utgt 95), MI_THRESH 0, RATE_AI = 10*bw/25 = 40 Mb/s (expected_flows
 * 125: 100 Gbps x 0.05 / 125 = 40 Mbps per T), PINT_LOG_BASE 1.01,
 * PINT_PROB 1.0; pint.h max_concurrent = 512. */
START_TEST(pint_hpcc_sim_sets_run_py_values)
{
    libcc_params *p = preset_of("hpcc-pint", "hpcc-sim");
    ck_assert_double_eq_tol(get(p, "eta"), 0.95, 1e-12);
    ck_assert_double_eq(get(p, "max_stage"), 0);
    ck_assert_double_eq(get(p, "expected_flows"), 125);
    ck_assert_double_eq_tol(100e9 * (1 - get(p, "eta")) / get(p, "expected_flows"), 40e6, 1);
    ck_assert_double_eq(get(p, "w_ai"), 0);
    ck_assert_double_eq_tol(get(p, "log_base"), 1.01, 1e-12);
    ck_assert_double_eq(get(p, "max_flows"), 512);
    ck_assert_double_eq(get(p, "sample_prob"), 1);
    libcc_params_del(p);
}
END_TEST

/* PowerTCP's simulator (inet-tub/ns3-datacenter, ns-3.39 rdma-hw.cc,
 * UpdateRatePower): INT mode floors the current at 0.5 x the line rate,
 * max_c = u / m_targetUtil with U_TARGET 0.95 (examples/PowerTCP
 * config.txt), new_rate = 0.9 (curRate / max_c + 150Mbps) + 0.1 curRate
 * with curRate the once-per-RTT rate. Delay mode (theta): the current
 * dRTT/dt + 1 floored at 0.5, power over 1.05 x baseRtt, max_c = u, 0.7 /
 * 0.3, baseRtt = the smallest RTT seen. */
START_TEST(powertcp_hpcc_sim_sets_the_simulators_values)
{
    libcc_params *p = preset_of("powertcp", "hpcc-sim");
    ck_assert_double_eq_tol(get(p, "gamma"), 0.9, 1e-12);
    ck_assert_double_eq(get(p, "beta_rate"), 150e6);
    ck_assert_double_eq_tol(get(p, "eta"), 0.95, 1e-12);
    ck_assert_double_eq_tol(get(p, "min_current"), 0.5, 1e-12);
    ck_assert_double_eq(get(p, "ewma_on_old"), 1);
    libcc_params_del(p);
    p = preset_of("theta-powertcp", "hpcc-sim");
    ck_assert_double_eq_tol(get(p, "gamma"), 0.7, 1e-12);
    ck_assert_double_eq(get(p, "beta_rate"), 150e6);
    ck_assert_double_eq_tol(get(p, "eta"), 1.05, 1e-12);
    ck_assert_double_eq_tol(get(p, "min_current"), 0.5, 1e-12);
    ck_assert_double_eq(get(p, "ewma_on_old"), 1);
    ck_assert_double_eq(get(p, "track_min_rtt"), 1);
    libcc_params_del(p);
}
END_TEST

/* Swift's defaults are Isekai's (falcon-transport/isekai,
 * rue/algorithm/swift.cc, Swift::DefaultConfiguration), whose times are in
 * FALCON units of 0.131072 us: each value typed in from there. */
START_TEST(swift_defaults_are_isekais)
{
    libcc_params *p = NULL;
    ck_assert_int_eq(libcc_params_new(&p, "swift"), LIBCC_OK);
    /* set_fabric_base_delay(191): 191 x 0.131072 = 25.03 us, "25us" */
    ck_assert_double_eq(get(p, "base_target"), 25000);
    /* set_topo_scaling_per_hop(round(1 / 0.131072)): "1us" */
    ck_assert_double_eq(get(p, "hop_scale"), 1000);
    /* set_max_flow_scaling(round(100 / 0.131072)): "100us" */
    ck_assert_double_eq(get(p, "fs_range"), 100000);
    /* set_min_flow_scaling_window(0.1), set_max_flow_scaling_window(256.0) */
    ck_assert_double_eq_tol(get(p, "fs_min_cwnd"), 0.1, 1e-12);
    ck_assert_double_eq(get(p, "fs_max_cwnd"), 256);
    /* set_fabric_additive_increment_factor(1.0),
     * set_fabric_multiplicative_decrease_factor(0.8),
     * set_max_fabric_multiplicative_decrease(0.5) */
    ck_assert_double_eq(get(p, "ai"), 1);
    ck_assert_double_eq_tol(get(p, "beta"), 0.8, 1e-12);
    ck_assert_double_eq_tol(get(p, "max_mdf"), 0.5, 1e-12);
    /* set_min_fabric_congestion_window(0.01), set_max_fabric_congestion_window(256.0) */
    ck_assert_double_eq_tol(get(p, "min_cwnd"), 0.01, 1e-12);
    ck_assert_double_eq(get(p, "max_cwnd"), 256);
    /* set_rtt_smoothing_alpha(0.75) */
    ck_assert_double_eq_tol(get(p, "rtt_alpha"), 0.75, 1e-12);
    /* set_min_retransmit_timeout(round(250 / 0.131072)): "~250us";
     * set_retransmit_timeout_scalar(2.0); set_retransmit_limit(3) */
    ck_assert_double_eq(get(p, "min_rto"), 250000);
    ck_assert_double_eq(get(p, "rto_scale"), 2);
    ck_assert_double_eq(get(p, "retx_reset_threshold"), 3);
    /* Not Isekai's (its NIC window follows the receiver's buffer level):
     * libcc's 10 us endpoint target (docs/algorithms/swift.md). */
    ck_assert_double_eq(get(p, "endpoint_target"), 10000);
    libcc_params_del(p);
}
END_TEST

/* A preset sets every parameter of the algorithm, so what it gives does
 * not depend on what was set before (preset=paper then preset=hpcc-sim is
 * the HPCC simulator, not a mix): applied over every parameter at a
 * non-default value, each preset gives the values it gives on fresh
 * parameters. */
START_TEST(dcqcn_presets_set_every_parameter)
{
    const libcc_param_desc *d;
    size_t nd;
    const libcc_preset_desc *t;
    size_t n;
    ck_assert_int_eq(libcc_algorithm_params("dcqcn", &d, &nd), LIBCC_OK);
    ck_assert_int_eq(libcc_algorithm_presets("dcqcn", &t, &n), LIBCC_OK);
    for (size_t i = 0; i < n; i++) {
        libcc_params *fresh = dcqcn_params();
        libcc_params *dirty = dcqcn_params();
        ck_assert_int_eq(libcc_params_apply_preset(fresh, t[i].name), LIBCC_OK);
        for (size_t k = 0; k < nd; k++) {
            char v[64];
            libcc_format_value(d[k].unit, d[k].def == d[k].max ? d[k].min : d[k].max, v,
                               sizeof v);
            ck_assert_int_eq(libcc_params_set(dirty, d[k].name, v), LIBCC_OK);
        }
        ck_assert_int_eq(libcc_params_apply_preset(dirty, t[i].name), LIBCC_OK);
        for (size_t k = 0; k < nd; k++)
            ck_assert_msg(get(fresh, d[k].name) == get(dirty, d[k].name),
                          "preset %s leaves %s as it was", t[i].name, d[k].name);
        libcc_params_del(fresh);
        libcc_params_del(dirty);
    }
}
END_TEST

/* The paper's RT = RC on every cut (issue #9): preset paper, 100 Gbit/s,
 * CNPs at 10, 12 and 60 us. Every CNP cuts (no monitor period); alpha is
 * 1 at all three (initial 1, first tick at 10 + 55 = 65 us); no timer
 * stage comes between them (the first would be 55 us after a cut). Each
 * cut sets the target to the rate it cuts from, then halves:
 *   10 us: Rt = 100G, Rc = 50G;  12 us: Rt = 50G, Rc = 25G;
 *   60 us: Rt = 25G, Rc = 12.5G. */
START_TEST(paper_preset_sets_target_to_current_rate_on_every_cut)
{
    libcc_rp *rp = ts_make_rp("dcqcn", "preset=paper", 100000000000ull, 12000, NULL, NULL);
    const uint64_t t[3] = {10000, 12000, 60000};
    const double rt[3] = {100e9, 50e9, 25e9};
    const uint64_t rc[3] = {50000000000ull, 25000000000ull, 12500000000ull};
    for (int i = 0; i < 3; i++) {
        uint64_t d;
        while ((d = libcc_rp_deadline_ns(rp)) <= t[i])
            ck_assert_int_eq(libcc_rp_on_timer(rp, d), LIBCC_OK);
        ck_assert_int_eq(libcc_rp_on_cnp(rp, t[i]), LIBCC_OK);
        ck_assert_double_eq(ts_rp_var(rp, "target_rate"), rt[i]);
        ck_assert_uint_eq(libcc_rp_rate_bps(rp), rc[i]);
        ck_assert_double_eq(ts_rp_var(rp, "decreases"), i + 1);
    }
    libcc_rp_del(rp);
}
END_TEST

START_TEST(items_apply_left_to_right)
{
    libcc_params *p = dcqcn_params();
    ck_assert_int_eq(libcc_params_parse(p, "preset=paper, kmax=400KB"), LIBCC_OK);
    ck_assert_double_eq(get(p, "kmax"), 400000);
    ck_assert_double_eq(get(p, "kmin"), 5000);
    /* A preset after an item overrides it. */
    ck_assert_int_eq(libcc_params_parse(p, "kmax=300KB preset=paper"), LIBCC_OK);
    ck_assert_double_eq(get(p, "kmax"), 200000);
    libcc_params_del(p);
}
END_TEST

START_TEST(unknown_preset_is_named_with_the_choices)
{
    libcc_params *p = dcqcn_params();
    ck_assert_int_eq(libcc_params_parse(p, "kmin=50KB,preset=nope,kmax=300KB"), LIBCC_ERR_NOT_FOUND);
    const char *e = libcc_params_error(p);
    ck_assert_msg(strstr(e, "'nope'") && strstr(e, "'dcqcn'") && strstr(e, "paper, hpcc-sim"),
                  "message: %s", e);
    /* Parse stops at the bad item: kmin applied, kmax not (firmware 400 KB). */
    ck_assert_double_eq(get(p, "kmin"), 50000);
    ck_assert_double_eq(get(p, "kmax"), 400000);
    libcc_params_del(p);

    ck_assert_int_eq(libcc_params_new(&p, "fncc"), LIBCC_OK);
    ck_assert_int_eq(libcc_params_apply_preset(p, "paper"), LIBCC_ERR_NOT_FOUND);
    ck_assert_msg(strstr(libcc_params_error(p), "presets: none"), "message: %s",
                  libcc_params_error(p));
    ck_assert_int_eq(libcc_params_apply_preset(NULL, "paper"), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_params_apply_preset(p, NULL), LIBCC_ERR_INVALID_ARG);
    libcc_params_del(p);
}
END_TEST

START_TEST(presets_are_listed_per_algorithm)
{
    const libcc_preset_desc *t = NULL;
    size_t n = 99;
    ck_assert_int_eq(libcc_algorithm_presets("dcqcn", &t, &n), LIBCC_OK);
    ck_assert_uint_eq(n, 4);
    ck_assert_str_eq(t[0].name, "paper");
    ck_assert_str_eq(t[1].name, "hpcc-sim");
    ck_assert_str_eq(t[2].name, "hpcc-sim-config");
    ck_assert_str_eq(t[3].name, "firmware");
    ck_assert_int_eq(libcc_algorithm_presets("hpcc", &t, &n), LIBCC_OK);
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(t[0].name, "hpcc-sim");
    ck_assert_str_eq(t[1].name, "hpcc-sim-config");
    ck_assert_int_eq(libcc_algorithm_presets("fncc", &t, &n), LIBCC_OK);
    ck_assert_uint_eq(n, 0);
    ck_assert_int_eq(libcc_algorithm_presets("tcp", &t, &n), LIBCC_ERR_UNKNOWN_ALGORITHM);
    ck_assert_int_eq(libcc_algorithm_presets("dcqcn", NULL, &n), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_algorithm_presets("dcqcn", &t, NULL), LIBCC_ERR_INVALID_ARG);
}
END_TEST

/* Every preset of every algorithm applies, validates, and does not name a
 * preset itself (no recursion). */
START_TEST(every_preset_applies_and_validates)
{
    for (const char *const *a = libcc_algorithms(); *a; a++) {
        const libcc_preset_desc *t;
        size_t n;
        ck_assert_int_eq(libcc_algorithm_presets(*a, &t, &n), LIBCC_OK);
        for (size_t i = 0; i < n; i++) {
            ck_assert_msg(strstr(t[i].assignments, "preset") == NULL, "%s/%s names a preset", *a,
                          t[i].name);
            ck_assert_msg(t[i].doc && t[i].doc[0], "%s/%s has no doc", *a, t[i].name);
            libcc_params *p = NULL;
            ck_assert_int_eq(libcc_params_new(&p, *a), LIBCC_OK);
            ck_assert_msg(libcc_params_apply_preset(p, t[i].name) == LIBCC_OK, "%s/%s: %s", *a,
                          t[i].name, libcc_params_error(p));
            ck_assert_msg(libcc_params_validate(p) == LIBCC_OK, "%s/%s: %s", *a, t[i].name,
                          libcc_params_error(p));
            libcc_params_del(p);
        }
    }
}
END_TEST

START_TEST(test_docs_presets)
{
    static const char *const docs[][2] = {{"dcqcn", "docs/algorithms/dcqcn.md"},
                                          {"hpcc", "docs/algorithms/hpcc.md"}};
    for (size_t d = 0; d < 2; d++) {
        char *doc = ts_read_source_file(docs[d][1]);
        const libcc_preset_desc *t;
        size_t n;
        ck_assert_int_eq(libcc_algorithm_presets(docs[d][0], &t, &n), LIBCC_OK);
        for (size_t i = 0; i < n; i++) {
            char want[600];
            snprintf(want, sizeof want, "\n| `%s` | `%s` | %s |\n", t[i].name,
                     t[i].assignments, t[i].doc);
            ck_assert_msg(strstr(doc, want) != NULL, "%s lacks the row%s", docs[d][1], want);
        }
        free(doc);
    }
}
END_TEST

Suite *presets_suite(void)
{
    Suite *s = suite_create("presets");
    TCase *t = tcase_create("presets");
    tcase_add_test(t, paper_sets_the_dcqcn_paper_values);
    tcase_add_test(t, hpcc_sim_sets_the_hpcc_simulators_values);
    tcase_add_test(t, hpcc_sim_config_sets_the_shipped_config_values);
    tcase_add_test(t, hpcc_presets_set_the_hpcc_simulators_values);
    tcase_add_test(t, firmware_sets_the_firmware_defaults);
    tcase_add_test(t, dcqcn_presets_set_every_parameter);
    tcase_add_test(t, swift_defaults_are_isekais);
    tcase_add_test(t, dctcp_hpcc_sim_sets_run_py_values);
    tcase_add_test(t, dctcp_paper_sets_the_papers_values);
    tcase_add_test(t, timely_hpcc_sim_sets_the_simulators_values);
    tcase_add_test(t, timely_paper_sets_the_papers_values);
    tcase_add_test(t, pint_hpcc_sim_sets_run_py_values);
    tcase_add_test(t, powertcp_hpcc_sim_sets_the_simulators_values);
    tcase_add_test(t, paper_preset_sets_target_to_current_rate_on_every_cut);
    tcase_add_test(t, items_apply_left_to_right);
    tcase_add_test(t, unknown_preset_is_named_with_the_choices);
    tcase_add_test(t, presets_are_listed_per_algorithm);
    tcase_add_test(t, every_preset_applies_and_validates);
    tcase_add_test(t, test_docs_presets);
    suite_add_tcase(s, t);
    return s;
}
