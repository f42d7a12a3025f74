/* SPDX-License-Identifier: MIT */
/*
 * hpcc: the HPCC++ draft's sender algorithm (section 4.2), its switch
 * stamping and receiver echo. Every expected value is derived by hand in
 * the comment beside it.
 *
 * Common setting unless a test says otherwise: line rate B = 100 Gbps,
 * T = 12 us, so B*T = 100e9 * 12e-6 / 8 = 150000 bytes = W_init, eta = 0.95,
 * max_stage = 5. A one-hop record with ts advancing by T = 12000 ns:
 *   txBytes delta 150000 B  -> txRate = 150000*8/12e-6 = 100 Gbps = B -> 1.0
 *   txBytes delta  75000 B  -> txRate = B/2                            -> 0.5
 *   qlen term = min(qlen, qlen_prev) / 150000.
 * Rates: R = W*8/T = W * 8e9 / 12000 bit/s.
 */
#include "test_support.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libcc/libcc.h>

#define G (UINT64_C(1000000000))
#define LINE (100 * G)
#define T_NS UINT64_C(12000)

static libcc_rp *mk_rp_full(const char *algo, const char *assign, uint64_t line, uint64_t t_ns)
{
    return ts_make_rp(algo, assign, line, t_ns, NULL, NULL);
}

static libcc_rp *mk_rp(const char *assign)
{
    return mk_rp_full("hpcc", assign, LINE, T_NS);
}

static double var(const libcc_rp *rp, const char *name)
{
    return ts_rp_var(rp, name);
}

static libcc_int_hop hop(uint64_t ts, uint64_t tx, uint64_t q)
{
    libcc_int_hop h;
    memset(&h, 0, sizeof h);
    h.bandwidth_bps = LINE;
    h.ts_ns = ts;
    h.tx_bytes = tx;
    h.qlen_bytes = q;
    return h;
}

/* An ACK carrying *l, filled with hops[0..n) (switch_id = position). */
static libcc_ack mk_ack(uint64_t seq, unsigned n, const libcc_int_hop *hops, libcc_int_list *l)
{
    libcc_ack a;
    memset(&a, 0, sizeof a);
    a.seq = seq;
    libcc_int_list_init(l);
    for (unsigned i = 0; i < n; i++) {
        libcc_int_hop h = hops[i];
        h.switch_id = i;
        ck_assert_int_eq(libcc_int_list_push(l, &h, LIBCC_INT_MAX_HOPS), LIBCC_OK);
    }
    a.int_list = l;
    return a;
}

/* One hop ACK. */
static int ack1(libcc_rp *rp, uint64_t now, uint64_t seq, uint64_t ts, uint64_t tx, uint64_t q)
{
    libcc_int_hop h = hop(ts, tx, q);
    libcc_int_list l;
    libcc_ack a = mk_ack(seq, 1, &h, &l);
    return libcc_rp_on_ack(rp, now, &a);
}

static void tx(libcc_rp *rp, uint64_t now, uint64_t seq, uint32_t bytes)
{
    unsigned flags = 0;
    ck_assert_int_eq(libcc_rp_on_tx(rp, now, seq, bytes, &flags), LIBCC_OK);
}

/* Invariants after any input: a usable, finite, bounded rate and window. */
static void sane(const libcc_rp *rp)
{
    ck_assert_uint_ge(libcc_rp_rate_bps(rp), 1);
    ck_assert_uint_le(libcc_rp_rate_bps(rp), LINE);
    ck_assert_uint_ge(libcc_rp_window_bytes(rp), 1000);   /* one MTU */
    ck_assert_uint_le(libcc_rp_window_bytes(rp), 150000); /* B*T */
    ck_assert(isfinite(var(rp, "U")));
    ck_assert(isfinite(var(rp, "W")));
    ck_assert(isfinite(var(rp, "Wc")));
}

/* Flows start at line rate with W = Wc = B*T (draft section 5); U starts
 * at 1 like the reference simulator; W_ai by the rule of thumb
 * W_init*(1-eta)/N = 150000*0.05/100 = 75 bytes. */
START_TEST(test_initial_state)
{
    libcc_rp *rp = mk_rp(NULL);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), LINE);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    ck_assert_double_eq_tol(var(rp, "Wc"), 150000.0, 1e-9);
    ck_assert_double_eq_tol(var(rp, "U"), 1.0, 1e-12);
    ck_assert_double_eq_tol(var(rp, "w_ai"), 75.0, 1e-9);
    ck_assert_double_eq_tol(var(rp, "T"), 12000.0, 1e-9);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), LIBCC_NO_DEADLINE);
    libcc_rp_del(rp);
}
END_TEST

/* W_ai = W_init*(1-eta)/N_expected, an explicit w_ai overrides it, and T
 * comes from base_rtt when set, else the flow, else the draft's 5 us. */
START_TEST(test_wai_and_t)
{
    libcc_rp *rp = mk_rp("expected_flows=10");
    ck_assert_double_eq_tol(var(rp, "w_ai"), 750.0, 1e-9); /* 150000*0.05/10 */
    libcc_rp_del(rp);

    rp = mk_rp("expected_flows=10 w_ai=2KB");
    ck_assert_double_eq_tol(var(rp, "w_ai"), 2000.0, 1e-9); /* 2 KB = 2000 B wins */
    libcc_rp_del(rp);

    rp = mk_rp("eta=0.9 expected_flows=4");
    ck_assert_double_eq_tol(var(rp, "w_ai"), 3750.0, 1e-9); /* 150000*0.1/4 */
    libcc_rp_del(rp);

    rp = mk_rp("base_rtt=24us");
    ck_assert_double_eq_tol(var(rp, "T"), 24000.0, 1e-9);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 300000); /* 100e9*24e-6/8 */
    ck_assert_double_eq_tol(var(rp, "w_ai"), 150.0, 1e-9); /* 300000*0.05/100 */
    libcc_rp_del(rp);

    rp = mk_rp_full("hpcc", NULL, LINE, 0);
    ck_assert_double_eq_tol(var(rp, "T"), 5000.0, 1e-9);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 62500); /* 100e9*5e-6/8 */
    libcc_rp_del(rp);

    /* A BDP below one MTU (1 Gbps * 1 us = 125 B) caps the floor too: the
     * window is the BDP and the rate the line rate, never above. */
    rp = mk_rp_full("hpcc", NULL, G, 1000);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 125);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), G);
    libcc_rp_del(rp);
}
END_TEST

