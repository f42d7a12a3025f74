/* SPDX-License-Identifier: MIT */
/*
 * libcc: datacenter congestion control (DCQCN, HPCC / HPCC++, FNCC, DCTCP,
 * TIMELY, Swift, PowerTCP, theta-PowerTCP, HPCC-PINT, RoCC, none) as
 * host-independent state machines.
 *
 * Conventions (every call):
 *   - time is uint64_t nanoseconds of the host's clock (libcc owns no clock),
 *   - rates are uint64_t bits per second, sizes and windows are bytes,
 *   - functions return int: LIBCC_OK (0) or a negative LIBCC_ERR_*;
 *     libcc_strerror() names it,
 *   - callbacks are copied at creation; user_data is passed back untouched,
 *   - no call allocates or does I/O except *_new / libcc_params_* creation.
 *
 * The three roles are separate objects:
 *   libcc_rp  Reaction Point: one per sending flow (the sender NIC's QP)
 *   libcc_np  Notification Point: one per receiver, tracks its flows
 *   libcc_cp  Congestion Point: one per switch egress port
 * and libcc_int_table is the per-switch FNCC All_INT_Table that CPs share.
 */
#ifndef LIBCC_LIBCC_H
#define LIBCC_LIBCC_H

#include <stddef.h>
#include <stdint.h>

#include <libcc/version.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(LIBCC_BUILDING) && defined(__GNUC__)
#define LIBCC_API __attribute__((visibility("default")))
#else
#define LIBCC_API
#endif

/* ------------------------------------------------------------------ */
/* Errors                                                             */
/* ------------------------------------------------------------------ */

enum libcc_error {
    LIBCC_OK = 0,
    LIBCC_ERR_INVALID_ARG = -1,       /* NULL pointer, bad flag, misuse */
    LIBCC_ERR_UNKNOWN_ALGORITHM = -2, /* no algorithm registered by that name */
    LIBCC_ERR_UNKNOWN_PARAM = -3,     /* parameter name not in the table */
    LIBCC_ERR_BAD_VALUE = -4,         /* value text does not parse */
    LIBCC_ERR_BAD_UNIT = -5,          /* missing or wrong unit for the parameter */
    LIBCC_ERR_OUT_OF_RANGE = -6,      /* parsed, but outside [min, max] */
    LIBCC_ERR_NOMEM = -7,             /* allocation failed */
    LIBCC_ERR_BUFFER_TOO_SMALL = -8,  /* caller memory or output buffer too small */
    LIBCC_ERR_UNSUPPORTED = -9,       /* event has no meaning for this algorithm */
    LIBCC_ERR_BAD_TELEMETRY = -10,    /* INT record rejected (zero B, time backwards...) */
    LIBCC_ERR_FULL = -11,             /* fixed-capacity table is full */
    LIBCC_ERR_NOT_FOUND = -12,        /* flow or entry does not exist */
    LIBCC_ERR_TIME_BACKWARDS = -13,   /* now_ns earlier than a previous event */
    /* since 0.7.0: registering algorithms and loading plugins */
    LIBCC_ERR_EXISTS = -14,           /* an algorithm of that name is registered */
    LIBCC_ERR_BAD_DESCRIPTION = -15,  /* an algorithm's description is invalid */
    LIBCC_ERR_ABI_MISMATCH = -16,     /* built against another LIBCC_ALGORITHM_ABI_VERSION */
    LIBCC_ERR_BUSY = -17,             /* params or objects of the algorithm still exist */
    LIBCC_ERR_PLUGIN = -18,           /* a plugin file could not be loaded or has no entry point */
};

/* Static English text for an error code; never NULL. */
LIBCC_API const char *libcc_strerror(int err);

/* ------------------------------------------------------------------ */
/* Algorithms and parameters                                          */
/* ------------------------------------------------------------------ */

/* NULL-terminated list of registered algorithm names: the built-ins
 * ("none", "dcqcn", "hpcc", "hpcc++", "fncc", "dctcp", "timely", "swift",
 * "powertcp", "theta-powertcp", "hpcc-pint", "rocc") in this order, then
 * those registered at run time (<libcc/algorithm.h>). The list is valid
 * until the next libcc_algorithm_register or _unregister (which rewrite
 * it); each name as long as its algorithm stays loaded. */
LIBCC_API const char *const *libcc_algorithms(void);

/* Which role objects do work for an algorithm: a host may skip creating
 * (and feeding) the others. */
#define LIBCC_ROLE_RP 0x1u
#define LIBCC_ROLE_NP 0x2u
#define LIBCC_ROLE_CP 0x4u

/* An INT header's wire format (docs/int-telemetry.md). */
typedef enum libcc_int_format {
    LIBCC_INT_FORMAT_NONE = 0, /* no INT header */
    LIBCC_INT_FORMAT_HPCC = 1, /* libcc_int_hpcc_*: the HPCC simulator's hop */
    LIBCC_INT_FORMAT_FNCC = 2, /* libcc_int_fncc_*: the FNCC All_INT_Table entry */
} libcc_int_format;

/* What a host must build for an algorithm: the roles it needs and the INT
 * headers its packets carry. */
