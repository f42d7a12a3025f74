/* SPDX-License-Identifier: MIT */
/*
 * The decision log (libcc.h "Decision log", algorithm.h libcc_rp_logging
 * and libcc_rp_explain): what the core delivers, when, and what it costs
 * to take it away. Values are derived in the comments from the algorithms'
 * documents (docs/algorithms/) and the header's contract.
 */
#include <check.h>
#include <libcc/algorithm.h>
#include <libcc/libcc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#define US 1000ull
#define GBPS 1000000000ull
#define LINE (100 * GBPS)
#define MAX_RECORDS 16

/* What a logger saw: copies, since a record's inputs live during the call only. */
typedef struct log_seen {
    size_t n;
    libcc_decision d[MAX_RECORDS];
    char action[MAX_RECORDS][32];
    libcc_decision_input in[MAX_RECORDS][LIBCC_DECISION_MAX_INPUTS];
    const libcc_rp *rp[MAX_RECORDS];
} log_seen;

static void record(const libcc_rp *rp, const libcc_decision *d, void *ud)
{
    log_seen *s = ud;
    ck_assert_uint_lt(s->n, MAX_RECORDS);
    ck_assert_uint_le(d->n_inputs, LIBCC_DECISION_MAX_INPUTS);
    s->d[s->n] = *d;
    s->rp[s->n] = rp;
    snprintf(s->action[s->n], sizeof s->action[0], "%s", d->action);
    for (size_t i = 0; i < d->n_inputs; i++)
        s->in[s->n][i] = d->inputs[i];
    s->d[s->n].inputs = s->in[s->n];
    s->d[s->n].action = s->action[s->n];
    s->n++;
}

/* The value of a record's input `name`; fails the test if absent. */
static double input(const libcc_decision *d, const char *name)
{
    for (size_t i = 0; i < d->n_inputs; i++)
        if (strcmp(d->inputs[i].name, name) == 0)
            return d->inputs[i].value;
    ck_abort_msg("no input %s in the record of action %s", name, d->action);
    return 0;
}

/* An RP of algo (parameters assign) at LINE, flow 7, base RTT 10 us,
 * created at created_ns. */
static libcc_rp *make_rp(const char *algo, const char *assign, uint64_t created_ns)
{
    libcc_params *p = ts_make_params(algo, assign);
    libcc_flow_info fi = {
        .flow_id = 7, .line_rate_bps = LINE, .base_rtt_ns = 10 * US, .mtu_bytes = 1000};
    libcc_rp *rp = NULL;
    ck_assert_int_eq(libcc_rp_new(&rp, p, &fi, NULL, NULL, created_ns), LIBCC_OK);
    libcc_params_del(p);
    return rp;
}

/* make_rp at t = 0 with the recording logger installed. */
static libcc_rp *logged_rp(const char *algo, const char *assign, log_seen *s)
{
    libcc_rp *rp = make_rp(algo, assign, 0);
    ck_assert_int_eq(libcc_rp_set_decision_log(rp, record, s), LIBCC_OK);
    return rp;
}

START_TEST(event_names)
{
    ck_assert_str_eq(libcc_rp_event_name(LIBCC_RP_EVENT_INIT), "init");
    ck_assert_str_eq(libcc_rp_event_name(LIBCC_RP_EVENT_ACK), "ack");
    ck_assert_str_eq(libcc_rp_event_name(LIBCC_RP_EVENT_NACK), "nack");
    ck_assert_str_eq(libcc_rp_event_name(LIBCC_RP_EVENT_CNP), "cnp");
    ck_assert_str_eq(libcc_rp_event_name(LIBCC_RP_EVENT_TX), "tx");
    ck_assert_str_eq(libcc_rp_event_name(LIBCC_RP_EVENT_TIMER), "timer");
    ck_assert_str_eq(libcc_rp_event_name(LIBCC_RP_EVENT_FEEDBACK), "feedback");
    ck_assert_str_eq(libcc_rp_event_name(LIBCC_RP_EVENT_TIMEOUT), "timeout");
    ck_assert_str_eq(libcc_rp_event_name((libcc_rp_event)8), "?");
    ck_assert_str_eq(libcc_rp_event_name((libcc_rp_event)-1), "?");
}
END_TEST

