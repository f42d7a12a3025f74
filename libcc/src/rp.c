/* SPDX-License-Identifier: MIT */
/* Reaction Point objects: argument and time checks, then the module's
 * arithmetic, then the callbacks for whatever changed. Keeping the
 * before/after comparison here means no module can forget a callback. */
#include "cc_internal.h"

#include <stdlib.h>
#include <string.h>

#define RP_MAGIC 0x6c637270u /* "lcrp" */
#define RP_DEAD 0x64656164u
#define DEFAULT_MTU_BYTES 1000u

typedef struct rp_snapshot {
    uint64_t rate_bps;
    uint64_t window_bytes;
    uint64_t deadline_ns;
} rp_snapshot;

/* Core fields, the module's state, its config; a multiple of the
 * alignment so hosts can put RPs in arrays (and aligned_alloc takes it). */
size_t libcc_rp_bytes(const libcc_algorithm *a)
{
    const size_t state = a->rp ? a->rp->state_size : 0;
    return libcc_priv_round(sizeof(struct libcc_rp) + libcc_priv_round(state) + a->cfg_size);
}

size_t libcc_rp_size(const libcc_params *params)
{
    return params ? libcc_rp_bytes(params->algo) : libcc_algo_max_rp_bytes();
}

/* A module's result is bounded by physics whatever its arithmetic did:
 * a rate of 0 would stall the flow forever, above line rate the NIC cannot
 * send. */
static void rp_clamp(struct libcc_rp *rp)
{
    if (rp->rate_bps > rp->flow.line_rate_bps)
        rp->rate_bps = rp->flow.line_rate_bps;
    if (rp->rate_bps == 0)
        rp->rate_bps = 1;
    if (rp->window_bytes == 0)
        rp->window_bytes = rp->flow.mtu_bytes;
}

static void rp_notify(struct libcc_rp *rp, uint64_t now_ns, const rp_snapshot *before,
                      libcc_rp_event event)
{
    rp_clamp(rp);
    if (rp->log) /* all an unlogged event pays for the decision log */
        libcc_rp_log_deliver(rp, event, now_ns, before->rate_bps, before->window_bytes);
    if (rp->rate_bps != before->rate_bps && rp->cbs.rate_changed)
        rp->cbs.rate_changed(rp, now_ns, rp->rate_bps, rp->user_data);
    if (rp->window_bytes != before->window_bytes && rp->cbs.window_changed)
        rp->cbs.window_changed(rp, now_ns, rp->window_bytes, rp->user_data);
    if (rp->deadline_ns != before->deadline_ns && rp->cbs.deadline_changed)
        rp->cbs.deadline_changed(rp, rp->deadline_ns, rp->user_data);
    rp->busy = 0;
}

static int rp_begin(struct libcc_rp *rp, uint64_t now_ns, rp_snapshot *snap)
{
    if (!rp || rp->magic != RP_MAGIC)
        return LIBCC_ERR_INVALID_ARG;
    /* A call from inside this RP's own op or callback would run the module
     * on half-updated state and fire callbacks out of order: refused. */
    if (rp->busy)
        return LIBCC_ERR_INVALID_ARG;
    if (now_ns < rp->last_now_ns)
        return LIBCC_ERR_TIME_BACKWARDS;
    rp->last_now_ns = now_ns;
    rp->busy = 1;
    snap->rate_bps = rp->rate_bps;
    snap->window_bytes = rp->window_bytes;
    snap->deadline_ns = rp->deadline_ns;
    return LIBCC_OK;
}

