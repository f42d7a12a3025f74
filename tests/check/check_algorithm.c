/* SPDX-License-Identifier: MIT */
/*
 * The algorithm ABI (<libcc/algorithm.h>): registering an algorithm at run
 * time, using it through the host API exactly as a built-in, every way a
 * description is refused (code and the message naming the bad thing),
 * unregistering and what keeps an algorithm busy, and plugins
 * (libcc_plugin_load) with each way loading one fails.
 *
 * The hand-written algorithm "check-steps" (below) is small enough to
 * predict by hand: its RP starts at its `rate` parameter and on the k-th
 * ACK sets k+1 times that rate, which the core clamps to the line rate.
 *
 * Every test leaves the registry as it found it (the sanitizer run keeps
 * all suites in one process, CK_FORK=no).
 */
#include <check.h>
#include <libcc/algorithm.h>
#include <libcc/libcc.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define G (1000ull * 1000 * 1000)

/* ---- the test algorithm ------------------------------------------------ */

typedef struct steps_cfg {
    uint64_t rate_bps;
    uint64_t period_ns;
} steps_cfg;

typedef struct steps_rp {
    uint64_t acks;
} steps_rp;

typedef struct steps_cp {
    uint64_t enqueued;
} steps_cp;

static const libcc_param_desc steps_params[] = {
    {"rate", LIBCC_UNIT_BPS, 10e9, 1, 1e12, "start rate; the k-th ACK sets (k+1) x rate"},
    {"period", LIBCC_UNIT_NS, 5000, 1, 1e9, "time from the start to the RP's one timer"},
};

static int steps_cfg_init(void *cfg, const double *v, char *err, size_t err_len)
{
    steps_cfg *c = cfg;
    c->rate_bps = (uint64_t)v[0];
    c->period_ns = (uint64_t)v[1];
    /* A relation between parameters, so a preset can break it. */
    if (c->rate_bps == 7) {
        snprintf(err, err_len, "parameter 'rate' of 'check-steps': 7 bps is unlucky");
        return LIBCC_ERR_OUT_OF_RANGE;
    }
    return LIBCC_OK;
}

static void steps_init(libcc_rp *rp, uint64_t now_ns)
{
    const steps_cfg *c = libcc_rp_config(rp);
    libcc_rp_set_rate_bps(rp, c->rate_bps);
    libcc_rp_set_deadline_ns(rp, now_ns + c->period_ns);
}

static int steps_on_ack(libcc_rp *rp, uint64_t now_ns, const libcc_ack *ack)
{
    (void)now_ns;
    (void)ack;
    steps_rp *s = libcc_rp_state(rp);
    const steps_cfg *c = libcc_rp_config(rp);
    s->acks++;
    libcc_rp_set_rate_bps(rp, (s->acks + 1) * c->rate_bps);
    return LIBCC_OK;
}

static int steps_on_timer(libcc_rp *rp, uint64_t now_ns)
{
    (void)now_ns;
    libcc_rp_set_deadline_ns(rp, LIBCC_NO_DEADLINE);
    libcc_rp_set_window_bytes(rp, 2 * libcc_rp_flow(rp)->mtu_bytes);
    return LIBCC_OK;
}

static const libcc_param_desc steps_vars[] = {
    {"acks", LIBCC_UNIT_COUNT, 0, 0, 0, "ACKs seen"},
};

static void steps_read_vars(const libcc_rp *rp, double *v)
{
    const steps_rp *s = libcc_rp_state_const(rp);
    v[0] = (double)s->acks;
}

static int steps_cp_on_enqueue(libcc_cp *cp, uint64_t now_ns, libcc_cp_pkt *pkt)
{
    (void)now_ns;
    steps_cp *s = libcc_cp_state(cp);
    s->enqueued++;
    pkt->mark_ce = s->enqueued % 2 == 0; /* every second packet */
    return LIBCC_OK;
}

static const libcc_rp_ops steps_rp_ops = {
    .state_size = sizeof(steps_rp),
    .init = steps_init,
    .on_ack = steps_on_ack,
    .on_timer = steps_on_timer,
    .vars = steps_vars,
    .n_vars = 1,
    .read_vars = steps_read_vars,
};

static const libcc_cp_ops steps_cp_ops = {
    .state_size = sizeof(steps_cp),
    .on_enqueue = steps_cp_on_enqueue,
};

static const libcc_preset_desc steps_presets[] = {
    {"fast", "rate=20Gbps", "twice the default start rate"},
};

static const libcc_algorithm steps = {
    .abi_version = LIBCC_ALGORITHM_ABI_VERSION,
    .name = "check-steps",
    .summary = "Check's test algorithm",
    .roles = LIBCC_ROLE_RP | LIBCC_ROLE_CP,
    .params = steps_params,
    .n_params = 2,
    .presets = steps_presets,
    .n_presets = 1,
    .cfg_size = sizeof(steps_cfg),
    .cfg_init = steps_cfg_init,
    .rp = &steps_rp_ops,
    .cp = &steps_cp_ops,
};

static void register_ok(const libcc_algorithm *a)
{
    char err[256] = "untouched";
    int rc = libcc_algorithm_register(a, err, sizeof err);
    ck_assert_msg(rc == LIBCC_OK, "register %s: %d %s", a->name, rc, err);
    ck_assert_str_eq(err, ""); /* no message on success */
}

static void unregister_ok(const char *name)
{
    ck_assert_int_eq(libcc_algorithm_unregister(name), LIBCC_OK);
}

static bool listed(const char *name)
{
    for (const char *const *n = libcc_algorithms(); *n; n++)
        if (strcmp(*n, name) == 0)
            return true;
    return false;
}

static size_t n_listed(void)
{
    size_t n = 0;
    for (const char *const *a = libcc_algorithms(); *a; a++)
        n++;
    return n;
}

/* ---- registering and using ---------------------------------------------- */

typedef struct rate_log {
    uint64_t last_rate, last_window, last_deadline;
    int rate_calls;
} rate_log;

static void on_rate(libcc_rp *rp, uint64_t now, uint64_t rate, void *u)
{
    (void)rp;
    (void)now;
    rate_log *l = u;
    l->last_rate = rate;
    l->rate_calls++;
}

static void on_window(libcc_rp *rp, uint64_t now, uint64_t w, void *u)
{
    (void)rp;
    (void)now;
    ((rate_log *)u)->last_window = w;
}

static void on_deadline(libcc_rp *rp, uint64_t d, void *u)
{
    (void)rp;
    ((rate_log *)u)->last_deadline = d;
}

