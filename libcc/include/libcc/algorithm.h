/* SPDX-License-Identifier: MIT */
/*
 * libcc/algorithm.h: the interface for algorithm authors (since 0.7.0).
 *
 * A host (a simulator, a NIC model) uses <libcc/libcc.h> only. An
 * algorithm, built into libcc or loaded from a plugin, fills one
 * `libcc_algorithm` (what it is: name, roles, packet formats, parameters,
 * presets, sizes of its own types) with up to three narrow operation tables
 * (what it does as a Reaction, Notification and Congestion Point), and
 * reads and writes the objects only through the accessors below, so their
 * layouts stay private to libcc and can change between versions.
 *
 * Every built-in algorithm is registered through libcc_algorithm_register
 * from this same header; a plugin is a shared object exporting
 * `libcc_plugin_init` (LIBCC_PLUGIN_ENTRY), which registers its algorithms.
 * docs/writing-an-algorithm.md walks from an empty file to a plugin.
 *
 * Rules a module keeps (libcc-conformance checks them):
 *   - no allocation, no I/O, no global mutable state, no call back into the
 *     host: what it asks of the host goes through the core services below;
 *   - all its state lives in the object's private state (state_size bytes,
 *     zeroed before init), its configuration in the typed config cfg_init
 *     filled once;
 *   - rates in bits/s, windows in bytes, times in ns; the core clamps a
 *     rate to [1 bit/s, line rate] and fires the host's callbacks for what
 *     changed, so a module only sets values.
 */
#ifndef LIBCC_ALGORITHM_H
#define LIBCC_ALGORITHM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libcc/libcc.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this interface a module was compiled against; bumped on
 * every change of the structs or the meaning of an op. The first field of
 * libcc_algorithm, so a mismatch is read safely and refused
 * (LIBCC_ERR_ABI_MISMATCH) whatever else changed. */
#define LIBCC_ALGORITHM_ABI_VERSION 1u

/* Longest algorithm name (bytes, without the NUL). Names are lower-case
 * letters, digits, '-', '+' and '_', starting with a letter. */
#define LIBCC_ALGORITHM_NAME_MAX 31u
/* Most algorithms registered at once, built-ins included. */
#define LIBCC_ALGORITHM_MAX 64u

/* The common configuration every algorithm gets (parameters ack_interval,
 * max_hops, activity_window). */
typedef struct libcc_common_config {
    uint32_t ack_interval_pkts; /* NP: ACK every m data packets */
    uint32_t max_hops;          /* runtime bound of an INT hop list */
    uint64_t activity_window_ns; /* NP: a flow is active if data seen within it */
} libcc_common_config;

typedef struct libcc_np_flow libcc_np_flow;

/* Reaction Point operations: one sending flow. Any op may be NULL: the
 * event is then ignored (an RP with no ops sends at line rate, no window).
 * Ops return LIBCC_OK or a LIBCC_ERR_*; the core has checked the arguments
 * and the clock before calling them. */
typedef struct libcc_rp_ops {
    size_t state_size; /* bytes of the module's per-flow state type */
    void (*init)(libcc_rp *rp, uint64_t now_ns);
    int (*on_ack)(libcc_rp *rp, uint64_t now_ns, const libcc_ack *ack);
    int (*on_nack)(libcc_rp *rp, uint64_t now_ns, const libcc_ack *nack);
    int (*on_cnp)(libcc_rp *rp, uint64_t now_ns);
    int (*on_tx)(libcc_rp *rp, uint64_t now_ns, uint64_t seq, uint32_t bytes, unsigned *tx_flags);
    int (*on_timer)(libcc_rp *rp, uint64_t now_ns);
    int (*on_feedback)(libcc_rp *rp, uint64_t now_ns, const libcc_feedback *fb);
    int (*on_timeout)(libcc_rp *rp, uint64_t now_ns);
    /* Named internal variables for plots (libcc_rp_vars): descriptors in
     * libcc_param_desc form (def/min/max unused) and their reader (which
     * only reads: libcc_rp_state((libcc_rp *)rp) is its state). All three
     * or none. */
    const libcc_param_desc *vars;
    size_t n_vars;
    void (*read_vars)(const libcc_rp *rp, double *values);
} libcc_rp_ops;