int libcc_rp_init(void *mem, size_t mem_len, const libcc_params *params, const libcc_flow_info *flow,
                  const libcc_rp_callbacks *cbs, void *user_data, uint64_t now_ns, libcc_rp **out)
{
    if (out)
        *out = NULL;
    if (!mem || !params || !flow || !out)
        return LIBCC_ERR_INVALID_ARG;
    const size_t bytes = libcc_rp_bytes(params->algo);
    if (mem_len < bytes)
        return LIBCC_ERR_BUFFER_TOO_SMALL;
    if (((uintptr_t)mem % _Alignof(struct libcc_rp)) != 0)
        return LIBCC_ERR_INVALID_ARG;
    int rc = libcc_flow_check(flow, NULL, 0);
    if (rc)
        return rc;

    struct libcc_rp *rp = mem;
    memset(rp, 0, bytes);
    const libcc_algorithm *a = params->algo;
    rp->ops = a->rp ? a->rp : &libcc_rp_ops_none;
    unsigned char *cfg = rp->priv + libcc_priv_round(rp->ops->state_size);
    rc = libcc_params_build(params, &rp->common, cfg, NULL, 0);
    if (rc)
        return rc;
    rp->cfg = cfg;
    rp->algo = a;
    if (cbs)
        rp->cbs = *cbs;
    rp->user_data = user_data;
    rp->flow = *flow;
    if (rp->flow.mtu_bytes == 0)
        rp->flow.mtu_bytes = DEFAULT_MTU_BYTES;
    rp->last_now_ns = now_ns;
    rp->rate_bps = flow->line_rate_bps;
    rp->window_bytes = LIBCC_WINDOW_UNLIMITED;
    rp->deadline_ns = LIBCC_NO_DEADLINE;
    rp->magic = RP_MAGIC;
    /* Released by libcc_rp_del, which an RP in the host's memory needs too. */
    rp->entry = params->entry;
    libcc_algo_ref(rp->entry);
    rp->busy = 1;
    if (rp->ops->init)
        rp->ops->init(rp, now_ns);
    rp_clamp(rp);
    /* The host arms its timer from this callback; rate and window start
     * values are read with the getters. */
    if (rp->deadline_ns != LIBCC_NO_DEADLINE && rp->cbs.deadline_changed)
        rp->cbs.deadline_changed(rp, rp->deadline_ns, rp->user_data);
    rp->busy = 0;
    *out = rp;
    return LIBCC_OK;
}

int libcc_rp_new(libcc_rp **out, const libcc_params *params, const libcc_flow_info *flow,
                 const libcc_rp_callbacks *cbs, void *user_data, uint64_t now_ns)
{
    if (!out)
        return LIBCC_ERR_INVALID_ARG;
    *out = NULL;
    if (!params)
        return LIBCC_ERR_INVALID_ARG;
    const size_t bytes = libcc_rp_bytes(params->algo);
    struct libcc_rp *rp = aligned_alloc(_Alignof(struct libcc_rp), bytes);
    if (!rp)
        return LIBCC_ERR_NOMEM;
    int rc = libcc_rp_init(rp, bytes, params, flow, cbs, user_data, now_ns, out);
    if (rc) {
        free(rp);
        return rc;
    }
    rp->owned = 1;
    return LIBCC_OK;
}

void libcc_rp_del(libcc_rp *rp)
{
    if (!rp || rp->magic != RP_MAGIC)
        return;
    if (rp->log)
        libcc_rp_log_free(rp);
    rp->magic = RP_DEAD;
    libcc_algo_release(rp->entry);
    if (rp->owned)
        free(rp);
}

/* Telemetry no module could use: more hops than a list holds, an RTT
 * sample from the future (the echoed transmit time after the ACK's
 * arrival), a receiver that sent the ACK before the data arrived. */
static int check_ack(const libcc_ack *ack, uint64_t now_ns)
{
    if (!ack)
        return LIBCC_ERR_INVALID_ARG;
    if (ack->int_list && ack->int_list->n_hops > LIBCC_INT_MAX_HOPS)
        return LIBCC_ERR_BAD_TELEMETRY;
    const uint64_t rx = (ack->has & LIBCC_ACK_HAS_RX_TS) ? ack->rx_ts_ns : now_ns;
    if (rx > now_ns) /* the NIC cannot have stamped an arrival still to come */
        return LIBCC_ERR_BAD_TELEMETRY;
    if ((ack->has & LIBCC_ACK_HAS_TX_TS) && ack->tx_ts_ns > rx)
        return LIBCC_ERR_BAD_TELEMETRY;
    if ((ack->has & LIBCC_ACK_HAS_REMOTE_TS) && ack->remote_tx_ts_ns < ack->remote_rx_ts_ns)
        return LIBCC_ERR_BAD_TELEMETRY;
    return LIBCC_OK;
}

