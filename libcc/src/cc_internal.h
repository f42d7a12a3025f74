/* SPDX-License-Identifier: MIT */
/*
 * What libcc's core files (rp.c, np.c, cp.c, params.c, registry.c) share:
 * the private layouts of the objects, the registry's entries, and, for the
 * built-in algorithm modules, in-line versions of <libcc/algorithm.h>'s
 * accessors.
 *
 * An algorithm module (algo/ *.c, or a plugin) is a `const libcc_algorithm`
 * with its ops tables (<libcc/algorithm.h>), registered by name
 * (registry.c), in the spirit of Linux's tcp_congestion_ops. It touches
 * the objects only through the accessors, never their fields, so these
 * layouts may change without breaking a plugin.
 *
 * The core owns: argument checks, monotonic time checks, the flow table of
 * the NP, counting ACK intervals and active flows, the CP's cumulative
 * tx byte counter and random generator, clamping rates to
 * [1 bit/s, line rate], and firing rate/window/deadline callbacks when the
 * values a module set changed.
 * Modules own: the congestion control arithmetic, in their private state.
 * They never call the host: what they ask of it (a CNP, a probe) goes
 * through the core services (libcc_np_request_cnp, libcc_rp_request_probe),
 * like every other callback.
 */
#ifndef LIBCC_CC_INTERNAL_H
#define LIBCC_CC_INTERNAL_H

