/* SPDX-License-Identifier: MIT */
/*
 * RoCC (docs/algorithms/rocc.md). Expected values worked out by hand from
 * the switch's update every T in integer units (F = f_min past q_max, F/2
 * for a queue grown by q_mid, else F - a (q - q_ref) - b (q - q_old) with
 * a, b divided by the self-tuning ratio, F in [f_min, C]), its feedback to
 * every flow queued, and the sender's rule (follow one switch or any lower
 * rate; double each `recovery` without an accepted rate). Port: C = 100
 * Gbit/s.
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

/* A data packet of flow `flow` joins the queue, which then holds q bytes. */
static void enq(libcc_cp *cp, uint64_t flow, uint64_t q)
{
    libcc_cp_pkt k;
    memset(&k, 0, sizeof k);
    k.kind = LIBCC_PKT_DATA;
    k.bytes = 1000;
    k.queue_bytes = k.port_queue_bytes = q - 1000;
    k.has = LIBCC_PKT_HAS_FLOW_ID;
    k.flow_id = flow;
    ck_assert_int_eq(libcc_cp_on_enqueue(cp, 0, &k), LIBCC_OK);
    ck_assert_uint_eq(k.send_feedback, 0); /* feedback comes from the timer only */
}

/* A data packet of `flow` leaves; q bytes stay. */
static void deq(libcc_cp *cp, uint64_t flow, uint64_t q)
{
    libcc_cp_pkt k;
    memset(&k, 0, sizeof k);
    k.kind = LIBCC_PKT_DATA;
    k.bytes = 1000;
    k.queue_bytes = k.port_queue_bytes = q;
    k.has = LIBCC_PKT_HAS_FLOW_ID;
    k.flow_id = flow;
    ck_assert_int_eq(libcc_cp_on_dequeue(cp, 0, &k), LIBCC_OK);
}

#define MAXFB 64
static libcc_cp_feedback fbs[MAXFB];

/* The timer fires at now; returns how many feedback entries it wrote. */
static size_t tick(libcc_cp *cp, uint64_t now)
{
    size_t n = 99;
    ck_assert_int_eq(libcc_cp_on_timer(cp, now, fbs, MAXFB, &n), LIBCC_OK);
    return n;
}

/* The timer at now speaks to exactly one flow, with rate bps. */
static void tick_one(libcc_cp *cp, uint64_t now, uint64_t bps)
{
    ck_assert_uint_eq(tick(cp, now), 1);
    ck_assert_uint_eq(fbs[0].rate_bps, bps);
}

/* Defaults: C = 100 Gbit/s = 10000 units of 10 Mbit/s, C/8 = 1250 units;
 * queue units of 600 B: q_ref 120 KB = 200, q_mid 60 KB = 100, q_max
 * 360 KB = 600; gains 5000 and 25000 bit/s per byte = 0.3 and 1.5 units per
 * queue unit. One flow (7) holds the queue at each step. */
START_TEST(test_queue_step_md_and_pi)
{
    libcc_cp *cp = cp_for(NULL);
    ck_assert_uint_eq(libcc_cp_deadline_ns(cp), 0); /* due at the host's start */
    ck_assert_uint_eq(libcc_cp_max_feedback(cp), 64);
    /* empty queue: F = 10000 + 0.3 x 200 = 10060, clamped to C; nobody queued */
    ck_assert_uint_eq(tick(cp, 0), 0);
    ck_assert_uint_eq(libcc_cp_deadline_ns(cp), 40000);
    /* PI: q = 30 KB = 50 units, grew 50 (< q_mid 100), below q_max:
     * F = 10000 - 0.3 (50 - 200) - 1.5 (50 - 0) = 10000 + 45 - 75 = 9970 */
    enq(cp, 7, 30000);
    tick_one(cp, 40000, 99700000000ull);
    ck_assert_uint_eq(fbs[0].flow_id, 7);
    /* q = 96 KB = 160 units: grew 110 >= q_mid, F 9970 > 1250: F / 2 = 4985 */
    enq(cp, 7, 96000);
    tick_one(cp, 80000, 49850000000ull);
    /* q = 600 KB = 1000 units >= q_max 600, F 4985 > 1250: F = f_min = 1 unit */
    enq(cp, 7, 600000);
    tick_one(cp, 120000, 10000000ull);
    /* PI again, self-tuned: F = 1 < 10000/64 = 156: ratio 32 (k at most 5),
     * gains 0.3/32 = 0.009375 and 1.5/32 = 0.046875. q = 330 KB = 550:
     * F = 1 - 0.009375 (550 - 200) - 0.046875 (550 - 1000)
     *   = 1 - 3.28125 + 21.09375 = 18.8125 -> 18 units = 180 Mbit/s */
    deq(cp, 7, 330000);
    tick_one(cp, 160000, 180000000ull);
    /* a queue still at q_max with F at or below C/8: no cut, the PI step:
     * q = 1000 units again, grew 450: ratio 32 (18 < 156):
     * F = 18 - 0.009375 x 800 - 0.046875 x 450 = 18 - 7.5 - 21.09 < 1 -> f_min */
    enq(cp, 7, 600000);
    tick_one(cp, 200000, 10000000ull);
    libcc_cp_del(cp);
}
END_TEST

