/* SPDX-License-Identifier: MIT */
/*
 * RoCC (docs/algorithms/rocc.md). Expected values worked out by hand from
 * the PI controller F = F - alpha (q - q_ref) - beta (q - q_old), once per
 * interval, F in [f_min, C], gains divided by 2^k when F < C/2^k, and the
 * sender's rule (follow the lowest rate of the path; line rate after
 * `recovery` without feedback). Port: C = 100 Gbit/s.
 */
#include "test_support.h"

#include <check.h>
#include <libcc/libcc.h>
#include <stdlib.h>
#include <string.h>

#define G100 100000000000ull

static libcc_cp *cp_for(const char *assign)
{
    return ts_make_cp("rocc", assign, G100, NULL);
}

/* Enqueue a data packet that sees q bytes; returns the feedback rate or 0. */
static uint64_t enq(libcc_cp *cp, uint64_t now, uint64_t q)
{
    libcc_cp_pkt k;
    memset(&k, 0, sizeof k);
    k.kind = LIBCC_PKT_DATA;
    k.bytes = 1000;
    k.queue_bytes = k.port_queue_bytes = q;
    ck_assert_int_eq(libcc_cp_on_enqueue(cp, now, &k), LIBCC_OK);
    return k.send_feedback ? k.feedback_rate_bps : 0;
}

/* Defaults: q_ref 100 KB, alpha 300, beta 1500 (bits/s per byte), T 20 us. */
START_TEST(test_pi_controller)
{
    libcc_cp *cp = cp_for(NULL);
    ck_assert_uint_eq(enq(cp, 0, 0), 0); /* reference sample; F = C: no feedback */
    /* 20 us: F = 1e11 - 300 * 200000 - 1500 * 300000 = 99.49 Gbit/s */
    ck_assert_uint_eq(enq(cp, 20000, 300000), 99490000000ull);
    /* inside the interval: no update, the same rate fed back */
    ck_assert_uint_eq(enq(cp, 25000, 400000), 99490000000ull);
    /* 40 us: q = 200000 (100000 above q_ref, 100000 below q_old):
     * F = 99.49e9 - 3e7 + 1.5e8 = 99.61 Gbit/s */
    ck_assert_uint_eq(enq(cp, 40000, 200000), 99610000000ull);
    /* the queue drained: F = 99.61e9 + 300 * 100000 + 1500 * 200000 =
     * 99.94 Gbit/s, rising */
    ck_assert_uint_eq(enq(cp, 60000, 0), 99940000000ull);
    /* q 0 below q_ref 100000 for 20 more intervals: + 3e7 each, capped at
     * C: 99.94e9 + 2 * 3e7 = C after two; then no more feedback */
    ck_assert_uint_eq(enq(cp, 80000, 0), 99970000000ull);
    ck_assert_uint_eq(enq(cp, 100000, 0), 0);
    /* ACKs never get feedback */
    libcc_cp_pkt k;
    memset(&k, 0, sizeof k);
    k.kind = LIBCC_PKT_ACK;
    k.queue_bytes = 1000000;
    ck_assert_int_eq(libcc_cp_on_enqueue(cp, 80000, &k), LIBCC_OK);
    ck_assert_uint_eq(k.send_feedback, 0);
    libcc_cp_del(cp);
}
END_TEST

/* Self-tuning with alpha 1e6, beta 0 and the queue held 60000 B above
 * q_ref: step 6e10 / 2^k, k from F before the update. */
START_TEST(test_gain_scaling_and_floor)
{
    libcc_cp *cp = cp_for("alpha=1000000 beta=0");
    enq(cp, 0, 160000);
    ck_assert_uint_eq(enq(cp, 20000, 160000), 40000000000ull); /* k 0: 1e11 - 6e10 */
    ck_assert_uint_eq(enq(cp, 40000, 160000), 10000000000ull); /* F = C/2.5: k 1 */
    ck_assert_uint_eq(enq(cp, 60000, 160000), 2500000000ull);  /* C/10: k 3, -7.5e9 */
    ck_assert_uint_eq(enq(cp, 80000, 160000), 625000000ull);   /* C/40: k 5, -1.875e9 */
    /* C/160 would be k 7, capped at 6: -9.375e8 < 0: the 10 Mbit/s floor */
    ck_assert_uint_eq(enq(cp, 100000, 160000), 10000000ull);
    libcc_cp_del(cp);
    /* without self-tuning the second step already hits the floor */
    cp = cp_for("alpha=1000000 beta=0 max_gain_shift=0");
    enq(cp, 0, 160000);
    ck_assert_uint_eq(enq(cp, 20000, 160000), 40000000000ull);
    ck_assert_uint_eq(enq(cp, 40000, 160000), 10000000ull);
    libcc_cp_del(cp);
}
END_TEST

