/* SPDX-License-Identifier: MIT */
/*
 * hpcc++: the HPCC++ draft's section 6 options. Telemetry every packet /
 * every k-th / one probe per RTT, Rx-HPCC (Figure 8) and receiver-reported
 * N. Setting as in check_hpcc.c: B = 100 Gbps, T = 12 us, B*T = 150000 B,
 * eta = 0.95; R = W * 8e9 / 12000 bit/s.
 */
#include "test_support.h"

#include <check.h>
#include <math.h>
#include <string.h>

#include <libcc/libcc.h>

#define G (UINT64_C(1000000000))
#define LINE (100 * G)
#define T_NS UINT64_C(12000)

typedef struct probe_log {
    unsigned n;
    uint64_t at[16];
    uint64_t deadline;
} probe_log;

static void on_probe(libcc_rp *rp, uint64_t now, void *ud)
{
    (void)rp;
    probe_log *l = ud;
    if (l->n < 16)
        l->at[l->n] = now;
    l->n++;
}

static void on_deadline(libcc_rp *rp, uint64_t deadline, void *ud)
{
    (void)rp;
    ((probe_log *)ud)->deadline = deadline;
}

static libcc_rp *mk_rp_cb(const char *assign, probe_log *log)
{
    libcc_rp_callbacks cbs;
    memset(&cbs, 0, sizeof cbs);
    cbs.send_probe = on_probe;
    cbs.deadline_changed = on_deadline;
    return ts_make_rp("hpcc++", assign, LINE, T_NS, &cbs, log);
}

static libcc_rp *mk_rp(const char *assign)
{
    return mk_rp_cb(assign, NULL);
}

static double var(const libcc_rp *rp, const char *name)
{
    return ts_rp_var(rp, name);
}

static libcc_int_list one_hop(uint64_t ts, uint64_t tx, uint64_t q)
{
    return ts_one_hop(LINE, ts, tx, q);
}

/* An ACK without INT (ints NULL). */
static libcc_ack mk_ack(uint64_t seq)
{
    libcc_ack a;
    memset(&a, 0, sizeof a);
    a.seq = seq;
    return a;
}

static unsigned tx_flags(libcc_rp *rp, uint64_t now, uint64_t seq)
{
    unsigned f = 0;
    ck_assert_int_eq(libcc_rp_on_tx(rp, now, seq, 1000, &f), LIBCC_OK);
    return f;
}

/* telemetry=1, int_interval=4: data packets 0, 4, 8 of the flow ask for
 * INT; telemetry=0 every packet; telemetry=2 (probes) none. */
START_TEST(test_every_k_flags)
{
    libcc_rp *rp = mk_rp("telemetry=1 int_interval=4");
    for (unsigned i = 0; i < 9; i++) {
        unsigned want = (i % 4 == 0) ? LIBCC_TX_REQUEST_INT : 0;
        ck_assert_uint_eq(tx_flags(rp, i, i * 1000), want);
    }
    libcc_rp_del(rp);
    rp = mk_rp("telemetry=0");
    for (unsigned i = 0; i < 3; i++)
        ck_assert_uint_eq(tx_flags(rp, i, i * 1000), LIBCC_TX_REQUEST_INT);
    libcc_rp_del(rp);
    probe_log log = {0};
    rp = mk_rp_cb("telemetry=2", &log);
    for (unsigned i = 0; i < 3; i++)
        ck_assert_uint_eq(tx_flags(rp, i, i * 1000), 0);
    libcc_rp_del(rp);
}
END_TEST

/* Probe mode: one probe when data starts flowing, the next one T after the
 * previous probe once its response came back, none while nothing is in
 * flight, and a new one after 4T without a response (lost). */
