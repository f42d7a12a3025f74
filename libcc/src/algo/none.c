/* SPDX-License-Identifier: MIT */
/* `none`: no congestion control. Every flow sends at line rate with no
 * window; only PFC (in the host fabric) keeps the network lossless. The
 * baseline against which the other algorithms are measured. */
#include "../cc_internal.h"

static int none_cfg_init(void *cfg, const double *values, char *err, size_t err_len)
{
    (void)cfg;
    (void)values;
    (void)err;
    (void)err_len;
    return LIBCC_OK;
}

const libcc_algorithm libcc_algorithm_none = {
    .abi_version = LIBCC_ALGORITHM_ABI_VERSION,
    .name = "none",
    .roles = LIBCC_ROLE_RP, /* line rate: nothing for a receiver or a switch to do */
    .params = NULL,
    .n_params = 0,
    .cfg_init = none_cfg_init,
    /* No ops: the core starts every RP at line rate, with no window and no
     * deadline, which is all `none` is. */
};