START_TEST(registered_algorithm_works_as_a_builtin)
{
    const size_t before = n_listed();
    register_ok(&steps);
    ck_assert_uint_eq(n_listed(), before + 1);
    ck_assert(listed("check-steps"));
    /* Listed after the built-ins, which keep their order. */
    ck_assert_str_eq(libcc_algorithms()[0], "none");
    ck_assert_str_eq(libcc_algorithms()[before], "check-steps");

    libcc_algorithm_info info;
    ck_assert_int_eq(libcc_algorithm_info_get("check-steps", &info), LIBCC_OK);
    ck_assert_uint_eq(info.roles, LIBCC_ROLE_RP | LIBCC_ROLE_CP);
    ck_assert_int_eq(info.cp_needs_int_table, 0);
    ck_assert_uint_eq(info.int_hop_bytes, 0);

    const libcc_param_desc *table;
    size_t n;
    ck_assert_int_eq(libcc_algorithm_params("check-steps", &table, &n), LIBCC_OK);
    ck_assert_ptr_eq(table, steps_params);
    ck_assert_uint_eq(n, 2);

    libcc_params *p;
    ck_assert_int_eq(libcc_params_new(&p, "check-steps"), LIBCC_OK);
    ck_assert_str_eq(libcc_params_algorithm(p), "check-steps");
    double v;
    ck_assert_int_eq(libcc_params_get(p, "rate", &v), LIBCC_OK);
    ck_assert(v == 10e9);
    ck_assert_int_eq(libcc_params_apply_preset(p, "fast"), LIBCC_OK);
    ck_assert_int_eq(libcc_params_get(p, "rate", &v), LIBCC_OK);
    ck_assert(v == 20e9);
    ck_assert_int_eq(libcc_params_set(p, "rate", "10Gbps"), LIBCC_OK);

    /* A 25 Gbps flow: 10 G at the start; the 1st ACK sets 2 x 10 = 20 G,
     * the 2nd 3 x 10 = 30 G, which the core clamps to the line's 25 G. */
    rate_log log = {0};
    libcc_rp_callbacks cbs = {.rate_changed = on_rate, .window_changed = on_window,
                              .deadline_changed = on_deadline};
    libcc_flow_info flow = {.flow_id = 1, .line_rate_bps = 25 * G, .mtu_bytes = 1000};
    libcc_rp *rp;
    ck_assert_int_eq(libcc_rp_new(&rp, p, &flow, &cbs, &log, 1000), LIBCC_OK);
    ck_assert_str_eq(libcc_rp_algorithm(rp), "check-steps");
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 10 * G);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), 1000 + 5000); /* init: now + period */
    ck_assert_uint_eq(log.last_deadline, 6000);
    libcc_ack ack = {.seq = 1000};
    ck_assert_int_eq(libcc_rp_on_ack(rp, 2000, &ack), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 20 * G);
    ck_assert_uint_eq(log.last_rate, 20 * G);
    ck_assert_int_eq(libcc_rp_on_ack(rp, 3000, &ack), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 25 * G);
    ck_assert_uint_eq(log.last_rate, 25 * G);
    ck_assert_int_eq(log.rate_calls, 2);
    ck_assert_int_eq(libcc_rp_read_vars(rp, &v, 1), LIBCC_OK);
    ck_assert(v == 2.0);
    /* The timer: no more deadline, a window of two 1000-byte MTUs. */
    ck_assert_int_eq(libcc_rp_on_timer(rp, 6000), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), 2000);
    ck_assert_uint_eq(log.last_window, 2000);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), LIBCC_NO_DEADLINE);
    ck_assert_uint_eq(log.last_deadline, LIBCC_NO_DEADLINE);

    /* Its CP marks every second packet. */
    libcc_cp_info ci = {.link_rate_bps = 25 * G};
    libcc_cp *cp;
    ck_assert_int_eq(libcc_cp_new(&cp, p, &ci), LIBCC_OK);
    libcc_cp_pkt pkt = {.kind = LIBCC_PKT_DATA, .bytes = 1000, .ecn_capable = 1};
    ck_assert_int_eq(libcc_cp_on_enqueue(cp, 10, &pkt), LIBCC_OK);
    ck_assert_int_eq(pkt.mark_ce, 0);
    ck_assert_int_eq(libcc_cp_on_enqueue(cp, 20, &pkt), LIBCC_OK);
    ck_assert_int_eq(pkt.mark_ce, 1);

    /* No NP ops: an NP of it still acknowledges (the core's work). */
    libcc_np_info ni = {.max_flows = 4, .line_rate_bps = 25 * G};
    libcc_np *np;
    ck_assert_int_eq(libcc_np_new(&np, p, &ni, NULL, NULL), LIBCC_OK);
    libcc_data_pkt d = {.flow_id = 1, .bytes = 1000};
    libcc_np_verdict verdict;
    ck_assert_int_eq(libcc_np_on_data(np, 100, &d, &verdict), LIBCC_OK);
    ck_assert_int_eq(verdict.send_ack, 1);

    libcc_np_del(np);
    libcc_cp_del(cp);
    libcc_rp_del(rp);
    libcc_params_del(p);
    unregister_ok("check-steps");
    ck_assert(!listed("check-steps"));
    ck_assert_uint_eq(n_listed(), before);
    ck_assert_int_eq(libcc_params_new(&p, "check-steps"), LIBCC_ERR_UNKNOWN_ALGORITHM);
    ck_assert_int_eq(libcc_algorithm_info_get("check-steps", &info), LIBCC_ERR_UNKNOWN_ALGORITHM);
}
END_TEST

/* libcc_rp_size(NULL) is the largest RP over what is registered now. */
START_TEST(rp_size_null_covers_registered)
{
    static const libcc_rp_ops big_rp = {.state_size = 100000};
    static libcc_algorithm big;
    big = steps;
    big.name = "check-big";
    big.roles = LIBCC_ROLE_RP;
    big.rp = &big_rp;
    big.cp = NULL;
    const size_t before = libcc_rp_size(NULL);
    ck_assert_uint_lt(before, 100000);
    register_ok(&big);
    libcc_params *p;
    ck_assert_int_eq(libcc_params_new(&p, "check-big"), LIBCC_OK);
    const size_t sz = libcc_rp_size(p);
    ck_assert_uint_ge(sz, 100000 + sizeof(steps_cfg));
    ck_assert_uint_eq(libcc_rp_size(NULL), sz);
    libcc_params_del(p);
    unregister_ok("check-big");
    ck_assert_uint_eq(libcc_rp_size(NULL), before);
}
END_TEST

/* ---- every exported accessor -------------------------------------------- *
 * "check-access" records what the accessors return into its state, so the
 * out-of-line versions a plugin calls (this file is not compiled with
 * libcc's in-line ones) are checked against values set by hand. */

typedef struct access_rp {
    uint64_t snd_nxt, bytes_sent, max_hops;
} access_rp;

typedef struct access_cp {
    uint64_t link_bps;
} access_cp;

static void access_rp_init(libcc_rp *rp, uint64_t now_ns)
{
    (void)now_ns;
    libcc_rp_set_rto_ns(rp, 7000);
}

static int access_rp_on_tx(libcc_rp *rp, uint64_t now_ns, uint64_t seq, uint32_t bytes,
                           unsigned *tx_flags)
{
    (void)seq;
    (void)bytes;
    (void)tx_flags;
    access_rp *s = libcc_rp_state(rp);
    s->snd_nxt = libcc_rp_snd_nxt(rp);
    s->bytes_sent = libcc_rp_bytes_sent(rp);
    s->max_hops = libcc_rp_common(rp)->max_hops;
    libcc_rp_request_probe(rp, now_ns);
    return LIBCC_OK;
}