START_TEST(logging_is_true_while_installed)
{
    log_seen s = {0};
    libcc_rp *rp = make_rp("dcqcn", NULL, 0);
    ck_assert(!libcc_rp_logging(rp));
    ck_assert_int_eq(libcc_rp_set_decision_log(rp, record, &s), LIBCC_OK);
    ck_assert(libcc_rp_logging(rp));
    ck_assert_int_eq(libcc_rp_set_decision_log(rp, NULL, NULL), LIBCC_OK);
    ck_assert(!libcc_rp_logging(rp));
    /* Removing twice is no error. */
    ck_assert_int_eq(libcc_rp_set_decision_log(rp, NULL, NULL), LIBCC_OK);
    ck_assert_int_eq(libcc_rp_set_decision_log(NULL, record, &s), LIBCC_ERR_INVALID_ARG);
    ck_assert(!libcc_rp_logging(NULL));
    libcc_rp_del(rp);
    ck_assert_uint_eq(s.n, 0);
}
END_TEST

/* DCQCN with the cut on the CNP (docs/algorithms/dcqcn.md): the first CNP
 * at line rate L with alpha at initial_alpha = 1 and rpg_gd = 11 gives
 * Rc = L (1 - alpha/2) = 50 Gbit/s. The window stays "none". */
START_TEST(dcqcn_cnp_logs_old_and_new_rate)
{
    log_seen s = {0};
    libcc_rp *rp = logged_rp("dcqcn", "cut_on_cnp=1", &s);
    /* DCQCN starts where the core does (line rate, no window): no INIT record. */
    ck_assert_uint_eq(s.n, 0);
    ck_assert_int_eq(libcc_rp_on_cnp(rp, 5 * US), LIBCC_OK);
    ck_assert_uint_eq(s.n, 1);
    ck_assert_ptr_eq(s.rp[0], rp);
    ck_assert_uint_eq(s.d[0].now_ns, 5 * US);
    ck_assert_uint_eq(s.d[0].flow_id, 7);
    ck_assert_int_eq(s.d[0].event, LIBCC_RP_EVENT_CNP);
    ck_assert_uint_eq(s.d[0].old_rate_bps, LINE);
    ck_assert_uint_eq(s.d[0].new_rate_bps, LINE / 2);
    ck_assert_uint_eq(s.d[0].old_window_bytes, LIBCC_WINDOW_UNLIMITED);
    ck_assert_uint_eq(s.d[0].new_window_bytes, LIBCC_WINDOW_UNLIMITED);
    /* The cut explains itself: alpha 1, and the first decrease keeps the
     * old rate as the target Rt = L. */
    ck_assert_str_eq(s.d[0].action, "cut");
    ck_assert_double_eq(input(&s.d[0], "alpha"), 1.0);
    ck_assert_double_eq(input(&s.d[0], "target_rate"), (double)LINE);
    ck_assert_double_eq(input(&s.d[0], "decreases"), 1.0);
    libcc_rp_del(rp);
}
END_TEST

/* The first timer stage after that cut (firmware defaults: rpg_time_reset
 * 300 us after the cut, F = 1): T = B = 0 < F is fast recovery, Rt stays
 * L and Rc = (Rt + Rc) / 2 = (100 + 50) / 2 = 75 Gbit/s. Alpha has decayed
 * over the 300 quiet alpha periods (1 us) since: (1 - 5/1024)^300. The
 * hold-off period the cut opened (4 us) ends on the way without a record. */