typedef struct libcc_algorithm_info {
    const char *name;           /* static storage */
    unsigned roles;             /* LIBCC_ROLE_*: which objects do work for this algorithm */
    libcc_int_format data_int;  /* INT header a data/probe packet carries when libcc_rp_on_tx
                                 * sets LIBCC_TX_REQUEST_INT (probes always carry it) */
    libcc_int_format ack_int;   /* INT header every ACK/NACK carries; NONE: ACKs carry no INT header */
    uint8_t cp_needs_int_table; /* each switch creates one libcc_int_table its CPs share */
    /* since 0.8.0: 1 if its CPs act at libcc_cp_on_enqueue (mark, record a
     * flow); 0 if that call only checks its arguments, so a host may skip
     * it (libcc_cp_on_dequeue is never to be skipped: it counts txBytes) */
    uint8_t cp_on_enqueue;
    uint8_t reserved[2];
    uint32_t int_hop_bytes;     /* wire bytes of one INT hop (8); 0 when neither header exists */
    /* since 0.5.0 */
    uint32_t signals;           /* LIBCC_SIGNAL_*: what packets carry beyond INT (below) */
    uint8_t pint_bits;          /* LIBCC_SIGNAL_DATA_PINT: bits of the PINT field on data; else 0 */
    /* since 0.6.0: the HPCC simulator's CC_MODE for this algorithm (its
     * config.txt, run.py: 1 DCQCN, 3 HPCC, 7 TIMELY, 8 DCTCP, 10 HPCC-PINT);
     * 0: that simulator has no mode for it. A reader of its config files
     * finds libcc's algorithm here instead of by name. */
    uint8_t hpcc_sim_cc_mode;
    uint8_t reserved2[2];
} libcc_algorithm_info;

/* Signals a host must carry for an algorithm (libcc_algorithm_info.signals).
 * Each names packet fields and the libcc struct fields they map to; a host
 * that carries every field an algorithm's bits name, and copies the NP's
 * verdict->ack into its ACKs, runs it without knowing its name. */
/* ACKs echo the acked data packet's CE mark (libcc_ack.ecn_echo, filled by
 * the NP from libcc_data_pkt.ecn_ce), per ACK rather than through CNPs. */
#define LIBCC_SIGNAL_ACK_ECN_ECHO 0x01u
/* Data carries the sender NIC's transmit timestamp (libcc_data_pkt.tx_ts_ns,
 * sender's clock, LIBCC_PKT_HAS_TX_TS) and ACKs echo it
 * (libcc_ack.tx_ts_ns, LIBCC_ACK_HAS_TX_TS): the RTT sample is
 * now_ns (or libcc_ack.rx_ts_ns) - tx_ts_ns. */
#define LIBCC_SIGNAL_ACK_TX_TS 0x02u
/* ACKs carry the receiver NIC's timestamps: data arrival
 * (libcc_data_pkt.rx_ts_ns, echoed in libcc_ack.remote_rx_ts_ns) and the
 * ACK's own departure (libcc_ack.remote_tx_ts_ns, written by the host as the
 * ACK leaves), receiver's clock, LIBCC_ACK_HAS_REMOTE_TS; the sender's NIC
 * stamps the ACK's arrival (libcc_ack.rx_ts_ns, LIBCC_ACK_HAS_RX_TS): the
 * fabric / endpoint split of the RTT. */
#define LIBCC_SIGNAL_ACK_NIC_TS 0x04u
/* ACKs carry the number of switches the data crossed (libcc_data_pkt.n_hops,
 * from the IP TTL at the receiver, echoed in libcc_ack.n_hops). */
#define LIBCC_SIGNAL_ACK_HOPS 0x08u
/* Data carries a PINT field of pint_bits bits that CPs overwrite with a
 * sampled, compressed value (libcc_cp_pkt.pint, LIBCC_PKT_HAS_PINT); the NP
 * echoes it (libcc_data_pkt.pint -> libcc_ack.pint, LIBCC_ACK_HAS_PINT). */
#define LIBCC_SIGNAL_DATA_PINT 0x10u
/* CPs send feedback packets to the sources of the packets they forward,
 * per packet (libcc_cp_pkt.send_feedback, .feedback_rate_bps) or, for a CP
 * with a deadline, per flow from libcc_cp_on_timer (since 0.6.0: the host
 * gives each data packet's flow identity, libcc_cp_pkt.flow_id); the host
 * delivers each to that flow's RP with libcc_rp_on_feedback. */
#define LIBCC_SIGNAL_CP_FEEDBACK 0x20u

/* Fill *info for a registered algorithm. LIBCC_ERR_INVALID_ARG (NULL),
 * LIBCC_ERR_UNKNOWN_ALGORITHM. */
LIBCC_API int libcc_algorithm_info_get(const char *algorithm, libcc_algorithm_info *info);

typedef enum libcc_unit {
    LIBCC_UNIT_RATIO = 0, /* dimensionless: "0.95", "1/256", "95%" */
    LIBCC_UNIT_BPS,       /* bits/s: "40Mbps", "100Gbps", "1bps" */
    LIBCC_UNIT_NS,        /* time:   "55us", "1ms", "300ns", "2s" */
    LIBCC_UNIT_BYTES,     /* bytes:  "100KB" (1000), "64KiB" (1024), "1518B" */
    LIBCC_UNIT_COUNT,     /* integer count: "5" */
    LIBCC_UNIT_BOOL,      /* "0", "1", "true", "false", "on", "off" */
} libcc_unit;

/* One row of an algorithm's descriptor table: the single source of truth
 * for defaults, validation, --help text, docs and ns-3 attributes.
 * default/min/max are in the base unit (bits/s, ns, bytes, plain number). */
