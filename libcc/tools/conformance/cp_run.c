/* SPDX-License-Identifier: MIT */
/* One Congestion Point through random enqueues and dequeues (packets of
 * every kind, queues from empty to gigabytes, INT headers part full, PINT
 * fields, flow ids) and its timer at each deadline. Checks: calls
 * accepted, the mark probability in [0, 1] at any queue, an INT stamp adds
 * exactly one hop and only within the list's bound, the timer writes no
 * more feedback than libcc_cp_max_feedback and moves its deadline. */
#include "conformance.h"
#include "objects.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define QUEUED 32u /* packets between their enqueue and dequeue */

typedef struct queued {
    libcc_cp_pkt pkt;
    libcc_int_list ints;
} queued;

static void new_pkt(conf_prng *g, queued *q)
{
    memset(q, 0, sizeof *q);
    q->pkt.kind = (libcc_pkt_kind)conf_below(g, LIBCC_PKT_OTHER + 1);
    q->pkt.bytes = (uint32_t)(64 + conf_below(g, 9000));
    q->pkt.ingress_port = (uint32_t)conf_below(g, 4);
    q->pkt.ecn_capable = conf_below(g, 4) != 0;
    if (conf_below(g, 2)) {
        libcc_int_list_init(&q->ints);
        const unsigned n = (unsigned)conf_below(g, LIBCC_INT_MAX_HOPS + 1);
        for (unsigned i = 0; i < n; i++) {
            libcc_int_hop h = {100000000000ull, conf_next(g), conf_next(g), conf_below(g, 1000000), i, 0};
            libcc_int_list_push(&q->ints, &h, LIBCC_INT_MAX_HOPS);
        }
        q->pkt.int_list = &q->ints;
    }
    if (conf_below(g, 2)) {
        q->pkt.has |= LIBCC_PKT_HAS_PINT;
        q->pkt.pint = (uint16_t)conf_next(g);
    }
    q->pkt.has |= LIBCC_PKT_HAS_FLOW_ID;
    q->pkt.flow_id = 1 + conf_below(g, 8);
}

static uint64_t queue_size(conf_prng *g)
{
    switch (conf_below(g, 4)) {
    case 0: return 0;
    case 1: return conf_below(g, UINT64_C(1) << 32);
    default: return conf_below(g, 1000000);
    }
}

/* One enqueue or dequeue: the INT stamp adds at most one hop, within the bound. */
static bool pass(libcc_cp *cp, uint64_t t, queued *q, bool enqueue, conf_failure *f)
{
    const unsigned before = q->pkt.int_list ? q->pkt.int_list->n_hops : 0;
    q->pkt.int_stamped = 0;
    const int rc = enqueue ? libcc_cp_on_enqueue(cp, t, &q->pkt) : libcc_cp_on_dequeue(cp, t, &q->pkt);
    if (!conf_check_call(rc, enqueue ? "libcc_cp_on_enqueue" : "libcc_cp_on_dequeue", f))
        return false;
    const unsigned after = q->pkt.int_list ? q->pkt.int_list->n_hops : 0;
    if (after != before + (q->pkt.int_stamped ? 1u : 0u) || after > LIBCC_INT_MAX_HOPS)
        return conf_fail(f, CONF_CHECK_CP, "INT hops %u -> %u with int_stamped %u", before, after,
                         (unsigned)q->pkt.int_stamped);
    return true;
}

static bool cp_timer(libcc_cp *cp, uint64_t at, libcc_cp_feedback *out, size_t max, conf_failure *f)
{
    size_t n = SIZE_MAX;
    snprintf(f->event, sizeof f->event, "timer at deadline");
    return conf_check_call(libcc_cp_on_timer(cp, at, out, max, &n), "libcc_cp_on_timer", f) &&
           conf_check_feedback_count(n, max, f) &&
           conf_check_timer_advanced(libcc_cp_deadline_ns(cp), at, f);
}

static bool cp_steps(libcc_cp *cp, conf_prng *g, uint64_t now, unsigned steps, libcc_cp_feedback *out,
                     size_t max, conf_failure *f)
{
    queued *qs = calloc(QUEUED, sizeof *qs);
    if (!qs)
        return conf_fail(f, CONF_CHECK_CP, "out of memory");
    unsigned head = 0, n = 0;
    bool ok = true;
    for (unsigned step = 1; ok && step <= steps; step++) {
        f->step = step;
        const uint64_t dt = conf_below(g, 8) ? conf_below(g, 2000) : conf_below(g, UINT64_C(1) << 28);
        const uint64_t t = dt > UINT64_MAX - now ? UINT64_MAX : now + dt;
        for (unsigned fired = 0; ok && libcc_cp_deadline_ns(cp) != LIBCC_NO_DEADLINE &&
                                  libcc_cp_deadline_ns(cp) <= t;
             fired++) {
            const uint64_t d = libcc_cp_deadline_ns(cp);
            ok = cp_timer(cp, fired >= 64 || d < now ? t : d, out, max, f);
        }
        now = t;
        if (!ok)
            break;
        const uint64_t qb = queue_size(g);
        snprintf(f->event, sizeof f->event, "mark probability");
        ok = conf_check_probability(libcc_cp_mark_probability(cp, qb), qb, f);
        if (ok && n < QUEUED && (n == 0 || conf_below(g, 2))) {
            queued *q = &qs[(head + n++) % QUEUED];
            new_pkt(g, q);
            q->pkt.queue_bytes = qb;
            q->pkt.port_queue_bytes = qb + conf_below(g, 10000);
            snprintf(f->event, sizeof f->event, "enqueue");
            ok = pass(cp, t, q, true, f);
        } else if (ok) {
            queued *q = &qs[head];
            head = (head + 1) % QUEUED;
            n--;
            q->pkt.queue_bytes = qb;
            q->pkt.port_queue_bytes = qb;
            snprintf(f->event, sizeof f->event, "dequeue");
            ok = pass(cp, t, q, false, f);
        }
        if (now == UINT64_MAX)
            break;
    }
    free(qs);
    return ok;
}

bool conf_cp_run(const char *algo, const char *set, conf_prng g, unsigned run, unsigned steps,
                 conf_failure *f)
{
    conf_failure_start(f, run);
    libcc_params *p;
    int rc = conf_params_for(algo, set, &p);
    conf_objects o;
    memset(&o, 0, sizeof o);
    if (rc == LIBCC_OK)
        rc = conf_make_objects(p, LIBCC_ROLE_CP, &o);
    libcc_params_del(p);
    if (rc) {
        conf_free_objects(&o);
        return conf_fail(f, CONF_CHECK_CP, "making the CP ('%s'): %s", set ? set : "", libcc_strerror(rc));
    }
    const size_t max = libcc_cp_max_feedback(o.cp);
    libcc_cp_feedback *out = calloc(max ? max : 1, sizeof *out);
    const uint64_t start = conf_start_time(&g);
    bool ok = out ? cp_steps(o.cp, &g, start, steps, out, max, f)
                  : conf_fail(f, CONF_CHECK_CP, "out of memory");
    free(out);
    conf_free_objects(&o);
    return ok;
}
