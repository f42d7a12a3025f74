/* SPDX-License-Identifier: MIT */
/*
 * TIMELY (docs/algorithms/timely.md). Expected values worked out by hand
 * from Algorithm 1 of the paper (alpha 0.875, beta 0.8, T_low 50 us,
 * T_high 500 us, minRTT 20 us, delta 10 Mbit/s, HAI 5 x delta after 5
 * completions) and from the HPCC simulator's UpdateRateTimely for the
 * hpcc-sim preset. Flow: 100 Gbit/s, starts at line rate.
 */
#include "test_support.h"

#include <check.h>
#include <libcc/libcc.h>
#include <stdlib.h>
#include <string.h>

#define G100 100000000000ull

START_TEST(test_paper_regions_and_hai)
{
    libcc_rp *rp = ts_make_rp("timely", NULL, G100, 12000, NULL, NULL);
    uint64_t t = 1000000;
    /* first sample: prev_rtt = 30 us, nothing else */
    ck_assert_int_eq(ts_on_rtt_ack(rp, t, 0, 30000), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), G100);
    ck_assert_double_eq(ts_rp_var(rp, "rtt"), 30000);
    /* 600 us > T_high: rtt_diff = 0.875 * 570000 = 498750; rate *= 1 -
     * 0.8 * (1 - 500/600) = 13/15: 86666666666.67 -> 86666666667 */
    ck_assert_int_eq(ts_on_rtt_ack(rp, t += 1000, 0, 600000), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "rtt_diff"), 498750);
    ck_assert_double_eq(ts_rp_var(rp, "region"), 2);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 86666666667ull);
    /* 100 us: new diff -500000, rtt_diff = 0.125 * 498750 - 0.875 * 500000
     * = -375156.25, gradient -18.76 <= 0: + delta */
    ck_assert_int_eq(ts_on_rtt_ack(rp, t += 1000, 0, 100000), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "rtt_diff"), -375156.25);
    ck_assert_double_eq(ts_rp_var(rp, "region"), 3);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 86676666667ull);
    /* 110 us: rtt_diff = -46894.53125 + 8750 = -38144.53125 <= 0: + delta;
     * then 110 us three more times: rtt_diff shrinks by 1/8 each time, stays
     * negative, + delta each: the 5th increase in a row */
    static const uint64_t want[4] = {86686666667ull, 86696666667ull, 86706666667ull,
                                     86716666667ull};
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(ts_on_rtt_ack(rp, t += 1000, 0, 110000), LIBCC_OK);
        ck_assert_uint_eq(libcc_rp_rate_bps(rp), want[i]);
    }
    ck_assert_double_eq(ts_rp_var(rp, "hai_count"), 5);
    /* five completions with gradient <= 0: HAI, + 5 * delta = 50 Mbit/s */
    ck_assert_int_eq(ts_on_rtt_ack(rp, t += 1000, 0, 110000), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 86766666667ull);
    /* 112 us: rtt_diff = 0.125 * -9.3126 + 0.875 * 2000 = 1748.836,
     * gradient 0.087442 > 0: rate *= 1 - 0.8 * 0.087442 = 0.930047
     * -> 80697040129; HAI count restarts */
    ck_assert_int_eq(ts_on_rtt_ack(rp, t += 1000, 0, 112000), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "region"), 4);
    ck_assert_double_eq_tol(ts_rp_var(rp, "gradient"), 0.08744179606437683, 1e-12);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 80697040129ull);
    ck_assert_double_eq(ts_rp_var(rp, "hai_count"), 0);
    /* 40 us < T_low: + delta, not counted toward HAI in the paper */
    ck_assert_int_eq(ts_on_rtt_ack(rp, t += 1000, 0, 40000), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 80707040129ull);
    ck_assert_double_eq(ts_rp_var(rp, "hai_count"), 0);
    ck_assert_double_eq(ts_rp_var(rp, "region"), 1);
    /* an ACK without a timestamp changes nothing */
    libcc_ack a;
    memset(&a, 0, sizeof a);
    ck_assert_int_eq(libcc_rp_on_ack(rp, t += 1000, &a), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 80707040129ull);
    ck_assert_double_eq(ts_rp_var(rp, "samples"), 10);
    libcc_rp_del(rp);
}
END_TEST

