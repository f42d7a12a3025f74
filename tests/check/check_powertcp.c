/* SPDX-License-Identifier: MIT */
/*
 * PowerTCP and theta-PowerTCP (docs/algorithms/powertcp.md). Expected
 * values worked out by hand from Algorithms 1 and 2 of the paper. Flow:
 * 100 Gbit/s, tau = 12 us, MTU 1000 B: BDP = W_max = 150000 B; defaults
 * gamma 0.9, beta = 150 Mbit/s * 12 us = 225 B, eta 1.
 */
#include "test_support.h"

#include <check.h>
#include <libcc/libcc.h>
#include <stdlib.h>
#include <string.h>

#define G100 100000000000ull

static int int_ack(libcc_rp *rp, uint64_t now, uint64_t seq, uint64_t ts, uint64_t tx, uint64_t q)
{
    libcc_int_list l = ts_one_hop(G100, ts, tx, q);
    libcc_ack a;
    memset(&a, 0, sizeof a);
    a.seq = seq;
    a.int_list = &l;
    return libcc_rp_on_ack(rp, now, &a);
}

START_TEST(test_int_power_and_window)
{
    libcc_rp *rp = ts_make_rp("powertcp", NULL, G100, 12000, NULL, NULL);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    ck_assert_int_eq(libcc_rp_on_tx(rp, 0, 0, 20000, NULL), LIBCC_OK);
    /* the first record is only the reference */
    ck_assert_int_eq(int_ack(rp, 20000, 1000, 10000, 0, 0), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    ck_assert_double_eq(ts_rp_var(rp, "updates"), 0);
    /* 12 us later the hop sent 150000 B (mu = 100 Gbit/s) and its queue
     * grew by 150000 B (qdot = 100 Gbit/s): current 200 Gbit/s = 2B;
     * voltage q + BDP = 2 BDP: Gamma = 4; dt = tau: smoothed 4. First
     * update of this RTT: cwnd_old = 150000; cwnd = 0.9 * (150000/4 + 225)
     * + 0.1 * 150000 = 48952.5 -> 48953 B, rate 48952.5 B / 12 us */
    ck_assert_int_eq(int_ack(rp, 32000, 2000, 22000, 150000, 150000), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "power_sample"), 4);
    ck_assert_double_eq(ts_rp_var(rp, "power"), 4);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 48953);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 32635000000ull);
    /* 6 us later: 37500 B sent (50 Gbit/s), queue unchanged: Gamma = 0.5 * 2
     * = 1; smoothed (4 * 6 + 1 * 6) / 12 = 2.5. Same RTT: cwnd_old stays
     * 150000: cwnd = 0.9 * (60000 + 225) + 0.1 * 48952.5 = 59097.75 */
    ck_assert_int_eq(int_ack(rp, 38000, 3000, 28000, 187500, 150000), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "power"), 2.5);
    ck_assert_double_eq(ts_rp_var(rp, "cwnd_old"), 150000);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 59098);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 39398500000ull);
    /* a record that did not advance in time gives no power: nothing moves */
    ck_assert_int_eq(int_ack(rp, 39000, 3000, 28000, 187500, 150000), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 59098);
    libcc_rp_del(rp);
}
END_TEST

/* The simulator's preset: eta 0.95, the current floored at B/2, the
 * (1 - gamma) share on cwnd_old. */
START_TEST(test_int_hpcc_sim_preset)
{
    libcc_rp *rp = ts_make_rp("powertcp", "preset=hpcc-sim", G100, 12000, NULL, NULL);
    ck_assert_int_eq(libcc_rp_on_tx(rp, 0, 0, 20000, NULL), LIBCC_OK);
    ck_assert_int_eq(int_ack(rp, 20000, 1000, 10000, 0, 0), LIBCC_OK);
    /* Gamma 4 as above: 0.9 * (150000 * 0.95 / 4 + 225) + 0.1 * 150000 = 47265 */
    ck_assert_int_eq(int_ack(rp, 32000, 2000, 22000, 150000, 150000), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 47265);
    /* Gamma 1, smoothed 2.5: 0.9 * (57000 + 225) + 0.1 * 150000 (cwnd_old,
     * not 47265) = 66502.5 -> 66503 */
    ck_assert_int_eq(int_ack(rp, 38000, 3000, 28000, 187500, 150000), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 66503);
    /* an idle hop (nothing sent, queue 0): current floored at 0.5 B, Gamma
     * = 0.5; dt 12 us: smoothed 0.5; 0.9 * min(150000*0.95/0.5, W_max) ...
     * the window is capped at the BDP */
    ck_assert_int_eq(int_ack(rp, 50000, 4000, 40000, 187500, 0), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "power_sample"), 0.5);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    libcc_rp_del(rp);
}
END_TEST