/* Notification Point operations. The core has already found or created
 * the flow, updated its activity and decided verdict->send_ack (every m
 * packets, last packet, probe) on a zeroed verdict (ack.int_list NULL); the
 * module fills ACK contents (ack.int_list may point at pkt->int_list, never
 * at module state), may request a CNP (libcc_np_request_cnp) and may force
 * or hold the ACK. */
typedef struct libcc_np_ops {
    size_t flow_state_size; /* bytes of the module's per-flow state type */
    void (*flow_init)(libcc_np *np, libcc_np_flow *flow, uint64_t now_ns);
    int (*on_data)(libcc_np *np, libcc_np_flow *flow, uint64_t now_ns, const libcc_data_pkt *pkt,
                   libcc_np_verdict *verdict);
    /* Called at or after the NP's deadline (never early), which the core
     * has just cleared: set the next one with libcc_np_set_deadline_ns. */
    int (*on_timer)(libcc_np *np, uint64_t now_ns);
} libcc_np_ops;

/* Congestion Point operations: one switch egress port. */
typedef struct libcc_cp_ops {
    size_t state_size; /* bytes of the module's per-port state type */
    /* A CP whose state grows with its configuration (a per-port flow
     * table): bytes it needs beyond state_size, from the typed config
     * (NULL: none). They follow the state: libcc_cp_state(cp) + state_size. */
    size_t (*extra_size)(const void *cfg);
    /* libcc_cp_new refuses a CP without libcc_cp_info.int_table. */
    bool needs_int_table;
    void (*init)(libcc_cp *cp);
    int (*on_enqueue)(libcc_cp *cp, uint64_t now_ns, libcc_cp_pkt *pkt);
    /* Stamps happen here, through libcc_cp_stamp. */
    int (*on_dequeue)(libcc_cp *cp, uint64_t now_ns, libcc_cp_pkt *pkt);
    double (*mark_probability)(const libcc_cp *cp, uint64_t queue_bytes);
    /* A CP with a timer sets its deadline and max_feedback in init; the
     * core calls this at or after the deadline with room for max_feedback
     * entries; the module sets the next deadline. */
    int (*on_timer)(libcc_cp *cp, uint64_t now_ns, libcc_cp_feedback *out, size_t *n_out);
} libcc_cp_ops;

/* What an algorithm is. Static storage: libcc keeps the pointer from
 * libcc_algorithm_register until libcc_algorithm_unregister. */
typedef struct libcc_algorithm {
    uint32_t abi_version; /* LIBCC_ALGORITHM_ABI_VERSION */
    uint32_t reserved;
    const char *name;    /* see LIBCC_ALGORITHM_NAME_MAX */
    const char *summary; /* one line for listings and --help (may be NULL) */
    unsigned roles;      /* LIBCC_ROLE_*: the objects that do work for it */
    libcc_int_format data_int; /* INT header on data/probe packets that request it */
    libcc_int_format ack_int;  /* INT header on every ACK/NACK */
    unsigned signals;          /* LIBCC_SIGNAL_*: what else packets carry */
    uint8_t pint_bits;         /* with LIBCC_SIGNAL_DATA_PINT: 1..16 */
    uint8_t hpcc_sim_cc_mode;  /* the HPCC simulator's CC_MODE for it; 0: none */
    /* Its own parameters (the core prepends the common ones), at most
     * LIBCC_MAX_ALGORITHM_PARAMS; names unique, min <= def <= max. */
    const libcc_param_desc *params;
    size_t n_params;
    /* Named parameter sets; each must parse over the defaults. */
    const libcc_preset_desc *presets;
    size_t n_presets;
    /* The typed config (cfg_size bytes, at most LIBCC_ALGORITHM_CFG_MAX):
     * filled from validated values (base units, in table order); checks
     * relations between parameters and writes a message naming them into
     * err on failure. May be NULL when cfg_size is 0. */
    size_t cfg_size;
    int (*cfg_init)(void *cfg, const double *values, char *err, size_t err_len);
    /* Per-role operations; NULL where the role does nothing. */
    const libcc_rp_ops *rp;
    const libcc_np_ops *np;
    const libcc_cp_ops *cp;
} libcc_algorithm;