/* Decreases stop at min_rate; a gradient above 1/beta gives factor 0. */
START_TEST(test_floor)
{
    libcc_rp *rp = ts_make_rp("timely", "min_rate=1Gbps", G100, 12000, NULL, NULL);
    ck_assert_int_eq(ts_on_rtt_ack(rp, 1000000, 0, 60000), LIBCC_OK);
    /* 400 us: rtt_diff = 0.875 * 340000 = 297500, gradient 14.875: factor
     * 1 - 11.9 < 0 -> 0 -> the floor */
    ck_assert_int_eq(ts_on_rtt_ack(rp, 1001000, 0, 400000), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 1000000000ull);
    libcc_rp_del(rp);
}
END_TEST

/* hpcc-sim: one update per window (the first ACK past the snd_nxt of the
 * last update), every increase counts toward HAI, steps 100/500 Mbit/s. */
START_TEST(test_hpcc_sim_per_window)
{
    libcc_rp *rp = ts_make_rp("timely", "preset=hpcc-sim", G100, 12000, NULL, NULL);
    ck_assert_int_eq(libcc_rp_on_tx(rp, 1000000, 0, 10000, NULL), LIBCC_OK);
    ck_assert_int_eq(ts_on_rtt_ack(rp, 1100000, 1000, 30000), LIBCC_OK); /* first: window to 10000 */
    ck_assert_int_eq(ts_on_rtt_ack(rp, 1101000, 2000, 600000), LIBCC_OK); /* inside it: ignored */
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), G100);
    ck_assert_double_eq(ts_rp_var(rp, "samples"), 1);
    ck_assert_int_eq(libcc_rp_on_tx(rp, 1102000, 10000, 10000, NULL), LIBCC_OK);
    /* past 10000: T_high cut by 13/15 as in the paper; window to 20000 */
    ck_assert_int_eq(ts_on_rtt_ack(rp, 1103000, 10001, 600000), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 86666666667ull);
    /* 40 us < T_low, one window each: + 100 Mbit/s five times, then the
     * 6th increase is HAI: + 500 Mbit/s */
    static const uint64_t want[6] = {86766666667ull, 86866666667ull, 86966666667ull,
                                     87066666667ull, 87166666667ull, 87666666667ull};
    uint64_t seq = 20000;
    for (int i = 0; i < 6; i++) {
        ck_assert_int_eq(libcc_rp_on_tx(rp, 1104000 + (uint64_t)i * 2000, seq, 10000, NULL), LIBCC_OK);
        ck_assert_int_eq(ts_on_rtt_ack(rp, 1105000 + (uint64_t)i * 2000, seq + 1, 40000), LIBCC_OK);
        ck_assert_uint_eq(libcc_rp_rate_bps(rp), want[i]);
        seq += 10000;
    }
    libcc_rp_del(rp);
}
END_TEST

START_TEST(test_t_low_above_t_high_refused)
{
    libcc_params *p = NULL;
    ck_assert_int_eq(libcc_params_new(&p, "timely"), LIBCC_OK);
    ck_assert_int_eq(libcc_params_parse(p, "t_low=600us"), LIBCC_OK);
    ck_assert_int_eq(libcc_params_validate(p), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "t_high"));
    libcc_params_del(p);
}
END_TEST

START_TEST(test_docs_params)
{
    char *doc = ts_read_source_file("docs/algorithms/timely.md");
    ts_doc_has_params(doc, "docs/algorithms/timely.md", "timely");
    free(doc);
}
END_TEST

START_TEST(test_replay_timely_trace)
{
    char *csv = ts_run_replay("examples/traces/timely.trace");
    ck_assert_double_eq(ts_csv_at(csv, 700000, "ack", "rate_bps"), 86666666667.0);
    ck_assert_double_eq(ts_csv_at(csv, 800000, "ack", "rate_bps"), 86676666667.0);
    ck_assert_double_eq(ts_csv_at(csv, 1200000, "ack", "rate_bps"), 86766666667.0);
    ck_assert_double_eq(ts_csv_at(csv, 1300000, "ack", "rate_bps"), 80697040129.0);
    free(csv);
}
END_TEST

Suite *timely_suite(void)
{
    Suite *s = suite_create("timely");
    TCase *tc = tcase_create("rp");
    tcase_add_test(tc, test_paper_regions_and_hai);
    tcase_add_test(tc, test_floor);
    tcase_add_test(tc, test_hpcc_sim_per_window);
    tcase_add_test(tc, test_t_low_above_t_high_refused);
    suite_add_tcase(s, tc);
    tc = tcase_create("docs");
    tcase_add_test(tc, test_docs_params);
    tcase_add_test(tc, test_replay_timely_trace);
    suite_add_tcase(s, tc);
    return s;
}
