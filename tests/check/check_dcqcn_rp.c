/* SPDX-License-Identifier: MIT */
/*
 * DCQCN Reaction Point, through the public API with time driven by hand.
 * Every expected value is derived in the comment next to it from
 * docs/algorithms/dcqcn.md (the formulas of dcqcn-formulas.md plus the
 * documented interpretation choices). Unless a test says otherwise: line
 * rate L = 100 Gbit/s, firmware defaults (g = 5/1024 so the weight kept is
 * KEEP = 1019/1024, alpha timer 1 us, monitor period 4 us, rpg_time_reset
 * 300 us, rpg_byte_reset 32767 B, F = 1, AI 5 Mbit/s, HAI 50 Mbit/s).
 */
#include "check_dcqcn.h"

/* ---- start ------------------------------------------------------------ */

START_TEST(starts_at_line_rate_without_timers)
{
    test_host h;
    libcc_rp *rp = dq_rp(NULL, &h);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), LINE);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), LIBCC_WINDOW_UNLIMITED);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), LIBCC_NO_DEADLINE);
    ck_assert_double_eq(dq_var(rp, "alpha"), 1.0); /* initial_alpha */
    ck_assert_double_eq(dq_var(rp, "target_rate"), (double)LINE);
    /* Without a CNP nothing runs: neither time nor bytes change anything. */
    ck_assert_int_eq(libcc_rp_on_timer(rp, 1000 * US), LIBCC_OK);
    ck_assert_int_eq(libcc_rp_on_tx(rp, 1000 * US, 0, 1000000, NULL), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), LINE);
    ck_assert_double_eq(dq_var(rp, "byte_stage"), 0);
    ck_assert_double_eq(dq_var(rp, "alpha"), 1.0);
    ck_assert_int_eq(h.rate_calls, 0);
    libcc_rp_del(rp);
}
END_TEST

/* ---- alpha ------------------------------------------------------------ */

/* cut_on_cnp = 1 here and in every test below that says so: the cut comes
 * with the CNP, which keeps the hand derivations of the other mechanisms
 * short (alpha = 1 at the cut). The default's timing has its own tests
 * above. */
START_TEST(first_cnp_at_alpha_one_halves_rate_and_keeps_old_rate_as_target)
{
    test_host h;
    libcc_rp *rp = dq_rp("cut_on_cnp=1", &h);
    ck_assert_int_eq(libcc_rp_on_cnp(rp, 0), LIBCC_OK);
    /* alpha = initial_alpha = 1, rpg_gd = 11: Rc = L (1 - 1/2) = 50G;
     * first decrease: Rt = old Rc = L. */
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 50 * GBPS);
    ck_assert_double_eq(dq_var(rp, "target_rate"), (double)LINE);
    ck_assert_int_eq(h.rate_calls, 1);
    ck_assert_uint_eq(h.last_rate, 50 * GBPS);
    /* Earliest of alpha (1 us), monitor end (4 us), timer stage (300 us). */
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 1 * US);
    ck_assert_uint_eq(h.last_deadline, 1 * US);
    ck_assert_double_eq(dq_var(rp, "decreases"), 1);
    ck_assert_double_eq(dq_var(rp, "cnps"), 1);
    libcc_rp_del(rp);
}
END_TEST

START_TEST(alpha_after_n_quiet_periods_is_keep_to_the_n)
{
    test_host h;
    libcc_rp *rp = dq_rp("g=1/256, cut_on_cnp=1", &h);
    ck_assert_int_eq(libcc_rp_on_cnp(rp, 0), LIBCC_OK);
    /* The first CNP sets alpha = 1 and counts for nothing else, so each
     * following period is quiet: alpha = (1 - 1/256)^k. The alpha timer
     * is the earliest clock, so the deadline is always the next tick. */
    for (unsigned k = 1; k <= 20; k++) {
        ck_assert_uint_eq(libcc_rp_deadline_ns(rp), k * US);
        ck_assert_int_eq(libcc_rp_on_timer(rp, k * US), LIBCC_OK);
        ck_assert_double_eq_tol(dq_var(rp, "alpha"), pow(255.0 / 256.0, k), 1e-12);
    }
    /* No timer stage before 300 us: the rate is untouched. */
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 50 * GBPS);
    libcc_rp_del(rp);
}
END_TEST

START_TEST(alpha_rises_by_g_after_a_period_with_a_cnp)
{
    test_host h;
    libcc_rp *rp = dq_rp("cut_on_cnp=1", &h);
    ck_assert_int_eq(libcc_rp_on_cnp(rp, 0), LIBCC_OK);
    dq_run_until(rp, 10 * US);
    double a10 = pow(KEEP, 10); /* ten quiet ticks */
    ck_assert_double_eq_tol(dq_var(rp, "alpha"), a10, 1e-12);
    /* The monitor period [0, 4us) closed empty at 4 us, so this CNP cuts
     * at once with alpha = KEEP^10; no timer increase happened since the
     * first decrease, so Rt stays L. */
    ck_assert_int_eq(libcc_rp_on_cnp(rp, 10 * US + 500), LIBCC_OK);
    ck_assert_double_eq_tol((double)libcc_rp_rate_bps(rp), 50e9 * (1 - a10 / 2), 1.0);
    ck_assert_double_eq(dq_var(rp, "target_rate"), (double)LINE);
    /* The tick closing [10us, 11us) saw the CNP: alpha = KEEP a + g. */
    ck_assert_int_eq(libcc_rp_on_timer(rp, 11 * US), LIBCC_OK);
    ck_assert_double_eq_tol(dq_var(rp, "alpha"), KEEP * a10 + G_FW, 1e-12);
    libcc_rp_del(rp);
}
END_TEST

/* ---- the first cut: at the end of the monitor period (default) -------- */

/* NVIDIA's notes: "The RP monitors incoming CNPs over a defined window
 * called RATE_REDUCE_MONITOR_PERIOD. After this time elapses, if CNPs were
 * detected, the rate is cut." Defaults: P = 4 us, alpha every 1 us.
 * CNPs at 10 us and 12 us: the first CNP starts the grid of monitor periods
 * [10, 14), [14, 18), ...; both fall in [10, 14), so there is exactly one
 * cut, at 14 us. Alpha: set to 1 by the CNP at 10 us (which counts for
 * nothing else); ticks at 11 and 12 us are quiet (the 12 us tick is handled
 * before the CNP of the same instant): KEEP^2; the tick at 13 us closes
 * [12, 13) which held the second CNP: KEEP^3 + g; the tick at 14 us is
 * quiet: a14 = KEEP^4 + KEEP g, and it comes before the cut (alpha first at
 * a tie). The cut: first decrease, so Rt = L, Rc = L (1 - a14 / 2). */
START_TEST(cnps_at_10_and_12us_give_one_cut_at_the_period_end)
{
    test_host h;
    libcc_rp *rp = dq_rp(NULL, &h);
    ck_assert_int_eq(libcc_rp_on_cnp(rp, 10 * US), LIBCC_OK);
    /* Nothing is cut yet; the earliest timer is the alpha tick at 11 us. */
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), LINE);
    ck_assert_int_eq(h.rate_calls, 0);
    ck_assert_double_eq(dq_var(rp, "cnp_pending"), 1);
    ck_assert_double_eq(dq_var(rp, "decreases"), 0);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 11 * US);
    dq_run_until(rp, 12 * US);
    ck_assert_int_eq(libcc_rp_on_cnp(rp, 12 * US), LIBCC_OK);
    dq_run_until(rp, 14 * US - 1);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), LINE);
    ck_assert_double_eq(dq_var(rp, "decreases"), 0);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 14 * US);
    dq_run_until(rp, 14 * US);
    double a14 = pow(KEEP, 4) + KEEP * G_FW;
    ck_assert_double_eq_tol(dq_var(rp, "alpha"), a14, 1e-12);
    ck_assert_double_eq(dq_var(rp, "decreases"), 1);
    ck_assert_double_eq_tol((double)libcc_rp_rate_bps(rp), 1e11 * (1 - a14 / 2), 1.0);
    ck_assert_double_eq(dq_var(rp, "target_rate"), (double)LINE);
    ck_assert_double_eq(dq_var(rp, "cnp_pending"), 0);
    ck_assert_int_eq(h.rate_calls, 1);
    ck_assert_uint_eq(h.last_rate, libcc_rp_rate_bps(rp));
    /* Next: the alpha tick at 15 us (never a deadline in the past). */
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 15 * US);
    /* The cut, not the CNP, restarts the increase timer: the first stage
     * is at 14 + 300 = 314 us (a CNP-anchored timer would fire at 310). */
    uint64_t r14 = libcc_rp_rate_bps(rp);
    dq_run_until(rp, 314 * US - 1);
    ck_assert_double_eq(dq_var(rp, "timer_stage"), 0);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), r14);
    ck_assert_double_eq(dq_var(rp, "decreases"), 1); /* no CNP, no more cuts */
    dq_run_until(rp, 314 * US);
    ck_assert_double_eq(dq_var(rp, "timer_stage"), 1);
    /* Fast recovery (T = 0 < F = 1): Rc = (L + r14) / 2, rounded up. */
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), LINE / 2 + r14 / 2 + (r14 % 2 + 1) / 2);
    libcc_rp_del(rp);
}
END_TEST

