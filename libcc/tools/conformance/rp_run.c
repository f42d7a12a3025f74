/* SPDX-License-Identifier: MIT */
/* One Reaction Point through a random legal event stream: CNPs, timeouts,
 * feedback, early timer calls, ACKs and NACKs with INT whose counters
 * wrap and NIC timestamps, link-rate and hop-count changes, transmissions,
 * the host's timer at each deadline, a third of the runs near the top of
 * the clock. Every property is checked after every call; the calls can be
 * written as a libcc-replay script (docs/replay.md, `@timers manual`). */
#include "conformance.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
/* Timer firings at their deadlines before one event; then it fires late,
 * once, at the event's time (a 1 ns period and seconds of quiet would
 * otherwise take billions of calls). */
#define MAX_FIRINGS 64u

typedef struct port {
    uint64_t bw, ts, tx, q;
} port;

/* What a host sees of the RP through the callbacks, and its attempts to
 * call back in. */
typedef struct host {
    libcc_rp *rp;
    uint64_t deadline; /* last announced */
    uint64_t now;      /* time of the call in progress */
    unsigned depth;
    bool reentry_failed;
    conf_failure reentry;
} host;

typedef struct run {
    const char *algo;
    host h;
    conf_text *script;
    uint64_t now, line, mtu, min_rate, digest, rw_digest;
    unsigned calls;
    double w_init;
    conf_window_kind window;
    uint64_t snd_nxt;
    unsigned n_hops, max_hops, ts_bits, tx_bits;
    port ports[LIBCC_INT_MAX_HOPS];
    const libcc_param_desc *vars;
    size_t n_vars;
    double *values;
} run;

static uint64_t pick(conf_prng *g, const uint64_t *v, size_t n)
{
    return v[conf_below(g, n)];
}

static uint64_t mask(uint64_t v, unsigned bits)
{
    return bits >= 64 ? v : v & ((UINT64_C(1) << bits) - 1);
}

/* A callback tries to call the same RP: the core must refuse it. */
static void try_reentry(host *h, libcc_rp *rp, const char *callback)
{
    if (h->depth || h->reentry_failed)
        return;
    h->depth++;
    const int rc = libcc_rp_on_cnp(rp, h->now);
    h->depth--;
    if (!conf_check_reentry(rc, callback, &h->reentry))
        h->reentry_failed = true;
}

static void on_rate(libcc_rp *rp, uint64_t now, uint64_t rate, void *ud)
{
    (void)now, (void)rate;
    try_reentry(ud, rp, "rate_changed");
}

static void on_window(libcc_rp *rp, uint64_t now, uint64_t w, void *ud)
{
    (void)now, (void)w;
    try_reentry(ud, rp, "window_changed");
}

static void on_deadline(libcc_rp *rp, uint64_t d, void *ud)
{
    host *h = ud;
    h->deadline = d;
    try_reentry(h, rp, "deadline_changed");
}

static void on_probe(libcc_rp *rp, uint64_t now, void *ud)
{
    (void)now;
    try_reentry(ud, rp, "send_probe");
}

uint64_t conf_hash_step(uint64_t h, uint64_t v)
{
    h ^= v + UINT64_C(0x9E3779B97F4A7C15) + (h << 6) + (h >> 2);
    return h * UINT64_C(0x100000001b3);
}

