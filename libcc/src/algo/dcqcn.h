/* SPDX-License-Identifier: MIT */
/*
 * DCQCN (Zhu et al., SIGCOMM 2015, as NVIDIA/Mellanox ConnectX firmware
 * exposes it): shared declarations of the module's four files.
 *   dcqcn.c     parameter table, typed config, the libcc_algo table
 *   dcqcn_cp.c  Congestion Point: RED-style ECN marking
 *   dcqcn_np.c  Notification Point: paced CNP generation
 *   dcqcn_rp.c  Reaction Point: alpha, rate decrease, rate increase
 * docs/algorithms/dcqcn.md explains every formula and interpretation.
 */
#ifndef LIBCC_ALGO_DCQCN_H
#define LIBCC_ALGO_DCQCN_H

#include "../cc_internal.h"

#include <stdbool.h>
#include <stdint.h>

/* Index of each parameter in dcqcn_params[] (and in cfg_init's values). */
enum {
    DCQCN_P_KMIN = 0,
    DCQCN_P_KMAX,
    DCQCN_P_PMAX,
    DCQCN_P_MARK_AT_DEQUEUE,
    DCQCN_P_G,
    DCQCN_P_INITIAL_ALPHA,
    DCQCN_P_DCE_TCP_RTT,
    DCQCN_P_MONITOR_PERIOD,
    DCQCN_P_CUT_ON_CNP,
    DCQCN_P_TIME_RESET,
    DCQCN_P_BYTE_RESET,
    DCQCN_P_THRESHOLD,
    DCQCN_P_AI_RATE,
    DCQCN_P_HAI_RATE,
    DCQCN_P_HAI_SCALE,
    DCQCN_P_KIND_BY_TIMER,
    DCQCN_P_MIN_RATE,
    DCQCN_P_MIN_DEC_FAC,
    DCQCN_P_GD,
    DCQCN_P_FIRST_CNP_RATE,
    DCQCN_P_CLAMP,
    DCQCN_P_CLAMP_AFTER_TIME_INC,
    DCQCN_P_MIN_CNP_GAP,
    DCQCN_N_PARAMS
};

typedef struct dcqcn_cfg {
    /* CP */
    uint64_t kmin_bytes;
    uint64_t kmax_bytes;
    double pmax;
    bool mark_at_dequeue;
    /* NP */
    uint64_t min_cnp_gap_ns;
    /* RP */
    double g;
    double initial_alpha;
    double gd_scale; /* 2^(10 - rpg_gd): alpha's weight in the cut */
    uint64_t alpha_period_ns;
    uint64_t monitor_period_ns; /* 0: every CNP decreases at once */
    bool cut_on_cnp;            /* cut at a CNP finding no period open (libcc <= 0.3) */
    uint64_t time_reset_ns;
    uint64_t byte_reset;        /* 0: byte counter off */
    uint64_t ai_rate_bps;
    uint64_t hai_rate_bps;
    uint64_t min_rate_bps;
    uint64_t first_cnp_rate_bps; /* 0: off */
    uint32_t threshold;
    uint32_t min_dec_fac_pct;
    bool hai_scale_by_stage;
    bool kind_by_timer; /* increase kind from T alone (HPCC simulator) */
    bool clamp_tgt_rate;
    bool clamp_after_time_inc;
} dcqcn_cfg;

LIBCC_CHECK_CFG(dcqcn_cfg);

extern const libcc_param_desc libcc_dcqcn_params[DCQCN_N_PARAMS];
int libcc_dcqcn_cfg_init(void *cfg, const double *values, char *err, size_t err_len);

/* Reaction Point (dcqcn_rp.c). Variables rp_read_vars exposes, in order. */
enum {
    DCQCN_V_ALPHA = 0,
    DCQCN_V_TARGET_RATE,
    DCQCN_V_CURRENT_RATE,
    DCQCN_V_TIMER_STAGE,
    DCQCN_V_BYTE_STAGE,
    DCQCN_V_BYTE_COUNTER,
    DCQCN_V_CNP_PENDING,
    DCQCN_V_RECOVERING,
    DCQCN_V_CNPS,
    DCQCN_V_DECREASES,
    DCQCN_N_RP_VARS
};
extern const libcc_param_desc libcc_dcqcn_rp_vars[DCQCN_N_RP_VARS];

/* Per-flow state of the Reaction Point (dcqcn_rp.c owns it). */
typedef struct dcqcn_rp_state {
    uint64_t rc_bps;        /* current rate */
    uint64_t rt_bps;        /* target rate */
    double alpha;
    uint64_t alpha_next_ns; /* next alpha update; NONE before the first CNP */
    uint64_t period_end_ns; /* end of the monitor period a cut waits for (or, with
                             * cut_on_cnp, the hold-off after a cut); NONE: none */
    uint64_t monitor_origin_ns; /* first CNP: the monitor periods' grid starts here */
    uint64_t inc_next_ns;   /* next timer stage; NONE: not recovering */
    uint64_t byte_counter;  /* bytes sent since the last byte stage or decrease */
    uint64_t timer_stage;   /* T */
    uint64_t byte_stage;    /* B */
    uint64_t n_cnps;
    uint64_t n_decreases;
    bool started;           /* the first CNP came */
    bool alpha_cnp;         /* a CNP came in the current alpha period */
    bool period_cnp;        /* a CNP came in the open monitor period */
    bool time_inc_since_dec;
} dcqcn_rp_state;

LIBCC_CHECK_RP_STATE(dcqcn_rp_state);
/* A DCQCN flow is the common case of a large host (thousands of QPs): its
 * module state stays within two cache lines. */
_Static_assert(sizeof(dcqcn_rp_state) <= 128, "a DCQCN flow must need no more than 128 B of state");
void libcc_dcqcn_rp_init(libcc_rp *rp, uint64_t now_ns);
int libcc_dcqcn_rp_on_cnp(libcc_rp *rp, uint64_t now_ns);
int libcc_dcqcn_rp_on_tx(libcc_rp *rp, uint64_t now_ns, uint64_t seq, uint32_t bytes,
                         unsigned *tx_flags);
int libcc_dcqcn_rp_on_timer(libcc_rp *rp, uint64_t now_ns);
void libcc_dcqcn_rp_read_vars(const libcc_rp *rp, double *values);

/* Notification Point (dcqcn_np.c): per-flow state in libcc_np_flow.priv. */
typedef struct dcqcn_np_flow {
    uint64_t last_cnp_ns; /* when the last CNP of this flow was requested */
    bool cnp_sent;        /* last_cnp_ns is meaningful */
} dcqcn_np_flow;
LIBCC_CHECK_NP_FLOW_STATE(dcqcn_np_flow);

void libcc_dcqcn_np_flow_init(libcc_np *np, libcc_np_flow *flow, uint64_t now_ns);
int libcc_dcqcn_np_on_data(libcc_np *np, libcc_np_flow *flow, uint64_t now_ns,
                           const libcc_data_pkt *pkt, libcc_np_verdict *verdict);

/* Congestion Point (dcqcn_cp.c). */
int libcc_dcqcn_cp_on_enqueue(libcc_cp *cp, uint64_t now_ns, libcc_cp_pkt *pkt);
int libcc_dcqcn_cp_on_dequeue(libcc_cp *cp, uint64_t now_ns, libcc_cp_pkt *pkt);
double libcc_dcqcn_cp_mark_probability(const libcc_cp *cp, uint64_t queue_bytes);

#endif /* LIBCC_ALGO_DCQCN_H */
