/* SPDX-License-Identifier: MIT */
/*
 * HPCC-PINT (docs/algorithms/hpcc-pint.md). Expected values worked out by
 * hand from the HPCC simulator's PINT switch (the exact form of its
 * per-port EWMA), Pint::encode_u / decode_u (log_base 1.05, 512) and
 * UpdateRateHpPint. Switch port: 100 Gbit/s = 12.5 B/ns, T = 10 us.
 */
#include "test_support.h"

#include <check.h>
#include <float.h>
#include <libcc/libcc.h>
#include <stdlib.h>
#include <string.h>

#define G100 100000000000ull

/* The host's randomness for the CP: a fixed unit value. */
static uint64_t rand_zero(void *ud)
{
    (void)ud;
    return 0;
}
static uint64_t rand_top(void *ud)
{
    (void)ud;
    return UINT64_MAX;
}

static libcc_cp *cp_for(libcc_rand_fn r)
{
    return ts_make_cp("hpcc-pint", "base_rtt=10us", G100, r);
}

static libcc_cp_pkt data_pkt(uint64_t port_q, uint16_t pint, int has)
{
    libcc_cp_pkt k;
    memset(&k, 0, sizeof k);
    k.kind = LIBCC_PKT_DATA;
    k.bytes = 1000;
    k.queue_bytes = k.port_queue_bytes = port_q;
    k.has = has ? LIBCC_PKT_HAS_PINT : 0;
    k.pint = pint;
    return k;
}

START_TEST(test_cp_ewma_and_encoding)
{
    libcc_cp *cp = cp_for(rand_zero);
    /* first packet: no previous packet, U = 0, encoded as exponent 0 */
    libcc_cp_pkt k = data_pkt(0, 0, 1);
    ck_assert_int_eq(libcc_cp_on_dequeue(cp, 1000, &k), LIBCC_OK);
    ck_assert_uint_eq(k.pint, 0);
    /* 80 ns later, port queue 50000 B, previous packet 1000 B:
     * U = 50000*80/(12.5*10^8) + 1000/(12.5*10^4) = 0.0032 + 0.008 = 0.0112;
     * U*512 = 5.73 -> 6; log_1.05(6) = 36.72: between 1.05^36 = 5.7918 and
     * 1.05^37 = 6.0814, up with probability 0.7189: the host's draw 0 rounds up */
    k = data_pkt(50000, 0, 1);
    ck_assert_int_eq(libcc_cp_on_dequeue(cp, 1080, &k), LIBCC_OK);
    ck_assert_uint_eq(k.pint, 37);
    libcc_cp_del(cp);
    /* the same with a draw at the top: rounded down */
    cp = cp_for(rand_top);
    k = data_pkt(0, 0, 1);
    libcc_cp_on_dequeue(cp, 1000, &k);
    k = data_pkt(50000, 0, 1);
    libcc_cp_on_dequeue(cp, 1080, &k);
    ck_assert_uint_eq(k.pint, 36);
    /* 2 us later, queue 0: U = 0.0112 * 0.8 + 1000/125000 = 0.01696;
     * U*512 = 8.68 -> 9, log_1.05(9) = 45.03: 45 (draw at the top): a
     * lower field (40, from a less loaded hop) is raised */
    k = data_pkt(0, 40, 1);
    libcc_cp_on_dequeue(cp, 3080, &k);
    ck_assert_uint_eq(k.pint, 45);
    /* at the same instant (dt 0): U = 0.01696 + 0.008 = 0.02496 -> 13 ->
     * 52; a field already higher (a busier hop: 60) is not lowered */
    k = data_pkt(0, 60, 1);
    libcc_cp_on_dequeue(cp, 3080, &k);
    ck_assert_uint_eq(k.pint, 60);
    /* a packet without the field is left alone; ACKs do not move U */
    k = data_pkt(0, 0, 0);
    libcc_cp_on_dequeue(cp, 3100, &k);
    ck_assert_uint_eq(k.pint, 0);
    k = data_pkt(0, 0, 1);
    k.kind = LIBCC_PKT_ACK;
    libcc_cp_on_dequeue(cp, 3200, &k);
    ck_assert_uint_eq(k.pint, 0);
    libcc_cp_del(cp);
}
END_TEST

static int pint_ack(libcc_rp *rp, uint64_t now, uint64_t seq, uint16_t p)
{
    libcc_ack a;
    memset(&a, 0, sizeof a);
    a.seq = seq;
    a.has = LIBCC_ACK_HAS_PINT;
    a.pint = p;
    return libcc_rp_on_ack(rp, now, &a);
}

/* The sender: HPCC's ComputeWind on the decoded U. 100 Gbit/s, T = 12 us:
 * W_init = 150000 B, W_ai = 150000 * 0.05 / 100 = 75 B. */
