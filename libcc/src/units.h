/* SPDX-License-Identifier: MIT */
#ifndef LIBCC_UNITS_H
#define LIBCC_UNITS_H

#include "cc_internal.h"

/* What a value of this unit looks like, for error messages. */
const char *libcc_unit_hint(libcc_unit unit);

#endif