/* Self-tuning: alpha 10000 bit/s per byte with 1000 B queue units is
 * exactly 1 rate unit per queue unit; beta 0, q_ref 0 and the cuts out of
 * reach, the queue held at 3 MB = 3000 units: each step is 3000 / ratio,
 * ratio 2^k for F below 10000 >> k (5000, 2500, 1250, 625, 312), k <= 5:
 * 10000 -> 7000 (1) -> 4000 (1) -> 2500 (2) -> 1000 (2) -> 625 (8)
 *       -> 250 (8) -> 156.25 (32) -> 62.25 (32), truncated each time. */
START_TEST(test_self_tuning_ratio)
{
    const uint64_t want[] = {7000, 4000, 2500, 1000, 625, 250, 156, 62};
    libcc_cp *cp = cp_for("alpha=10000 beta=0 q_ref=0 q_mid=1GB q_max=1GB queue_unit=1000B");
    enq(cp, 1, 3000000);
    for (int i = 0; i < 8; i++) {
        tick_one(cp, 40000 * (uint64_t)i, want[i] * 10000000ull);
    }
    libcc_cp_del(cp);
    /* fixed gains (max_gain_shift 0): 7000, 4000, 1000, then the floor */
    cp = cp_for("alpha=10000 beta=0 q_ref=0 q_mid=1GB q_max=1GB queue_unit=1000B "
                "max_gain_shift=0");
    enq(cp, 1, 3000000);
    const uint64_t fixed[] = {7000, 4000, 1000, 1};
    for (int i = 0; i < 4; i++) {
        tick_one(cp, 40000 * (uint64_t)i, fixed[i] * 10000000ull);
    }
    libcc_cp_del(cp);
}
END_TEST

/* Three flows queued: one feedback each per period, however many packets
 * each has queued; a flow whose packets all left hears nothing more. */
START_TEST(test_one_feedback_per_flow_per_period)
{
    libcc_cp *cp = cp_for(NULL);
    enq(cp, 11, 1000);
    enq(cp, 22, 2000);
    enq(cp, 11, 3000);
    enq(cp, 33, 4000);
    enq(cp, 11, 5000);
    /* an ACK with a flow id is not data: not a flow of this queue */
    libcc_cp_pkt k;
    memset(&k, 0, sizeof k);
    k.kind = LIBCC_PKT_ACK;
    k.bytes = 60;
    k.has = LIBCC_PKT_HAS_FLOW_ID;
    k.flow_id = 44;
    ck_assert_int_eq(libcc_cp_on_enqueue(cp, 0, &k), LIBCC_OK);
    ck_assert_uint_eq(tick(cp, 0), 3);
    uint64_t seen = 0;
    for (size_t i = 0; i < 3; i++) {
        /* 5000 B = 8 units, grew 8: F = 10000 - 0.3 x (8 - 200) - 1.5 x 8 -> C */
        ck_assert_uint_eq(fbs[i].rate_bps, G100);
        seen |= fbs[i].flow_id == 11 ? 1 : fbs[i].flow_id == 22 ? 2 : fbs[i].flow_id == 33 ? 4 : 8;
    }
    ck_assert_uint_eq(seen, 7);
    /* early: nothing due, nothing written */
    ck_assert_uint_eq(tick(cp, 39999), 0);
    /* 22 leaves, 11 keeps two of its three packets */
    deq(cp, 11, 4000);
    deq(cp, 22, 2000);
    ck_assert_uint_eq(tick(cp, 40000), 2);
    ck_assert(fbs[0].flow_id != 22 && fbs[1].flow_id != 22);
    deq(cp, 11, 1000);
    deq(cp, 33, 1000);
    deq(cp, 11, 0);
    ck_assert_uint_eq(tick(cp, 80000), 0);
    libcc_cp_del(cp);
}
END_TEST

