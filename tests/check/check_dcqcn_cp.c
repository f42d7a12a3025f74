/* SPDX-License-Identifier: MIT */
/*
 * DCQCN Congestion Point: RED marking p(q) = 0 at or below Kmin,
 * Pmax (q - Kmin)/(Kmax - Kmin) up to Kmax, 1 above; only ECN-capable data
 * packets; at dequeue by default (ecn_mark_at_dequeue=1), at enqueue if 0.
 * Defaults: Kmin 100 KB, Kmax 400 KB, Pmax 0.2.
 */
#include "check_dcqcn.h"

typedef struct coin {
    uint64_t value; /* what the host generator returns */
    int draws;
} coin;

static uint64_t coin_rand(void *ud)
{
    coin *c = ud;
    c->draws++;
    return c->value;
}

static libcc_cp *make_cp(const char *assign, uint64_t seed, coin *host_coin)
{
    libcc_params *p = dq_params(assign);
    libcc_cp_info info = {.switch_id = 1, .port_id = 2, .link_rate_bps = LINE, .seed = seed};
    if (host_coin) {
        info.rand = coin_rand;
        info.rand_user_data = host_coin;
    }
    libcc_cp *cp = NULL;
    ck_assert_int_eq(libcc_cp_new(&cp, p, &info), LIBCC_OK);
    libcc_params_del(p);
    return cp;
}

/* Pass one packet through dequeue (or enqueue) with its priority's queue
 * at `queue` and the whole port at `port`; returns mark_ce. */
static int pass_q(libcc_cp *cp, int at_enqueue, uint64_t queue, uint64_t port, libcc_pkt_kind kind,
                  int ect)
{
    libcc_cp_pkt pkt = {.kind = kind,
                        .bytes = 1000,
                        .queue_bytes = queue,
                        .port_queue_bytes = port,
                        .ecn_capable = (uint8_t)ect};
    int rc = at_enqueue ? libcc_cp_on_enqueue(cp, 0, &pkt) : libcc_cp_on_dequeue(cp, 0, &pkt);
    ck_assert_int_eq(rc, LIBCC_OK);
    return pkt.mark_ce;
}

/* The same with one queue on the port: both lengths are q. */
static int pass(libcc_cp *cp, int at_enqueue, uint64_t q, libcc_pkt_kind kind, int ect)
{
    return pass_q(cp, at_enqueue, q, q, kind, ect);
}

START_TEST(mark_probability_follows_red)
{
    libcc_cp *cp = make_cp(NULL, 1, NULL);
    ck_assert_double_eq(libcc_cp_mark_probability(cp, 0), 0.0);
    ck_assert_double_eq(libcc_cp_mark_probability(cp, 100000), 0.0); /* at Kmin */
    /* 175 KB: 0.2 * 75/300 = 0.05; midway 250 KB: Pmax/2 = 0.1 */
    ck_assert_double_eq_tol(libcc_cp_mark_probability(cp, 175000), 0.05, 1e-15);
    ck_assert_double_eq_tol(libcc_cp_mark_probability(cp, 250000), 0.1, 1e-15);
    ck_assert_double_eq_tol(libcc_cp_mark_probability(cp, 400000), 0.2, 1e-15); /* at Kmax */
    ck_assert_double_eq(libcc_cp_mark_probability(cp, 400001), 1.0);
    ck_assert_double_eq(libcc_cp_mark_probability(cp, 10000000), 1.0);
    libcc_cp_del(cp);
    /* Kmin = Kmax: a step, no division by zero. */
    cp = make_cp("kmin=50KB, kmax=50KB", 1, NULL);
    ck_assert_double_eq(libcc_cp_mark_probability(cp, 50000), 0.0);
    ck_assert_double_eq(libcc_cp_mark_probability(cp, 50001), 1.0);
    libcc_cp_del(cp);
}
END_TEST

/* Observed marking frequency over n = 100000 draws at probability p. The
 * binomial standard deviation of the frequency is sqrt(p(1-p)/n): 0.00095 at
 * p = 0.1, 0.0016 at p = 0.5, so 0.01 (1 % absolute) is over 6 sigma: a
 * sound generator cannot miss it, a wrong p (or a biased coin) does. */
static void check_frequency(const char *assign, uint64_t q, double p, uint64_t seed)
{
    libcc_cp *cp = make_cp(assign, seed, NULL);
    int marks = 0;
    const int n = 100000;
    for (int i = 0; i < n; i++)
        marks += pass(cp, 0, q, LIBCC_PKT_DATA, 1);
    ck_assert_double_eq_tol((double)marks / n, p, 0.01);
    libcc_cp_del(cp);
}

