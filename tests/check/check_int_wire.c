/* SPDX-License-Identifier: MIT */
/* The two 8-byte INT hop encodings. Layouts (docs/int-telemetry.md), 64-bit
 * word sent big-endian, fields from the most significant bit down:
 *   HPCC: rate code [63:61] | ts [60:37] | txBytes [36:17] | qLen [16:0]
 *   FNCC: B code    [63:60] | TS [59:36] | txBytes [35:16] | qLen [15:0]
 * Values decode as ticks * unit; quantization truncates. */
#include <check.h>
#include <string.h>

#include <libcc/libcc.h>

#define G UINT64_C(1000000000)

static libcc_int_hop hop4(uint64_t bw, uint64_t ts, uint64_t tx, uint64_t q)
{
    libcc_int_hop h;
    memset(&h, 0, sizeof(h));
    h.bandwidth_bps = bw;
    h.ts_ns = ts;
    h.tx_bytes = tx;
    h.qlen_bytes = q;
    h.switch_id = 11; /* not on the wire: decode must give 0 */
    h.port_id = 12;
    return h;
}

static libcc_int_hop sentinel(void)
{
    libcc_int_hop h;
    memset(&h, 0x5A, sizeof(h));
    return h;
}

START_TEST(test_default_formats)
{
    libcc_int_wire_format f;
    libcc_int_hpcc_format_default(&f);
    ck_assert_uint_eq(f.ts_unit_ns, 1);
    ck_assert_uint_eq(f.bytes_unit, 128);
    ck_assert_uint_eq(f.qlen_unit, 80);
    libcc_int_fncc_format_default(&f);
    ck_assert_uint_eq(f.ts_unit_ns, 1);
    ck_assert_uint_eq(f.bytes_unit, 128);
    ck_assert_uint_eq(f.qlen_unit, 128);
    libcc_int_hpcc_format_default(NULL); /* no crash */
    libcc_int_fncc_format_default(NULL);
}
END_TEST

/* HPCC hop by hand: 100 Gbps = index 2, ts 0x123456 ns, txBytes 0xABCDE
 * ticks (x128 B), qLen 0x1ABCD ticks (x80 B).
 *   rate  3 bits: 010
 *   ts   24 bits: 0001 0010 0011 0100 0101 0110
 *   tx   20 bits: 1010 1011 1100 1101 1110
 *   qLen 17 bits: 1 1010 1011 1100 1101
 * Concatenated and cut into bytes:
 *   01000010 01000110 10001010 11010101 01111001 10111101 10101011 11001101
 *   = 42 46 8A D5 79 BD AB CD */
START_TEST(test_hpcc_exact_bytes)
{
    static const uint8_t want[8] = {0x42, 0x46, 0x8A, 0xD5, 0x79, 0xBD, 0xAB, 0xCD};
    libcc_int_hop h = hop4(100 * G, 0x123456, UINT64_C(0xABCDE) * 128, UINT64_C(0x1ABCD) * 80);
    libcc_int_wire_format f;
    libcc_int_hpcc_format_default(&f);
    uint8_t out[8];
    ck_assert_int_eq(libcc_int_hpcc_encode(&h, &f, out), LIBCC_OK);
    ck_assert_mem_eq(out, want, 8);
    /* NULL format is the default format. */
    memset(out, 0, sizeof(out));
    ck_assert_int_eq(libcc_int_hpcc_encode(&h, NULL, out), LIBCC_OK);
    ck_assert_mem_eq(out, want, 8);

    libcc_int_hop d = sentinel();
    ck_assert_int_eq(libcc_int_hpcc_decode(want, &f, &d), LIBCC_OK);
    ck_assert_uint_eq(d.bandwidth_bps, 100 * G);
    ck_assert_uint_eq(d.ts_ns, 1193046);                /* 0x123456 */
    ck_assert_uint_eq(d.tx_bytes, UINT64_C(90074880));  /* 703710 * 128 */
    ck_assert_uint_eq(d.qlen_bytes, UINT64_C(8761360)); /* 109517 * 80 */
    ck_assert_uint_eq(d.switch_id, 0);
    ck_assert_uint_eq(d.port_id, 0);
}
END_TEST

/* FNCC entry by hand: all fields are whole nibbles (4+24+20+16), so
 * 100 Gbps = code 5, TS 0x123456, txBytes 0x789AB ticks (x128 B),
 * qLen 0xCDEF ticks (x128 B) read straight off as 0x5123456789ABCDEF:
 *   51 23 45 67 89 AB CD EF */
START_TEST(test_fncc_exact_bytes)
{
    static const uint8_t want[8] = {0x51, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF};
    libcc_int_hop h = hop4(100 * G, 0x123456, UINT64_C(0x789AB) * 128, UINT64_C(0xCDEF) * 128);
    uint8_t out[8];
    ck_assert_int_eq(libcc_int_fncc_encode(&h, NULL, out), LIBCC_OK);
    ck_assert_mem_eq(out, want, 8);

    libcc_int_hop d = sentinel();
    ck_assert_int_eq(libcc_int_fncc_decode(want, NULL, &d), LIBCC_OK);
    ck_assert_uint_eq(d.bandwidth_bps, 100 * G);
    ck_assert_uint_eq(d.ts_ns, 1193046);               /* 0x123456 */
    ck_assert_uint_eq(d.tx_bytes, UINT64_C(63231360)); /* 0x789AB = 493995, x 128 */
    ck_assert_uint_eq(d.qlen_bytes, UINT64_C(6748032)); /* 0xCDEF = 52719, x 128 */
    ck_assert_uint_eq(d.switch_id, 0);
    ck_assert_uint_eq(d.port_id, 0);
}
END_TEST

/* Every HPCC rate index by hand: the code is the top 3 bits of byte 0.
 * 0..4 are the HPCC simulator's 25/50/100/200/400 Gbps; libcc's extension
 * gives its unused 5, 6, 7 to 10, 40 and 800 Gbps. */
START_TEST(test_hpcc_rate_codes)
{
    static const uint64_t rate[8] = {25 * G, 50 * G, 100 * G, 200 * G, 400 * G, 10 * G, 40 * G, 800 * G};
    for (unsigned c = 0; c < 8; c++) {
        uint8_t in[8] = {(uint8_t)(c << 5), 0, 0, 0, 0, 0, 0, 0};
        libcc_int_hop d = sentinel();
        ck_assert_int_eq(libcc_int_hpcc_decode(in, NULL, &d), LIBCC_OK);
        ck_assert_uint_eq(d.bandwidth_bps, rate[c]);
        ck_assert_uint_eq(d.ts_ns, 0);
        uint8_t out[8];
        ck_assert_int_eq(libcc_int_hpcc_encode(&d, NULL, out), LIBCC_OK);
        ck_assert_mem_eq(out, in, 8);
    }
}
END_TEST

/* The documented FNCC code table: 1..9 = 10/25/40/50/100/200/400/800/1600 Gbps. */
START_TEST(test_fncc_rate_codes)
{
    static const uint64_t rate[10] = {0,       10 * G,  25 * G,  40 * G,  50 * G,
                                      100 * G, 200 * G, 400 * G, 800 * G, 1600 * G};
    for (unsigned c = 1; c <= 9; c++) {
        uint8_t in[8] = {(uint8_t)(c << 4), 0, 0, 0, 0, 0, 0, 0};
        libcc_int_hop d = sentinel();
        ck_assert_int_eq(libcc_int_fncc_decode(in, NULL, &d), LIBCC_OK);
        ck_assert_uint_eq(d.bandwidth_bps, rate[c]);
        uint8_t out[8];
        ck_assert_int_eq(libcc_int_fncc_encode(&d, NULL, out), LIBCC_OK);
        ck_assert_mem_eq(out, in, 8);
    }
}
END_TEST

/* Values that are whole multiples of the units survive exactly, at every
 * rate: ts 5000 ns (5000 ticks), txBytes 128000 (1000 x 128),
 * qLen 800 (10 x 80 for HPCC) or 1280 (10 x 128 for FNCC). */