/* A path so thin its BDP is below a byte: 1 Mbps * 1 us = 0.125 B. The
 * window is floored at 1 B (W_init = W_min = 1), and W/T = 1 * 8e9 / 1000
 * = 8 Mbps would exceed the 1 Mbps line: the rate stays at the line rate,
 * at creation and after a measured ACK (a 100 Gbps hop at line rate for
 * 12 us: u' = 1; any W is bounded to 1 B), with the window 1 B. */
START_TEST(test_rate_never_above_line)
{
    const uint64_t line = 1000000;
    libcc_rp *rp = mk_rp_full("hpcc", NULL, line, 1000);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 1);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), line);
    tx(rp, 0, 0, 1000);
    ck_assert_int_eq(ack1(rp, 1, 1000, 0, 0, 0), LIBCC_OK);
    ck_assert_int_eq(ack1(rp, 2, 2000, 12000, 150000, 0), LIBCC_OK);
    ck_assert_double_eq(var(rp, "resets"), 0.0); /* the ACK was measured */
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 1);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), line);
    libcc_rp_del(rp);
}
END_TEST

/* Bad parameters are refused and named. */
START_TEST(test_bad_params)
{
    libcc_params *p = NULL;
    ck_assert_int_eq(libcc_params_new(&p, "hpcc"), LIBCC_OK);
    ck_assert_int_eq(libcc_params_set(p, "eta", "1.5"), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "eta"));
    ck_assert_int_eq(libcc_params_set(p, "expected_flows", "0"), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "expected_flows"));
    ck_assert_int_eq(libcc_params_set(p, "base_rtt", "12"), LIBCC_ERR_BAD_UNIT);
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "base_rtt"));
    ck_assert_int_eq(libcc_params_set(p, "alpha", "1.05"), LIBCC_ERR_UNKNOWN_PARAM);
    libcc_params_del(p);
}
END_TEST

/* The first ACK has no previous record: it is stored, nothing changes. */
START_TEST(test_first_ack_stores_only)
{
    libcc_rp *rp = mk_rp("w_ai=500B");
    tx(rp, 0, 0, 1000);
    /* Even a record that would read as heavy congestion later. */
    ck_assert_int_eq(ack1(rp, 1000, 1000, 5000, 999999, 900000), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), LINE);
    ck_assert_double_eq_tol(var(rp, "U"), 1.0, 1e-12);
    ck_assert_double_eq(var(rp, "resets"), 0.0);
    libcc_rp_del(rp);
}
END_TEST

/* U = 2 shrinks W to Wc*eta/U + W_ai; then qLen 0 and txRate = B/2 give
 * U = 0.5 (tau = T) and additive steps W = Wc + W_ai for max_stage ACKs;
 * the next ACK takes the multiplicative step W = Wc/(U/eta) + W_ai. */
START_TEST(test_additive_then_multiplicative)
{
    libcc_rp *rp = mk_rp("w_ai=500B");
    uint64_t t = 0, ts = 0, txb = 0;
    tx(rp, t, 0, 1000);
    /* ACK1: qlen 150000 stored. */
    ck_assert_int_eq(ack1(rp, t += 1000, 1000, ts, txb, 150000), LIBCC_OK);
    /* ACK2: dts = T, dtx = 150000, qlen min(150000,150000):
     * u' = 150000/150000 + 1 = 2, U = 2 (tau = T),
     * W = 150000 * 0.95 / 2 + 500 = 71250 + 500 = 71750; seq 2000 > 0 syncs Wc. */
    tx(rp, t, 1000, 1000);
    ck_assert_int_eq(ack1(rp, t += 1000, 2000, ts += T_NS, txb += 150000, 150000), LIBCC_OK);
    ck_assert_double_eq_tol(var(rp, "U"), 2.0, 1e-12);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 71750);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 47833333333u); /* 71750*8e9/12000 = 47833333333.3 */
    ck_assert_double_eq_tol(var(rp, "Wc"), 71750.0, 1e-9);

    /* ACK3..7: qlen 0 (min(0, prev) = 0), dtx 75000: u' = 0.5 = U < eta,
     * incStage 0..4 < 5: W = Wc + 500, Wc = W, incStage++. */
    const uint64_t expect[5] = {72250, 72750, 73250, 73750, 74250};
    for (unsigned k = 0; k < 5; k++) {
        uint64_t seq = 2000 + 1000 * k;
        tx(rp, t, seq, 1000);
        ck_assert_int_eq(ack1(rp, t += 1000, seq + 1000, ts += T_NS, txb += 75000, 0), LIBCC_OK);
        ck_assert_double_eq_tol(var(rp, "U"), 0.5, 1e-12);
        ck_assert_uint_eq(libcc_rp_window_bytes(rp), expect[k]);
        ck_assert_double_eq(var(rp, "inc_stage"), (double)(k + 1));
    }
    /* ACK8: incStage = 5 >= max_stage: W = 74250/(0.5/0.95) + 500
     * = 74250*1.9 + 500 = 141075 + 500 = 141575; incStage back to 0. */
    tx(rp, t, 7000, 1000);
    ck_assert_int_eq(ack1(rp, t += 1000, 8000, ts += T_NS, txb += 75000, 0), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 141575);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 94383333333u); /* 141575*8e9/12000 */
    ck_assert_double_eq(var(rp, "inc_stage"), 0.0);
    /* ACK9: additive again: 141575 + 500 = 142075. */
    tx(rp, t, 8000, 1000);
    ck_assert_int_eq(ack1(rp, t += 1000, 9000, ts += T_NS, txb += 75000, 0), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 142075);
    libcc_rp_del(rp);
}
END_TEST

/* U above eta: W shrinks by exactly eta/U, plus W_ai. qlen 30000 on both
 * records and txRate = B: u' = 30000/150000 + 1 = 1.2;
 * W = 150000 * 0.95/1.2 + 500 = 118750 + 500 = 119250. */
