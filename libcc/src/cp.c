/* SPDX-License-Identifier: MIT */
/* Congestion Point objects, one per switch egress port. The core keeps the
 * port's cumulative transmitted bytes (INT's txBytes) and its random
 * generator; modules decide marking and stamping. */
#include "cc_internal.h"

#include <stdlib.h>
#include <string.h>

#define CP_MAGIC 0x6c636370u /* "lccp" */

int libcc_cp_new(libcc_cp **out, const libcc_params *params, const libcc_cp_info *info)
{
    if (out)
        *out = NULL;
    if (!out || !params || !info || info->link_rate_bps == 0)
        return LIBCC_ERR_INVALID_ARG;
    const libcc_algorithm *a = params->algo;
    const libcc_cp_ops *ops = a->cp ? a->cp : &libcc_cp_ops_none;
    if (ops->needs_int_table && !info->int_table)
        return LIBCC_ERR_INVALID_ARG;
    /* A port whose rate the INT header cannot carry would drop every hop it
     * stamps; refusing it here lets the host name the port before the run. */
    if (!libcc_int_rate_supported(a->data_int, info->link_rate_bps) ||
        !libcc_int_rate_supported(a->ack_int, info->link_rate_bps))
        return LIBCC_ERR_OUT_OF_RANGE;
    /* Core fields, the module's state (and what its configuration adds to
     * it: RoCC's flow table), its config: what this algorithm needs, no
     * more. The config is built first to size the state. */
    _Alignas(LIBCC_PRIV_ALIGN) unsigned char cfg_tmp[LIBCC_CFG_MAX_BYTES];
    libcc_common_config common;
    int rc = libcc_params_build(params, &common, cfg_tmp, NULL, 0);
    if (rc)
        return rc;
    const size_t extra = ops->extra_size ? ops->extra_size(cfg_tmp) : 0;
    if (extra > SIZE_MAX / 4) /* no memory has it, and the sums below would wrap */
        return LIBCC_ERR_NOMEM;
    const size_t state = libcc_priv_round(ops->state_size + extra);
    const size_t bytes = libcc_priv_round(sizeof(struct libcc_cp) + state + a->cfg_size);
    struct libcc_cp *cp = aligned_alloc(_Alignof(struct libcc_cp), bytes);
    if (!cp)
        return LIBCC_ERR_NOMEM;
    memset(cp, 0, bytes);
    memcpy(cp->priv + state, cfg_tmp, a->cfg_size);
    cp->common = common;
    cp->cfg = cp->priv + state;
    cp->deadline_ns = LIBCC_NO_DEADLINE;
    cp->algo = a;
    cp->int_hop_bytes = libcc_algo_int_hop_bytes(a);
    cp->ops = ops;
    cp->info = *info;
    cp->rng_state = info->seed;
    cp->magic = CP_MAGIC;
    cp->entry = params->entry;
    libcc_algo_ref(cp->entry);
    if (ops->init)
        ops->init(cp);
    *out = cp;
    return LIBCC_OK;
}

void libcc_cp_del(libcc_cp *cp)
{
    if (!cp || cp->magic != CP_MAGIC)
        return;
    cp->magic = 0;
    libcc_algo_release(cp->entry);
    free(cp);
}

static int check_pkt(const struct libcc_cp *cp, const libcc_cp_pkt *pkt)
{
    if (!cp || cp->magic != CP_MAGIC || !pkt)
        return LIBCC_ERR_INVALID_ARG;
    if (pkt->int_list && pkt->int_list->n_hops > LIBCC_INT_MAX_HOPS)
        return LIBCC_ERR_BAD_TELEMETRY;
    return LIBCC_OK;
}

/* Output fields (mark_ce, int_stamped) are only ever set here, never
 * cleared: a packet marked at enqueue stays marked. */
int libcc_cp_on_enqueue(libcc_cp *cp, uint64_t now_ns, libcc_cp_pkt *pkt)
{
    int rc = check_pkt(cp, pkt);
    if (rc)
        return rc;
    if (cp->ops->on_enqueue)
        rc = cp->ops->on_enqueue(cp, now_ns, pkt);
    return rc;
}