#include <libcc/algorithm.h>
#include <libcc/libcc.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An object's module state and configuration are sized by the module's
 * own types (cfg_size and the ops' state sizes) and live behind the
 * object's core fields, each part starting on this alignment. */
#define LIBCC_PRIV_ALIGN LIBCC_ALGORITHM_ALIGN
/* libcc_params_validate and libcc_cp_new build a configuration on the
 * stack: the one place that needs a bound over all algorithms. */
#define LIBCC_CFG_MAX_BYTES LIBCC_ALGORITHM_CFG_MAX

static inline size_t libcc_priv_round(size_t n)
{
    return (n + LIBCC_PRIV_ALIGN - 1) & ~(size_t)(LIBCC_PRIV_ALIGN - 1);
}

/* A built-in module's own types are checked at compile time; a plugin's
 * sizes are checked by libcc_algorithm_register. */
#define LIBCC_CHECK_ALIGN(type) \
    _Static_assert(_Alignof(type) <= LIBCC_PRIV_ALIGN, #type " needs more than LIBCC_PRIV_ALIGN")
#define LIBCC_CHECK_CFG(type)                                                                   \
    LIBCC_CHECK_ALIGN(type);                                                                    \
    _Static_assert(sizeof(type) <= LIBCC_CFG_MAX_BYTES, #type " exceeds LIBCC_ALGORITHM_CFG_MAX")
#define LIBCC_CHECK_RP_STATE(type) LIBCC_CHECK_ALIGN(type)
#define LIBCC_CHECK_CP_STATE(type) LIBCC_CHECK_ALIGN(type)
#define LIBCC_CHECK_NP_FLOW_STATE(type) LIBCC_CHECK_ALIGN(type)

/* Parameters every algorithm shares; they come first in every table. */
enum {
    LIBCC_COMMON_ACK_INTERVAL = 0, /* m: ACK every m data packets */
    LIBCC_COMMON_MAX_HOPS,         /* runtime bound of an INT hop list */
    LIBCC_COMMON_ACTIVITY_WINDOW,  /* NP: a flow is active if data seen within it */
    LIBCC_COMMON_COUNT
};
#define LIBCC_MAX_PARAMS (LIBCC_COMMON_COUNT + LIBCC_MAX_ALGORITHM_PARAMS)

/* ---- registry (registry.c) ---------------------------------------------- */

/* One slot of the registry. `refs` counts the params and objects of the
 * algorithm alive (libcc_algorithm_unregister refuses while it is not 0);
 * it changes without the registry's lock, atomically, when a params or an
 * object is made from one that already holds a reference. */
typedef struct libcc_algo_entry {
    const libcc_algorithm *algorithm; /* NULL: free slot */
    atomic_uint refs;
    bool builtin;
} libcc_algo_entry;

/* The entry of a registered algorithm with one more reference (the
 * caller's), found by name under the registry's lock; NULL if unknown. */
libcc_algo_entry *libcc_algo_acquire(const char *name);
/* One more reference to an entry the caller already holds one of. */
void libcc_algo_ref(libcc_algo_entry *entry);
void libcc_algo_release(libcc_algo_entry *entry);
/* Look an algorithm up without taking a reference (for queries of static
 * tables: libcc_algorithm_params, _presets, _info_get). */
const libcc_algorithm *libcc_algo_find(const char *name);
/* Largest RP object over the registered algorithms (libcc_rp_size(NULL)). */
size_t libcc_algo_max_rp_bytes(void);
/* Bytes of an RP of this algorithm (rp.c). */
size_t libcc_rp_bytes(const libcc_algorithm *a);

/* Empty ops tables, so the core calls through a table without testing for
 * a role's absence on every event. */
extern const libcc_rp_ops libcc_rp_ops_none;
extern const libcc_np_ops libcc_np_ops_none;
extern const libcc_cp_ops libcc_cp_ops_none;

/* ---- objects -------------------------------------------------------------- *
 * tests/static compiles every module with LIBCC_MODULE_VIEW, which hides
 * everything from here to the end but the declarations: a module that
 * touched a field instead of an accessor fails to compile there. */
#ifndef LIBCC_MODULE_VIEW

struct libcc_rp {
    uint32_t magic;
    uint8_t owned; /* allocated by libcc_rp_new */
    uint8_t busy;  /* inside an op or a callback: calls into this RP are refused */
    const libcc_rp_ops *ops;
    const libcc_algorithm *algo;
    libcc_algo_entry *entry; /* the reference this RP holds */
    libcc_rp_callbacks cbs;
    void *user_data;
    libcc_flow_info flow;
    libcc_common_config common;
    uint64_t last_now_ns;
    uint64_t rate_bps;     /* current pacing rate */
    uint64_t window_bytes; /* LIBCC_WINDOW_UNLIMITED if rate-only */
    uint64_t deadline_ns;  /* next on_timer, LIBCC_NO_DEADLINE if none */
    uint64_t rto_ns;       /* retransmission timeout it wants; 0: the host's */
    uint64_t snd_nxt;      /* highest seq+bytes seen by on_tx (core keeps it) */
    uint64_t bytes_sent;   /* total bytes given to on_tx */
    const void *cfg;       /* typed config: algo->cfg_size bytes after priv */
    /* The host's decision logger (decision_log.c); NULL: none, and the only
     * thing an unlogged event pays for the log is testing this. */
    struct libcc_rp_log *log;
    /* per-flow module state, ops->state_size bytes; the object is
     * allocated for its algorithm only (libcc_rp_size). */
    _Alignas(LIBCC_PRIV_ALIGN) unsigned char priv[];
};

struct libcc_np_flow {
    uint64_t flow_id;
    uint64_t last_data_ns;
    uint32_t pkts_since_ack;
    uint32_t lru_prev, lru_next; /* activity list, oldest first */
    uint8_t used;
    uint8_t active;
    _Alignas(LIBCC_PRIV_ALIGN) unsigned char priv[]; /* ops->flow_state_size bytes */
};

struct libcc_np {
    uint32_t magic;
    const libcc_np_ops *ops;
    const libcc_algorithm *algo;
    libcc_algo_entry *entry;
    libcc_np_callbacks cbs;
    void *user_data;
    libcc_np_info info;
    libcc_common_config common;
    uint64_t last_now_ns;
    uint64_t deadline_ns;    /* modules lower it (libcc_np_set_deadline_ns) */
    uint32_t capacity;       /* slots, a power of two */
    uint32_t n_flows;
    uint32_t n_active;
    uint32_t lru_head, lru_tail;
    size_t slot_size;
    unsigned char *slots;
    const void *cfg; /* algo->cfg_size bytes in cfg_mem */
    _Alignas(LIBCC_PRIV_ALIGN) unsigned char cfg_mem[];
};

struct libcc_cp {
    uint32_t magic;
    uint32_t int_hop_bytes;  /* libcc_algo_int_hop_bytes(algo), read per dequeue */
    const libcc_cp_ops *ops;
    const libcc_algorithm *algo;
    libcc_algo_entry *entry;
    libcc_cp_info info;
    libcc_common_config common;
    uint64_t tx_bytes;       /* bytes dequeued before the current packet */
    uint64_t rng_state;
    uint64_t deadline_ns;    /* next cp_on_timer, LIBCC_NO_DEADLINE if none */
    size_t max_feedback;     /* set in init: most entries one on_timer writes */
    const void *cfg;         /* algo->cfg_size bytes after priv */
    _Alignas(LIBCC_PRIV_ALIGN) unsigned char priv[]; /* state_size (+ extra) bytes */
};

/* Both INT wire formats put a hop in one 64-bit word. */
#define LIBCC_INT_WIRE_HOP_BYTES 8u

/* Wire bytes one hop adds to a packet of this algorithm; 0 without INT. */
static inline uint32_t libcc_algo_int_hop_bytes(const libcc_algorithm *a)
{
    return (a->data_int != LIBCC_INT_FORMAT_NONE || a->ack_int != LIBCC_INT_FORMAT_NONE)
               ? LIBCC_INT_WIRE_HOP_BYTES
               : 0u;
}

/* INT (int_wire.c): push hop onto list as fmt's wire (default units) holds
 * it, and set the list's ts_bits / tx_bits to that wire's wrap widths.
 * LIBCC_OK, LIBCC_ERR_FULL (list unchanged), LIBCC_ERR_BAD_TELEMETRY (rate
 * not in fmt's table, list unchanged), LIBCC_ERR_INVALID_ARG (fmt NONE). */
int libcc_int_list_push_wire(libcc_int_list *list, libcc_int_format fmt, const libcc_int_hop *hop,
                             unsigned max_hops);
/* Decision log (decision_log.c), for an RP with rp->log set: deliver the
 * record of the event that just ended (the rate and window already
 * clamped; old_* from before it) if the module explained itself or they
 * changed; and release the logger (libcc_rp_del). */
void libcc_rp_log_deliver(struct libcc_rp *rp, libcc_rp_event event, uint64_t now_ns,
                          uint64_t old_rate_bps, uint64_t old_window_bytes);
void libcc_rp_log_free(struct libcc_rp *rp);

/* Parameter internals shared by params.c, registry.c and the object
 * constructors. */
struct libcc_params {
    const libcc_algorithm *algo;
    libcc_algo_entry *entry; /* the reference this params holds; NULL: none */
    size_t n_values;         /* LIBCC_COMMON_COUNT + algo->n_params */
    double values[LIBCC_MAX_PARAMS];
    char err[256];
};
/* A params of algo with its defaults, holding no registry reference
 * (registry.c checks a description's presets with it). */
void libcc_params_init_defaults(libcc_params *p, const libcc_algorithm *algo);
/* Build common + typed algorithm config from params; err may be NULL. */
int libcc_params_build(const libcc_params *params, libcc_common_config *common, void *cfg,
                       char *err, size_t err_len);

/* ---- accessors, in line for the built-in modules ------------------------- *
 * The same names and meaning as <libcc/algorithm.h>'s exported functions
 * (rp.c, np.c, cp.c define those, with the name in parentheses so these
 * macros do not apply), so the built-ins are written exactly as a plugin
 * is, and pay no call per access. */

static inline void *libcc_rp_state_in(libcc_rp *rp) { return rp->priv; }
static inline const void *libcc_rp_state_const_in(const libcc_rp *rp) { return rp->priv; }
static inline const void *libcc_rp_config_in(const libcc_rp *rp) { return rp->cfg; }
static inline const libcc_common_config *libcc_rp_common_in(const libcc_rp *rp) { return &rp->common; }
static inline const libcc_flow_info *libcc_rp_flow_in(const libcc_rp *rp) { return &rp->flow; }
static inline void libcc_rp_set_rate_bps_in(libcc_rp *rp, uint64_t v) { rp->rate_bps = v; }
static inline void libcc_rp_set_window_bytes_in(libcc_rp *rp, uint64_t v) { rp->window_bytes = v; }
static inline void libcc_rp_set_deadline_ns_in(libcc_rp *rp, uint64_t v) { rp->deadline_ns = v; }
static inline void libcc_rp_set_rto_ns_in(libcc_rp *rp, uint64_t v) { rp->rto_ns = v; }
static inline uint64_t libcc_rp_snd_nxt_in(const libcc_rp *rp) { return rp->snd_nxt; }
static inline uint64_t libcc_rp_bytes_sent_in(const libcc_rp *rp) { return rp->bytes_sent; }
/* libcc.h's getters, without the host's validity check (a module's rp is
 * the live object the core called it with). */
static inline uint64_t libcc_rp_rate_bps_in(const libcc_rp *rp) { return rp->rate_bps; }
static inline uint64_t libcc_rp_window_bytes_in(const libcc_rp *rp) { return rp->window_bytes; }
static inline uint64_t libcc_rp_deadline_ns_in(const libcc_rp *rp) { return rp->deadline_ns; }
static inline uint64_t libcc_rp_rto_ns_in(const libcc_rp *rp) { return rp->rto_ns; }

static inline const void *libcc_np_config_in(const libcc_np *np) { return np->cfg; }
static inline const libcc_common_config *libcc_np_common_in(const libcc_np *np) { return &np->common; }
static inline const libcc_np_info *libcc_np_get_info_in(const libcc_np *np) { return &np->info; }
static inline void *libcc_np_flow_state_in(libcc_np_flow *flow) { return flow->priv; }
static inline uint64_t libcc_np_flow_id_in(const libcc_np_flow *flow) { return flow->flow_id; }
static inline void libcc_np_set_deadline_ns_in(libcc_np *np, uint64_t d)
{
    if (d < np->deadline_ns)
        np->deadline_ns = d;
}

static inline void *libcc_cp_state_in(libcc_cp *cp) { return cp->priv; }
static inline const void *libcc_cp_state_const_in(const libcc_cp *cp) { return cp->priv; }
static inline const void *libcc_cp_config_in(const libcc_cp *cp) { return cp->cfg; }
static inline const libcc_common_config *libcc_cp_common_in(const libcc_cp *cp) { return &cp->common; }
static inline const libcc_cp_info *libcc_cp_get_info_in(const libcc_cp *cp) { return &cp->info; }
static inline uint64_t libcc_cp_tx_bytes_in(const libcc_cp *cp) { return cp->tx_bytes; }
static inline void libcc_cp_set_deadline_ns_in(libcc_cp *cp, uint64_t d) { cp->deadline_ns = d; }
static inline void libcc_cp_set_max_feedback_in(libcc_cp *cp, size_t n) { cp->max_feedback = n; }

/* The INT stamp chain a switch runs per data packet (hpcc_cp_stamp ->
 * record -> stamp -> push) and the wrap-safe difference HPCC takes per hop
 * of each ACK: in line for the built-ins, as the accessors above;
 * cp.c and int_list.c define the exported functions from them. */
static inline int libcc_int_list_push_in(libcc_int_list *list, const libcc_int_hop *hop,
                                         unsigned max_hops)
{
    if (list == NULL || hop == NULL)
        return LIBCC_ERR_INVALID_ARG;
    /* 0 means "no runtime bound": the compile-time one still holds, and a
     * runtime bound larger than the array cannot be honoured. */
    unsigned bound = max_hops;
    if (bound == 0 || bound > LIBCC_INT_MAX_HOPS)
        bound = LIBCC_INT_MAX_HOPS;
    if (list->n_hops >= bound)
        return LIBCC_ERR_FULL;
    list->hop[list->n_hops] = *hop;
    list->n_hops++;
    return LIBCC_OK;
}

static inline uint64_t libcc_wrap_diff_in(uint64_t cur, uint64_t prev, unsigned bits)
{
    /* Unsigned subtraction is already modulo 2^64; narrower counters keep only
     * their low bits. 0 and > 64 mean full width so that a zeroed list (or a
     * nonsense width) degrades to plain subtraction instead of a shift by 64,
     * which C leaves undefined. */
    uint64_t d = cur - prev;
    if (bits == 0 || bits >= 64)
        return d;
    return d & ((UINT64_C(1) << bits) - 1);
}

/* Without the exported function's check of cp: a module's cp is the live
 * object the core called it with. */
static inline int libcc_cp_int_record_in(const libcc_cp *cp, uint64_t now_ns, uint64_t qlen_bytes,
                                         libcc_int_hop *hop)
{
    if (hop == NULL)
        return LIBCC_ERR_INVALID_ARG;
    hop->bandwidth_bps = cp->info.link_rate_bps;
    hop->ts_ns = now_ns;
    hop->tx_bytes = cp->tx_bytes;
    hop->qlen_bytes = qlen_bytes;
    hop->switch_id = cp->info.switch_id;
    hop->port_id = cp->info.port_id;
    return LIBCC_OK;
}

static inline int libcc_cp_stamp_in(libcc_cp *cp, libcc_cp_pkt *pkt, const libcc_int_hop *rec)
{
    const bool is_ack = pkt->kind == LIBCC_PKT_ACK || pkt->kind == LIBCC_PKT_NACK;
    int rc = libcc_int_list_push_wire(pkt->int_list, is_ack ? cp->algo->ack_int : cp->algo->data_int,
                                      rec, cp->common.max_hops);
    if (rc == LIBCC_OK)
        pkt->int_stamped = 1;
    /* A full list stays as it is: the hops already in it are still valid. */
    return rc == LIBCC_ERR_FULL ? LIBCC_OK : rc;
}

#define libcc_int_list_push(list, hop, max_hops) libcc_int_list_push_in(list, hop, max_hops)
#define libcc_wrap_diff(cur, prev, bits) libcc_wrap_diff_in(cur, prev, bits)
#define libcc_cp_int_record(cp, now_ns, qlen_bytes, hop) \
    libcc_cp_int_record_in(cp, now_ns, qlen_bytes, hop)
#define libcc_cp_stamp(cp, pkt, rec) libcc_cp_stamp_in(cp, pkt, rec)

#define libcc_rp_state(rp) libcc_rp_state_in(rp)
#define libcc_rp_state_const(rp) libcc_rp_state_const_in(rp)
#define libcc_rp_config(rp) libcc_rp_config_in(rp)
#define libcc_rp_common(rp) libcc_rp_common_in(rp)
#define libcc_rp_flow(rp) libcc_rp_flow_in(rp)
#define libcc_rp_set_rate_bps(rp, v) libcc_rp_set_rate_bps_in(rp, v)
#define libcc_rp_set_window_bytes(rp, v) libcc_rp_set_window_bytes_in(rp, v)
#define libcc_rp_set_deadline_ns(rp, v) libcc_rp_set_deadline_ns_in(rp, v)
#define libcc_rp_set_rto_ns(rp, v) libcc_rp_set_rto_ns_in(rp, v)
#define libcc_rp_snd_nxt(rp) libcc_rp_snd_nxt_in(rp)
#define libcc_rp_bytes_sent(rp) libcc_rp_bytes_sent_in(rp)
#define libcc_rp_rate_bps(rp) libcc_rp_rate_bps_in(rp)
#define libcc_rp_window_bytes(rp) libcc_rp_window_bytes_in(rp)
#define libcc_rp_deadline_ns(rp) libcc_rp_deadline_ns_in(rp)
#define libcc_rp_rto_ns(rp) libcc_rp_rto_ns_in(rp)
#define libcc_np_config(np) libcc_np_config_in(np)
#define libcc_np_common(np) libcc_np_common_in(np)
#define libcc_np_get_info(np) libcc_np_get_info_in(np)
#define libcc_np_flow_state(flow) libcc_np_flow_state_in(flow)
#define libcc_np_flow_id(flow) libcc_np_flow_id_in(flow)
#define libcc_np_set_deadline_ns(np, d) libcc_np_set_deadline_ns_in(np, d)
#define libcc_cp_state(cp) libcc_cp_state_in(cp)
#define libcc_cp_state_const(cp) libcc_cp_state_const_in(cp)
#define libcc_cp_config(cp) libcc_cp_config_in(cp)
#define libcc_cp_common(cp) libcc_cp_common_in(cp)
#define libcc_cp_get_info(cp) libcc_cp_get_info_in(cp)
#define libcc_cp_tx_bytes(cp) libcc_cp_tx_bytes_in(cp)
#define libcc_cp_set_deadline_ns(cp, d) libcc_cp_set_deadline_ns_in(cp, d)
#define libcc_cp_set_max_feedback(cp, n) libcc_cp_set_max_feedback_in(cp, n)

#endif /* LIBCC_MODULE_VIEW */

#endif /* LIBCC_CC_INTERNAL_H */