START_TEST(test_md_eta_over_u)
{
    libcc_rp *rp = mk_rp("w_ai=500B");
    tx(rp, 0, 0, 2000);
    ck_assert_int_eq(ack1(rp, 100, 1000, 0, 0, 30000), LIBCC_OK);
    ck_assert_int_eq(ack1(rp, 200, 2000, T_NS, 150000, 30000), LIBCC_OK);
    ck_assert_double_eq_tol(var(rp, "U"), 1.2, 1e-12);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 119250);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 79500000000u); /* 119250*8e9/12000 */
    libcc_rp_del(rp);
}
END_TEST

/* U = (1 - tau/T) U + tau/T u with tau the hop's ts delta, clamped to T. */
START_TEST(test_ewma_weight)
{
    libcc_rp *rp = mk_rp("w_ai=500B");
    tx(rp, 0, 0, 3000);
    ck_assert_int_eq(ack1(rp, 10, 1000, 0, 0, 0), LIBCC_OK);
    /* dts = 3000 = T/4, dtx = 18750 B: txRate = 18750*8/3e-6 = 50 Gbps
     * -> u' = 0.5; U = 0.75 * 1 + 0.25 * 0.5 = 0.875 (U started at 1). */
    ck_assert_int_eq(ack1(rp, 20, 2000, 3000, 18750, 0), LIBCC_OK);
    ck_assert_double_eq_tol(var(rp, "U"), 0.875, 1e-12);
    /* U < eta, incStage 0: W = 150000 + 500, bounded by B*T = 150000. */
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    /* dts = 36000 = 3T, dtx = 90000 B: txRate = 90000*8/36e-6 = 20 Gbps
     * -> u' = 0.2; tau = min(3T, T) = T: U = 0 * 0.875 + 1 * 0.2 = 0.2
     * (unclamped it would be (1-3)*0.875 + 3*0.2 = -1.15). */
    ck_assert_int_eq(ack1(rp, 30, 3000, 39000, 108750, 0), LIBCC_OK);
    ck_assert_double_eq_tol(var(rp, "U"), 0.2, 1e-12);
    libcc_rp_del(rp);
}
END_TEST

/* tau comes from the most loaded hop (line 7), not from the first one.
 * Two hops with different ts deltas:
 * ACK2: hop 0 dts = T,    dtx = 75000 -> u' = 0.5
 *       hop 1 dts = 6000, dtx = 60000 -> 60000*8/6e-6 = 80 Gbps -> u' = 0.8
 *       u = 0.8, tau = 6000: U = (1 - 0.5)*1 + 0.5*0.8 = 0.9
 *       (tau taken from hop 0 would give U = 0.8).
 * ACK3: hop 0 dts = T,    dtx = 90000 -> u' = 0.6
 *       hop 1 dts = 6000, dtx = 30000 -> 40 Gbps -> u' = 0.4
 *       u = 0.6, tau = T: U = 0.6 (tau = 6000 would give 0.75). */
START_TEST(test_tau_from_max_hop)
{
    libcc_rp *rp = mk_rp("w_ai=500B");
    libcc_int_hop h[2];
    tx(rp, 0, 0, 5000);
    h[0] = hop(0, 0, 0);
    h[1] = hop(0, 0, 0);
    libcc_int_list l;
    libcc_ack a = mk_ack(1000, 2, h, &l);
    ck_assert_int_eq(libcc_rp_on_ack(rp, 10, &a), LIBCC_OK);
    h[0] = hop(12000, 75000, 0);
    h[1] = hop(6000, 60000, 0);
    a = mk_ack(2000, 2, h, &l);
    ck_assert_int_eq(libcc_rp_on_ack(rp, 20, &a), LIBCC_OK);
    ck_assert_double_eq_tol(var(rp, "U"), 0.9, 1e-12);
    h[0] = hop(24000, 165000, 0);
    h[1] = hop(12000, 90000, 0);
    a = mk_ack(3000, 2, h, &l);
    ck_assert_int_eq(libcc_rp_on_ack(rp, 30, &a), LIBCC_OK);
    ck_assert_double_eq_tol(var(rp, "U"), 0.6, 1e-12);
    libcc_rp_del(rp);
}
END_TEST

/* Wc follows W only on an ACK whose seq is past lastUpdateSeq, which is
 * then set to snd_nxt (lines 22-24). */
START_TEST(test_wc_once_per_rtt)
{
    libcc_rp *rp = mk_rp("w_ai=500B");
    for (uint64_t s = 0; s < 10000; s += 1000)
        tx(rp, 0, s, 1000); /* snd_nxt = 10000 */
    ck_assert_int_eq(ack1(rp, 1, 1000, 0, 0, 0), LIBCC_OK);
    /* seq 2000 > 0: u' = 1.0: W = 150000*0.95 + 500 = 143000 = Wc,
     * lastUpdateSeq = 10000. */
    ck_assert_int_eq(ack1(rp, 2, 2000, 12000, 150000, 0), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 143000);
    ck_assert_double_eq_tol(var(rp, "Wc"), 143000.0, 1e-9);
    /* seq 3000 <= 10000, u' = 0.5: W = Wc + 500 = 143500, Wc stays. */
    ck_assert_int_eq(ack1(rp, 3, 3000, 24000, 225000, 0), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 143500);
    ck_assert_double_eq_tol(var(rp, "Wc"), 143000.0, 1e-9);
    ck_assert_double_eq(var(rp, "inc_stage"), 0.0);
    /* Again: still Wc + 500 = 143500, not 144000. */
    ck_assert_int_eq(ack1(rp, 4, 4000, 36000, 300000, 0), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 143500);
    /* seq 10000 == lastUpdateSeq is not past it. */
    ck_assert_int_eq(ack1(rp, 5, 10000, 48000, 375000, 0), LIBCC_OK);
    ck_assert_double_eq_tol(var(rp, "Wc"), 143000.0, 1e-9);
    for (uint64_t s = 10000; s < 20000; s += 1000)
        tx(rp, 6, s, 1000); /* snd_nxt = 20000 */
    /* seq 11000 > 10000: W = 143500 becomes Wc, incStage 1. */
    ck_assert_int_eq(ack1(rp, 7, 11000, 60000, 450000, 0), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 143500);
    ck_assert_double_eq_tol(var(rp, "Wc"), 143500.0, 1e-9);
    ck_assert_double_eq(var(rp, "inc_stage"), 1.0);
    /* seq 12000 <= 20000: W = 143500 + 500 = 144000 from the new Wc. */
    ck_assert_int_eq(ack1(rp, 8, 12000, 72000, 525000, 0), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 144000);
    ck_assert_double_eq_tol(var(rp, "Wc"), 143500.0, 1e-9);
    libcc_rp_del(rp);
}
END_TEST