typedef struct libcc_param_desc {
    const char *name;
    libcc_unit unit;
    double def;
    double min;
    double max;
    const char *doc;
} libcc_param_desc;

/* Name of a unit as written in text ("bps", "ns", "B", "" ...). */
LIBCC_API const char *libcc_unit_name(libcc_unit unit);

/* The parameters specific to an algorithm (static storage). Every
 * algorithm also accepts the common parameters below; libcc_params_set
 * takes names from both tables. */
LIBCC_API int libcc_algorithm_params(const char *algorithm, const libcc_param_desc **table,
                                     size_t *count);
/* The parameters every algorithm accepts (ack_interval, max_hops,
 * activity_window), static storage. */
LIBCC_API void libcc_common_params(const libcc_param_desc **table, size_t *count);

/* Format a base-unit value with its unit in the most readable form
 * ("40Mbps", "55us", "100KB", "0.00390625"). Returns LIBCC_OK or
 * LIBCC_ERR_BUFFER_TOO_SMALL (text truncated). */
LIBCC_API int libcc_format_value(libcc_unit unit, double value, char *buf, size_t len);

/* Parse a value text for a unit into its base unit, without a table. */
LIBCC_API int libcc_parse_value(libcc_unit unit, const char *text, double *value);

/* A named set of parameter values an algorithm ships, e.g. the values of
 * the paper that defined it (static storage). `assignments` is in
 * libcc_params_parse syntax and is applied over the current values. */
typedef struct libcc_preset_desc {
    const char *name;
    const char *assignments;
    const char *doc;
} libcc_preset_desc;

/* The presets of an algorithm (count 0 if it has none). */
LIBCC_API int libcc_algorithm_presets(const char *algorithm, const libcc_preset_desc **table,
                                      size_t *count);

/* A validated set of parameter values for one algorithm. */
typedef struct libcc_params libcc_params;

LIBCC_API int libcc_params_new(libcc_params **out, const char *algorithm);
LIBCC_API void libcc_params_del(libcc_params *params);
LIBCC_API int libcc_params_copy(libcc_params **out, const libcc_params *src);
LIBCC_API const char *libcc_params_algorithm(const libcc_params *params);

/* Set one parameter from text with a unit: ("rpg_ai_rate", "40Mbps"). */
LIBCC_API int libcc_params_set(libcc_params *params, const char *name, const char *value);
/* Set one parameter in its base unit (no text). Same range checks. */
LIBCC_API int libcc_params_set_value(libcc_params *params, const char *name, double value);
/* Parse "name=value" items separated by commas, spaces or newlines. Stops at
 * the first bad item. */
LIBCC_API int libcc_params_parse(libcc_params *params, const char *assignments);
/* Apply a preset of the params' algorithm: its assignments over the current
 * values. LIBCC_ERR_NOT_FOUND (the message lists the presets) if the
 * algorithm has none by that name. libcc_params_set and libcc_params_parse
 * also take it as the pseudo-parameter "preset": "preset=paper,kmax=400KB"
 * applies the preset, then kmax (items apply left to right). */
LIBCC_API int libcc_params_apply_preset(libcc_params *params, const char *preset);
/* Check relations between parameters (kmin <= kmax, ...) that single
 * set calls cannot; objects created from params run the same check. */
LIBCC_API int libcc_params_validate(libcc_params *params);
/* Current value in the base unit. */
LIBCC_API int libcc_params_get(const libcc_params *params, const char *name, double *value);
/* Human-readable message for the last failed set/parse on this object, naming
 * the parameter and the accepted range; "" when none failed. */
LIBCC_API const char *libcc_params_error(const libcc_params *params);

/* ------------------------------------------------------------------ */
/* In-band telemetry (INT)                                            */
/* ------------------------------------------------------------------ */

/* Compile-time bound of hops in a list; the runtime bound is the common
 * parameter max_hops (<= this). Appending past the bound is refused. */
#define LIBCC_INT_MAX_HOPS 8

/* One INT hop record: the state of one switch egress port. */
typedef struct libcc_int_hop {
    uint64_t bandwidth_bps; /* B: the port's link rate */
    uint64_t ts_ns;         /* ts: when the record was taken */
    uint64_t tx_bytes;      /* cumulative bytes transmitted by the port */
    uint64_t qlen_bytes;    /* egress queue length */
    uint32_t switch_id;
    uint32_t port_id;
} libcc_int_hop;

/* An ordered hop list, first switch on the path first.
 * ts_bits / tx_bits: how many low bits of ts_ns / tx_bytes are meaningful
 * (64 = full width; fewer after a wire decode, so differences are taken
 * modulo 2^bits). */
typedef struct libcc_int_list {
    uint8_t n_hops;
    uint8_t ts_bits;
    uint8_t tx_bits;
    uint8_t reserved;
    libcc_int_hop hop[LIBCC_INT_MAX_HOPS];
} libcc_int_list;

/* Empty list with full-width fields. */
LIBCC_API void libcc_int_list_init(libcc_int_list *list);
/* Append a hop; LIBCC_ERR_FULL when n_hops == max_hops or the compile-time bound. */
LIBCC_API int libcc_int_list_push(libcc_int_list *list, const libcc_int_hop *hop, unsigned max_hops);
/* (cur - prev) modulo 2^bits: wraparound-safe difference. */
LIBCC_API uint64_t libcc_wrap_diff(uint64_t cur, uint64_t prev, unsigned bits);