/* The same CNPs with cut_on_cnp = 1 (libcc up to 0.3): the CNP at 10 us
 * finds no period open and cuts at once with alpha = 1: Rc = 50G, Rt = L;
 * it opens [10, 14). The CNP at 12 us waits for its end: at 14 us a second
 * cut with a14 = KEEP^4 + KEEP g (as above): Rc = 50G (1 - a14/2), Rt = L
 * (no timer stage since the first cut). Stages restart at 14 us: 314 us. */
START_TEST(cut_on_cnp_cuts_at_the_cnp_then_holds_off)
{
    test_host h;
    libcc_rp *rp = dq_rp("cut_on_cnp=1", &h);
    ck_assert_int_eq(libcc_rp_on_cnp(rp, 10 * US), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 50 * GBPS);
    ck_assert_double_eq(dq_var(rp, "target_rate"), (double)LINE);
    ck_assert_double_eq(dq_var(rp, "decreases"), 1);
    ck_assert_int_eq(h.rate_calls, 1);
    dq_run_until(rp, 12 * US);
    ck_assert_int_eq(libcc_rp_on_cnp(rp, 12 * US), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 50 * GBPS);
    ck_assert_double_eq(dq_var(rp, "cnp_pending"), 1);
    dq_run_until(rp, 14 * US);
    double a14 = pow(KEEP, 4) + KEEP * G_FW;
    ck_assert_double_eq(dq_var(rp, "decreases"), 2);
    ck_assert_double_eq_tol((double)libcc_rp_rate_bps(rp), 50e9 * (1 - a14 / 2), 1.0);
    ck_assert_double_eq(dq_var(rp, "target_rate"), (double)LINE);
    dq_run_until(rp, 314 * US - 1);
    ck_assert_double_eq(dq_var(rp, "timer_stage"), 0);
    dq_run_until(rp, 314 * US);
    ck_assert_double_eq(dq_var(rp, "timer_stage"), 1);
    libcc_rp_del(rp);
}
END_TEST

/* Monitor periods lie on one grid from the flow's first CNP, as the alpha
 * periods do (and as the HPCC simulator's 4 us check does): CNP at 10 us
 * (cut at 14 us: four quiet ticks, a14 = KEEP^4, R14 = L (1 - a14/2),
 * Rt = L); a CNP at 31 us
 * falls in [30, 34) and is cut at 34 us, not 35; a CNP exactly at 38 us
 * opens nothing new: it belongs to [38, 42) (periods are half-open) and is
 * cut at 42 us.
 *   alpha at 34 us: ticks 15..31 quiet (17): a14 KEEP^17; tick 32 closes
 *   [31, 32) with the CNP: a14 KEEP^18 + g; ticks 33, 34 quiet:
 *   a34 = a14 KEEP^20 + g KEEP^2. R34 = R14 (1 - a34/2), Rt = L (no timer
 *   stage since the first cut).
 *   alpha at 42 us: ticks 35..38 quiet: a34 KEEP^4; tick 39 with the CNP
 *   at 38: a34 KEEP^5 + g; ticks 40..42 quiet: a42 = a34 KEEP^8 + g KEEP^3.
 *   R42 = R34 (1 - a42/2). */
START_TEST(monitor_periods_lie_on_a_grid_from_the_first_cnp)
{
    test_host h;
    libcc_rp *rp = dq_rp(NULL, &h);
    libcc_rp_on_cnp(rp, 10 * US);
    dq_run_until(rp, 31 * US);
    double a14 = pow(KEEP, 4);
    double r14 = 1e11 * (1 - a14 / 2);
    ck_assert_double_eq_tol((double)libcc_rp_rate_bps(rp), r14, 1.0);
    libcc_rp_on_cnp(rp, 31 * US);
    dq_run_until(rp, 34 * US - 1);
    ck_assert_double_eq(dq_var(rp, "decreases"), 1);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 34 * US);
    dq_run_until(rp, 34 * US);
    double a34 = a14 * pow(KEEP, 20) + G_FW * KEEP * KEEP;
    double r34 = r14 * (1 - a34 / 2);
    ck_assert_double_eq(dq_var(rp, "decreases"), 2);
    ck_assert_double_eq_tol(dq_var(rp, "alpha"), a34, 1e-12);
    ck_assert_double_eq_tol((double)libcc_rp_rate_bps(rp), r34, 2.0);
    ck_assert_double_eq(dq_var(rp, "target_rate"), (double)LINE);
    dq_run_until(rp, 38 * US);
    libcc_rp_on_cnp(rp, 38 * US);
    dq_run_until(rp, 42 * US - 1);
    ck_assert_double_eq(dq_var(rp, "decreases"), 2);
    dq_run_until(rp, 42 * US);
    double a42 = a34 * pow(KEEP, 8) + G_FW * pow(KEEP, 3);
    ck_assert_double_eq(dq_var(rp, "decreases"), 3);
    ck_assert_double_eq_tol((double)libcc_rp_rate_bps(rp), r34 * (1 - a42 / 2), 3.0);
    libcc_rp_del(rp);
}
END_TEST

/* Between a CNP and its cut the flow keeps recovering: the increase timer
 * and the byte counter run until the cut resets them (the NVIDIA notes
 * reset them "after a rate decrease"; the HPCC simulator's timer runs on).
 * rpg_time_reset = 10 us, byte counter 1000 B:
 *   CNP at 0: cut at 4 us with alpha KEEP^4: R4 = L (1 - KEEP^4 / 2),
 *     Rt = L; stage timer 14 us.
 *   CNP at 12 us: cut due at 16 us ([12, 16) on the grid from 0).
 *   tx of 1000 B at 13 us: byte stage, B = 0 < F: fast recovery
 *     R13 = (L + R4)/2 (rounded up); B = 1.
 *   timer stage at 14 us: T = 0, B = 1 >= F: additive, Rt = min(L + 5M, L)
 *     = L, R14 = (L + R13)/2 (rounded up); T = 1.
 *   cut at 16 us: a timer stage happened since the last cut, so
 *     (clamp_tgt_rate_after_time_inc) Rt = R14; alpha: ticks 1..12 quiet,
 *     tick 13 closes [12, 13) with the CNP: KEEP^13 + g; ticks 14..16
 *     quiet: a16 = KEEP^16 + g KEEP^3; Rc = R14 (1 - a16/2); T = B = 0,
 *     byte counter 0, next stage at 26 us. */