/* A table of max_flows: a flow finding it full is not recorded (no
 * feedback while its packets wait); once a slot frees it is. Many flows
 * through a small table keep it consistent (backward-shift deletion). */
START_TEST(test_flow_table_overflow)
{
    libcc_cp *cp = cp_for("max_flows=2");
    ck_assert_uint_eq(libcc_cp_max_feedback(cp), 2);
    enq(cp, 1, 1000);
    enq(cp, 2, 2000);
    enq(cp, 3, 3000); /* full: not recorded */
    size_t n = 0;
    ck_assert_int_eq(libcc_cp_on_timer(cp, 0, fbs, 2, &n), LIBCC_OK);
    ck_assert_uint_eq(n, 2);
    ck_assert(fbs[0].flow_id != 3 && fbs[1].flow_id != 3);
    deq(cp, 1, 2000);
    deq(cp, 3, 1000); /* never recorded: ignored */
    enq(cp, 3, 2000);
    ck_assert_int_eq(libcc_cp_on_timer(cp, 40000, fbs, 2, &n), LIBCC_OK);
    ck_assert_uint_eq(n, 2);
    ck_assert(fbs[0].flow_id == 3 || fbs[1].flow_id == 3);
    libcc_cp_del(cp);
    /* 64 slots (2 x 32): 1000 flows in and out in waves of 32 */
    cp = cp_for("max_flows=32");
    for (uint64_t w = 0; w < 1000; w += 32) {
        for (uint64_t f = w; f < w + 32; f++)
            enq(cp, f * 2654435761ull, 1000);
        for (uint64_t f = w; f < w + 32; f += 2)
            deq(cp, f * 2654435761ull, 0);
        ck_assert_uint_eq(tick(cp, w * 40000), 16);
        for (size_t i = 0; i < 16; i++)
            ck_assert_uint_eq(fbs[i].flow_id / 2654435761ull % 2, 1);
        for (uint64_t f = w + 1; f < w + 32; f += 2)
            deq(cp, f * 2654435761ull, 0);
        ck_assert_uint_eq(tick(cp, w * 40000 + 20000), 0);
    }
    libcc_cp_del(cp);
}
END_TEST

START_TEST(test_timer_bad_input)
{
    libcc_cp *cp = cp_for(NULL);
    size_t n = 5;
    ck_assert_int_eq(libcc_cp_on_timer(NULL, 0, fbs, MAXFB, &n), LIBCC_ERR_INVALID_ARG);
    ck_assert_uint_eq(n, 0);
    ck_assert_int_eq(libcc_cp_on_timer(cp, 0, fbs, MAXFB, NULL), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_cp_on_timer(cp, 0, NULL, 3, &n), LIBCC_ERR_INVALID_ARG);
    /* room for fewer than max_flows: refused, nothing done (the deadline stays) */
    ck_assert_int_eq(libcc_cp_on_timer(cp, 0, fbs, 63, &n), LIBCC_ERR_BUFFER_TOO_SMALL);
    ck_assert_uint_eq(libcc_cp_deadline_ns(cp), 0);
    ck_assert_uint_eq(libcc_cp_deadline_ns(NULL), LIBCC_NO_DEADLINE);
    ck_assert_uint_eq(libcc_cp_max_feedback(NULL), 0);
    libcc_cp_del(cp);
    /* a CP without a timer: no deadline, nothing to write, a call is harmless */
    cp = ts_make_cp("dcqcn", NULL, G100, NULL);
    ck_assert_uint_eq(libcc_cp_deadline_ns(cp), LIBCC_NO_DEADLINE);
    ck_assert_uint_eq(libcc_cp_max_feedback(cp), 0);
    ck_assert_int_eq(libcc_cp_on_timer(cp, 5, NULL, 0, &n), LIBCC_OK);
    ck_assert_uint_eq(n, 0);
    libcc_cp_del(cp);
}
END_TEST

