/* SPDX-License-Identifier: MIT */
/*
 * DCQCN Notification Point: a CE-marked data packet requests a CNP, at most
 * one per flow per min_time_between_cnps (default 4 us), independently per
 * flow. Expected counts are derived by hand in the comments.
 */
#include "check_dcqcn.h"

#define MAX_CNPS 256

typedef struct np_host {
    int n;
    uint64_t flow[MAX_CNPS];
    uint64_t at[MAX_CNPS];
} np_host;

static void on_cnp(libcc_np *np, uint64_t now, uint64_t flow_id, void *ud)
{
    (void)np;
    np_host *h = ud;
    ck_assert_int_lt(h->n, MAX_CNPS);
    h->flow[h->n] = flow_id;
    h->at[h->n] = now;
    h->n++;
}

static libcc_np *make_np(const char *assign, np_host *h)
{
    libcc_params *p = dq_params(assign);
    libcc_np_info info = {.max_flows = 16, .line_rate_bps = LINE};
    libcc_np_callbacks cbs = {.send_cnp = on_cnp};
    libcc_np *np = NULL;
    memset(h, 0, sizeof *h);
    ck_assert_int_eq(libcc_np_new(&np, p, &info, &cbs, h), LIBCC_OK);
    libcc_params_del(p);
    return np;
}

/* Deliver one data packet; returns the verdict's send_cnp. */
static int data(libcc_np *np, uint64_t now, uint64_t flow, int ce)
{
    libcc_data_pkt pkt = {.flow_id = flow, .bytes = 1000, .ecn_ce = (uint8_t)ce};
    libcc_np_verdict v;
    ck_assert_int_eq(libcc_np_on_data(np, now, &pkt, &v), LIBCC_OK);
    return v.send_cnp;
}

START_TEST(ce_mark_requests_a_cnp_for_its_flow)
{
    np_host h;
    libcc_np *np = make_np(NULL, &h);
    ck_assert_int_eq(data(np, 0, 7, 0), 0); /* unmarked: nothing */
    ck_assert_int_eq(h.n, 0);
    ck_assert_int_eq(data(np, 100, 7, 1), 1);
    ck_assert_int_eq(h.n, 1);
    ck_assert_uint_eq(h.flow[0], 7);
    ck_assert_uint_eq(h.at[0], 100);
    libcc_np_del(np);
}
END_TEST

START_TEST(cnps_paced_to_one_per_interval)
{
    np_host h;
    libcc_np *np = make_np(NULL, &h);
    /* Interval 4 us from the last CNP: marks at 0 (CNP), 1, 3.999 us (no),
     * 4 us (CNP: exactly one interval later), 7.999 us (no), 8 us (CNP). */
    ck_assert_int_eq(data(np, 0, 1, 1), 1);
    ck_assert_int_eq(data(np, 1 * US, 1, 1), 0);
    ck_assert_int_eq(data(np, 4 * US - 1, 1, 1), 0);
    ck_assert_int_eq(data(np, 4 * US, 1, 1), 1);
    ck_assert_int_eq(data(np, 8 * US - 1, 1, 1), 0);
    ck_assert_int_eq(data(np, 8 * US, 1, 1), 1);
    ck_assert_int_eq(h.n, 3);
    libcc_np_del(np);

    /* A mark every 1 us for 100 us (t = 0..99 us): CNPs at 0, 4, ..., 96 us,
     * floor(99 / 4) + 1 = 25 of them. */
    np = make_np(NULL, &h);
    for (uint64_t t = 0; t < 100; t++)
        data(np, t * US, 1, 1);
    ck_assert_int_eq(h.n, 25);
    for (int i = 0; i < h.n; i++)
        ck_assert_uint_eq(h.at[i], (uint64_t)i * 4 * US);
    libcc_np_del(np);
}
END_TEST