#define LIBCC_MAX_ALGORITHM_PARAMS 45u
#define LIBCC_ALGORITHM_CFG_MAX 256u
/* Alignment of every module-owned area (state, config). */
#define LIBCC_ALGORITHM_ALIGN 16u

/* Register an algorithm at run time; its name then works everywhere a
 * built-in's does (libcc_params_new, libcc_algorithms, ...).
 * LIBCC_ERR_ABI_MISMATCH (abi_version), LIBCC_ERR_EXISTS (name taken),
 * LIBCC_ERR_BAD_DESCRIPTION (name, sizes, parameter table, presets, roles
 * against ops), LIBCC_ERR_FULL (LIBCC_ALGORITHM_MAX), LIBCC_ERR_INVALID_ARG
 * (NULL). On failure a one-line message naming what is wrong goes into err
 * (may be NULL). Each state size is at most 16 MiB. Not safe to call while
 * another thread creates objects. */
LIBCC_API int libcc_algorithm_register(const libcc_algorithm *algorithm, char *err, size_t err_len);
/* Remove a registered algorithm. LIBCC_ERR_UNKNOWN_ALGORITHM,
 * LIBCC_ERR_BUSY (params or objects of it still exist: an RP made with
 * libcc_rp_init counts until libcc_rp_del), LIBCC_ERR_INVALID_ARG (NULL,
 * or a built-in: every program may rely on those). */
LIBCC_API int libcc_algorithm_unregister(const char *name);

/* ------------------------------------------------------------------ */
/* Plugins                                                            */
/* ------------------------------------------------------------------ */

/* The one symbol a plugin exports: registers its algorithms with
 * libcc_algorithm_register, passing err and err_len on. Returns LIBCC_OK
 * or the first error. */
#define LIBCC_PLUGIN_ENTRY "libcc_plugin_init"
typedef int (*libcc_plugin_init_fn)(char *err, size_t err_len);

/* ------------------------------------------------------------------ */
/* Accessors: what a module may read and set                          */
/* ------------------------------------------------------------------ */

/* Reaction Point (rate, window, deadline getters are in libcc.h). */
LIBCC_API void *libcc_rp_state(libcc_rp *rp);
/* The same state, read-only: for read_vars, which gets a const RP. */
LIBCC_API const void *libcc_rp_state_const(const libcc_rp *rp);
LIBCC_API const void *libcc_rp_config(const libcc_rp *rp);
LIBCC_API const libcc_common_config *libcc_rp_common(const libcc_rp *rp);
LIBCC_API const libcc_flow_info *libcc_rp_flow(const libcc_rp *rp);
LIBCC_API void libcc_rp_set_rate_bps(libcc_rp *rp, uint64_t rate_bps);
LIBCC_API void libcc_rp_set_window_bytes(libcc_rp *rp, uint64_t window_bytes);
LIBCC_API void libcc_rp_set_deadline_ns(libcc_rp *rp, uint64_t deadline_ns);
LIBCC_API void libcc_rp_set_rto_ns(libcc_rp *rp, uint64_t rto_ns);
/* Highest seq + bytes given to on_tx so far, and the total bytes. */
LIBCC_API uint64_t libcc_rp_snd_nxt(const libcc_rp *rp);
LIBCC_API uint64_t libcc_rp_bytes_sent(const libcc_rp *rp);
/* Ask the host to send a telemetry probe on this flow now. */
LIBCC_API void libcc_rp_request_probe(libcc_rp *rp, uint64_t now_ns);

/* Notification Point. */
LIBCC_API const void *libcc_np_config(const libcc_np *np);
LIBCC_API const libcc_common_config *libcc_np_common(const libcc_np *np);
LIBCC_API const libcc_np_info *libcc_np_get_info(const libcc_np *np);
LIBCC_API void *libcc_np_flow_state(libcc_np_flow *flow);
LIBCC_API uint64_t libcc_np_flow_id(const libcc_np_flow *flow);
/* Lower the NP's deadline (the host calls libcc_np_on_timer at it). */
LIBCC_API void libcc_np_set_deadline_ns(libcc_np *np, uint64_t deadline_ns);
/* Ask the host to send a CNP for a flow; marks verdict->send_cnp when the
 * request is for the packet being handled (verdict may be NULL). */
LIBCC_API void libcc_np_request_cnp(libcc_np *np, uint64_t now_ns, uint64_t flow_id,
                                    libcc_np_verdict *verdict);