START_TEST(dcqcn_timer_stage_logs_fast_recovery)
{
    log_seen s = {0};
    libcc_rp *rp = logged_rp("dcqcn", "cut_on_cnp=1", &s);
    ck_assert_int_eq(libcc_rp_on_cnp(rp, 0), LIBCC_OK);
    ck_assert_int_eq(libcc_rp_on_timer(rp, 4 * US), LIBCC_OK);
    ck_assert_uint_eq(s.n, 1);
    ck_assert_int_eq(libcc_rp_on_timer(rp, 300 * US), LIBCC_OK);
    ck_assert_uint_eq(s.n, 2);
    ck_assert_int_eq(s.d[1].event, LIBCC_RP_EVENT_TIMER);
    ck_assert_str_eq(s.d[1].action, "fast-recovery");
    ck_assert_uint_eq(s.d[1].old_rate_bps, 50 * GBPS);
    ck_assert_uint_eq(s.d[1].new_rate_bps, 75 * GBPS);
    ck_assert_double_eq(input(&s.d[1], "target_rate"), (double)LINE);
    ck_assert_double_eq(input(&s.d[1], "T"), 0.0);
    ck_assert_double_eq(input(&s.d[1], "B"), 0.0);
    ck_assert_double_eq_tol(input(&s.d[1], "alpha"), pow(1019.0 / 1024.0, 300), 1e-12);
    libcc_rp_del(rp);
}
END_TEST

/* DCTCP, the HPCC simulator's defaults (alpha 1, g = 1/16, AI 615 Mbit/s,
 * a window of rate x T), 100 Gbit/s, T = 12 us, as check_dctcp.c's
 * derivation: the records say why each move happened. */
START_TEST(dctcp_logs_cuts_and_increases_with_alpha_and_f)
{
    log_seen s = {0};
    libcc_params *p = ts_make_params("dctcp", NULL);
    libcc_flow_info fi = {.flow_id = 3, .line_rate_bps = LINE, .base_rtt_ns = 12 * US, .mtu_bytes = 1000};
    libcc_rp *rp = NULL;
    ck_assert_int_eq(libcc_rp_new(&rp, p, &fi, NULL, NULL, 0), LIBCC_OK);
    libcc_params_del(p);
    ck_assert_int_eq(libcc_rp_set_decision_log(rp, record, &s), LIBCC_OK);
    /* INIT: line rate, and a window of 100e9 x 12e-6 / 8 = 150,000 B. */
    ck_assert_uint_eq(s.n, 1);
    ck_assert_int_eq(s.d[0].event, LIBCC_RP_EVENT_INIT);
    ck_assert_uint_eq(s.d[0].new_window_bytes, 150000);
    ck_assert_int_eq(libcc_rp_on_tx(rp, 0, 0, 10000, NULL), LIBCC_OK);
    ck_assert_uint_eq(s.n, 1);
    /* A marked first ACK: cut by alpha / 2 = 1/2 (alpha still 1, F not yet
     * measured: 0): 100 -> 50 Gbit/s, window 150,000 -> 75,000. */
    libcc_ack a = {.seq = 1000, .ecn_echo = 1};
    ck_assert_int_eq(libcc_rp_on_ack(rp, 10000, &a), LIBCC_OK);
    ck_assert_uint_eq(s.n, 2);
    ck_assert_str_eq(s.d[1].action, "cut");
    ck_assert_uint_eq(s.d[1].old_rate_bps, LINE);
    ck_assert_uint_eq(s.d[1].new_rate_bps, LINE / 2);
    ck_assert_uint_eq(s.d[1].old_window_bytes, 150000);
    ck_assert_uint_eq(s.d[1].new_window_bytes, 75000);
    ck_assert_double_eq(input(&s.d[1], "alpha"), 1.0);
    ck_assert_double_eq(input(&s.d[1], "F"), 0.0);
    ck_assert_int_eq(libcc_rp_on_tx(rp, 11000, 10000, 10000, NULL), LIBCC_OK);
    /* Marked inside CWR: counted, nothing decided, no record. */
    a = (libcc_ack){.seq = 5000, .ecn_echo = 1};
    ck_assert_int_eq(libcc_rp_on_ack(rp, 12000, &a), LIBCC_OK);
    ck_assert_uint_eq(s.n, 2);
    /* Past the window: F = 2/11, alpha = 15/16 + 2/11/16; unmarked: + 615 Mbit/s. */
    a = (libcc_ack){.seq = 11000};
    ck_assert_int_eq(libcc_rp_on_ack(rp, 20000, &a), LIBCC_OK);
    ck_assert_uint_eq(s.n, 3);
    ck_assert_str_eq(s.d[2].action, "additive-increase");
    ck_assert_uint_eq(s.d[2].new_rate_bps, 50615000000ull);
    ck_assert_double_eq_tol(input(&s.d[2], "F"), 2.0 / 11.0, 1e-15);
    ck_assert_double_eq_tol(input(&s.d[2], "alpha"), 15.0 / 16.0 + 2.0 / 11.0 / 16.0, 1e-15);
    libcc_rp_del(rp);
}
END_TEST