START_TEST(test_probe_once_per_rtt)
{
    probe_log log;
    memset(&log, 0, sizeof log);
    libcc_rp *rp = mk_rp_cb("telemetry=2", &log);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), LIBCC_NO_DEADLINE); /* nothing in flight */
    ck_assert_uint_eq(log.n, 0);

    tx_flags(rp, 0, 0); /* data in flight: probe #1 at 0, loss timer 0 + 4T */
    ck_assert_uint_eq(log.n, 1);
    ck_assert_uint_eq(log.at[0], 0);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 48000);
    tx_flags(rp, 1000, 1000); /* probe outstanding: no second one */
    ck_assert_uint_eq(log.n, 1);

    /* Response at 11 us, 1000 of 2000 bytes acknowledged: the next probe is
     * due T after the first, at 12 us. */
    libcc_ack a = mk_ack(1000);
    a.is_probe = 1;
    ck_assert_int_eq(libcc_rp_on_ack(rp, 11000, &a), LIBCC_OK);
    ck_assert_uint_eq(log.n, 1);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 12000);
    ck_assert_uint_eq(log.deadline, 12000); /* the host was told */
    ck_assert_int_eq(libcc_rp_on_timer(rp, 12000), LIBCC_OK);
    ck_assert_uint_eq(log.n, 2);
    ck_assert_uint_eq(log.at[1], 12000);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 60000); /* 12 us + 4T */

    /* Everything acknowledged: no probing, no timer. */
    a = mk_ack(2000);
    ck_assert_int_eq(libcc_rp_on_ack(rp, 13000, &a), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), LIBCC_NO_DEADLINE);
    a.is_probe = 1;
    ck_assert_int_eq(libcc_rp_on_ack(rp, 20000, &a), LIBCC_OK);
    ck_assert_uint_eq(log.n, 2);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), LIBCC_NO_DEADLINE);

    /* New data at 30 us, more than T after the last probe: probe #3 now. */
    tx_flags(rp, 30000, 2000);
    ck_assert_uint_eq(log.n, 3);
    ck_assert_uint_eq(log.at[2], 30000);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 78000);
    /* No response by 30 us + 4T = 78 us: lost, probe #4. */
    ck_assert_int_eq(libcc_rp_on_timer(rp, 77999), LIBCC_OK);
    ck_assert_uint_eq(log.n, 3);
    ck_assert_int_eq(libcc_rp_on_timer(rp, 78000), LIBCC_OK);
    ck_assert_uint_eq(log.n, 4);
    ck_assert_uint_eq(log.at[3], 78000);
    libcc_rp_del(rp);
}
END_TEST

/* Probe responses carry INT and drive the window like ACKs: first record
 * stored, then u' = 1 gives W = 150000*0.95 + 500 = 143000. */
START_TEST(test_probe_response_updates_window)
{
    probe_log log;
    memset(&log, 0, sizeof log);
    libcc_rp *rp = mk_rp_cb("telemetry=2 w_ai=500B", &log);
    for (uint64_t s = 0; s < 10000; s += 1000)
        tx_flags(rp, 0, s);
    libcc_ack a = mk_ack(1000);
    libcc_int_list l = one_hop(0, 0, 0);
    a.is_probe = 1;
    a.int_list = &l;
    ck_assert_int_eq(libcc_rp_on_ack(rp, 12000, &a), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    a.seq = 2000;
    l = one_hop(12000, 150000, 0);
    ck_assert_int_eq(libcc_rp_on_ack(rp, 24000, &a), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 143000);
    libcc_rp_del(rp);
}
END_TEST

/* Rx-HPCC at the sender: only the receiver's W counts, bounded to
 * [one MTU, B*T]; ACK telemetry is not used. */
START_TEST(test_rx_window_applied)
{
    libcc_rp *rp = mk_rp("rx_hpcc=1 w_ai=500B");
    for (uint64_t s = 0; s < 10000; s += 1000)
        tx_flags(rp, 0, s);
    /* Two ACKs whose INT would give W = 143000 in sender mode. */
    libcc_ack a = mk_ack(1000);
    libcc_int_list l = one_hop(0, 0, 0);
    a.int_list = &l;
    ck_assert_int_eq(libcc_rp_on_ack(rp, 1, &a), LIBCC_OK);
    a = mk_ack(2000);
    l = one_hop(12000, 150000, 0);
    a.int_list = &l;
    ck_assert_int_eq(libcc_rp_on_ack(rp, 2, &a), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    /* rxwin 64 KB = 64000 B: R = 64000*8e9/12000 = 42666666666.7. */
    a = mk_ack(3000);
    a.rx_window_bytes = 64000;
    ck_assert_int_eq(libcc_rp_on_ack(rp, 3, &a), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 64000);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 42666666667u);
    /* 1 MB is above B*T: 150000 and line rate. */
    a.rx_window_bytes = 1000000;
    ck_assert_int_eq(libcc_rp_on_ack(rp, 4, &a), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), LINE);
    /* 10 B is below one MTU: 1000 B, 1000*8e9/12000 = 666666666.7. */
    a.rx_window_bytes = 10;
    ck_assert_int_eq(libcc_rp_on_ack(rp, 5, &a), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 1000);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 666666667u);
    /* An ACK without a window changes nothing. */
    a.rx_window_bytes = 0;
    ck_assert_int_eq(libcc_rp_on_ack(rp, 6, &a), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 1000);
    libcc_rp_del(rp);
}
END_TEST

