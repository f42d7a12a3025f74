/* SPDX-License-Identifier: MIT */
/*
 * The two 8-byte INT hop encodings (docs/int-telemetry.md has the diagrams).
 * Both are one 64-bit word, fields packed from the most significant bit down
 * in the order rate, ts, txBytes, qLen, sent big-endian; they differ only in
 * the widths of the rate code and qLen and in the rate table, so one packer
 * driven by a layout serves both.
 */
#include <libcc/libcc.h>

#include <stddef.h>

#define GBPS UINT64_C(1000000000)

/* Both formats: 24-bit ts and 20-bit txBytes, which wrap (they are counters). */
#define WIRE_TS_BITS 24u
#define WIRE_TX_BITS 20u

typedef struct wire_layout {
    unsigned rate_bits;
    unsigned qlen_bits;
    /* rate code -> bits/s; 0 marks a code that must not appear on the wire */
    const uint64_t *rates;
    size_t n_rates;
} wire_layout;

/* The HPCC simulator's IntHop::lineRateValues: indices 5..7 are unused. */
static const uint64_t hpcc_rates[8] = {
    25 * GBPS, 50 * GBPS, 100 * GBPS, 200 * GBPS, 400 * GBPS, 0, 0, 0,
};

/* The FNCC paper gives 4 bits for B but no table. Code 0 is invalid so that
 * an all-zero (never written) entry cannot pass for a real port; 10..15 are
 * reserved for faster links. */
static const uint64_t fncc_rates[16] = {
    0,           10 * GBPS,   25 * GBPS,   40 * GBPS,   50 * GBPS, 100 * GBPS,
    200 * GBPS,  400 * GBPS,  800 * GBPS,  1600 * GBPS, 0,         0,
    0,           0,           0,           0,
};

static const wire_layout hpcc_layout = {3, 17, hpcc_rates, 8};
static const wire_layout fncc_layout = {4, 16, fncc_rates, 16};

static const libcc_int_wire_format hpcc_default = {1, 128, 80};
/* qLen unit 128 B: 16 bits then reach 65535 * 128 = 8,388,480 B, more than
 * a 400 Gbps port's share of today's shared buffers, while one tick stays
 * far below an MTU. ts and txBytes keep the HPCC units. */
static const libcc_int_wire_format fncc_default = {1, 128, 128};

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

static int wire_encode(const wire_layout *lay, const libcc_int_hop *hop,
                       const libcc_int_wire_format *fmt, uint8_t out[8])
{
    if (hop == NULL || out == NULL || !format_ok(fmt))
        return LIBCC_ERR_INVALID_ARG;

    uint64_t code = lay->n_rates;
    for (size_t i = 0; i < lay->n_rates; i++) {
        if (lay->rates[i] != 0 && lay->rates[i] == hop->bandwidth_bps) {
            code = i;
            break;
        }
    }
    if (code == lay->n_rates)
        return LIBCC_ERR_BAD_TELEMETRY;

    /* Truncating division, as the HPCC simulator does: a counter read with a
     * coarser tick shows the last whole tick. ts and txBytes keep only their
     * low bits (they wrap); qLen saturates, because a wrapped queue length
     * would report a huge queue as nearly empty. */
    uint64_t ts = (hop->ts_ns / fmt->ts_unit_ns) & mask(WIRE_TS_BITS);
    uint64_t tx = (hop->tx_bytes / fmt->bytes_unit) & mask(WIRE_TX_BITS);
    uint64_t q = hop->qlen_bytes / fmt->qlen_unit;
    if (q > mask(lay->qlen_bits))
        q = mask(lay->qlen_bits);

    uint64_t w = code << (64 - lay->rate_bits);
    w |= ts << (lay->qlen_bits + WIRE_TX_BITS);
    w |= tx << lay->qlen_bits;
    w |= q;
    for (unsigned i = 0; i < 8; i++)
        out[i] = (uint8_t)(w >> (56 - 8 * i));
    return LIBCC_OK;
}

static int wire_decode(const wire_layout *lay, const uint8_t in[8],
                       const libcc_int_wire_format *fmt, libcc_int_hop *hop)
{
    if (in == NULL || hop == NULL || !format_ok(fmt))
        return LIBCC_ERR_INVALID_ARG;

    uint64_t w = 0;
    for (unsigned i = 0; i < 8; i++)
        w = (w << 8) | in[i];

    uint64_t code = w >> (64 - lay->rate_bits);
    if (lay->rates[code] == 0)
        return LIBCC_ERR_BAD_TELEMETRY;

    uint64_t ts = (w >> (lay->qlen_bits + WIRE_TX_BITS)) & mask(WIRE_TS_BITS);
    uint64_t tx = (w >> lay->qlen_bits) & mask(WIRE_TX_BITS);
    uint64_t q = w & mask(lay->qlen_bits);

    /* Products fit: 2^24 ticks times a 32-bit unit is below 2^56. */
    hop->bandwidth_bps = lay->rates[code];
    hop->ts_ns = ts * fmt->ts_unit_ns;
    hop->tx_bytes = tx * fmt->bytes_unit;
    hop->qlen_bytes = q * fmt->qlen_unit;
    /* The 8 bytes carry no identity; zero rather than leave stale values. */
    hop->switch_id = 0;
    hop->port_id = 0;
    return LIBCC_OK;
}

int libcc_int_hpcc_encode(const libcc_int_hop *hop, const libcc_int_wire_format *fmt,
                          uint8_t out[8])
{
    return wire_encode(&hpcc_layout, hop, fmt != NULL ? fmt : &hpcc_default, out);
}

int libcc_int_hpcc_decode(const uint8_t in[8], const libcc_int_wire_format *fmt,
                          libcc_int_hop *hop)
{
    return wire_decode(&hpcc_layout, in, fmt != NULL ? fmt : &hpcc_default, hop);
}

int libcc_int_fncc_encode(const libcc_int_hop *hop, const libcc_int_wire_format *fmt,
                          uint8_t out[8])
{
    return wire_encode(&fncc_layout, hop, fmt != NULL ? fmt : &fncc_default, out);
}

int libcc_int_fncc_decode(const uint8_t in[8], const libcc_int_wire_format *fmt,
                          libcc_int_hop *hop)
{
    return wire_decode(&fncc_layout, in, fmt != NULL ? fmt : &fncc_default, hop);
}
