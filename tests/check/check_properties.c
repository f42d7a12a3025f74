/* SPDX-License-Identifier: MIT */
/* Properties every algorithm keeps whatever legal events it gets: random
 * sequences (CNPs, ACKs with INT whose counters wrap, link-rate and hop-count
 * changes, huge N, timers at their deadlines, the clock's top) from a fixed
 * seed, checked after every call:
 *   - the rate is within [the algorithm's floor, line rate],
 *   - the window is within its bounds (unlimited for rate-only algorithms),
 *   - the deadline is never in the past, and a timer fired at its deadline
 *     moves it forward (or cancels it): a host loop always advances.
 * The generator is local and seeded so a failure replays exactly: the
 * message gives the algorithm, the run and the step. */
#include <check.h>
#include <libcc/libcc.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* xorshift64*: deterministic on every platform, no libc state. */
typedef struct prng {
    uint64_t s;
} prng;

static uint64_t next_u64(prng *g)
{
    g->s ^= g->s >> 12;
    g->s ^= g->s << 25;
    g->s ^= g->s >> 27;
    return g->s * UINT64_C(2685821657736338717);
}

static uint64_t below(prng *g, uint64_t n)
{
    return n ? next_u64(g) % n : 0;
}

static uint64_t pick_u64(prng *g, const uint64_t *v, size_t n)
{
    return v[below(g, n)];
}