START_TEST(test_roundtrip_exact)
{
    static const uint64_t hrate[8] = {25 * G, 50 * G, 100 * G, 200 * G, 400 * G, 10 * G, 40 * G, 800 * G};
    for (unsigned i = 0; i < 8; i++) {
        libcc_int_hop h = hop4(hrate[i], 5000, 128000, 800), d = sentinel();
        uint8_t w[8];
        ck_assert_int_eq(libcc_int_hpcc_encode(&h, NULL, w), LIBCC_OK);
        ck_assert_int_eq(libcc_int_hpcc_decode(w, NULL, &d), LIBCC_OK);
        ck_assert_uint_eq(d.bandwidth_bps, hrate[i]);
        ck_assert_uint_eq(d.ts_ns, 5000);
        ck_assert_uint_eq(d.tx_bytes, 128000);
        ck_assert_uint_eq(d.qlen_bytes, 800);
    }
    static const uint64_t frate[9] = {10 * G,  25 * G,  40 * G,  50 * G,  100 * G,
                                      200 * G, 400 * G, 800 * G, 1600 * G};
    for (unsigned i = 0; i < 9; i++) {
        libcc_int_hop h = hop4(frate[i], 5000, 128000, 1280), d = sentinel();
        uint8_t w[8];
        ck_assert_int_eq(libcc_int_fncc_encode(&h, NULL, w), LIBCC_OK);
        ck_assert_int_eq(libcc_int_fncc_decode(w, NULL, &d), LIBCC_OK);
        ck_assert_uint_eq(d.bandwidth_bps, frate[i]);
        ck_assert_uint_eq(d.ts_ns, 5000);
        ck_assert_uint_eq(d.tx_bytes, 128000);
        ck_assert_uint_eq(d.qlen_bytes, 1280);
    }
}
END_TEST

/* Quantization truncates (like the HPCC simulator's integer division):
 *   HPCC txBytes 1000 -> floor(1000/128) = 7 ticks -> 896 B
 *   HPCC qLen    1000 -> floor(1000/80) = 12 ticks -> 960 B
 *   FNCC qLen    1000 -> floor(1000/128) = 7 ticks -> 896 B
 *   custom units {4 ns, 256 B, 100 B}: ts 4003 -> 1000 ticks -> 4000 ns,
 *   txBytes 198912 = 777 x 256 exact, qLen 12345 -> 123 ticks -> 12300 B */
START_TEST(test_roundtrip_truncates)
{
    libcc_int_hop h = hop4(100 * G, 7, 1000, 1000), d = sentinel();
    uint8_t w[8];
    ck_assert_int_eq(libcc_int_hpcc_encode(&h, NULL, w), LIBCC_OK);
    ck_assert_int_eq(libcc_int_hpcc_decode(w, NULL, &d), LIBCC_OK);
    ck_assert_uint_eq(d.ts_ns, 7);
    ck_assert_uint_eq(d.tx_bytes, 896);
    ck_assert_uint_eq(d.qlen_bytes, 960);

    ck_assert_int_eq(libcc_int_fncc_encode(&h, NULL, w), LIBCC_OK);
    ck_assert_int_eq(libcc_int_fncc_decode(w, NULL, &d), LIBCC_OK);
    ck_assert_uint_eq(d.tx_bytes, 896);
    ck_assert_uint_eq(d.qlen_bytes, 896);

    libcc_int_wire_format f = {4, 256, 100};
    libcc_int_hop c = hop4(400 * G, 4003, 198912, 12345);
    ck_assert_int_eq(libcc_int_hpcc_encode(&c, &f, w), LIBCC_OK);
    ck_assert_int_eq(libcc_int_hpcc_decode(w, &f, &d), LIBCC_OK);
    ck_assert_uint_eq(d.ts_ns, 4000);
    ck_assert_uint_eq(d.tx_bytes, 198912);
    ck_assert_uint_eq(d.qlen_bytes, 12300);
    ck_assert_int_eq(libcc_int_fncc_encode(&c, &f, w), LIBCC_OK);
    ck_assert_int_eq(libcc_int_fncc_decode(w, &f, &d), LIBCC_OK);
    ck_assert_uint_eq(d.ts_ns, 4000);
    ck_assert_uint_eq(d.tx_bytes, 198912);
    ck_assert_uint_eq(d.qlen_bytes, 12300);
}
END_TEST

/* Wrap widths in base units: 24 + log2(ts unit), 20 + log2(bytes unit). */
START_TEST(test_wrap_bits)
{
    unsigned ts = 0, tx = 0;
    libcc_int_wire_format f;
    libcc_int_hpcc_format_default(&f); /* 1 ns, 128 B = 2^7 */
    ck_assert_int_eq(libcc_int_wire_wrap_bits(&f, &ts, &tx), LIBCC_OK);
    ck_assert_uint_eq(ts, 24);
    ck_assert_uint_eq(tx, 27);
    libcc_int_wire_format g = {8, 1024, 80}; /* 2^3 ns, 2^10 B */
    ck_assert_int_eq(libcc_int_wire_wrap_bits(&g, &ts, &tx), LIBCC_OK);
    ck_assert_uint_eq(ts, 27);
    ck_assert_uint_eq(tx, 30);
    libcc_int_wire_format one = {1, 1, 1};
    ck_assert_int_eq(libcc_int_wire_wrap_bits(&one, &ts, &tx), LIBCC_OK);
    ck_assert_uint_eq(ts, 24);
    ck_assert_uint_eq(tx, 20);
}
END_TEST

/* HPCC defaults across the wrap, the way an RP uses it.
 * ts: prev 2^24 - 10 = 16777206 ns; cur 2^24 + 5 = 16777221 ns is sent as
 *   tick 5; true gap 15 ns, and (5 - 16777206) mod 2^24 = 15.
 * tx: prev (2^20 - 2) x 128 = 134217472 B; cur (2^20 + 3) x 128 = 134218112 B
 *   is sent as tick 3 = 384 B; true gap 5 x 128 = 640 B, and
 *   (384 - 134217472) mod 2^27 = 384 + 134217728 - 134217472 = 640. */
START_TEST(test_hpcc_wraparound)
{
    libcc_int_hop prev = hop4(100 * G, 16777206, UINT64_C(134217472), 0);
    libcc_int_hop cur = hop4(100 * G, 16777221, UINT64_C(134218112), 0);
    uint8_t w[8];
    libcc_int_list l;
    libcc_int_list_init(&l);
    libcc_int_hop d;
    ck_assert_int_eq(libcc_int_hpcc_encode(&prev, NULL, w), LIBCC_OK);
    ck_assert_int_eq(libcc_int_hpcc_decode(w, NULL, &d), LIBCC_OK);
    ck_assert_int_eq(libcc_int_list_push(&l, &d, 0), LIBCC_OK);
    ck_assert_int_eq(libcc_int_hpcc_encode(&cur, NULL, w), LIBCC_OK);
    ck_assert_int_eq(libcc_int_hpcc_decode(w, NULL, &d), LIBCC_OK);
    ck_assert_int_eq(libcc_int_list_push(&l, &d, 0), LIBCC_OK);
    ck_assert_uint_eq(l.hop[1].ts_ns, 5);
    ck_assert_uint_eq(l.hop[1].tx_bytes, 384);

    libcc_int_wire_format f;
    libcc_int_hpcc_format_default(&f);
    unsigned tsb, txb;
    ck_assert_int_eq(libcc_int_wire_wrap_bits(&f, &tsb, &txb), LIBCC_OK);
    l.ts_bits = (uint8_t)tsb;
    l.tx_bits = (uint8_t)txb;
    ck_assert_uint_eq(libcc_wrap_diff(l.hop[1].ts_ns, l.hop[0].ts_ns, l.ts_bits), 15);
    ck_assert_uint_eq(libcc_wrap_diff(l.hop[1].tx_bytes, l.hop[0].tx_bytes, l.tx_bits), 640);
    /* Forgetting ts_bits/tx_bits (64) gives garbage: 2^64 - 134217088. */
    ck_assert_uint_eq(libcc_wrap_diff(l.hop[1].tx_bytes, l.hop[0].tx_bytes, 64),
                      UINT64_MAX - UINT64_C(134217088) + 1);
}
END_TEST

/* Why the width is 27 (base units), not the 20-bit field width: a gap of
 * 10000 ticks = 1280000 B > 2^20 B. prev (2^20 - 2) x 128 = 134217472 B,
 * cur prev + 1280000 -> tick (2^20 + 9998) mod 2^20 = 9998 -> 1279744 B.
 *   mod 2^27: 1279744 + 134217728 - 134217472 = 1280000 (right)
 *   mod 2^20: 1280000 - 1048576 = 231424 (wrong) */
