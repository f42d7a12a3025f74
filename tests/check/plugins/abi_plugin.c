/* SPDX-License-Identifier: MIT */
/* A plugin built against another version of <libcc/algorithm.h>: libcc
 * must refuse it by its abi_version alone, reading nothing else. */
#include <libcc/algorithm.h>

static const libcc_algorithm future = {
    .abi_version = LIBCC_ALGORITHM_ABI_VERSION + 1,
    .name = "plugin-future",
    .roles = LIBCC_ROLE_RP,
};

int libcc_plugin_init(char *err, size_t err_len)
{
    return libcc_algorithm_register(&future, err, err_len);
}