START_TEST(test_param_ranges)
{
    libcc_params *p = NULL;
    ck_assert_int_eq(libcc_params_new(&p, "rocc"), LIBCC_OK);
    ck_assert_int_eq(libcc_params_set(p, "interval", "0ns"), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "interval"));
    ck_assert_int_eq(libcc_params_set(p, "max_flows", "0"), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_int_eq(libcc_params_set(p, "max_flows", "65537"), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_int_eq(libcc_params_set(p, "max_flows", "65536"), LIBCC_OK);
    ck_assert_int_eq(libcc_params_set(p, "max_gain_shift", "31"), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_int_eq(libcc_params_set(p, "queue_unit", "0B"), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_int_eq(libcc_params_set(p, "rate_unit", "0bps"), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_int_eq(libcc_params_set(p, "recovery", "0ns"), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_int_eq(libcc_params_set(p, "apply_delay", "0ns"), LIBCC_OK);
    ck_assert_int_eq(libcc_params_set(p, "apply_delay", "2s"), LIBCC_ERR_OUT_OF_RANGE);
    /* f_min below one rate unit: F could be 0 units */
    ck_assert_int_eq(libcc_params_set(p, "f_min", "1Mbps"), LIBCC_OK);
    ck_assert_int_eq(libcc_params_validate(p), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "f_min"));
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "rate_unit"));
    libcc_cp_info info;
    memset(&info, 0, sizeof info);
    info.link_rate_bps = G100;
    libcc_cp *cp = NULL;
    ck_assert_int_eq(libcc_cp_new(&cp, p, &info), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_ptr_null(cp);
    ck_assert_int_eq(libcc_params_set(p, "rate_unit", "1Mbps"), LIBCC_OK);
    ck_assert_int_eq(libcc_params_validate(p), LIBCC_OK);
    /* the largest table: 65536 flows */
    ck_assert_int_eq(libcc_cp_new(&cp, p, &info), LIBCC_OK);
    ck_assert_uint_eq(libcc_cp_max_feedback(cp), 65536);
    libcc_cp_del(cp);
    libcc_params_del(p);
}
END_TEST

static int fb(libcc_rp *rp, uint64_t now, uint64_t rate, uint32_t sw, uint32_t port)
{
    libcc_feedback f = {.rate_bps = rate, .switch_id = sw, .port_id = port};
    return libcc_rp_on_feedback(rp, now, &f);
}

/* The model's acceptance rule; a rate is taken at once (apply_delay 0). */
START_TEST(test_sender_follows_the_bottleneck)
{
    libcc_rp *rp = ts_make_rp("rocc", NULL, G100, 12000, NULL, NULL);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), LIBCC_WINDOW_UNLIMITED);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), LIBCC_NO_DEADLINE);
    /* following none: any rate */
    ck_assert_int_eq(fb(rp, 10000, 40000000000ull, 1, 2), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 40000000000ull);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 65000); /* recovery 55 us */
    /* another switch's higher rate: ignored, the timer keeps running */
    ck_assert_int_eq(fb(rp, 20000, 60000000000ull, 3, 1), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 40000000000ull);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 65000);
    /* the followed switch's rate rose: taken */
    ck_assert_int_eq(fb(rp, 30000, 60000000000ull, 1, 2), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 60000000000ull);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 85000);
    /* the same switch, another port: another queue, only if lower */
    ck_assert_int_eq(fb(rp, 35000, 70000000000ull, 1, 3), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 60000000000ull);
    /* a lower rate elsewhere: the new one followed */
    ck_assert_int_eq(fb(rp, 40000, 30000000000ull, 3, 1), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 30000000000ull);
    ck_assert_double_eq(ts_rp_var(rp, "switch"), 3);
    /* switch 1 is no longer followed: its higher rate is ignored */
    ck_assert_int_eq(fb(rp, 50000, 50000000000ull, 1, 2), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 30000000000ull);
    /* a rate of 0 is taken as 1 bit/s, and doubles from there */
    ck_assert_int_eq(fb(rp, 55000, 0, 3, 1), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 1);
    ck_assert_int_eq(libcc_rp_on_timer(rp, 55000 + 2 * 55000), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 4);
    /* the followed switch at line rate: no limit, no timer */
    ck_assert_int_eq(fb(rp, 170000, G100, 3, 1), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), G100);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), LIBCC_NO_DEADLINE);
    ck_assert_double_eq(ts_rp_var(rp, "limited"), 0);
    ck_assert_double_eq(ts_rp_var(rp, "feedbacks"), 8);
    ck_assert_double_eq(ts_rp_var(rp, "accepted"), 5);
    libcc_rp_del(rp);
}
END_TEST