int libcc_rp_on_ack(libcc_rp *rp, uint64_t now_ns, const libcc_ack *ack)
{
    rp_snapshot s;
    int rc = check_ack(ack, now_ns);
    if (rc || (rc = rp_begin(rp, now_ns, &s)))
        return rc;
    if (rp->ops->on_ack)
        rc = rp->ops->on_ack(rp, now_ns, ack);
    rp_notify(rp, now_ns, &s, LIBCC_RP_EVENT_ACK);
    return rc;
}

int libcc_rp_on_nack(libcc_rp *rp, uint64_t now_ns, const libcc_ack *nack)
{
    rp_snapshot s;
    int rc = check_ack(nack, now_ns);
    if (rc || (rc = rp_begin(rp, now_ns, &s)))
        return rc;
    if (rp->ops->on_nack)
        rc = rp->ops->on_nack(rp, now_ns, nack);
    rp_notify(rp, now_ns, &s, LIBCC_RP_EVENT_NACK);
    return rc;
}

int libcc_rp_on_cnp(libcc_rp *rp, uint64_t now_ns)
{
    rp_snapshot s;
    int rc = rp_begin(rp, now_ns, &s);
    if (rc)
        return rc;
    if (rp->ops->on_cnp)
        rc = rp->ops->on_cnp(rp, now_ns);
    rp_notify(rp, now_ns, &s, LIBCC_RP_EVENT_CNP);
    return rc;
}

int libcc_rp_on_tx(libcc_rp *rp, uint64_t now_ns, uint64_t seq, uint32_t bytes, unsigned *tx_flags)
{
    rp_snapshot s;
    unsigned flags = 0;
    if (tx_flags)
        *tx_flags = 0;
    int rc = rp_begin(rp, now_ns, &s);
    if (rc)
        return rc;
    /* snd_nxt follows the host, backwards too: go-back-N rewinds it. */
    rp->snd_nxt = seq + bytes;
    rp->bytes_sent += bytes;
    if (rp->ops->on_tx)
        rc = rp->ops->on_tx(rp, now_ns, seq, bytes, &flags);
    if (tx_flags)
        *tx_flags = flags;
    rp_notify(rp, now_ns, &s, LIBCC_RP_EVENT_TX);
    return rc;
}

int libcc_rp_on_timer(libcc_rp *rp, uint64_t now_ns)
{
    rp_snapshot s;
    int rc = rp_begin(rp, now_ns, &s);
    if (rc)
        return rc;
    if (rp->ops->on_timer)
        rc = rp->ops->on_timer(rp, now_ns);
    rp_notify(rp, now_ns, &s, LIBCC_RP_EVENT_TIMER);
    return rc;
}

int libcc_rp_on_feedback(libcc_rp *rp, uint64_t now_ns, const libcc_feedback *fb)
{
    rp_snapshot s;
    if (!fb)
        return LIBCC_ERR_INVALID_ARG;
    int rc = rp_begin(rp, now_ns, &s);
    if (rc)
        return rc;
    if (rp->ops->on_feedback)
        rc = rp->ops->on_feedback(rp, now_ns, fb);
    rp_notify(rp, now_ns, &s, LIBCC_RP_EVENT_FEEDBACK);
    return rc;
}

int libcc_rp_on_timeout(libcc_rp *rp, uint64_t now_ns)
{
    rp_snapshot s;
    int rc = rp_begin(rp, now_ns, &s);
    if (rc)
        return rc;
    if (rp->ops->on_timeout)
        rc = rp->ops->on_timeout(rp, now_ns);
    rp_notify(rp, now_ns, &s, LIBCC_RP_EVENT_TIMEOUT);
    return rc;
}

