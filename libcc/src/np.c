/* SPDX-License-Identifier: MIT */
/* Notification Point objects. The receiver's flow table is allocated once
 * at creation (no allocation per packet):
 *   - a slab of max_flows slots (stable indices, module state inline),
 *   - an open-addressing index flow_id -> slot (linear probing with
 *     backward-shift deletion, so no tombstones accumulate),
 *   - two intrusive lists: active flows ordered by last data time (oldest
 *     first), and idle flows (oldest first), so counting concurrent flows
 *     (FNCC's N) and choosing a flow to evict are O(1) amortized. */
#include "cc_internal.h"

#include <stdlib.h>
#include <string.h>

#define NP_MAGIC 0x6c636e70u /* "lcnp" */
#define NIL UINT32_MAX
#define MAX_FLOWS_LIMIT (1u << 24)

/* The NP struct keeps two lists in the same link fields: a flow is on
 * exactly one of them. Heads/tails of the idle list live here. */
typedef struct np_lists {
    uint32_t idle_head, idle_tail;
    uint32_t free_head;
} np_lists;

/* np->slots holds, in order: the slab, the index (uint32 per bucket), and
 * the np_lists record. */
static struct libcc_np_flow *slot(const struct libcc_np *np, uint32_t i)
{
    return (struct libcc_np_flow *)(np->slots + (size_t)i * np->slot_size);
}

static uint32_t *index_of(const struct libcc_np *np)
{
    return (uint32_t *)(np->slots + (size_t)np->info.max_flows * np->slot_size);
}

static np_lists *lists_of(const struct libcc_np *np)
{
    return (np_lists *)(index_of(np) + np->capacity);
}

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint32_t bucket_of(const struct libcc_np *np, uint64_t flow_id)
{
    return (uint32_t)(mix64(flow_id) & (np->capacity - 1));
}

/* ---- lists -------------------------------------------------------------- */

static void list_unlink(struct libcc_np *np, uint32_t i, uint32_t *head, uint32_t *tail)
{
    struct libcc_np_flow *f = slot(np, i);
    if (f->lru_prev != NIL)
        slot(np, f->lru_prev)->lru_next = f->lru_next;
    else
        *head = f->lru_next;
    if (f->lru_next != NIL)
        slot(np, f->lru_next)->lru_prev = f->lru_prev;
    else
        *tail = f->lru_prev;
    f->lru_prev = f->lru_next = NIL;
}

static void list_append(struct libcc_np *np, uint32_t i, uint32_t *head, uint32_t *tail)
{
    struct libcc_np_flow *f = slot(np, i);
    f->lru_next = NIL;
    f->lru_prev = *tail;
    if (*tail != NIL)
        slot(np, *tail)->lru_next = i;
    else
        *head = i;
    *tail = i;
}

static int expired(const struct libcc_np *np, const struct libcc_np_flow *f, uint64_t now_ns)
{
    return now_ns - f->last_data_ns >= np->common.activity_window_ns;
}

/* Move flows whose last data is older than the activity window to idle. */
static void expire(struct libcc_np *np, uint64_t now_ns)
{
    np_lists *l = lists_of(np);
    while (np->lru_head != NIL && expired(np, slot(np, np->lru_head), now_ns)) {
        uint32_t i = np->lru_head;
        list_unlink(np, i, &np->lru_head, &np->lru_tail);
        slot(np, i)->active = 0;
        np->n_active--;
        list_append(np, i, &l->idle_head, &l->idle_tail);
    }
}

/* ---- index -------------------------------------------------------------- */

static uint32_t find(const struct libcc_np *np, uint64_t flow_id, uint32_t *bucket)
{
    const uint32_t *idx = index_of(np);
    uint32_t b = bucket_of(np, flow_id);
    while (idx[b] != NIL) {
        if (slot(np, idx[b])->flow_id == flow_id) {
            if (bucket)
                *bucket = b;
            return idx[b];
        }
        b = (b + 1) & (np->capacity - 1);
    }
    if (bucket)
        *bucket = b;
    return NIL;
}