START_TEST(test_hpcc_wrap_width_is_in_base_units)
{
    libcc_int_hop prev = hop4(400 * G, 0, UINT64_C(134217472), 0);
    libcc_int_hop cur = hop4(400 * G, 0, UINT64_C(134217472) + 1280000, 0);
    uint8_t w[8];
    libcc_int_hop dp, dc;
    ck_assert_int_eq(libcc_int_hpcc_encode(&prev, NULL, w), LIBCC_OK);
    ck_assert_int_eq(libcc_int_hpcc_decode(w, NULL, &dp), LIBCC_OK);
    ck_assert_int_eq(libcc_int_hpcc_encode(&cur, NULL, w), LIBCC_OK);
    ck_assert_int_eq(libcc_int_hpcc_decode(w, NULL, &dc), LIBCC_OK);
    ck_assert_uint_eq(dc.tx_bytes, 1279744);
    unsigned tsb, txb;
    libcc_int_wire_format f;
    libcc_int_hpcc_format_default(&f);
    ck_assert_int_eq(libcc_int_wire_wrap_bits(&f, &tsb, &txb), LIBCC_OK);
    ck_assert_uint_eq(libcc_wrap_diff(dc.tx_bytes, dp.tx_bytes, txb), 1280000);
    ck_assert_uint_eq(libcc_wrap_diff(dc.tx_bytes, dp.tx_bytes, 20), 231424);
}
END_TEST

/* FNCC with coarse power-of-two units {8 ns, 1024 B}.
 * ts: prev tick 2^24 - 1 = (2^24 - 1) x 8 = 134217720 ns; cur 2^27 + 8 =
 *   134217736 ns -> tick (2^24 + 1) mod 2^24 = 1 -> 8 ns. True gap 16 ns;
 *   (8 - 134217720) mod 2^27 = 8 + 134217728 - 134217720 = 16.
 * tx: prev (2^20 - 1) x 1024 = 1073740800 B; cur (2^20 + 4) x 1024 =
 *   1073745920 B -> tick 4 -> 4096 B. True gap 5120 B;
 *   (4096 - 1073740800) mod 2^30 = 4096 + 1073741824 - 1073740800 = 5120. */
START_TEST(test_fncc_wraparound_coarse_units)
{
    libcc_int_wire_format f = {8, 1024, 128};
    libcc_int_hop prev = hop4(400 * G, UINT64_C(134217720), UINT64_C(1073740800), 0);
    libcc_int_hop cur = hop4(400 * G, UINT64_C(134217736), UINT64_C(1073745920), 0);
    uint8_t w[8];
    libcc_int_hop dp, dc;
    ck_assert_int_eq(libcc_int_fncc_encode(&prev, &f, w), LIBCC_OK);
    ck_assert_int_eq(libcc_int_fncc_decode(w, &f, &dp), LIBCC_OK);
    ck_assert_int_eq(libcc_int_fncc_encode(&cur, &f, w), LIBCC_OK);
    ck_assert_int_eq(libcc_int_fncc_decode(w, &f, &dc), LIBCC_OK);
    ck_assert_uint_eq(dp.ts_ns, UINT64_C(134217720));
    ck_assert_uint_eq(dc.ts_ns, 8);
    ck_assert_uint_eq(dc.tx_bytes, 4096);
    unsigned tsb, txb;
    ck_assert_int_eq(libcc_int_wire_wrap_bits(&f, &tsb, &txb), LIBCC_OK);
    ck_assert_uint_eq(libcc_wrap_diff(dc.ts_ns, dp.ts_ns, tsb), 16);
    ck_assert_uint_eq(libcc_wrap_diff(dc.tx_bytes, dp.tx_bytes, txb), 5120);
}
END_TEST

/* ts and txBytes wrap at encode (counters): ts 2^24 + 7 -> 7 ns;
 * txBytes (2^20 + 3) x 128 -> 3 ticks -> 384 B. */
START_TEST(test_counters_wrap_not_saturate)
{
    libcc_int_hop h = hop4(50 * G, 16777216 + 7, (UINT64_C(1048576) + 3) * 128, 0), d;
    uint8_t w[8];
    ck_assert_int_eq(libcc_int_hpcc_encode(&h, NULL, w), LIBCC_OK);
    ck_assert_int_eq(libcc_int_hpcc_decode(w, NULL, &d), LIBCC_OK);
    ck_assert_uint_eq(d.ts_ns, 7);
    ck_assert_uint_eq(d.tx_bytes, 384);
    ck_assert_int_eq(libcc_int_fncc_encode(&h, NULL, w), LIBCC_OK);
    ck_assert_int_eq(libcc_int_fncc_decode(w, NULL, &d), LIBCC_OK);
    ck_assert_uint_eq(d.ts_ns, 7);
    ck_assert_uint_eq(d.tx_bytes, 384);
}
END_TEST

/* qLen saturates. HPCC: 17 bits, max 131071 x 80 = 10485680 B; one tick
 * more (131072 x 80 = 10485760 B, which would wrap to 0) and 50 MB both read
 * 10485680, and the low 17 bits of the word are all ones. */
START_TEST(test_hpcc_qlen_saturates)
{
    static const uint64_t q[3] = {UINT64_C(10485680), UINT64_C(10485760), UINT64_C(50000000)};
    for (unsigned i = 0; i < 3; i++) {
        libcc_int_hop h = hop4(400 * G, 0, 0, q[i]), d;
        uint8_t w[8];
        ck_assert_int_eq(libcc_int_hpcc_encode(&h, NULL, w), LIBCC_OK);
        ck_assert_uint_eq(w[7], 0xFF);
        ck_assert_uint_eq(w[6], 0xFF);
        ck_assert_uint_eq(w[5] & 0x01, 0x01);
        ck_assert_uint_eq(w[5] & 0x02, 0); /* txBytes' lowest bit untouched */
        ck_assert_int_eq(libcc_int_hpcc_decode(w, NULL, &d), LIBCC_OK);
        ck_assert_uint_eq(d.qlen_bytes, UINT64_C(10485680));
        ck_assert_uint_eq(d.tx_bytes, 0);
    }
}
END_TEST

/* FNCC: 16 bits x 128 B. A 400 Gbps port's 4 MB queue fits exactly
 * (4000000 / 128 = 31250 ticks); max 65535 x 128 = 8388480 B, and 20 MB
 * saturates there with bytes 6-7 = FF FF. */
START_TEST(test_fncc_qlen_range_and_saturation)
{
    libcc_int_hop h = hop4(400 * G, 0, 0, UINT64_C(4000000)), d;
    uint8_t w[8];
    ck_assert_int_eq(libcc_int_fncc_encode(&h, NULL, w), LIBCC_OK);
    ck_assert_int_eq(libcc_int_fncc_decode(w, NULL, &d), LIBCC_OK);
    ck_assert_uint_eq(d.qlen_bytes, UINT64_C(4000000));
    h.qlen_bytes = UINT64_C(20000000);
    ck_assert_int_eq(libcc_int_fncc_encode(&h, NULL, w), LIBCC_OK);
    ck_assert_uint_eq(w[6], 0xFF);
    ck_assert_uint_eq(w[7], 0xFF);
    ck_assert_uint_eq(w[5], 0x00); /* txBytes low byte still 0 */
    ck_assert_int_eq(libcc_int_fncc_decode(w, NULL, &d), LIBCC_OK);
    ck_assert_uint_eq(d.qlen_bytes, UINT64_C(8388480));
}
END_TEST

/* HPCC index 5, 6, 7 (byte 0 = A0, C0, E0), unused by the simulator, are
 * libcc's 10, 40 and 800 Gbps: with them every 3-bit code names a rate. */
START_TEST(test_hpcc_extension_codes)
{
    static const uint8_t b0[3] = {0xA0, 0xC0, 0xE0};
    static const uint64_t rate[3] = {10 * G, 40 * G, 800 * G};
    for (unsigned i = 0; i < 3; i++) {
        uint8_t in[8] = {b0[i], 0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE};
        libcc_int_hop d = sentinel();
        ck_assert_int_eq(libcc_int_hpcc_decode(in, NULL, &d), LIBCC_OK);
        ck_assert_uint_eq(d.bandwidth_bps, rate[i]);
    }
}
END_TEST