void(libcc_rp_request_probe)(libcc_rp *rp, uint64_t now_ns)
{
    if (rp->cbs.send_probe)
        rp->cbs.send_probe(rp, now_ns, rp->user_data);
}

static int rp_ok(const libcc_rp *rp)
{
    return rp && rp->magic == RP_MAGIC;
}

uint64_t(libcc_rp_rate_bps)(const libcc_rp *rp)
{
    return rp_ok(rp) ? rp->rate_bps : 0;
}

uint64_t(libcc_rp_window_bytes)(const libcc_rp *rp)
{
    return rp_ok(rp) ? rp->window_bytes : 0;
}

uint64_t(libcc_rp_deadline_ns)(const libcc_rp *rp)
{
    return rp_ok(rp) ? rp->deadline_ns : LIBCC_NO_DEADLINE;
}

uint64_t(libcc_rp_rto_ns)(const libcc_rp *rp)
{
    return rp_ok(rp) ? rp->rto_ns : 0;
}

void *libcc_rp_user_data(const libcc_rp *rp)
{
    return rp_ok(rp) ? rp->user_data : NULL;
}

const char *libcc_rp_algorithm(const libcc_rp *rp)
{
    return rp_ok(rp) ? rp->algo->name : NULL;
}

int libcc_rp_vars(const libcc_rp *rp, const libcc_param_desc **vars, size_t *count)
{
    if (!rp_ok(rp) || !vars || !count)
        return LIBCC_ERR_INVALID_ARG;
    *vars = rp->ops->vars;
    *count = rp->ops->read_vars ? rp->ops->n_vars : 0;
    return LIBCC_OK;
}

int libcc_rp_read_vars(const libcc_rp *rp, double *values, size_t count)
{
    if (!rp_ok(rp) || (!values && count))
        return LIBCC_ERR_INVALID_ARG;
    if (!rp->ops->read_vars)
        return LIBCC_OK;
    if (count < rp->ops->n_vars)
        return LIBCC_ERR_BUFFER_TOO_SMALL;
    rp->ops->read_vars(rp, values);
    return LIBCC_OK;
}

/* ---- <libcc/algorithm.h>: what a module reads and sets ------------------ */

const libcc_rp_ops libcc_rp_ops_none = {0};

void *(libcc_rp_state)(libcc_rp *rp)
{
    return libcc_rp_state_in(rp);
}

const void *(libcc_rp_state_const)(const libcc_rp *rp)
{
    return libcc_rp_state_const_in(rp);
}

const void *(libcc_rp_config)(const libcc_rp *rp)
{
    return libcc_rp_config_in(rp);
}

const libcc_common_config *(libcc_rp_common)(const libcc_rp *rp)
{
    return libcc_rp_common_in(rp);
}

const libcc_flow_info *(libcc_rp_flow)(const libcc_rp *rp)
{
    return libcc_rp_flow_in(rp);
}

void(libcc_rp_set_rate_bps)(libcc_rp *rp, uint64_t rate_bps)
{
    libcc_rp_set_rate_bps_in(rp, rate_bps);
}

void(libcc_rp_set_window_bytes)(libcc_rp *rp, uint64_t window_bytes)
{
    libcc_rp_set_window_bytes_in(rp, window_bytes);
}

void(libcc_rp_set_deadline_ns)(libcc_rp *rp, uint64_t deadline_ns)
{
    libcc_rp_set_deadline_ns_in(rp, deadline_ns);
}

void(libcc_rp_set_rto_ns)(libcc_rp *rp, uint64_t rto_ns)
{
    libcc_rp_set_rto_ns_in(rp, rto_ns);
}

uint64_t(libcc_rp_snd_nxt)(const libcc_rp *rp)
{
    return libcc_rp_snd_nxt_in(rp);
}

uint64_t(libcc_rp_bytes_sent)(const libcc_rp *rp)
{
    return libcc_rp_bytes_sent_in(rp);
}