/* A lone flow on a silent path: 55 us after its last accepted rate the rate
 * doubles, and again every 55 us, up to line rate: 10, 20, 40, 80, 100. */
START_TEST(test_doubling_on_a_silent_path)
{
    libcc_rp *rp = ts_make_rp("rocc", NULL, G100, 12000, NULL, NULL);
    ck_assert_int_eq(fb(rp, 10000, 10000000000ull, 1, 2), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 65000);
    ck_assert_int_eq(libcc_rp_on_timer(rp, 64999), LIBCC_OK); /* early: nothing */
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 10000000000ull);
    const uint64_t want[] = {20000000000ull, 40000000000ull, 80000000000ull, G100};
    for (int i = 0; i < 4; i++) {
        const uint64_t t = 65000 + 55000 * (uint64_t)i;
        ck_assert_uint_eq(libcc_rp_deadline_ns(rp), t);
        ck_assert_int_eq(libcc_rp_on_timer(rp, t), LIBCC_OK);
        ck_assert_uint_eq(libcc_rp_rate_bps(rp), want[i]);
    }
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), LIBCC_NO_DEADLINE);
    ck_assert_double_eq(ts_rp_var(rp, "doublings"), 4);
    /* an accepted rate restarts the count */
    ck_assert_int_eq(fb(rp, 300000, 30000000000ull, 1, 2), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 355000);
    ck_assert_int_eq(fb(rp, 340000, 20000000000ull, 1, 2), LIBCC_OK); /* reset at 340 */
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 395000);
    ck_assert_int_eq(libcc_rp_on_timer(rp, 394999), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 20000000000ull);
    /* a host late by two periods catches up: 20 -> 40 (395) -> 80 (450) */
    ck_assert_int_eq(libcc_rp_on_timer(rp, 460000), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 80000000000ull);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 505000);
    libcc_rp_del(rp);
}
END_TEST

/* apply_delay: the model applies a rate 15 us after it arrives. */
START_TEST(test_apply_delay)
{
    libcc_rp *rp = ts_make_rp("rocc", "apply_delay=15us", G100, 12000, NULL, NULL);
    ck_assert_int_eq(fb(rp, 10000, 40000000000ull, 1, 2), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), G100); /* not yet */
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 25000);
    ck_assert_int_eq(fb(rp, 20000, 30000000000ull, 1, 2), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 25000);
    ck_assert_int_eq(libcc_rp_on_timer(rp, 25000), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 40000000000ull);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 35000); /* the second one */
    ck_assert_int_eq(libcc_rp_on_timer(rp, 35000), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 30000000000ull);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 90000); /* 35 + 55 */
    /* nine in 15 us: the ring holds eight, the oldest is applied early */
    for (uint64_t i = 0; i < 9; i++)
        ck_assert_int_eq(fb(rp, 100000 + i, 20000000000ull - i * 1000000000ull, 1, 2), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 20000000000ull);
    ck_assert_int_eq(libcc_rp_on_timer(rp, 115008), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 12000000000ull);
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
    ck_assert_double_eq(ts_csv_at(csv, 95000, "timer", "rate_bps"), 60000000000.0);
    ck_assert_double_eq(ts_csv_at(csv, 150000, "timer", "rate_bps"), 100000000000.0);
    free(csv);
}
END_TEST

Suite *rocc_suite(void)
{
    Suite *s = suite_create("rocc");
    TCase *tc = tcase_create("cp");
    tcase_add_test(tc, test_queue_step_md_and_pi);
    tcase_add_test(tc, test_self_tuning_ratio);
    tcase_add_test(tc, test_one_feedback_per_flow_per_period);
    tcase_add_test(tc, test_flow_table_overflow);
    tcase_add_test(tc, test_timer_bad_input);
    tcase_add_test(tc, test_param_ranges);
    suite_add_tcase(s, tc);
    tc = tcase_create("rp");
    tcase_add_test(tc, test_sender_follows_the_bottleneck);
    tcase_add_test(tc, test_doubling_on_a_silent_path);
    tcase_add_test(tc, test_apply_delay);
    tcase_add_test(tc, test_docs_params);
    tcase_add_test(tc, test_replay_trace);
    suite_add_tcase(s, tc);
    return s;
}