START_TEST(recovery_runs_on_until_the_cut_resets_it)
{
    test_host h;
    libcc_rp *rp = dq_rp("rpg_time_reset=10us, rpg_byte_reset=1000B", &h);
    libcc_rp_on_cnp(rp, 0);
    dq_run_until(rp, 12 * US);
    uint64_t r4 = libcc_rp_rate_bps(rp);
    ck_assert_double_eq_tol((double)r4, 1e11 * (1 - pow(KEEP, 4) / 2), 1.0);
    libcc_rp_on_cnp(rp, 12 * US);
    ck_assert_double_eq(dq_var(rp, "cnp_pending"), 1);
    dq_run_until(rp, 13 * US);
    libcc_rp_on_tx(rp, 13 * US, 0, 1000, NULL);
    uint64_t r13 = LINE / 2 + r4 / 2 + (r4 % 2 + 1) / 2;
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), r13);
    ck_assert_double_eq(dq_var(rp, "byte_stage"), 1);
    dq_run_until(rp, 14 * US);
    uint64_t r14 = LINE / 2 + r13 / 2 + (r13 % 2 + 1) / 2;
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), r14);
    ck_assert_double_eq(dq_var(rp, "timer_stage"), 1);
    libcc_rp_on_tx(rp, 15 * US, 1000, 999, NULL);
    ck_assert_double_eq(dq_var(rp, "byte_counter"), 999);
    dq_run_until(rp, 16 * US);
    double a16 = pow(KEEP, 16) + G_FW * pow(KEEP, 3);
    ck_assert_double_eq(dq_var(rp, "decreases"), 2);
    ck_assert_double_eq(dq_var(rp, "target_rate"), (double)r14);
    ck_assert_double_eq_tol((double)libcc_rp_rate_bps(rp), r14 * (1 - a16 / 2), 1.0);
    ck_assert_double_eq(dq_var(rp, "timer_stage"), 0);
    ck_assert_double_eq(dq_var(rp, "byte_stage"), 0);
    ck_assert_double_eq(dq_var(rp, "byte_counter"), 0);
    dq_run_until(rp, 26 * US - 1);
    ck_assert_double_eq(dq_var(rp, "timer_stage"), 0);
    dq_run_until(rp, 26 * US);
    ck_assert_double_eq(dq_var(rp, "timer_stage"), 1);
    libcc_rp_del(rp);
}
END_TEST

/* A cut at a period end cancels a timer stage due at the same instant,
 * as a cut on a CNP does: rpg_time_reset = 4 us. CNP at 0: cut at 4 us
 * (alpha KEEP^4, R4 = L (1 - KEEP^4/2)), stage timer 8 us. CNP at 5 us:
 * period [4, 8), cut at 8 us, the stage's instant. Alpha: ticks 5 quiet,
 * 6 closes [5, 6) with the CNP: KEEP^6 + g; 7, 8 quiet:
 * a8 = KEEP^8 + g KEEP^2. R8 = R4 (1 - a8/2), Rt = L, no stage. */
START_TEST(period_end_cut_cancels_a_stage_at_the_same_instant)
{
    test_host h;
    libcc_rp *rp = dq_rp("rpg_time_reset=4us", &h);
    libcc_rp_on_cnp(rp, 0);
    dq_run_until(rp, 5 * US);
    double r4 = 1e11 * (1 - pow(KEEP, 4) / 2);
    ck_assert_double_eq_tol((double)libcc_rp_rate_bps(rp), r4, 1.0);
    libcc_rp_on_cnp(rp, 5 * US);
    ck_assert_int_eq(libcc_rp_on_timer(rp, 8 * US), LIBCC_OK); /* one late call */
    double a8 = pow(KEEP, 8) + G_FW * KEEP * KEEP;
    ck_assert_double_eq(dq_var(rp, "decreases"), 2);
    ck_assert_double_eq(dq_var(rp, "timer_stage"), 0);
    ck_assert_double_eq_tol((double)libcc_rp_rate_bps(rp), r4 * (1 - a8 / 2), 1.0);
    ck_assert_double_eq(dq_var(rp, "target_rate"), (double)LINE);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 9 * US); /* alpha tick */
    libcc_rp_del(rp);
}
END_TEST

/* rate_to_set_on_first_cnp acts at the first CNP itself (mlx5: the rate
 * "set ... when the first CNP arrives"; the HPCC simulator sets Rt = Rc =
 * that rate there); the cut still waits for the period end. 10 Gbit/s:
 * at 0, Rc = Rt = 10G; at 4 us the first decrease with alpha KEEP^4:
 * Rt = 10G, Rc = 10G (1 - KEEP^4/2). */
START_TEST(rate_to_set_on_first_cnp_acts_at_the_cnp_the_cut_at_period_end)
{
    test_host h;
    libcc_rp *rp = dq_rp("rate_to_set_on_first_cnp=10Gbps", &h);
    libcc_rp_on_cnp(rp, 0);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 10 * GBPS);
    ck_assert_double_eq(dq_var(rp, "target_rate"), 10e9);
    ck_assert_double_eq(dq_var(rp, "decreases"), 0);
    ck_assert_int_eq(h.rate_calls, 1);
    dq_run_until(rp, 4 * US);
    ck_assert_double_eq(dq_var(rp, "decreases"), 1);
    ck_assert_double_eq(dq_var(rp, "target_rate"), 10e9);
    ck_assert_double_eq_tol((double)libcc_rp_rate_bps(rp), 1e10 * (1 - pow(KEEP, 4) / 2), 1.0);
    ck_assert_int_eq(h.rate_calls, 2);
    libcc_rp_del(rp);
}
END_TEST

/* rate_reduce_monitor_period = 0 (the DCQCN paper): every CNP cuts at
 * once, whatever cut_on_cnp says. CNPs at 10 and 12 us: the first sets
 * alpha = 1 and cuts: Rt = L, Rc = 50G. The alpha ticks at 11 and 12 us
 * are quiet (the first CNP counts for nothing else), so the 12 us CNP cuts
 * with alpha KEEP^2: Rc = 50G (1 - KEEP^2/2), Rt kept (no timer stage). */
START_TEST(period_zero_cuts_at_every_cnp_in_both_modes)
{
    const char *modes[2] = {"rate_reduce_monitor_period=0",
                              "rate_reduce_monitor_period=0, cut_on_cnp=1"};
    for (int m = 0; m < 2; m++) {
        test_host h;
        libcc_rp *rp = dq_rp(modes[m], &h);
        libcc_rp_on_cnp(rp, 10 * US);
        ck_assert_uint_eq(libcc_rp_rate_bps(rp), 50 * GBPS);
        dq_run_until(rp, 12 * US);
        libcc_rp_on_cnp(rp, 12 * US);
        ck_assert_double_eq(dq_var(rp, "decreases"), 2);
        ck_assert_double_eq_tol((double)libcc_rp_rate_bps(rp), 50e9 * (1 - KEEP * KEEP / 2), 1.0);
        ck_assert_double_eq(dq_var(rp, "target_rate"), (double)LINE);
        libcc_rp_del(rp);
    }
}
END_TEST

/* ---- decrease --------------------------------------------------------- */

/* 100 CNPs in the first 100 ns. Tick 1 us closes an alpha period with
 * CNPs: KEEP*1 + g = 1 exactly; ticks 2, 3, 4 us are quiet and at 4 us
 * alpha is updated before the decrease: alpha = KEEP^3 at the cut; Rt is
 * kept at L (no timer increase yet). Default: the burst gives exactly one
 * cut, at the end of [0, 4us): Rc = L (1 - KEEP^3/2). cut_on_cnp = 1: the
 * first CNP cuts at once (50G) and the rest give one more cut at the end
 * of the hold-off: Rc = 50G (1 - KEEP^3/2). */
START_TEST(cnp_burst_in_one_period_gives_one_cut_at_its_end)
{
    const char *modes[2] = {NULL, "cut_on_cnp=1"};
    const uint64_t before[2] = {LINE, 50 * GBPS};
    for (int m = 0; m < 2; m++) {
        test_host h;
        libcc_rp *rp = dq_rp(modes[m], &h);
        for (uint64_t i = 0; i <= 99; i++)
            ck_assert_int_eq(libcc_rp_on_cnp(rp, i), LIBCC_OK);
        ck_assert_uint_eq(libcc_rp_rate_bps(rp), before[m]);
        ck_assert_double_eq(dq_var(rp, "cnp_pending"), 1);
        ck_assert_double_eq(dq_var(rp, "decreases"), m);
        ck_assert_int_eq(libcc_rp_on_timer(rp, 1 * US), LIBCC_OK);
        ck_assert_double_eq_tol(dq_var(rp, "alpha"), 1.0, 1e-15);
        dq_run_until(rp, 4 * US);
        ck_assert_double_eq(dq_var(rp, "decreases"), m + 1);
        ck_assert_double_eq_tol((double)libcc_rp_rate_bps(rp),
                                (double)before[m] * (1 - pow(KEEP, 3) / 2), 1.0);
        ck_assert_double_eq(dq_var(rp, "target_rate"), (double)LINE);
        ck_assert_double_eq(dq_var(rp, "cnp_pending"), 0);
        libcc_rp_del(rp);
    }
}
END_TEST