/* Which port rates each format can describe: the code tables of
 * docs/int-telemetry.md, and nothing else (150 Gbps, a rate between two
 * codes, 1 b/s off a code, 0). NONE carries no rate: every port is fine. */
START_TEST(test_rate_supported)
{
    static const uint64_t hpcc_ok[8] = {25 * G, 50 * G, 100 * G, 200 * G, 400 * G, 10 * G, 40 * G, 800 * G};
    static const uint64_t fncc_ok[9] = {10 * G,  25 * G,  40 * G,  50 * G,  100 * G,
                                        200 * G, 400 * G, 800 * G, 1600 * G};
    static const uint64_t neither[4] = {0, 150 * G, 100 * G + 1, 3200 * G};
    for (unsigned i = 0; i < 8; i++)
        ck_assert_int_eq(libcc_int_rate_supported(LIBCC_INT_FORMAT_HPCC, hpcc_ok[i]), 1);
    for (unsigned i = 0; i < 9; i++)
        ck_assert_int_eq(libcc_int_rate_supported(LIBCC_INT_FORMAT_FNCC, fncc_ok[i]), 1);
    for (unsigned i = 0; i < 4; i++) {
        ck_assert_int_eq(libcc_int_rate_supported(LIBCC_INT_FORMAT_HPCC, neither[i]), 0);
        ck_assert_int_eq(libcc_int_rate_supported(LIBCC_INT_FORMAT_FNCC, neither[i]), 0);
        ck_assert_int_eq(libcc_int_rate_supported(LIBCC_INT_FORMAT_NONE, neither[i]), 1);
    }
    /* 1600 Gbps has an FNCC code only. */
    ck_assert_int_eq(libcc_int_rate_supported(LIBCC_INT_FORMAT_HPCC, 1600 * G), 0);
    ck_assert_int_eq(libcc_int_rate_supported((libcc_int_format)7, 100 * G), 0);
}
END_TEST

/* FNCC code 0 (byte 0 = 0x, e.g. a never-written all-zero entry) and
 * reserved 10..15 (byte 0 = Ax..Fx) are rejected, hop untouched. */
START_TEST(test_fncc_invalid_rate_code)
{
    static const uint8_t b0[4] = {0x00, 0x0F, 0xA0, 0xF5};
    for (unsigned i = 0; i < 4; i++) {
        uint8_t in[8] = {b0[i], 0, 0, 0, 0, 0, 0, 0};
        libcc_int_hop d = sentinel(), s = sentinel();
        ck_assert_int_eq(libcc_int_fncc_decode(in, NULL, &d), LIBCC_ERR_BAD_TELEMETRY);
        ck_assert_mem_eq(&d, &s, sizeof(d));
    }
}
END_TEST

/* Rates outside each table cannot be encoded; out is left untouched. */
START_TEST(test_encode_rate_not_in_table)
{
    static const uint64_t hbad[5] = {0, 30 * G, 150 * G, 100 * G + 1, 1600 * G};
    static const uint64_t fbad[4] = {0, 1 * G, 30 * G, 3200 * G};
    uint8_t w[8], s[8];
    memset(s, 0x77, sizeof(s));
    for (unsigned i = 0; i < 5; i++) {
        libcc_int_hop h = hop4(hbad[i], 1, 128, 80);
        memcpy(w, s, sizeof(w));
        ck_assert_int_eq(libcc_int_hpcc_encode(&h, NULL, w), LIBCC_ERR_BAD_TELEMETRY);
        ck_assert_mem_eq(w, s, 8);
    }
    for (unsigned i = 0; i < 4; i++) {
        libcc_int_hop h = hop4(fbad[i], 1, 128, 128);
        memcpy(w, s, sizeof(w));
        ck_assert_int_eq(libcc_int_fncc_encode(&h, NULL, w), LIBCC_ERR_BAD_TELEMETRY);
        ck_assert_mem_eq(w, s, 8);
    }
}
END_TEST

START_TEST(test_null_args)
{
    libcc_int_hop h = hop4(100 * G, 1, 128, 80), d = sentinel();
    uint8_t w[8] = {0x40, 0, 0, 0, 0, 0, 0, 0};
    ck_assert_int_eq(libcc_int_hpcc_encode(NULL, NULL, w), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_hpcc_encode(&h, NULL, NULL), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_hpcc_decode(NULL, NULL, &d), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_hpcc_decode(w, NULL, NULL), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_fncc_encode(NULL, NULL, w), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_fncc_encode(&h, NULL, NULL), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_fncc_decode(NULL, NULL, &d), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_fncc_decode(w, NULL, NULL), LIBCC_ERR_INVALID_ARG);
    unsigned a, b;
    libcc_int_wire_format f;
    libcc_int_hpcc_format_default(&f);
    ck_assert_int_eq(libcc_int_wire_wrap_bits(NULL, &a, &b), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_wire_wrap_bits(&f, NULL, &b), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_wire_wrap_bits(&f, &a, NULL), LIBCC_ERR_INVALID_ARG);
}
END_TEST

/* Units: ts and txBytes must be nonzero powers of two (so wraps stay exact
 * in base units), qLen any nonzero value. */
START_TEST(test_bad_formats)
{
    static const libcc_int_wire_format bad[5] = {
        {0, 128, 80}, {3, 128, 80}, {1, 0, 80}, {1, 100, 80}, {1, 128, 0},
    };
    libcc_int_hop h = hop4(100 * G, 1, 128, 80), d = sentinel(), s = sentinel();
    uint8_t w[8] = {0x40, 0, 0, 0, 0, 0, 0, 0};
    uint8_t fw[8] = {0x50, 0, 0, 0, 0, 0, 0, 0};
    unsigned a, b;
    for (unsigned i = 0; i < 5; i++) {
        uint8_t out[8];
        ck_assert_int_eq(libcc_int_hpcc_encode(&h, &bad[i], out), LIBCC_ERR_INVALID_ARG);
        ck_assert_int_eq(libcc_int_fncc_encode(&h, &bad[i], out), LIBCC_ERR_INVALID_ARG);
        ck_assert_int_eq(libcc_int_hpcc_decode(w, &bad[i], &d), LIBCC_ERR_INVALID_ARG);
        ck_assert_int_eq(libcc_int_fncc_decode(fw, &bad[i], &d), LIBCC_ERR_INVALID_ARG);
        ck_assert_int_eq(libcc_int_wire_wrap_bits(&bad[i], &a, &b), LIBCC_ERR_INVALID_ARG);
        ck_assert_mem_eq(&d, &s, sizeof(d));
    }
    /* A non-power-of-two qLen unit is fine: 80 B is the HPCC default. */
    libcc_int_wire_format ok = {2, 64, 100};
    ck_assert_int_eq(libcc_int_wire_wrap_bits(&ok, &a, &b), LIBCC_OK);
}
END_TEST

/* Every rate code in a word whose other fields are nonzero, hand-packed:
 * ts 1 tick, txBytes 1 tick, qLen 1 tick.
 *   HPCC: code << 61 | 1 << 37 | 1 << 17 | 1. Byte 0 holds bits 63..56, so
 *   the code is byte 0 = code << 5; bit 37 is bit 5 of byte 3 (bits
 *   39..32) = 0x20; bit 17 is bit 1 of byte 5 (bits 23..16) = 0x02; bit 0
 *   is byte 7 = 0x01.
 *   FNCC: code << 60 | 1 << 36 | 1 << 16 | 1: byte 0 = code << 4, byte 3 =
 *   0x10 (bit 36), byte 5 = 0x01 (bit 16), byte 7 = 0x01.
 * Encoding must find each rate's code, and one unit more or less than the
 * rate must be refused. */
typedef int (*hop_encode_fn)(const libcc_int_hop *, const libcc_int_wire_format *, uint8_t[8]);
typedef int (*hop_decode_fn)(const uint8_t[8], const libcc_int_wire_format *, libcc_int_hop *);

/* One rate of a format: the hop {rate, ts 1, one tx tick, one qLen tick}
 * packs to want and decodes back; the rate +-1 has no code. */