/* A late packet updates once, and the next update stays on the grid. */
START_TEST(test_update_grid)
{
    libcc_cp *cp = cp_for("alpha=1000000 beta=0");
    enq(cp, 0, 160000);                                         /* next update at 20 us */
    ck_assert_uint_eq(enq(cp, 30000, 160000), 40000000000ull); /* late: next at 40 us */
    ck_assert_uint_eq(enq(cp, 39999, 160000), 40000000000ull);
    ck_assert_uint_eq(enq(cp, 40000, 160000), 10000000000ull);
    libcc_cp_del(cp);
}
END_TEST

static int fb(libcc_rp *rp, uint64_t now, uint64_t rate, uint32_t sw, uint32_t port)
{
    libcc_feedback f = {.rate_bps = rate, .switch_id = sw, .port_id = port};
    return libcc_rp_on_feedback(rp, now, &f);
}

START_TEST(test_sender_follows_the_bottleneck)
{
    libcc_rp *rp = ts_make_rp("rocc", NULL, G100, 12000, NULL, NULL);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), LIBCC_WINDOW_UNLIMITED);
    ck_assert_int_eq(fb(rp, 10000, 40000000000ull, 1, 2), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 40000000000ull);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 110000); /* recovery 100 us */
    /* another switch's higher rate: not the bottleneck */
    ck_assert_int_eq(fb(rp, 20000, 60000000000ull, 3, 1), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 40000000000ull);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 110000);
    /* the bottleneck's own rate rose: followed */
    ck_assert_int_eq(fb(rp, 30000, 60000000000ull, 1, 2), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 60000000000ull);
    /* a lower rate elsewhere: the new bottleneck */
    ck_assert_int_eq(fb(rp, 40000, 30000000000ull, 3, 1), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 30000000000ull);
    ck_assert_double_eq(ts_rp_var(rp, "switch"), 3);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 140000);
    /* an early timer does nothing; at the deadline: line rate */
    ck_assert_int_eq(libcc_rp_on_timer(rp, 139999), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 30000000000ull);
    ck_assert_int_eq(libcc_rp_on_timer(rp, 140000), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), G100);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), LIBCC_NO_DEADLINE);
    ck_assert_double_eq(ts_rp_var(rp, "limited"), 0);
    libcc_rp_del(rp);
}
END_TEST

START_TEST(test_docs_params)
{
    char *doc = ts_read_source_file("docs/algorithms/rocc.md");
    ts_doc_has_params(doc, "docs/algorithms/rocc.md", "rocc");
    free(doc);
}
END_TEST

START_TEST(test_replay_trace)
{
    char *csv = ts_run_replay("examples/traces/rocc.trace");
    ck_assert_double_eq(ts_csv_at(csv, 10000, "feedback", "rate_bps"), 40000000000.0);
    ck_assert_double_eq(ts_csv_at(csv, 20000, "feedback", "rate_bps"), 40000000000.0);
    ck_assert_double_eq(ts_csv_at(csv, 40000, "feedback", "rate_bps"), 30000000000.0);
    ck_assert_double_eq(ts_csv_at(csv, 140000, "timer", "rate_bps"), 100000000000.0);
    free(csv);
}
END_TEST

Suite *rocc_suite(void)
{
    Suite *s = suite_create("rocc");
    TCase *tc = tcase_create("cp");
    tcase_add_test(tc, test_pi_controller);
    tcase_add_test(tc, test_gain_scaling_and_floor);
    tcase_add_test(tc, test_update_grid);
    suite_add_tcase(s, tc);
    tc = tcase_create("rp");
    tcase_add_test(tc, test_sender_follows_the_bottleneck);
    tcase_add_test(tc, test_docs_params);
    tcase_add_test(tc, test_replay_trace);
    suite_add_tcase(s, tc);
    return s;
}
