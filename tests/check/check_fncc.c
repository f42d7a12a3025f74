/* SPDX-License-Identifier: MIT */
/*
 * fncc: INT on the ACK's return path (Algorithm 1), last-hop congestion
 * speedup (Algorithms 2, 3) and the receiver's N. Every expected value is
 * derived by hand beside it.
 *
 * Setting: B = 100 Gbps on every link, T = 12 us, B*T = 150000 B, eta 0.95,
 * alpha 1.05, beta 0.9, W_ai = 500 B. With records one T apart:
 *   dtx 150000 B -> txRate/B = 1.0,   dtx 75000 B -> 0.5,
 *   qlen term = min(qlen, qlen_prev)/150000 (135000 -> 0.9).
 * An FNCC ACK's hop 0 is the first switch the ACK met: the receiver's ToR,
 * the LAST hop of the request path.
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

static libcc_rp *mk_rp(const char *assign)
{
    return ts_make_rp("fncc", assign, LINE, T_NS, NULL, NULL);
}

static double var(const libcc_rp *rp, const char *name)
{
    return ts_rp_var(rp, name);
}

static libcc_int_hop hop(uint32_t sw, uint64_t ts, uint64_t tx, uint64_t q)
{
    libcc_int_hop h;
    memset(&h, 0, sizeof h);
    h.bandwidth_bps = LINE;
    h.ts_ns = ts;
    h.tx_bytes = tx;
    h.qlen_bytes = q;
    h.switch_id = sw;
    return h;
}

/* A two-hop FNCC ACK: `last` is the request path's last hop (ACK index 0). */
static int ack2(libcc_rp *rp, uint64_t now, uint64_t seq, uint32_t n, libcc_int_hop last,
                libcc_int_hop first)
{
    libcc_ack a;
    libcc_int_list l;
    memset(&a, 0, sizeof a);
    a.seq = seq;
    a.n_flows = n;
    libcc_int_list_init(&l);
    ck_assert_int_eq(libcc_int_list_push(&l, &last, 8), LIBCC_OK);
    ck_assert_int_eq(libcc_int_list_push(&l, &first, 8), LIBCC_OK);
    a.int_list = &l;
    return libcc_rp_on_ack(rp, now, &a);
}

/* Three ACKs; the hot hop (0 = last, 1 = first of the request path) gets a
 * 135000 B queue and line-rate tx on the third:
 *   ACK1 (seq 1000): stored.
 *   ACK2 (seq 2000 > lastUpdateSeq 0): both hops u' = 0.5 (the hot hop's
 *        qlen 135000 pairs with 0: min = 0): U = 0.5, W = min(150000 + 500,
 *        B*T) = 150000 = Wc, lastUpdateSeq = snd_nxt = 10000.
 *   ACK3 (seq 3000 <= 10000, Wc not synced): hot u' = 0.9 + 1.0 = 1.9,
 *        other 0.5: U = 1.9 (tau = T). */
static libcc_rp *lhcs_scenario(const char *assign, unsigned hot, uint32_t n)
{
    libcc_rp *rp = mk_rp(assign);
    unsigned flags;
    ck_assert_int_eq(libcc_rp_on_tx(rp, 0, 0, 10000, &flags), LIBCC_OK);
    ck_assert_uint_eq(flags, 0); /* FNCC data packets collect no INT */
    libcc_int_hop h[2];
    h[0] = hop(2, 0, 0, 0);
    h[1] = hop(1, 0, 0, 0);
    ck_assert_int_eq(ack2(rp, 1000, 1000, n, h[0], h[1]), LIBCC_OK);
    h[hot] = hop(hot ? 1 : 2, 12000, 75000, 135000);
    h[!hot] = hop(hot ? 2 : 1, 12000, 75000, 0);
    ck_assert_int_eq(ack2(rp, 13000, 2000, n, h[0], h[1]), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 150000);
    ck_assert_double_eq_tol(var(rp, "Wc"), 150000.0, 1e-9);
    h[hot] = hop(hot ? 1 : 2, 24000, 225000, 135000);
    h[!hot] = hop(hot ? 2 : 1, 24000, 150000, 0);
    ck_assert_int_eq(ack2(rp, 25000, 3000, n, h[0], h[1]), LIBCC_OK);
    ck_assert_double_eq_tol(var(rp, "U"), 1.9, 1e-12);
    ck_assert_double_eq_tol(var(rp, "u_max"), 1.9, 1e-12);
    ck_assert_double_eq(var(rp, "hot_hop"), (double)hot);
    return rp;
}

/* Hot last hop, U_max 1.9 > alpha, N = 2:
 * Wc = B*T*beta/N = 150000*0.9/2 = 67500 exactly, then
 * W = Wc/(U/eta) + W_ai = 67500*0.95/1.9 + 500 = 33750 + 500 = 34250,
 * R = 34250*8e9/12000 = 22833333333.3. Wc is not synced (seq 3000). */
