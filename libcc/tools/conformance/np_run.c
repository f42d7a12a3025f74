/* SPDX-License-Identifier: MIT */
/* One Notification Point through random data packets (CE marks, probes,
 * last packets, INT lists, NIC timestamps, PINT), flow ends and its timer
 * at each deadline. After every call: the call accepted, the ACK's INT is
 * the packet's own list or none (never module memory the next call
 * overwrites), the deadline not in the past and moved by its timer, the
 * callback and the getter agree, no more active flows than slots. */
#include "conformance.h"
#include "objects.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define FLOWS 12u /* flow ids 1..FLOWS, fewer than the NP's 16 slots */

typedef struct np_host {
    uint64_t deadline;
    unsigned cnps;
} np_host;

static void on_cnp(libcc_np *np, uint64_t now, uint64_t flow, void *ud)
{
    (void)np, (void)now, (void)flow;
    ((np_host *)ud)->cnps++;
}

static void on_deadline(libcc_np *np, uint64_t d, void *ud)
{
    (void)np;
    ((np_host *)ud)->deadline = d;
}

static bool np_state(libcc_np *np, const np_host *h, uint64_t now, conf_failure *f)
{
    const uint64_t d = libcc_np_deadline_ns(np);
    if (!conf_check_deadline(d, now, f) || !conf_check_callback(h->deadline, d, f))
        return false;
    const uint32_t active = libcc_np_active_flows(np, now);
    if (active > 16)
        return conf_fail(f, CONF_CHECK_NP, "%" PRIu32 " active flows in a table of 16", active);
    return true;
}

static void data_pkt(conf_prng *g, uint64_t t, libcc_data_pkt *pkt, libcc_int_list *l)
{
    memset(pkt, 0, sizeof *pkt);
    pkt->flow_id = 1 + conf_below(g, FLOWS);
    pkt->seq = conf_below(g, UINT64_C(1) << 40);
    pkt->bytes = (uint32_t)(1 + conf_below(g, 9000));
    pkt->ecn_ce = conf_below(g, 4) == 0;
    pkt->is_probe = conf_below(g, 16) == 0;
    pkt->last_of_flow = conf_below(g, 32) == 0;
    if (conf_below(g, 2)) {
        libcc_int_list_init(l);
        const unsigned n = (unsigned)conf_below(g, LIBCC_INT_MAX_HOPS + 1);
        for (unsigned i = 0; i < n; i++) {
            libcc_int_hop h = {100000000000ull, conf_next(g), conf_next(g), conf_below(g, 1000000), i, 0};
            libcc_int_list_push(l, &h, LIBCC_INT_MAX_HOPS);
        }
        pkt->int_list = l;
    }
    if (conf_below(g, 2)) {
        pkt->has |= LIBCC_PKT_HAS_TX_TS;
        pkt->tx_ts_ns = t - conf_below(g, t < 1000000 ? t + 1 : 1000000);
    }
    if (conf_below(g, 2)) {
        pkt->has |= LIBCC_PKT_HAS_RX_TS;
        pkt->rx_ts_ns = conf_next(g);
    }
    if (conf_below(g, 2)) {
        pkt->has |= LIBCC_PKT_HAS_PINT;
        pkt->pint = (uint16_t)conf_next(g);
    }
    pkt->n_hops = (uint8_t)conf_below(g, 8);
}

static bool np_steps(libcc_np *np, np_host *h, conf_prng *g, uint64_t now, unsigned steps,
                     conf_failure *f)
{
    for (unsigned step = 1; step <= steps; step++) {
        f->step = step;
        uint64_t dt = conf_below(g, 8) ? conf_below(g, 5000) : conf_below(g, UINT64_C(1) << 30);
        const uint64_t t = dt > UINT64_MAX - now ? UINT64_MAX : now + dt;
        unsigned fired = 0;
        while (h->deadline != LIBCC_NO_DEADLINE && h->deadline <= t) {
            const uint64_t at = ++fired > 64 ? t : h->deadline;
            snprintf(f->event, sizeof f->event, "timer at deadline");
            if (!conf_check_call(libcc_np_on_timer(np, at), "libcc_np_on_timer", f) ||
                !np_state(np, h, at, f) || !conf_check_timer_advanced(h->deadline, at, f))
                return false;
        }
        now = t;
        if (conf_below(g, 16) == 0) {
            snprintf(f->event, sizeof f->event, "flow end");
            const int rc = libcc_np_flow_end(np, t, 1 + conf_below(g, FLOWS));
            if (rc != LIBCC_ERR_NOT_FOUND && !conf_check_call(rc, "libcc_np_flow_end", f))
                return false;
        } else {
            libcc_data_pkt pkt;
            libcc_int_list l;
            libcc_np_verdict v;
            memset(&v, 0xA5, sizeof v);
            data_pkt(g, t, &pkt, &l);
            snprintf(f->event, sizeof f->event, "data");
            if (!conf_check_call(libcc_np_on_data(np, t, &pkt, &v), "libcc_np_on_data", f))
                return false;
            if (v.send_ack && v.ack.int_list != NULL && v.ack.int_list != pkt.int_list)
                return conf_fail(f, CONF_CHECK_NP, "verdict.ack.int_list points at %p, neither the packet's list nor NULL",
                                 (const void *)v.ack.int_list);
        }
        if (!np_state(np, h, t, f))
            return false;
        if (now == UINT64_MAX)
            break;
    }
    return true;
}

bool conf_np_run(const char *algo, const char *set, conf_prng g, unsigned run, unsigned steps,
                 conf_failure *f)
{
    conf_failure_start(f, run);
    libcc_params *p;
    int rc = conf_params_for(algo, set, &p);
    if (rc)
        return conf_fail(f, CONF_CHECK_NP, "parameters '%s': %s", set ? set : "", libcc_strerror(rc));
    np_host h = {LIBCC_NO_DEADLINE, 0};
    libcc_np_info ni = {.max_flows = 16, .line_rate_bps = 100000000000ull, .base_rtt_ns = 12000};
    libcc_np_callbacks cbs = {on_cnp, on_deadline};
    libcc_np *np = NULL;
    const uint64_t start = conf_start_time(&g);
    rc = libcc_np_new(&np, p, &ni, &cbs, &h);
    libcc_params_del(p);
    if (rc)
        return conf_fail(f, CONF_CHECK_NP, "libcc_np_new: %s", libcc_strerror(rc));
    h.deadline = libcc_np_deadline_ns(np);
    const bool ok = np_steps(np, &h, &g, start, steps, f);
    libcc_np_del(np);
    return ok;
}
