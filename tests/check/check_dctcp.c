/* SPDX-License-Identifier: MIT */
/*
 * DCTCP (docs/algorithms/dctcp.md). Every expected value is worked out by
 * hand beside the assertion, from the HPCC simulator's HandleAckDctcp
 * (rate modes) and the DCTCP paper (window mode). Flow: 100 Gbit/s,
 * T = 12 us, MTU 1000 B, so BDP = 100e9 * 12e-6 / 8 = 150000 B.
 */
#include "test_support.h"

#include <check.h>
#include <libcc/libcc.h>
#include <stdlib.h>
#include <string.h>

#define G100 100000000000ull
#define T12 12000u

static int ack(libcc_rp *rp, uint64_t now, uint64_t seq, int ecn)
{
    libcc_ack a;
    memset(&a, 0, sizeof a);
    a.seq = seq;
    a.ecn_echo = (uint8_t)ecn;
    return libcc_rp_on_ack(rp, now, &a);
}

static void tx(libcc_rp *rp, uint64_t now, uint64_t seq, uint32_t bytes)
{
    ck_assert_int_eq(libcc_rp_on_tx(rp, now, seq, bytes, NULL), LIBCC_OK);
}

/* Defaults (the HPCC simulator: alpha 1, g 1/16, 615 Mbit/s, VAR_WIN). */
START_TEST(test_rate_cut_window_and_increase)
{
    libcc_rp *rp = ts_make_rp("dctcp", NULL, G100, T12, NULL, NULL);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), G100);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000); /* VAR_WIN: rate * T */
    tx(rp, 0, 0, 10000);
    /* First ACK: the first window is what was sent, 10000 B: batch =
     * 10000/1000 + 1 = 11 packets, lastUpdateSeq = 10000. Marked, not in
     * CWR: rate = 100G * (1 - 1/2) = 50G; CWR until an ACK passes 10000. */
    ck_assert_int_eq(ack(rp, 10000, 1000, 1), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 50000000000ull);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 75000); /* 50e9 * 12e-6 / 8 */
    ck_assert_double_eq(ts_rp_var(rp, "cwr"), 1);
    tx(rp, 11000, 10000, 10000); /* snd_nxt 20000 */
    /* Marked again inside CWR: counted (2 of 11), no second cut. */
    ck_assert_int_eq(ack(rp, 12000, 5000, 1), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 50000000000ull);
    /* Past 10000: F = 2/11, alpha = 15/16 + 1/16 * 2/11 = 0.94886363...,
     * next batch = (20000 - 11000)/1000 + 1 = 10; CWR ends; unmarked and a
     * new window: rate = 50G + 615M; window = 50.615e9 * 12e-6 / 8 =
     * 75922.5 -> 75923. */
    ck_assert_int_eq(ack(rp, 20000, 11000, 0), LIBCC_OK);
    ck_assert_double_eq_tol(ts_rp_var(rp, "alpha"), 0.9488636363636364, 1e-15);
    ck_assert_double_eq_tol(ts_rp_var(rp, "F"), 2.0 / 11.0, 1e-15);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 50615000000ull);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 75923);
    /* Marked, same window, out of CWR: cut by alpha/2:
     * 50.615e9 * (1 - 0.474431818...) = 26601633522.73 -> 26601633523. */
    ck_assert_int_eq(ack(rp, 21000, 12000, 1), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 26601633523ull);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 39902);
    ck_assert_double_eq(ts_rp_var(rp, "cuts"), 2);
    /* Unmarked inside the window (12000 < lastUpdateSeq 20000), CWR until
     * 20000: nothing changes. */
    ck_assert_int_eq(ack(rp, 22000, 13000, 0), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 26601633523ull);
    libcc_rp_del(rp);
}
END_TEST

/* The rate never goes below min_rate; the increase stops at line rate. */
START_TEST(test_min_rate_and_line_rate)
{
    libcc_rp *rp = ts_make_rp("dctcp", "min_rate=40Gbps window=0", G100, T12, NULL, NULL);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), LIBCC_WINDOW_UNLIMITED);
    tx(rp, 0, 0, 10000);
    ck_assert_int_eq(ack(rp, 1000, 1000, 1), LIBCC_OK); /* 100G -> 50G, CWR to 10000 */
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 50000000000ull);
    tx(rp, 2000, 10000, 1000);                            /* snd_nxt 11000 */
    /* past 10000: F = 1/11, alpha = 15/16 + 1/176 = 0.94318; cut:
     * 50G * (1 - 0.4716) = 26.4G < 40G -> 40G */
    ck_assert_int_eq(ack(rp, 3000, 10001, 1), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 40000000000ull);
    libcc_rp_del(rp);
    /* rate_ai 1 Tbit/s: one increase reaches line rate and stays there */
    rp = ts_make_rp("dctcp", "rate_ai=1Tbps", G100, T12, NULL, NULL);
    tx(rp, 0, 0, 10000);
    ck_assert_int_eq(ack(rp, 1000, 1000, 1), LIBCC_OK);
    tx(rp, 2000, 10000, 1000);
    ck_assert_int_eq(ack(rp, 3000, 10001, 0), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), G100);
    libcc_rp_del(rp);
}
END_TEST

/* The paper's window-based DCTCP: the cut applies to cwnd, which then grows
 * by MTU * acked / cwnd per ACK (one MTU per window); the rate stays at
 * the line (no pacing). */