/* Wire encodings, 8 bytes per hop, network byte order. Quantization units
 * are parameters of the encoding. */
typedef struct libcc_int_wire_format {
    unsigned ts_unit_ns;      /* ns per ts tick */
    unsigned bytes_unit;      /* bytes per txBytes tick */
    unsigned qlen_unit;       /* bytes per qLen tick */
} libcc_int_wire_format;

/* 1 if a port of bps bits/s can be written in the format's rate field, 0
 * if not (every rate for LIBCC_INT_FORMAT_NONE, 0 for an unknown format).
 * libcc_cp_new refuses a port its algorithm's INT could not describe. */
LIBCC_API int libcc_int_rate_supported(libcc_int_format fmt, uint64_t bps);

/* The HPCC simulator's hop: 3 bits rate index (25/50/100/200/400 Gbps as
 * the simulator, 10/40/800 Gbps in its unused codes 5..7), 24 bits ts,
 * 20 bits txBytes (default 128 B units), 17 bits qLen (default 80 B units). */
LIBCC_API void libcc_int_hpcc_format_default(libcc_int_wire_format *fmt);
LIBCC_API int libcc_int_hpcc_encode(const libcc_int_hop *hop, const libcc_int_wire_format *fmt,
                                    uint8_t out[8]);
LIBCC_API int libcc_int_hpcc_decode(const uint8_t in[8], const libcc_int_wire_format *fmt,
                                    libcc_int_hop *hop);
/* The FNCC paper's All_INT_Table entry: {4 bits B, 24 bits TS, 20 bits
 * txBytes, 16 bits qLen}. */
LIBCC_API void libcc_int_fncc_format_default(libcc_int_wire_format *fmt);
LIBCC_API int libcc_int_fncc_encode(const libcc_int_hop *hop, const libcc_int_wire_format *fmt,
                                    uint8_t out[8]);
LIBCC_API int libcc_int_fncc_decode(const uint8_t in[8], const libcc_int_wire_format *fmt,
                                    libcc_int_hop *hop);
/* decode(encode(hop)) without the bytes: the hop exactly as the wire
 * carries it. Same errors as *_encode (NULL hop/out or bad fmt:
 * LIBCC_ERR_INVALID_ARG; rate not in the table: LIBCC_ERR_BAD_TELEMETRY, out
 * untouched). On success out = what *_decode gives: switch_id and port_id 0.
 * fmt NULL = default. out may equal hop. */
LIBCC_API int libcc_int_hpcc_quantize(const libcc_int_hop *hop, const libcc_int_wire_format *fmt,
                                      libcc_int_hop *out);
LIBCC_API int libcc_int_fncc_quantize(const libcc_int_hop *hop, const libcc_int_wire_format *fmt,
                                      libcc_int_hop *out);
/* A NULL fmt means the format's default. ts_unit_ns and bytes_unit must be
 * powers of two, qlen_unit nonzero (else LIBCC_ERR_INVALID_ARG); see
 * docs/int-telemetry.md. */
/* Wrap widths in base units of the decoded ts_ns / tx_bytes (both formats
 * carry 24-bit ts and 20-bit txBytes): 24 + log2(ts_unit_ns) and
 * 20 + log2(bytes_unit). Put them in list.ts_bits / tx_bits after decoding
 * so libcc_wrap_diff stays exact across a wrap. */
LIBCC_API int libcc_int_wire_wrap_bits(const libcc_int_wire_format *fmt, unsigned *ts_bits,
                                       unsigned *tx_bits);

/* ------------------------------------------------------------------ */
/* Reaction Point (sender, one per flow)                              */
/* ------------------------------------------------------------------ */

#define LIBCC_NO_DEADLINE UINT64_MAX
#define LIBCC_WINDOW_UNLIMITED UINT64_MAX

typedef struct libcc_rp libcc_rp;

/* What the host knows about a sending flow. */
typedef struct libcc_flow_info {
    uint64_t flow_id;       /* host's identifier, echoed nowhere, for the host */
    uint64_t line_rate_bps; /* NIC port rate: rates never exceed it (required) */
    uint64_t base_rtt_ns;   /* T: base propagation RTT of the path (INT algorithms) */
    uint32_t mtu_bytes;     /* bytes per full packet on the wire (0: 1000) */
    uint32_t reserved;
} libcc_flow_info;

typedef struct libcc_rp_callbacks {
    /* Pacing rate changed. */
    void (*rate_changed)(libcc_rp *rp, uint64_t now_ns, uint64_t rate_bps, void *user_data);
    /* Window (bytes in flight allowed) changed; LIBCC_WINDOW_UNLIMITED: none. */
    void (*window_changed)(libcc_rp *rp, uint64_t now_ns, uint64_t window_bytes, void *user_data);
    /* The next time libcc_rp_on_timer must be called changed
     * (LIBCC_NO_DEADLINE: cancel). The host keeps one timer per RP. Also
     * called once from libcc_rp_init / libcc_rp_new when the algorithm
     * starts with a deadline, before *out is set: use the rp argument. */
    void (*deadline_changed)(libcc_rp *rp, uint64_t deadline_ns, void *user_data);
    /* HPCC++ probe mode: send one telemetry probe on this flow now. */
    void (*send_probe)(libcc_rp *rp, uint64_t now_ns, void *user_data);
} libcc_rp_callbacks;