/* Every property after one call; the digest takes what a host would see. */
static bool check_state(run *r, int rc, const char *call, conf_failure *f)
{
    const uint64_t rate = libcc_rp_rate_bps(r->h.rp), win = libcc_rp_window_bytes(r->h.rp),
                   d = libcc_rp_deadline_ns(r->h.rp);
    r->digest = conf_hash_step(conf_hash_step(conf_hash_step(r->digest, rate), win), d);
    r->rw_digest = conf_hash_step(conf_hash_step(r->rw_digest, rate), win);
    r->calls++;
    if (r->h.reentry_failed) {
        *f = r->h.reentry;
        return false;
    }
    if (!conf_check_call(rc, call, f) || !conf_check_rate(rate, r->min_rate, r->line, f) ||
        !conf_check_window(win, r->window, (double)r->mtu, r->w_init, f) ||
        !conf_check_deadline(d, r->now, f) || !conf_check_callback(r->h.deadline, d, f))
        return false;
    if (r->n_vars) {
        if (libcc_rp_read_vars(r->h.rp, r->values, r->n_vars) != LIBCC_OK)
            return conf_fail(f, CONF_CHECK_FINITE, "libcc_rp_read_vars refused %zu values", r->n_vars);
        if (!conf_check_finite(r->values, r->vars, r->n_vars, f))
            return false;
    }
    return true;
}

static void new_path(run *r, conf_prng *g)
{
    static const uint64_t rates[] = {10000000000ull, 25000000000ull, 100000000000ull,
                                     400000000000ull, 1000000ull};
    r->n_hops = 1 + (unsigned)conf_below(g, r->max_hops);
    for (unsigned i = 0; i < r->n_hops; i++) {
        r->ports[i].bw = pick(g, rates, COUNT(rates));
        r->ports[i].ts = conf_next(g);
        r->ports[i].tx = conf_next(g);
        r->ports[i].q = 0;
    }
}

/* The INT an ACK carries: each port advanced by dt of its clock with at most
 * its line rate of bytes, counters truncated to the wire's widths. */
static void fill_ints(run *r, conf_prng *g, libcc_int_list *l)
{
    libcc_int_list_init(l);
    l->ts_bits = (uint8_t)r->ts_bits;
    l->tx_bits = (uint8_t)r->tx_bits;
    for (unsigned i = 0; i < r->n_hops; i++) {
        port *p = &r->ports[i];
        /* well inside half a wrap of both counters (more reads as backwards),
         * and small enough that dt * B stays a uint64_t */
        const unsigned small = r->ts_bits < r->tx_bits ? r->ts_bits : r->tx_bits;
        uint64_t dt = conf_below(g, 4) ? conf_below(g, UINT64_C(1) << (small < 40 ? small - 3 : 37)) : 0;
        uint64_t max_tx = (uint64_t)((double)p->bw / 8e9 * (double)dt);
        p->ts += dt;
        p->tx += conf_below(g, max_tx + 1);
        if (conf_below(g, 3) == 0)
            p->q = conf_below(g, 4) ? conf_below(g, 200000) : conf_below(g, UINT64_C(1) << 32);
        libcc_int_hop h;
        memset(&h, 0, sizeof h);
        h.bandwidth_bps = p->bw;
        h.ts_ns = mask(p->ts, r->ts_bits);
        h.tx_bytes = mask(p->tx, r->tx_bits);
        h.qlen_bytes = p->q;
        h.switch_id = i;
        libcc_int_list_push(l, &h, LIBCC_INT_MAX_HOPS);
    }
}

/* RTT samples and NIC timestamps as a host may give them: mostly around a
 * path's RTT, sometimes 0, sometimes as long as the time since the clock's
 * origin (never after the ACK's arrival: the core refuses those), remote
 * stamps of any receiver clock, any hop count and PINT value. */
