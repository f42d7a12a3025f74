/* SPDX-License-Identifier: MIT */
/*
 * Swift (docs/algorithms/swift.md). Expected values worked out by hand from
 * Algorithm 1 and section 3.2 of the paper and from Isekai's Swift
 * (falcon-transport/isekai rue/algorithm/swift.h) with the defaults, which
 * are Isekai's: base target 25 us, h = 1 us per hop, fs_range 100 us over
 * [0.1, 256] packets (alpha = 100000 / (1/sqrt(0.1) - 1/sqrt(256)) =
 * 32260.378, beta' = -alpha/16 = -2016.274), ai 1, beta 0.8, max_mdf 0.5,
 * min_cwnd 0.01, max_cwnd 256, endpoint target 10 us (libcc's), RTT
 * smoothing 0.75, RTO max(250 us, 2 srtt + pacing gap), window to min_cwnd
 * at the 3rd timeout in a row.
 * Flow: 100 Gbit/s, T = 12 us, MTU 1000 B: BDP = 150 packets, the start
 * window (below max_cwnd); srtt starts at T.
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
    /* 3 hops: target = 25000 + 3000 + fs(150) = 28000 + 32260.378/12.2474
     * - 2016.274 = 28617.775; delay 50 us >= target, can decrease (no
     * decrease yet): cwnd *= 1 - 0.8 * 21382.225/50000 = 0.657884 ->
     * 98.68266 packets */
    ck_assert_int_eq(ack(rp, 100000, 10000, 50000, 3), LIBCC_OK);
    ck_assert_double_eq_tol(ts_rp_var(rp, "target"), 28617.775214617566, 1e-6);
    ck_assert_double_eq_tol(ts_rp_var(rp, "cwnd"), 98.68266051508215, 1e-9);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 98683);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), G100); /* not paced above 1 packet */
    /* 20 us after that decrease, less than an RTT (50 us): no second cut */
    ck_assert_int_eq(ack(rp, 120000, 20000, 50000, 3), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 98683);
    /* target = 28000 + fs(98.68266) = 28000 + 32260.378/9.93391 - 2016.274
     * = 29231.225; 20 us is below it: AI, cwnd += 1/98.68266 * 10 packets
     * acked = 98.78400 -> 98784 B */
    ck_assert_int_eq(ack(rp, 160000, 30000, 20000, 3), LIBCC_OK);
    ck_assert_double_eq_tol(ts_rp_var(rp, "target"), 29231.225393806635, 1e-6);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 98784);
    /* 1 ms: 1 - 0.8 * (1e6 - 29229.56)/1e6 = 0.2234 < 1 - max_mdf: cut by
     * half only */
    ck_assert_int_eq(ack(rp, 2000000, 30000, 1000000, 3), LIBCC_OK);
    ck_assert_double_eq_tol(ts_rp_var(rp, "cwnd"), 98.7839954400609 / 2, 1e-9);
    /* an ACK without a timestamp changes nothing */
    libcc_ack plain;
    memset(&plain, 0, sizeof plain);
    plain.seq = 40000;
    ck_assert_int_eq(libcc_rp_on_ack(rp, 2000001, &plain), LIBCC_OK);
    ck_assert_double_eq_tol(ts_rp_var(rp, "cwnd"), 98.7839954400609 / 2, 1e-9);
    libcc_rp_del(rp);
}
END_TEST

/* Below one packet the window becomes pacing: one MTU per rtt/cwnd. RTT
 * samples of 1 ms keep every cut at max_mdf (targets are at most
 * 25 + 100 us). */