START_TEST(test_lhcs_fires_on_last_hop)
{
    libcc_rp *rp = lhcs_scenario("w_ai=500B", 0, 2);
    ck_assert_double_eq(var(rp, "Wc"), 67500.0);
    ck_assert_double_eq_tol(var(rp, "W"), 34250.0, 1e-9);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 34250);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 22833333333u);
    ck_assert_double_eq(var(rp, "lhcs"), 1.0);

    /* An ACK past lastUpdateSeq with the same congestion: LHCS sets Wc to
     * 67500 again, W = 34250, and line 34 then syncs Wc = W = 34250. */
    unsigned flags;
    ck_assert_int_eq(libcc_rp_on_tx(rp, 26000, 10000, 10000, &flags), LIBCC_OK);
    ck_assert_int_eq(ack2(rp, 37000, 11000, 2, hop(2, 36000, 375000, 135000),
                          hop(1, 36000, 225000, 0)),
                     LIBCC_OK);
    ck_assert_double_eq(var(rp, "lhcs"), 2.0);
    ck_assert_double_eq_tol(var(rp, "Wc"), 34250.0, 1e-9);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 34250);
    libcc_rp_del(rp);
}
END_TEST

/* The same congestion on the request path's FIRST hop (ACK index 1): no
 * speedup; plain HPCC: W = 150000*0.95/1.9 + 500 = 75000 + 500 = 75500. */
START_TEST(test_lhcs_not_on_other_hop)
{
    libcc_rp *rp = lhcs_scenario("w_ai=500B", 1, 2);
    ck_assert_double_eq(var(rp, "Wc"), 150000.0);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 75500);
    ck_assert_double_eq(var(rp, "lhcs"), 0.0);
    libcc_rp_del(rp);
}
END_TEST

/* lhcs=off: hot last hop, still plain HPCC: 75500. */
START_TEST(test_lhcs_off)
{
    libcc_rp *rp = lhcs_scenario("w_ai=500B lhcs=off", 0, 2);
    ck_assert_double_eq(var(rp, "Wc"), 150000.0);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 75500);
    ck_assert_double_eq(var(rp, "lhcs"), 0.0);
    libcc_rp_del(rp);
}
END_TEST

/* N absent (0) counts as one flow: Wc = 150000*0.9 = 135000,
 * W = 135000*0.5 + 500 = 68000. N = 3: Wc = 45000, W = 22500 + 500.
 * beta 0.5, N = 2: Wc = 37500, W = 18750 + 500 = 19250. */
START_TEST(test_lhcs_n_and_beta)
{
    libcc_rp *rp = lhcs_scenario("w_ai=500B", 0, 0);
    ck_assert_double_eq(var(rp, "Wc"), 135000.0);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 68000);
    libcc_rp_del(rp);
    rp = lhcs_scenario("w_ai=500B", 0, 3);
    ck_assert_double_eq_tol(var(rp, "Wc"), 45000.0, 1e-9);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 23000);
    libcc_rp_del(rp);
    rp = lhcs_scenario("w_ai=500B beta=0.5", 0, 2);
    ck_assert_double_eq(var(rp, "Wc"), 37500.0);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 19250);
    libcc_rp_del(rp);
}
END_TEST

/* U_max must EXCEED alpha: alpha = 2 with U_max = 1.9 does not fire
 * (W = 75500 as without LHCS); alpha = 1.85 does (34250). */
START_TEST(test_lhcs_alpha_threshold)
{
    libcc_rp *rp = lhcs_scenario("w_ai=500B alpha=2", 0, 2);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 75500);
    libcc_rp_del(rp);
    rp = lhcs_scenario("w_ai=500B alpha=1.85", 0, 2);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 34250);
    libcc_rp_del(rp);
}
END_TEST

/* An FNCC switch rewrites a port's All_INT_Table entry only when that port
 * dequeues, so an ACK can carry the very record the previous ACK carried
 * (the data port sent nothing in between). That hop has nothing new; the
 * other hops still measure, and the history is kept:
 *   ACK1: both hops' records at 0, stored.
 *   ACK2: last hop repeats its record; first hop 12 us on with 75000 B
 *         sent: u' = 75000/150000 = 0.5, tau = T: U = 0.5, no reset, the
 *         hot hop is the first (index 1), u_max 0.5.
 *   ACK3: both repeat: nothing measured, U stays 0.5, still no reset.
 *   ACK4: last hop at 12 us with 150000 B since ACK1's record: u' = 1.0
 *         (measured against the record kept since ACK1), first hop 0.5:
 *         U = 1.0 with tau = T. */