START_TEST(observed_marking_frequency_matches_p)
{
    check_frequency(NULL, 250000, 0.1, 42);             /* midway: Pmax/2 */
    check_frequency(NULL, 175000, 0.05, 7);             /* a quarter: Pmax/4 */
    check_frequency("pmax=1", 250000, 0.5, 12345);      /* midway with Pmax 1 */
    check_frequency("pmax=1", 340000, 0.8, 0);          /* (340-100)/300 */
}
END_TEST

START_TEST(below_kmin_never_above_kmax_always)
{
    libcc_cp *cp = make_cp(NULL, 3, NULL);
    int marks = 0;
    for (int i = 0; i < 1000; i++)
        marks += pass(cp, 0, 100000, LIBCC_PKT_DATA, 1);
    ck_assert_int_eq(marks, 0);
    for (int i = 0; i < 1000; i++)
        marks += pass(cp, 0, 400001, LIBCC_PKT_DATA, 1);
    ck_assert_int_eq(marks, 1000);
    libcc_cp_del(cp);
}
END_TEST

/* RED applies to the queue of the packet's own priority (queue_bytes); the
 * port's total (port_queue_bytes, INT's qLen) includes other classes and
 * must not decide. Defaults Kmin 100 KB, Kmax 400 KB, Pmax 0.2:
 *   queue 100 KB (= Kmin: p = 0), port 1 MB (> Kmax)  -> never marked;
 *   queue 400001 B (> Kmax: p = 1), port 0            -> always marked;
 *   queue 250 KB (p = 0.2 * 150/300 = 0.1), port 1 MB -> marked when the
 *   coin is below 0.1: a host coin of 0.05 marks, 0.15 does not (a port
 *   queue above Kmax would give p = 1 and mark both).
 * At enqueue and at dequeue alike. */
START_TEST(marks_by_priority_queue_not_port)
{
    for (int at_enqueue = 0; at_enqueue < 2; at_enqueue++) {
        libcc_cp *cp = make_cp(at_enqueue ? "ecn_mark_at_dequeue=0" : NULL, 3, NULL);
        int marks = 0;
        for (int i = 0; i < 1000; i++)
            marks += pass_q(cp, at_enqueue, 100000, 1000000, LIBCC_PKT_DATA, 1);
        ck_assert_int_eq(marks, 0);
        for (int i = 0; i < 1000; i++)
            marks += pass_q(cp, at_enqueue, 400001, 0, LIBCC_PKT_DATA, 1);
        ck_assert_int_eq(marks, 1000);
        libcc_cp_del(cp);
    }
    /* unit draw = (x >> 11) * 2^-53 = x / 2^64 for x a multiple of 2^11 */
    coin below = {(uint64_t)(0.05 * 18446744073709551616.0), 0};
    coin above = {(uint64_t)(0.15 * 18446744073709551616.0), 0};
    libcc_cp *cp = make_cp(NULL, 0, &below);
    ck_assert_int_eq(pass_q(cp, 0, 250000, 1000000, LIBCC_PKT_DATA, 1), 1);
    libcc_cp_del(cp);
    cp = make_cp(NULL, 0, &above);
    ck_assert_int_eq(pass_q(cp, 0, 250000, 1000000, LIBCC_PKT_DATA, 1), 0);
    ck_assert_int_eq(above.draws, 1);
    libcc_cp_del(cp);
}
END_TEST

START_TEST(only_ecn_capable_data_is_marked)
{
    libcc_cp *cp = make_cp(NULL, 3, NULL);
    /* Above Kmax, where ECT data is always marked: */
    ck_assert_int_eq(pass(cp, 0, 1000000, LIBCC_PKT_DATA, 1), 1);
    ck_assert_int_eq(pass(cp, 0, 1000000, LIBCC_PKT_DATA, 0), 0); /* not ECT */
    ck_assert_int_eq(pass(cp, 0, 1000000, LIBCC_PKT_CNP, 1), 0);
    ck_assert_int_eq(pass(cp, 0, 1000000, LIBCC_PKT_ACK, 1), 0);
    ck_assert_int_eq(pass(cp, 0, 1000000, LIBCC_PKT_NACK, 1), 0);
    ck_assert_int_eq(pass(cp, 0, 1000000, LIBCC_PKT_PROBE, 1), 0);
    ck_assert_int_eq(pass(cp, 0, 1000000, LIBCC_PKT_OTHER, 1), 0);
    /* An upstream mark is never cleared, even on an empty queue. */
    libcc_cp_pkt pkt = {.kind = LIBCC_PKT_DATA, .bytes = 1000, .ecn_capable = 1, .mark_ce = 1};
    ck_assert_int_eq(libcc_cp_on_dequeue(cp, 0, &pkt), LIBCC_OK);
    ck_assert_int_eq(pkt.mark_ce, 1);
    libcc_cp_del(cp);
}
END_TEST