static libcc_np *mk_np_on(const char *assign, uint64_t line, uint64_t t_ns)
{
    libcc_params *p = ts_make_params("hpcc++", assign);
    libcc_np_info ni;
    memset(&ni, 0, sizeof ni);
    ni.max_flows = 16;
    ni.line_rate_bps = line;
    ni.base_rtt_ns = t_ns;
    libcc_np *np = NULL;
    ck_assert_int_eq(libcc_np_new(&np, p, &ni, NULL, NULL), LIBCC_OK);
    libcc_params_del(p);
    return np;
}

static libcc_np *mk_np(const char *assign)
{
    return mk_np_on(assign, LINE, T_NS);
}

static libcc_np_verdict np_data(libcc_np *np, uint64_t now, uint64_t flow,
                                const libcc_int_list *ints)
{
    libcc_data_pkt d;
    memset(&d, 0, sizeof d);
    d.flow_id = flow;
    d.bytes = 1000;
    d.int_list = ints;
    libcc_np_verdict v;
    ck_assert_int_eq(libcc_np_on_data(np, now, &d, &v), LIBCC_OK);
    return v;
}

/* Rx-HPCC at the receiver (Figure 8): the receiver runs MeasureInflight and
 * ComputeWind on the data packets' INT, returns W in an ACK when more than
 * T passed since the last one (forcing that ACK even between delayed ACKs,
 * here every 8 packets), and only updates W locally otherwise. W_init at
 * the receiver = its line rate * T = 150000 B. */
START_TEST(test_rx_hpcc_receiver)
{
    libcc_np *np = mk_np("rx_hpcc=1 w_ai=500B ack_interval=8");
    libcc_int_list l = one_hop(0, 0, 0);
    /* First INT: stored, nothing computed. */
    libcc_np_verdict v = np_data(np, 0, 1, &l);
    ck_assert_uint_eq(v.send_ack, 0);
    ck_assert_uint_eq(v.ack.rx_window_bytes, 0);
    /* dts = T, dtx = 150000: u' = 1, U = 1: W = 150000*0.95 + 500 = 143000;
     * the first computed W goes out at once, the ACK is forced. */
    l = one_hop(12000, 150000, 0);
    v = np_data(np, 12000, 1, &l);
    ck_assert_uint_eq(v.send_ack, 1);
    ck_assert_uint_eq(v.ack.rx_window_bytes, 143000);
    ck_assert_ptr_null(v.ack.int_list); /* the window replaces the telemetry */
    /* 1 us later (< T since 12 us): computed locally, no ACK, no window.
     * dts = 1000, dtx = 6250: 50 Gbps -> u' = 0.5; tau = 1000:
     * U = (11/12)*1 + (1/12)*0.5 = 23/24 >= eta; Wc stays 143000. */
    l = one_hop(13000, 156250, 0);
    v = np_data(np, 13000, 1, &l);
    ck_assert_uint_eq(v.send_ack, 0);
    ck_assert_uint_eq(v.ack.rx_window_bytes, 0);
    /* 25 us > 12 us + T: dts = T, dtx = 150000: u' = 1 = U,
     * W = 143000*0.95/1 + 500 = 136350 sent. */
    l = one_hop(25000, 306250, 0);
    v = np_data(np, 25000, 1, &l);
    ck_assert_uint_eq(v.send_ack, 1);
    ck_assert_uint_eq(v.ack.rx_window_bytes, 136350);

    /* The sender applies it. */
    libcc_rp *rp = mk_rp("rx_hpcc=1");
    libcc_ack a = v.ack;
    a.seq = 1000;
    ck_assert_int_eq(libcc_rp_on_ack(rp, 26000, &a), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 136350);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 90900000000u); /* 136350*8e9/12000 */
    libcc_rp_del(rp);
    libcc_np_del(np);
}
END_TEST