/* TIMELY, the paper's defaults (alpha 0.875, beta 0.8, T_low 50 us,
 * T_high 500 us, minRTT 20 us, delta 10 Mbit/s): the first RTT sample
 * (100 us) only becomes prev_rtt; the second (120 us) gives rtt_diff =
 * 0.875 x 20,000 = 17,500 ns, gradient 17,500 / 20,000 = 0.875 > 0, between
 * the thresholds: rate x (1 - 0.8 x 0.875) = 30 Gbit/s. A 30 us sample is
 * below T_low: + delta. */
START_TEST(timely_logs_its_gradient)
{
    log_seen s = {0};
    libcc_rp *rp = logged_rp("timely", NULL, &s);
    ck_assert_int_eq(ts_on_rtt_ack(rp, 100 * US, 1000, 100 * US), LIBCC_OK);
    ck_assert_uint_eq(s.n, 0);
    ck_assert_int_eq(ts_on_rtt_ack(rp, 200 * US, 2000, 120 * US), LIBCC_OK);
    ck_assert_uint_eq(s.n, 1);
    ck_assert_str_eq(s.d[0].action, "decrease-gradient");
    ck_assert_uint_eq(s.d[0].old_rate_bps, LINE);
    ck_assert_uint_eq(s.d[0].new_rate_bps, 30 * GBPS);
    ck_assert_double_eq(input(&s.d[0], "rtt"), 120000.0);
    ck_assert_double_eq_tol(input(&s.d[0], "rtt_diff"), 17500.0, 1e-9);
    ck_assert_double_eq_tol(input(&s.d[0], "gradient"), 0.875, 1e-12);
    ck_assert_int_eq(ts_on_rtt_ack(rp, 300 * US, 3000, 30 * US), LIBCC_OK);
    ck_assert_uint_eq(s.n, 2);
    ck_assert_str_eq(s.d[1].action, "increase-below-t-low");
    ck_assert_uint_eq(s.d[1].new_rate_bps, 30 * GBPS + 10000000ull);
    libcc_rp_del(rp);
}
END_TEST

/* Without a CNP DCQCN neither moves nor has anything to say: a transmit
 * and a timer call deliver nothing; `none` never moves. */
START_TEST(no_record_without_change_or_explanation)
{
    log_seen s = {0};
    libcc_rp *rp = logged_rp("dcqcn", NULL, &s);
    ck_assert_int_eq(libcc_rp_on_tx(rp, 1 * US, 0, 1000000, NULL), LIBCC_OK);
    ck_assert_int_eq(libcc_rp_on_timer(rp, 1000 * US), LIBCC_OK);
    libcc_rp_del(rp);
    rp = make_rp("none", NULL, 0);
    ck_assert_int_eq(libcc_rp_set_decision_log(rp, record, &s), LIBCC_OK);
    ck_assert_int_eq(libcc_rp_on_cnp(rp, 1 * US), LIBCC_OK);
    ck_assert_int_eq(ts_on_rtt_ack(rp, 2 * US, 1000, 1 * US), LIBCC_OK);
    libcc_rp_del(rp);
    ck_assert_uint_eq(s.n, 0);
}
END_TEST