START_TEST(enqueue_or_dequeue_is_a_parameter)
{
    /* Default: dequeue. */
    libcc_cp *cp = make_cp(NULL, 3, NULL);
    ck_assert_int_eq(pass(cp, 1, 1000000, LIBCC_PKT_DATA, 1), 0);
    ck_assert_int_eq(pass(cp, 0, 1000000, LIBCC_PKT_DATA, 1), 1);
    libcc_cp_del(cp);
    cp = make_cp("ecn_mark_at_dequeue=0", 3, NULL);
    ck_assert_int_eq(pass(cp, 1, 1000000, LIBCC_PKT_DATA, 1), 1);
    ck_assert_int_eq(pass(cp, 0, 1000000, LIBCC_PKT_DATA, 1), 0);
    libcc_cp_del(cp);
}
END_TEST

START_TEST(coin_comes_from_the_cp_generator)
{
    /* A host generator returning 0 gives the unit draw 0 < p: marks as
     * soon as p > 0; one returning all ones gives 1 - 2^-53 >= p: never
     * marks while p < 1. Randomness is drawn only where 0 < p < 1. */
    coin low = {0, 0}, high = {UINT64_MAX, 0};
    libcc_cp *cp = make_cp(NULL, 0, &low);
    ck_assert_int_eq(pass(cp, 0, 100000, LIBCC_PKT_DATA, 1), 0); /* p = 0 */
    ck_assert_int_eq(low.draws, 0);
    ck_assert_int_eq(pass(cp, 0, 100001, LIBCC_PKT_DATA, 1), 1); /* p tiny */
    ck_assert_int_eq(low.draws, 1);
    ck_assert_int_eq(pass(cp, 0, 400001, LIBCC_PKT_DATA, 1), 1); /* p = 1 */
    ck_assert_int_eq(low.draws, 1);
    libcc_cp_del(cp);
    cp = make_cp("pmax=1", 0, &high);
    ck_assert_int_eq(pass(cp, 0, 399999, LIBCC_PKT_DATA, 1), 0); /* p just below 1 */
    ck_assert_int_eq(pass(cp, 0, 400001, LIBCC_PKT_DATA, 1), 1);
    ck_assert_int_eq(high.draws, 1);
    libcc_cp_del(cp);
}
END_TEST

START_TEST(same_seed_same_marks)
{
    libcc_cp *a = make_cp(NULL, 99, NULL), *b = make_cp(NULL, 99, NULL);
    for (int i = 0; i < 1000; i++)
        ck_assert_int_eq(pass(a, 0, 250000, LIBCC_PKT_DATA, 1),
                         pass(b, 0, 250000, LIBCC_PKT_DATA, 1));
    libcc_cp_del(a);
    libcc_cp_del(b);
    /* and another seed another sequence: at p = 0.1 two independent runs of
     * 1000 agree everywhere with probability (0.82)^1000, i.e. never. */
    a = make_cp(NULL, 99, NULL);
    b = make_cp(NULL, 100, NULL);
    int differ = 0;
    for (int i = 0; i < 1000; i++)
        differ += pass(a, 0, 250000, LIBCC_PKT_DATA, 1) != pass(b, 0, 250000, LIBCC_PKT_DATA, 1);
    ck_assert_int_gt(differ, 0);
    libcc_cp_del(a);
    libcc_cp_del(b);
}
END_TEST

START_TEST(cp_misuse_returns_errors)
{
    libcc_cp *cp = make_cp(NULL, 1, NULL);
    libcc_cp_pkt pkt = {.kind = LIBCC_PKT_DATA, .ecn_capable = 1};
    ck_assert_int_eq(libcc_cp_on_dequeue(NULL, 0, &pkt), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_cp_on_enqueue(cp, 0, NULL), LIBCC_ERR_INVALID_ARG);
    ck_assert_double_eq(libcc_cp_mark_probability(NULL, 500000), 0.0);
    libcc_cp_del(cp);
    /* Contradicting thresholds cannot make a CP. */
    libcc_params *p = dq_params("kmax=100KB, kmin=200KB");
    libcc_cp_info info = {.link_rate_bps = LINE};
    ck_assert_int_eq(libcc_cp_new(&cp, p, &info), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_ptr_null(cp);
    libcc_params_del(p);
}
END_TEST

Suite *dcqcn_cp_suite(void)
{
    Suite *s = suite_create("dcqcn_cp");
    TCase *t = tcase_create("red");
    tcase_add_test(t, mark_probability_follows_red);
    tcase_add_test(t, observed_marking_frequency_matches_p);
    tcase_add_test(t, below_kmin_never_above_kmax_always);
    tcase_add_test(t, marks_by_priority_queue_not_port);
    tcase_add_test(t, only_ecn_capable_data_is_marked);
    tcase_add_test(t, enqueue_or_dequeue_is_a_parameter);
    tcase_add_test(t, coin_comes_from_the_cp_generator);
    tcase_add_test(t, same_seed_same_marks);
    tcase_add_test(t, cp_misuse_returns_errors);
    suite_add_tcase(s, t);
    return s;
}