START_TEST(flows_are_paced_independently)
{
    np_host h;
    libcc_np *np = make_np(NULL, &h);
    ck_assert_int_eq(data(np, 0, 1, 1), 1);           /* A */
    ck_assert_int_eq(data(np, 1 * US, 2, 1), 1);      /* B: A's interval is no concern */
    ck_assert_int_eq(data(np, 2 * US, 1, 1), 0);      /* A within its 4 us */
    ck_assert_int_eq(data(np, 3 * US, 2, 1), 0);      /* B within its 4 us */
    ck_assert_int_eq(data(np, 4 * US, 1, 1), 1);      /* A: 4 us since 0 */
    ck_assert_int_eq(data(np, 5 * US - 1, 2, 1), 0);  /* B: 3.999 us since 1 us */
    ck_assert_int_eq(data(np, 5 * US, 2, 1), 1);      /* B: 4 us since 1 us */
    ck_assert_int_eq(h.n, 4);
    const uint64_t flows[4] = {1, 2, 1, 2};
    for (int i = 0; i < 4; i++)
        ck_assert_uint_eq(h.flow[i], flows[i]);
    libcc_np_del(np);
}
END_TEST

START_TEST(interval_is_a_parameter)
{
    np_host h;
    /* 0: every marked packet gets its CNP. */
    libcc_np *np = make_np("min_time_between_cnps=0", &h);
    for (uint64_t i = 0; i < 10; i++)
        ck_assert_int_eq(data(np, i, 3, 1), 1);
    ck_assert_int_eq(h.n, 10);
    libcc_np_del(np);
    /* The paper's N = 50 us: marks every 10 us for 100 us (0..90) give CNPs
     * at 0 and 50 us only. */
    np = make_np("min_time_between_cnps=50us", &h);
    for (uint64_t t = 0; t < 100; t += 10)
        data(np, t * US, 3, 1);
    ck_assert_int_eq(h.n, 2);
    ck_assert_uint_eq(h.at[1], 50 * US);
    libcc_np_del(np);
}
END_TEST

START_TEST(probes_and_ended_flows)
{
    np_host h;
    libcc_np *np = make_np(NULL, &h);
    /* A CE-marked probe is not data: no CNP. */
    libcc_data_pkt probe = {.flow_id = 1, .ecn_ce = 1, .is_probe = 1};
    libcc_np_verdict v;
    ck_assert_int_eq(libcc_np_on_data(np, 0, &probe, &v), LIBCC_OK);
    ck_assert_int_eq(v.send_cnp, 0);
    ck_assert_int_eq(h.n, 0);
    /* A flow that ended is forgotten: its successor with the same id is
     * not held back by the old flow's interval. */
    ck_assert_int_eq(data(np, 0, 1, 1), 1);
    ck_assert_int_eq(libcc_np_flow_end(np, 1 * US, 1), LIBCC_OK);
    ck_assert_int_eq(data(np, 2 * US, 1, 1), 1);
    ck_assert_int_eq(h.n, 2);
    libcc_np_del(np);
}
END_TEST

START_TEST(np_misuse_returns_errors)
{
    np_host h;
    libcc_np *np = make_np(NULL, &h);
    libcc_data_pkt pkt = {.flow_id = 1, .ecn_ce = 1};
    libcc_np_verdict v;
    ck_assert_int_eq(libcc_np_on_data(NULL, 0, &pkt, &v), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_np_on_data(np, 0, NULL, &v), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_np_on_data(np, 0, &pkt, NULL), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_np_on_data(np, 10, &pkt, &v), LIBCC_OK);
    ck_assert_int_eq(libcc_np_on_data(np, 5, &pkt, &v), LIBCC_ERR_TIME_BACKWARDS);
    ck_assert_int_eq(h.n, 1);
    libcc_np_del(np);
}
END_TEST

Suite *dcqcn_np_suite(void)
{
    Suite *s = suite_create("dcqcn_np");
    TCase *t = tcase_create("cnp");
    tcase_add_test(t, ce_mark_requests_a_cnp_for_its_flow);
    tcase_add_test(t, cnps_paced_to_one_per_interval);
    tcase_add_test(t, flows_are_paced_independently);
    tcase_add_test(t, interval_is_a_parameter);
    tcase_add_test(t, probes_and_ended_flows);
    tcase_add_test(t, np_misuse_returns_errors);
    suite_add_tcase(s, t);
    return s;
}