/* HPCC starts at line rate with a BDP window (draft section 5): L x T / 8
 * = 100e9 x 10e-6 / 8 = 125,000 bytes. Installing the logger delivers that
 * start as the INIT record, at the RP's creation time. */
START_TEST(install_delivers_the_init_record)
{
    log_seen s = {0};
    libcc_rp *rp = make_rp("hpcc", NULL, 3 * US);
    ck_assert_int_eq(libcc_rp_set_decision_log(rp, record, &s), LIBCC_OK);
    ck_assert_uint_eq(s.n, 1);
    ck_assert_int_eq(s.d[0].event, LIBCC_RP_EVENT_INIT);
    ck_assert_uint_eq(s.d[0].now_ns, 3 * US);
    ck_assert_uint_eq(s.d[0].flow_id, 7);
    ck_assert_uint_eq(s.d[0].old_rate_bps, LINE);
    ck_assert_uint_eq(s.d[0].new_rate_bps, LINE);
    ck_assert_uint_eq(s.d[0].old_window_bytes, LIBCC_WINDOW_UNLIMITED);
    ck_assert_uint_eq(s.d[0].new_window_bytes, 125000);
    /* Another logger for the same log: the start is not repeated. */
    log_seen s2 = {0};
    ck_assert_int_eq(libcc_rp_set_decision_log(rp, record, &s2), LIBCC_OK);
    ck_assert_uint_eq(s2.n, 0);
    libcc_rp_del(rp);
}
END_TEST

START_TEST(removed_logger_sees_nothing)
{
    log_seen s = {0};
    libcc_rp *rp = logged_rp("dcqcn", "cut_on_cnp=1", &s);
    ck_assert_int_eq(libcc_rp_set_decision_log(rp, NULL, NULL), LIBCC_OK);
    ck_assert_int_eq(libcc_rp_on_cnp(rp, 5 * US), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), LINE / 2); /* it moved, unlogged */
    ck_assert_uint_eq(s.n, 0);
    libcc_rp_del(rp);
}
END_TEST

/* An explanation goes out with the end of the event it was given in, cut
 * to LIBCC_DECISION_MAX_INPUTS inputs, and once: the next event starts
 * unexplained. `none` never moves, so only the explanation makes a record. */
START_TEST(explanation_is_delivered_once_with_bounded_inputs)
{
    log_seen s = {0};
    libcc_decision_input in[LIBCC_DECISION_MAX_INPUTS + 2];
    static const char *const names[] = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"};
    ck_assert_uint_eq(sizeof names / sizeof names[0], LIBCC_DECISION_MAX_INPUTS + 2);
    for (size_t i = 0; i < LIBCC_DECISION_MAX_INPUTS + 2; i++)
        in[i] = (libcc_decision_input){names[i], 0.5 * (double)i};
    libcc_rp *rp = make_rp("none", NULL, 0);
    /* Given without a logger, an explanation is dropped. */
    libcc_rp_explain(rp, "early", in, 1);
    ck_assert_int_eq(libcc_rp_set_decision_log(rp, record, &s), LIBCC_OK);
    ck_assert_int_eq(libcc_rp_on_tx(rp, 1 * US, 0, 1000, NULL), LIBCC_OK);
    ck_assert_uint_eq(s.n, 0);

    libcc_rp_explain(rp, "first", in, 2);
    libcc_rp_explain(rp, "probe", in, LIBCC_DECISION_MAX_INPUTS + 2); /* replaces it */
    ck_assert_int_eq(libcc_rp_on_tx(rp, 2 * US, 1000, 1000, NULL), LIBCC_OK);
    ck_assert_uint_eq(s.n, 1);
    ck_assert_int_eq(s.d[0].event, LIBCC_RP_EVENT_TX);
    ck_assert_str_eq(s.d[0].action, "probe");
    ck_assert_uint_eq(s.d[0].n_inputs, LIBCC_DECISION_MAX_INPUTS);
    ck_assert_str_eq(s.d[0].inputs[0].name, "a");
    ck_assert_str_eq(s.d[0].inputs[7].name, "h");
    ck_assert_double_eq(s.d[0].inputs[7].value, 3.5);
    ck_assert_uint_eq(s.d[0].old_rate_bps, LINE);
    ck_assert_uint_eq(s.d[0].new_rate_bps, LINE);

    ck_assert_int_eq(libcc_rp_on_tx(rp, 3 * US, 2000, 1000, NULL), LIBCC_OK);
    ck_assert_uint_eq(s.n, 1);
    /* A NULL action is "" (explained, nameless); no inputs without an array. */
    libcc_rp_explain(rp, NULL, NULL, 3);
    ck_assert_int_eq(libcc_rp_on_timer(rp, 4 * US), LIBCC_OK);
    ck_assert_uint_eq(s.n, 2);
    ck_assert_str_eq(s.d[1].action, "");
    ck_assert_uint_eq(s.d[1].n_inputs, 0);
    ck_assert_int_eq(s.d[1].event, LIBCC_RP_EVENT_TIMER);
    libcc_rp_del(rp); /* frees the log (the sanitizer build checks) */
}
END_TEST