START_TEST(test_repeated_record_is_not_a_reset)
{
    libcc_rp *rp = mk_rp("w_ai=500B");
    unsigned flags;
    ck_assert_int_eq(libcc_rp_on_tx(rp, 0, 0, 10000, &flags), LIBCC_OK);
    ck_assert_int_eq(ack2(rp, 1000, 1000, 1, hop(2, 0, 0, 0), hop(1, 0, 0, 0)), LIBCC_OK);
    ck_assert_int_eq(ack2(rp, 13000, 2000, 1, hop(2, 0, 0, 0), hop(1, 12000, 75000, 0)),
                     LIBCC_OK);
    ck_assert_double_eq(var(rp, "resets"), 0.0);
    ck_assert_double_eq_tol(var(rp, "U"), 0.5, 1e-12);
    ck_assert_double_eq_tol(var(rp, "u_max"), 0.5, 1e-12);
    ck_assert_double_eq(var(rp, "hot_hop"), 1.0);
    ck_assert_int_eq(ack2(rp, 14000, 3000, 1, hop(2, 0, 0, 0), hop(1, 12000, 75000, 0)),
                     LIBCC_OK);
    ck_assert_double_eq(var(rp, "resets"), 0.0);
    ck_assert_double_eq_tol(var(rp, "U"), 0.5, 1e-12);
    ck_assert_int_eq(
        ack2(rp, 25000, 4000, 1, hop(2, 12000, 150000, 0), hop(1, 24000, 150000, 0)),
        LIBCC_OK);
    ck_assert_double_eq(var(rp, "resets"), 0.0);
    ck_assert_double_eq_tol(var(rp, "U"), 1.0, 1e-12);
    ck_assert_double_eq(var(rp, "hot_hop"), 0.0);
    libcc_rp_del(rp);
}
END_TEST

/* What the speedup saw when it fired, for the per-flow means (N = 4, then
 * N = 2; first hop 0.5 throughout):
 *   ACK2: last hop 165000 B in T, no queue: u' = 1.1 > 1.05, fires with no
 *         queue term.
 *   ACK3: 150000 B in T, queue 135000 but min with the previous 0 is 0:
 *         u' = 1.0, no firing.
 *   ACK4: 150000 B in T, queue 135000 both times: u' = 1.0 + 0.9 = 1.9,
 *         fires with a queue.
 *   Means: u' (1.1 + 1.9)/2 = 1.5, N (4 + 2)/2 = 3; one without a queue. */
START_TEST(test_lhcs_means_and_no_queue_count)
{
    libcc_rp *rp = mk_rp("w_ai=500B");
    unsigned flags;
    ck_assert_int_eq(libcc_rp_on_tx(rp, 0, 0, 10000, &flags), LIBCC_OK);
    ck_assert_int_eq(ack2(rp, 1000, 1000, 4, hop(2, 0, 0, 0), hop(1, 0, 0, 0)), LIBCC_OK);
    ck_assert_double_eq(var(rp, "lhcs_u_mean"), 0.0);
    ck_assert_int_eq(ack2(rp, 13000, 2000, 4, hop(2, 12000, 165000, 0), hop(1, 12000, 75000, 0)),
                     LIBCC_OK);
    ck_assert_double_eq(var(rp, "lhcs"), 1.0);
    ck_assert_double_eq_tol(var(rp, "lhcs_u_mean"), 1.1, 1e-12);
    ck_assert_double_eq(var(rp, "lhcs_n_mean"), 4.0);
    ck_assert_double_eq(var(rp, "lhcs_no_queue"), 1.0);
    ck_assert_int_eq(
        ack2(rp, 25000, 3000, 4, hop(2, 24000, 315000, 135000), hop(1, 24000, 150000, 0)),
        LIBCC_OK);
    ck_assert_double_eq(var(rp, "lhcs"), 1.0);
    ck_assert_int_eq(
        ack2(rp, 37000, 4000, 2, hop(2, 36000, 465000, 135000), hop(1, 36000, 225000, 0)),
        LIBCC_OK);
    ck_assert_double_eq(var(rp, "lhcs"), 2.0);
    ck_assert_double_eq_tol(var(rp, "lhcs_u_mean"), 1.5, 1e-12);
    ck_assert_double_eq(var(rp, "lhcs_n_mean"), 3.0);
    ck_assert_double_eq(var(rp, "lhcs_no_queue"), 1.0);
    libcc_rp_del(rp);
}
END_TEST

/* ---- switches ---------------------------------------------------------- */