START_TEST(many_cnps_never_take_the_rate_below_min_rate)
{
    test_host h;
    /* Monitor period 0: every CNP cuts. All CNPs fall in the first alpha
     * period, so alpha stays 1 and every cut halves: L / 2^n. 1e11 / 2^16
     * = 1.53e6 > 1e6 > 1e11 / 2^17 = 7.6e5, so the 17th CNP hits the
     * rpg_min_rate floor of 1 Mbit/s and the rate stays there. */
    libcc_rp *rp = dq_rp("rate_reduce_monitor_period=0", &h);
    uint64_t prev = LINE;
    for (uint64_t i = 1; i <= 40; i++) {
        ck_assert_int_eq(libcc_rp_on_cnp(rp, i * 10), LIBCC_OK);
        uint64_t r = libcc_rp_rate_bps(rp);
        ck_assert_uint_ge(r, 1 * MBPS);
        ck_assert_uint_le(r, prev);
        if (i < 17)
            ck_assert_uint_gt(r, 1 * MBPS);
        else
            ck_assert_uint_eq(r, 1 * MBPS);
        prev = r;
    }
    ck_assert_double_eq(dq_var(rp, "decreases"), 40);
    libcc_rp_del(rp);
}
END_TEST

START_TEST(rpg_gd_and_min_dec_fac_shape_the_cut)
{
    test_host h;
    /* rpg_gd = 12: cut alpha/2^(12-10) = 1/4 at alpha = 1 -> 75G. */
    libcc_rp *rp = dq_rp("cut_on_cnp=1, rpg_gd=12", &h);
    libcc_rp_on_cnp(rp, 0);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 75 * GBPS);
    libcc_rp_del(rp);
    /* rpg_gd = 10: cut alpha/1 = everything; the default floor
     * rpg_min_dec_fac = 50 % keeps half -> 50G. */
    rp = dq_rp("cut_on_cnp=1, rpg_gd=10", &h);
    libcc_rp_on_cnp(rp, 0);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 50 * GBPS);
    libcc_rp_del(rp);
    /* Same with a 20 % floor -> 20G. */
    rp = dq_rp("cut_on_cnp=1, rpg_gd=10, rpg_min_dec_fac=20", &h);
    libcc_rp_on_cnp(rp, 0);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 20 * GBPS);
    libcc_rp_del(rp);
    /* Floor 0 and a full cut: only rpg_min_rate (here 2 Mbit/s) is left. */
    rp = dq_rp("cut_on_cnp=1, rpg_gd=10, rpg_min_dec_fac=0, rpg_min_rate=2Mbps", &h);
    libcc_rp_on_cnp(rp, 0);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 2 * MBPS);
    libcc_rp_del(rp);
}
END_TEST

START_TEST(rate_to_set_on_first_cnp_applies_once_before_the_cut)
{
    test_host h;
    libcc_rp *rp = dq_rp("cut_on_cnp=1, rate_to_set_on_first_cnp=10Gbps", &h);
    /* First CNP: Rc = 10G, then the first decrease: Rt = 10G, Rc = 5G. */
    libcc_rp_on_cnp(rp, 0);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 5 * GBPS);
    ck_assert_double_eq(dq_var(rp, "target_rate"), 10e9);
    /* A later CNP is an ordinary decrease from 5G with alpha = KEEP^10. */
    dq_run_until(rp, 10 * US);
    libcc_rp_on_cnp(rp, 10 * US + 500);
    ck_assert_double_eq_tol((double)libcc_rp_rate_bps(rp), 5e9 * (1 - pow(KEEP, 10) / 2), 1.0);
    ck_assert_double_eq(dq_var(rp, "target_rate"), 10e9);
    libcc_rp_del(rp);

    /* Above the line rate it is capped: Rc = L, Rt = L, then Rc = L/2. */
    rp = dq_rp("cut_on_cnp=1, rate_to_set_on_first_cnp=400Gbps", &h);
    libcc_rp_on_cnp(rp, 0);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 50 * GBPS);
    ck_assert_double_eq(dq_var(rp, "target_rate"), (double)LINE);
    libcc_rp_del(rp);
}
END_TEST

/* ---- remembering the target rate -------------------------------------- */

/* First CNP at 0 with rate_to_set_on_first_cnp = 40G: Rt = 40G, Rc = 20G.
 * Then one fast-recovery stage, by the timer (at 300 us) or by the byte
 * counter (32767 B at 1 ns): Rc = (40 + 20)/2 = 30G. Then a CNP at `t2`
 * (the monitor period is closed by then) cuts at once. */
static libcc_rp *clamp_scenario(const char *extra, int by_timer, uint64_t *t2, test_host *h)
{
    char assign[200];
    snprintf(assign, sizeof assign, "cut_on_cnp=1, rate_to_set_on_first_cnp=40Gbps, %s", extra);
    libcc_rp *rp = dq_rp(assign, h);
    libcc_rp_on_cnp(rp, 0);
    ck_assert_double_eq(dq_var(rp, "target_rate"), 40e9);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 20 * GBPS);
    if (by_timer) {
        dq_run_until(rp, 300 * US);
        ck_assert_double_eq(dq_var(rp, "timer_stage"), 1);
        *t2 = 300 * US + 500;
    } else {
        libcc_rp_on_tx(rp, 1, 0, 32767, NULL);
        ck_assert_double_eq(dq_var(rp, "byte_stage"), 1);
        dq_run_until(rp, 5 * US);
        *t2 = 5 * US + 500;
    }
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 30 * GBPS);
    libcc_rp_on_cnp(rp, *t2);
    return rp;
}

START_TEST(timer_increase_then_cnp_remembers_rate_by_default)
{
    test_host h;
    uint64_t t2;
    /* clamp_tgt_rate_after_time_inc = 1 (default) and a timer stage
     * happened: Rt = Rc = 30G; alpha = KEEP^300 (300 quiet ticks). */
    libcc_rp *rp = clamp_scenario("", 1, &t2, &h);
    ck_assert_double_eq(dq_var(rp, "target_rate"), 30e9);
    ck_assert_double_eq_tol((double)libcc_rp_rate_bps(rp), 30e9 * (1 - pow(KEEP, 300) / 2), 1.0);
    ck_assert_double_eq(dq_var(rp, "timer_stage"), 0); /* reset by the decrease */
    libcc_rp_del(rp);
}
END_TEST

START_TEST(after_time_inc_off_keeps_target_after_timer_increase)
{
    test_host h;
    uint64_t t2;
    libcc_rp *rp = clamp_scenario("clamp_tgt_rate_after_time_inc=0", 1, &t2, &h);
    ck_assert_double_eq(dq_var(rp, "target_rate"), 40e9);
    ck_assert_double_eq_tol((double)libcc_rp_rate_bps(rp), 30e9 * (1 - pow(KEEP, 300) / 2), 1.0);
    libcc_rp_del(rp);
}
END_TEST

START_TEST(byte_only_increase_keeps_target_by_default)
{
    test_host h;
    uint64_t t2;
    /* Only the byte counter increased: after_time_inc does not apply. */
    libcc_rp *rp = clamp_scenario("", 0, &t2, &h);
    ck_assert_double_eq(dq_var(rp, "target_rate"), 40e9);
    ck_assert_double_eq_tol((double)libcc_rp_rate_bps(rp), 30e9 * (1 - pow(KEEP, 5) / 2), 1.0);
    libcc_rp_del(rp);
}
END_TEST

