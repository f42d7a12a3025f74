/* SPDX-License-Identifier: MIT */
#ifndef LIBCC_CONFORMANCE_OBJECTS_H
#define LIBCC_CONFORMANCE_OBJECTS_H

#include <libcc/libcc.h>

typedef struct conf_objects {
    libcc_rp *rp;
    libcc_np *np;
    libcc_cp *cp;
    libcc_int_table *table;
} conf_objects;

/* The objects of the roles (LIBCC_ROLE_*) from p; LIBCC_OK or the first
 * error (what was made is in *o either way: free it). */
int conf_make_objects(const libcc_params *p, unsigned roles, conf_objects *o);
void conf_free_objects(conf_objects *o);

#endif