static void fill_timestamps(conf_prng *g, uint64_t t, libcc_ack *ack)
{
    if (conf_below(g, 4)) {
        uint64_t rtt;
        switch (conf_below(g, 4)) {
        case 0: rtt = 0; break;
        case 1: rtt = t; break;
        case 2: rtt = conf_below(g, 1000000); break;
        default: rtt = 5000 + conf_below(g, 100000); break;
        }
        if (rtt > t)
            rtt = t;
        ack->has |= LIBCC_ACK_HAS_TX_TS;
        ack->tx_ts_ns = t - rtt;
        if (conf_below(g, 4) == 0) {
            ack->has |= LIBCC_ACK_HAS_RX_TS;
            ack->rx_ts_ns = t - conf_below(g, rtt + 1) / 2;
            if (ack->rx_ts_ns < ack->tx_ts_ns)
                ack->rx_ts_ns = ack->tx_ts_ns;
        }
    }
    if (conf_below(g, 3) == 0) {
        ack->has |= LIBCC_ACK_HAS_REMOTE_TS;
        ack->remote_rx_ts_ns = conf_next(g) >> (conf_below(g, 2) ? 1 : 20);
        uint64_t d = conf_below(g, 4) ? conf_below(g, 20000) : conf_next(g);
        ack->remote_tx_ts_ns =
            d > UINT64_MAX - ack->remote_rx_ts_ns ? UINT64_MAX : ack->remote_rx_ts_ns + d;
    }
    ack->n_hops = (uint8_t)(conf_below(g, 4) ? conf_below(g, 8) : conf_below(g, 256));
    if (conf_below(g, 2)) {
        ack->has |= LIBCC_ACK_HAS_PINT;
        ack->pint = (uint16_t)conf_next(g);
    }
}

/* ---- the run as a libcc-replay script ---------------------------------- */

static void script_header(run *r, const char *set, unsigned run_no, const libcc_flow_info *fi)
{
    if (!r->script)
        return;
    conf_text_printf(r->script, "@algo %s\n", r->algo);
    if (set && *set)
        conf_text_printf(r->script, "@param %s\n", set);
    conf_text_printf(r->script,
                     "@flow line_rate=%" PRIu64 "bps base_rtt=%" PRIu64 "ns mtu=%" PRIu32
                     "B flow_id=%u\n",
                     fi->line_rate_bps, fi->base_rtt_ns, fi->mtu_bytes, run_no);
    conf_text_printf(r->script, "@start %" PRIu64 "ns\n@timers manual\n@int ts_bits=%u tx_bits=%u\n",
                     r->now, r->ts_bits, r->tx_bits);
}

static void script_ack(run *r, uint64_t t, bool nack, const libcc_ack *a)
{
    conf_text *s = r->script;
    if (!s)
        return;
    conf_text_printf(s, "%" PRIu64 "ns %s seq=%" PRIu64, t, nack ? "nack" : "ack", a->seq);
    if (a->n_flows)
        conf_text_printf(s, " n=%" PRIu32, a->n_flows);
    if (a->rx_window_bytes)
        conf_text_printf(s, " rxwin=%" PRIu64, a->rx_window_bytes);
    if (a->ecn_echo)
        conf_text_printf(s, " ecn=1");
    if (a->is_probe)
        conf_text_printf(s, " probe=1");
    for (unsigned i = 0; a->int_list && i < a->int_list->n_hops; i++) {
        const libcc_int_hop *h = &a->int_list->hop[i];
        conf_text_printf(s, " hop=%" PRIu64 "bps,%" PRIu64 "ns,%" PRIu64 ",%" PRIu64, h->bandwidth_bps,
                         h->ts_ns, h->tx_bytes, h->qlen_bytes);
    }
    if (a->has & LIBCC_ACK_HAS_TX_TS)
        conf_text_printf(s, " txts=%" PRIu64 "ns", a->tx_ts_ns);
    if (a->has & LIBCC_ACK_HAS_RX_TS)
        conf_text_printf(s, " rxts=%" PRIu64 "ns", a->rx_ts_ns);
    if (a->has & LIBCC_ACK_HAS_REMOTE_TS)
        conf_text_printf(s, " rrx=%" PRIu64 "ns rtx=%" PRIu64 "ns", a->remote_rx_ts_ns,
                         a->remote_tx_ts_ns);
    if (a->n_hops)
        conf_text_printf(s, " hops=%u", (unsigned)a->n_hops);
    if (a->has & LIBCC_ACK_HAS_PINT)
        conf_text_printf(s, " pint=%u", (unsigned)a->pint);
    conf_text_printf(s, "\n");
}