START_TEST(clamp_tgt_rate_remembers_on_every_decrease)
{
    test_host h;
    uint64_t t2;
    libcc_rp *rp = clamp_scenario("clamp_tgt_rate=1, clamp_tgt_rate_after_time_inc=0", 0, &t2,
                                  &h);
    ck_assert_double_eq(dq_var(rp, "target_rate"), 30e9);
    libcc_rp_del(rp);

    /* Even with no increase at all: Rt = Rc = 20G at the second cut,
     * which uses alpha = KEEP^5; the default would keep Rt = 40G. */
    rp = dq_rp("cut_on_cnp=1, rate_to_set_on_first_cnp=40Gbps, clamp_tgt_rate=1", &h);
    libcc_rp_on_cnp(rp, 0);
    dq_run_until(rp, 5 * US);
    libcc_rp_on_cnp(rp, 5 * US + 500);
    ck_assert_double_eq(dq_var(rp, "target_rate"), 20e9);
    ck_assert_double_eq_tol((double)libcc_rp_rate_bps(rp), 20e9 * (1 - pow(KEEP, 5) / 2), 1.0);
    libcc_rp_del(rp);
    rp = dq_rp("cut_on_cnp=1, rate_to_set_on_first_cnp=40Gbps", &h);
    libcc_rp_on_cnp(rp, 0);
    dq_run_until(rp, 5 * US);
    libcc_rp_on_cnp(rp, 5 * US + 500);
    ck_assert_double_eq(dq_var(rp, "target_rate"), 40e9);
    libcc_rp_del(rp);
}
END_TEST

/* ---- increase --------------------------------------------------------- */

START_TEST(f_timer_stages_of_fast_recovery_then_additive_increase)
{
    test_host h;
    /* F = 3, byte counter off; start from Rt = 40G, Rc = 20G (see the
     * clamp scenario) so Rt has room below L to grow. */
    libcc_rp *rp =
        dq_rp("cut_on_cnp=1, rpg_threshold=3, rpg_byte_reset=0, rate_to_set_on_first_cnp=40Gbps", &h);
    libcc_rp_on_cnp(rp, 0);
    /* Stages at 300, 600, 900 us are fast recovery (T = 0, 1, 2 < F):
     * Rc = (40 + Rc)/2: 30G, 35G, 37.5G; Rt stays 40G. */
    const uint64_t fr[3] = {30000000000ull, 35000000000ull, 37500000000ull};
    for (unsigned s = 0; s < 3; s++) {
        dq_run_until(rp, (s + 1) * 300 * US - 1);
        ck_assert_double_eq(dq_var(rp, "timer_stage"), s);
        dq_run_until(rp, (s + 1) * 300 * US);
        ck_assert_uint_eq(libcc_rp_rate_bps(rp), fr[s]);
        ck_assert_double_eq(dq_var(rp, "target_rate"), 40e9);
    }
    /* 4th stage: T = 3 >= F, B = 0 < F: additive. Rt = 40G + 5M,
     * Rc = (40.005G + 37.5G)/2 = 38.7525G. */
    dq_run_until(rp, 1200 * US);
    ck_assert_double_eq(dq_var(rp, "target_rate"), 40005e6);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 38752500000ull);
    /* 5th: still additive, never hyper while B = 0: Rt = 40.010G,
     * Rc = (40.010G + 38.7525G)/2 = 39.38125G. */
    dq_run_until(rp, 1500 * US);
    ck_assert_double_eq(dq_var(rp, "target_rate"), 40010e6);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 39381250000ull);
    ck_assert_double_eq(dq_var(rp, "timer_stage"), 5);
    libcc_rp_del(rp);
}
END_TEST

START_TEST(hyper_increase_needs_both_counters_at_f)
{
    test_host h;
    /* F = 1, a byte stage every 1000 B; start Rt = 40G, Rc = 20G. */
    libcc_rp *rp = dq_rp("cut_on_cnp=1, rpg_byte_reset=1000B, rate_to_set_on_first_cnp=40Gbps", &h);
    libcc_rp_on_cnp(rp, 0);
    /* B = 0: fast recovery, Rc = 30G. */
    libcc_rp_on_tx(rp, 1, 0, 1000, NULL);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 30 * GBPS);
    /* B = 1, 2 >= F but T = 0: additive twice.
     * Rt 40.005G, Rc (40.005 + 30)/2 = 35.0025G;
     * Rt 40.010G, Rc (40.010 + 35.0025)/2 = 37.50625G. */
    libcc_rp_on_tx(rp, 2, 1000, 1000, NULL);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 35002500000ull);
    libcc_rp_on_tx(rp, 3, 2000, 1000, NULL);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 37506250000ull);
    ck_assert_double_eq(dq_var(rp, "target_rate"), 40010e6);
    /* Timer stage at 300 us with T = 0 < F: additive again.
     * Rt 40.015G, Rc (40.015 + 37.50625)/2 = 38.760625G; T = 1. */
    dq_run_until(rp, 300 * US);
    ck_assert_double_eq(dq_var(rp, "target_rate"), 40015e6);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 38760625000ull);
    /* Now T = 1 and B = 3, both >= F: hyper. Rt += 50M = 40.065G,
     * Rc = (40.065 + 38.760625)/2 = 39.4128125G. */
    libcc_rp_on_tx(rp, 300 * US + 1, 3000, 1000, NULL);
    ck_assert_double_eq(dq_var(rp, "target_rate"), 40065e6);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 39412812500ull);
    libcc_rp_del(rp);
}
END_TEST

START_TEST(hyper_increase_scaled_by_stage_as_in_the_paper)
{
    /* As above up to three byte stages (Rt 40.010G, Rc 37.50625G, B = 3),
     * then timer stages at 300, 600, 900 us:
     *   300: T=0 -> additive: Rt 40.015G, Rc 38.760625G
     *   600: T=1, B=3: hyper, i = min(1,3) - 1 + 1 = 1: Rt 40.065G,
     *        Rc 39.4128125G
     *   900: T=2, B=3: hyper, i = 2 with scaling: Rt 40.165G,
     *        Rc (40.165 + 39.4128125)/2 = 39.78890625G;
     *        without scaling (firmware) Rt 40.115G,
     *        Rc (40.115 + 39.4128125)/2 = 39.76390625G. */
    const char *modes[2] = {"rpg_hai_scale_by_stage=1", "rpg_hai_scale_by_stage=0"};
    const double rt[2] = {40165e6, 40115e6};
    const uint64_t rc[2] = {39788906250ull, 39763906250ull};
    for (int m = 0; m < 2; m++) {
        test_host h;
        char assign[160];
        snprintf(assign, sizeof assign, "cut_on_cnp=1, rpg_byte_reset=1000B, rate_to_set_on_first_cnp=40Gbps, %s",
                 modes[m]);
        libcc_rp *rp = dq_rp(assign, &h);
        libcc_rp_on_cnp(rp, 0);
        libcc_rp_on_tx(rp, 1, 0, 3000, NULL);
        ck_assert_double_eq(dq_var(rp, "byte_stage"), 3);
        ck_assert_uint_eq(libcc_rp_rate_bps(rp), 37506250000ull);
        dq_run_until(rp, 600 * US);
        ck_assert_double_eq(dq_var(rp, "target_rate"), 40065e6);
        dq_run_until(rp, 900 * US);
        ck_assert_double_eq(dq_var(rp, "target_rate"), rt[m]);
        ck_assert_uint_eq(libcc_rp_rate_bps(rp), rc[m]);
        libcc_rp_del(rp);
    }
}
END_TEST

