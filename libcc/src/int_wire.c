/* SPDX-License-Identifier: MIT */
/*
 * The two 8-byte INT hop encodings (docs/int-telemetry.md has the diagrams).
 * Both are one 64-bit word, fields packed from the most significant bit down
 * in the order rate, ts, txBytes, qLen, sent big-endian; they differ only in
 * the widths of the rate code and qLen and in the rate table, so one packer
 * driven by a layout serves both.
 *
 * A switch encodes (and quantizes) once per data packet, so the per-call
 * cost matters: the layouts are compile-time constants and each public
 * function inlines the shared code twice, once with the format's default
 * units (what callers pass: NULL or a copy of the default) so divisions and
 * multiplications by them become shifts and constant multiplies, and once
 * with run-time units for custom formats, which are validated per call.
 */
#include "cc_internal.h"

#include <stddef.h>

#define GBPS UINT64_C(1000000000)

/* Both formats: 24-bit ts and 20-bit txBytes, which wrap (they are counters). */
#define WIRE_TS_BITS 24u
#define WIRE_TX_BITS 20u

/* The layout and the default units become constants only where the shared
 * code is inlined into each public function; GCC's size limits refuse that
 * for the decoder, so insist where the compiler offers a way. */
#if defined(__GNUC__)
#define WIRE_INLINE static inline __attribute__((always_inline))
#else
#define WIRE_INLINE static inline
#endif

/* The fields of one hop as they go on the wire, before packing. */
typedef struct wire_ticks {
    unsigned code;
    uint64_t ts;
    uint64_t tx;
    uint64_t q;
} wire_ticks;

typedef struct wire_layout {
    unsigned rate_bits;
    unsigned qlen_bits;
    /* rate code -> bits/s, 2^rate_bits entries; 0 marks a code that must not
     * appear on the wire */
    const uint64_t *rates;
    /* bits/s -> rate code, or -1: the inverse of rates, as compare chains
     * the compiler can lay out better than a search of the table */
    int (*rate_code)(uint64_t bps);
    const libcc_int_wire_format *defaults;
} wire_layout;

/* Codes 0..4 are the HPCC simulator's IntHop::lineRateValues, kept as they
 * are so hops stay compatible with it. The simulator leaves 5..7 unused;
 * libcc gives them to 10, 40 and 800 Gbps (a documented extension), so a
 * port of those common rates can carry INT instead of losing every hop. */
static const uint64_t hpcc_rates[8] = {
    25 * GBPS, 50 * GBPS, 100 * GBPS, 200 * GBPS, 400 * GBPS, 10 * GBPS, 40 * GBPS, 800 * GBPS,
};

/* The FNCC paper gives 4 bits for B but no table. Code 0 is invalid so that
 * an all-zero (never written) entry cannot pass for a real port; 10..15 are
 * reserved for faster links. */
static const uint64_t fncc_rates[16] = {
    0,           10 * GBPS,   25 * GBPS,   40 * GBPS,   50 * GBPS, 100 * GBPS,
    200 * GBPS,  400 * GBPS,  800 * GBPS,  1600 * GBPS, 0,         0,
    0,           0,           0,           0,
};

/* Must stay the inverse of hpcc_rates (the tests encode every code). */
WIRE_INLINE int hpcc_rate_code(uint64_t bps)
{
    switch (bps) {
    case 25 * GBPS:
        return 0;
    case 50 * GBPS:
        return 1;
    case 100 * GBPS:
        return 2;
    case 200 * GBPS:
        return 3;
    case 400 * GBPS:
        return 4;
    case 10 * GBPS:
        return 5;
    case 40 * GBPS:
        return 6;
    case 800 * GBPS:
        return 7;
    default:
        return -1;
    }
}

/* Must stay the inverse of fncc_rates (the tests encode every code). */
WIRE_INLINE int fncc_rate_code(uint64_t bps)
{
    switch (bps) {
    case 10 * GBPS:
        return 1;
    case 25 * GBPS:
        return 2;
    case 40 * GBPS:
        return 3;
    case 50 * GBPS:
        return 4;
    case 100 * GBPS:
        return 5;
    case 200 * GBPS:
        return 6;
    case 400 * GBPS:
        return 7;
    case 800 * GBPS:
        return 8;
    case 1600 * GBPS:
        return 9;
    default:
        return -1;
    }
}

