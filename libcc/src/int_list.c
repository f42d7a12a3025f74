/* SPDX-License-Identifier: MIT */
/*
 * INT hop lists: a fixed array carried inside packets and ACKs, so appending
 * must never allocate and never write past LIBCC_INT_MAX_HOPS, whatever the
 * caller's runtime bound or a corrupted n_hops says.
 */
#include <libcc/libcc.h>

#include <string.h>

void libcc_int_list_init(libcc_int_list *list)
{
    if (list == NULL)
        return;
    /* Zero every hop too: lists are copied whole into ACKs, and unused slots
     * must not carry stale or uninitialised bytes (determinism, sanitizers). */
    memset(list, 0, sizeof(*list));
    list->ts_bits = 64;
    list->tx_bits = 64;
}

int libcc_int_list_push(libcc_int_list *list, const libcc_int_hop *hop, unsigned max_hops)
{
    if (list == NULL || hop == NULL)
        return LIBCC_ERR_INVALID_ARG;
    /* 0 means "no runtime bound": the compile-time one still holds, and a
     * runtime bound larger than the array cannot be honoured. */
    unsigned bound = max_hops;
    if (bound == 0 || bound > LIBCC_INT_MAX_HOPS)
        bound = LIBCC_INT_MAX_HOPS;
    if (list->n_hops >= bound)
        return LIBCC_ERR_FULL;
    list->hop[list->n_hops] = *hop;
    list->n_hops++;
    return LIBCC_OK;
}

uint64_t libcc_wrap_diff(uint64_t cur, uint64_t prev, unsigned bits)
{
    /* Unsigned subtraction is already modulo 2^64; narrower counters keep only
     * their low bits. 0 and > 64 mean full width so that a zeroed list (or a
     * nonsense width) degrades to plain subtraction instead of a shift by 64,
     * which C leaves undefined. */
    uint64_t d = cur - prev;
    if (bits == 0 || bits >= 64)
        return d;
    return d & ((UINT64_C(1) << bits) - 1);
}