/* A NACK carries the same echoed telemetry and runs the same update. */
START_TEST(test_nack_updates)
{
    libcc_rp *rp = mk_rp("w_ai=500B");
    tx(rp, 0, 0, 3000);
    libcc_int_hop h = hop(0, 0, 0);
    libcc_int_list l;
    libcc_ack a = mk_ack(1000, 1, &h, &l);
    ck_assert_int_eq(libcc_rp_on_nack(rp, 1, &a), LIBCC_OK);
    h = hop(12000, 150000, 0); /* u' = 1: W = 142500 + 500 */
    a = mk_ack(1000, 1, &h, &l);
    ck_assert_int_eq(libcc_rp_on_nack(rp, 2, &a), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 143000);
    /* CNPs mean nothing to HPCC. */
    ck_assert_int_eq(libcc_rp_on_cnp(rp, 3), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 143000);
    libcc_rp_del(rp);
}
END_TEST

/* An idle path (u' = 0 everywhere) makes U = 0: the multiplicative step
 * Wc/(U/eta) would divide by zero; it is capped at W_init instead.
 * max_stage = 0 forces the multiplicative branch. */
START_TEST(test_idle_path_u_zero)
{
    libcc_rp *rp = mk_rp("w_ai=500B max_stage=0");
    tx(rp, 0, 0, 5000);
    ck_assert_int_eq(ack1(rp, 1, 1000, 0, 0, 150000), LIBCC_OK);
    /* Cut first: u' = 150000/150000 + 1 = 2 -> W = 71750 (see above). */
    ck_assert_int_eq(ack1(rp, 2, 2000, 12000, 150000, 150000), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 71750);
    /* Idle: dtx 0, qlen 0: u' = 0, tau = T (first hop wins the tie): U = 0.
     * W = min(Wc*eta/0 -> inf, W_init) + W_ai, bounded: 150000, line rate. */
    tx(rp, 3, 5000, 1000);
    ck_assert_int_eq(ack1(rp, 4, 6000, 24000, 150000, 0), LIBCC_OK);
    ck_assert_double_eq(var(rp, "U"), 0.0);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), LINE);
    sane(rp);
    libcc_rp_del(rp);
}
END_TEST

/* Garbage telemetry: B = 0 is rejected (error, history forgotten); time
 * standing still or running backwards, a changed hop count and an
 * impossible txRate reset the history; none of it moves the rate. */
START_TEST(test_garbage_b_zero)
{
    libcc_rp *rp = mk_rp("w_ai=500B");
    tx(rp, 0, 0, 9000);
    ck_assert_int_eq(ack1(rp, 1, 1000, 0, 0, 0), LIBCC_OK);
    libcc_int_hop h = hop(12000, 150000, 0);
    h.bandwidth_bps = 0;
    libcc_int_list l;
    libcc_ack a = mk_ack(2000, 1, &h, &l);
    ck_assert_int_eq(libcc_rp_on_ack(rp, 2, &a), LIBCC_ERR_BAD_TELEMETRY);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), LINE);
    ck_assert_double_eq(var(rp, "resets"), 1.0);
    sane(rp);
    /* The history is gone: the next good ACK is a first one (no change)... */
    ck_assert_int_eq(ack1(rp, 3, 3000, 24000, 300000, 0), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    /* ...and the one after measures against it: u' = 1 -> 143000. */
    ck_assert_int_eq(ack1(rp, 4, 4000, 36000, 450000, 0), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 143000);
    libcc_rp_del(rp);
}
END_TEST

START_TEST(test_garbage_ts_backwards)
{
    libcc_rp *rp = mk_rp("w_ai=500B");
    tx(rp, 0, 0, 9000);
    ck_assert_int_eq(ack1(rp, 1, 1000, 12000, 0, 0), LIBCC_OK);
    /* ts 6000 < 12000: the 64-bit difference is huge (> 2^63): reset. */
    ck_assert_int_eq(ack1(rp, 2, 2000, 6000, 0, 0), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    ck_assert_double_eq(var(rp, "resets"), 1.0);
    /* Measured against the ts = 6000 record: dts = 12000, dtx = 150000:
     * u' = 1, W = 143000. Against the stale ts = 12000 record it would have
     * been dts = 6000, txRate = 2B, u' = 2, W = 71750. */
    ck_assert_int_eq(ack1(rp, 3, 3000, 18000, 150000, 0), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 143000);
    sane(rp);
    libcc_rp_del(rp);
}
END_TEST

START_TEST(test_garbage_ts_still_and_txrate)
{
    libcc_rp *rp = mk_rp("w_ai=500B");
    tx(rp, 0, 0, 9000);
    ck_assert_int_eq(ack1(rp, 1, 1000, 12000, 0, 0), LIBCC_OK);
    /* dts = 0: no rate can be computed (a division by zero): reset. */
    ck_assert_int_eq(ack1(rp, 2, 2000, 12000, 5000, 0), LIBCC_OK);
    ck_assert_double_eq(var(rp, "resets"), 1.0);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    /* dtx = 450000 B in T: txRate = 3B > 2B, no real link: reset. */
    ck_assert_int_eq(ack1(rp, 3, 3000, 24000, 455000, 0), LIBCC_OK);
    ck_assert_double_eq(var(rp, "resets"), 2.0);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    /* txBytes running backwards (455000 -> 1000): reset. */
    ck_assert_int_eq(ack1(rp, 4, 4000, 36000, 1000, 0), LIBCC_OK);
    ck_assert_double_eq(var(rp, "resets"), 3.0);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    sane(rp);
    libcc_rp_del(rp);
}
END_TEST

START_TEST(test_garbage_hop_count)
{
    libcc_rp *rp = mk_rp("w_ai=500B");
    libcc_int_hop h[LIBCC_INT_MAX_HOPS];
    for (unsigned i = 0; i < LIBCC_INT_MAX_HOPS; i++)
        h[i] = hop(12000, 150000, 0);
    tx(rp, 0, 0, 9000);
    ck_assert_int_eq(ack1(rp, 1, 1000, 0, 0, 0), LIBCC_OK);
    /* Two hops where there was one: differences across links mean nothing. */
    libcc_int_list l;
    libcc_ack a = mk_ack(2000, 2, h, &l);
    ck_assert_int_eq(libcc_rp_on_ack(rp, 2, &a), LIBCC_OK);
    ck_assert_double_eq(var(rp, "resets"), 1.0);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    /* Same count, another switch at position 1: a path change, reset. */
    a = mk_ack(3000, 2, h, &l);
    l.hop[1].switch_id = 77;
    l.hop[0].ts_ns = l.hop[1].ts_ns = 24000;
    ck_assert_int_eq(libcc_rp_on_ack(rp, 3, &a), LIBCC_OK);
    ck_assert_double_eq(var(rp, "resets"), 2.0);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    /* Six hops: more than max_hops (5): rejected. */
    a = mk_ack(4000, 6, h, &l);
    ck_assert_int_eq(libcc_rp_on_ack(rp, 4, &a), LIBCC_ERR_BAD_TELEMETRY);
    /* A corrupted count past the array bound is rejected too. */
    l.n_hops = 200;
    ck_assert_int_eq(libcc_rp_on_ack(rp, 5, &a), LIBCC_ERR_BAD_TELEMETRY);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), LINE);
    sane(rp);
    libcc_rp_del(rp);
}
END_TEST

