/* SPDX-License-Identifier: MIT */
/*
 * Swift (docs/algorithms/swift.md). Expected values worked out by hand from
 * Algorithm 1 and section 3.2 of the paper with libcc's defaults: base
 * target 25 us, h = 1 us per hop, fs_range 25 us over [0.1, 100] packets
 * (alpha = 25000 / (1/sqrt(0.1) - 1/sqrt(100)) = 8163.858, beta' =
 * -816.386), ai 1, beta 0.8, max_mdf 0.5, endpoint target 10 us.
 * Flow: 100 Gbit/s, T = 12 us, MTU 1000 B: BDP = max_cwnd = 150 packets.
 */
#include "test_support.h"

#include <check.h>
#include <libcc/libcc.h>
#include <stdlib.h>
#include <string.h>

#define G100 100000000000ull

static int ack(libcc_rp *rp, uint64_t now, uint64_t seq, uint64_t rtt, unsigned hops)
{
    libcc_ack a = ts_rtt_ack(now, seq, rtt, hops);
    return libcc_rp_on_ack(rp, now, &a);
}

START_TEST(test_fabric_aimd_with_hop_scaling)
{
    libcc_rp *rp = ts_make_rp("swift", NULL, G100, 12000, NULL, NULL);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), G100);
    /* 3 hops: target = 25000 + 3000 + fs(150) (negative -> 0) = 28000;
     * delay 50 us >= target, can decrease (no decrease yet):
     * cwnd *= 1 - 0.8 * 22000/50000 = 0.648 -> 97.2 packets */
    ck_assert_int_eq(ack(rp, 100000, 10000, 50000, 3), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "target"), 28000);
    ck_assert_double_eq_tol(ts_rp_var(rp, "cwnd"), 97.2, 1e-12);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 97200);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), G100); /* not paced above 1 packet */
    /* 20 us after that decrease, less than an RTT (50 us): no second cut */
    ck_assert_int_eq(ack(rp, 120000, 20000, 50000, 3), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 97200);
    /* target = 28000 + fs(97.2) = 28000 + 8163.858/9.859 - 816.386 =
     * 28011.675; 20 us is below it: AI, cwnd += 1/97.2 * 10 packets acked
     * = 97.30288 -> 97303 B */
    ck_assert_int_eq(ack(rp, 160000, 30000, 20000, 3), LIBCC_OK);
    ck_assert_double_eq_tol(ts_rp_var(rp, "target"), 28011.675159802613, 1e-6);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 97303);
    /* 1 ms: 1 - 0.8 * 0.972 = 0.2224 < 1 - max_mdf: cut by half only */
    ck_assert_int_eq(ack(rp, 2000000, 30000, 1000000, 3), LIBCC_OK);
    ck_assert_double_eq_tol(ts_rp_var(rp, "cwnd"), 97.30288065843622 / 2, 1e-9);
    /* an ACK without a timestamp changes nothing */
    libcc_ack plain;
    memset(&plain, 0, sizeof plain);
    plain.seq = 40000;
    ck_assert_int_eq(libcc_rp_on_ack(rp, 2000001, &plain), LIBCC_OK);
    ck_assert_double_eq_tol(ts_rp_var(rp, "cwnd"), 97.30288065843622 / 2, 1e-9);
    libcc_rp_del(rp);
}
END_TEST

/* Below one packet the window becomes pacing: one MTU per rtt/cwnd. */
START_TEST(test_sub_packet_pacing)
{
    libcc_rp *rp = ts_make_rp("swift", "max_cwnd=2", G100, 12000, NULL, NULL);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 2000);
    /* no hops: target = 25000 + fs(2) = 29956.33; 100 us:
     * 1 - 0.8 * (100000 - 29956.33)/100000 = 0.43965 < 0.5: cwnd = 1 */
    ck_assert_int_eq(ack(rp, 200000, 0, 100000, 0), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "cwnd"), 1.0);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 1000);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), G100);
    ck_assert_int_eq(ack(rp, 250000, 0, 100000, 0), LIBCC_OK); /* 50 us < RTT: no cut */
    ck_assert_double_eq(ts_rp_var(rp, "cwnd"), 1.0);
    /* one RTT after the cut: target 25000 + fs(1) = 32347.47, factor
     * 0.45878 -> 0.5: cwnd 0.5: paced at 0.5 * 1000 B * 8 / 100 us =
     * 40 Mbit/s, one packet in flight */
    ck_assert_int_eq(ack(rp, 300000, 0, 100000, 0), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "cwnd"), 0.5);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 40000000ull);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 1000);
    /* below 1 packet AI adds ai * acked: 0.5 + 1 * 0.25 (250 B) = 0.75;
     * paced at 0.75 * 8000 / 20 us = 300 Mbit/s */
    ck_assert_int_eq(ack(rp, 400000, 250, 20000, 0), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "cwnd"), 0.75);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 300000000ull);
    libcc_rp_del(rp);
}
END_TEST

/* The receiver's NIC timestamps split the RTT: 50 us RTT of which 30 us at
 * the receiver is 20 us of fabric (below target: AI, capped at 150) and
 * 30 us of endpoint delay, above its 10 us target:
 * 1 - 0.8 * 20/30 = 0.4667 -> 0.5: ecwnd = 75; cwnd = min = 75. */