static const libcc_param_desc access_vars[] = {
    {"snd_nxt", LIBCC_UNIT_BYTES, 0, 0, 0, "libcc_rp_snd_nxt at the last on_tx"},
    {"bytes_sent", LIBCC_UNIT_BYTES, 0, 0, 0, "libcc_rp_bytes_sent at the last on_tx"},
    {"max_hops", LIBCC_UNIT_COUNT, 0, 0, 0, "libcc_rp_common's max_hops"},
};

static void access_read_vars(const libcc_rp *rp, double *v)
{
    const access_rp *s = libcc_rp_state_const(rp);
    v[0] = (double)s->snd_nxt;
    v[1] = (double)s->bytes_sent;
    v[2] = (double)s->max_hops;
}

/* The ACK carries what the NP's accessors say: the flow's id as n_flows,
 * max_flows x 1000 + ack_interval as rx_window_bytes. */
static int access_np_on_data(libcc_np *np, libcc_np_flow *flow, uint64_t now_ns,
                             const libcc_data_pkt *pkt, libcc_np_verdict *verdict)
{
    (void)now_ns;
    (void)pkt;
    verdict->ack.n_flows = (uint32_t)libcc_np_flow_id(flow);
    verdict->ack.rx_window_bytes = (uint64_t)libcc_np_get_info(np)->max_flows * 1000 +
                                   libcc_np_common(np)->ack_interval_pkts;
    return LIBCC_OK;
}

static void access_cp_init(libcc_cp *cp)
{
    access_cp *s = libcc_cp_state(cp);
    s->link_bps = libcc_cp_get_info(cp)->link_rate_bps;
    libcc_cp_set_deadline_ns(cp, 1000);
    libcc_cp_set_max_feedback(cp, 1);
}

/* Stamps a packet with a header; asks feedback for one without, at the
 * rate libcc_cp_tx_bytes gives (to make it visible). */
static int access_cp_on_dequeue(libcc_cp *cp, uint64_t now_ns, libcc_cp_pkt *pkt)
{
    if (!pkt->int_list) {
        pkt->send_feedback = 1;
        pkt->feedback_rate_bps = libcc_cp_tx_bytes(cp);
        return LIBCC_OK;
    }
    libcc_int_hop hop;
    int rc = libcc_cp_int_record(cp, now_ns, pkt->port_queue_bytes, &hop);
    return rc ? rc : libcc_cp_stamp(cp, pkt, &hop);
}

/* One feedback entry per period: rand_unit x the link rate, to the flow
 * whose id is max_hops; the next period 1 us later. */
static int access_cp_on_timer(libcc_cp *cp, uint64_t now_ns, libcc_cp_feedback *out,
                              size_t *n_out)
{
    const access_cp *s = libcc_cp_state(cp);
    out[0].flow_id = libcc_cp_common(cp)->max_hops;
    out[0].rate_bps = (uint64_t)(libcc_cp_rand_unit(cp) * (double)s->link_bps);
    *n_out = 1;
    libcc_cp_set_deadline_ns(cp, now_ns + 1000);
    return LIBCC_OK;
}

static const libcc_rp_ops access_rp_ops = {
    .state_size = sizeof(access_rp),
    .init = access_rp_init,
    .on_tx = access_rp_on_tx,
    .vars = access_vars,
    .n_vars = 3,
    .read_vars = access_read_vars,
};
static const libcc_np_ops access_np_ops = {.on_data = access_np_on_data};
/* The fraction of the port's rate a queue of that many bytes takes in one
 * microsecond (read through the const state accessor). */
static double access_cp_mark_probability(const libcc_cp *cp, uint64_t queue_bytes)
{
    const access_cp *s = libcc_cp_state_const(cp);
    return (double)queue_bytes * 8.0 * 1e6 / (double)s->link_bps;
}

static const libcc_cp_ops access_cp_ops = {
    .state_size = sizeof(access_cp),
    .init = access_cp_init,
    .on_dequeue = access_cp_on_dequeue,
    .mark_probability = access_cp_mark_probability,
    .on_timer = access_cp_on_timer,
};

static const libcc_algorithm access_algorithm = {
    .abi_version = LIBCC_ALGORITHM_ABI_VERSION,
    .name = "check-access",
    .roles = LIBCC_ROLE_RP | LIBCC_ROLE_NP | LIBCC_ROLE_CP,
    .data_int = LIBCC_INT_FORMAT_HPCC,
    .ack_int = LIBCC_INT_FORMAT_HPCC,
    .signals = LIBCC_SIGNAL_CP_FEEDBACK,
    .rp = &access_rp_ops,
    .np = &access_np_ops,
    .cp = &access_cp_ops,
};

static void count_probe(libcc_rp *rp, uint64_t now, void *u)
{
    (void)rp;
    (void)now;
    ++*(int *)u;
}

static uint64_t half(void *u)
{
    (void)u;
    return UINT64_C(1) << 63; /* (2^63 >> 11) x 2^-53 = 0.5 */
}

