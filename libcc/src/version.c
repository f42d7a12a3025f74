/* SPDX-License-Identifier: MIT */
#include "cc_internal.h"

static const libcc_version_info version_info = {
    LIBCC_VERSION_MAJOR, LIBCC_VERSION_MINOR, LIBCC_VERSION_PATCH, LIBCC_VERSION_NUM, LIBCC_VERSION,
};

const libcc_version_info *libcc_version(void)
{
    return &version_info;
}