static void script_line(run *r, const char *fmt_event, uint64_t t)
{
    if (r->script)
        conf_text_printf(r->script, "%" PRIu64 "ns %s\n", t, fmt_event);
}

/* ---- the run ------------------------------------------------------------ */

/* Where the run starts: the flow at the edges of libcc_flow_params and
 * between, the RP's parameters, W_init for the HPCC window bound. */
static bool setup(run *r, conf_prng *g, const char *set, unsigned run_no, libcc_params **pp,
                  libcc_flow_info *fi, conf_failure *f)
{
    const libcc_param_desc *ft;
    size_t nf;
    libcc_flow_params(&ft, &nf);
    /* rows: line_rate, base_rtt, mtu (libcc.h) */
    const uint64_t lines[] = {(uint64_t)ft[0].min, 1000000000ull, 25000000000ull, 100000000000ull,
                              400000000000ull, (uint64_t)ft[0].max};
    const uint64_t rtts[] = {(uint64_t)ft[1].min, 1, 12000, 1000000, (uint64_t)ft[1].max};
    const uint64_t mtus[] = {0, (uint64_t)ft[2].min, 1000, 9000, (uint64_t)ft[2].max};
    memset(fi, 0, sizeof *fi);
    fi->flow_id = run_no;
    fi->line_rate_bps = r->line = pick(g, lines, COUNT(lines));
    fi->base_rtt_ns = pick(g, rtts, COUNT(rtts));
    fi->mtu_bytes = (uint32_t)pick(g, mtus, COUNT(mtus));
    r->mtu = fi->mtu_bytes ? fi->mtu_bytes : 1000;
    r->now = conf_start_time(g);
    const int rc = conf_params_for(r->algo, set, pp);
    if (rc)
        return conf_fail(f, CONF_CHECK_CALL, "parameters '%s': %s", set ? set : "", libcc_strerror(rc));
    double v;
    r->max_hops = libcc_params_get(*pp, "max_hops", &v) == LIBCC_OK ? (unsigned)v : 1;
    if (r->max_hops < 1 || r->max_hops > LIBCC_INT_MAX_HOPS)
        r->max_hops = LIBCC_INT_MAX_HOPS;
    /* A rate floor by convention of the name (DCQCN's rpg_min_rate, the
     * others' min_rate), the line rate if that is lower; none sends at line
     * rate; otherwise the core's 1 bit/s. */
    r->min_rate = 1;
    if (libcc_params_get(*pp, "rpg_min_rate", &v) == LIBCC_OK ||
        libcc_params_get(*pp, "min_rate", &v) == LIBCC_OK)
        r->min_rate = v < 1 ? 1 : (uint64_t)v < r->line ? (uint64_t)v : r->line;
    else if (strcmp(r->algo, "none") == 0)
        r->min_rate = r->line;
    if (r->window == CONF_WIN_HPCC) {
        double t = 0;
        libcc_params_get(*pp, "base_rtt", &t);
        if (t == 0)
            t = fi->base_rtt_ns ? (double)fi->base_rtt_ns : 5000.0; /* hpcc_core.h: HPCC_DEFAULT_T_NS */
        r->w_init = fmax((double)r->line * t / 8e9, 1.0);
    }
    /* INT as the wire leaves it (24-bit ts, 27-bit txBytes) or full width. */
    r->ts_bits = conf_below(g, 2) ? 24 : 64;
    r->tx_bits = r->ts_bits == 24 ? 27 : 64;
    return true;
}