static libcc_cp *mk_cp(const char *assign, uint32_t sw, uint32_t port, uint64_t rate,
                       libcc_int_table *table)
{
    libcc_params *p = NULL;
    ck_assert_int_eq(libcc_params_new(&p, "fncc"), LIBCC_OK);
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

/* One packet through a port with a single queue (queue = port queue = qlen). */
static int deq(libcc_cp *cp, uint64_t now, uint64_t qlen, libcc_pkt_kind kind, uint32_t bytes,
               uint32_t ingress, libcc_int_list *ints, uint8_t *stamped)
{
    libcc_cp_pkt k;
    memset(&k, 0, sizeof k);
    k.kind = kind;
    k.bytes = bytes;
    k.ingress_port = ingress;
    k.queue_bytes = qlen;
    k.port_queue_bytes = qlen;
    k.int_list = ints; /* even on data carrying a header, FNCC stamps only ACKs */
    int rc = libcc_cp_on_dequeue(cp, now, &k);
    if (stamped)
        *stamped = k.int_stamped;
    return rc;
}

/* One switch (id 9): a 3-port All_INT_Table and the CPs of ports 1 and 2,
 * port 1 at LINE. */
typedef struct sw9 {
    libcc_int_table *t;
    libcc_cp *p1, *p2;
} sw9;

static sw9 sw9_new(const char *assign, uint64_t port2_rate)
{
    sw9 s;
    ck_assert_int_eq(libcc_int_table_new(&s.t, 3), LIBCC_OK);
    s.p1 = mk_cp(assign, 9, 1, LINE, s.t);
    s.p2 = mk_cp(assign, 9, 2, port2_rate, s.t);
    return s;
}

static void sw9_del(sw9 *s)
{
    libcc_cp_del(s->p1);
    libcc_cp_del(s->p2);
    libcc_int_table_del(s->t);
}

/* Data in on port 1, out on port 2; its ACK in on port 2, out on port 1.
 * At port 1's egress the ACK gets port 2's record (the request path's
 * egress port): B = port 2's 25 Gbps, ts/qlen of port 2's latest dequeue,
 * txBytes = bytes port 2 sent before that dequeue (1000), all as the FNCC
 * entry carries them (default units 1 ns, 128 B, 128 B; truncated):
 *   ts 2000 ns -> 2000, txBytes 1000 -> 7 ticks = 896 B,
 *   qLen 4000 -> 31 ticks = 3968 B; switch and port ids are not on the
 *   wire: 0. The list's widths become the wire's: ts 24, txBytes 20 + 7 bits. */
START_TEST(test_table_gives_request_path_port)
{
    sw9 s = sw9_new(NULL, 25 * G);
    libcc_cp *p1 = s.p1, *p2 = s.p2;
    libcc_int_list dl;
    libcc_int_list_init(&dl);
    uint8_t st = 9;
    ck_assert_int_eq(deq(p2, 1000, 3000, LIBCC_PKT_DATA, 1000, 1, &dl, &st), LIBCC_OK);
    ck_assert_uint_eq(st, 0);          /* data packets are not stamped */
    ck_assert_uint_eq(dl.n_hops, 0);
    ck_assert_int_eq(deq(p2, 2000, 4000, LIBCC_PKT_DATA, 1000, 1, &dl, NULL), LIBCC_OK);

    libcc_int_list al;
    libcc_int_list_init(&al);
    ck_assert_int_eq(deq(p1, 3000, 0, LIBCC_PKT_ACK, 64, 2, &al, &st), LIBCC_OK);
    ck_assert_uint_eq(st, 1);
    ck_assert_uint_eq(al.n_hops, 1);
    ck_assert_uint_eq(al.hop[0].switch_id, 0);
    ck_assert_uint_eq(al.hop[0].port_id, 0);
    ck_assert_uint_eq(al.hop[0].bandwidth_bps, 25 * G);
    ck_assert_uint_eq(al.hop[0].ts_ns, 2000);
    ck_assert_uint_eq(al.hop[0].qlen_bytes, 3968);
    ck_assert_uint_eq(al.hop[0].tx_bytes, 896);
    ck_assert_uint_eq(al.ts_bits, 24);
    ck_assert_uint_eq(al.tx_bits, 27);

    /* A NACK is stamped the same way: port 2's 25 Gbps (port 1 is 100). */
    libcc_int_list nl;
    libcc_int_list_init(&nl);
    ck_assert_int_eq(deq(p1, 3100, 0, LIBCC_PKT_NACK, 64, 2, &nl, &st), LIBCC_OK);
    ck_assert_uint_eq(st, 1);
    ck_assert_uint_eq(nl.hop[0].bandwidth_bps, 25 * G);
    /* An ACK from port 0, whose entry was never written, passes unstamped;
     * a CNP is not an ACK and is never stamped. */
    libcc_int_list xl;
    libcc_int_list_init(&xl);
    ck_assert_int_eq(deq(p1, 3200, 0, LIBCC_PKT_ACK, 64, 0, &xl, &st), LIBCC_OK);
    ck_assert_uint_eq(st, 0);
    ck_assert_int_eq(deq(p1, 3300, 0, LIBCC_PKT_CNP, 64, 2, &xl, &st), LIBCC_OK);
    ck_assert_uint_eq(st, 0);
    ck_assert_uint_eq(xl.n_hops, 0);
    /* Port 1's own entry was written by its dequeues: B = 100 Gbps. */
    libcc_int_hop own;
    ck_assert_int_eq(libcc_int_table_get(s.t, 1, &own), LIBCC_OK);
    ck_assert_uint_eq(own.bandwidth_bps, LINE);
    ck_assert_uint_eq(own.ts_ns, 3300);
    sw9_del(&s);
}
END_TEST

/* table_refresh = 1 us: port 2's entry is written at its dequeue at 0,
 * not at 500 ns (less than 1 us later), again at 1000 ns. Queues and
 * packets are whole 128 B ticks so the stamped values are exact. */
START_TEST(test_table_refresh_period)
{
    sw9 s = sw9_new("table_refresh=1us", LINE);
    libcc_cp *p1 = s.p1, *p2 = s.p2;
    ck_assert_int_eq(deq(p2, 0, 1280, LIBCC_PKT_DATA, 1024, 1, NULL, NULL), LIBCC_OK);
    ck_assert_int_eq(deq(p2, 500, 2560, LIBCC_PKT_DATA, 1024, 1, NULL, NULL), LIBCC_OK);
    libcc_int_list al;
    libcc_int_list_init(&al);
    ck_assert_int_eq(deq(p1, 600, 0, LIBCC_PKT_ACK, 64, 2, &al, NULL), LIBCC_OK);
    ck_assert_uint_eq(al.hop[0].qlen_bytes, 1280);
    ck_assert_uint_eq(al.hop[0].ts_ns, 0);
    ck_assert_int_eq(deq(p2, 1000, 3840, LIBCC_PKT_DATA, 1024, 1, NULL, NULL), LIBCC_OK);
    libcc_int_list_init(&al);
    ck_assert_int_eq(deq(p1, 1100, 0, LIBCC_PKT_ACK, 64, 2, &al, NULL), LIBCC_OK);
    ck_assert_uint_eq(al.hop[0].qlen_bytes, 3840);
    ck_assert_uint_eq(al.hop[0].tx_bytes, 2048); /* two packets before this one */
    sw9_del(&s);
}
END_TEST

/* No table: the CP stamps nothing and reports no error. A port id outside
 * the table is a configuration error, reported at the dequeue. A full ACK
 * list is left as it is. */
START_TEST(test_cp_no_table_and_errors)
{
    /* An FNCC switch port without its switch's All_INT_Table could never
     * stamp an ACK: refused at creation rather than degrading silently. */
    libcc_params *fp = NULL;
    ck_assert_int_eq(libcc_params_new(&fp, "fncc"), LIBCC_OK);
    libcc_cp_info noinfo = {.switch_id = 1, .port_id = 1, .link_rate_bps = LINE};
    libcc_cp *cp = (libcc_cp *)1;
    ck_assert_int_eq(libcc_cp_new(&cp, fp, &noinfo), LIBCC_ERR_INVALID_ARG);
    ck_assert_ptr_null(cp);
    libcc_params_del(fp);
    libcc_int_list al;
    libcc_int_list_init(&al);
    uint8_t st = 9;

    libcc_int_table *t = NULL;
    ck_assert_int_eq(libcc_int_table_new(&t, 3), LIBCC_OK);
    cp = mk_cp(NULL, 1, 5, LINE, t);
    ck_assert_int_eq(deq(cp, 0, 0, LIBCC_PKT_DATA, 1000, 1, NULL, NULL), LIBCC_ERR_INVALID_ARG);
    libcc_cp_del(cp);

    libcc_cp *p1 = mk_cp("max_hops=1", 1, 1, LINE, t);
    libcc_cp *p2 = mk_cp("max_hops=1", 1, 2, LINE, t);
    ck_assert_int_eq(deq(p2, 0, 0, LIBCC_PKT_DATA, 1000, 1, NULL, NULL), LIBCC_OK);
    libcc_int_hop h = hop(7, 1, 2, 3);
    ck_assert_int_eq(libcc_int_list_push(&al, &h, 8), LIBCC_OK);
    libcc_int_list before = al;
    ck_assert_int_eq(deq(p1, 10, 0, LIBCC_PKT_ACK, 64, 2, &al, &st), LIBCC_OK);
    ck_assert_uint_eq(st, 0);
    ck_assert_int_eq(memcmp(&al, &before, sizeof al), 0);
    libcc_cp_del(p1);
    libcc_cp_del(p2);
    libcc_int_table_del(t);
}
END_TEST

/* End to end through two switches: sender - S1 - S2 - receiver. Data leaves
 * S1 by port 1 and S2 by port 1 (S2 port 1 is the last hop, to the
 * receiver); ACKs come back in on those ports and leave by port 0. The ACK
 * meets S2 first, so its list is [S2 port 1, S1 port 1]: index 0 is the
 * last hop. The hops are stamped in FNCC wire precision (128 B units), so
 * T = 12.8 us makes B*T = 160000 B = 1250 ticks and every value below a
 * whole number of ticks.
 * Round 1 at 0: S1p1 dequeues an 80000 B data packet (qlen 0), S2p1 a
 * 160000 B one (qlen 144000); the RP stores the ACK's records.
 * Round 2 at 12.8 us: both dequeue again; records now carry txBytes 80000
 * and 160000 (bytes sent before): u'[0] = 144000/160000 + 1.0 = 1.9 (last
 * hop), u'[1] = 0.5. seq 2000 > lastUpdateSeq 0: LHCS Wc = 160000*0.9/2 =
 * 72000, W = 72000*0.95/1.9 + 500 = 36500, then synced: Wc = 36500. */
START_TEST(test_two_switches_last_hop_is_index_0)
{
    const uint64_t t_ns = 12800;
    libcc_int_table *t1 = NULL, *t2 = NULL;
    ck_assert_int_eq(libcc_int_table_new(&t1, 2), LIBCC_OK);
    ck_assert_int_eq(libcc_int_table_new(&t2, 2), LIBCC_OK);
    libcc_cp *s1p0 = mk_cp(NULL, 1, 0, LINE, t1), *s1p1 = mk_cp(NULL, 1, 1, LINE, t1);
    libcc_cp *s2p0 = mk_cp(NULL, 2, 0, LINE, t2), *s2p1 = mk_cp(NULL, 2, 1, LINE, t2);
    libcc_rp *rp = ts_make_rp("fncc", "w_ai=500B", LINE, t_ns, NULL, NULL);
    unsigned flags;
    ck_assert_int_eq(libcc_rp_on_tx(rp, 0, 0, 10000, &flags), LIBCC_OK);

    for (unsigned round = 0; round < 2; round++) {
        uint64_t now = round * t_ns;
        ck_assert_int_eq(deq(s1p1, now, 0, LIBCC_PKT_DATA, 80000, 0, NULL, NULL), LIBCC_OK);
        ck_assert_int_eq(deq(s2p1, now, 144000, LIBCC_PKT_DATA, 160000, 0, NULL, NULL), LIBCC_OK);
        libcc_ack a;
        libcc_int_list l;
        memset(&a, 0, sizeof a);
        a.seq = 1000 * (round + 1);
        a.n_flows = 2;
        libcc_int_list_init(&l);
        ck_assert_int_eq(deq(s2p0, now, 0, LIBCC_PKT_ACK, 64, 1, &l, NULL), LIBCC_OK);
        ck_assert_int_eq(deq(s1p0, now, 0, LIBCC_PKT_ACK, 64, 1, &l, NULL), LIBCC_OK);
        ck_assert_uint_eq(l.n_hops, 2);
        ck_assert_uint_eq(l.hop[0].qlen_bytes, 144000); /* receiver's ToR first */
        ck_assert_uint_eq(l.hop[0].tx_bytes, 160000 * round);
        ck_assert_uint_eq(l.hop[1].qlen_bytes, 0);
        ck_assert_uint_eq(l.hop[1].tx_bytes, 80000 * round);
        a.int_list = &l;
        ck_assert_int_eq(libcc_rp_on_ack(rp, now + 1000, &a), LIBCC_OK);
    }
    ck_assert_double_eq(var(rp, "hot_hop"), 0.0);
    ck_assert_double_eq(var(rp, "lhcs"), 1.0);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 36500);
    ck_assert_double_eq_tol(var(rp, "Wc"), 36500.0, 1e-9);
    libcc_rp_del(rp);
    libcc_cp_del(s1p0);
    libcc_cp_del(s1p1);
    libcc_cp_del(s2p0);
    libcc_cp_del(s2p1);
    libcc_int_table_del(t1);
    libcc_int_table_del(t2);
}
END_TEST