START_TEST(test_sub_packet_pacing)
{
    libcc_rp *rp = ts_make_rp("swift", "max_cwnd=2", G100, 12000, NULL, NULL);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 2000); /* min(BDP 150, 2) */
    /* no hops: target = 25000 + fs(2) = 45795.26; 1 ms:
     * 1 - 0.8 * (1e6 - 45795.26)/1e6 = 0.2366 < 0.5: cwnd = 1 */
    ck_assert_int_eq(ack(rp, 2000000, 0, 1000000, 0), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "cwnd"), 1.0);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 1000);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), G100);
    ck_assert_int_eq(ack(rp, 2500000, 0, 1000000, 0), LIBCC_OK); /* 0.5 ms < RTT: no cut */
    ck_assert_double_eq(ts_rp_var(rp, "cwnd"), 1.0);
    /* one RTT after the cut: target 25000 + fs(1) = 55244.10, factor
     * 0.2442 -> 0.5: cwnd 0.5: paced at 0.5 * 1000 B * 8 / 1 ms = 4 Mbit/s,
     * one packet in flight */
    ck_assert_int_eq(ack(rp, 3000000, 0, 1000000, 0), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "cwnd"), 0.5);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 4000000ull);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 1000);
    /* below 1 packet AI adds ai * acked: 0.5 + 1 * 0.25 (250 B) = 0.75
     * (20 us is below the target 25000 + fs(0.5) = 68606.79); paced at
     * 0.75 * 8000 / 20 us = 300 Mbit/s */
    ck_assert_int_eq(ack(rp, 4000000, 250, 20000, 0), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "cwnd"), 0.75);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 300000000ull);
    /* srtt: 12000 -> 259000 -> 444250 -> 583187.5 -> 442390.625; the RTO
     * starts after the pacing gap 20 us / 0.75 - 20 us = 6666.67 ns:
     * 2 * 442390.625 + 6666.67 = 891447.92 -> 891448 ns */
    ck_assert_double_eq(ts_rp_var(rp, "srtt"), 442390.625);
    ck_assert_uint_eq(libcc_rp_rto_ns(rp), 891448);
    libcc_rp_del(rp);
}
END_TEST

/* Isekai smooths the RTT (srtt = 0.75 srtt + 0.25 sample) for the RTO; the
 * delay compared with the target stays the sample. */
START_TEST(test_rtt_smoothing_sets_the_rto)
{
    libcc_rp *rp = ts_make_rp("swift", NULL, G100, 12000, NULL, NULL);
    /* srtt starts at the base RTT: RTO max(250 us, 24 us) = 250 us */
    ck_assert_double_eq(ts_rp_var(rp, "srtt"), 12000);
    ck_assert_uint_eq(libcc_rp_rto_ns(rp), 250000);
    /* 20 us: srtt = 9000 + 5000 = 14000; below the target 25617.78: AI
     * with nothing acked, 150 packets */
    ck_assert_int_eq(ack(rp, 100000, 0, 20000, 0), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "srtt"), 14000);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    ck_assert_uint_eq(libcc_rp_rto_ns(rp), 250000);
    /* 100 us: srtt = 10500 + 25000 = 35500 (RTO still the 250 us floor);
     * the cut uses the 100 us sample: 1 - 0.8 * 74382.2/100000 = 0.405 ->
     * max_mdf, 75 packets (the smoothed 35.5 us would give 0.777) */
    ck_assert_int_eq(ack(rp, 200000, 0, 100000, 0), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "srtt"), 35500);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 75000);
    ck_assert_uint_eq(libcc_rp_rto_ns(rp), 250000);
    /* 500 us: srtt = 26625 + 125000 = 151625, RTO 2 x 151625 = 303250 ns;
     * 400 us since the cut, less than the 500 us sample: no cut */
    ck_assert_int_eq(ack(rp, 600000, 0, 500000, 0), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "srtt"), 151625);
    ck_assert_uint_eq(libcc_rp_rto_ns(rp), 303250);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 75000);
    libcc_rp_del(rp);
}
END_TEST

/* Timeouts as Isekai's ComputeTimeoutFabricCongestionWindow: the first of
 * a run halves the fabric window, the second leaves it, the third
 * (retransmit limit 3) sets it to min_cwnd 0.01; an ACK of new data ends
 * the run. */
START_TEST(test_timeouts_one_two_three)
{
    libcc_rp *rp = ts_make_rp("swift", NULL, G100, 12000, NULL, NULL);
    ck_assert_int_eq(ack(rp, 50000, 0, 20000, 0), LIBCC_OK); /* srtt 14000 */
    ck_assert_uint_eq(libcc_rp_rto_ns(rp), 250000);
    ck_assert_int_eq(libcc_rp_on_timeout(rp, 300000), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "retx_cnt"), 1);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 75000); /* 150 x 0.5 */
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), G100);
    ck_assert_uint_eq(libcc_rp_rto_ns(rp), 250000);
    ck_assert_int_eq(libcc_rp_on_timeout(rp, 550000), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "retx_cnt"), 2);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 75000);
    /* third: 0.01 packets, paced with srtt at 0.01 x 8000 bit / 14 us =
     * 5714285.7 bit/s, one packet in flight; the RTO waits out the gap:
     * 2 x 14000 + (14000 / 0.01 - 14000) = 1414000 ns */
    ck_assert_int_eq(libcc_rp_on_timeout(rp, 800000), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "cwnd"), 0.01);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 1000);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 5714286ull);
    ck_assert_uint_eq(libcc_rp_rto_ns(rp), 1414000);
    ck_assert_int_eq(libcc_rp_on_timeout(rp, 2214000), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "cwnd"), 0.01);
    ck_assert_double_eq(ts_rp_var(rp, "timeouts"), 4);
    /* new data acknowledged (1000 B, 20 us): the run ends; AI below one
     * packet: 0.01 + 1 = 1.01 packets; the next timeout is a first one */
    ck_assert_int_eq(ack(rp, 2300000, 1000, 20000, 0), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "retx_cnt"), 0);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 1010);
    ck_assert_int_eq(libcc_rp_on_timeout(rp, 2600000), LIBCC_OK);
    ck_assert_double_eq_tol(ts_rp_var(rp, "cwnd"), 0.505, 1e-12);
    libcc_rp_del(rp);
}
END_TEST