/* An algorithm registered here that explains itself from inside its ops,
 * as a plugin would: a CNP halves the rate with ten inputs (the record
 * keeps eight); a timer explains twice (the second wins); an ACK asks for
 * twice the line rate (the record has the core's clamp: the line rate). */
static int explainer_on_cnp(libcc_rp *rp, uint64_t now_ns)
{
    (void)now_ns;
    libcc_rp_set_rate_bps(rp, libcc_rp_rate_bps(rp) / 2);
    if (libcc_rp_logging(rp)) {
        libcc_decision_input in[LIBCC_DECISION_MAX_INPUTS + 2];
        static const char *const names[] = {"i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8", "i9"};
        for (size_t i = 0; i < LIBCC_DECISION_MAX_INPUTS + 2; i++)
            in[i] = (libcc_decision_input){names[i], (double)i};
        libcc_rp_explain(rp, "halve", in, LIBCC_DECISION_MAX_INPUTS + 2);
    }
    return LIBCC_OK;
}

static int explainer_on_timer(libcc_rp *rp, uint64_t now_ns)
{
    const libcc_decision_input in = {"now", (double)now_ns};
    libcc_rp_explain(rp, "first", &in, 1);
    libcc_rp_explain(rp, "second", &in, 1);
    return LIBCC_OK;
}

static int explainer_on_ack(libcc_rp *rp, uint64_t now_ns, const libcc_ack *ack)
{
    (void)now_ns;
    (void)ack;
    libcc_rp_set_rate_bps(rp, 2 * libcc_rp_flow(rp)->line_rate_bps);
    return LIBCC_OK;
}

static const libcc_rp_ops explainer_rp = {
    .on_cnp = explainer_on_cnp, .on_timer = explainer_on_timer, .on_ack = explainer_on_ack};
static const libcc_algorithm explainer = {
    .abi_version = LIBCC_ALGORITHM_ABI_VERSION,
    .name = "check-explainer",
    .roles = LIBCC_ROLE_RP,
    .rp = &explainer_rp,
};