/* increase_kind_by_timer = 1: the HPCC simulator's schedule, where timer
 * stages alone lead to hyper increase (its RateIncEventMlx: T < F fast
 * recovery, T == F additive, T > F hyper, T counted before the stage).
 * F = 1, byte counter off, start Rt = 40G, Rc = 20G (cut at 0):
 *   300 us  T = 0 < F: fast recovery, Rc = (40 + 20)/2 = 30G
 *   600 us  T = 1 = F: additive, Rt = 40.005G, Rc = (40.005 + 30)/2
 *           = 35.0025G
 *   900 us  T = 2 > F: hyper, Rt = 40.055G, Rc = (40.055 + 35.0025)/2
 *           = 37.52875G
 *   1200 us T = 3 > F: hyper, Rt = 40.105G, Rc = (40.105 + 37.52875)/2
 *           = 38.816875G
 * With rpg_hai_scale_by_stage the hyper step is i R_HAI, i = T - F:
 * 900 us as above (i = 1), 1200 us i = 2: Rt = 40.155G,
 * Rc = (40.155 + 37.52875)/2 = 38.841875G.
 * Without the flag (firmware) B = 0 never reaches F, so 900 us is
 * additive: Rt = 40.010G, Rc = (40.010 + 35.0025)/2 = 37.50625G. */
START_TEST(increase_kind_by_timer_reaches_hyper_without_byte_stages)
{
    const char *base = "cut_on_cnp=1, rpg_byte_reset=0, rate_to_set_on_first_cnp=40Gbps";
    const char *extra[3] = {"increase_kind_by_timer=1",
                            "increase_kind_by_timer=1, rpg_hai_scale_by_stage=1",
                            "increase_kind_by_timer=0"};
    const double rt900[3] = {40055e6, 40055e6, 40010e6};
    const uint64_t rc900[3] = {37528750000ull, 37528750000ull, 37506250000ull};
    for (int m = 0; m < 3; m++) {
        test_host h;
        char assign[200];
        snprintf(assign, sizeof assign, "%s, %s", base, extra[m]);
        libcc_rp *rp = dq_rp(assign, &h);
        libcc_rp_on_cnp(rp, 0);
        dq_run_until(rp, 300 * US);
        ck_assert_uint_eq(libcc_rp_rate_bps(rp), 30 * GBPS);
        ck_assert_double_eq(dq_var(rp, "target_rate"), 40e9);
        dq_run_until(rp, 600 * US);
        ck_assert_double_eq(dq_var(rp, "target_rate"), 40005e6);
        ck_assert_uint_eq(libcc_rp_rate_bps(rp), 35002500000ull);
        dq_run_until(rp, 900 * US);
        ck_assert_double_eq(dq_var(rp, "target_rate"), rt900[m]);
        ck_assert_uint_eq(libcc_rp_rate_bps(rp), rc900[m]);
        if (m < 2) {
            dq_run_until(rp, 1200 * US);
            ck_assert_double_eq(dq_var(rp, "target_rate"), m == 0 ? 40105e6 : 40155e6);
            ck_assert_uint_eq(libcc_rp_rate_bps(rp), m == 0 ? 38816875000ull : 38841875000ull);
        }
        libcc_rp_del(rp);
    }
}
END_TEST

START_TEST(byte_counter_advances_stages_with_no_time_passing)
{
    test_host h;
    libcc_rp *rp = dq_rp("cut_on_cnp=1", &h);
    libcc_rp_on_cnp(rp, 0); /* Rc 50G, Rt L */
    uint64_t deadline = libcc_rp_deadline_ns(rp);
    /* Exactly rpg_byte_reset = 32767 B: one stage, fast recovery (B = 0):
     * Rc = (100 + 50)/2 = 75G. */
    libcc_rp_on_tx(rp, 0, 0, 32767, NULL);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 75 * GBPS);
    ck_assert_double_eq(dq_var(rp, "byte_stage"), 1);
    /* One byte short of the next stage: nothing. */
    libcc_rp_on_tx(rp, 0, 32767, 32766, NULL);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 75 * GBPS);
    ck_assert_double_eq(dq_var(rp, "byte_counter"), 32766);
    /* The last byte: additive (B = 1 >= F), Rt = min(L + 5M, L) = L,
     * Rc = (100 + 75)/2 = 87.5G. */
    libcc_rp_on_tx(rp, 0, 65533, 1, NULL);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 87500000000ull);
    ck_assert_double_eq(dq_var(rp, "target_rate"), (double)LINE);
    /* One big send of 3 stages + 5 B: 93.75G, 96.875G, 98.4375G, and the
     * 5 B remainder carries over. */
    libcc_rp_on_tx(rp, 0, 65534, 3 * 32767 + 5, NULL);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 98437500000ull);
    ck_assert_double_eq(dq_var(rp, "byte_stage"), 5);
    ck_assert_double_eq(dq_var(rp, "byte_counter"), 5);
    ck_assert_double_eq(dq_var(rp, "timer_stage"), 0);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), deadline);
    libcc_rp_del(rp);
}
END_TEST

START_TEST(recovery_reaches_line_rate_exactly_then_goes_quiet)
{
    test_host h;
    libcc_rp *rp = dq_rp("cut_on_cnp=1", &h);
    libcc_rp_on_cnp(rp, 0);
    /* Each stage halves the gap to Rt = L, rounding up: from 50G the gap
     * is below 1 bit/s after 36 stages; 100 stages reach L exactly and
     * never pass it. */
    for (int i = 0; i < 100; i++) {
        libcc_rp_on_tx(rp, 0, (uint64_t)i * 32767, 32767, NULL);
        ck_assert_uint_le(libcc_rp_rate_bps(rp), LINE);
    }
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), LINE);
    ck_assert_double_eq(dq_var(rp, "target_rate"), (double)LINE);
    /* When the monitor period [0, 4us) closes empty, nothing is left to do:
     * no timer at all. */
    dq_run_until(rp, 4 * US);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), LIBCC_NO_DEADLINE);
    ck_assert_uint_eq(h.last_deadline, LIBCC_NO_DEADLINE);
    ck_assert_double_eq(dq_var(rp, "recovering"), 0);
    /* Alpha still decays on paper: ticks at 1..1004 us, all quiet. */
    libcc_rp_on_tx(rp, 1004 * US + 500, 0, 1000, NULL);
    ck_assert_double_eq_tol(dq_var(rp, "alpha"), pow(KEEP, 1004), 1e-12);
    /* and the next CNP cuts with that alpha, on the same 1 us grid. */
    libcc_rp_on_cnp(rp, 1004 * US + 500);
    ck_assert_double_eq_tol((double)libcc_rp_rate_bps(rp), 1e11 * (1 - pow(KEEP, 1004) / 2), 1.0);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 1005 * US);
    libcc_rp_del(rp);
}
END_TEST

START_TEST(increases_never_exceed_line_rate)
{
    test_host h;
    libcc_rp *rp =
        dq_rp("cut_on_cnp=1, rpg_byte_reset=1000B, rpg_ai_rate=1Tbps, rpg_hai_rate=5Tbps", &h);
    libcc_rp_on_cnp(rp, 0); /* 50G */
    /* FR 75G; then additive: Rt = min(L + 1T, L) = L, Rc = 87.5G; then
     * hyper after a timer stage: still Rt = L. */
    libcc_rp_on_tx(rp, 1, 0, 1000, NULL);
    libcc_rp_on_tx(rp, 2, 1000, 1000, NULL);
    ck_assert_double_eq(dq_var(rp, "target_rate"), (double)LINE);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 87500000000ull);
    dq_run_until(rp, 300 * US);
    libcc_rp_on_tx(rp, 300 * US + 1, 2000, 1000, NULL);
    ck_assert_double_eq(dq_var(rp, "target_rate"), (double)LINE);
    ck_assert_uint_le(libcc_rp_rate_bps(rp), LINE);
    libcc_rp_del(rp);
}
END_TEST

/* ---- timers ----------------------------------------------------------- */

START_TEST(timer_stages_restart_at_each_decrease)
{
    test_host h;
    libcc_rp *rp = dq_rp("cut_on_cnp=1", &h);
    libcc_rp_on_cnp(rp, 0);
    dq_run_until(rp, 100 * US);
    libcc_rp_on_cnp(rp, 100 * US); /* period closed: decreases now */
    ck_assert_double_eq(dq_var(rp, "decreases"), 2);
    /* No stage at 300 us (that period saw a decrease); the next is at
     * 100 + 300 = 400 us. */
    dq_run_until(rp, 400 * US - 1);
    ck_assert_double_eq(dq_var(rp, "timer_stage"), 0);
    dq_run_until(rp, 400 * US);
    ck_assert_double_eq(dq_var(rp, "timer_stage"), 1);
    libcc_rp_del(rp);
}
END_TEST

