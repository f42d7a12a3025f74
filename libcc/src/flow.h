/* SPDX-License-Identifier: MIT */
/* The ranges of libcc_flow_info's fields (libcc_flow_params), checked where
 * an RP is made (libcc_flow_check, public in libcc.h). */
#ifndef LIBCC_FLOW_H
#define LIBCC_FLOW_H

#include <libcc/libcc.h>

#endif