/* libcc_ack.has: which of the optional fields since 0.5.0 are present. */
#define LIBCC_ACK_HAS_TX_TS 0x1u     /* tx_ts_ns */
#define LIBCC_ACK_HAS_RX_TS 0x2u     /* rx_ts_ns */
#define LIBCC_ACK_HAS_REMOTE_TS 0x4u /* remote_rx_ts_ns and remote_tx_ts_ns */
#define LIBCC_ACK_HAS_PINT 0x8u      /* pint */

/* An ACK (or NACK, or probe response) as the RP sees it. */
typedef struct libcc_ack {
    uint64_t seq;             /* cumulative: next byte expected by the receiver */
    uint64_t rx_window_bytes; /* Rx-HPCC window from the receiver; 0: absent */
    uint32_t n_flows;         /* FNCC N: concurrent flows at the receiver; 0: absent */
    uint8_t ecn_echo;         /* the acked data packet was CE-marked (DCTCP reacts to it) */
    uint8_t is_probe;         /* a probe response rather than a data ACK */
    uint16_t reserved;
    /* INT hops the ACK carries; NULL: none. Read during the call only.
     * Named `ints` before 0.7.0 (renamed so 0.4-era code, where it was an
     * array, fails to compile instead of crashing). */
    const libcc_int_list *int_list;
    /* since 0.5.0; a zeroed field with its `has` bit clear is absent */
    uint32_t has;             /* LIBCC_ACK_HAS_* */
    uint8_t n_hops;           /* switches the acked data crossed; 0: unknown */
    uint8_t reserved2;
    uint16_t pint;            /* PINT value the acked data carried (low pint_bits bits) */
    uint64_t tx_ts_ns;        /* sender NIC's transmit time of the acked data (sender's clock) */
    uint64_t rx_ts_ns;        /* sender NIC's receive time of this ACK (sender's clock; absent: now_ns) */
    uint64_t remote_rx_ts_ns; /* receiver NIC's receive time of the acked data (receiver's clock) */
    uint64_t remote_tx_ts_ns; /* receiver NIC's transmit time of this ACK (receiver's clock) */
} libcc_ack;

/* A feedback packet a congestion point sent to this flow's source
 * (LIBCC_SIGNAL_CP_FEEDBACK; since 0.5.0). */
typedef struct libcc_feedback {
    uint64_t rate_bps;   /* the rate the CP computed for the flow */
    uint32_t switch_id;  /* the CP that sent it (libcc_cp_info) */
    uint32_t port_id;
} libcc_feedback;

/* Flags libcc_rp_on_tx returns through *tx_flags. */
#define LIBCC_TX_REQUEST_INT 0x1u /* this data packet should collect INT */
#define LIBCC_TX_REQUEST_PINT 0x2u /* this data packet carries a PINT field, zeroed (since 0.5.0) */

/* Bytes of caller memory libcc_rp_init needs for an RP of params'
 * algorithm (NULL: the largest over the algorithms registered now); a
 * multiple of 16.
 * Align the memory to 16 bytes. */
LIBCC_API size_t libcc_rp_size(const libcc_params *params);
/* Construct in host memory (no allocation). *out == mem on success. */
LIBCC_API int libcc_rp_init(void *mem, size_t mem_len, const libcc_params *params,
                            const libcc_flow_info *flow, const libcc_rp_callbacks *cbs,
                            void *user_data, uint64_t now_ns, libcc_rp **out);
/* Construct in library-allocated memory. */
LIBCC_API int libcc_rp_new(libcc_rp **out, const libcc_params *params, const libcc_flow_info *flow,
                           const libcc_rp_callbacks *cbs, void *user_data, uint64_t now_ns);
/* Free (library memory) or invalidate (host memory: until then the RP
 * keeps its algorithm registered, see libcc_algorithm_unregister), and
 * free its decision log if any. NULL is fine. */
LIBCC_API void libcc_rp_del(libcc_rp *rp);

LIBCC_API int libcc_rp_on_ack(libcc_rp *rp, uint64_t now_ns, const libcc_ack *ack);
LIBCC_API int libcc_rp_on_nack(libcc_rp *rp, uint64_t now_ns, const libcc_ack *nack);
LIBCC_API int libcc_rp_on_cnp(libcc_rp *rp, uint64_t now_ns);
/* A data packet of `bytes` starting at byte offset seq left the NIC. */
LIBCC_API int libcc_rp_on_tx(libcc_rp *rp, uint64_t now_ns, uint64_t seq, uint32_t bytes,
                             unsigned *tx_flags);
/* Host's timer fired (at or after the deadline it was given). */
LIBCC_API int libcc_rp_on_timer(libcc_rp *rp, uint64_t now_ns);
/* A CP's feedback packet for this flow arrived (since 0.5.0). */
LIBCC_API int libcc_rp_on_feedback(libcc_rp *rp, uint64_t now_ns, const libcc_feedback *fb);
/* The host's retransmission timer for this flow expired and the host goes
 * back to the first unacknowledged byte (since 0.6.0). Call it once per
 * expiry; an ACK that acknowledges new data ends the run of timeouts. */
LIBCC_API int libcc_rp_on_timeout(libcc_rp *rp, uint64_t now_ns);

LIBCC_API uint64_t libcc_rp_rate_bps(const libcc_rp *rp);
LIBCC_API uint64_t libcc_rp_window_bytes(const libcc_rp *rp);
LIBCC_API uint64_t libcc_rp_deadline_ns(const libcc_rp *rp);
/* The retransmission timeout the algorithm wants for this flow now
 * (since 0.6.0); 0: the algorithm has none and the host uses its own.
 * Read it whenever the retransmission timer is armed: it changes with the
 * RTT and after each timeout. */