/* Without rx_hpcc the receiver echoes the INT and sends no window. */
START_TEST(test_np_sender_mode_echo)
{
    libcc_np *np = mk_np(NULL);
    libcc_int_list l = one_hop(5, 6, 7);
    libcc_np_verdict v = np_data(np, 0, 1, &l);
    ck_assert_uint_eq(v.send_ack, 1);
    ck_assert_ptr_eq(v.ack.int_list, &l); /* the data packet's own list, not a copy */
    ck_assert_uint_eq(v.ack.int_list->n_hops, 1);
    ck_assert_uint_eq(v.ack.int_list->hop[0].qlen_bytes, 7);
    ck_assert_uint_eq(v.ack.rx_window_bytes, 0);
    ck_assert_uint_eq(v.ack.n_flows, 0);
    libcc_np_del(np);
}
END_TEST

/* Receiver-reported N: the NP writes its concurrent flows into each ACK;
 * the RP then uses W_ai = W_init*(1-eta)/N = 150000*0.05/N. */
START_TEST(test_receiver_n)
{
    libcc_np *np = mk_np("receiver_n=1");
    ck_assert_uint_eq(np_data(np, 0, 1, NULL).ack.n_flows, 1);
    ck_assert_uint_eq(np_data(np, 100, 2, NULL).ack.n_flows, 2);
    ck_assert_uint_eq(np_data(np, 200, 3, NULL).ack.n_flows, 3);
    ck_assert_uint_eq(np_data(np, 300, 1, NULL).ack.n_flows, 3);
    libcc_np_del(np);

    libcc_rp *rp = mk_rp("receiver_n=1");
    ck_assert_double_eq_tol(var(rp, "w_ai"), 75.0, 1e-9); /* expected_flows 100 until told */
    libcc_ack a = mk_ack(1000);
    a.n_flows = 4;
    ck_assert_int_eq(libcc_rp_on_ack(rp, 1, &a), LIBCC_OK);
    ck_assert_double_eq_tol(var(rp, "w_ai"), 1875.0, 1e-9); /* 7500/4 */
    a.n_flows = 0; /* absent: the last reported N stays */
    ck_assert_int_eq(libcc_rp_on_ack(rp, 2, &a), LIBCC_OK);
    ck_assert_double_eq_tol(var(rp, "w_ai"), 1875.0, 1e-9);
    libcc_rp_del(rp);

    rp = mk_rp(NULL); /* receiver_n off: N ignored */
    a.n_flows = 4;
    ck_assert_int_eq(libcc_rp_on_ack(rp, 1, &a), LIBCC_OK);
    ck_assert_double_eq_tol(var(rp, "w_ai"), 75.0, 1e-9);
    libcc_rp_del(rp);

    rp = mk_rp("receiver_n=1 w_ai=2KB"); /* explicit w_ai wins */
    ck_assert_int_eq(libcc_rp_on_ack(rp, 1, &a), LIBCC_OK);
    ck_assert_double_eq_tol(var(rp, "w_ai"), 2000.0, 1e-9);
    libcc_rp_del(rp);
}
END_TEST

/* Receiver N with Rx-HPCC: the receiver's own W_ai uses its N. Flow 2 is
 * active (data at 0, activity window 20 us), so N = 2 for flow 1 and
 * W_ai = 150000*0.05/2 = 3750. Flow 1's records: qlen 150000 on both and
 * dtx = 150000 in T: u' = 1 + 1 = 2, W = 150000*0.95/2 + 3750 = 75000. */
START_TEST(test_rx_hpcc_receiver_n)
{
    libcc_np *np = mk_np("rx_hpcc=1 receiver_n=1");
    np_data(np, 0, 2, NULL); /* a second flow is active */
    libcc_int_list l = one_hop(0, 0, 150000);
    libcc_np_verdict v = np_data(np, 0, 1, &l);
    ck_assert_uint_eq(v.ack.n_flows, 2);
    l = one_hop(12000, 150000, 150000);
    v = np_data(np, 12000, 1, &l);
    ck_assert_uint_eq(v.ack.rx_window_bytes, 75000);
    libcc_np_del(np);
}
END_TEST

START_TEST(test_bad_params)
{
    libcc_params *p = NULL;
    ck_assert_int_eq(libcc_params_new(&p, "hpcc++"), LIBCC_OK);
    ck_assert_str_eq(libcc_params_algorithm(p), "hpcc++");
    ck_assert_int_eq(libcc_params_set(p, "telemetry", "3"), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "telemetry"));
    ck_assert_int_eq(libcc_params_set(p, "int_interval", "0"), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "int_interval"));
    ck_assert_int_eq(libcc_params_set(p, "rx_hpcc", "maybe"), LIBCC_ERR_BAD_VALUE);
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "rx_hpcc"));
    ck_assert_int_eq(libcc_params_set(p, "rx_hpcc", "on"), LIBCC_OK);
    libcc_params_del(p);
}
END_TEST

