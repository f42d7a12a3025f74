/* SPDX-License-Identifier: MIT */
/* The INT wire codec, both formats (docs/int-telemetry.md). Input: a format
 * byte, 8 wire bytes, then optionally 3 unit bytes (a custom format) and a
 * hop's 4 fields.
 *   - decoding arbitrary bytes never crashes; what decodes re-encodes to the
 *     same 8 bytes (every bit of both layouts is a field: there is no other
 *     canonical form) and decodes again to the same hop;
 *   - a hop that encodes decodes to its quantization, and quantizing is
 *     idempotent. */
#include <libcc/libcc.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(c)                                                                                \
    do {                                                                                        \
        if (!(c))                                                                               \
            abort();                                                                            \
    } while (0)

typedef struct codec {
    int (*encode)(const libcc_int_hop *, const libcc_int_wire_format *, uint8_t[8]);
    int (*decode)(const uint8_t[8], const libcc_int_wire_format *, libcc_int_hop *);
    int (*quantize)(const libcc_int_hop *, const libcc_int_wire_format *, libcc_int_hop *);
} codec;

static const codec codecs[2] = {
    {libcc_int_hpcc_encode, libcc_int_hpcc_decode, libcc_int_hpcc_quantize},
    {libcc_int_fncc_encode, libcc_int_fncc_decode, libcc_int_fncc_quantize},
};

static int same_hop(const libcc_int_hop *a, const libcc_int_hop *b)
{
    return a->bandwidth_bps == b->bandwidth_bps && a->ts_ns == b->ts_ns &&
           a->tx_bytes == b->tx_bytes && a->qlen_bytes == b->qlen_bytes &&
           a->switch_id == b->switch_id && a->port_id == b->port_id;
}

static uint64_t get_u64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 9)
        return 0;
    const codec *c = &codecs[data[0] & 1];
    libcc_int_wire_format custom, *fmt = NULL;
    if (size >= 12) {
        /* units: powers of two for ts and txBytes (up to 2^15), any nonzero
         * qLen unit; invalid ones are refused, which is checked below too */
        custom.ts_unit_ns = 1u << (data[9] & 15);
        custom.bytes_unit = 1u << (data[10] & 15);
        custom.qlen_unit = data[11] ? data[11] : 80;
        if (data[0] & 2) {
            custom.ts_unit_ns = data[9];
            custom.bytes_unit = data[10];
        }
        fmt = &custom;
    }
    libcc_int_hop h, h2;
    uint8_t out[8];
    memset(&h, 0x5a, sizeof h);
    if (c->decode(data + 1, fmt, &h) == LIBCC_OK) {
        CHECK(c->encode(&h, fmt, out) == LIBCC_OK);
        CHECK(memcmp(out, data + 1, 8) == 0);
        CHECK(c->decode(out, fmt, &h2) == LIBCC_OK);
        CHECK(same_hop(&h, &h2));
    }
    if (size >= 12 + 32) {
        libcc_int_hop in, q, q2, d;
        memset(&in, 0, sizeof in);
        in.bandwidth_bps = get_u64(data + 12);
        in.ts_ns = get_u64(data + 20);
        in.tx_bytes = get_u64(data + 28);
        in.qlen_bytes = get_u64(data + 36);
        in.switch_id = 7;
        in.port_id = 9;
        if (data[0] & 4) /* mostly a rate the tables have */
            in.bandwidth_bps = (in.bandwidth_bps % 16) * 25000000000ull;
        int rc = c->encode(&in, fmt, out);
        CHECK(c->quantize(&in, fmt, &q) == rc);
        if (rc == LIBCC_OK) {
            CHECK(c->decode(out, fmt, &d) == LIBCC_OK);
            CHECK(same_hop(&d, &q));
            CHECK(c->quantize(&q, fmt, &q2) == LIBCC_OK);
            CHECK(same_hop(&q, &q2));
        }
    }
    return 0;
}
