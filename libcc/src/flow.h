/* SPDX-License-Identifier: MIT */
/* The ranges of libcc_flow_info's fields (libcc_flow_params), checked where
 * an RP is made. */
#ifndef LIBCC_FLOW_H
#define LIBCC_FLOW_H

#include <libcc/libcc.h>

/* LIBCC_OK, LIBCC_ERR_INVALID_ARG (line rate 0: none given) or
 * LIBCC_ERR_OUT_OF_RANGE (a field outside its row of libcc_flow_params). */
int libcc_flow_check(const libcc_flow_info *flow);

#endif