START_TEST(exported_accessors)
{
    register_ok(&access_algorithm);
    libcc_params *p;
    ck_assert_int_eq(libcc_params_new(&p, "check-access"), LIBCC_OK);
    ck_assert_int_eq(libcc_params_parse(p, "max_hops=3 ack_interval=2"), LIBCC_OK);

    /* RP: two packets, 1000 B at 0 and 500 B at 1000: snd_nxt 1500, 1500 B
     * sent; a probe requested by each; the RTO set at init. */
    int probes = 0;
    libcc_rp_callbacks cbs = {.send_probe = count_probe};
    libcc_flow_info flow = {.line_rate_bps = 100 * G};
    libcc_rp *rp;
    ck_assert_int_eq(libcc_rp_new(&rp, p, &flow, &cbs, &probes, 0), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rto_ns(rp), 7000);
    unsigned flags;
    ck_assert_int_eq(libcc_rp_on_tx(rp, 10, 0, 1000, &flags), LIBCC_OK);
    ck_assert_int_eq(libcc_rp_on_tx(rp, 20, 1000, 500, &flags), LIBCC_OK);
    double v[3];
    ck_assert_int_eq(libcc_rp_read_vars(rp, v, 3), LIBCC_OK);
    ck_assert(v[0] == 1500 && v[1] == 1500 && v[2] == 3);
    ck_assert_int_eq(probes, 2);
    libcc_rp_del(rp);

    /* NP: flow 9 on an NP of 4 flows with ack_interval 2: n_flows 9,
     * rx_window 4 x 1000 + 2. */
    libcc_np_info ni = {.max_flows = 4, .line_rate_bps = 100 * G};
    libcc_np *np;
    ck_assert_int_eq(libcc_np_new(&np, p, &ni, NULL, NULL), LIBCC_OK);
    libcc_data_pkt d = {.flow_id = 9, .bytes = 1000};
    libcc_np_verdict verdict;
    ck_assert_int_eq(libcc_np_on_data(np, 5, &d, &verdict), LIBCC_OK);
    ck_assert_uint_eq(verdict.ack.n_flows, 9);
    ck_assert_uint_eq(verdict.ack.rx_window_bytes, 4002);
    libcc_np_del(np);

    /* CP on a 100 Gbps port: a dequeued 1000 B packet gets one HPCC hop;
     * the next sees 1000 B + 8 B of that hop sent before it. */
    libcc_cp_info ci = {.switch_id = 2, .port_id = 5, .link_rate_bps = 100 * G, .rand = half};
    libcc_cp *cp;
    ck_assert_int_eq(libcc_cp_new(&cp, p, &ci), LIBCC_OK);
    ck_assert_uint_eq(libcc_cp_deadline_ns(cp), 1000);
    ck_assert_uint_eq(libcc_cp_max_feedback(cp), 1);
    libcc_int_list l;
    libcc_int_list_init(&l);
    libcc_cp_pkt pkt = {.kind = LIBCC_PKT_DATA, .bytes = 1000, .int_list = &l};
    ck_assert_int_eq(libcc_cp_on_dequeue(cp, 100, &pkt), LIBCC_OK);
    ck_assert_int_eq(pkt.int_stamped, 1);
    ck_assert_uint_eq(l.n_hops, 1);
    /* As HPCC's wire holds it: the port's rate has a code, no switch id. */
    ck_assert_uint_eq(l.hop[0].bandwidth_bps, 100 * G);
    libcc_cp_pkt next = {.kind = LIBCC_PKT_DATA, .bytes = 1000};
    ck_assert_int_eq(libcc_cp_on_dequeue(cp, 200, &next), LIBCC_OK);
    ck_assert_int_eq(next.send_feedback, 1);
    ck_assert_uint_eq(next.feedback_rate_bps, 1008);
    /* The timer: 0.5 x 100 Gbps = 50 Gbps to flow 3 (max_hops), next at 2000. */
    libcc_cp_feedback fb[1];
    size_t n;
    ck_assert_int_eq(libcc_cp_on_timer(cp, 1000, fb, 1, &n), LIBCC_OK);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(fb[0].flow_id, 3);
    ck_assert_uint_eq(fb[0].rate_bps, 50 * G);
    ck_assert_uint_eq(libcc_cp_deadline_ns(cp), 2000);
    /* 6,250 B in 1 us is 50 Gbit/s: half of the 100 Gbit/s port. */
    ck_assert(libcc_cp_mark_probability(cp, 6250) == 0.5);
    libcc_cp_del(cp);
    libcc_params_del(p);
    unregister_ok("check-access");
}
END_TEST

/* ---- refusals ----------------------------------------------------------- */

/* Each case: one change to a valid description, the code and a fragment
 * of the message it must give. */
static const libcc_param_desc p_dup[] = {
    {"rate", LIBCC_UNIT_BPS, 10e9, 1, 1e12, "x"},
    {"rate", LIBCC_UNIT_NS, 5000, 1, 1e9, "y"},
};
static const libcc_param_desc p_common[] = {{"max_hops", LIBCC_UNIT_COUNT, 5, 1, 8, "x"}};
static const libcc_param_desc p_preset[] = {{"preset", LIBCC_UNIT_COUNT, 5, 1, 8, "x"}};
static const libcc_param_desc p_min_def[] = {{"a", LIBCC_UNIT_COUNT, 0, 1, 8, "x"}};
static const libcc_param_desc p_def_max[] = {{"a", LIBCC_UNIT_COUNT, 9, 1, 8, "x"}};
static const libcc_param_desc p_nan[] = {{"a", LIBCC_UNIT_RATIO, NAN, 0, 1, "x"}};
static const libcc_param_desc p_unit[] = {{"a", (libcc_unit)6, 1, 0, 2, "x"}};
static const libcc_param_desc p_count[] = {{"a", LIBCC_UNIT_COUNT, 1.5, 0, 2, "x"}};
static const libcc_param_desc p_bool[] = {{"a", LIBCC_UNIT_BOOL, 0.5, 0, 1, "x"}};
static const libcc_param_desc p_noname[] = {{"", LIBCC_UNIT_COUNT, 1, 0, 2, "x"}};
static const libcc_param_desc p_nodoc[] = {{"a", LIBCC_UNIT_COUNT, 1, 0, 2, NULL}};
static const libcc_preset_desc ps_bad_value[] = {{"slow", "rate=fast", "x"}};
static const libcc_preset_desc ps_unknown[] = {{"slow", "speed=1Gbps", "x"}};
static const libcc_preset_desc ps_range[] = {{"slow", "rate=2Tbps", "x"}};
static const libcc_preset_desc ps_cfg[] = {{"lucky", "rate=7bps", "x"}};
static const libcc_preset_desc ps_self[] = {{"loop", "preset=loop", "x"}};
static const libcc_preset_desc ps_dup[] = {{"a", "rate=1Gbps", "x"}, {"a", "rate=2Gbps", "y"}};
static const libcc_param_desc p_unlucky[] = {{"rate", LIBCC_UNIT_BPS, 7, 1, 1e12, "x"},
                                             {"period", LIBCC_UNIT_NS, 5000, 1, 1e9, "x"}};
static const libcc_rp_ops rp_vars_no_reader = {.vars = steps_vars, .n_vars = 1};
static const libcc_rp_ops rp_reader_no_vars = {.read_vars = steps_read_vars};
static const libcc_rp_ops rp_huge = {.state_size = ((size_t)1 << 24) + 1};
static const libcc_np_ops np_any = {.flow_state_size = 8};
static const char name_32[] = "abcdefghijklmnopqrstuvwxyz012345"; /* 32 bytes */

enum change {
    C_ABI, C_NAME_NULL, C_NAME_EMPTY, C_NAME_LONG, C_NAME_UPPER, C_NAME_DIGIT, C_NAME_SPACE,
    C_NAME_TAKEN, C_RESERVED, C_ROLES_BITS, C_OPS_NO_ROLE, C_PINT_NO_SIGNAL, C_PINT_ZERO,
    C_PINT_17, C_INT_FORMAT, C_SIGNALS, C_CFG_BIG, C_CFG_NO_INIT, C_PARAMS_NULL, C_PARAMS_MANY,
    C_PARAM_DUP, C_PARAM_COMMON, C_PARAM_PRESET, C_PARAM_MIN, C_PARAM_MAX, C_PARAM_NAN,
    C_PARAM_UNIT, C_PARAM_COUNT, C_PARAM_BOOL, C_PARAM_NONAME, C_PARAM_NODOC, C_PRESETS_NULL,
    C_PRESET_VALUE, C_PRESET_UNKNOWN, C_PRESET_RANGE, C_PRESET_CFG, C_PRESET_SELF, C_PRESET_DUP,
    C_DEFAULTS_CFG, C_VARS_NO_READER, C_READER_NO_VARS, C_STATE_HUGE, N_CHANGES
};

