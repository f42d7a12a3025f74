/* SPDX-License-Identifier: MIT */
/* What a flow may be. A value outside these ranges is a unit mistake (a
 * base RTT in ps, a rate in bytes/s), not a network: refused when the RP is
 * made, before any arithmetic runs on it (issue #21: a 1e10 s base RTT ran
 * with an infinite window). docs/libcc-api.md#flow-attributes gives the
 * reasons for each bound. */
#include "flow.h"

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

static int in_range(int row, double v)
{
    return v >= flow_params[row].min && v <= flow_params[row].max;
}

int libcc_flow_check(const libcc_flow_info *flow)
{
    if (flow->line_rate_bps == 0)
        return LIBCC_ERR_INVALID_ARG;
    if (!in_range(FLOW_LINE_RATE, (double)flow->line_rate_bps) ||
        !in_range(FLOW_BASE_RTT, (double)flow->base_rtt_ns) ||
        (flow->mtu_bytes != 0 && !in_range(FLOW_MTU, (double)flow->mtu_bytes)))
        return LIBCC_ERR_OUT_OF_RANGE;
    return LIBCC_OK;
}