/* The port's txBytes counts what the link carried: each packet as it
 * arrived plus the 8-byte hop this dequeue appended, and nothing for a hop
 * it could not append. Port 1 sends 64 B ACKs tagged with port 2:
 *   3 ACKs before port 2 has an entry: unstamped, 3 x 64 = 192 B;
 *   port 2 then dequeues data (its entry is written);
 *   1 ACK stamped: 64 + 8 = 72 B, total 264;
 *   1 ACK whose list is already full (max_hops 1): unstamped, 64, total 328;
 *   1 ACK without an INT header: 64, total 392. */
START_TEST(test_tx_bytes_count_only_appended_hops)
{
    sw9 s = sw9_new("max_hops=1", LINE);
    libcc_cp *p1 = s.p1, *p2 = s.p2;
    libcc_int_hop rec;
    uint8_t st = 9;
    for (int i = 0; i < 3; i++) {
        libcc_int_list al;
        libcc_int_list_init(&al);
        ck_assert_int_eq(deq(p1, 100 + (uint64_t)i, 0, LIBCC_PKT_ACK, 64, 2, &al, &st), LIBCC_OK);
        ck_assert_uint_eq(st, 0);
    }
    ck_assert_int_eq(libcc_cp_int_record(p1, 200, 0, &rec), LIBCC_OK);
    ck_assert_uint_eq(rec.tx_bytes, 192);
    ck_assert_int_eq(deq(p2, 300, 0, LIBCC_PKT_DATA, 1000, 1, NULL, NULL), LIBCC_OK);
    libcc_int_list al;
    libcc_int_list_init(&al);
    ck_assert_int_eq(deq(p1, 400, 0, LIBCC_PKT_ACK, 64, 2, &al, &st), LIBCC_OK);
    ck_assert_uint_eq(st, 1);
    ck_assert_int_eq(libcc_cp_int_record(p1, 500, 0, &rec), LIBCC_OK);
    ck_assert_uint_eq(rec.tx_bytes, 264);
    ck_assert_int_eq(deq(p1, 600, 0, LIBCC_PKT_ACK, 64, 2, &al, &st), LIBCC_OK);
    ck_assert_uint_eq(st, 0);
    ck_assert_uint_eq(al.n_hops, 1);
    ck_assert_int_eq(deq(p1, 700, 0, LIBCC_PKT_ACK, 64, 2, NULL, &st), LIBCC_OK);
    ck_assert_uint_eq(st, 0);
    ck_assert_int_eq(libcc_cp_int_record(p1, 800, 0, &rec), LIBCC_OK);
    ck_assert_uint_eq(rec.tx_bytes, 392);
    sw9_del(&s);
}
END_TEST