LIBCC_API uint64_t libcc_rp_rto_ns(const libcc_rp *rp);
LIBCC_API void *libcc_rp_user_data(const libcc_rp *rp);
LIBCC_API const char *libcc_rp_algorithm(const libcc_rp *rp);

/* Named internal variables for plotting and traces (alpha, target rate,
 * U, Wc, ...): a static table of descriptors (name, unit, doc in
 * libcc_param_desc form, def/min/max unused) and their current values. */
LIBCC_API int libcc_rp_vars(const libcc_rp *rp, const libcc_param_desc **vars, size_t *count);
LIBCC_API int libcc_rp_read_vars(const libcc_rp *rp, double *values, size_t count);

/* ------------------------------------------------------------------ */
/* Decision log (since 0.7.0)                                         */
/* ------------------------------------------------------------------ */

/* What an RP event was, in a decision record. */
typedef enum libcc_rp_event {
    LIBCC_RP_EVENT_INIT = 0,
    LIBCC_RP_EVENT_ACK,
    LIBCC_RP_EVENT_NACK,
    LIBCC_RP_EVENT_CNP,
    LIBCC_RP_EVENT_TX,
    LIBCC_RP_EVENT_TIMER,
    LIBCC_RP_EVENT_FEEDBACK,
    LIBCC_RP_EVENT_TIMEOUT,
} libcc_rp_event;

/* Static name of an event ("ack", "cnp", ...); "?" for an unknown one. */
LIBCC_API const char *libcc_rp_event_name(libcc_rp_event event);

#define LIBCC_DECISION_MAX_INPUTS 8u

/* One input an algorithm decided on (its U, alpha, RTT ...), in base units. */
typedef struct libcc_decision_input {
    const char *name; /* static storage */
    double value;
} libcc_decision_input;

/* Why an RP moved: delivered after an event in which the algorithm
 * explained itself or its rate or window changed. */
typedef struct libcc_decision {
    uint64_t now_ns;
    uint64_t flow_id;          /* libcc_flow_info.flow_id */
    libcc_rp_event event;
    const char *action;        /* the algorithm's name for what it did; "" if it said nothing */
    uint64_t old_rate_bps, new_rate_bps;
    uint64_t old_window_bytes, new_window_bytes;
    size_t n_inputs;
    const libcc_decision_input *inputs; /* valid during the call only */
} libcc_decision;

typedef void (*libcc_decision_fn)(const libcc_rp *rp, const libcc_decision *decision,
                                  void *user_data);

/* Install (fn non-NULL) or remove (NULL) a decision logger on one RP. With
 * none, algorithms format nothing. May allocate (once, here; freed on
 * removal and by libcc_rp_del, which an RP in host memory then needs too);
 * the logger must not call back into this RP. Installing delivers the INIT
 * record at once (the rate and window the algorithm started from against
 * line rate and LIBCC_WINDOW_UNLIMITED; none if it kept those): install
 * before the first event for it to be the start. Replacing a logger keeps
 * the log. LIBCC_ERR_INVALID_ARG (not a live RP), LIBCC_ERR_NOMEM. */
LIBCC_API int libcc_rp_set_decision_log(libcc_rp *rp, libcc_decision_fn fn, void *user_data);

/* ------------------------------------------------------------------ */
/* Flow attributes and plugins (since 0.7.0)                          */
/* ------------------------------------------------------------------ */

/* The ranges libcc_rp_init accepts for libcc_flow_info's fields
 * (line_rate, base_rtt, mtu), as a parameter table: names, units, ranges
 * and docs for parsers and messages. libcc_rp_init returns
 * LIBCC_ERR_OUT_OF_RANGE outside them. Static storage. */
LIBCC_API void libcc_flow_params(const libcc_param_desc **table, size_t *count);

/* Check a flow's attributes as libcc_rp_init does, without making an RP:
 * LIBCC_OK; LIBCC_ERR_OUT_OF_RANGE (the first field, in libcc_flow_params'
 * order, outside its row; a line_rate of 0 is missing, not out of range);
 * else LIBCC_ERR_INVALID_ARG (line_rate 0: none given, or flow NULL). So a
 * caller that does not know the line rate yet still hears of a bad base_rtt
 * or mtu. On an error a one-line reason naming the attribute, its
 * value and its range, e.g. "base_rtt 2s is outside [0ns, 1s]", goes
 * into err (may be NULL; cut to len). For callers that name the flow. */
LIBCC_API int libcc_flow_check(const libcc_flow_info *flow, char *err, size_t len);

/* Load a plugin (a shared object exporting LIBCC_PLUGIN_ENTRY, see
 * <libcc/algorithm.h>) and let it register its algorithms. The file stays
 * loaded for the life of the process. LIBCC_ERR_PLUGIN (cannot open, no
 * entry point) or what registration returned; a one-line message naming
 * the file and the reason goes into err (may be NULL). */
LIBCC_API int libcc_plugin_load(const char *path, char *err, size_t err_len);

/* ------------------------------------------------------------------ */
/* Notification Point (receiver, one per receiving NIC)               */
/* ------------------------------------------------------------------ */

typedef struct libcc_np libcc_np;

