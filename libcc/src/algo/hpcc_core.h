/* SPDX-License-Identifier: MIT */
/*
 * The window controller shared by hpcc, hpcc++ and fncc: the draft's
 * MeasureInflight (lines 1-10) and ComputeWind (lines 11-20), the NewAck
 * bookkeeping (lines 21-27) and the INT stamping both HPCC variants do at
 * the switch. One copy, so the three modules cannot drift apart; the
 * variant-specific parts stay in hpcc.c, hpccpp.c and fncc.c.
 * Line-by-line mapping and every interpretation: docs/algorithms/hpcc.md.
 */
#ifndef LIBCC_ALGO_HPCC_CORE_H
#define LIBCC_ALGO_HPCC_CORE_H

#include "../cc_internal.h"

/* 8 bit/B x 1e9 ns/s: bytes = (bit/s) * ns / this, and bit/s = bytes * this
 * / ns. B*T, W/T and txRate all convert with it. */
#define HPCC_BIT_NS_PER_BYTE_S 8e9

/* The draft's Figure 3 default T, used only when neither the host (flow
 * base RTT) nor the base_rtt parameter gives one: a zero T would divide
 * by zero everywhere. */
#define HPCC_DEFAULT_T_NS 5000u
/* A txRate above this multiple of B cannot be a real link (quantisation
 * of a wire-encoded txBytes stays far below it): the record is garbage. */
#define HPCC_MAX_TXRATE_OVER_B 2.0
/* HPCC++ probe mode: an unanswered probe counts as lost after this many T. */
#define HPCC_PROBE_LOSS_RTTS 4u

/* Rows shared by the three parameter tables (same names, same meaning). */
#define HPCC_PARAM_ROWS                                                                         \
    {"eta", LIBCC_UNIT_RATIO, 0.95, 0.01, 1.0,                                                  \
     "target link utilisation eta (draft 4.1): U above it shrinks the window by eta/U"},       \
        {"max_stage", LIBCC_UNIT_COUNT, 5, 0, 1000,                                             \
         "maxStage: additive-increase steps before one multiplicative step"},                    \
        {"expected_flows", LIBCC_UNIT_COUNT, 100, 1, 1e6,                                       \
         "N_expected in the rule of thumb W_ai = W_init*(1-eta)/N (draft 5); 100 gives the "    \
         "HPCC simulator's 50Mbps step at 100Gbps"},                                            \
        {"w_ai", LIBCC_UNIT_BYTES, 0, 0, 1e9,                                                   \
         "additive increase step W_ai; 0: the rule of thumb from expected_flows"},              \
        {"base_rtt", LIBCC_UNIT_NS, 0, 0, 1e9,                                                  \
         "T, the base RTT; 0: the flow's base_rtt_ns (5us if that is 0 too)"}
#define HPCC_N_PARAM_ROWS 5

enum hpcc_variant { HPCC_V_HPCC = 0, HPCC_V_PP, HPCC_V_FNCC };

enum hpcc_telemetry { HPCC_TLM_EVERY = 0, HPCC_TLM_EVERY_K = 1, HPCC_TLM_PROBE = 2 };

/* Typed configuration of all three modules (unused fields stay zero). */
typedef struct hpcc_cfg {
    uint32_t variant; /* enum hpcc_variant */
    double eta;
    uint32_t max_stage;
    uint32_t expected_flows;
    uint64_t w_ai_bytes; /* 0: rule of thumb */
    uint64_t base_rtt_ns; /* 0: from the flow */
    /* hpcc++ */
    uint32_t telemetry; /* enum hpcc_telemetry */
    uint32_t int_interval_pkts;
    uint8_t rx_hpcc;
    uint8_t receiver_n;
    /* fncc */
    uint8_t lhcs;
    double alpha;
    double beta;
    uint64_t table_refresh_ns;
} hpcc_cfg;
LIBCC_CHECK_CFG(hpcc_cfg);

/* Fill the five shared fields from the first HPCC_N_PARAM_ROWS values. */
void hpcc_cfg_common(hpcc_cfg *cfg, const double *values);

/* One window controller: a sender's (NewAck) or an Rx-HPCC receiver's
 * (NewINT) state. Windows are doubles in bytes so the arithmetic matches
 * the draft exactly; the host sees them rounded. */
typedef struct hpcc_ctl {
    libcc_int_list last; /* L: the previous telemetry */
    uint8_t have_last;
    uint8_t n_u_hop;
    uint8_t queued_hops; /* bit i: hop i's u' had a queue term (min qlen > 0) */
    uint32_t inc_stage;
    uint32_t resets; /* history resets (garbage or path changes) */
    double t_ns;     /* T */
    double w_init;   /* line rate * T, also the upper bound */
    double w_min;    /* lower bound: one MTU (or W_init if smaller) */
    double w_ai;
    double U;
    double W;
    double Wc;
    double u_hop[LIBCC_INT_MAX_HOPS]; /* latest u' per hop (FNCC's U_j) */
} hpcc_ctl;

/* T in ns from the parameter, else the host's value, else the default. */
uint64_t hpcc_effective_t(const hpcc_cfg *cfg, uint64_t host_t_ns);
void hpcc_ctl_init(hpcc_ctl *c, const hpcc_cfg *cfg, uint64_t line_rate_bps, uint64_t t_ns,
                   uint32_t mtu_bytes);