START_TEST(registered_algorithm_explains_from_its_ops)
{
    char err[256];
    ck_assert_msg(libcc_algorithm_register(&explainer, err, sizeof err) == LIBCC_OK, "%s", err);
    log_seen s = {0};
    libcc_rp *rp = logged_rp("check-explainer", NULL, &s);
    ck_assert_uint_eq(s.n, 0); /* it starts where the core does */
    ck_assert_int_eq(libcc_rp_on_cnp(rp, 1 * US), LIBCC_OK);
    ck_assert_uint_eq(s.n, 1);
    ck_assert_str_eq(s.d[0].action, "halve");
    ck_assert_uint_eq(s.d[0].old_rate_bps, LINE);
    ck_assert_uint_eq(s.d[0].new_rate_bps, LINE / 2);
    ck_assert_uint_eq(s.d[0].n_inputs, LIBCC_DECISION_MAX_INPUTS);
    ck_assert_str_eq(s.d[0].inputs[7].name, "i7");
    ck_assert_double_eq(s.d[0].inputs[7].value, 7.0);
    ck_assert_int_eq(libcc_rp_on_timer(rp, 2 * US), LIBCC_OK);
    ck_assert_uint_eq(s.n, 2);
    ck_assert_str_eq(s.d[1].action, "second");
    ck_assert_double_eq(s.d[1].inputs[0].value, 2000.0);
    ck_assert_uint_eq(s.d[1].old_rate_bps, s.d[1].new_rate_bps);
    libcc_ack a = {.seq = 1000};
    ck_assert_int_eq(libcc_rp_on_ack(rp, 3 * US, &a), LIBCC_OK);
    ck_assert_uint_eq(s.n, 3);
    ck_assert_str_eq(s.d[2].action, ""); /* moved without a word */
    ck_assert_uint_eq(s.d[2].old_rate_bps, LINE / 2);
    ck_assert_uint_eq(s.d[2].new_rate_bps, LINE); /* 2 x line, clamped */
    libcc_rp_del(rp);
    ck_assert_int_eq(libcc_algorithm_unregister("check-explainer"), LIBCC_OK);
}
END_TEST

/* In host memory too, libcc_rp_del releases the log. */
START_TEST(host_memory_rp_releases_its_log)
{
    log_seen s = {0};
    libcc_params *p = ts_make_params("dcqcn", "cut_on_cnp=1");
    const size_t n = libcc_rp_size(p);
    void *mem = aligned_alloc(64, (n + 63) / 64 * 64);
    ck_assert_ptr_nonnull(mem);
    libcc_flow_info fi = {.flow_id = 9, .line_rate_bps = LINE, .mtu_bytes = 1000};
    libcc_rp *rp = NULL;
    ck_assert_int_eq(libcc_rp_init(mem, n, p, &fi, NULL, NULL, 0, &rp), LIBCC_OK);
    ck_assert_int_eq(libcc_rp_set_decision_log(rp, record, &s), LIBCC_OK);
    ck_assert_int_eq(libcc_rp_on_cnp(rp, 1 * US), LIBCC_OK);
    ck_assert_uint_eq(s.n, 1);
    ck_assert_uint_eq(s.d[0].flow_id, 9);
    libcc_rp_del(rp);
    /* Dead: no logger goes onto it. */
    ck_assert_int_eq(libcc_rp_set_decision_log(rp, record, &s), LIBCC_ERR_INVALID_ARG);
    free(mem);
    libcc_params_del(p);
}
END_TEST

Suite *decision_log_suite(void)
{
    Suite *s = suite_create("decision_log");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, event_names);
    tcase_add_test(tc, logging_is_true_while_installed);
    tcase_add_test(tc, dcqcn_cnp_logs_old_and_new_rate);
    tcase_add_test(tc, dcqcn_timer_stage_logs_fast_recovery);
    tcase_add_test(tc, dctcp_logs_cuts_and_increases_with_alpha_and_f);
    tcase_add_test(tc, timely_logs_its_gradient);
    tcase_add_test(tc, no_record_without_change_or_explanation);
    tcase_add_test(tc, install_delivers_the_init_record);
    tcase_add_test(tc, removed_logger_sees_nothing);
    tcase_add_test(tc, explanation_is_delivered_once_with_bounded_inputs);
    tcase_add_test(tc, host_memory_rp_releases_its_log);
    tcase_add_test(tc, registered_algorithm_explains_from_its_ops);
    suite_add_tcase(s, tc);
    return s;
}