static void index_remove(struct libcc_np *np, uint32_t b)
{
    uint32_t *idx = index_of(np);
    uint32_t mask = np->capacity - 1;
    idx[b] = NIL;
    /* Backward shift: pull later entries of the probe run into the hole if
     * their home bucket does not lie (cyclically) between hole and them. */
    for (uint32_t j = (b + 1) & mask; idx[j] != NIL; j = (j + 1) & mask) {
        uint32_t home = bucket_of(np, slot(np, idx[j])->flow_id);
        int between = (b <= j) ? (home > b && home <= j) : (home > b || home <= j);
        if (!between) {
            idx[b] = idx[j];
            idx[j] = NIL;
            b = j;
        }
    }
}

/* Remove slot i from the index and its list and return it to the free list. */
static void forget(struct libcc_np *np, uint32_t i)
{
    struct libcc_np_flow *f = slot(np, i);
    np_lists *l = lists_of(np);
    uint32_t b;
    if (find(np, f->flow_id, &b) == i)
        index_remove(np, b);
    if (f->active) {
        list_unlink(np, i, &np->lru_head, &np->lru_tail);
        np->n_active--;
    } else {
        list_unlink(np, i, &l->idle_head, &l->idle_tail);
    }
    f->used = 0;
    f->active = 0;
    f->lru_next = l->free_head;
    l->free_head = i;
    np->n_flows--;
}

/* ---- object ------------------------------------------------------------- */

int libcc_np_new(libcc_np **out, const libcc_params *params, const libcc_np_info *info,
                 const libcc_np_callbacks *cbs, void *user_data)
{
    if (out)
        *out = NULL;
    if (!out || !params || !info || info->max_flows == 0 || info->max_flows > MAX_FLOWS_LIMIT ||
        info->line_rate_bps == 0)
        return LIBCC_ERR_INVALID_ARG;
    const libcc_algorithm *a = params->algo;
    const size_t np_bytes = libcc_priv_round(sizeof(struct libcc_np) + a->cfg_size);
    struct libcc_np *np = aligned_alloc(_Alignof(struct libcc_np), np_bytes);
    if (!np)
        return LIBCC_ERR_NOMEM;
    memset(np, 0, np_bytes);
    int rc = libcc_params_build(params, &np->common, np->cfg_mem, NULL, 0);
    if (rc) {
        free(np);
        return rc;
    }
    np->cfg = np->cfg_mem;
    np->algo = a;
    np->ops = a->np ? a->np : &libcc_np_ops_none;
    np->info = *info;
    if (cbs)
        np->cbs = *cbs;
    np->user_data = user_data;
    np->deadline_ns = LIBCC_NO_DEADLINE;
    np->capacity = 8;
    while (np->capacity < 2 * info->max_flows)
        np->capacity <<= 1;
    np->slot_size = libcc_priv_round(sizeof(struct libcc_np_flow) + np->ops->flow_state_size);
    size_t bytes = (size_t)info->max_flows * np->slot_size + (size_t)np->capacity * sizeof(uint32_t) +
                   sizeof(np_lists);
    np->slots = aligned_alloc(LIBCC_PRIV_ALIGN, libcc_priv_round(bytes));
    if (!np->slots) {
        free(np);
        return LIBCC_ERR_NOMEM;
    }
    memset(np->slots, 0, bytes);
    memset(index_of(np), 0xff, (size_t)np->capacity * sizeof(uint32_t));
    np_lists *l = lists_of(np);
    l->idle_head = l->idle_tail = NIL;
    np->lru_head = np->lru_tail = NIL;
    for (uint32_t i = 0; i < info->max_flows; i++)
        slot(np, i)->lru_next = (i + 1 < info->max_flows) ? i + 1 : NIL;
    l->free_head = 0;
    np->magic = NP_MAGIC;
    np->entry = params->entry;
    libcc_algo_ref(np->entry);
    *out = np;
    return LIBCC_OK;
}