static const libcc_int_wire_format hpcc_default = {1, 128, 80};
/* qLen unit 128 B: 16 bits then reach 65535 * 128 = 8,388,480 B, more than
 * a 400 Gbps port's share of today's shared buffers, while one tick stays
 * far below an MTU. ts and txBytes keep the HPCC units. */
static const libcc_int_wire_format fncc_default = {1, 128, 128};

static const wire_layout hpcc_layout = {3, 17, hpcc_rates, hpcc_rate_code, &hpcc_default};
static const wire_layout fncc_layout = {4, 16, fncc_rates, fncc_rate_code, &fncc_default};

void libcc_int_hpcc_format_default(libcc_int_wire_format *fmt)
{
    if (fmt != NULL)
        *fmt = hpcc_default;
}

void libcc_int_fncc_format_default(libcc_int_wire_format *fmt)
{
    if (fmt != NULL)
        *fmt = fncc_default;
}

static int is_pow2(unsigned v)
{
    return v != 0 && (v & (v - 1)) == 0;
}

static unsigned log2_pow2(unsigned v)
{
    unsigned n = 0;
    while (v > 1) {
        v >>= 1;
        n++;
    }
    return n;
}

/* ts and txBytes must be powers of two: a counter of ticks wraps at
 * 2^w ticks = 2^(w + log2 unit) base units only then, so decoded values can
 * be subtracted modulo a power of two (libcc_wrap_diff). qLen never wraps,
 * so any nonzero unit will do. */
static int format_ok(const libcc_int_wire_format *fmt)
{
    return is_pow2(fmt->ts_unit_ns) && is_pow2(fmt->bytes_unit) && fmt->qlen_unit != 0;
}

int libcc_int_wire_wrap_bits(const libcc_int_wire_format *fmt, unsigned *ts_bits,
                             unsigned *tx_bits)
{
    if (fmt == NULL || ts_bits == NULL || tx_bits == NULL || !format_ok(fmt))
        return LIBCC_ERR_INVALID_ARG;
    *ts_bits = WIRE_TS_BITS + log2_pow2(fmt->ts_unit_ns);
    *tx_bits = WIRE_TX_BITS + log2_pow2(fmt->bytes_unit);
    return LIBCC_OK;
}

static uint64_t mask(unsigned bits)
{
    return (UINT64_C(1) << bits) - 1;
}

/* The units to quantize with: the layout's defaults for NULL or a copy of
 * them (callers pass both), so that the code inlined for the defaults runs
 * with constant units; a custom format if valid; NULL if not. */
WIRE_INLINE const libcc_int_wire_format *checked_units(const wire_layout *lay,
                                                       const libcc_int_wire_format *fmt)
{
    const libcc_int_wire_format *def = lay->defaults;
    if (fmt == NULL || (fmt->ts_unit_ns == def->ts_unit_ns && fmt->bytes_unit == def->bytes_unit &&
                        fmt->qlen_unit == def->qlen_unit))
        return def;
    return format_ok(fmt) ? fmt : NULL;
}

/* Truncating division, as the HPCC simulator does: a counter read with a
 * coarser tick shows the last whole tick. ts and txBytes keep only their
 * low bits (they wrap); qLen saturates, because a wrapped queue length
 * would report a huge queue as nearly empty. */
static void units_to_ticks(const libcc_int_hop *hop, const libcc_int_wire_format *units,
                           unsigned qlen_bits, wire_ticks *t)
{
    uint64_t q = hop->qlen_bytes / units->qlen_unit;
    t->ts = (hop->ts_ns / units->ts_unit_ns) & mask(WIRE_TS_BITS);
    t->tx = (hop->tx_bytes / units->bytes_unit) & mask(WIRE_TX_BITS);
    t->q = q > mask(qlen_bits) ? mask(qlen_bits) : q;
}

/* Products fit: 2^24 ticks times a 32-bit unit is below 2^56. */
static void ticks_to_units(const wire_ticks *t, const libcc_int_wire_format *units,
                           libcc_int_hop *hop)
{
    hop->ts_ns = t->ts * units->ts_unit_ns;
    hop->tx_bytes = t->tx * units->bytes_unit;
    hop->qlen_bytes = t->q * units->qlen_unit;
}

/* Written byte by byte so the order does not depend on the host; compilers
 * turn both into one load or store and a byte swap. */
WIRE_INLINE void store_be64(uint8_t out[8], uint64_t w)
{
    out[0] = (uint8_t)(w >> 56);
    out[1] = (uint8_t)(w >> 48);
    out[2] = (uint8_t)(w >> 40);
    out[3] = (uint8_t)(w >> 32);
    out[4] = (uint8_t)(w >> 24);
    out[5] = (uint8_t)(w >> 16);
    out[6] = (uint8_t)(w >> 8);
    out[7] = (uint8_t)w;
}