static const struct refusal {
    int rc;
    const char *fragment;
} refusals[N_CHANGES] = {
    [C_ABI] = {LIBCC_ERR_ABI_MISMATCH, "built against algorithm ABI 2, this libcc speaks 1"},
    [C_NAME_NULL] = {LIBCC_ERR_BAD_DESCRIPTION, "algorithm name is NULL"},
    [C_NAME_EMPTY] = {LIBCC_ERR_BAD_DESCRIPTION, "algorithm name is empty"},
    [C_NAME_LONG] = {LIBCC_ERR_BAD_DESCRIPTION, "is 32 bytes, at most 31"},
    [C_NAME_UPPER] = {LIBCC_ERR_BAD_DESCRIPTION, "algorithm name 'Check': use lower-case"},
    [C_NAME_DIGIT] = {LIBCC_ERR_BAD_DESCRIPTION, "algorithm name '9check'"},
    [C_NAME_SPACE] = {LIBCC_ERR_BAD_DESCRIPTION, "algorithm name 'check steps'"},
    [C_NAME_TAKEN] = {LIBCC_ERR_EXISTS, "algorithm name 'hpcc' is already registered"},
    [C_RESERVED] = {LIBCC_ERR_BAD_DESCRIPTION, "reserved is 1, must be 0"},
    [C_ROLES_BITS] = {LIBCC_ERR_BAD_DESCRIPTION, "roles 0xd has bits beyond"},
    [C_OPS_NO_ROLE] = {LIBCC_ERR_BAD_DESCRIPTION, "np ops given but roles lack LIBCC_ROLE_NP"},
    [C_PINT_NO_SIGNAL] = {LIBCC_ERR_BAD_DESCRIPTION, "pint_bits 8 without LIBCC_SIGNAL_DATA_PINT"},
    [C_PINT_ZERO] = {LIBCC_ERR_BAD_DESCRIPTION, "pint_bits 0, with LIBCC_SIGNAL_DATA_PINT 1..16"},
    [C_PINT_17] = {LIBCC_ERR_BAD_DESCRIPTION, "pint_bits 17, with LIBCC_SIGNAL_DATA_PINT 1..16"},
    [C_INT_FORMAT] = {LIBCC_ERR_BAD_DESCRIPTION, "data_int 3 / ack_int 0"},
    [C_SIGNALS] = {LIBCC_ERR_BAD_DESCRIPTION, "signals 0x40 has bits beyond"},
    [C_CFG_BIG] = {LIBCC_ERR_BAD_DESCRIPTION, "cfg_size 257 exceeds LIBCC_ALGORITHM_CFG_MAX (256)"},
    [C_CFG_NO_INIT] = {LIBCC_ERR_BAD_DESCRIPTION, "cfg_size 16 without a cfg_init"},
    [C_PARAMS_NULL] = {LIBCC_ERR_BAD_DESCRIPTION, "n_params is 2 but params is NULL"},
    [C_PARAMS_MANY] = {LIBCC_ERR_BAD_DESCRIPTION, "46 parameters, at most 45"},
    [C_PARAM_DUP] = {LIBCC_ERR_BAD_DESCRIPTION, "parameter 'rate' appears twice"},
    [C_PARAM_COMMON] = {LIBCC_ERR_BAD_DESCRIPTION, "parameter 'max_hops' clashes with the common"},
    [C_PARAM_PRESET] = {LIBCC_ERR_BAD_DESCRIPTION, "parameter name 'preset' is reserved"},
    [C_PARAM_MIN] = {LIBCC_ERR_BAD_DESCRIPTION, "parameter 'a' needs min <= default <= max, has 1 <= 0 <= 8"},
    [C_PARAM_MAX] = {LIBCC_ERR_BAD_DESCRIPTION, "parameter 'a' needs min <= default <= max, has 1 <= 9 <= 8"},
    [C_PARAM_NAN] = {LIBCC_ERR_BAD_DESCRIPTION, "parameter 'a' has a NaN"},
    [C_PARAM_UNIT] = {LIBCC_ERR_BAD_DESCRIPTION, "parameter 'a' has unit 6, not a libcc_unit"},
    [C_PARAM_COUNT] = {LIBCC_ERR_BAD_DESCRIPTION, "parameter 'a' is a count with default 1.5"},
    [C_PARAM_BOOL] = {LIBCC_ERR_BAD_DESCRIPTION, "parameter 'a' is a boolean with default 0.5"},
    [C_PARAM_NONAME] = {LIBCC_ERR_BAD_DESCRIPTION, "parameter 0 has no name"},
    [C_PARAM_NODOC] = {LIBCC_ERR_BAD_DESCRIPTION, "parameter 'a' has no doc"},
    [C_PRESETS_NULL] = {LIBCC_ERR_BAD_DESCRIPTION, "n_presets is 1 but presets is NULL"},
    [C_PRESET_VALUE] = {LIBCC_ERR_BAD_DESCRIPTION,
                        "preset 'slow' does not apply over the defaults: parameter 'rate' of "
                        "'check-steps': cannot parse 'fast'"},
    [C_PRESET_UNKNOWN] = {LIBCC_ERR_BAD_DESCRIPTION, "unknown parameter 'speed'"},
    [C_PRESET_RANGE] = {LIBCC_ERR_BAD_DESCRIPTION, "preset 'slow' does not apply over the defaults: "
                                                   "parameter 'rate' of 'check-steps': 2Tbps is out of range"},
    [C_PRESET_CFG] = {LIBCC_ERR_BAD_DESCRIPTION, "preset 'lucky' does not apply over the defaults: "
                                                 "parameter 'rate' of 'check-steps': 7 bps is unlucky"},
    [C_PRESET_SELF] = {LIBCC_ERR_BAD_DESCRIPTION, "preset 'loop' may not select a preset"},
    [C_PRESET_DUP] = {LIBCC_ERR_BAD_DESCRIPTION, "preset 'a' appears twice"},
    [C_DEFAULTS_CFG] = {LIBCC_ERR_BAD_DESCRIPTION, "its defaults do not make a configuration"},
    [C_VARS_NO_READER] = {LIBCC_ERR_BAD_DESCRIPTION, "rp vars need all of vars, n_vars > 0 and read_vars"},
    [C_READER_NO_VARS] = {LIBCC_ERR_BAD_DESCRIPTION, "rp vars need all of vars, n_vars > 0 and read_vars"},
    [C_STATE_HUGE] = {LIBCC_ERR_BAD_DESCRIPTION, "rp state size 16777217 exceeds 16777216 bytes"},
};