static void check_rate_code(hop_encode_fn enc, hop_decode_fn dec, uint64_t rate, uint64_t qlen_unit,
                            const uint8_t want[8])
{
    libcc_int_hop h = hop4(rate, 1, 128, qlen_unit), d = sentinel();
    uint8_t w[8];
    ck_assert_int_eq(enc(&h, NULL, w), LIBCC_OK);
    ck_assert_mem_eq(w, want, 8);
    ck_assert_int_eq(dec(want, NULL, &d), LIBCC_OK);
    ck_assert_uint_eq(d.bandwidth_bps, rate);
    ck_assert_uint_eq(d.ts_ns, 1);
    ck_assert_uint_eq(d.tx_bytes, 128);
    ck_assert_uint_eq(d.qlen_bytes, qlen_unit);
    h.bandwidth_bps = rate - 1;
    ck_assert_int_eq(enc(&h, NULL, w), LIBCC_ERR_BAD_TELEMETRY);
    h.bandwidth_bps = rate + 1;
    ck_assert_int_eq(enc(&h, NULL, w), LIBCC_ERR_BAD_TELEMETRY);
}

START_TEST(test_every_rate_code_packed)
{
    static const uint64_t hrate[8] = {25 * G, 50 * G, 100 * G, 200 * G, 400 * G, 10 * G, 40 * G, 800 * G};
    for (unsigned c = 0; c < 8; c++) {
        const uint8_t want[8] = {(uint8_t)(c << 5), 0, 0, 0x20, 0, 0x02, 0, 0x01};
        check_rate_code(libcc_int_hpcc_encode, libcc_int_hpcc_decode, hrate[c], 80, want);
    }
    static const uint64_t frate[10] = {0,       10 * G,  25 * G,  40 * G,  50 * G,
                                       100 * G, 200 * G, 400 * G, 800 * G, 1600 * G};
    for (unsigned c = 1; c <= 9; c++) {
        const uint8_t want[8] = {(uint8_t)(c << 4), 0, 0, 0x10, 0, 0x01, 0, 0x01};
        check_rate_code(libcc_int_fncc_encode, libcc_int_fncc_decode, frate[c], 128, want);
    }
}
END_TEST

/* Custom units {4 ns, 256 B, 100 B}, hand-packed. Hop: 400 Gbps, ts 4003 ns
 * -> 1000 ticks = 0x3E8, txBytes 198912 = 777 x 256 -> 0x309, qLen 12345 ->
 * 123 ticks = 0x7B.
 *   HPCC (code 4): 4 << 61 = 0x8000000000000000; 0x3E8 << 37 = (0x3E8 << 5)
 *   << 32 = 0x7D00 << 32; 0x309 << 17 = 0x612 << 16 = 0x06120000; 0x7B.
 *   Sum 0x80007D000612007B.
 *   FNCC (code 7): 7 << 60 = 0x7000000000000000; 0x3E8 << 36 = 0x3E80 << 32;
 *   0x309 << 16 = 0x03090000; 0x7B. Sum 0x70003E800309007B.
 * Both decode to ts 4000, txBytes 198912, qLen 12300. */
START_TEST(test_custom_format_exact_bytes)
{
    static const uint8_t hwant[8] = {0x80, 0x00, 0x7D, 0x00, 0x06, 0x12, 0x00, 0x7B};
    static const uint8_t fwant[8] = {0x70, 0x00, 0x3E, 0x80, 0x03, 0x09, 0x00, 0x7B};
    libcc_int_wire_format f = {4, 256, 100};
    libcc_int_hop h = hop4(400 * G, 4003, 198912, 12345), d = sentinel();
    uint8_t w[8];
    ck_assert_int_eq(libcc_int_hpcc_encode(&h, &f, w), LIBCC_OK);
    ck_assert_mem_eq(w, hwant, 8);
    ck_assert_int_eq(libcc_int_hpcc_decode(hwant, &f, &d), LIBCC_OK);
    ck_assert_uint_eq(d.bandwidth_bps, 400 * G);
    ck_assert_uint_eq(d.ts_ns, 4000);
    ck_assert_uint_eq(d.tx_bytes, 198912);
    ck_assert_uint_eq(d.qlen_bytes, 12300);
    ck_assert_uint_eq(d.switch_id, 0);
    ck_assert_uint_eq(d.port_id, 0);

    d = sentinel();
    ck_assert_int_eq(libcc_int_fncc_encode(&h, &f, w), LIBCC_OK);
    ck_assert_mem_eq(w, fwant, 8);
    ck_assert_int_eq(libcc_int_fncc_decode(fwant, &f, &d), LIBCC_OK);
    ck_assert_uint_eq(d.bandwidth_bps, 400 * G);
    ck_assert_uint_eq(d.ts_ns, 4000);
    ck_assert_uint_eq(d.tx_bytes, 198912);
    ck_assert_uint_eq(d.qlen_bytes, 12300);
    ck_assert_uint_eq(d.switch_id, 0);
    ck_assert_uint_eq(d.port_id, 0);
}
END_TEST

/* A format that differs from the default in one unit only is a custom
 * format, not the default (the codec has a fast path for the default, so
 * each unit must be compared). HPCC default {1, 128, 80}; hop 100 Gbps,
 * ts 7, txBytes 1000, qLen 8100:
 *   default:      7 ns, 7 x 128 = 896 B,  101 x 80 = 8080 B
 *   {2, 128, 80}: 3 x 2 = 6 ns (7 / 2 = 3), 896 B, 8080 B
 *   {1, 256, 80}: 7 ns, 3 x 256 = 768 B (1000 / 256 = 3), 8080 B
 *   {1, 128, 81}: 7 ns, 896 B, 100 x 81 = 8100 B (8100 / 81 = 100)
 * FNCC default {1, 128, 128}; qLen 1270 with {1, 128, 127}: 10 x 127 =
 * 1270 B, where the default gives 9 x 128 = 1152 B. The default passed as a
 * copy gives the same as NULL. */
START_TEST(test_near_default_formats_are_custom)
{
    static const libcc_int_wire_format hf[4] = {{1, 128, 80}, {2, 128, 80}, {1, 256, 80}, {1, 128, 81}};
    static const uint64_t ts[4] = {7, 6, 7, 7};
    static const uint64_t tx[4] = {896, 896, 768, 896};
    static const uint64_t q[4] = {8080, 8080, 8080, 8100};
    libcc_int_hop h = hop4(100 * G, 7, 1000, 8100);
    for (unsigned i = 0; i < 4; i++) {
        uint8_t w[8];
        libcc_int_hop d = sentinel();
        ck_assert_int_eq(libcc_int_hpcc_encode(&h, &hf[i], w), LIBCC_OK);
        ck_assert_int_eq(libcc_int_hpcc_decode(w, &hf[i], &d), LIBCC_OK);
        ck_assert_uint_eq(d.ts_ns, ts[i]);
        ck_assert_uint_eq(d.tx_bytes, tx[i]);
        ck_assert_uint_eq(d.qlen_bytes, q[i]);
    }
    libcc_int_wire_format fdef, fq = {1, 128, 127};
    libcc_int_fncc_format_default(&fdef);
    libcc_int_hop g = hop4(100 * G, 0, 0, 1270), d = sentinel();
    uint8_t w[8];
    ck_assert_int_eq(libcc_int_fncc_encode(&g, &fq, w), LIBCC_OK);
    ck_assert_uint_eq(w[7], 10);
    ck_assert_int_eq(libcc_int_fncc_decode(w, &fq, &d), LIBCC_OK);
    ck_assert_uint_eq(d.qlen_bytes, 1270);
    ck_assert_int_eq(libcc_int_fncc_encode(&g, &fdef, w), LIBCC_OK);
    ck_assert_uint_eq(w[7], 9);
    ck_assert_int_eq(libcc_int_fncc_decode(w, &fdef, &d), LIBCC_OK);
    ck_assert_uint_eq(d.qlen_bytes, 1152);
    ck_assert_int_eq(libcc_int_fncc_encode(&g, NULL, w), LIBCC_OK);
    ck_assert_uint_eq(w[7], 9);
}
END_TEST