int libcc_cp_on_dequeue(libcc_cp *cp, uint64_t now_ns, libcc_cp_pkt *pkt)
{
    int rc = check_pkt(cp, pkt);
    if (rc)
        return rc;
    const uint8_t hops_before = pkt->int_list ? pkt->int_list->n_hops : 0;
    if (cp->ops->on_dequeue)
        rc = cp->ops->on_dequeue(cp, now_ns, pkt);
    /* As in the HPCC simulator, a stamp carries the bytes sent before this
     * packet. The packet leaves with whatever hop this dequeue appended (a
     * FNCC ACK whose port has no table entry yet gets none), so that is what
     * the link carries. */
    cp->tx_bytes += pkt->bytes;
    if (pkt->int_list && pkt->int_list->n_hops > hops_before)
        cp->tx_bytes += cp->int_hop_bytes;
    return rc;
}

int(libcc_cp_stamp)(libcc_cp *cp, libcc_cp_pkt *pkt, const libcc_int_hop *rec)
{
    return libcc_cp_stamp_in(cp, pkt, rec);
}

int(libcc_cp_int_record)(const libcc_cp *cp, uint64_t now_ns, uint64_t qlen_bytes,
                         libcc_int_hop *hop)
{
    if (!cp || cp->magic != CP_MAGIC)
        return LIBCC_ERR_INVALID_ARG;
    return libcc_cp_int_record_in(cp, now_ns, qlen_bytes, hop);
}

uint64_t libcc_cp_deadline_ns(const libcc_cp *cp)
{
    return cp && cp->magic == CP_MAGIC ? cp->deadline_ns : LIBCC_NO_DEADLINE;
}

size_t libcc_cp_max_feedback(const libcc_cp *cp)
{
    return cp && cp->magic == CP_MAGIC && cp->ops->on_timer ? cp->max_feedback : 0;
}

int libcc_cp_on_timer(libcc_cp *cp, uint64_t now_ns, libcc_cp_feedback *out, size_t out_len,
                      size_t *n_out)
{
    if (n_out)
        *n_out = 0;
    if (!cp || cp->magic != CP_MAGIC || !n_out || (!out && out_len > 0))
        return LIBCC_ERR_INVALID_ARG;
    if (!cp->ops->on_timer || now_ns < cp->deadline_ns)
        return LIBCC_OK; /* no timer, or early: nothing is due */
    if (out_len < cp->max_feedback)
        return LIBCC_ERR_BUFFER_TOO_SMALL;
    return cp->ops->on_timer(cp, now_ns, out, n_out);
}

double libcc_cp_mark_probability(const libcc_cp *cp, uint64_t queue_bytes)
{
    if (!cp || cp->magic != CP_MAGIC || !cp->ops->mark_probability)
        return 0.0;
    return cp->ops->mark_probability(cp, queue_bytes);
}

/* splitmix64: one word of state, passes BigCrush, and any seed (0 too)
 * gives a full-period sequence. */
static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

double(libcc_cp_rand_unit)(libcc_cp *cp)
{
    uint64_t x = cp->info.rand ? cp->info.rand(cp->info.rand_user_data) : splitmix64(&cp->rng_state);
    return (double)(x >> 11) * 0x1.0p-53;
}

/* ---- <libcc/algorithm.h>: what a module reads and sets ------------------ */

const libcc_cp_ops libcc_cp_ops_none = {0};

void *(libcc_cp_state)(libcc_cp *cp)
{
    return libcc_cp_state_in(cp);
}

const void *(libcc_cp_state_const)(const libcc_cp *cp)
{
    return libcc_cp_state_const_in(cp);
}

const void *(libcc_cp_config)(const libcc_cp *cp)
{
    return libcc_cp_config_in(cp);
}

const libcc_common_config *(libcc_cp_common)(const libcc_cp *cp)
{
    return libcc_cp_common_in(cp);
}

const libcc_cp_info *(libcc_cp_get_info)(const libcc_cp *cp)
{
    return libcc_cp_get_info_in(cp);
}

uint64_t(libcc_cp_tx_bytes)(const libcc_cp *cp)
{
    return libcc_cp_tx_bytes_in(cp);
}

void(libcc_cp_set_deadline_ns)(libcc_cp *cp, uint64_t deadline_ns)
{
    libcc_cp_set_deadline_ns_in(cp, deadline_ns);
}

void(libcc_cp_set_max_feedback)(libcc_cp *cp, size_t max_feedback)
{
    libcc_cp_set_max_feedback_in(cp, max_feedback);
}