static libcc_algorithm changed(enum change c)
{
    libcc_algorithm a = steps;
    switch (c) {
    case C_ABI: a.abi_version = 2; break;
    case C_NAME_NULL: a.name = NULL; break;
    case C_NAME_EMPTY: a.name = ""; break;
    case C_NAME_LONG: a.name = name_32; break;
    case C_NAME_UPPER: a.name = "Check"; break;
    case C_NAME_DIGIT: a.name = "9check"; break;
    case C_NAME_SPACE: a.name = "check steps"; break;
    case C_NAME_TAKEN: a.name = "hpcc"; break;
    case C_RESERVED: a.reserved = 1; break;
    case C_ROLES_BITS: a.roles = 0x8 | LIBCC_ROLE_RP | LIBCC_ROLE_CP; break;
    case C_OPS_NO_ROLE: a.np = &np_any; break;
    case C_PINT_NO_SIGNAL: a.pint_bits = 8; break;
    case C_PINT_ZERO: a.signals = LIBCC_SIGNAL_DATA_PINT; break;
    case C_PINT_17: a.signals = LIBCC_SIGNAL_DATA_PINT; a.pint_bits = 17; break;
    case C_INT_FORMAT: a.data_int = (libcc_int_format)3; break;
    case C_SIGNALS: a.signals = 0x40; break;
    case C_CFG_BIG: a.cfg_size = 257; break;
    case C_CFG_NO_INIT: a.cfg_init = NULL; break;
    case C_PARAMS_NULL: a.params = NULL; break;
    case C_PARAMS_MANY: a.n_params = 46; break;
    case C_PARAM_DUP: a.params = p_dup; break;
    case C_PARAM_COMMON: a.params = p_common; a.n_params = 1; break;
    case C_PARAM_PRESET: a.params = p_preset; a.n_params = 1; break;
    case C_PARAM_MIN: a.params = p_min_def; a.n_params = 1; break;
    case C_PARAM_MAX: a.params = p_def_max; a.n_params = 1; break;
    case C_PARAM_NAN: a.params = p_nan; a.n_params = 1; break;
    case C_PARAM_UNIT: a.params = p_unit; a.n_params = 1; break;
    case C_PARAM_COUNT: a.params = p_count; a.n_params = 1; break;
    case C_PARAM_BOOL: a.params = p_bool; a.n_params = 1; break;
    case C_PARAM_NONAME: a.params = p_noname; a.n_params = 1; break;
    case C_PARAM_NODOC: a.params = p_nodoc; a.n_params = 1; break;
    case C_PRESETS_NULL: a.presets = NULL; break;
    case C_PRESET_VALUE: a.presets = ps_bad_value; break;
    case C_PRESET_UNKNOWN: a.presets = ps_unknown; break;
    case C_PRESET_RANGE: a.presets = ps_range; break;
    case C_PRESET_CFG: a.presets = ps_cfg; break;
    case C_PRESET_SELF: a.presets = ps_self; break;
    case C_PRESET_DUP: a.presets = ps_dup; a.n_presets = 2; break;
    case C_DEFAULTS_CFG: a.params = p_unlucky; break;
    case C_VARS_NO_READER: a.rp = &rp_vars_no_reader; break;
    case C_READER_NO_VARS: a.rp = &rp_reader_no_vars; break;
    case C_STATE_HUGE: a.rp = &rp_huge; break;
    case N_CHANGES: break;
    }
    return a;
}

START_TEST(each_bad_description_is_refused)
{
    const enum change c = (enum change)_i;
    const libcc_algorithm a = changed(c);
    const size_t before = n_listed();
    char err[512] = "";
    int rc = libcc_algorithm_register(&a, err, sizeof err);
    ck_assert_msg(rc == refusals[c].rc, "change %d: rc %d (%s), expected %d", (int)c, rc, err,
                  refusals[c].rc);
    ck_assert_msg(strstr(err, refusals[c].fragment) != NULL, "change %d: message '%s' lacks '%s'",
                  (int)c, err, refusals[c].fragment);
    ck_assert_msg(strchr(err, '\n') == NULL, "one line: '%s'", err);
    ck_assert_uint_eq(n_listed(), before); /* nothing was registered */
    ck_assert(!listed("check-steps"));
}
END_TEST

/* The valid description those changes start from registers, and a name at
 * the longest allowed length too: each refusal above is for its change. */
START_TEST(boundaries_are_accepted)
{
    libcc_algorithm a = steps;
    register_ok(&a);
    unregister_ok("check-steps");
    static const char name_31[] = "abcdefghijklmnopqrstuvwxyz-+_01"; /* 31 bytes */
    a.name = name_31;
    a.signals = LIBCC_SIGNAL_DATA_PINT;
    a.pint_bits = 16;
    a.cfg_size = LIBCC_ALGORITHM_CFG_MAX;
    register_ok(&a);
    unregister_ok(name_31);
    ck_assert_int_eq(libcc_algorithm_register(NULL, NULL, 0), LIBCC_ERR_INVALID_ARG);
    char err[64];
    ck_assert_int_eq(libcc_algorithm_register(NULL, err, sizeof err), LIBCC_ERR_INVALID_ARG);
    ck_assert_str_eq(err, "algorithm description is NULL");
}
END_TEST

/* 64 slots: the twelve built-ins and 52 more fill the table. */
START_TEST(full_table)
{
    static libcc_algorithm many[LIBCC_ALGORITHM_MAX];
    static char names[LIBCC_ALGORITHM_MAX][24];
    const size_t free_slots = LIBCC_ALGORITHM_MAX - n_listed();
    ck_assert_uint_eq(free_slots, LIBCC_ALGORITHM_MAX - 12);
    for (size_t i = 0; i <= free_slots; i++) {
        snprintf(names[i], sizeof names[i], "check-%zu", i);
        many[i] = steps;
        many[i].name = names[i];
    }
    for (size_t i = 0; i < free_slots; i++)
        register_ok(&many[i]);
    ck_assert_uint_eq(n_listed(), LIBCC_ALGORITHM_MAX);
    char err[256];
    ck_assert_int_eq(libcc_algorithm_register(&many[free_slots], err, sizeof err), LIBCC_ERR_FULL);
    ck_assert_str_eq(err, "cannot register 'check-52': 64 algorithms are registered, the most libcc "
                          "holds");
    /* A freed slot takes the next one. */
    unregister_ok("check-0");
    register_ok(&many[free_slots]);
    unregister_ok(names[free_slots]);
    for (size_t i = 1; i < free_slots; i++)
        unregister_ok(names[i]);
    ck_assert_uint_eq(n_listed(), 12);
}
END_TEST

/* Threads registering, using and unregistering algorithms at once: the
 * registry's lock keeps every slot to one algorithm, so each thread finds
 * its own algorithm every time and none is lost or doubled. */
#define RACE_THREADS 4
#define RACE_ROUNDS 200

static void *race(void *arg)
{
    const libcc_algorithm *a = arg;
    for (int i = 0; i < RACE_ROUNDS; i++) {
        libcc_params *p;
        if (libcc_algorithm_register(a, NULL, 0) != LIBCC_OK ||
            libcc_params_new(&p, a->name) != LIBCC_OK)
            return (void *)1;
        const int busy = libcc_algorithm_unregister(a->name);
        libcc_params_del(p);
        if (busy != LIBCC_ERR_BUSY || libcc_algorithm_unregister(a->name) != LIBCC_OK)
            return (void *)1;
    }
    return NULL;
}

START_TEST(concurrent_registration)
{
    static libcc_algorithm racers[RACE_THREADS];
    static char names[RACE_THREADS][24];
    pthread_t t[RACE_THREADS];
    for (int i = 0; i < RACE_THREADS; i++) {
        snprintf(names[i], sizeof names[i], "check-race-%d", i);
        racers[i] = steps;
        racers[i].name = names[i];
        ck_assert_int_eq(pthread_create(&t[i], NULL, race, &racers[i]), 0);
    }
    for (int i = 0; i < RACE_THREADS; i++) {
        void *failed;
        ck_assert_int_eq(pthread_join(t[i], &failed), 0);
        ck_assert_msg(failed == NULL, "thread %d saw the registry lose or double its algorithm", i);
    }
    ck_assert_uint_eq(n_listed(), 12);
}
END_TEST