START_TEST(decrease_cancels_a_timer_stage_due_at_the_same_instant)
{
    test_host h;
    /* rpg_time_reset = monitor period = 4 us: both fall due at 4 us. */
    libcc_rp *rp = dq_rp("cut_on_cnp=1, rpg_time_reset=4us", &h);
    libcc_rp_on_cnp(rp, 0);
    libcc_rp_on_cnp(rp, 1500); /* pending, in alpha period [1us, 2us) */
    /* One late call handles alpha 1, 2, 3, 4 us, the monitor end and the
     * stage: alpha KEEP, KEEP^2 + g, KEEP^3 + KEEP g, KEEP^4 + KEEP^2 g;
     * the cut uses the last (alpha first at a tie) and restarts the stage
     * timer, so no stage happens. */
    ck_assert_int_eq(libcc_rp_on_timer(rp, 4 * US), LIBCC_OK);
    double a4 = pow(KEEP, 4) + KEEP * KEEP * G_FW;
    ck_assert_double_eq_tol(dq_var(rp, "alpha"), a4, 1e-12);
    ck_assert_double_eq(dq_var(rp, "decreases"), 2);
    ck_assert_double_eq(dq_var(rp, "timer_stage"), 0);
    ck_assert_double_eq_tol((double)libcc_rp_rate_bps(rp), 50e9 * (1 - a4 / 2), 1.0);
    libcc_rp_del(rp);

    /* Without the pending CNP the period closes and the stage happens:
     * fast recovery to (100 + 50)/2 = 75G. */
    rp = dq_rp("cut_on_cnp=1, rpg_time_reset=4us", &h);
    libcc_rp_on_cnp(rp, 0);
    ck_assert_int_eq(libcc_rp_on_timer(rp, 4 * US), LIBCC_OK);
    ck_assert_double_eq(dq_var(rp, "timer_stage"), 1);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 75 * GBPS);
    libcc_rp_del(rp);
}
END_TEST

START_TEST(late_host_gets_the_same_result_as_a_punctual_one)
{
    /* CNPs at 0 and 2.5 us; one host fires every deadline, the other calls
     * on_timer once at 1000 us. Hand: ticks 1, 2 quiet, 3 with the CNP,
     * 4 quiet: alpha at 4 us is a4 = KEEP^4 + KEEP g.
     * Default: one cut at 4 us (both CNPs in [0, 4us)): R4 = L (1 - a4/2).
     * cut_on_cnp = 1: a cut at 0 (50G), one at 4 us: R4 = 50G (1 - a4/2).
     * Either way Rt = L is kept and the stages at 304, 604, 904 us each
     * halve the gap to L (rounding up): Rc = L - (L - R4)/8 within 2 bit/s.
     * Then 996 quiet ticks after 4 us: alpha = a4 KEEP^996. */
    const char *modes[2] = {NULL, "cut_on_cnp=1"};
    double a4 = pow(KEEP, 4) + KEEP * G_FW;
    const double r4[2] = {1e11 * (1 - a4 / 2), 50e9 * (1 - a4 / 2)};
    for (int m = 0; m < 2; m++) {
        test_host h1, h2;
        libcc_rp *a = dq_rp(modes[m], &h1);
        libcc_rp *b = dq_rp(modes[m], &h2);
        libcc_rp_on_cnp(a, 0);
        libcc_rp_on_cnp(b, 0);
        libcc_rp_on_cnp(a, 2500);
        libcc_rp_on_cnp(b, 2500);
        dq_run_until(a, 1000 * US);
        ck_assert_int_eq(libcc_rp_on_timer(b, 1000 * US), LIBCC_OK);
        double expect = 1e11 - (1e11 - r4[m]) / 8;
        ck_assert_double_eq_tol((double)libcc_rp_rate_bps(b), expect, 2.0);
        ck_assert_uint_eq(libcc_rp_rate_bps(a), libcc_rp_rate_bps(b));
        ck_assert_double_eq(dq_var(a, "target_rate"), dq_var(b, "target_rate"));
        ck_assert_double_eq(dq_var(b, "timer_stage"), 3);
        ck_assert_double_eq(dq_var(a, "timer_stage"), 3);
        ck_assert_double_eq_tol(dq_var(b, "alpha"), a4 * pow(KEEP, 996), 1e-12);
        ck_assert_double_eq_tol(dq_var(a, "alpha"), dq_var(b, "alpha"), 1e-12);
        libcc_rp_del(a);
        libcc_rp_del(b);
    }
}
END_TEST

START_TEST(deadline_is_the_earliest_pending_timer)
{
    test_host h;
    /* alpha every 10 us: the monitor end (4 us) comes first. */
    libcc_rp *rp = dq_rp("dce_tcp_rtt=10us", &h);
    libcc_rp_on_cnp(rp, 0);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 4 * US);
    ck_assert_uint_eq(h.last_deadline, 4 * US);
    /* The cut at 4 us leaves no period pending: next is alpha at 10 us
     * (stage at 304 us). */
    libcc_rp_on_timer(rp, 4 * US);
    ck_assert_double_eq(dq_var(rp, "decreases"), 1);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 10 * US);
    ck_assert_uint_eq(h.last_deadline, 10 * US);
    libcc_rp_del(rp);
    /* Same deadlines with cut_on_cnp = 1: the hold-off [0, 4us) ends
     * empty at 4 us, then alpha at 10 us. */
    rp = dq_rp("dce_tcp_rtt=10us, cut_on_cnp=1", &h);
    libcc_rp_on_cnp(rp, 0);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 4 * US);
    libcc_rp_on_timer(rp, 4 * US);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 10 * US);
    libcc_rp_del(rp);
    /* No monitor period, slow alpha: the stage timer (300 us) is first. */
    rp = dq_rp("rate_reduce_monitor_period=0, dce_tcp_rtt=1ms", &h);
    libcc_rp_on_cnp(rp, 0);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 300 * US);
    libcc_rp_del(rp);
}
END_TEST

START_TEST(early_timer_call_changes_nothing)
{
    test_host h;
    libcc_rp *rp = dq_rp(NULL, &h);
    libcc_rp_on_cnp(rp, 0);
    /* Nothing is due before the alpha tick at 1 us (the cut waits for 4 us). */
    ck_assert_int_eq(libcc_rp_on_timer(rp, 500), LIBCC_OK);
    ck_assert_double_eq(dq_var(rp, "alpha"), 1.0);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), LINE);
    ck_assert_double_eq(dq_var(rp, "cnp_pending"), 1);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 1 * US);
    libcc_rp_del(rp);
}
END_TEST

/* ---- misuse ----------------------------------------------------------- */

START_TEST(null_and_misuse_return_errors)
{
    test_host h;
    ck_assert_int_eq(libcc_rp_on_cnp(NULL, 0), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_rp_on_timer(NULL, 0), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_rp_on_tx(NULL, 0, 0, 1000, NULL), LIBCC_ERR_INVALID_ARG);

    libcc_rp *rp = dq_rp(NULL, &h);
    libcc_rp_on_cnp(rp, 10 * US);
    uint64_t rate = libcc_rp_rate_bps(rp);
    /* Time going backwards is refused and changes nothing. */
    ck_assert_int_eq(libcc_rp_on_cnp(rp, 5 * US), LIBCC_ERR_TIME_BACKWARDS);
    ck_assert_int_eq(libcc_rp_on_timer(rp, 5 * US), LIBCC_ERR_TIME_BACKWARDS);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), rate);
    ck_assert_double_eq(dq_var(rp, "cnps"), 1);
    /* A too small variables buffer. */
    double v[2];
    ck_assert_int_eq(libcc_rp_read_vars(rp, v, 2), LIBCC_ERR_BUFFER_TOO_SMALL);
    libcc_rp_del(rp);

    /* A flow needs a line rate. */
    libcc_params *p = dq_params(NULL);
    libcc_flow_info fi = {.flow_id = 1, .line_rate_bps = 0};
    ck_assert_int_eq(libcc_rp_new(&rp, p, &fi, NULL, NULL, 0), LIBCC_ERR_INVALID_ARG);
    ck_assert_ptr_null(rp);
    /* Parameters that contradict each other cannot make an RP. */
    ck_assert_int_eq(libcc_params_parse(p, "kmax=100KB, kmin=200KB"), LIBCC_OK);
    fi.line_rate_bps = LINE;
    ck_assert_int_eq(libcc_rp_new(&rp, p, &fi, NULL, NULL, 0), LIBCC_ERR_OUT_OF_RANGE);
    libcc_params_del(p);
}
END_TEST