static const char *pick_str(prng *g, const char *const *v, size_t n)
{
    return v[below(g, n)];
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ck_assert marks a checkpoint through a pipe on every call, even when it
 * holds: a million checks would cost seconds of system time. */
#define REQUIRE(cond, ...)                                                                      \
    do {                                                                                        \
        if (!(cond))                                                                            \
            ck_abort_msg(__VA_ARGS__);                                                          \
    } while (0)

/* Parameter sets per algorithm: the defaults, presets and the options that
 * change which code runs. */
static const char *const dcqcn_sets[] = {
    "",
    "preset=paper",
    "preset=hpcc-sim",
    "rate_reduce_monitor_period=0ns",
    "cut_on_cnp=1",
    "rpg_byte_reset=1B rpg_threshold=1 rpg_hai_scale_by_stage=1",
    "rate_to_set_on_first_cnp=1Gbps clamp_tgt_rate=1 rpg_gd=0 initial_alpha=0",
    "increase_kind_by_timer=1 rpg_min_rate=1bps rpg_min_dec_fac=0 g=1",
};
static const char *const hpcc_sets[] = {"", "eta=0.5 max_stage=0", "w_ai=1B expected_flows=1",
                                        "base_rtt=1ns", "max_hops=1"};
static const char *const pp_sets[] = {
    "", "telemetry=1 int_interval=3", "telemetry=2", "rx_hpcc=1", "receiver_n=1",
    "telemetry=2 receiver_n=1 w_ai=0B expected_flows=1000000",
};
static const char *const fncc_sets[] = {"", "lhcs=0", "alpha=0 beta=0.01", "table_refresh=1us"};
static const char *const none_sets[] = {""};
static const char *const dctcp_sets[] = {
    "", "preset=paper", "window=0", "g=1 initial_alpha=0", "g=0 min_rate=1bps rate_ai=1Tbps",
    "preset=paper base_rtt=1ns", "window=1 base_rtt=1s",
};
static const char *const timely_sets[] = {
    "", "preset=hpcc-sim", "t_low=0ns t_high=1ns min_rtt=1ns", "alpha=1 beta=1 min_rate=1bps",
    "hai_thresh=0 hai_delta=1Tbps delta=1Tbps", "t_low=1s t_high=1s",
};
static const char *const swift_sets[] = {
    "", "endpoint_target=0ns", "min_cwnd=0.000001 max_cwnd=0.5", "ai=1000000 max_cwnd=1000000000",
    "beta=1 max_mdf=1 fs_range=1s hop_scale=100ms", "base_target=1ns fs_range=0ns",
};
static const char *const ptcp_sets[] = {
    "", "preset=hpcc-sim", "gamma=1 eta=0.01", "gamma=0 beta_rate=1Tbps", "eta=2 min_current=1",
    "base_rtt=1ns", "max_hops=1",
};
static const char *const theta_sets[] = {
    "", "preset=hpcc-sim", "gamma=1 eta=0.01 track_min_rtt=1", "beta_rate=0bps min_current=0",
    "base_rtt=1ns",
};
static const char *const pint_sets[] = {
    "", "preset=hpcc-sim", "log_base=1.001 max_flows=65535", "log_base=2 max_flows=1 sample_prob=0",
    "eta=0.01 max_stage=1000", "base_rtt=1ns",
};
static const char *const rocc_sets[] = {"", "recovery=1ns", "recovery=1s f_min=1bps rate_unit=1bps",
                                         "apply_delay=15us max_flows=1"};

/* What the window may be. */
enum {
    WIN_UNLIMITED = 0, /* rate-only algorithms */
    WIN_HPCC,          /* HPCC family: in [min(mtu, W_init), W_init] */
    WIN_FINITE,        /* some window or none: at least 1 byte (saturated if the BDP exceeds 2^64) */
};

typedef struct algo_case {
    const char *name;
    const char *const *sets;
    size_t n_sets;
    int window_kind; /* WIN_* */
} algo_case;

static const algo_case algos[] = {
    {"dcqcn", dcqcn_sets, COUNT(dcqcn_sets), WIN_UNLIMITED},
    {"hpcc", hpcc_sets, COUNT(hpcc_sets), WIN_HPCC},
    {"hpcc++", pp_sets, COUNT(pp_sets), WIN_HPCC},
    {"fncc", fncc_sets, COUNT(fncc_sets), WIN_HPCC},
    {"none", none_sets, COUNT(none_sets), WIN_UNLIMITED},
    {"dctcp", dctcp_sets, COUNT(dctcp_sets), WIN_FINITE},
    {"timely", timely_sets, COUNT(timely_sets), WIN_UNLIMITED},
    {"swift", swift_sets, COUNT(swift_sets), WIN_FINITE},
    {"powertcp", ptcp_sets, COUNT(ptcp_sets), WIN_HPCC},
    {"theta-powertcp", theta_sets, COUNT(theta_sets), WIN_HPCC},
    {"hpcc-pint", pint_sets, COUNT(pint_sets), WIN_HPCC},
    {"rocc", rocc_sets, COUNT(rocc_sets), WIN_UNLIMITED},
};

/* What a host sees of one RP, through the callbacks. */
typedef struct host {
    uint64_t deadline;
    unsigned probes;
} host;

static void on_deadline(libcc_rp *rp, uint64_t d, void *ud)
{
    (void)rp;
    ((host *)ud)->deadline = d;
}

static void on_probe(libcc_rp *rp, uint64_t now, void *ud)
{
    (void)rp;
    (void)now;
    ((host *)ud)->probes++;
}

/* One switch port as INT describes it; counters wrap at their widths. */
typedef struct port {
    uint64_t bw, ts, tx, q;
} port;

typedef struct run {
    const algo_case *a;
    const char *set;
    unsigned id;
    libcc_rp *rp;
    host h;
    uint64_t now, line, rtt, mtu, min_rate;
    double w_init;
    uint64_t snd_nxt;
    unsigned n_hops, max_hops, ts_bits, tx_bits;
    port ports[LIBCC_INT_MAX_HOPS];
} run;

static uint64_t mask(uint64_t v, unsigned bits)
{
    return bits >= 64 ? v : v & ((UINT64_C(1) << bits) - 1);
}

static void check_state(const run *r, unsigned step, const char *ev)
{
    const uint64_t rate = libcc_rp_rate_bps(r->rp), win = libcc_rp_window_bytes(r->rp),
                   d = libcc_rp_deadline_ns(r->rp);
    REQUIRE(rate >= r->min_rate && rate <= r->line,
                  "%s [%s] run %u step %u (%s): rate %llu outside [%llu, %llu]", r->a->name, r->set,
                  r->id, step, ev, (unsigned long long)rate, (unsigned long long)r->min_rate,
                  (unsigned long long)r->line);
    if (r->a->window_kind == WIN_FINITE) {
        REQUIRE(win >= 1, "%s [%s] run %u step %u (%s): window %llu", r->a->name, r->set, r->id, step,
                ev, (unsigned long long)win);
    } else if (r->a->window_kind == WIN_HPCC) {
        /* W in [min(mtu, W_init), W_init], rounded; above 2^64 B it saturates */
        const double lo = fmin((double)r->mtu, r->w_init);
        const int ok = r->w_init >= 0x1p64 ? (win == UINT64_MAX || (double)win >= floor(lo))
                                           : ((double)win >= floor(lo) && (double)win <= ceil(r->w_init));
        REQUIRE(ok, "%s [%s] run %u step %u (%s): window %llu outside [%g, %g]", r->a->name,
                      r->set, r->id, step, ev, (unsigned long long)win, lo, r->w_init);
    } else {
        REQUIRE(win == LIBCC_WINDOW_UNLIMITED, "%s run %u step %u: window %llu", r->a->name,
                      r->id, step, (unsigned long long)win);
    }
    REQUIRE(d == LIBCC_NO_DEADLINE || d >= r->now,
                  "%s [%s] run %u step %u (%s): deadline %llu before now %llu", r->a->name, r->set,
                  r->id, step, ev, (unsigned long long)d, (unsigned long long)r->now);
    REQUIRE(d == r->h.deadline, "%s run %u step %u: callback said %llu, getter %llu",
                  r->a->name, r->id, step, (unsigned long long)r->h.deadline,
                  (unsigned long long)d);
}

static void new_path(run *r, prng *g)
{
    static const uint64_t rates[] = {10000000000ull, 25000000000ull, 100000000000ull,
                                     400000000000ull, 1000000ull};
    r->n_hops = 1 + (unsigned)below(g, r->max_hops);
    for (unsigned i = 0; i < r->n_hops; i++) {
        r->ports[i].bw = pick_u64(g, rates, COUNT(rates));
        r->ports[i].ts = next_u64(g);
        r->ports[i].tx = next_u64(g);
        r->ports[i].q = 0;
    }
}

/* The INT an ACK carries: each port advanced by dt of its clock with at most
 * its line rate of bytes, counters truncated to the wire's widths. */
static void fill_ints(run *r, prng *g, libcc_int_list *l)
{
    libcc_int_list_init(l);
    l->ts_bits = (uint8_t)r->ts_bits;
    l->tx_bits = (uint8_t)r->tx_bits;
    for (unsigned i = 0; i < r->n_hops; i++) {
        port *p = &r->ports[i];
        /* well inside half a wrap of both counters (more reads as backwards),
         * and small enough that dt * B stays a uint64_t */
        const unsigned small = r->ts_bits < r->tx_bits ? r->ts_bits : r->tx_bits;
        uint64_t dt = below(g, 4) ? below(g, UINT64_C(1) << (small < 40 ? small - 3 : 37)) : 0;
        uint64_t max_tx = (uint64_t)((double)p->bw / 8e9 * (double)dt);
        p->ts += dt;
        p->tx += below(g, max_tx + 1);
        if (below(g, 3) == 0)
            p->q = below(g, 4) ? below(g, 200000) : below(g, UINT64_C(1) << 32);
        libcc_int_hop h;
        memset(&h, 0, sizeof h);
        h.bandwidth_bps = p->bw;
        h.ts_ns = mask(p->ts, r->ts_bits);
        h.tx_bytes = mask(p->tx, r->tx_bits);
        h.qlen_bytes = p->q;
        h.switch_id = i;
        REQUIRE(libcc_int_list_push(l, &h, LIBCC_INT_MAX_HOPS) == LIBCC_OK, "push");
    }
}

/* RTT samples and NIC timestamps as a host may give them: mostly around a
 * path's RTT, sometimes 0, sometimes as long as the time since the clock's
 * origin (never after the ACK's arrival: the core refuses those), remote
 * stamps of any receiver clock, any hop count and PINT value. */
static void fill_timestamps(run *r, prng *g, uint64_t t, libcc_ack *ack)
{
    (void)r;
    if (below(g, 4)) {
        uint64_t rtt;
        switch (below(g, 4)) {
        case 0: rtt = 0; break;
        case 1: rtt = t; break;
        case 2: rtt = below(g, 1000000); break;
        default: rtt = 5000 + below(g, 100000); break;
        }
        if (rtt > t)
            rtt = t;
        ack->has |= LIBCC_ACK_HAS_TX_TS;
        ack->tx_ts_ns = t - rtt;
        if (below(g, 4) == 0) {
            ack->has |= LIBCC_ACK_HAS_RX_TS;
            ack->rx_ts_ns = t - below(g, rtt + 1) / 2;
            if (ack->rx_ts_ns < ack->tx_ts_ns)
                ack->rx_ts_ns = ack->tx_ts_ns;
        }
    }
    if (below(g, 3) == 0) {
        ack->has |= LIBCC_ACK_HAS_REMOTE_TS;
        ack->remote_rx_ts_ns = next_u64(g) >> (below(g, 2) ? 1 : 20);
        uint64_t d = below(g, 4) ? below(g, 20000) : next_u64(g);
        ack->remote_tx_ts_ns = d > UINT64_MAX - ack->remote_rx_ts_ns ? UINT64_MAX : ack->remote_rx_ts_ns + d;
    }
    ack->n_hops = (uint8_t)(below(g, 4) ? below(g, 8) : below(g, 256));
    if (below(g, 2)) {
        ack->has |= LIBCC_ACK_HAS_PINT;
        ack->pint = (uint16_t)next_u64(g);
    }
}

static void one_run(const algo_case *a, unsigned id, prng *g, unsigned steps)
{
    static const uint64_t lines[] = {1000000000ull, 25000000000ull, 100000000000ull,
                                     400000000000ull, UINT64_MAX};
    static const uint64_t rtts[] = {0, 1, 12000, 1000000, UINT64_MAX};
    static const uint64_t mtus[] = {0, 1, 1000, 9000};
    run r;
    memset(&r, 0, sizeof r);
    r.a = a;
    r.id = id;
    r.set = pick_str(g, a->sets, a->n_sets);
    r.line = pick_u64(g, lines, COUNT(lines));
    r.rtt = pick_u64(g, rtts, COUNT(rtts));
    uint64_t mtu = pick_u64(g, mtus, COUNT(mtus));
    r.mtu = mtu ? mtu : 1000;
    /* A third of the runs start near the top of the clock. */
    r.now = below(g, 3) == 0 ? UINT64_MAX - below(g, UINT64_C(1) << 24) : below(g, 1000000);

    libcc_params *p = NULL;
    ck_assert_int_eq(libcc_params_new(&p, a->name), LIBCC_OK);
    REQUIRE(libcc_params_parse(p, r.set) == LIBCC_OK, "%s", libcc_params_error(p));
    double v;
    ck_assert_int_eq(libcc_params_get(p, "max_hops", &v), LIBCC_OK);
    r.max_hops = (unsigned)v;
    r.min_rate = 1;
    /* An algorithm's rate floor is its min_rate parameter (DCQCN:
     * rpg_min_rate), the line rate if that is lower. */
    if (libcc_params_get(p, "rpg_min_rate", &v) == LIBCC_OK ||
        libcc_params_get(p, "min_rate", &v) == LIBCC_OK) {
        r.min_rate = (uint64_t)v < r.line ? (uint64_t)v : r.line;
    } else if (strcmp(a->name, "none") == 0) {
        r.min_rate = r.line;
    }
    if (a->window_kind == WIN_HPCC) {
        double t;
        ck_assert_int_eq(libcc_params_get(p, "base_rtt", &t), LIBCC_OK);
        if (t == 0)
            t = r.rtt ? (double)r.rtt : 5000.0; /* hpcc_core.h: HPCC_DEFAULT_T_NS */
        r.w_init = fmax((double)r.line * t / 8e9, 1.0);
    }
    /* INT as the wire leaves it (24-bit ts, 27-bit txBytes) or full width. */
    r.ts_bits = below(g, 2) ? 24 : 64;
    r.tx_bits = r.ts_bits == 24 ? 27 : 64;

    libcc_flow_info fi;
    memset(&fi, 0, sizeof fi);
    fi.flow_id = id;
    fi.line_rate_bps = r.line;
    fi.base_rtt_ns = r.rtt;
    fi.mtu_bytes = (uint32_t)mtu;
    libcc_rp_callbacks cbs = {.deadline_changed = on_deadline, .send_probe = on_probe};
    r.h.deadline = LIBCC_NO_DEADLINE;
    ck_assert_int_eq(libcc_rp_new(&r.rp, p, &fi, &cbs, &r.h, r.now), LIBCC_OK);
    libcc_params_del(p);
    check_state(&r, 0, "create");
    new_path(&r, g);

    for (unsigned step = 1; step <= steps; step++) {
        /* The next event's time: often the same instant, sometimes long
         * quiet stretches; never past the clock's end. */
        uint64_t dt;
        switch (below(g, 8)) {
        case 0: dt = 0; break;
        case 1: dt = below(g, UINT64_C(1) << 32); break;
        case 2: dt = below(g, 100); break;
        default: dt = below(g, 20000); break;
        }
        if (dt > UINT64_MAX - r.now)
            dt = UINT64_MAX - r.now;
        const uint64_t t = r.now + dt;
        /* The host's timer fires first, at each deadline up to t; after 64
         * (a 1 ns T, seconds of quiet) it is late, once, at t: the
         * API processes every expiry due then. */
        unsigned fired = 0;
        while (r.h.deadline != LIBCC_NO_DEADLINE && r.h.deadline <= t) {
            const uint64_t at = ++fired > 64 ? t : r.h.deadline;
            r.now = at;
            REQUIRE(libcc_rp_on_timer(r.rp, at) == LIBCC_OK, "%s run %u step %u: timer refused",
                    a->name, id, step);
            check_state(&r, step, "timer at deadline");
            REQUIRE(r.h.deadline == LIBCC_NO_DEADLINE || r.h.deadline > at,
                          "%s [%s] run %u step %u: timer at %llu left the deadline at %llu", a->name,
                          r.set, id, step, (unsigned long long)at,
                          (unsigned long long)r.h.deadline);
        }
        r.now = t;
        const char *ev;
        int rc;
        switch (below(g, 11)) {
        case 0:
            /* a CNP, or the host's retransmission timer expiring */
            if (below(g, 2)) {
                ev = "cnp";
                rc = libcc_rp_on_cnp(r.rp, t);
            } else {
                ev = "timeout";
                rc = libcc_rp_on_timeout(r.rp, t);
            }
            break;
        case 10: {
            static const uint64_t fb_rates[] = {0, 1, 1000000000ull, 100000000000ull, UINT64_MAX};
            libcc_feedback fb;
            memset(&fb, 0, sizeof fb);
            fb.rate_bps = below(g, 2) ? pick_u64(g, fb_rates, COUNT(fb_rates)) : below(g, r.line + 1);
            fb.switch_id = (uint32_t)below(g, 3);
            fb.port_id = (uint32_t)below(g, 3);
            ev = "feedback";
            rc = libcc_rp_on_feedback(r.rp, t, &fb);
            break;
        }
        case 1:
            ev = "early timer";
            rc = libcc_rp_on_timer(r.rp, t);
            break;
        case 2:
            /* a link rate change or a path with another hop count */
            new_path(&r, g);
            /* fall through */
        case 3:
        case 4:
        case 5: {
            libcc_int_list l;
            libcc_ack ack;
            memset(&ack, 0, sizeof ack);
            ack.seq = r.snd_nxt - below(g, r.snd_nxt < 100000 ? r.snd_nxt + 1 : 100000);
            ack.n_flows = below(g, 4) == 0 ? (uint32_t)(below(g, 2) ? 65535 : below(g, 100)) : 0;
            ack.rx_window_bytes = below(g, 4) == 0 ? (below(g, 8) ? below(g, 1000000) : next_u64(g)) : 0;
            ack.ecn_echo = (uint8_t)below(g, 2);
            ack.is_probe = below(g, 8) == 0;
            if (below(g, 8)) {
                fill_ints(&r, g, &l);
                ack.int_list = &l;
            }
            fill_timestamps(&r, g, t, &ack);
            const int nack = below(g, 10) == 0;
            ev = nack ? "nack" : "ack";
            rc = nack ? libcc_rp_on_nack(r.rp, t, &ack) : libcc_rp_on_ack(r.rp, t, &ack);
            break;
        }
        default: {
            uint32_t bytes = (uint32_t)(1 + below(g, below(g, 8) ? 9000 : UINT32_MAX));
            unsigned flags;
            ev = "tx";
            rc = libcc_rp_on_tx(r.rp, t, r.snd_nxt, bytes, &flags);
            r.snd_nxt += bytes;
            break;
        }
        }
        REQUIRE(rc == LIBCC_OK, "%s [%s] run %u step %u: %s returned %s", a->name, r.set, id,
                      step, ev, libcc_strerror(rc));
        check_state(&r, step, ev);
        if (r.now == UINT64_MAX)
            break; /* the clock's end: nothing can happen later */
    }
    libcc_rp_del(r.rp);
}

/* Every algorithm x 150 runs x 600 steps: a second or two, a few under ASan. */
START_TEST(test_random_event_sequences)
{
    const algo_case *a = &algos[_i];
    prng g = {UINT64_C(0x9E3779B97F4A7C15) ^ (uint64_t)(_i + 1) * UINT64_C(0xD1B54A32D192ED03)};
    for (unsigned id = 0; id < 150; id++)
        one_run(a, id, &g, 600);
}
END_TEST

/* Every algorithm the library registers has a case above. */
START_TEST(test_every_algorithm_is_covered)
{
    for (const char *const *n = libcc_algorithms(); *n; n++) {
        int found = 0;
        for (size_t i = 0; i < COUNT(algos); i++)
            found |= strcmp(algos[i].name, *n) == 0;
        REQUIRE(found, "no property run for algorithm %s", *n);
    }
}
END_TEST

Suite *properties_suite(void)
{
    Suite *s = suite_create("properties");
    TCase *tc = tcase_create("rp");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_random_event_sequences, 0, (int)COUNT(algos));
    tcase_add_test(tc, test_every_algorithm_is_covered);
    suite_add_tcase(s, tc);
    return s;
}