/* One random event at t (after the timers due): its call and its line. */
static int one_event(run *r, conf_prng *g, uint64_t t, const char **ev)
{
    switch (conf_below(g, 11)) {
    case 0:
        /* a CNP, or the host's retransmission timer expiring */
        if (conf_below(g, 2)) {
            *ev = "cnp";
            script_line(r, "cnp", t);
            return libcc_rp_on_cnp(r->h.rp, t);
        }
        *ev = "timeout";
        script_line(r, "timeout", t);
        return libcc_rp_on_timeout(r->h.rp, t);
    case 10: {
        static const uint64_t fb_rates[] = {0, 1, 1000000000ull, 100000000000ull, UINT64_MAX};
        libcc_feedback fb;
        memset(&fb, 0, sizeof fb);
        fb.rate_bps = conf_below(g, 2) ? pick(g, fb_rates, COUNT(fb_rates)) : conf_below(g, r->line + 1);
        fb.switch_id = (uint32_t)conf_below(g, 3);
        fb.port_id = (uint32_t)conf_below(g, 3);
        *ev = "feedback";
        if (r->script)
            conf_text_printf(r->script, "%" PRIu64 "ns feedback rate=%" PRIu64 "bps switch=%" PRIu32
                                        " port=%" PRIu32 "\n",
                             t, fb.rate_bps, fb.switch_id, fb.port_id);
        return libcc_rp_on_feedback(r->h.rp, t, &fb);
    }
    case 1:
        *ev = "early timer";
        script_line(r, "timer", t);
        return libcc_rp_on_timer(r->h.rp, t);
    case 2:
        /* a link rate change or a path with another hop count */
        new_path(r, g);
        /* fall through */
    case 3:
    case 4:
    case 5: {
        libcc_int_list l;
        libcc_ack ack;
        memset(&ack, 0, sizeof ack);
        ack.seq = r->snd_nxt - conf_below(g, r->snd_nxt < 100000 ? r->snd_nxt + 1 : 100000);
        ack.n_flows = conf_below(g, 4) == 0 ? (uint32_t)(conf_below(g, 2) ? 65535 : conf_below(g, 100)) : 0;
        ack.rx_window_bytes =
            conf_below(g, 4) == 0 ? (conf_below(g, 8) ? conf_below(g, 1000000) : conf_next(g)) : 0;
        ack.ecn_echo = (uint8_t)conf_below(g, 2);
        ack.is_probe = conf_below(g, 8) == 0;
        if (conf_below(g, 8)) {
            fill_ints(r, g, &l);
            ack.int_list = &l;
        }
        fill_timestamps(g, t, &ack);
        const bool nack = conf_below(g, 10) == 0;
        *ev = nack ? "nack" : "ack";
        script_ack(r, t, nack, &ack);
        return nack ? libcc_rp_on_nack(r->h.rp, t, &ack) : libcc_rp_on_ack(r->h.rp, t, &ack);
    }
    default: {
        uint32_t bytes = (uint32_t)(1 + conf_below(g, conf_below(g, 8) ? 9000 : UINT32_MAX));
        unsigned flags;
        *ev = "tx";
        if (r->script)
            conf_text_printf(r->script, "%" PRIu64 "ns tx seq=%" PRIu64 " bytes=%" PRIu32 "\n", t,
                             r->snd_nxt, bytes);
        int rc = libcc_rp_on_tx(r->h.rp, t, r->snd_nxt, bytes, &flags);
        r->snd_nxt += bytes;
        return rc;
    }
    }
}

/* The next event's time: often the same instant, sometimes long quiet
 * stretches; never past the clock's end. */
static uint64_t next_time(const run *r, conf_prng *g)
{
    uint64_t dt;
    switch (conf_below(g, 8)) {
    case 0: dt = 0; break;
    case 1: dt = conf_below(g, UINT64_C(1) << 32); break;
    case 2: dt = conf_below(g, 100); break;
    default: dt = conf_below(g, 20000); break;
    }
    return dt > UINT64_MAX - r->now ? UINT64_MAX : r->now + dt;
}

