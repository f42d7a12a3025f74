/* SPDX-License-Identifier: MIT */
/*
 * Internal contract between the libcc core (objects, events, callbacks,
 * parameters) and the algorithm modules. Each algorithm is one small file
 * (or a few) defining a `const libcc_algo` registered by name in registry.c,
 * in the spirit of Linux's tcp_congestion_ops.
 *
 * The core owns: argument checks, monotonic time checks, the flow table of
 * the NP, counting ACK intervals and active flows, the CP's cumulative
 * tx byte counter and random generator, clamping rates to
 * [1 bit/s, line rate], and firing rate/window/deadline callbacks when the
 * values a module left in the common fields changed.
 * Modules own: the congestion control arithmetic, in their private state.
 * They never call the host: what they ask of it (a CNP, a probe) goes
 * through the core services below, like every other callback.
 */
#ifndef LIBCC_CC_INTERNAL_H
#define LIBCC_CC_INTERNAL_H

#include <libcc/libcc.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An object's module state and configuration are sized by the module's
 * own types (libcc_algo's cfg_size, rp_state_size, cp_state_size,
 * np_flow_size) and live behind the object's core fields, each part
 * starting on this alignment. */
#define LIBCC_PRIV_ALIGN 16
/* libcc_params_validate builds a configuration it throws away on the
 * stack: the one place that needs a bound over all algorithms. */
#define LIBCC_CFG_MAX_BYTES 256
#define LIBCC_MAX_PARAMS 48

static inline size_t libcc_priv_round(size_t n)
{
    return (n + LIBCC_PRIV_ALIGN - 1) & ~(size_t)(LIBCC_PRIV_ALIGN - 1);
}

/* Time and counters saturate at the top of uint64_t instead of wrapping: a
 * deadline past the clock's end is "never" (LIBCC_NO_DEADLINE is
 * UINT64_MAX), never a wrapped time in the past. */