/* W_ai from the rule of thumb with this N (explicit w_ai wins). */
void hpcc_ctl_set_n(hpcc_ctl *c, const hpcc_cfg *cfg, uint32_t n_flows);

enum hpcc_measure {
    HPCC_MEASURED = 0, /* *U_out is the new U */
    HPCC_FIRST,        /* no previous record: L stored, nothing measured */
    HPCC_RESET,        /* history inconsistent with this record: L replaced */
    HPCC_UNCHANGED,    /* every hop repeats L's record: nothing to measure */
};
/* MeasureInflight (draft lines 1-10). Returns an enum hpcc_measure, or
 * LIBCC_ERR_BAD_TELEMETRY when the list itself is unusable (the history is
 * then forgotten too). Stores L on every non-error outcome (line 27). */
int hpcc_measure_inflight(hpcc_ctl *c, const libcc_int_list *l, unsigned max_hops);
/* ComputeWind (draft lines 11-20) on c->U; returns the bounded W. */
double hpcc_compute_wind(hpcc_ctl *c, const hpcc_cfg *cfg, bool update_wc);
/* Whether ComputeWind takes the multiplicative branch (line 12) now. */
static inline bool hpcc_multiplicative(const hpcc_ctl *c, const hpcc_cfg *cfg)
{
    return c->U >= cfg->eta || c->inc_stage >= cfg->max_stage;
}
/* Bound a window to [w_min, w_init]. */
double hpcc_bound_window(const hpcc_ctl *c, double w);

/* R = W/T (line 27) and the window into the core's fields. */
void hpcc_rp_apply(libcc_rp *rp, const hpcc_ctl *c, double w);

/* Sender state of the three modules. */
typedef struct hpcc_rp_state {
    hpcc_ctl ctl;
    uint64_t last_update_seq;
    uint64_t acked_seq; /* highest ack.seq seen */
    uint64_t acks;
    /* hpcc++ */
    uint64_t tx_pkts;
    uint64_t probe_sent_ns;
    uint64_t probes;
    uint8_t probe_ever;
    uint8_t probe_pending;
    uint32_t n_flows; /* receiver-reported N in use (0: none yet) */
    /* fncc */
    double u_max;
    uint32_t hot_hop;
    uint32_t lhcs_fired;
    uint32_t lhcs_no_queue; /* firings whose last-hop u' had no queue term */
    double lhcs_u_sum;      /* u' and N summed over firings, for their means */
    double lhcs_n_sum;
} hpcc_rp_state;
LIBCC_CHECK_RP_STATE(hpcc_rp_state);

static inline hpcc_rp_state *hpcc_rp_priv(libcc_rp *rp)
{
    return (hpcc_rp_state *)(void *)libcc_rp_state(rp);
}
static inline const hpcc_rp_state *hpcc_rp_cpriv(const libcc_rp *rp)
{
    return (const hpcc_rp_state *)libcc_rp_state_const(rp);
}
static inline const hpcc_cfg *hpcc_rp_cfg(const libcc_rp *rp)
{
    return (const hpcc_cfg *)(const void *)libcc_rp_config(rp);
}

void hpcc_rp_init_common(libcc_rp *rp, uint64_t now_ns);
/* Hook run at the start of ComputeWind (FNCC's UpdateWc); may be NULL. */
typedef void (*hpcc_update_wc_fn)(libcc_rp *rp, hpcc_rp_state *s, const libcc_ack *ack);
/* NewAck (draft lines 21-27) on an ACK's INT list. */
int hpcc_rp_new_ack(libcc_rp *rp, const libcc_ack *ack, hpcc_update_wc_fn update_wc);
/* The decision log's record of a ComputeWind (call when libcc_rp_logging):
 * U, W, Wc, inc_stage and whether Wc moved. */
void hpcc_explain(libcc_rp *rp, const hpcc_rp_state *s, const char *action, bool update_wc);

/* Variables for plots and traces (names in docs/algorithms/hpcc.md);
 * FNCC exposes HPCC_N_VARS + HPCC_N_FNCC_VARS. */
extern const libcc_param_desc hpcc_vars[];
#define HPCC_N_VARS 7
#define HPCC_N_FNCC_VARS 6
void hpcc_read_vars(const libcc_rp *rp, double *values);

/* HPCC's switch: stamp this port's record into a data or probe packet that
 * carries an INT header, at dequeue. A full list is left as it is. */
int hpcc_cp_stamp(libcc_cp *cp, uint64_t now_ns, libcc_cp_pkt *pkt);
/* HPCC's receiver: the ACK echoes the data's hop list (hpcc, powertcp). */
int hpcc_np_echo(libcc_np *np, libcc_np_flow *flow, uint64_t now_ns,
                 const libcc_data_pkt *pkt, libcc_np_verdict *verdict);
/* HPCC's sender: every data packet collects INT (hpcc, powertcp). */
int hpcc_rp_int_every_packet(libcc_rp *rp, uint64_t now_ns, uint64_t seq, uint32_t bytes,
                             unsigned *tx_flags);
/* Two hop lists describe the same path (hop count, switch and port ids,
 * wire widths): differences between their records mean something. */
bool hpcc_same_path(const libcc_int_list *a, const libcc_int_list *b);
/* A list's wrap width: 0 or > 64 is full width. */
unsigned hpcc_int_width(uint8_t bits);

#endif /* LIBCC_ALGO_HPCC_CORE_H */