/* ---- unregistering ------------------------------------------------------ */

START_TEST(unregister_errors)
{
    ck_assert_int_eq(libcc_algorithm_unregister(NULL), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_algorithm_unregister("check-steps"), LIBCC_ERR_UNKNOWN_ALGORITHM);
    /* Built-ins stay: every program may rely on them. */
    for (const char *const *n = libcc_algorithms(); *n; n++)
        ck_assert_int_eq(libcc_algorithm_unregister(*n), LIBCC_ERR_INVALID_ARG);
    ck_assert_uint_eq(n_listed(), 12);
}
END_TEST

/* Anything made of an algorithm keeps it registered: params (and their
 * copies), RPs (in libcc's memory or the host's), NPs and CPs. */
START_TEST(busy_while_used)
{
    register_ok(&steps);
    libcc_params *p, *copy;
    ck_assert_int_eq(libcc_params_new(&p, "check-steps"), LIBCC_OK);
    ck_assert_int_eq(libcc_algorithm_unregister("check-steps"), LIBCC_ERR_BUSY);
    ck_assert_int_eq(libcc_params_copy(&copy, p), LIBCC_OK);
    libcc_params_del(p);
    ck_assert_int_eq(libcc_algorithm_unregister("check-steps"), LIBCC_ERR_BUSY); /* the copy */

    libcc_flow_info flow = {.line_rate_bps = 25 * G};
    libcc_rp *rp, *host_rp;
    ck_assert_int_eq(libcc_rp_new(&rp, copy, &flow, NULL, NULL, 0), LIBCC_OK);
    const size_t sz = libcc_rp_size(copy);
    void *mem = aligned_alloc(16, sz);
    ck_assert_int_eq(libcc_rp_init(mem, sz, copy, &flow, NULL, NULL, 0, &host_rp), LIBCC_OK);
    libcc_np_info ni = {.max_flows = 2, .line_rate_bps = 25 * G};
    libcc_np *np;
    ck_assert_int_eq(libcc_np_new(&np, copy, &ni, NULL, NULL), LIBCC_OK);
    libcc_cp_info ci = {.link_rate_bps = 25 * G};
    libcc_cp *cp;
    ck_assert_int_eq(libcc_cp_new(&cp, copy, &ci), LIBCC_OK);
    libcc_params_del(copy);

    /* Released one by one: busy until the last goes. */
    ck_assert_int_eq(libcc_algorithm_unregister("check-steps"), LIBCC_ERR_BUSY);
    libcc_rp_del(rp);
    ck_assert_int_eq(libcc_algorithm_unregister("check-steps"), LIBCC_ERR_BUSY);
    libcc_np_del(np);
    ck_assert_int_eq(libcc_algorithm_unregister("check-steps"), LIBCC_ERR_BUSY);
    libcc_cp_del(cp);
    ck_assert_int_eq(libcc_algorithm_unregister("check-steps"), LIBCC_ERR_BUSY);
    libcc_rp_del(host_rp);
    libcc_rp_del(host_rp); /* a second del of a dead RP releases nothing */
    free(mem);
    unregister_ok("check-steps");
}
END_TEST

/* A failed construction takes no reference. */
START_TEST(failed_construction_keeps_no_reference)
{
    register_ok(&steps);
    libcc_params *p;
    ck_assert_int_eq(libcc_params_new(&p, "check-steps"), LIBCC_OK);
    libcc_flow_info no_rate = {.line_rate_bps = 0};
    libcc_rp *rp;
    ck_assert_int_eq(libcc_rp_new(&rp, p, &no_rate, NULL, NULL, 0), LIBCC_ERR_INVALID_ARG);
    libcc_np_info no_flows = {.max_flows = 0, .line_rate_bps = 25 * G};
    libcc_np *np;
    ck_assert_int_eq(libcc_np_new(&np, p, &no_flows, NULL, NULL), LIBCC_ERR_INVALID_ARG);
    libcc_cp_info no_link = {.link_rate_bps = 0};
    libcc_cp *cp;
    ck_assert_int_eq(libcc_cp_new(&cp, p, &no_link), LIBCC_ERR_INVALID_ARG);
    libcc_params_del(p);
    unregister_ok("check-steps");
}
END_TEST

START_TEST(new_error_codes_have_text)
{
    static const int codes[] = {LIBCC_ERR_EXISTS, LIBCC_ERR_BAD_DESCRIPTION, LIBCC_ERR_ABI_MISMATCH,
                                LIBCC_ERR_BUSY, LIBCC_ERR_PLUGIN};
    static const char *const words[] = {"already registered", "description", "ABI", "in use",
                                        "plugin"};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        ck_assert_msg(strstr(libcc_strerror(codes[i]), words[i]) != NULL, "%d: %s", codes[i],
                      libcc_strerror(codes[i]));
    ck_assert_str_eq(libcc_strerror(-19), "unknown libcc error code");
}
END_TEST

/* ---- plugins ------------------------------------------------------------ */

static char plugin_path[512];

static const char *plugin(const char *name)
{
    const char *dir = getenv("LIBCC_TEST_PLUGINS");
    ck_assert_msg(dir != NULL, "LIBCC_TEST_PLUGINS is not set (make test-check sets it)");
    snprintf(plugin_path, sizeof plugin_path, "%s/%s.so", dir, name);
    return plugin_path;
}

/* Loading plugin `name` gives rc and the message "PATH: reason". */
static void load_fails(const char *name, int rc, const char *reason)
{
    const char *path = plugin(name);
    char err[512], want[600];
    ck_assert_int_eq(libcc_plugin_load(path, err, sizeof err), rc);
    snprintf(want, sizeof want, "%s: %s", path, reason);
    ck_assert_str_eq(err, want);
}

static int cnp_calls;
static uint64_t cnp_flow, np_deadline;
static int np_deadline_calls;

static void np_cnp(libcc_np *np, uint64_t now, uint64_t flow_id, void *u)
{
    (void)np;
    (void)now;
    (void)u;
    cnp_calls++;
    cnp_flow = flow_id;
}

static void np_dl(libcc_np *np, uint64_t d, void *u)
{
    (void)np;
    (void)u;
    np_deadline = d;
    np_deadline_calls++;
}

/* The plugin's NP arms its timer `delay` (10 us) after each packet, the
 * earliest winning; at the deadline it asks for a CNP for flow 0. */