/* An entry a host wrote itself with a rate the FNCC header has no code for
 * (30 Gbps) cannot be stamped: the dequeue reports it and the ACK passes
 * unstamped; port 1 still maintains its own entry. */
START_TEST(test_unencodable_table_entry_reported)
{
    sw9 s = sw9_new(NULL, LINE);
    libcc_cp *p1 = s.p1;
    libcc_int_table *t = s.t;
    libcc_int_hop odd = hop(0, 1, 2, 3);
    odd.bandwidth_bps = 30 * G;
    ck_assert_int_eq(libcc_int_table_update(t, 2, &odd), LIBCC_OK);
    libcc_int_list al;
    libcc_int_list_init(&al);
    uint8_t st = 9;
    ck_assert_int_eq(deq(p1, 10, 0, LIBCC_PKT_ACK, 64, 2, &al, &st), LIBCC_ERR_BAD_TELEMETRY);
    ck_assert_uint_eq(st, 0);
    ck_assert_uint_eq(al.n_hops, 0);
    libcc_int_hop own;
    ck_assert_int_eq(libcc_int_table_get(t, 1, &own), LIBCC_OK);
    ck_assert_uint_eq(own.ts_ns, 10);
    sw9_del(&s);
}
END_TEST

/* ---- receiver ---------------------------------------------------------- */