/* ts at the 24-bit wrap, default units (1 ns), HPCC 100 Gbps (code 2):
 *   ts 2^24 - 1 = 16777215 -> ts field all ones, bits 60..37:
 *   byte 0 = 010 11111 = 0x5F, bytes 1-2 = FF FF, byte 3 = bits 39..37 set
 *   = 1110 0000 = 0xE0, rest 0; decodes to 16777215.
 *   ts 2^24 = 16777216 -> field 0: 40 00 00 00 00 00 00 00, decodes to 0.
 * Coarse custom units {4 ns, 256 B, 80 B}: the wrap is at 2^24 ticks =
 * 2^26 ns and 2^20 ticks = 2^28 B.
 *   ts 67108863 = 4 x 16777215 + 3 -> tick 16777215 -> 67108860 ns
 *   ts 67108864 = 4 x 2^24 -> tick 0 -> 0 ns
 *   txBytes 268435455 = 256 x 1048575 + 255 -> 268435200 B
 *   txBytes 268435456 = 256 x 2^20 -> 0 B */
START_TEST(test_ts_wrap_boundary)
{
    static const uint8_t top[8] = {0x5F, 0xFF, 0xFF, 0xE0, 0, 0, 0, 0};
    static const uint8_t zero[8] = {0x40, 0, 0, 0, 0, 0, 0, 0};
    libcc_int_hop h = hop4(100 * G, 16777215, 0, 0), d = sentinel();
    uint8_t w[8];
    ck_assert_int_eq(libcc_int_hpcc_encode(&h, NULL, w), LIBCC_OK);
    ck_assert_mem_eq(w, top, 8);
    ck_assert_int_eq(libcc_int_hpcc_decode(w, NULL, &d), LIBCC_OK);
    ck_assert_uint_eq(d.ts_ns, 16777215);
    h.ts_ns = 16777216;
    ck_assert_int_eq(libcc_int_hpcc_encode(&h, NULL, w), LIBCC_OK);
    ck_assert_mem_eq(w, zero, 8);
    ck_assert_int_eq(libcc_int_hpcc_decode(w, NULL, &d), LIBCC_OK);
    ck_assert_uint_eq(d.ts_ns, 0);

    libcc_int_wire_format f = {4, 256, 80};
    libcc_int_hop c = hop4(100 * G, UINT64_C(67108863), UINT64_C(268435455), 0);
    ck_assert_int_eq(libcc_int_hpcc_encode(&c, &f, w), LIBCC_OK);
    ck_assert_int_eq(libcc_int_hpcc_decode(w, &f, &d), LIBCC_OK);
    ck_assert_uint_eq(d.ts_ns, UINT64_C(67108860));
    ck_assert_uint_eq(d.tx_bytes, UINT64_C(268435200));
    ck_assert_int_eq(libcc_int_fncc_encode(&c, &f, w), LIBCC_OK);
    ck_assert_int_eq(libcc_int_fncc_decode(w, &f, &d), LIBCC_OK);
    ck_assert_uint_eq(d.ts_ns, UINT64_C(67108860));
    ck_assert_uint_eq(d.tx_bytes, UINT64_C(268435200));
    c.ts_ns = UINT64_C(67108864);
    c.tx_bytes = UINT64_C(268435456);
    ck_assert_int_eq(libcc_int_hpcc_encode(&c, &f, w), LIBCC_OK);
    ck_assert_int_eq(libcc_int_hpcc_decode(w, &f, &d), LIBCC_OK);
    ck_assert_uint_eq(d.ts_ns, 0);
    ck_assert_uint_eq(d.tx_bytes, 0);
}
END_TEST

/* qLen one byte below, at and past the saturation point, and the largest
 * input (no overflow on the way).
 *   HPCC x80: 10485679 -> 131070 ticks (131071 x 80 = 10485680) = 0x1FFFE,
 *   10485680 -> 0x1FFFF, UINT64_MAX -> 0x1FFFF. Low 17 bits: byte 5 bit 0,
 *   bytes 6-7.
 *   FNCC x128: 8388479 -> 65534 ticks (65535 x 128 = 8388480) = 0xFFFE,
 *   8388480 -> 0xFFFF, 8388608 (65536 ticks) -> 0xFFFF, UINT64_MAX -> 0xFFFF.
 *   Bytes 6-7. */
START_TEST(test_qlen_saturation_boundary)
{
    static const uint64_t hq[3] = {UINT64_C(10485679), UINT64_C(10485680), UINT64_MAX};
    static const uint8_t h7[3] = {0xFE, 0xFF, 0xFF};
    static const uint64_t hd[3] = {UINT64_C(10485600), UINT64_C(10485680), UINT64_C(10485680)};
    for (unsigned i = 0; i < 3; i++) {
        libcc_int_hop h = hop4(25 * G, 0, 0, hq[i]), d = sentinel();
        uint8_t w[8];
        ck_assert_int_eq(libcc_int_hpcc_encode(&h, NULL, w), LIBCC_OK);
        ck_assert_uint_eq(w[5], 0x01);
        ck_assert_uint_eq(w[6], 0xFF);
        ck_assert_uint_eq(w[7], h7[i]);
        ck_assert_int_eq(libcc_int_hpcc_decode(w, NULL, &d), LIBCC_OK);
        ck_assert_uint_eq(d.qlen_bytes, hd[i]); /* 131070 x 80 = 10485600 */
    }
    static const uint64_t fq[4] = {UINT64_C(8388479), UINT64_C(8388480), UINT64_C(8388608),
                                   UINT64_MAX};
    static const uint8_t f7[4] = {0xFE, 0xFF, 0xFF, 0xFF};
    static const uint64_t fd[4] = {UINT64_C(8388352), UINT64_C(8388480), UINT64_C(8388480),
                                   UINT64_C(8388480)};
    for (unsigned i = 0; i < 4; i++) {
        libcc_int_hop h = hop4(10 * G, 0, 0, fq[i]), d = sentinel();
        uint8_t w[8];
        ck_assert_int_eq(libcc_int_fncc_encode(&h, NULL, w), LIBCC_OK);
        ck_assert_uint_eq(w[5], 0x00);
        ck_assert_uint_eq(w[6], 0xFF);
        ck_assert_uint_eq(w[7], f7[i]);
        ck_assert_int_eq(libcc_int_fncc_decode(w, NULL, &d), LIBCC_OK);
        ck_assert_uint_eq(d.qlen_bytes, fd[i]); /* 65534 x 128 = 8388352 */
    }
}
END_TEST

/* Which error wins: a NULL pointer or a bad format is LIBCC_ERR_INVALID_ARG
 * even when the rate (encode) or the rate code (decode) is also bad; a good
 * custom format with a bad rate code is LIBCC_ERR_BAD_TELEMETRY and leaves
 * the hop untouched. Every HPCC code is a rate, so only FNCC decodes can
 * meet a bad one (code 0). */
START_TEST(test_error_precedence)
{
    libcc_int_wire_format bad = {3, 128, 80}, good = {4, 256, 100};
    libcc_int_hop h = hop4(30 * G, 1, 1, 1), d = sentinel(), s = sentinel();
    uint8_t w[8];
    static const uint8_t hcode7[8] = {0xE0, 0, 0, 0, 0, 0, 0, 0}; /* 800 Gbps */
    static const uint8_t fcode0[8] = {0x00, 0, 0, 0, 0, 0, 0, 0};
    ck_assert_int_eq(libcc_int_hpcc_encode(&h, &bad, w), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_fncc_encode(&h, &bad, w), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_hpcc_encode(&h, NULL, NULL), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_fncc_encode(&h, NULL, NULL), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_hpcc_encode(&h, &good, w), LIBCC_ERR_BAD_TELEMETRY);
    ck_assert_int_eq(libcc_int_fncc_encode(&h, &good, w), LIBCC_ERR_BAD_TELEMETRY);
    ck_assert_int_eq(libcc_int_hpcc_decode(hcode7, &bad, &d), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_fncc_decode(fcode0, &bad, &d), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_fncc_decode(fcode0, &good, &d), LIBCC_ERR_BAD_TELEMETRY);
    ck_assert_mem_eq(&d, &s, sizeof(d));
}
END_TEST

/* Asserts the four wire fields of q, and that the identity fields are
 * zeroed (they are not on the wire). */
static void expect_hop(const libcc_int_hop *q, uint64_t bw, uint64_t ts, uint64_t tx, uint64_t ql)
{
    ck_assert_uint_eq(q->bandwidth_bps, bw);
    ck_assert_uint_eq(q->ts_ns, ts);
    ck_assert_uint_eq(q->tx_bytes, tx);
    ck_assert_uint_eq(q->qlen_bytes, ql);
    ck_assert_uint_eq(q->switch_id, 0);
    ck_assert_uint_eq(q->port_id, 0);
}