START_TEST(plugin_loads_and_its_np_timer_fires)
{
    const char *path = plugin("timer_plugin");
    char err[512] = "untouched";
    ck_assert_int_eq(libcc_plugin_load(path, err, sizeof err), LIBCC_OK);
    ck_assert_str_eq(err, "");
    ck_assert(listed("plugin-timer"));
    libcc_algorithm_info info;
    ck_assert_int_eq(libcc_algorithm_info_get("plugin-timer", &info), LIBCC_OK);
    ck_assert_uint_eq(info.roles, LIBCC_ROLE_RP | LIBCC_ROLE_NP);

    libcc_params *p;
    ck_assert_int_eq(libcc_params_new(&p, "plugin-timer"), LIBCC_OK);
    cnp_calls = np_deadline_calls = 0;
    libcc_np_callbacks cbs = {.send_cnp = np_cnp, .deadline_changed = np_dl};
    libcc_np_info ni = {.max_flows = 4, .line_rate_bps = 100 * G};
    libcc_np *np;
    ck_assert_int_eq(libcc_np_new(&np, p, &ni, &cbs, NULL), LIBCC_OK);
    ck_assert_uint_eq(libcc_np_deadline_ns(np), LIBCC_NO_DEADLINE);
    libcc_data_pkt d = {.flow_id = 7, .bytes = 1000};
    libcc_np_verdict v;
    ck_assert_int_eq(libcc_np_on_data(np, 1000, &d, &v), LIBCC_OK);
    ck_assert_uint_eq(libcc_np_deadline_ns(np), 11000);
    ck_assert_uint_eq(np_deadline, 11000);
    ck_assert_int_eq(np_deadline_calls, 1);
    /* Later data wants 12000: the earlier deadline stays, no callback. */
    ck_assert_int_eq(libcc_np_on_data(np, 2000, &d, &v), LIBCC_OK);
    ck_assert_uint_eq(libcc_np_deadline_ns(np), 11000);
    ck_assert_int_eq(np_deadline_calls, 1);
    /* Early: nothing is due. */
    ck_assert_int_eq(libcc_np_on_timer(np, 5000), LIBCC_OK);
    ck_assert_int_eq(cnp_calls, 0);
    ck_assert_uint_eq(libcc_np_deadline_ns(np), 11000);
    /* Due: one CNP, and no deadline after it. */
    ck_assert_int_eq(libcc_np_on_timer(np, 11000), LIBCC_OK);
    ck_assert_int_eq(cnp_calls, 1);
    ck_assert_uint_eq(cnp_flow, 0);
    ck_assert_uint_eq(libcc_np_deadline_ns(np), LIBCC_NO_DEADLINE);
    ck_assert_uint_eq(np_deadline, LIBCC_NO_DEADLINE);
    ck_assert_int_eq(np_deadline_calls, 2);

    /* Its RP halves the rate on a CNP: 100 G -> 50 G. */
    libcc_flow_info flow = {.line_rate_bps = 100 * G};
    libcc_rp *rp;
    ck_assert_int_eq(libcc_rp_new(&rp, p, &flow, NULL, NULL, 0), LIBCC_OK);
    ck_assert_int_eq(libcc_rp_on_cnp(rp, 100), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), 50 * G);

    /* Loaded again: the same file's entry point registers the name again. */
    load_fails("timer_plugin", LIBCC_ERR_EXISTS, "algorithm name 'plugin-timer' is already registered");

    libcc_rp_del(rp);
    libcc_np_del(np);
    ck_assert_int_eq(libcc_algorithm_unregister("plugin-timer"), LIBCC_ERR_BUSY);
    libcc_params_del(p);
    unregister_ok("plugin-timer");
}
END_TEST

START_TEST(plugin_with_other_abi_is_refused)
{
    load_fails("abi_plugin", LIBCC_ERR_ABI_MISMATCH, "built against algorithm ABI 2, this libcc speaks 1");
    ck_assert(!listed("plugin-future"));
}
END_TEST

START_TEST(plugin_without_entry_is_refused)
{
    load_fails("noentry_plugin", LIBCC_ERR_PLUGIN, "no libcc_plugin_init symbol");
}
END_TEST

/* RTLD_NOW: a missing function is found at load, and named. */
START_TEST(plugin_with_missing_symbol_is_refused)
{
    const char *path = plugin("undef_plugin");
    char err[512];
    ck_assert_int_eq(libcc_plugin_load(path, err, sizeof err), LIBCC_ERR_PLUGIN);
    ck_assert_msg(strncmp(err, path, strlen(path)) == 0 && err[strlen(path)] == ':', "%s", err);
    ck_assert_msg(strstr(err, "undefined symbol: libcc_no_such_function") != NULL, "%s", err);
    /* The path once, not dlerror's repetition of it. */
    ck_assert_msg(strstr(err + strlen(path), path) == NULL, "%s", err);
}
END_TEST

START_TEST(plugin_file_errors)
{
    char err[512];
    const char *missing = "/nonexistent/dir/plugin.so";
    ck_assert_int_eq(libcc_plugin_load(missing, err, sizeof err), LIBCC_ERR_PLUGIN);
    ck_assert_str_eq(err, "/nonexistent/dir/plugin.so: cannot open shared object file: No such "
                          "file or directory");
    /* Not a shared object: a C source file. */
    const char *src = getenv("LIBCC_SRCDIR");
    ck_assert_ptr_nonnull(src);
    char path[512];
    snprintf(path, sizeof path, "%s/tests/check/plugins/timer_plugin.c", src);
    ck_assert_int_eq(libcc_plugin_load(path, err, sizeof err), LIBCC_ERR_PLUGIN);
    ck_assert_msg(strncmp(err, path, strlen(path)) == 0, "%s", err);
    ck_assert_msg(strstr(err, "invalid ELF header") != NULL, "%s", err);
    ck_assert_int_eq(libcc_plugin_load(NULL, err, sizeof err), LIBCC_ERR_INVALID_ARG);
    ck_assert_str_eq(err, "plugin path is NULL");
    ck_assert_int_eq(libcc_plugin_load("", NULL, 0), LIBCC_ERR_INVALID_ARG);
}
END_TEST

Suite *algorithm_suite(void)
{
    Suite *s = suite_create("algorithm");
    TCase *t = tcase_create("register");
    tcase_add_test(t, registered_algorithm_works_as_a_builtin);
    tcase_add_test(t, rp_size_null_covers_registered);
    tcase_add_test(t, exported_accessors);
    tcase_add_loop_test(t, each_bad_description_is_refused, 0, N_CHANGES);
    tcase_add_test(t, boundaries_are_accepted);
    tcase_add_test(t, full_table);
    tcase_add_test(t, concurrent_registration);
    tcase_add_test(t, new_error_codes_have_text);
    suite_add_tcase(s, t);
    t = tcase_create("unregister");
    tcase_add_test(t, unregister_errors);
    tcase_add_test(t, busy_while_used);
    tcase_add_test(t, failed_construction_keeps_no_reference);
    suite_add_tcase(s, t);
    t = tcase_create("plugin");
    tcase_add_test(t, plugin_loads_and_its_np_timer_fires);
    tcase_add_test(t, plugin_with_other_abi_is_refused);
    tcase_add_test(t, plugin_without_entry_is_refused);
    tcase_add_test(t, plugin_with_missing_symbol_is_refused);
    tcase_add_test(t, plugin_file_errors);
    suite_add_tcase(s, t);
    return s;
}