static bool steps_loop(run *r, conf_prng *g, unsigned steps, conf_rp_result *res, conf_failure *f)
{
    for (unsigned step = 1; step <= steps; step++) {
        f->step = step;
        const uint64_t t = next_time(r, g);
        /* The host's timer fires first, at each deadline up to t. */
        unsigned fired = 0;
        while (r->h.deadline != LIBCC_NO_DEADLINE && r->h.deadline <= t) {
            const uint64_t at = ++fired > MAX_FIRINGS ? t : r->h.deadline;
            r->now = r->h.now = at;
            snprintf(f->event, sizeof f->event, "timer at deadline");
            script_line(r, "timer", at);
            if (!check_state(r, libcc_rp_on_timer(r->h.rp, at), "libcc_rp_on_timer", f) ||
                !conf_check_timer_advanced(r->h.deadline, at, f))
                return false;
        }
        r->now = r->h.now = t;
        const char *ev = "?";
        const int rc = one_event(r, g, t, &ev);
        snprintf(f->event, sizeof f->event, "%s", ev);
        if (!check_state(r, rc, ev, f))
            return false;
        res->steps_done = step;
        if (r->now == UINT64_MAX)
            break; /* the clock's end: nothing can happen later */
    }
    return true;
}

bool conf_rp_run(const char *algo, const char *set, conf_prng g, unsigned run_no, unsigned steps,
                 bool in_place, conf_text *script, conf_rp_result *res, conf_failure *f)
{
    conf_expect e;
    conf_expect_of(algo, &e);
    run r;
    memset(&r, 0, sizeof r);
    memset(res, 0, sizeof *res);
    conf_failure_start(f, run_no);
    r.algo = algo;
    r.window = e.window;
    r.script = script;
    r.digest = r.rw_digest = CONF_DIGEST_START;

    libcc_params *p = NULL;
    libcc_flow_info fi;
    void *mem = NULL;
    bool ok = setup(&r, &g, set, run_no, &p, &fi, f);
    if (ok) {
        script_header(&r, set, run_no, &fi);
        libcc_rp_callbacks cbs = {on_rate, on_window, on_deadline, on_probe};
        r.h.deadline = LIBCC_NO_DEADLINE;
        r.h.now = r.now;
        int rc;
        if (in_place) {
            /* Garbage where the RP goes, at another address than the first
             * run's (which malloc would hand back): its behaviour must
             * depend on neither. */
            const size_t n = libcc_rp_size(p), skip = 1024;
            mem = aligned_alloc(16, n + skip);
            if (mem)
                memset(mem, 0xA5, n + skip);
            rc = mem ? libcc_rp_init((unsigned char *)mem + skip, n, p, &fi, &cbs, &r.h, r.now, &r.h.rp)
                     : LIBCC_ERR_NOMEM;
        } else {
            rc = libcc_rp_new(&r.h.rp, p, &fi, &cbs, &r.h, r.now);
        }
        if (rc != LIBCC_OK) {
            ok = conf_fail(f, CONF_CHECK_CALL,
                           "cannot create the RP (line_rate %" PRIu64 " bps, base_rtt %" PRIu64
                           " ns, mtu %" PRIu32 " B): %s",
                           fi.line_rate_bps, fi.base_rtt_ns, fi.mtu_bytes, libcc_strerror(rc));
        } else if (libcc_rp_vars(r.h.rp, &r.vars, &r.n_vars) == LIBCC_OK && r.n_vars &&
                   !(r.values = calloc(r.n_vars, sizeof *r.values))) {
            ok = conf_fail(f, CONF_CHECK_CALL, "out of memory");
        } else {
            ok = check_state(&r, LIBCC_OK, "create", f);
        }
    }
    if (ok) {
        new_path(&r, &g);
        ok = steps_loop(&r, &g, steps, res, f);
    }
    res->digest = r.digest;
    res->rw_digest = r.rw_digest;
    res->calls = r.calls ? r.calls - 1 : 0; /* the first check is creation's */
    libcc_rp_del(r.h.rp);
    libcc_params_del(p);
    free(mem);
    free(r.values);
    return ok;
}