START_TEST(test_fabric_endpoint_split)
{
    libcc_rp *rp = ts_make_rp("swift", NULL, G100, 12000, NULL, NULL);
    libcc_ack a = ts_rtt_ack(100000, 10000, 50000, 0);
    a.has |= LIBCC_ACK_HAS_REMOTE_TS;
    a.remote_rx_ts_ns = 7000000; /* the receiver's clock: any origin */
    a.remote_tx_ts_ns = 7030000;
    ck_assert_int_eq(libcc_rp_on_ack(rp, 100000, &a), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "fabric_delay"), 20000);
    ck_assert_double_eq(ts_rp_var(rp, "endpoint_delay"), 30000);
    ck_assert_double_eq(ts_rp_var(rp, "fcwnd"), 150);
    ck_assert_double_eq(ts_rp_var(rp, "ecwnd"), 75);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 75000);
    /* the sender's own share: the NIC stamped the ACK 4 us before now;
     * the RTT ends at that stamp (46 us), the endpoint delay adds it:
     * fabric 46 - 2 = 44 us, endpoint 2 + 4 = 6 us < 10 us: AI on ecwnd */
    libcc_ack b = ts_rtt_ack(200000, 20000, 50000, 0);
    b.has |= LIBCC_ACK_HAS_REMOTE_TS | LIBCC_ACK_HAS_RX_TS;
    b.rx_ts_ns = 196000;
    b.remote_rx_ts_ns = 9000000;
    b.remote_tx_ts_ns = 9002000;
    ck_assert_int_eq(libcc_rp_on_ack(rp, 200000, &b), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "rtt"), 46000);
    ck_assert_double_eq(ts_rp_var(rp, "fabric_delay"), 44000);
    ck_assert_double_eq(ts_rp_var(rp, "endpoint_delay"), 6000);
    ck_assert_double_eq_tol(ts_rp_var(rp, "ecwnd"), 75 + 10.0 / 75, 1e-12);
    /* endpoint_target 0: no endpoint window at all */
    libcc_rp_del(rp);
    rp = ts_make_rp("swift", "endpoint_target=0ns", G100, 12000, NULL, NULL);
    ck_assert_int_eq(libcc_rp_on_ack(rp, 100000, &a), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "ecwnd"), 150);
    libcc_rp_del(rp);
}
END_TEST

/* A NACK is fast recovery: cwnd *= 1 - max_mdf, at most once per RTT. */
START_TEST(test_nack_cuts_once_per_rtt)
{
    libcc_rp *rp = ts_make_rp("swift", NULL, G100, 12000, NULL, NULL);
    ck_assert_int_eq(ack(rp, 100000, 0, 20000, 0), LIBCC_OK); /* RTT 20 us, AI capped */
    libcc_ack n;
    memset(&n, 0, sizeof n);
    ck_assert_int_eq(libcc_rp_on_nack(rp, 130000, &n), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 75000);
    ck_assert_int_eq(libcc_rp_on_nack(rp, 140000, &n), LIBCC_OK); /* 10 us later */
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 75000);
    ck_assert_int_eq(libcc_rp_on_nack(rp, 150000, &n), LIBCC_OK); /* 20 us: one RTT */
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 37500);
    libcc_rp_del(rp);
}
END_TEST

START_TEST(test_relations_refused)
{
    libcc_params *p = NULL;
    ck_assert_int_eq(libcc_params_new(&p, "swift"), LIBCC_OK);
    ck_assert_int_eq(libcc_params_parse(p, "fs_min_cwnd=100"), LIBCC_OK);
    ck_assert_int_eq(libcc_params_validate(p), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "fs_max_cwnd"));
    ck_assert_int_eq(libcc_params_parse(p, "fs_min_cwnd=0.1 max_cwnd=0.0001"), LIBCC_OK);
    ck_assert_int_eq(libcc_params_validate(p), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "min_cwnd"));
    libcc_params_del(p);
}
END_TEST

START_TEST(test_docs_params)
{
    char *doc = ts_read_source_file("docs/algorithms/swift.md");
    ts_doc_has_params(doc, "docs/algorithms/swift.md", "swift");
    free(doc);
}
END_TEST

START_TEST(test_replay_swift_trace)
{
    char *csv = ts_run_replay("examples/traces/swift.trace");
    ck_assert_double_eq(ts_csv_at(csv, 100000, "ack", "window_bytes"), 97200);
    ck_assert_double_eq(ts_csv_at(csv, 160000, "ack", "window_bytes"), 97303);
    ck_assert_double_eq(ts_csv_at(csv, 300000, "ack", "window_bytes"), 75000);
    ck_assert_double_eq(ts_csv_at(csv, 300000, "ack", "endpoint_delay"), 30000);
    free(csv);
}
END_TEST

Suite *swift_suite(void)
{
    Suite *s = suite_create("swift");
    TCase *tc = tcase_create("rp");
    tcase_add_test(tc, test_fabric_aimd_with_hop_scaling);
    tcase_add_test(tc, test_sub_packet_pacing);
    tcase_add_test(tc, test_fabric_endpoint_split);
    tcase_add_test(tc, test_nack_cuts_once_per_rtt);
    tcase_add_test(tc, test_relations_refused);
    suite_add_tcase(s, tc);
    tc = tcase_create("docs");
    tcase_add_test(tc, test_docs_params);
    tcase_add_test(tc, test_replay_swift_trace);
    suite_add_tcase(s, tc);
    return s;
}