/* Congestion Point. */
LIBCC_API void *libcc_cp_state(libcc_cp *cp);
/* The same state, read-only: for mark_probability, which gets a const CP. */
LIBCC_API const void *libcc_cp_state_const(const libcc_cp *cp);
LIBCC_API const void *libcc_cp_config(const libcc_cp *cp);
LIBCC_API const libcc_common_config *libcc_cp_common(const libcc_cp *cp);
LIBCC_API const libcc_cp_info *libcc_cp_get_info(const libcc_cp *cp);
/* Bytes the port dequeued before the current packet (INT's txBytes). */
LIBCC_API uint64_t libcc_cp_tx_bytes(const libcc_cp *cp);
LIBCC_API void libcc_cp_set_deadline_ns(libcc_cp *cp, uint64_t deadline_ns);
/* Call in init: the most entries one on_timer writes. */
LIBCC_API void libcc_cp_set_max_feedback(libcc_cp *cp, size_t max_feedback);
/* Uniform in [0, 1) from the host's or the CP's own seeded generator. */
LIBCC_API double libcc_cp_rand_unit(libcc_cp *cp);
/* Append a record to pkt->int_list as the wire carries it (the
 * algorithm's format for this kind of packet); a full list is left as it
 * is; pkt->int_stamped says whether a hop went in. */
LIBCC_API int libcc_cp_stamp(libcc_cp *cp, libcc_cp_pkt *pkt, const libcc_int_hop *rec);

/* ------------------------------------------------------------------ */
/* Decision log: say what the RP did and why                          */
/* ------------------------------------------------------------------ */

/* True when the host installed a decision logger on this RP
 * (libcc_rp_set_decision_log): compute what libcc_rp_explain reports only
 * then, so an unlogged run pays one test. */
LIBCC_API bool libcc_rp_logging(const libcc_rp *rp);
/* Name the action the current event took ("cut", "additive-increase",
 * "hold", ...; static storage) and up to LIBCC_DECISION_MAX_INPUTS inputs
 * that decided it (names static storage, values in base units). The core
 * delivers it with the event and the old and new rate and window once the
 * op returns; a second call in one event replaces the first. */
LIBCC_API void libcc_rp_explain(libcc_rp *rp, const char *action, const libcc_decision_input *inputs,
                                size_t n_inputs);

/* ------------------------------------------------------------------ */
/* Arithmetic every module needs                                      */
/* ------------------------------------------------------------------ */

/* Saturating at the top of uint64_t: a deadline past the clock's end is
 * "never" (LIBCC_NO_DEADLINE), never a wrapped time in the past. */
static inline uint64_t libcc_sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static inline uint64_t libcc_sat_mul(uint64_t a, uint64_t b)
{
    return (b != 0 && a > UINT64_MAX / b) ? UINT64_MAX : a * b;
}

/* double -> uint64_t, truncated, saturating (NaN and negatives give 0). */
static inline uint64_t libcc_sat_u64(double v)
{
    if (!(v >= 0.0))
        return 0;
    return v < 18446744073709551616.0 ? (uint64_t)v : UINT64_MAX;
}

/* The RTT sample an ACK gives: its arrival (rx_ts_ns, else now_ns) minus
 * the echoed transmit time of the data; false without a tx timestamp. */
static inline bool libcc_ack_rtt(const libcc_ack *ack, uint64_t now_ns, uint64_t *rtt_ns)
{
    if (!(ack->has & LIBCC_ACK_HAS_TX_TS))
        return false;
    const uint64_t rx = (ack->has & LIBCC_ACK_HAS_RX_TS) ? ack->rx_ts_ns : now_ns;
    *rtt_ns = rx - ack->tx_ts_ns;
    return true;
}

/* Time the acked data and its ACK spent at the receiver (Swift's endpoint
 * delay); false if absent. */
static inline bool libcc_ack_remote_delay(const libcc_ack *ack, uint64_t *delay_ns)
{
    if (!(ack->has & LIBCC_ACK_HAS_REMOTE_TS))
        return false;
    *delay_ns = ack->remote_tx_ts_ns - ack->remote_rx_ts_ns;
    return true;
}

#ifdef __cplusplus
}
#endif

#endif /* LIBCC_ALGORITHM_H */