WIRE_INLINE uint64_t load_be64(const uint8_t in[8])
{
    return (uint64_t)in[0] << 56 | (uint64_t)in[1] << 48 | (uint64_t)in[2] << 40 |
           (uint64_t)in[3] << 32 | (uint64_t)in[4] << 24 | (uint64_t)in[5] << 16 |
           (uint64_t)in[6] << 8 | (uint64_t)in[7];
}

/* hop -> the fields the encoder sends; LIBCC_ERR_BAD_TELEMETRY for a rate
 * not in the layout's table. */
WIRE_INLINE int hop_to_ticks(const wire_layout *lay, const libcc_int_hop *hop,
                             const libcc_int_wire_format *units, wire_ticks *t)
{
    int code = lay->rate_code(hop->bandwidth_bps);
    if (code < 0)
        return LIBCC_ERR_BAD_TELEMETRY;
    t->code = (unsigned)code;
    units_to_ticks(hop, units, lay->qlen_bits, t);
    return LIBCC_OK;
}

/* The fields the decoder received (code valid) -> hop. Reads t and units
 * before it writes hop. */
WIRE_INLINE void ticks_to_hop(const wire_layout *lay, const wire_ticks *t,
                              const libcc_int_wire_format *units, libcc_int_hop *hop)
{
    hop->bandwidth_bps = lay->rates[t->code];
    ticks_to_units(t, units, hop);
    /* The 8 bytes carry no identity; zero rather than leave stale values. */
    hop->switch_id = 0;
    hop->port_id = 0;
}

WIRE_INLINE int encode_in(const wire_layout *lay, const libcc_int_hop *hop,
                          const libcc_int_wire_format *units, uint8_t out[8])
{
    wire_ticks t;
    int rc = hop_to_ticks(lay, hop, units, &t);
    if (rc != LIBCC_OK)
        return rc;
    uint64_t w = (uint64_t)t.code << (64 - lay->rate_bits);
    w |= t.ts << (lay->qlen_bits + WIRE_TX_BITS);
    w |= t.tx << lay->qlen_bits;
    w |= t.q;
    store_be64(out, w);
    return LIBCC_OK;
}

WIRE_INLINE int decode_in(const wire_layout *lay, const uint8_t in[8],
                          const libcc_int_wire_format *units, libcc_int_hop *hop)
{
    uint64_t w = load_be64(in);
    wire_ticks t;
    t.code = (unsigned)(w >> (64 - lay->rate_bits));
    if (lay->rates[t.code] == 0)
        return LIBCC_ERR_BAD_TELEMETRY;
    t.ts = (w >> (lay->qlen_bits + WIRE_TX_BITS)) & mask(WIRE_TS_BITS);
    t.tx = (w >> lay->qlen_bits) & mask(WIRE_TX_BITS);
    t.q = w & mask(lay->qlen_bits);
    ticks_to_hop(lay, &t, units, hop);
    return LIBCC_OK;
}

/* decode(encode(hop)) without the 8 bytes in between: what a switch needs
 * to record a hop exactly as the wire will carry it. out may be hop. */
WIRE_INLINE int quantize_in(const wire_layout *lay, const libcc_int_hop *hop,
                            const libcc_int_wire_format *units, libcc_int_hop *out)
{
    wire_ticks t;
    int rc = hop_to_ticks(lay, hop, units, &t);
    if (rc == LIBCC_OK)
        ticks_to_hop(lay, &t, units, out);
    return rc;
}

/* In each of the following the *_in call is written twice on purpose: the
 * first copy runs with the layout's default units as constants, so its
 * divisions and multiplications by them become shifts and constant
 * multiplies. */

WIRE_INLINE int wire_encode(const wire_layout *lay, const libcc_int_hop *hop,
                            const libcc_int_wire_format *fmt, uint8_t out[8])
{
    if (hop == NULL || out == NULL)
        return LIBCC_ERR_INVALID_ARG;
    const libcc_int_wire_format *units = checked_units(lay, fmt);
    if (units == lay->defaults)
        return encode_in(lay, hop, lay->defaults, out);
    if (units == NULL)
        return LIBCC_ERR_INVALID_ARG;
    return encode_in(lay, hop, units, out);
}

