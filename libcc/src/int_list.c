/* SPDX-License-Identifier: MIT */
/*
 * INT hop lists: a fixed array carried inside packets and ACKs, so appending
 * must never allocate and never write past LIBCC_INT_MAX_HOPS, whatever the
 * caller's runtime bound or a corrupted n_hops says.
 */
#include "cc_internal.h"

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

int(libcc_int_list_push)(libcc_int_list *list, const libcc_int_hop *hop, unsigned max_hops)
{
    return libcc_int_list_push_in(list, hop, max_hops);
}

uint64_t(libcc_wrap_diff)(uint64_t cur, uint64_t prev, unsigned bits)
{
    return libcc_wrap_diff_in(cur, prev, bits);
}
