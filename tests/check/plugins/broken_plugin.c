/* SPDX-License-Identifier: MIT */
/* A plugin with a bug, for libcc-conformance's end-to-end test
 * (check_conformance.c): algorithm "broken-nan", whose RP variable
 * `cnps_seen` becomes NaN at its first CNP (a 0/0 in an average, say).
 * The tool must report vars-finite at that CNP and write a script that
 * libcc-replay, loading the same plugin, replays to the NaN. */
#include <libcc/algorithm.h>

typedef struct {
    uint64_t cnps;
} broken_state;

static int broken_on_cnp(libcc_rp *rp, uint64_t now_ns)
{
    (void)now_ns;
    ((broken_state *)libcc_rp_state(rp))->cnps++;
    return LIBCC_OK;
}

static const libcc_param_desc broken_vars[] = {
    {"cnps_seen", LIBCC_UNIT_COUNT, 0, 0, 0, "CNPs seen; NaN once there was one (the bug)"},
};

static void broken_read_vars(const libcc_rp *rp, double *values)
{
    const broken_state *s = libcc_rp_state_const(rp);
    const double zero = 0.0 * (double)s->cnps;
    values[0] = s->cnps ? zero / zero : 0.0;
}

static const libcc_rp_ops broken_rp = {
    .state_size = sizeof(broken_state),
    .on_cnp = broken_on_cnp,
    .vars = broken_vars,
    .n_vars = 1,
    .read_vars = broken_read_vars,
};

static const libcc_algorithm broken_algorithm = {
    .abi_version = LIBCC_ALGORITHM_ABI_VERSION,
    .name = "broken-nan",
    .summary = "test plugin: a NaN variable after the first CNP",
    .roles = LIBCC_ROLE_RP,
    .rp = &broken_rp,
};

int libcc_plugin_init(char *err, size_t err_len)
{
    return libcc_algorithm_register(&broken_algorithm, err, err_len);
}