/* quantize must give the same hop as decode(encode), field for field;
 * the expected values themselves are checked by hand in each test. */
static void expect_hpcc_roundtrip(const libcc_int_hop *h, const libcc_int_wire_format *f,
                                  const libcc_int_hop *q)
{
    libcc_int_hop d = sentinel();
    uint8_t w[8];
    ck_assert_int_eq(libcc_int_hpcc_encode(h, f, w), LIBCC_OK);
    ck_assert_int_eq(libcc_int_hpcc_decode(w, f, &d), LIBCC_OK);
    ck_assert_mem_eq(q, &d, sizeof(d));
}

static void expect_fncc_roundtrip(const libcc_int_hop *h, const libcc_int_wire_format *f,
                                  const libcc_int_hop *q)
{
    libcc_int_hop d = sentinel();
    uint8_t w[8];
    ck_assert_int_eq(libcc_int_fncc_encode(h, f, w), LIBCC_OK);
    ck_assert_int_eq(libcc_int_fncc_decode(w, f, &d), LIBCC_OK);
    ck_assert_mem_eq(q, &d, sizeof(d));
}

/* HPCC defaults {1 ns, 128 B, 80 B}:
 *   ts 2^24 + 5 = 16777221 ns -> 16777221 ticks, low 24 bits = 5 -> 5 ns
 *   txBytes 1000 -> floor(1000/128) = 7 ticks -> 7 x 128 = 896 B
 *   qLen 1000 -> floor(1000/80) = 12 ticks -> 12 x 80 = 960 B
 *   txBytes 2^27 + 256 = 134217984 -> 2^20 + 2 ticks, low 20 bits = 2 -> 256 B
 *   qLen 2^17 x 80 = 10485760 -> 131072 ticks > 2^17 - 1, saturates at
 *   131071 ticks -> 131071 x 80 = 10485680 B
 * Passing a copy of the default must give the same as NULL. */
START_TEST(test_hpcc_quantize_default)
{
    libcc_int_wire_format def;
    libcc_int_hpcc_format_default(&def);
    libcc_int_hop h = hop4(100 * G, (UINT64_C(1) << 24) + 5, 1000, 1000), q = sentinel();
    ck_assert_int_eq(libcc_int_hpcc_quantize(&h, NULL, &q), LIBCC_OK);
    expect_hop(&q, 100 * G, 5, 896, 960);
    expect_hpcc_roundtrip(&h, NULL, &q);
    q = sentinel();
    ck_assert_int_eq(libcc_int_hpcc_quantize(&h, &def, &q), LIBCC_OK);
    expect_hop(&q, 100 * G, 5, 896, 960);

    libcc_int_hop big = hop4(25 * G, 0, (UINT64_C(1) << 27) + 256, UINT64_C(10485760));
    q = sentinel();
    ck_assert_int_eq(libcc_int_hpcc_quantize(&big, NULL, &q), LIBCC_OK);
    expect_hop(&q, 25 * G, 0, 256, UINT64_C(10485680));
    expect_hpcc_roundtrip(&big, NULL, &q);
}
END_TEST

/* FNCC defaults {1 ns, 128 B, 128 B}; 40 Gbps is in the FNCC table only:
 *   ts 2^24 + 5 -> 5 ns (as HPCC)
 *   txBytes 1000 -> 7 ticks -> 896 B
 *   qLen 1000 -> floor(1000/128) = 7 ticks -> 896 B
 *   qLen 2^16 x 128 = 8388608 -> 65536 ticks > 2^16 - 1, saturates at
 *   65535 ticks -> 65535 x 128 = 8388480 B
 *   1600 Gbps, ts 12345, txBytes 1280 = 10 x 128, qLen 0: all exact. */
START_TEST(test_fncc_quantize_default)
{
    libcc_int_wire_format def;
    libcc_int_fncc_format_default(&def);
    libcc_int_hop h = hop4(40 * G, (UINT64_C(1) << 24) + 5, 1000, 1000), q = sentinel();
    ck_assert_int_eq(libcc_int_fncc_quantize(&h, NULL, &q), LIBCC_OK);
    expect_hop(&q, 40 * G, 5, 896, 896);
    expect_fncc_roundtrip(&h, NULL, &q);
    q = sentinel();
    ck_assert_int_eq(libcc_int_fncc_quantize(&h, &def, &q), LIBCC_OK);
    expect_hop(&q, 40 * G, 5, 896, 896);

    libcc_int_hop sat = hop4(10 * G, 1, 128, UINT64_C(8388608));
    q = sentinel();
    ck_assert_int_eq(libcc_int_fncc_quantize(&sat, NULL, &q), LIBCC_OK);
    expect_hop(&q, 10 * G, 1, 128, UINT64_C(8388480));
    expect_fncc_roundtrip(&sat, NULL, &q);

    libcc_int_hop exact = hop4(1600 * G, 12345, 1280, 0);
    q = sentinel();
    ck_assert_int_eq(libcc_int_fncc_quantize(&exact, NULL, &q), LIBCC_OK);
    expect_hop(&q, 1600 * G, 12345, 1280, 0);
    expect_fncc_roundtrip(&exact, NULL, &q);
}
END_TEST

/* Every rate in each table comes back unchanged (the tables of
 * docs/int-telemetry.md), with ts 3, txBytes 128 (1 tick), qLen 0. */
START_TEST(test_quantize_every_rate)
{
    static const uint64_t hrate[8] = {25 * G, 50 * G, 100 * G, 200 * G, 400 * G, 10 * G, 40 * G, 800 * G};
    static const uint64_t frate[9] = {10 * G,  25 * G,  40 * G,  50 * G,  100 * G,
                                      200 * G, 400 * G, 800 * G, 1600 * G};
    for (unsigned i = 0; i < 8; i++) {
        libcc_int_hop h = hop4(hrate[i], 3, 128, 0), q = sentinel();
        ck_assert_int_eq(libcc_int_hpcc_quantize(&h, NULL, &q), LIBCC_OK);
        expect_hop(&q, hrate[i], 3, 128, 0);
    }
    for (unsigned i = 0; i < 9; i++) {
        libcc_int_hop h = hop4(frate[i], 3, 128, 0), q = sentinel();
        ck_assert_int_eq(libcc_int_fncc_quantize(&h, NULL, &q), LIBCC_OK);
        expect_hop(&q, frate[i], 3, 128, 0);
    }
}
END_TEST

/* Custom units {4 ns, 256 B, 100 B}, 400 Gbps (in both tables):
 *   ts 4 x 2^24 + 14 = 67108878 -> floor(/4) = 2^24 + 3 ticks, low 24 bits
 *   = 3 -> 12 ns
 *   txBytes 199167 -> floor(199167/256) = 777 ticks (777 x 256 = 198912,
 *   778 x 256 = 199168 > 199167) -> 198912 B
 *   qLen 12345 -> 123 ticks -> 12300 B
 * A near-default HPCC format {1, 128, 81} is custom: qLen 1000 ->
 * floor(1000/81) = 12 ticks -> 972 B (the default 80 would give 960). The
 * HPCC default {1, 128, 80} handed to FNCC is custom there too: qLen 1000 ->
 * 960 B (FNCC's own default gives 896). */
START_TEST(test_quantize_custom_format)
{
    libcc_int_wire_format f = {4, 256, 100};
    libcc_int_hop h = hop4(400 * G, UINT64_C(67108878), 199167, 12345), q = sentinel();
    ck_assert_int_eq(libcc_int_hpcc_quantize(&h, &f, &q), LIBCC_OK);
    expect_hop(&q, 400 * G, 12, 198912, 12300);
    expect_hpcc_roundtrip(&h, &f, &q);
    q = sentinel();
    ck_assert_int_eq(libcc_int_fncc_quantize(&h, &f, &q), LIBCC_OK);
    expect_hop(&q, 400 * G, 12, 198912, 12300);
    expect_fncc_roundtrip(&h, &f, &q);

    libcc_int_wire_format near = {1, 128, 81};
    libcc_int_hop n = hop4(100 * G, 7, 1000, 1000);
    q = sentinel();
    ck_assert_int_eq(libcc_int_hpcc_quantize(&n, &near, &q), LIBCC_OK);
    expect_hop(&q, 100 * G, 7, 896, 972);
    expect_hpcc_roundtrip(&n, &near, &q);

    libcc_int_wire_format hdef;
    libcc_int_hpcc_format_default(&hdef);
    q = sentinel();
    ck_assert_int_eq(libcc_int_fncc_quantize(&n, &hdef, &q), LIBCC_OK);
    expect_hop(&q, 100 * G, 7, 896, 960);
    expect_fncc_roundtrip(&n, &hdef, &q);
}
END_TEST