void libcc_np_del(libcc_np *np)
{
    if (!np || np->magic != NP_MAGIC)
        return;
    np->magic = 0;
    libcc_algo_release(np->entry);
    free(np->slots);
    free(np);
}

static int np_begin(struct libcc_np *np, uint64_t now_ns)
{
    if (!np || np->magic != NP_MAGIC)
        return LIBCC_ERR_INVALID_ARG;
    if (now_ns < np->last_now_ns)
        return LIBCC_ERR_TIME_BACKWARDS;
    np->last_now_ns = now_ns;
    expire(np, now_ns);
    return LIBCC_OK;
}

static void np_notify(struct libcc_np *np, uint64_t before)
{
    if (np->deadline_ns != before && np->cbs.deadline_changed)
        np->cbs.deadline_changed(np, np->deadline_ns, np->user_data);
}

/* Find the flow or make room for it: evicting the longest-idle flow when
 * the table is full is safe, since an idle flow's only state is pacing of
 * CNPs and ACK counting that restart harmlessly. */
static int lookup_or_add(struct libcc_np *np, uint64_t flow_id, uint64_t now_ns, uint32_t *out)
{
    uint32_t i = find(np, flow_id, NULL);
    if (i != NIL) {
        *out = i;
        return LIBCC_OK;
    }
    np_lists *l = lists_of(np);
    if (l->free_head == NIL) {
        if (l->idle_head == NIL)
            return LIBCC_ERR_FULL;
        forget(np, l->idle_head);
    }
    i = l->free_head;
    struct libcc_np_flow *f = slot(np, i);
    l->free_head = f->lru_next;
    memset(f, 0, np->slot_size);
    f->flow_id = flow_id;
    f->used = 1;
    f->lru_prev = f->lru_next = NIL;
    f->last_data_ns = now_ns;
    uint32_t b;
    find(np, flow_id, &b);
    index_of(np)[b] = i;
    np->n_flows++;
    list_append(np, i, &l->idle_head, &l->idle_tail);
    if (np->ops->flow_init)
        np->ops->flow_init(np, f, now_ns);
    *out = i;
    return LIBCC_OK;
}

static void touch(struct libcc_np *np, uint32_t i, uint64_t now_ns)
{
    struct libcc_np_flow *f = slot(np, i);
    if (f->active) {
        list_unlink(np, i, &np->lru_head, &np->lru_tail);
    } else {
        np_lists *l = lists_of(np);
        list_unlink(np, i, &l->idle_head, &l->idle_tail);
        f->active = 1;
        np->n_active++;
    }
    f->last_data_ns = now_ns;
    list_append(np, i, &np->lru_head, &np->lru_tail);
}

int libcc_np_on_data(libcc_np *np, uint64_t now_ns, const libcc_data_pkt *pkt, libcc_np_verdict *verdict)
{
    if (!np || np->magic != NP_MAGIC || !pkt || !verdict)
        return LIBCC_ERR_INVALID_ARG;
    if (pkt->int_list && pkt->int_list->n_hops > LIBCC_INT_MAX_HOPS)
        return LIBCC_ERR_BAD_TELEMETRY;
    int rc = np_begin(np, now_ns);
    if (rc)
        return rc;
    uint64_t before = np->deadline_ns;
    uint32_t i;
    rc = lookup_or_add(np, pkt->flow_id, now_ns, &i);
    if (rc)
        return rc;
    touch(np, i, now_ns);

    struct libcc_np_flow *f = slot(np, i);
    memset(verdict, 0, sizeof *verdict); /* ack.int_list NULL: nothing to echo */
    verdict->ack.ecn_echo = pkt->ecn_ce;
    verdict->ack.is_probe = pkt->is_probe;
    /* Echoes every algorithm may use (libcc_algorithm_info.signals says
     * which the host must carry); the host adds remote_tx_ts_ns when the
     * ACK leaves. */
    verdict->ack.n_hops = pkt->n_hops;
    if (pkt->has & LIBCC_PKT_HAS_TX_TS) {
        verdict->ack.has |= LIBCC_ACK_HAS_TX_TS;
        verdict->ack.tx_ts_ns = pkt->tx_ts_ns;
    }
    if (pkt->has & LIBCC_PKT_HAS_RX_TS) {
        verdict->ack.has |= LIBCC_ACK_HAS_REMOTE_TS;
        verdict->ack.remote_rx_ts_ns = pkt->rx_ts_ns;
        verdict->ack.remote_tx_ts_ns = pkt->rx_ts_ns; /* until the host stamps the departure */
    }
    if (pkt->has & LIBCC_PKT_HAS_PINT) {
        verdict->ack.has |= LIBCC_ACK_HAS_PINT;
        verdict->ack.pint = pkt->pint;
    }
    if (!pkt->is_probe)
        f->pkts_since_ack++;
    if (f->pkts_since_ack >= np->common.ack_interval_pkts || pkt->last_of_flow || pkt->is_probe)
        verdict->send_ack = 1;
    if (np->ops->on_data)
        rc = np->ops->on_data(np, f, now_ns, pkt, verdict);
    if (verdict->send_ack)
        f->pkts_since_ack = 0;
    np_notify(np, before);
    return rc;
}