START_TEST(test_rp_window_from_pint)
{
    libcc_rp *rp = ts_make_rp("hpcc-pint", NULL, G100, 12000, NULL, NULL);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    unsigned flags = 0;
    ck_assert_int_eq(libcc_rp_on_tx(rp, 0, 0, 20000, &flags), LIBCC_OK);
    ck_assert_uint_eq(flags, LIBCC_TX_REQUEST_PINT); /* sample_prob 1: every packet */
    /* first ACK: opens the window (to snd_nxt 20000), nothing else */
    ck_assert_int_eq(pint_ack(rp, 10000, 1000, 133), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    /* p = 133: U = 1.05^133/512 = 1.28501 >= eta: W = 150000*0.95/U + 75 =
     * 110969.00 -> 110969; inside the window: Wc stays */
    ck_assert_int_eq(pint_ack(rp, 11000, 2000, 133), LIBCC_OK);
    ck_assert_double_eq_tol(ts_rp_var(rp, "U"), 1.28501091117121, 1e-12);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 110969);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 73979333342ull);
    ck_assert_double_eq(ts_rp_var(rp, "Wc"), 150000);
    /* an ACK without the field: nothing */
    libcc_ack a;
    memset(&a, 0, sizeof a);
    a.seq = 3000;
    ck_assert_int_eq(libcc_rp_on_ack(rp, 12000, &a), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 110969);
    /* p = 100: U = 0.2569 < eta, stage 0 < 5: W = Wc + W_ai, at most
     * W_init = 150000; past 20000: Wc = W, one additive stage */
    ck_assert_int_eq(pint_ack(rp, 13000, 20001, 100), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    ck_assert_double_eq(ts_rp_var(rp, "inc_stage"), 1);
    libcc_rp_del(rp);
}
END_TEST

/* The largest field, 65535, at log_base 2: 2^65535 is past a double's
 * range (2^1024), so U is the largest finite double, never infinity; W =
 * 150000 * 0.95 / U + 75 = 75 B, raised to one MTU (1000 B), the HPCC floor. */
START_TEST(test_rp_top_exponent_saturates)
{
    libcc_rp *rp = ts_make_rp("hpcc-pint", "log_base=2 max_flows=1", G100, 12000, NULL, NULL);
    unsigned flags = 0;
    ck_assert_int_eq(libcc_rp_on_tx(rp, 0, 0, 20000, &flags), LIBCC_OK);
    ck_assert_int_eq(pint_ack(rp, 10000, 1000, 65535), LIBCC_OK);
    ck_assert_int_eq(pint_ack(rp, 11000, 2000, 65535), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "U"), DBL_MAX);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 1000);
    libcc_rp_del(rp);
}
END_TEST

/* sample_prob: the fraction of packets carrying the field, by a hash of
 * seq: the same packets in every run; 0 and 1 are none and all. */
START_TEST(test_sampling)
{
    libcc_rp *rp = ts_make_rp("hpcc-pint", "sample_prob=0.25", G100, 12000, NULL, NULL);
    unsigned n = 0, flags;
    for (uint64_t i = 0; i < 4000; i++) {
        ck_assert_int_eq(libcc_rp_on_tx(rp, i, i * 1000, 1000, &flags), LIBCC_OK);
        n += (flags & LIBCC_TX_REQUEST_PINT) != 0;
    }
    ck_assert_uint_ge(n, 900); /* 1000 expected; a hash, not a coin: stable */
    ck_assert_uint_le(n, 1100);
    libcc_rp_del(rp);
    rp = ts_make_rp("hpcc-pint", "sample_prob=0", G100, 12000, NULL, NULL);
    ck_assert_int_eq(libcc_rp_on_tx(rp, 0, 0, 1000, &flags), LIBCC_OK);
    ck_assert_uint_eq(flags, 0);
    libcc_rp_del(rp);
}
END_TEST

START_TEST(test_docs_params)
{
    char *doc = ts_read_source_file("docs/algorithms/hpcc-pint.md");
    ts_doc_has_params(doc, "docs/algorithms/hpcc-pint.md", "hpcc-pint");
    free(doc);
}
END_TEST

START_TEST(test_replay_trace)
{
    char *csv = ts_run_replay("examples/traces/hpcc-pint.trace");
    ck_assert_double_eq(ts_csv_at(csv, 11000, "ack", "window_bytes"), 110969);
    ck_assert_double_eq(ts_csv_at(csv, 13000, "ack", "window_bytes"), 150000);
    free(csv);
}
END_TEST

Suite *hpcc_pint_suite(void)
{
    Suite *s = suite_create("hpcc_pint");
    TCase *tc = tcase_create("pint");
    tcase_add_test(tc, test_cp_ewma_and_encoding);
    tcase_add_test(tc, test_rp_window_from_pint);
    tcase_add_test(tc, test_rp_top_exponent_saturates);
    tcase_add_test(tc, test_sampling);
    suite_add_tcase(s, tc);
    tc = tcase_create("docs");
    tcase_add_test(tc, test_docs_params);
    tcase_add_test(tc, test_replay_trace);
    suite_add_tcase(s, tc);
    return s;
}