START_TEST(vars_name_the_dcqcn_state)
{
    test_host h;
    libcc_rp *rp = dq_rp(NULL, &h);
    const libcc_param_desc *vars;
    size_t n;
    ck_assert_int_eq(libcc_rp_vars(rp, &vars, &n), LIBCC_OK);
    const struct {
        const char *name;
        libcc_unit unit;
    } want[] = {{"alpha", LIBCC_UNIT_RATIO},     {"target_rate", LIBCC_UNIT_BPS},
                {"timer_stage", LIBCC_UNIT_COUNT}, {"byte_stage", LIBCC_UNIT_COUNT},
                {"byte_counter", LIBCC_UNIT_BYTES}};
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        size_t i = 0;
        while (i < n && strcmp(vars[i].name, want[w].name) != 0)
            i++;
        ck_assert_msg(i < n, "no variable %s", want[w].name);
        ck_assert_int_eq(vars[i].unit, want[w].unit);
    }
    libcc_rp_del(rp);
}
END_TEST

/* A flow at 2^64-1 bit/s is refused since 0.7.0 (libcc_flow_params: at
 * most 10 Tbit/s). On the fastest flow accepted, with initial_alpha=0 the
 * first CNP's cut is Rc (1 - 0/2) = Rc, so the rate stays 1e13 bit/s. */
START_TEST(test_cut_at_max_line_rate)
{
    libcc_params *p = dq_params("initial_alpha=0 rate_reduce_monitor_period=0ns");
    libcc_flow_info fi = {.flow_id = 1, .line_rate_bps = UINT64_MAX, .mtu_bytes = 1000};
    libcc_rp *rp = NULL;
    ck_assert_int_eq(libcc_rp_new(&rp, p, &fi, NULL, NULL, 0), LIBCC_ERR_OUT_OF_RANGE);
    fi.line_rate_bps = 10000000000000ull;
    ck_assert_int_eq(libcc_rp_new(&rp, p, &fi, NULL, NULL, 0), LIBCC_OK);
    libcc_params_del(p);
    ck_assert_int_eq(libcc_rp_on_cnp(rp, 10), LIBCC_OK);
    ck_assert_double_eq(dq_var(rp, "decreases"), 1);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 10000000000000ull);
    libcc_rp_del(rp);
}
END_TEST

/* CNPs 1000 ns before the clock's end: every timer they start (alpha 1 us,
 * rpg_time_reset 300 us, the 4 us monitor period) falls past 2^64-1, so
 * none can fire: no deadline, never a wrapped one in the past, and a timer
 * call at the last instant changes nothing. Both monitor modes. */
START_TEST(test_deadlines_at_clock_top)
{
    const char *modes[] = {"rate_reduce_monitor_period=0ns", "cut_on_cnp=0", "cut_on_cnp=1"};
    for (size_t m = 0; m < 3; m++) {
        test_host h;
        libcc_rp *rp = dq_rp(modes[m], &h);
        const uint64_t now = UINT64_MAX - 1000;
        ck_assert_int_eq(libcc_rp_on_cnp(rp, now), LIBCC_OK);
        ck_assert_msg(libcc_rp_deadline_ns(rp) == LIBCC_NO_DEADLINE, "%s: deadline %llu", modes[m],
                      (unsigned long long)libcc_rp_deadline_ns(rp));
        ck_assert_int_eq(libcc_rp_on_cnp(rp, now + 500), LIBCC_OK);
        ck_assert_uint_eq(libcc_rp_deadline_ns(rp), LIBCC_NO_DEADLINE);
        ck_assert_int_eq(libcc_rp_on_timer(rp, UINT64_MAX - 1), LIBCC_OK);
        ck_assert_uint_eq(libcc_rp_deadline_ns(rp), LIBCC_NO_DEADLINE);
        libcc_rp_del(rp);
    }
}
END_TEST

Suite *dcqcn_rp_suite(void)
{
    Suite *s = suite_create("dcqcn_rp");
    TCase *t = tcase_create("start_alpha_decrease");
    tcase_add_test(t, starts_at_line_rate_without_timers);
    tcase_add_test(t, first_cnp_at_alpha_one_halves_rate_and_keeps_old_rate_as_target);
    tcase_add_test(t, alpha_after_n_quiet_periods_is_keep_to_the_n);
    tcase_add_test(t, alpha_rises_by_g_after_a_period_with_a_cnp);
    tcase_add_test(t, cnp_burst_in_one_period_gives_one_cut_at_its_end);
    tcase_add_test(t, many_cnps_never_take_the_rate_below_min_rate);
    tcase_add_test(t, rpg_gd_and_min_dec_fac_shape_the_cut);
    tcase_add_test(t, rate_to_set_on_first_cnp_applies_once_before_the_cut);
    suite_add_tcase(s, t);

    t = tcase_create("cut_at_period_end");
    tcase_add_test(t, cnps_at_10_and_12us_give_one_cut_at_the_period_end);
    tcase_add_test(t, cut_on_cnp_cuts_at_the_cnp_then_holds_off);
    tcase_add_test(t, monitor_periods_lie_on_a_grid_from_the_first_cnp);
    tcase_add_test(t, recovery_runs_on_until_the_cut_resets_it);
    tcase_add_test(t, period_end_cut_cancels_a_stage_at_the_same_instant);
    tcase_add_test(t, rate_to_set_on_first_cnp_acts_at_the_cnp_the_cut_at_period_end);
    tcase_add_test(t, period_zero_cuts_at_every_cnp_in_both_modes);
    suite_add_tcase(s, t);

    t = tcase_create("target_rate");
    tcase_add_test(t, timer_increase_then_cnp_remembers_rate_by_default);
    tcase_add_test(t, after_time_inc_off_keeps_target_after_timer_increase);
    tcase_add_test(t, byte_only_increase_keeps_target_by_default);
    tcase_add_test(t, clamp_tgt_rate_remembers_on_every_decrease);
    suite_add_tcase(s, t);

    t = tcase_create("increase");
    tcase_add_test(t, f_timer_stages_of_fast_recovery_then_additive_increase);
    tcase_add_test(t, hyper_increase_needs_both_counters_at_f);
    tcase_add_test(t, hyper_increase_scaled_by_stage_as_in_the_paper);
    tcase_add_test(t, increase_kind_by_timer_reaches_hyper_without_byte_stages);
    tcase_add_test(t, byte_counter_advances_stages_with_no_time_passing);
    tcase_add_test(t, recovery_reaches_line_rate_exactly_then_goes_quiet);
    tcase_add_test(t, increases_never_exceed_line_rate);
    suite_add_tcase(s, t);

    t = tcase_create("timers_and_misuse");
    tcase_add_test(t, test_cut_at_max_line_rate);
    tcase_add_test(t, test_deadlines_at_clock_top);
    tcase_add_test(t, timer_stages_restart_at_each_decrease);
    tcase_add_test(t, decrease_cancels_a_timer_stage_due_at_the_same_instant);
    tcase_add_test(t, late_host_gets_the_same_result_as_a_punctual_one);
    tcase_add_test(t, deadline_is_the_earliest_pending_timer);
    tcase_add_test(t, early_timer_call_changes_nothing);
    tcase_add_test(t, null_and_misuse_return_errors);
    tcase_add_test(t, vars_name_the_dcqcn_state);
    suite_add_tcase(s, t);
    return s;
}