/* A timeout within a smoothed RTT of the last decrease counts but does not
 * cut (Isekai gates it on rtt_state); the endpoint window is left alone. */
START_TEST(test_timeout_gated_by_srtt)
{
    libcc_rp *rp = ts_make_rp("swift", NULL, G100, 12000, NULL, NULL);
    /* 100 us at 100 us: cut to 75 (as in test_rtt_smoothing_sets_the_rto
     * but from srtt 12000: 9000 + 25000 = 34000) */
    ck_assert_int_eq(ack(rp, 100000, 0, 100000, 0), LIBCC_OK);
    ck_assert_double_eq(ts_rp_var(rp, "srtt"), 34000);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 75000);
    ck_assert_int_eq(libcc_rp_on_timeout(rp, 120000), LIBCC_OK); /* 20 us < 34 us */
    ck_assert_double_eq(ts_rp_var(rp, "retx_cnt"), 1);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 75000);
    ck_assert_double_eq(ts_rp_var(rp, "ecwnd"), 150);
    libcc_rp_del(rp);
}
END_TEST

/* Algorithms without a timeout reaction accept the event and change
 * nothing, and want no RTO of their own; bad calls are refused. */
START_TEST(test_timeout_ignored_elsewhere)
{
    libcc_rp *rp = ts_make_rp("dcqcn", NULL, G100, 12000, NULL, NULL);
    ck_assert_int_eq(libcc_rp_on_timeout(rp, 1000), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), G100);
    ck_assert_uint_eq(libcc_rp_rto_ns(rp), 0);
    ck_assert_int_eq(libcc_rp_on_timeout(rp, 999), LIBCC_ERR_TIME_BACKWARDS);
    libcc_rp_del(rp);
    ck_assert_int_eq(libcc_rp_on_timeout(NULL, 1000), LIBCC_ERR_INVALID_ARG);
    ck_assert_uint_eq(libcc_rp_rto_ns(NULL), 0);
}
END_TEST

/* The receiver's NIC timestamps split the RTT: 50 us RTT of which 30 us at
 * the receiver is 20 us of fabric (below target: AI, 10 packets acked:
 * 150 + 10/150) and
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
    ck_assert_double_eq_tol(ts_rp_var(rp, "fcwnd"), 150 + 10.0 / 150, 1e-12);
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
    ck_assert_int_eq(libcc_params_parse(p, "fs_min_cwnd=300"), LIBCC_OK);
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
    ck_assert_double_eq(ts_csv_at(csv, 100000, "ack", "window_bytes"), 98683);
    ck_assert_double_eq(ts_csv_at(csv, 160000, "ack", "window_bytes"), 98784);
    ck_assert_double_eq(ts_csv_at(csv, 300000, "ack", "window_bytes"), 75000);
    ck_assert_double_eq(ts_csv_at(csv, 300000, "ack", "endpoint_delay"), 30000);
    /* the fabric window, 98.784 + 10/98.784 = 98.885 after 300 us, halved:
     * 49.443 packets, below the endpoint window (75) */
    ck_assert_double_eq(ts_csv_at(csv, 600000, "timeout", "window_bytes"), 49443);
    ck_assert_double_eq(ts_csv_at(csv, 600000, "timeout", "retx_cnt"), 1);
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
    tcase_add_test(tc, test_rtt_smoothing_sets_the_rto);
    tcase_add_test(tc, test_timeouts_one_two_three);
    tcase_add_test(tc, test_timeout_gated_by_srtt);
    tcase_add_test(tc, test_timeout_ignored_elsewhere);
    tcase_add_test(tc, test_relations_refused);
    suite_add_tcase(s, tc);
    tc = tcase_create("docs");
    tcase_add_test(tc, test_docs_params);
    tcase_add_test(tc, test_replay_swift_trace);
    suite_add_tcase(s, tc);
    return s;
}