/* out == hop: the hop is read whole before it is overwritten. Same inputs
 * and hand values as test_hpcc_quantize_default / test_fncc_quantize_default
 * and the custom format above. Quantizing again changes nothing: every
 * field is now a whole number of ticks within range. */
START_TEST(test_quantize_in_place)
{
    libcc_int_hop h = hop4(100 * G, (UINT64_C(1) << 24) + 5, 1000, 1000);
    ck_assert_int_eq(libcc_int_hpcc_quantize(&h, NULL, &h), LIBCC_OK);
    expect_hop(&h, 100 * G, 5, 896, 960);
    ck_assert_int_eq(libcc_int_hpcc_quantize(&h, NULL, &h), LIBCC_OK);
    expect_hop(&h, 100 * G, 5, 896, 960);

    libcc_int_hop g = hop4(40 * G, (UINT64_C(1) << 24) + 5, 1000, 1000);
    ck_assert_int_eq(libcc_int_fncc_quantize(&g, NULL, &g), LIBCC_OK);
    expect_hop(&g, 40 * G, 5, 896, 896);
    ck_assert_int_eq(libcc_int_fncc_quantize(&g, NULL, &g), LIBCC_OK);
    expect_hop(&g, 40 * G, 5, 896, 896);

    libcc_int_wire_format f = {4, 256, 100};
    libcc_int_hop c = hop4(400 * G, UINT64_C(67108878), 199167, 12345);
    ck_assert_int_eq(libcc_int_fncc_quantize(&c, &f, &c), LIBCC_OK);
    expect_hop(&c, 400 * G, 12, 198912, 12300);
}
END_TEST

/* The encoder's errors: NULL hop or out and a bad format are
 * LIBCC_ERR_INVALID_ARG (even with a bad rate too); a rate not in the table
 * is LIBCC_ERR_BAD_TELEMETRY. out is untouched on every error, also when
 * it is the hop itself. 150 Gbps is outside the HPCC table, 30 Gbps outside
 * FNCC's, 0 outside both. */
START_TEST(test_quantize_errors)
{
    static const libcc_int_wire_format bad[5] = {
        {0, 128, 80}, {3, 128, 80}, {1, 0, 80}, {1, 100, 80}, {1, 128, 0},
    };
    const libcc_int_hop s = sentinel();
    libcc_int_hop h = hop4(100 * G, 1, 128, 80), q = sentinel();
    ck_assert_int_eq(libcc_int_hpcc_quantize(NULL, NULL, &q), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_hpcc_quantize(&h, NULL, NULL), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_fncc_quantize(NULL, NULL, &q), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_fncc_quantize(&h, NULL, NULL), LIBCC_ERR_INVALID_ARG);
    ck_assert_mem_eq(&q, &s, sizeof(q));
    for (unsigned i = 0; i < 5; i++) {
        ck_assert_int_eq(libcc_int_hpcc_quantize(&h, &bad[i], &q), LIBCC_ERR_INVALID_ARG);
        ck_assert_int_eq(libcc_int_fncc_quantize(&h, &bad[i], &q), LIBCC_ERR_INVALID_ARG);
        ck_assert_mem_eq(&q, &s, sizeof(q));
    }

    static const uint64_t hbad[3] = {0, 150 * G, 100 * G + 1};
    static const uint64_t fbad[3] = {0, 30 * G, 3200 * G};
    for (unsigned i = 0; i < 3; i++) {
        libcc_int_hop hh = hop4(hbad[i], 1, 128, 80), fh = hop4(fbad[i], 1, 128, 128);
        ck_assert_int_eq(libcc_int_hpcc_quantize(&hh, NULL, &q), LIBCC_ERR_BAD_TELEMETRY);
        ck_assert_int_eq(libcc_int_fncc_quantize(&fh, NULL, &q), LIBCC_ERR_BAD_TELEMETRY);
        ck_assert_mem_eq(&q, &s, sizeof(q));
    }
    /* 40 Gbps is fine for FNCC (code 3), 100 Gbps + 1 b/s is not. */
    libcc_int_hop off = hop4(100 * G + 1, 1, 128, 128);
    ck_assert_int_eq(libcc_int_fncc_quantize(&off, NULL, &q), LIBCC_ERR_BAD_TELEMETRY);
    ck_assert_mem_eq(&q, &s, sizeof(q));

    /* In place: a refused hop keeps every field, identity included. */
    libcc_int_hop a = hop4(150 * G, 1001, 1000, 1000);
    const libcc_int_hop a0 = a;
    ck_assert_int_eq(libcc_int_hpcc_quantize(&a, NULL, &a), LIBCC_ERR_BAD_TELEMETRY);
    ck_assert_mem_eq(&a, &a0, sizeof(a));
    ck_assert_int_eq(libcc_int_fncc_quantize(&a, &bad[1], &a), LIBCC_ERR_INVALID_ARG);
    ck_assert_mem_eq(&a, &a0, sizeof(a));

    /* Precedence: bad format and bad rate together is the format's error;
     * a good custom format with a bad rate is the rate's. */
    libcc_int_wire_format good = {4, 256, 100};
    libcc_int_hop both = hop4(30 * G, 1, 1, 1);
    ck_assert_int_eq(libcc_int_hpcc_quantize(&both, &bad[1], &q), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_fncc_quantize(&both, &bad[1], &q), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_hpcc_quantize(&both, &good, &q), LIBCC_ERR_BAD_TELEMETRY);
    ck_assert_int_eq(libcc_int_fncc_quantize(&both, &good, &q), LIBCC_ERR_BAD_TELEMETRY);
    ck_assert_mem_eq(&q, &s, sizeof(q));
}
END_TEST

Suite *int_wire_suite(void)
{
    Suite *s = suite_create("int_wire");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_default_formats);
    tcase_add_test(tc, test_hpcc_exact_bytes);
    tcase_add_test(tc, test_fncc_exact_bytes);
    tcase_add_test(tc, test_hpcc_rate_codes);
    tcase_add_test(tc, test_fncc_rate_codes);
    tcase_add_test(tc, test_roundtrip_exact);
    tcase_add_test(tc, test_roundtrip_truncates);
    tcase_add_test(tc, test_wrap_bits);
    tcase_add_test(tc, test_hpcc_wraparound);
    tcase_add_test(tc, test_hpcc_wrap_width_is_in_base_units);
    tcase_add_test(tc, test_fncc_wraparound_coarse_units);
    tcase_add_test(tc, test_counters_wrap_not_saturate);
    tcase_add_test(tc, test_hpcc_qlen_saturates);
    tcase_add_test(tc, test_fncc_qlen_range_and_saturation);
    tcase_add_test(tc, test_hpcc_extension_codes);
    tcase_add_test(tc, test_rate_supported);
    tcase_add_test(tc, test_fncc_invalid_rate_code);
    tcase_add_test(tc, test_encode_rate_not_in_table);
    tcase_add_test(tc, test_null_args);
    tcase_add_test(tc, test_bad_formats);
    tcase_add_test(tc, test_every_rate_code_packed);
    tcase_add_test(tc, test_custom_format_exact_bytes);
    tcase_add_test(tc, test_near_default_formats_are_custom);
    tcase_add_test(tc, test_ts_wrap_boundary);
    tcase_add_test(tc, test_qlen_saturation_boundary);
    tcase_add_test(tc, test_error_precedence);
    tcase_add_test(tc, test_hpcc_quantize_default);
    tcase_add_test(tc, test_fncc_quantize_default);
    tcase_add_test(tc, test_quantize_every_rate);
    tcase_add_test(tc, test_quantize_custom_format);
    tcase_add_test(tc, test_quantize_in_place);
    tcase_add_test(tc, test_quantize_errors);
    suite_add_tcase(s, tc);
    return s;
}