START_TEST(test_theta_power_from_rtt)
{
    libcc_rp *rp = ts_make_rp("theta-powertcp", NULL, G100, 12000, NULL, NULL);
    ck_assert_int_eq(libcc_rp_on_tx(rp, 0, 0, 20000, NULL), LIBCC_OK);
    ck_assert_int_eq(ts_on_rtt_ack(rp, 50000, 1000, 12000), LIBCC_OK); /* first: reference */
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    /* 6 us later the RTT grew 6 us: theta-dot = 1, current 2; voltage
     * 18/12: Gamma = 3; smoothed (1 * 6 + 3 * 6) / 12 = 2;
     * cwnd = 0.9 * (75000 + 225) + 0.1 * 150000 = 82702.5 -> 82703 */
    ck_assert_int_eq(ts_on_rtt_ack(rp, 56000, 2000, 18000), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "power_sample"), 3);
    ck_assert_double_eq(ts_rp_var(rp, "power"), 2);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 82703);
    /* RTT steady at 18 us: Gamma = 1.5, smoothed 1.75;
     * cwnd = 0.9 * (150000/1.75 + 225) + 0.1 * 82702.5 = 85615.607 */
    ck_assert_int_eq(ts_on_rtt_ack(rp, 62000, 3000, 18000), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 85616);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 57077071429ull);
    /* no timestamp: no sample */
    libcc_ack a;
    memset(&a, 0, sizeof a);
    ck_assert_int_eq(libcc_rp_on_ack(rp, 63000, &a), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 85616);
    libcc_rp_del(rp);
    /* track_min_rtt: tau follows a smaller RTT */
    rp = ts_make_rp("theta-powertcp", "track_min_rtt=1", G100, 12000, NULL, NULL);
    ck_assert_int_eq(ts_on_rtt_ack(rp, 50000, 0, 10000), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "tau"), 10000);
    libcc_rp_del(rp);
}
END_TEST

START_TEST(test_docs_params)
{
    char *doc = ts_read_source_file("docs/algorithms/powertcp.md");
    ts_doc_has_params(doc, "docs/algorithms/powertcp.md", "powertcp");
    ts_doc_has_params(doc, "docs/algorithms/powertcp.md", "theta-powertcp");
    free(doc);
}
END_TEST

START_TEST(test_replay_traces)
{
    char *csv = ts_run_replay("examples/traces/powertcp.trace");
    ck_assert_double_eq(ts_csv_at(csv, 32000, "ack", "window_bytes"), 48953);
    ck_assert_double_eq(ts_csv_at(csv, 38000, "ack", "window_bytes"), 59098);
    free(csv);
    csv = ts_run_replay("examples/traces/theta-powertcp.trace");
    ck_assert_double_eq(ts_csv_at(csv, 56000, "ack", "window_bytes"), 82703);
    ck_assert_double_eq(ts_csv_at(csv, 62000, "ack", "window_bytes"), 85616);
    free(csv);
}
END_TEST

Suite *powertcp_suite(void)
{
    Suite *s = suite_create("powertcp");
    TCase *tc = tcase_create("rp");
    tcase_add_test(tc, test_int_power_and_window);
    tcase_add_test(tc, test_int_hpcc_sim_preset);
    tcase_add_test(tc, test_theta_power_from_rtt);
    suite_add_tcase(s, tc);
    tc = tcase_create("docs");
    tcase_add_test(tc, test_docs_params);
    tcase_add_test(tc, test_replay_traces);
    suite_add_tcase(s, tc);
    return s;
}