static libcc_np *mk_np(const char *assign, uint32_t max_flows)
{
    libcc_params *p = NULL;
    ck_assert_int_eq(libcc_params_new(&p, "fncc"), LIBCC_OK);
    if (assign)
        ck_assert_int_eq(libcc_params_parse(p, assign), LIBCC_OK);
    libcc_np_info ni;
    memset(&ni, 0, sizeof ni);
    ni.max_flows = max_flows;
    ni.line_rate_bps = LINE;
    ni.base_rtt_ns = T_NS;
    libcc_np *np = NULL;
    ck_assert_int_eq(libcc_np_new(&np, p, &ni, NULL, NULL), LIBCC_OK);
    libcc_params_del(p);
    return np;
}

static libcc_np_verdict data(libcc_np *np, uint64_t now, uint64_t flow)
{
    libcc_data_pkt d;
    memset(&d, 0, sizeof d);
    d.flow_id = flow;
    d.bytes = 1000;
    libcc_np_verdict v;
    ck_assert_int_eq(libcc_np_on_data(np, now, &d, &v), LIBCC_OK);
    return v;
}

/* N = flows with data within the activity window (10 us here), on every
 * ACK, and the ACK leaves the receiver with no INT.
 *   0     A            -> {A}        1
 *   1 us  B            -> {A,B}      2
 *   2 us  C            -> {A,B,C}    3
 *   5 us  A            -> A at 5     3
 *   11.5  B: A 6.5 us ago, C 9.5 us ago, both < 10      -> 3
 *   12.5  B: C 10.5 us ago, aged out                     -> 2
 *   16    B: A 11 us ago, aged out                       -> 1 */
START_TEST(test_np_n_counts_and_ages)
{
    libcc_np *np = mk_np("activity_window=10us", 16);
    libcc_np_verdict v = data(np, 0, 0xA);
    ck_assert_uint_eq(v.ack.n_flows, 1);
    ck_assert_ptr_null(v.ack.int_list); /* the return path's switches fill an empty header */
    ck_assert_uint_eq(v.send_ack, 1);
    ck_assert_uint_eq(data(np, 1000, 0xB).ack.n_flows, 2);
    ck_assert_uint_eq(data(np, 2000, 0xC).ack.n_flows, 3);
    ck_assert_uint_eq(data(np, 5000, 0xA).ack.n_flows, 3);
    ck_assert_uint_eq(data(np, 11500, 0xB).ack.n_flows, 3);
    ck_assert_uint_eq(data(np, 12500, 0xB).ack.n_flows, 2);
    ck_assert_uint_eq(data(np, 16000, 0xB).ack.n_flows, 1);
    libcc_np_del(np);
}
END_TEST