int libcc_np_flow_end(libcc_np *np, uint64_t now_ns, uint64_t flow_id)
{
    int rc = np_begin(np, now_ns);
    if (rc)
        return rc;
    uint32_t i = find(np, flow_id, NULL);
    if (i == NIL)
        return LIBCC_ERR_NOT_FOUND;
    forget(np, i);
    return LIBCC_OK;
}

int libcc_np_on_timer(libcc_np *np, uint64_t now_ns)
{
    int rc = np_begin(np, now_ns);
    if (rc)
        return rc;
    /* Early (or no timer): nothing is due, the deadline stays. Due: the
     * module lowers the cleared deadline to its next one, if any. */
    if (!np->ops->on_timer || now_ns < np->deadline_ns)
        return LIBCC_OK;
    uint64_t before = np->deadline_ns;
    np->deadline_ns = LIBCC_NO_DEADLINE;
    rc = np->ops->on_timer(np, now_ns);
    np_notify(np, before);
    return rc;
}

uint32_t libcc_np_active_flows(const libcc_np *np, uint64_t now_ns)
{
    if (!np || np->magic != NP_MAGIC)
        return 0;
    /* Const: count what expire() would move, without moving it. */
    uint32_t n = np->n_active;
    for (uint32_t i = np->lru_head; i != NIL && expired(np, slot(np, i), now_ns); i = slot(np, i)->lru_next)
        n--;
    return n;
}

uint64_t libcc_np_deadline_ns(const libcc_np *np)
{
    return (np && np->magic == NP_MAGIC) ? np->deadline_ns : LIBCC_NO_DEADLINE;
}

void(libcc_np_request_cnp)(libcc_np *np, uint64_t now_ns, uint64_t flow_id,
                           libcc_np_verdict *verdict)
{
    if (verdict)
        verdict->send_cnp = 1;
    if (np->cbs.send_cnp)
        np->cbs.send_cnp(np, now_ns, flow_id, np->user_data);
}

/* ---- <libcc/algorithm.h>: what a module reads and sets ------------------ */

const libcc_np_ops libcc_np_ops_none = {0};

const void *(libcc_np_config)(const libcc_np *np)
{
    return libcc_np_config_in(np);
}

const libcc_common_config *(libcc_np_common)(const libcc_np *np)
{
    return libcc_np_common_in(np);
}

const libcc_np_info *(libcc_np_get_info)(const libcc_np *np)
{
    return libcc_np_get_info_in(np);
}

void *(libcc_np_flow_state)(libcc_np_flow *flow)
{
    return libcc_np_flow_state_in(flow);
}

uint64_t(libcc_np_flow_id)(const libcc_np_flow *flow)
{
    return libcc_np_flow_id_in(flow);
}

void(libcc_np_set_deadline_ns)(libcc_np *np, uint64_t deadline_ns)
{
    libcc_np_set_deadline_ns_in(np, deadline_ns);
}
