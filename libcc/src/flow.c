/* SPDX-License-Identifier: MIT */
/* What a flow may be. A value outside these ranges is a unit mistake (a
 * base RTT in ps, a rate in bytes/s), not a network: refused when the RP is
 * made, before any arithmetic runs on it (issue #21: a 1e10 s base RTT ran
 * with an infinite window). docs/libcc-api.md#flow-attributes gives the
 * reasons for each bound. */
#include <libcc/libcc.h>

#include <stdio.h>

enum { FLOW_LINE_RATE, FLOW_BASE_RTT, FLOW_MTU, FLOW_COUNT };

static const libcc_param_desc flow_params[FLOW_COUNT] = {
    [FLOW_LINE_RATE] = {"line_rate", LIBCC_UNIT_BPS, 100e9, 1e6, 10e12,
                        "NIC port rate; required (0 is refused as missing)"},
    [FLOW_BASE_RTT] = {"base_rtt", LIBCC_UNIT_NS, 0, 0, 1e9,
                       "base propagation RTT of the path; 0: unknown"},
    [FLOW_MTU] = {"mtu", LIBCC_UNIT_BYTES, 1000, 64, 9216,
                  "wire bytes of a full packet; 0 stands for the default"},
};

void libcc_flow_params(const libcc_param_desc **table, size_t *count)
{
    if (table)
        *table = flow_params;
    if (count)
        *count = FLOW_COUNT;
}

/* The one-line reason for row's value v, into err (if any). */
static int refuse(int rc, int row, double v, char *err, size_t len)
{
    if (err && len) {
        const libcc_param_desc *d = &flow_params[row];
        char text[48], lo[48], hi[48];
        libcc_format_value(d->unit, v, text, sizeof text);
        libcc_format_value(d->unit, d->min, lo, sizeof lo);
        libcc_format_value(d->unit, d->max, hi, sizeof hi);
        if (rc == LIBCC_ERR_INVALID_ARG)
            snprintf(err, len, "%s is missing (0); accepted [%s, %s]", d->name, lo, hi);
        else
            snprintf(err, len, "%s %s is outside [%s, %s]", d->name, text, lo, hi);
    }
    return rc;
}

int libcc_flow_check(const libcc_flow_info *flow, char *err, size_t len)
{
    if (!flow) {
        if (err && len)
            snprintf(err, len, "no flow");
        return LIBCC_ERR_INVALID_ARG;
    }
    const double v[FLOW_COUNT] = {[FLOW_LINE_RATE] = (double)flow->line_rate_bps,
                                  [FLOW_BASE_RTT] = (double)flow->base_rtt_ns,
                                  [FLOW_MTU] = (double)flow->mtu_bytes};
    for (int row = 0; row < FLOW_COUNT; row++) {
        /* A missing value is not out of range: MTU 0 stands for the default;
         * line rate 0 is reported after the others, so that a caller that
         * does not know the rate yet (the bindings before a NIC has its
         * device) still hears which present value is wrong. */
        if (v[row] == 0 && (row == FLOW_MTU || row == FLOW_LINE_RATE))
            continue;
        if (!(v[row] >= flow_params[row].min && v[row] <= flow_params[row].max))
            return refuse(LIBCC_ERR_OUT_OF_RANGE, row, v[row], err, len);
    }
    if (flow->line_rate_bps == 0)
        return refuse(LIBCC_ERR_INVALID_ARG, FLOW_LINE_RATE, 0, err, len);
    if (err && len)
        err[0] = '\0';
    return LIBCC_OK;
}