/* N is 16 bits on the wire: 65534 and 65535 flows are reported as such,
 * 65536 saturates at 65535. */
START_TEST(test_np_n_saturates)
{
    libcc_np *np = mk_np("activity_window=1s", 70000);
    libcc_np_verdict v;
    memset(&v, 0, sizeof v);
    for (uint64_t f = 1; f <= 65534; f++)
        v = data(np, 0, f);
    ck_assert_uint_eq(v.ack.n_flows, 65534);
    ck_assert_uint_eq(data(np, 0, 65535).ack.n_flows, 65535);
    ck_assert_uint_eq(data(np, 0, 65536).ack.n_flows, 65535);
    ck_assert_uint_eq(libcc_np_active_flows(np, 0), 65536);
    libcc_np_del(np);
}
END_TEST

/* ---- replay of examples/traces/fncc.trace ------------------------------ */

/* examples/traces/fncc.trace, derived in its comments: at 30 us LHCS sets
 * Wc = 67500 and W = 34250 (R = 22833333333); at 42 us the queue is gone,
 * W = Wc + W_ai = 68000. */
START_TEST(test_replay_fncc_trace)
{
    char *csv = ts_run_replay("examples/traces/fncc.trace");
    ck_assert_double_eq(ts_csv_at(csv, 18000, "ack", "window_bytes"), 150000);
    ck_assert_double_eq(ts_csv_at(csv, 30000, "ack", "Wc"), 67500);
    ck_assert_double_eq(ts_csv_at(csv, 30000, "ack", "window_bytes"), 34250);
    ck_assert_double_eq(ts_csv_at(csv, 30000, "ack", "rate_bps"), 22833333333.0);
    ck_assert_double_eq(ts_csv_at(csv, 30000, "ack", "lhcs"), 1);
    ck_assert_double_eq(ts_csv_at(csv, 42000, "ack", "window_bytes"), 68000);
    free(csv);
}
END_TEST

/* ---- the parameter table of docs/algorithms/fncc.md ------------------- */

START_TEST(test_docs_params)
{
    char *doc = ts_read_source_file("docs/algorithms/fncc.md");
    ts_doc_has_params(doc, "docs/algorithms/fncc.md", "fncc");
    free(doc);
}
END_TEST

/* table_refresh = 1 ms with the clock near its top: the entry written at
 * 2^64-1000 must not be rewritten 500 ns later. now + 1 ms wraps to a small
 * time every later dequeue has passed, which would refresh at every one. */
START_TEST(test_table_refresh_at_clock_top)
{
    const uint64_t t0 = UINT64_MAX - 999;
    sw9 s = sw9_new("table_refresh=1ms", LINE);
    ck_assert_int_eq(deq(s.p2, t0, 1280, LIBCC_PKT_DATA, 1024, 1, NULL, NULL), LIBCC_OK);
    ck_assert_int_eq(deq(s.p2, t0 + 500, 2560, LIBCC_PKT_DATA, 1024, 1, NULL, NULL), LIBCC_OK);
    libcc_int_hop e;
    ck_assert_int_eq(libcc_int_table_get(s.t, 2, &e), LIBCC_OK);
    ck_assert_uint_eq(e.ts_ns, t0);
    ck_assert_uint_eq(e.qlen_bytes, 1280);
    sw9_del(&s);
}
END_TEST

Suite *fncc_suite(void)
{
    Suite *s = suite_create("fncc");
    TCase *tc = tcase_create("lhcs");
    tcase_add_test(tc, test_lhcs_fires_on_last_hop);
    tcase_add_test(tc, test_lhcs_not_on_other_hop);
    tcase_add_test(tc, test_lhcs_off);
    tcase_add_test(tc, test_lhcs_n_and_beta);
    tcase_add_test(tc, test_lhcs_alpha_threshold);
    tcase_add_test(tc, test_repeated_record_is_not_a_reset);
    tcase_add_test(tc, test_lhcs_means_and_no_queue_count);
    suite_add_tcase(s, tc);
    tc = tcase_create("cp");
    tcase_add_test(tc, test_table_gives_request_path_port);
    tcase_add_test(tc, test_table_refresh_period);
    tcase_add_test(tc, test_table_refresh_at_clock_top);
    tcase_add_test(tc, test_cp_no_table_and_errors);
    tcase_add_test(tc, test_two_switches_last_hop_is_index_0);
    tcase_add_test(tc, test_tx_bytes_count_only_appended_hops);
    tcase_add_test(tc, test_unencodable_table_entry_reported);
    suite_add_tcase(s, tc);
    tc = tcase_create("np");
    tcase_add_test(tc, test_np_n_counts_and_ages);
    tcase_add_test(tc, test_np_n_saturates);
    suite_add_tcase(s, tc);
    tc = tcase_create("replay");
    tcase_add_test(tc, test_docs_params);
    tcase_add_test(tc, test_replay_fncc_trace);
    suite_add_tcase(s, tc);
    return s;
}