WIRE_INLINE int wire_decode(const wire_layout *lay, const uint8_t in[8],
                            const libcc_int_wire_format *fmt, libcc_int_hop *hop)
{
    if (in == NULL || hop == NULL)
        return LIBCC_ERR_INVALID_ARG;
    const libcc_int_wire_format *units = checked_units(lay, fmt);
    if (units == lay->defaults)
        return decode_in(lay, in, lay->defaults, hop);
    if (units == NULL)
        return LIBCC_ERR_INVALID_ARG;
    return decode_in(lay, in, units, hop);
}

/* Same errors as the encoder, checked in the same order, so a caller can
 * swap encode + decode for this without a new failure mode. */
WIRE_INLINE int wire_quantize(const wire_layout *lay, const libcc_int_hop *hop,
                              const libcc_int_wire_format *fmt, libcc_int_hop *out)
{
    if (hop == NULL || out == NULL)
        return LIBCC_ERR_INVALID_ARG;
    const libcc_int_wire_format *units = checked_units(lay, fmt);
    if (units == lay->defaults)
        return quantize_in(lay, hop, lay->defaults, out);
    if (units == NULL)
        return LIBCC_ERR_INVALID_ARG;
    return quantize_in(lay, hop, units, out);
}

int libcc_int_rate_supported(libcc_int_format fmt, uint64_t bps)
{
    switch (fmt) {
    case LIBCC_INT_FORMAT_NONE:
        return 1; /* nothing to encode */
    case LIBCC_INT_FORMAT_HPCC:
        return hpcc_rate_code(bps) >= 0;
    case LIBCC_INT_FORMAT_FNCC:
        return fncc_rate_code(bps) >= 0;
    }
    return 0;
}

int libcc_int_hpcc_encode(const libcc_int_hop *hop, const libcc_int_wire_format *fmt,
                          uint8_t out[8])
{
    return wire_encode(&hpcc_layout, hop, fmt, out);
}

int libcc_int_hpcc_decode(const uint8_t in[8], const libcc_int_wire_format *fmt,
                          libcc_int_hop *hop)
{
    return wire_decode(&hpcc_layout, in, fmt, hop);
}

int libcc_int_fncc_encode(const libcc_int_hop *hop, const libcc_int_wire_format *fmt,
                          uint8_t out[8])
{
    return wire_encode(&fncc_layout, hop, fmt, out);
}

int libcc_int_fncc_decode(const uint8_t in[8], const libcc_int_wire_format *fmt,
                          libcc_int_hop *hop)
{
    return wire_decode(&fncc_layout, in, fmt, hop);
}

int libcc_int_hpcc_quantize(const libcc_int_hop *hop, const libcc_int_wire_format *fmt,
                            libcc_int_hop *out)
{
    return wire_quantize(&hpcc_layout, hop, fmt, out);
}

int libcc_int_fncc_quantize(const libcc_int_hop *hop, const libcc_int_wire_format *fmt,
                            libcc_int_hop *out)
{
    return wire_quantize(&fncc_layout, hop, fmt, out);
}

/* A switch stamping a packet: the hop as the wire will hold it, and the
 * list's widths as a decoder of that wire would set them, so the sender's
 * differences stay exact across a wrap. Inlined per layout so the default
 * units are constants, as in the public calls. */
WIRE_INLINE int push_wire_in(const wire_layout *lay, libcc_int_list *list, const libcc_int_hop *hop,
                             unsigned max_hops)
{
    libcc_int_hop q;
    int rc = quantize_in(lay, hop, lay->defaults, &q);
    if (rc == LIBCC_OK)
        rc = libcc_int_list_push(list, &q, max_hops);
    if (rc == LIBCC_OK) {
        list->ts_bits = (uint8_t)(WIRE_TS_BITS + log2_pow2(lay->defaults->ts_unit_ns));
        list->tx_bits = (uint8_t)(WIRE_TX_BITS + log2_pow2(lay->defaults->bytes_unit));
    }
    return rc;
}

int libcc_int_list_push_wire(libcc_int_list *list, libcc_int_format fmt, const libcc_int_hop *hop,
                             unsigned max_hops)
{
    if (list == NULL || hop == NULL)
        return LIBCC_ERR_INVALID_ARG;
    if (fmt == LIBCC_INT_FORMAT_HPCC)
        return push_wire_in(&hpcc_layout, list, hop, max_hops);
    if (fmt == LIBCC_INT_FORMAT_FNCC)
        return push_wire_in(&fncc_layout, list, hop, max_hops);
    return LIBCC_ERR_INVALID_ARG;
}