/* Rx-HPCC at a receiver with line rate and T of 2^64-1: W_init = 2^128/8e9
 * B. The W it returns saturates at 2^64-1 rather than going through an
 * undefined double-to-integer cast, and T itself (2^64 once a double) is
 * saturated where it meets integer time. */
START_TEST(test_rx_hpcc_huge_bdp_saturates)
{
    libcc_np *np = mk_np_on("rx_hpcc=1", UINT64_MAX, UINT64_MAX);
    for (uint64_t i = 0; i < 3; i++) {
        libcc_int_list l = one_hop(1000 * i, 0, 0);
        libcc_np_verdict v = np_data(np, i + 1, 1, &l);
        if (i == 1) { /* the first measurement: W goes out at once */
            ck_assert_uint_eq(v.send_ack, 1);
            ck_assert_uint_eq(v.ack.rx_window_bytes, UINT64_MAX);
        }
    }
    libcc_np_del(np);
}
END_TEST

/* Probe mode on a flow with T = 2^64-1 is refused since 0.7.0 (T at most
 * 1 s, libcc_flow_params). At T = 1 s the first probe goes at 5 ns and,
 * unanswered, is taken as lost 4T = 4e9 ns later (docs/algorithms/hpcc.md):
 * the deadline (test_probe_deadline_at_clock_top covers one past the
 * clock's end). */
START_TEST(test_probe_huge_t_refused)
{
    libcc_params *p = ts_make_params("hpcc++", "telemetry=2");
    libcc_flow_info fi = {.flow_id = 1, .line_rate_bps = LINE, .base_rtt_ns = UINT64_MAX};
    libcc_rp *rp = NULL;
    ck_assert_int_eq(libcc_rp_new(&rp, p, &fi, NULL, NULL, 0), LIBCC_ERR_OUT_OF_RANGE);
    libcc_params_del(p);
    rp = ts_make_rp("hpcc++", "telemetry=2", LINE, 1000000000ull, NULL, NULL);
    ck_assert_uint_eq(tx_flags(rp, 5, 0), 0);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 5 + 4000000000ull);
    libcc_rp_del(rp);
}
END_TEST

/* Near the top of the clock: a probe sent at 2^64-1000 would be lost at
 * now + 2T = 2^64 + 23000, past the clock's end. The deadline saturates;
 * wrapped, it would be 23000 - 1000, far in the past, and the host's timer
 * would fire at once forever. */
START_TEST(test_probe_deadline_at_clock_top)
{
    const uint64_t now = UINT64_MAX - 999;
    probe_log log;
    memset(&log, 0, sizeof log);
    libcc_rp *rp = mk_rp_cb("telemetry=2", &log);
    ck_assert_uint_eq(tx_flags(rp, now, 0), 0);
    ck_assert_uint_eq(log.n, 1);
    ck_assert_uint_eq(log.at[0], now);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), LIBCC_NO_DEADLINE);
    ck_assert_int_eq(libcc_rp_on_timer(rp, UINT64_MAX - 1), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), LIBCC_NO_DEADLINE);
    libcc_rp_del(rp);
}
END_TEST

Suite *hpccpp_suite(void)
{
    Suite *s = suite_create("hpccpp");
    TCase *tc = tcase_create("telemetry");
    tcase_add_test(tc, test_every_k_flags);
    tcase_add_test(tc, test_probe_once_per_rtt);
    tcase_add_test(tc, test_probe_response_updates_window);
    suite_add_tcase(s, tc);
    tcase_add_test(tc, test_probe_huge_t_refused);
    tcase_add_test(tc, test_probe_deadline_at_clock_top);
    suite_add_tcase(s, tc);
    tc = tcase_create("rx_hpcc");
    tcase_add_test(tc, test_rx_hpcc_huge_bdp_saturates);
    tcase_add_test(tc, test_rx_window_applied);
    tcase_add_test(tc, test_rx_hpcc_receiver);
    tcase_add_test(tc, test_np_sender_mode_echo);
    suite_add_tcase(s, tc);
    tc = tcase_create("receiver_n");
    tcase_add_test(tc, test_receiver_n);
    tcase_add_test(tc, test_rx_hpcc_receiver_n);
    tcase_add_test(tc, test_bad_params);
    suite_add_tcase(s, tc);
    return s;
}
