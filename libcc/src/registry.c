/* SPDX-License-Identifier: MIT */
/* The algorithms libcc knows, by name. Adding one: write algo/<name>.c
 * defining a `const libcc_algo libcc_algo_<id>`, add <id> to ALGORITHMS. */
#include "cc_internal.h"

#include <string.h>

/* The one list: the table of algorithms and the names libcc_algorithms()
 * returns both come from it, in this order. */
#define ALGORITHMS(X) X(none) X(dcqcn) X(hpcc) X(hpccpp) X(fncc) X(dctcp) X(timely) X(swift) X(powertcp) X(theta_powertcp) X(hpcc_pint) X(rocc)

#define DECLARE(id) extern const libcc_algo libcc_algo_##id;
ALGORITHMS(DECLARE)
#undef DECLARE

#define ENTRY(id) &libcc_algo_##id,
static const libcc_algo *const registry[] = {ALGORITHMS(ENTRY)};
#undef ENTRY

/* Each name is the algorithm table's own name array: an address constant,
 * so the list cannot disagree with the tables. */
#define NAME(id) libcc_algo_##id.name,
static const char *const names[] = {ALGORITHMS(NAME) NULL};
#undef NAME

#define N_ALGOS (sizeof registry / sizeof registry[0])

const char *const *libcc_algorithms(void)
{
    return names;
}

const libcc_algo *libcc_algo_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < N_ALGOS; i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

const libcc_algo *libcc_algo_at(size_t i)
{
    return i < N_ALGOS ? registry[i] : NULL;
}

int libcc_algorithm_info_get(const char *algorithm, libcc_algorithm_info *info)
{
    if (!info)
        return LIBCC_ERR_INVALID_ARG;
    const libcc_algo *a = libcc_algo_find(algorithm);
    if (!a)
        return LIBCC_ERR_UNKNOWN_ALGORITHM;
    memset(info, 0, sizeof *info);
    info->name = a->name;
    info->roles = a->roles;
    info->data_int = a->data_int;
    info->ack_int = a->ack_int;
    info->cp_needs_int_table = a->cp_needs_int_table;
    info->int_hop_bytes = libcc_algo_int_hop_bytes(a);
    info->signals = a->signals;
    info->pint_bits = (a->signals & LIBCC_SIGNAL_DATA_PINT) ? a->pint_bits : 0;
    info->hpcc_sim_cc_mode = a->hpcc_sim_cc_mode;
    return LIBCC_OK;
}
