/* SPDX-License-Identifier: MIT */
/* Making the objects an algorithm's roles need, as a host would: the RP on
 * an ordinary flow, the NP of a receiver, the CP of a 100 Gbps port (with
 * the switch's INT table when the algorithm needs one). */
#include "objects.h"

#include <string.h>

int conf_make_objects(const libcc_params *p, unsigned roles, conf_objects *o)
{
    memset(o, 0, sizeof *o);
    libcc_algorithm_info info;
    int rc = libcc_algorithm_info_get(libcc_params_algorithm(p), &info);
    if (rc)
        return rc;
    if (roles & LIBCC_ROLE_RP) {
        libcc_flow_info fi = {.flow_id = 1, .line_rate_bps = 100000000000ull, .base_rtt_ns = 12000,
                              .mtu_bytes = 1000};
        if ((rc = libcc_rp_new(&o->rp, p, &fi, NULL, NULL, 0)))
            return rc;
    }
    if (roles & LIBCC_ROLE_NP) {
        libcc_np_info ni = {.max_flows = 16, .line_rate_bps = 100000000000ull, .base_rtt_ns = 12000};
        if ((rc = libcc_np_new(&o->np, p, &ni, NULL, NULL)))
            return rc;
    }
    if (roles & LIBCC_ROLE_CP) {
        if (info.cp_needs_int_table && (rc = libcc_int_table_new(&o->table, 4)))
            return rc;
        libcc_cp_info ci = {.switch_id = 1, .port_id = 0, .link_rate_bps = 100000000000ull,
                            .seed = 1, .int_table = o->table};
        if ((rc = libcc_cp_new(&o->cp, p, &ci)))
            return rc;
    }
    return LIBCC_OK;
}

void conf_free_objects(conf_objects *o)
{
    libcc_rp_del(o->rp);
    libcc_np_del(o->np);
    libcc_cp_del(o->cp);
    libcc_int_table_del(o->table);
    memset(o, 0, sizeof *o);
}