typedef struct libcc_np_info {
    uint32_t max_flows;     /* capacity of the flow table (allocated at creation) */
    uint32_t reserved;
    uint64_t line_rate_bps; /* receiver NIC rate */
    uint64_t base_rtt_ns;   /* T for receiver-side (Rx-HPCC) computation */
} libcc_np_info;

typedef struct libcc_np_callbacks {
    /* Send a CNP for this flow now (DCQCN). */
    void (*send_cnp)(libcc_np *np, uint64_t now_ns, uint64_t flow_id, void *user_data);
    /* See libcc_rp_callbacks.deadline_changed; call libcc_np_on_timer then. */
    void (*deadline_changed)(libcc_np *np, uint64_t deadline_ns, void *user_data);
} libcc_np_callbacks;

/* A data (or probe) packet as the receiver sees it. */
typedef struct libcc_data_pkt {
    uint64_t flow_id;
    uint64_t seq;          /* byte offset of the packet's first byte */
    uint32_t bytes;        /* payload bytes */
    uint8_t ecn_ce;        /* arrived CE-marked */
    uint8_t is_probe;      /* HPCC++ probe, not data */
    uint8_t last_of_flow;  /* final packet of the message: acknowledge now */
    uint8_t reserved;
    const libcc_int_list *int_list; /* hop list it collected; NULL: none */
    /* since 0.5.0; the NP echoes each present field into verdict->ack */
    uint32_t has;          /* LIBCC_PKT_HAS_* */
    uint8_t n_hops;        /* switches it crossed (IP TTL); 0: unknown */
    uint8_t reserved2;
    uint16_t pint;         /* its PINT field (LIBCC_SIGNAL_DATA_PINT) */
    uint64_t tx_ts_ns;     /* sender NIC's transmit timestamp it carries (sender's clock) */
    uint64_t rx_ts_ns;     /* this NIC's receive timestamp (receiver's clock) */
} libcc_data_pkt;

/* libcc_data_pkt.has */
#define LIBCC_PKT_HAS_TX_TS 0x1u /* tx_ts_ns -> ack.tx_ts_ns */
#define LIBCC_PKT_HAS_RX_TS 0x2u /* rx_ts_ns -> ack.remote_rx_ts_ns (the host adds remote_tx_ts_ns) */
#define LIBCC_PKT_HAS_PINT 0x4u  /* pint -> ack.pint */

/* What the NP wants the host to do about one data packet. */
typedef struct libcc_np_verdict {
    uint8_t send_ack;   /* send an ACK now, with `ack` below */
    uint8_t send_cnp;   /* a CNP was requested (also via callback) */
    uint16_t reserved;
    libcc_ack ack;      /* fields to put in the ACK; seq left to the host. ack.int_list is the
                         * data packet's own list (HPCC echo: valid while the caller of
                         * libcc_np_on_data still has the packet) or NULL (no hops to echo) */
} libcc_np_verdict;

LIBCC_API int libcc_np_new(libcc_np **out, const libcc_params *params, const libcc_np_info *info,
                           const libcc_np_callbacks *cbs, void *user_data);
LIBCC_API void libcc_np_del(libcc_np *np);
LIBCC_API int libcc_np_on_data(libcc_np *np, uint64_t now_ns, const libcc_data_pkt *pkt,
                               libcc_np_verdict *verdict);
/* The flow finished or was torn down: forget it now. */
LIBCC_API int libcc_np_flow_end(libcc_np *np, uint64_t now_ns, uint64_t flow_id);
LIBCC_API int libcc_np_on_timer(libcc_np *np, uint64_t now_ns);
/* Number of flows counted as concurrent at now_ns (FNCC's N). */
LIBCC_API uint32_t libcc_np_active_flows(const libcc_np *np, uint64_t now_ns);
LIBCC_API uint64_t libcc_np_deadline_ns(const libcc_np *np);

/* ------------------------------------------------------------------ */
/* Congestion Point (switch, one per egress port)                     */
/* ------------------------------------------------------------------ */

typedef struct libcc_cp libcc_cp;
typedef struct libcc_int_table libcc_int_table;

/* Host-supplied randomness: uniform 64-bit values. NULL: the CP's own
 * generator seeded with libcc_cp_info.seed. */
typedef uint64_t (*libcc_rand_fn)(void *user_data);

typedef struct libcc_cp_info {
    uint32_t switch_id;
    uint32_t port_id;
    uint64_t link_rate_bps;    /* this egress port's rate */
    uint64_t seed;             /* internal generator seed (when rand is NULL) */
    libcc_rand_fn rand;        /* optional host randomness */
    void *rand_user_data;
    libcc_int_table *int_table; /* FNCC: this switch's table (NULL otherwise) */
} libcc_cp_info;

typedef enum libcc_pkt_kind {
    LIBCC_PKT_DATA = 0,
    LIBCC_PKT_ACK,
    LIBCC_PKT_NACK,
    LIBCC_PKT_CNP,
    LIBCC_PKT_PROBE,
    LIBCC_PKT_OTHER,
} libcc_pkt_kind;

/* One packet passing the egress queue, and what the CP decides for it.
 * The CP decides from `kind` whether to stamp INT: the HPCC family stamps
 * DATA and PROBE packets that carry a header, FNCC stamps ACK and NACK. */