/* A qlen no buffer can hold (2^62 B) makes u' about 3e13: W = 150000*0.95
 * /3e13 + 500 ~ 500 B, raised to the floor of one MTU = 1000 B; the rate
 * is 1000*8e9/12000 = 666666666.7 -> 666666667 bit/s, never 0 nor NaN. */
START_TEST(test_garbage_huge_qlen)
{
    libcc_rp *rp = mk_rp("w_ai=500B");
    const uint64_t q = UINT64_C(1) << 62;
    tx(rp, 0, 0, 9000);
    ck_assert_int_eq(ack1(rp, 1, 1000, 0, 0, q), LIBCC_OK);
    ck_assert_int_eq(ack1(rp, 2, 2000, 12000, 0, q), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 1000);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 666666667u);
    sane(rp);
    /* The maximum possible qlen as well. */
    ck_assert_int_eq(ack1(rp, 3, 3000, 24000, 0, UINT64_MAX), LIBCC_OK);
    sane(rp);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 1000);
    libcc_rp_del(rp);
}
END_TEST

/* Wire-decoded garbage: 20000 ACKs of random 8-byte HPCC hop encodings
 * (decode failures skipped), mixed with plausible successors of the
 * previous record, B = 0, hop counts changing and random N, through hpcc,
 * hpcc++ and fncc. Whatever arrives, the RP answers LIBCC_OK or
 * LIBCC_ERR_BAD_TELEMETRY and its rate and window stay in
 * [one MTU, B*T] and [1000*8e9/12000, line rate], U finite. */
static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

START_TEST(test_garbage_fuzz)
{
    static const char *const algos[3] = {"hpcc", "hpcc++", "fncc"};
    libcc_int_wire_format fmt;
    libcc_int_hpcc_format_default(&fmt);
    unsigned ts_bits, tx_bits;
    ck_assert_int_eq(libcc_int_wire_wrap_bits(&fmt, &ts_bits, &tx_bits), LIBCC_OK);
    for (unsigned a = 0; a < 3; a++) {
        libcc_rp *rp = mk_rp_full(algos[a], NULL, LINE, T_NS);
        uint64_t seed = 42 + a, now = 0, seq = 0;
        libcc_int_hop prev[3];
        memset(prev, 0, sizeof prev);
        unsigned changes = 0;
        uint64_t last_w = libcc_rp_window_bytes(rp);
        for (unsigned i = 0; i < 20000; i++) {
            uint64_t r = splitmix(&seed);
            unsigned nh = 1 + (unsigned)(r % 3 == 0) + (unsigned)(r % 7 == 0);
            libcc_int_list l;
            libcc_ack ack = mk_ack(seq, 0, NULL, &l);
            ack.n_flows = (uint32_t)(splitmix(&seed) % 5);
            l.ts_bits = (uint8_t)ts_bits;
            l.tx_bits = (uint8_t)tx_bits;
            for (unsigned k = 0; k < nh; k++) {
                libcc_int_hop h;
                uint64_t w = splitmix(&seed);
                if (w % 2) {
                    uint8_t raw[8];
                    uint64_t b = splitmix(&seed);
                    memcpy(raw, &b, 8);
                    if (libcc_int_hpcc_decode(raw, &fmt, &h) != LIBCC_OK)
                        continue;
                } else {
                    h = prev[k];
                    if (h.bandwidth_bps == 0)
                        h.bandwidth_bps = LINE;
                    h.ts_ns = (h.ts_ns + w % 20000) & ((1u << 24) - 1);
                    h.tx_bytes = (h.tx_bytes + 128 * ((w >> 20) % 3000)) & ((1u << 27) - 1);
                    h.qlen_bytes = 80 * ((w >> 40) % (1u << 17));
                }
                if (w % 97 == 0)
                    h.bandwidth_bps = 0;
                h.switch_id = k;
                h.port_id = 0;
                prev[k] = h;
                ck_assert_int_eq(libcc_int_list_push(&l, &h, 8), LIBCC_OK);
            }
            int rc = libcc_rp_on_ack(rp, now, &ack);
            ck_assert_msg(rc == LIBCC_OK || rc == LIBCC_ERR_BAD_TELEMETRY, "%s: rc %d", algos[a], rc);
            sane(rp);
            changes += libcc_rp_window_bytes(rp) != last_w;
            last_w = libcc_rp_window_bytes(rp);
            now += 1 + splitmix(&seed) % 5000;
            seq += 1000;
            tx(rp, now, seq + 5000, 1000);
        }
        /* Not vacuous: the plausible records did move the window. */
        ck_assert_uint_gt(changes, 100);
        libcc_rp_del(rp);
    }
}
END_TEST