START_TEST(test_window_mode)
{
    libcc_rp *rp = ts_make_rp("dctcp", "preset=paper", G100, T12, NULL, NULL);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    tx(rp, 0, 0, 20000);
    /* unmarked first ACK: cwnd + 1000*1000/150000 stays capped at the BDP */
    ck_assert_int_eq(ack(rp, 1000, 1000, 0), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    /* marked: cwnd = 150000 * (1 - 1/2) = 75000, CWR to 20000 */
    ck_assert_int_eq(ack(rp, 2000, 2000, 1), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 75000);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), G100);
    /* inside CWR: no growth */
    ck_assert_int_eq(ack(rp, 3000, 5000, 0), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 75000);
    /* 20000 is not past high_seq 20000 (strictly, as the simulator):
     * still CWR */
    ck_assert_int_eq(ack(rp, 4000, 20000, 0), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 75000);
    tx(rp, 4500, 20000, 10000);
    /* past 20000: CWR ends; 21000 - 20000 = 1000 B newly acked:
     * cwnd = 75000 + 1000 * 1000 / 75000 = 75013.33 -> 75013 */
    ck_assert_int_eq(ack(rp, 5000, 21000, 0), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 75013);
    libcc_rp_del(rp);
}
END_TEST

static libcc_cp *cp_for(const char *assign, uint64_t link)
{
    return ts_make_cp("dctcp", assign, link, NULL);
}

static libcc_cp_pkt pkt(libcc_pkt_kind kind, uint64_t q, int ect)
{
    libcc_cp_pkt k;
    memset(&k, 0, sizeof k);
    k.kind = kind;
    k.bytes = 1000;
    k.queue_bytes = q;
    k.port_queue_bytes = q;
    k.ecn_capable = (uint8_t)ect;
    return k;
}

/* K = 3 KB per Gbps: 300000 B at 100 Gbit/s, 30000 B at 10. Marked when
 * the queue exceeds K, at dequeue by default; never a non-ECT packet or an
 * ACK. */
START_TEST(test_cp_marks_above_k)
{
    libcc_cp *cp = cp_for(NULL, G100);
    libcc_cp_pkt k = pkt(LIBCC_PKT_DATA, 300000, 1);
    ck_assert_int_eq(libcc_cp_on_dequeue(cp, 0, &k), LIBCC_OK);
    ck_assert_uint_eq(k.mark_ce, 0);
    k = pkt(LIBCC_PKT_DATA, 300001, 1);
    ck_assert_int_eq(libcc_cp_on_enqueue(cp, 0, &k), LIBCC_OK);
    ck_assert_uint_eq(k.mark_ce, 0); /* not at enqueue */
    ck_assert_int_eq(libcc_cp_on_dequeue(cp, 0, &k), LIBCC_OK);
    ck_assert_uint_eq(k.mark_ce, 1);
    k = pkt(LIBCC_PKT_DATA, 400000, 0);
    libcc_cp_on_dequeue(cp, 0, &k);
    ck_assert_uint_eq(k.mark_ce, 0);
    k = pkt(LIBCC_PKT_ACK, 400000, 1);
    libcc_cp_on_dequeue(cp, 0, &k);
    ck_assert_uint_eq(k.mark_ce, 0);
    ck_assert_double_eq(libcc_cp_mark_probability(cp, 300000), 0.0);
    ck_assert_double_eq(libcc_cp_mark_probability(cp, 300001), 1.0);
    libcc_cp_del(cp);
    cp = cp_for(NULL, 10000000000ull);
    ck_assert_double_eq(libcc_cp_mark_probability(cp, 30000), 0.0);
    ck_assert_double_eq(libcc_cp_mark_probability(cp, 30001), 1.0);
    libcc_cp_del(cp);
    /* the paper: on arrival, K given */
    cp = cp_for("preset=paper k=65KB", G100);
    k = pkt(LIBCC_PKT_DATA, 65001, 1);
    libcc_cp_on_enqueue(cp, 0, &k);
    ck_assert_uint_eq(k.mark_ce, 1);
    k = pkt(LIBCC_PKT_DATA, 65001, 1);
    libcc_cp_on_dequeue(cp, 0, &k);
    ck_assert_uint_eq(k.mark_ce, 0);
    libcc_cp_del(cp);
}
END_TEST

START_TEST(test_docs_params)
{
    char *doc = ts_read_source_file("docs/algorithms/dctcp.md");
    ts_doc_has_params(doc, "docs/algorithms/dctcp.md", "dctcp");
    free(doc);
}
END_TEST

/* examples/traces/dctcp.trace: the rows its header comment derives. */
START_TEST(test_replay_dctcp_trace)
{
    char *csv = ts_run_replay("examples/traces/dctcp.trace");
    ck_assert_double_eq(ts_csv_at(csv, 10000, "ack", "rate_bps"), 50000000000.0);
    ck_assert_double_eq(ts_csv_at(csv, 20000, "ack", "rate_bps"), 50615000000.0);
    ck_assert_double_eq(ts_csv_at(csv, 21000, "ack", "rate_bps"), 26601633523.0);
    ck_assert_double_eq(ts_csv_at(csv, 21000, "ack", "window_bytes"), 39902);
    free(csv);
}
END_TEST

Suite *dctcp_suite(void)
{
    Suite *s = suite_create("dctcp");
    TCase *tc = tcase_create("rp");
    tcase_add_test(tc, test_rate_cut_window_and_increase);
    tcase_add_test(tc, test_min_rate_and_line_rate);
    tcase_add_test(tc, test_window_mode);
    suite_add_tcase(s, tc);
    tc = tcase_create("cp");
    tcase_add_test(tc, test_cp_marks_above_k);
    suite_add_tcase(s, tc);
    tc = tcase_create("docs");
    tcase_add_test(tc, test_docs_params);
    tcase_add_test(tc, test_replay_dctcp_trace);
    suite_add_tcase(s, tc);
    return s;
}
