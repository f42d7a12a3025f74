/* SPDX-License-Identifier: MIT */
/* The algorithms libcc knows, by name. Adding one: write algo/<name>.c
 * defining a `const libcc_algo`, declare it here, add it to the table. */
#include "cc_internal.h"

#include <string.h>

extern const libcc_algo libcc_algo_none;
extern const libcc_algo libcc_algo_dcqcn;
extern const libcc_algo libcc_algo_hpcc;
extern const libcc_algo libcc_algo_hpccpp;
extern const libcc_algo libcc_algo_fncc;

static const libcc_algo *const registry[] = {
    &libcc_algo_none, &libcc_algo_dcqcn, &libcc_algo_hpcc, &libcc_algo_hpccpp, &libcc_algo_fncc,
};

#define N_ALGOS (sizeof registry / sizeof registry[0])

static const char *const names[N_ALGOS + 1] = {"none", "dcqcn", "hpcc", "hpcc++", "fncc", NULL};

_Static_assert(N_ALGOS == 5, "keep names[] in step with registry[]");

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