/* An ACK without telemetry changes nothing. */
START_TEST(test_ack_without_int)
{
    libcc_rp *rp = mk_rp("w_ai=500B");
    libcc_int_list l;
    libcc_ack a = mk_ack(1000, 0, NULL, &l);
    ck_assert_int_eq(libcc_rp_on_ack(rp, 1, &a), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    ck_assert_int_eq(libcc_rp_on_ack(rp, 2, NULL), LIBCC_ERR_INVALID_ARG);
    libcc_rp_del(rp);
}
END_TEST

/* Wrapping counters: a 24-bit ts and a 20-bit txBytes (as after a wire
 * decode) that wrap between ACKs still give the right deltas. ts 2^24 - 2000
 * -> 10000 is dts = 12000 mod 2^24; txBytes 2^20 - 50000 -> 100000 is
 * dtx = 150000 mod 2^20: u' = 1, W = 143000. */
START_TEST(test_wrapping_counters)
{
    libcc_rp *rp = mk_rp("w_ai=500B");
    tx(rp, 0, 0, 9000);
    libcc_int_hop h = hop((UINT64_C(1) << 24) - 2000, (UINT64_C(1) << 20) - 50000, 0);
    libcc_int_list l;
    libcc_ack a = mk_ack(1000, 1, &h, &l);
    l.ts_bits = 24;
    l.tx_bits = 20;
    ck_assert_int_eq(libcc_rp_on_ack(rp, 1, &a), LIBCC_OK);
    h = hop(10000, 100000, 0);
    a = mk_ack(2000, 1, &h, &l);
    l.ts_bits = 24;
    l.tx_bits = 20;
    ck_assert_int_eq(libcc_rp_on_ack(rp, 2, &a), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 143000);
    libcc_rp_del(rp);
}
END_TEST

/* hpcc asks for INT on every data packet. */
START_TEST(test_tx_requests_int)
{
    libcc_rp *rp = mk_rp(NULL);
    for (unsigned i = 0; i < 3; i++) {
        unsigned flags = 0;
        ck_assert_int_eq(libcc_rp_on_tx(rp, i, i * 1000, 1000, &flags), LIBCC_OK);
        ck_assert_uint_eq(flags & LIBCC_TX_REQUEST_INT, LIBCC_TX_REQUEST_INT);
    }
    libcc_rp_del(rp);
}
END_TEST

static libcc_cp *mk_cp(const char *algo, const char *assign, uint32_t sw, uint32_t port,
                       uint64_t rate, libcc_int_table *table)
{
    libcc_params *p = NULL;
    ck_assert_int_eq(libcc_params_new(&p, algo), LIBCC_OK);
    if (assign)
        ck_assert_int_eq(libcc_params_parse(p, assign), LIBCC_OK);
    libcc_cp_info ci;
    memset(&ci, 0, sizeof ci);
    ci.switch_id = sw;
    ci.port_id = port;
    ci.link_rate_bps = rate;
    ci.int_table = table;
    libcc_cp *cp = NULL;
    ck_assert_int_eq(libcc_cp_new(&cp, p, &ci), LIBCC_OK);
    libcc_params_del(p);
    return cp;
}

/* A packet of `kind` through a port with one queue (queue = port = q). */
static libcc_cp_pkt cp_pkt(libcc_pkt_kind kind, uint32_t bytes, uint64_t q, libcc_int_list *ints)
{
    libcc_cp_pkt k;
    memset(&k, 0, sizeof k);
    k.kind = kind;
    k.bytes = bytes;
    k.queue_bytes = q;
    k.port_queue_bytes = q;
    k.int_list = ints;
    return k;
}

static libcc_cp_pkt data_pkt(uint32_t bytes, uint64_t q, libcc_int_list *ints)
{
    return cp_pkt(LIBCC_PKT_DATA, bytes, q, ints);
}

/* The switch stamps the egress port's record at dequeue: B = link rate,
 * ts = now, txBytes = bytes the port sent before this packet, qLen = the
 * port's queue after it, each as the HPCC hop carries it (1 ns, 128 B,
 * 80 B; truncated) with no switch or port id (not on the wire):
 *   packet 1, 1016 B at 5000 ns, port queue 2000 B: txBytes 0,
 *     qLen 25 ticks = 2000 B; it leaves with its new hop: 1016 + 8 = 1024 B.
 *   packet 2 at 6000 ns, port queue 480 B: txBytes 1024 = 8 ticks, exact;
 *     qLen 6 ticks = 480 B.
 * The priority's own queue (queue_bytes) is not INT's qLen. */
START_TEST(test_cp_stamps_at_dequeue)
{
    libcc_cp *cp = mk_cp("hpcc", NULL, 3, 7, 25 * G, NULL);
    libcc_int_list l;
    libcc_int_list_init(&l);
    libcc_cp_pkt k = data_pkt(1016, 0, &l);
    ck_assert_int_eq(libcc_cp_on_enqueue(cp, 4000, &k), LIBCC_OK);
    ck_assert_uint_eq(l.n_hops, 0); /* not at enqueue */
    k.queue_bytes = 160;
    k.port_queue_bytes = 2000;
    ck_assert_int_eq(libcc_cp_on_dequeue(cp, 5000, &k), LIBCC_OK);
    ck_assert_uint_eq(k.int_stamped, 1);
    ck_assert_uint_eq(l.n_hops, 1);
    ck_assert_uint_eq(l.hop[0].bandwidth_bps, 25 * G);
    ck_assert_uint_eq(l.hop[0].ts_ns, 5000);
    ck_assert_uint_eq(l.hop[0].tx_bytes, 0);
    ck_assert_uint_eq(l.hop[0].qlen_bytes, 2000);
    ck_assert_uint_eq(l.hop[0].switch_id, 0);
    ck_assert_uint_eq(l.hop[0].port_id, 0);
    ck_assert_uint_eq(l.ts_bits, 24); /* the wire's wrap widths */
    ck_assert_uint_eq(l.tx_bits, 27);
    k = data_pkt(1500, 480, &l);
    ck_assert_int_eq(libcc_cp_on_dequeue(cp, 6000, &k), LIBCC_OK);
    ck_assert_uint_eq(l.n_hops, 2);
    ck_assert_uint_eq(l.hop[1].tx_bytes, 1024);
    ck_assert_uint_eq(l.hop[1].qlen_bytes, 480);
    libcc_cp_del(cp);
}
END_TEST

/* Which packets the HPCC switch stamps, decided from the kind: DATA and
 * PROBE packets that carry a header; not data without one (HPCC++ every-k
 * sends most data so), not an ACK or NACK (its header is the receiver's
 * echo), never a CNP. The same for hpcc++. */
START_TEST(test_cp_stamps_by_kind)
{
    static const char *const algos[2] = {"hpcc", "hpcc++"};
    static const libcc_pkt_kind kinds[6] = {LIBCC_PKT_DATA, LIBCC_PKT_PROBE, LIBCC_PKT_ACK,
                                            LIBCC_PKT_NACK, LIBCC_PKT_CNP,   LIBCC_PKT_OTHER};
    static const uint8_t want[6] = {1, 1, 0, 0, 0, 0};
    for (int a = 0; a < 2; a++) {
        libcc_cp *cp = mk_cp(algos[a], NULL, 1, 1, LINE, NULL);
        for (int i = 0; i < 6; i++) {
            libcc_int_list l;
            libcc_int_list_init(&l);
            libcc_cp_pkt k = cp_pkt(kinds[i], 64, 0, &l);
            ck_assert_int_eq(libcc_cp_on_dequeue(cp, 10 + (uint64_t)i, &k), LIBCC_OK);
            ck_assert_msg(k.int_stamped == want[i] && l.n_hops == want[i], "%s kind %d", algos[a],
                          (int)kinds[i]);
        }
        libcc_cp_pkt k = data_pkt(1000, 0, NULL);
        ck_assert_int_eq(libcc_cp_on_dequeue(cp, 20, &k), LIBCC_OK);
        ck_assert_uint_eq(k.int_stamped, 0);
        libcc_cp_del(cp);
    }
}
END_TEST

/* The port's txBytes (the next stamp's) counts every packet as it arrived
 * plus 8 bytes for the hop this port appended, only when it appended one:
 *   data 1000 B stamped        -> 1008
 *   data 1000 B, no header     -> 1000   (2008)
 *   ACK 64 B with its echo     ->   64   (2072, not stamped)
 *   data 1000 B, list full     -> 1000   (3072, max_hops 1: nothing added)
 * The next stamp carries 3072 B = 24 ticks of 128 B, exactly. */
START_TEST(test_cp_tx_bytes_include_own_hops)
{
    libcc_cp *cp = mk_cp("hpcc", "max_hops=1", 1, 1, LINE, NULL);
    libcc_int_list l, full, ack;
    libcc_int_list_init(&l);
    libcc_int_list_init(&ack);
    libcc_cp_pkt k = data_pkt(1000, 0, &l);
    ck_assert_int_eq(libcc_cp_on_dequeue(cp, 1, &k), LIBCC_OK);
    ck_assert_uint_eq(k.int_stamped, 1);
    full = l; /* one hop: full at max_hops 1 */
    k = data_pkt(1000, 0, NULL);
    ck_assert_int_eq(libcc_cp_on_dequeue(cp, 2, &k), LIBCC_OK);
    k = cp_pkt(LIBCC_PKT_ACK, 64, 0, &ack);
    ck_assert_int_eq(libcc_cp_on_dequeue(cp, 3, &k), LIBCC_OK);
    k = data_pkt(1000, 0, &full);
    ck_assert_int_eq(libcc_cp_on_dequeue(cp, 4, &k), LIBCC_OK);
    ck_assert_uint_eq(k.int_stamped, 0);
    libcc_int_hop rec;
    ck_assert_int_eq(libcc_cp_int_record(cp, 5, 0, &rec), LIBCC_OK);
    ck_assert_uint_eq(rec.tx_bytes, 3072);
    libcc_int_list_init(&l);
    k = data_pkt(1000, 0, &l);
    ck_assert_int_eq(libcc_cp_on_dequeue(cp, 6, &k), LIBCC_OK);
    ck_assert_uint_eq(l.hop[0].tx_bytes, 3072);
    libcc_cp_del(cp);
}
END_TEST

/* A list already holding max_hops records is left unchanged. */
START_TEST(test_cp_full_list_unchanged)
{
    libcc_cp *cp = mk_cp("hpcc", "max_hops=2", 1, 1, LINE, NULL);
    libcc_int_list l;
    libcc_int_list_init(&l);
    libcc_int_hop h = hop(1, 2, 3);
    ck_assert_int_eq(libcc_int_list_push(&l, &h, 8), LIBCC_OK);
    ck_assert_int_eq(libcc_int_list_push(&l, &h, 8), LIBCC_OK);
    libcc_int_list before = l;
    libcc_cp_pkt k = data_pkt(1000, 0, &l);
    ck_assert_int_eq(libcc_cp_on_dequeue(cp, 100, &k), LIBCC_OK);
    ck_assert_uint_eq(k.int_stamped, 0);
    ck_assert_int_eq(memcmp(&l, &before, sizeof l), 0);
    libcc_cp_del(cp);
}
END_TEST

/* The receiver echoes the data packet's hop list into its ACK. */
START_TEST(test_np_echoes_ints)
{
    libcc_params *p = NULL;
    ck_assert_int_eq(libcc_params_new(&p, "hpcc"), LIBCC_OK);
    libcc_np_info ni;
    memset(&ni, 0, sizeof ni);
    ni.max_flows = 4;
    ni.line_rate_bps = LINE;
    ni.base_rtt_ns = T_NS;
    libcc_np *np = NULL;
    ck_assert_int_eq(libcc_np_new(&np, p, &ni, NULL, NULL), LIBCC_OK);
    libcc_int_hop h[2] = {hop(100, 200, 300), hop(400, 500, 600)};
    libcc_int_list l;
    (void)mk_ack(0, 2, h, &l);
    libcc_data_pkt d;
    memset(&d, 0, sizeof d);
    d.flow_id = 5;
    d.bytes = 1000;
    d.int_list = &l;
    libcc_np_verdict v;
    ck_assert_int_eq(libcc_np_on_data(np, 10, &d, &v), LIBCC_OK);
    ck_assert_uint_eq(v.send_ack, 1); /* ack_interval 1 */
    /* The ACK points at the data packet's own list: no copy. */
    ck_assert_ptr_eq(v.ack.int_list, &l);
    ck_assert_uint_eq(v.ack.int_list->n_hops, 2);
    ck_assert_uint_eq(v.ack.int_list->hop[0].qlen_bytes, 300);
    ck_assert_uint_eq(v.ack.int_list->hop[1].ts_ns, 400);
    ck_assert_uint_eq(v.ack.int_list->hop[1].switch_id, 1);
    /* Data without INT: nothing to echo. */
    d.int_list = NULL;
    ck_assert_int_eq(libcc_np_on_data(np, 20, &d, &v), LIBCC_OK);
    ck_assert_ptr_null(v.ack.int_list);
    ck_assert_uint_eq(v.ack.n_flows, 0); /* hpcc reports no N */
    libcc_np_del(np);
    libcc_params_del(p);
}
END_TEST

/* ---- the replay tool on examples/traces/hpcc.trace ------------------- */

/* Hand derivations in examples/traces/hpcc.trace: at 24 us u' = 2 and
 * W = 150000*0.95/2 + 500 = 71750, R = 71750*8e9/12000 = 47833333333;
 * at 84 us the fifth additive step 74250; at 96 us the multiplicative one
 * 74250*0.95/0.5 + 500 = 141575, R = 94383333333. */
START_TEST(test_replay_hpcc_trace)
{
    char *csv = ts_run_replay("examples/traces/hpcc.trace");
    ck_assert_double_eq(ts_csv_at(csv, 12000, "ack", "window_bytes"), 150000);
    ck_assert_double_eq(ts_csv_at(csv, 24000, "ack", "window_bytes"), 71750);
    ck_assert_double_eq(ts_csv_at(csv, 24000, "ack", "rate_bps"), 47833333333.0);
    ck_assert_double_eq(ts_csv_at(csv, 84000, "ack", "window_bytes"), 74250);
    ck_assert_double_eq(ts_csv_at(csv, 84000, "ack", "inc_stage"), 5);
    ck_assert_double_eq(ts_csv_at(csv, 96000, "ack", "window_bytes"), 141575);
    ck_assert_double_eq(ts_csv_at(csv, 96000, "ack", "rate_bps"), 94383333333.0);
    free(csv);
}
END_TEST

/* ---- the parameter table of docs/algorithms/hpcc.md ------------------- */

START_TEST(test_docs_params)
{
    char *doc = ts_read_source_file("docs/algorithms/hpcc.md");
    ts_doc_has_params(doc, "docs/algorithms/hpcc.md", "hpcc");
    ts_doc_has_params(doc, "docs/algorithms/hpcc.md", "hpcc++");
    free(doc);
}
END_TEST

/* A flow whose BDP would exceed 2^64 bytes (line rate and T both 2^64-1,
 * W_init = 2^128 / 8e9 B) is refused since 0.7.0: the flow's ranges
 * (libcc_flow_params) stop it before any arithmetic. The largest flow
 * accepted, 10 Tbit/s with T = 1 s, has W_init = 1e13 * 1e9 / 8e9 =
 * 1.25e12 B, which a uint64_t holds exactly, and starts at line rate. */
START_TEST(test_huge_bdp_refused)
{
    libcc_params *p = ts_make_params("hpcc", NULL);
    libcc_flow_info fi = {.flow_id = 1, .line_rate_bps = UINT64_MAX, .base_rtt_ns = UINT64_MAX,
                          .mtu_bytes = 1000};
    libcc_rp *rp = NULL;
    ck_assert_int_eq(libcc_rp_new(&rp, p, &fi, NULL, NULL, 0), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_ptr_null(rp);
    libcc_params_del(p);
    rp = mk_rp_full("hpcc", NULL, 10000000000000ull, 1000000000ull);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 1250000000000ull);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 10000000000000ull);
    libcc_rp_del(rp);
}
END_TEST