typedef struct libcc_cp_pkt {
    libcc_pkt_kind kind;
    uint32_t bytes;            /* wire bytes of the packet as it arrived (before any hop this CP adds) */
    uint32_t ingress_port;     /* port it entered the switch on (FNCC ACK tag) */
    uint64_t queue_bytes;      /* bytes in the egress queue of this packet's priority: before this
                                * packet is added (enqueue) / after it left (dequeue). ECN
                                * thresholds apply to it. */
    uint64_t port_queue_bytes; /* bytes in all queues of the egress port, same instants: INT's qLen */
    uint8_t ecn_capable;       /* ECT: may be marked */
    uint8_t mark_ce;           /* out: set CE */
    uint8_t int_stamped;       /* out: one hop was appended to *int_list */
    uint8_t reserved;
    libcc_int_list *int_list;  /* in/out: the INT header the packet carries, hops as the wire holds
                                * them; NULL: the packet carries none */
    /* since 0.5.0 */
    uint32_t has;              /* in: LIBCC_PKT_HAS_PINT: the packet carries a PINT field */
    uint16_t pint;             /* in/out: the PINT field (LIBCC_SIGNAL_DATA_PINT) */
    uint8_t send_feedback;     /* out: send a feedback packet with feedback_rate_bps to this
                                * packet's source (LIBCC_SIGNAL_CP_FEEDBACK) */
    uint8_t reserved2;
    uint64_t feedback_rate_bps; /* out: the rate for that feedback packet */
    /* since 0.6.0 */
    uint64_t flow_id;          /* in, with LIBCC_PKT_HAS_FLOW_ID: the host's identity of the
                                * packet's flow, the same at enqueue and dequeue (a packet
                                * given to on_enqueue with it is given to on_dequeue too,
                                * dropped or not: the flow stays counted until then); what
                                * libcc_cp_on_timer names in its feedback */
} libcc_cp_pkt;

/* libcc_cp_pkt.has (beside LIBCC_PKT_HAS_PINT): flow_id is set (since 0.6.0). */
#define LIBCC_PKT_HAS_FLOW_ID 0x8u

/* One feedback packet a CP asks for from libcc_cp_on_timer (since 0.6.0):
 * send rate_bps to the source of flow flow_id, as for send_feedback. */
typedef struct libcc_cp_feedback {
    uint64_t flow_id;
    uint64_t rate_bps;
} libcc_cp_feedback;

LIBCC_API int libcc_cp_new(libcc_cp **out, const libcc_params *params, const libcc_cp_info *info);
LIBCC_API void libcc_cp_del(libcc_cp *cp);
/* The packet joins the egress queue. */
LIBCC_API int libcc_cp_on_enqueue(libcc_cp *cp, uint64_t now_ns, libcc_cp_pkt *pkt);
/* The packet leaves the egress queue. A hop appended here is already in
 * the algorithm's wire precision (libcc_int_*_quantize), and the port's
 * txBytes grows by pkt->bytes plus the hop's wire bytes if one was appended. */
LIBCC_API int libcc_cp_on_dequeue(libcc_cp *cp, uint64_t now_ns, libcc_cp_pkt *pkt);
/* The port's current INT record at full precision (cumulative tx bytes
 * counted by the CP); qlen_bytes is copied into it. */
LIBCC_API int libcc_cp_int_record(const libcc_cp *cp, uint64_t now_ns, uint64_t qlen_bytes,
                                  libcc_int_hop *hop);
/* ECN marking probability at a queue_bytes (for tests and plots). */
LIBCC_API double libcc_cp_mark_probability(const libcc_cp *cp, uint64_t queue_bytes);

/* A CP's timer (since 0.6.0). Most algorithms' CPs have none: their
 * deadline is always LIBCC_NO_DEADLINE and the host schedules nothing. A
 * CP with one (RoCC: its fair rate is recomputed every period) starts with
 * deadline 0, "due now": the host calls libcc_cp_on_timer when it starts
 * the port, then again at or after each deadline the call leaves. The
 * deadline changes only in libcc_cp_on_timer, so the host reads it after
 * each call and never on the packet path. */
LIBCC_API uint64_t libcc_cp_deadline_ns(const libcc_cp *cp);
/* The most feedback entries one libcc_cp_on_timer writes (its algorithm's
 * per-port flow table, parameter max_flows for RoCC); 0 without a timer.
 * Size the host's array from it once. */
LIBCC_API size_t libcc_cp_max_feedback(const libcc_cp *cp);
/* The CP's timer fired at now_ns: it does what is due and writes the
 * feedback packets to send into out[0 .. *n_out) (one per flow it asks
 * for). Called before the deadline it does nothing (*n_out = 0).
 * LIBCC_ERR_INVALID_ARG (NULL cp or n_out, out NULL with out_len > 0),
 * LIBCC_ERR_BUFFER_TOO_SMALL (out_len < libcc_cp_max_feedback: nothing
 * done). */
LIBCC_API int libcc_cp_on_timer(libcc_cp *cp, uint64_t now_ns, libcc_cp_feedback *out,
                                size_t out_len, size_t *n_out);

/* FNCC All_INT_Table: one per switch, one entry per port. */
LIBCC_API int libcc_int_table_new(libcc_int_table **out, uint32_t n_ports);
LIBCC_API void libcc_int_table_del(libcc_int_table *table);
LIBCC_API int libcc_int_table_update(libcc_int_table *table, uint32_t port, const libcc_int_hop *hop);
LIBCC_API int libcc_int_table_get(const libcc_int_table *table, uint32_t port, libcc_int_hop *hop);

#ifdef __cplusplus
}
#endif

#endif /* LIBCC_LIBCC_H */