static inline uint64_t libcc_add_sat(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static inline uint64_t libcc_mul_sat(uint64_t a, uint64_t b)
{
    return (b != 0 && a > UINT64_MAX / b) ? UINT64_MAX : a * b;
}

/* double -> uint64_t, truncated, saturating: casting a double at or above
 * 2^64 (or a NaN) to an integer is undefined behaviour, and
 * (double)UINT64_MAX is already 2^64. Negative and NaN give 0. */
static inline uint64_t libcc_u64_sat(double v)
{
    if (!(v >= 0.0))
        return 0;
    return v < 0x1p64 ? (uint64_t)v : UINT64_MAX;
}

#define LIBCC_CHECK_ALIGN(type) \
    _Static_assert(_Alignof(type) <= LIBCC_PRIV_ALIGN, #type " needs more than LIBCC_PRIV_ALIGN")
#define LIBCC_CHECK_CFG(type)                                                                   \
    LIBCC_CHECK_ALIGN(type);                                                                    \
    _Static_assert(sizeof(type) <= LIBCC_CFG_MAX_BYTES, #type " exceeds LIBCC_CFG_MAX_BYTES")
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

typedef struct libcc_common_cfg {
    uint32_t ack_interval_pkts;
    uint32_t max_hops;
    uint64_t activity_window_ns;
} libcc_common_cfg;

/* The algorithm's view of the core objects. Fields marked (module) are
 * what a module reads and writes; the rest is the core's. */
struct libcc_rp {
    uint32_t magic;
    uint8_t owned; /* allocated by libcc_rp_new */
    uint8_t busy;  /* inside an op or a callback: calls into this RP are refused */
    const struct libcc_algo *algo;
    libcc_rp_callbacks cbs;
    void *user_data;
    libcc_flow_info flow; /* (module, read) */
    libcc_common_cfg common;  /* (module, read) */
    uint64_t last_now_ns;
    uint64_t rate_bps;     /* (module) current pacing rate */
    uint64_t window_bytes; /* (module) LIBCC_WINDOW_UNLIMITED if rate-only */
    uint64_t deadline_ns;  /* (module) next on_timer, LIBCC_NO_DEADLINE if none */
    uint64_t rto_ns;       /* (module) retransmission timeout it wants; 0: the host's */
    uint64_t snd_nxt;      /* highest seq+bytes seen by on_tx (core keeps it) */
    uint64_t bytes_sent;   /* total bytes given to on_tx */
    const void *cfg;       /* (module, read) typed config: algo->cfg_size bytes after priv */
    /* (module) per-flow state, algo->rp_state_size bytes; the object is
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
    _Alignas(LIBCC_PRIV_ALIGN) unsigned char priv[]; /* (module) np_flow_size bytes */
};

struct libcc_np {
    uint32_t magic;
    const struct libcc_algo *algo;
    libcc_np_callbacks cbs;
    void *user_data;
    libcc_np_info info;      /* (module, read) */
    libcc_common_cfg common; /* (module, read) */
    uint64_t last_now_ns;
    uint64_t deadline_ns;    /* (module may lower it) */
    uint32_t capacity;       /* slots, a power of two */
    uint32_t n_flows;
    uint32_t n_active;
    uint32_t lru_head, lru_tail;
    size_t slot_size;
    unsigned char *slots;
    const void *cfg; /* (module, read): algo->cfg_size bytes in cfg_mem */
    _Alignas(LIBCC_PRIV_ALIGN) unsigned char cfg_mem[];
};

struct libcc_cp {
    uint32_t magic;
    const struct libcc_algo *algo;
    libcc_cp_info info;      /* (module, read) */
    libcc_common_cfg common; /* (module, read) */
    uint64_t tx_bytes;       /* bytes dequeued before the current packet */
    uint64_t rng_state;
    uint64_t deadline_ns;    /* (module) next cp_on_timer, LIBCC_NO_DEADLINE if none */
    size_t max_feedback;     /* (module, set in cp_init) most entries one cp_on_timer writes */
    const void *cfg;         /* (module, read): algo->cfg_size bytes after priv */
    _Alignas(LIBCC_PRIV_ALIGN) unsigned char priv[]; /* (module) algo->cp_state_size bytes */
};

typedef struct libcc_algo {
    /* An array, not a pointer, so registry.c can list the names as address
     * constants of the algorithm tables themselves. */
    char name[16];
    /* What libcc_algorithm_info_get reports: the roles that do work and the
     * INT headers packets carry (cp_needs_int_table is below, with the CP). */
    unsigned roles;            /* LIBCC_ROLE_* */
    libcc_int_format data_int; /* on data/probe packets that requested INT */
    libcc_int_format ack_int;  /* on every ACK/NACK */
    unsigned signals;          /* LIBCC_SIGNAL_*: what else packets must carry */
    uint8_t pint_bits;         /* with LIBCC_SIGNAL_DATA_PINT: width of the PINT field */
    uint8_t hpcc_sim_cc_mode;  /* the HPCC simulator's CC_MODE for it; 0: none */
    /* The algorithm's own parameters (the core prepends the common ones). */
    const libcc_param_desc *params;
    size_t n_params;
    /* Fill the typed config from validated values (base units, in table
     * order) and check relations between parameters; on failure write a
     * message naming the parameters into err and return an LIBCC_ERR_*. */
    int (*cfg_init)(void *cfg, const double *values, char *err, size_t err_len);
    /* Bytes of the module's own types, so every object holds exactly what
     * its algorithm needs (0: none): the typed config cfg_init fills, and
     * the per-object state of an RP and a CP (the NP's is np_flow_size). */
    size_t cfg_size;
    size_t rp_state_size;
    size_t cp_state_size;
    /* Named parameter sets (may be NULL with 0); no assignment in them may
     * itself be a preset. */
    const libcc_preset_desc *presets;
    size_t n_presets;

    /* Reaction Point. Any op may be NULL: the event is then ignored. */
    const libcc_param_desc *rp_vars;
    size_t n_rp_vars;
    void (*rp_init)(struct libcc_rp *rp, uint64_t now_ns);
    int (*rp_on_ack)(struct libcc_rp *rp, uint64_t now_ns, const libcc_ack *ack);
    int (*rp_on_nack)(struct libcc_rp *rp, uint64_t now_ns, const libcc_ack *nack);
    int (*rp_on_cnp)(struct libcc_rp *rp, uint64_t now_ns);
    int (*rp_on_tx)(struct libcc_rp *rp, uint64_t now_ns, uint64_t seq, uint32_t bytes,
                    unsigned *tx_flags);
    int (*rp_on_timer)(struct libcc_rp *rp, uint64_t now_ns);
    int (*rp_on_feedback)(struct libcc_rp *rp, uint64_t now_ns, const libcc_feedback *fb);
    int (*rp_on_timeout)(struct libcc_rp *rp, uint64_t now_ns);
    void (*rp_read_vars)(const struct libcc_rp *rp, double *values);

    /* Notification Point. The core has already found or created the flow,
     * updated its activity and decided verdict->send_ack (every m packets,
     * last packet, probe) on a zeroed verdict (ack.ints NULL); the module
     * fills ACK contents (ack.ints may point at pkt->ints, never at module
     * state), may request a CNP (through libcc_np_request_cnp) and may force
     * or hold the ACK. */
    size_t np_flow_size;
    void (*np_flow_init)(struct libcc_np *np, struct libcc_np_flow *flow, uint64_t now_ns);
    int (*np_on_data)(struct libcc_np *np, struct libcc_np_flow *flow, uint64_t now_ns,
                      const libcc_data_pkt *pkt, libcc_np_verdict *verdict);
    int (*np_on_timer)(struct libcc_np *np, uint64_t now_ns);

    /* Congestion Point. cp_needs_int_table: libcc_cp_new refuses a CP
     * without libcc_cp_info.int_table (FNCC cannot work without one). */
    bool cp_needs_int_table;
    void (*cp_init)(struct libcc_cp *cp);
    int (*cp_on_enqueue)(struct libcc_cp *cp, uint64_t now_ns, libcc_cp_pkt *pkt);
    /* Stamps happen here, through libcc_cp_stamp: the core counts the hop's
     * wire bytes in txBytes for the hops a dequeue appended. */
    int (*cp_on_dequeue)(struct libcc_cp *cp, uint64_t now_ns, libcc_cp_pkt *pkt);
    double (*cp_mark_probability)(const struct libcc_cp *cp, uint64_t queue_bytes);
    /* A CP whose state grows with its configuration (RoCC's flow table):
     * bytes it needs beyond cp_state_size (NULL: none). */
    size_t (*cp_extra_size)(const void *cfg);
    /* A CP with a timer sets deadline_ns (and max_feedback) in cp_init;
     * the core calls this at or after it, with room for max_feedback
     * entries in out; the module sets the next deadline. */
    int (*cp_on_timer)(struct libcc_cp *cp, uint64_t now_ns, libcc_cp_feedback *out,
                       size_t *n_out);
} libcc_algo;

/* Registry (registry.c). */
const libcc_algo *libcc_algo_find(const char *name);
/* The i-th registered algorithm, NULL past the last. */
const libcc_algo *libcc_algo_at(size_t i);

/* Both INT wire formats put a hop in one 64-bit word. */
#define LIBCC_INT_WIRE_HOP_BYTES 8u

/* Wire bytes one hop adds to a packet of this algorithm; 0 without INT. */
static inline uint32_t libcc_algo_int_hop_bytes(const libcc_algo *a)
{
    return (a->data_int != LIBCC_INT_FORMAT_NONE || a->ack_int != LIBCC_INT_FORMAT_NONE)
               ? LIBCC_INT_WIRE_HOP_BYTES
               : 0u;
}

/* Core services for modules. */
/* Uniform in [0, 1) from the CP's host or internal generator. */
double libcc_cp_rand_unit(struct libcc_cp *cp);
/* Append a record to pkt->ints as the wire carries it: quantized in the
 * algorithm's format for this kind of packet (data_int for DATA/PROBE,
 * ack_int for ACK/NACK), list widths set to that format's wrap widths.
 * A full list (max_hops) is left as it is; int_stamped says whether a hop
 * went in. LIBCC_ERR_BAD_TELEMETRY if the record's rate has no code. */
int libcc_cp_stamp(struct libcc_cp *cp, libcc_cp_pkt *pkt, const libcc_int_hop *rec);

/* INT (int_wire.c): push hop onto list as fmt's wire (default units) holds
 * it, and set the list's ts_bits / tx_bits to that wire's wrap widths.
 * LIBCC_OK, LIBCC_ERR_FULL (list unchanged), LIBCC_ERR_BAD_TELEMETRY (rate
 * not in fmt's table, list unchanged), LIBCC_ERR_INVALID_ARG (fmt NONE). */
int libcc_int_list_push_wire(libcc_int_list *list, libcc_int_format fmt, const libcc_int_hop *hop,
                             unsigned max_hops);
/* The RTT sample an ACK gives: its arrival (rx_ts_ns, else now_ns) minus
 * the echoed transmit time of the data. 0 (false) without a tx timestamp;
 * the core has already refused a timestamp later than the arrival. */
static inline bool libcc_ack_rtt(const libcc_ack *ack, uint64_t now_ns, uint64_t *rtt_ns)
{
    if (!(ack->has & LIBCC_ACK_HAS_TX_TS))
        return false;
    const uint64_t rx = (ack->has & LIBCC_ACK_HAS_RX_TS) ? ack->rx_ts_ns : now_ns;
    *rtt_ns = rx - ack->tx_ts_ns;
    return true;
}
/* Time the acked data and its ACK spent at the receiver (remote NIC tx -
 * rx, the receiver's clock): Swift's endpoint delay. 0 (false) if absent. */
static inline bool libcc_ack_remote_delay(const libcc_ack *ack, uint64_t *delay_ns)
{
    if (!(ack->has & LIBCC_ACK_HAS_REMOTE_TS))
        return false;
    *delay_ns = ack->remote_tx_ts_ns - ack->remote_rx_ts_ns;
    return true;
}

/* Ask the host to send a telemetry probe on this flow (fires the
 * send_probe callback). */
void libcc_rp_request_probe(struct libcc_rp *rp, uint64_t now_ns);
/* Ask the host to send a CNP for a flow (fires the send_cnp callback). */
void libcc_np_request_cnp(struct libcc_np *np, uint64_t now_ns, uint64_t flow_id,
                          libcc_np_verdict *verdict);

/* Parameter internals shared by params.c and the object constructors. */
struct libcc_params {
    const libcc_algo *algo;
    size_t n_values; /* LIBCC_COMMON_COUNT + algo->n_params */
    double values[LIBCC_MAX_PARAMS];
    char err[256];
};
/* Build common + typed algorithm config from params; err may be NULL. */
int libcc_params_build(const libcc_params *params, libcc_common_cfg *common, void *cfg, char *err,
                       size_t err_len);

#endif /* LIBCC_CC_INTERNAL_H */