Suite *hpcc_suite(void)
{
    Suite *s = suite_create("hpcc");
    TCase *tc = tcase_create("rp");
    tcase_add_test(tc, test_initial_state);
    tcase_add_test(tc, test_wai_and_t);
    tcase_add_test(tc, test_bad_params);
    tcase_add_test(tc, test_rate_never_above_line);
    tcase_add_test(tc, test_first_ack_stores_only);
    tcase_add_test(tc, test_additive_then_multiplicative);
    tcase_add_test(tc, test_md_eta_over_u);
    tcase_add_test(tc, test_ewma_weight);
    tcase_add_test(tc, test_tau_from_max_hop);
    tcase_add_test(tc, test_wc_once_per_rtt);
    tcase_add_test(tc, test_nack_updates);
    tcase_add_test(tc, test_idle_path_u_zero);
    tcase_add_test(tc, test_ack_without_int);
    tcase_add_test(tc, test_wrapping_counters);
    tcase_add_test(tc, test_tx_requests_int);
    suite_add_tcase(s, tc);
    tc = tcase_create("garbage");
    /* test_garbage_fuzz's thousands of ck_asserts each write a checkpoint to
     * Check's pipe: 0.6 s of CPU, but over the default 4 s on a loaded
     * machine. */
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_garbage_b_zero);
    tcase_add_test(tc, test_garbage_ts_backwards);
    tcase_add_test(tc, test_garbage_ts_still_and_txrate);
    tcase_add_test(tc, test_garbage_hop_count);
    tcase_add_test(tc, test_garbage_huge_qlen);
    tcase_add_test(tc, test_garbage_fuzz);
    tcase_add_test(tc, test_huge_bdp_refused);
    suite_add_tcase(s, tc);
    tc = tcase_create("cp_np");
    tcase_add_test(tc, test_cp_stamps_at_dequeue);
    tcase_add_test(tc, test_cp_stamps_by_kind);
    tcase_add_test(tc, test_cp_tx_bytes_include_own_hops);
    tcase_add_test(tc, test_cp_full_list_unchanged);
    tcase_add_test(tc, test_np_echoes_ints);
    suite_add_tcase(s, tc);
    tc = tcase_create("replay");
    tcase_add_test(tc, test_docs_params);
    tcase_add_test(tc, test_replay_hpcc_trace);
    suite_add_tcase(s, tc);
    return s;
}
