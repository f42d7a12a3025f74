/* SPDX-License-Identifier: MIT */
#include "cc_internal.h"

const char *libcc_strerror(int err)
{
    switch (err) {
    case LIBCC_OK: return "success";
    case LIBCC_ERR_INVALID_ARG: return "invalid argument (NULL pointer, bad value or misuse)";
    case LIBCC_ERR_UNKNOWN_ALGORITHM: return "unknown congestion control algorithm";
    case LIBCC_ERR_UNKNOWN_PARAM: return "unknown parameter for this algorithm";
    case LIBCC_ERR_BAD_VALUE: return "parameter value does not parse";
    case LIBCC_ERR_BAD_UNIT: return "missing or wrong unit for this parameter";
    case LIBCC_ERR_OUT_OF_RANGE: return "parameter value out of its accepted range";
    case LIBCC_ERR_NOMEM: return "out of memory";
    case LIBCC_ERR_BUFFER_TOO_SMALL: return "buffer or memory too small";
    case LIBCC_ERR_UNSUPPORTED: return "event not supported by this algorithm";
    case LIBCC_ERR_BAD_TELEMETRY: return "telemetry record rejected";
    case LIBCC_ERR_FULL: return "table full";
    case LIBCC_ERR_NOT_FOUND: return "no such flow or entry";
    case LIBCC_ERR_TIME_BACKWARDS: return "time went backwards (now_ns before a previous event)";
    case LIBCC_ERR_EXISTS: return "an algorithm of that name is already registered";
    case LIBCC_ERR_BAD_DESCRIPTION: return "invalid algorithm description";
    case LIBCC_ERR_ABI_MISMATCH: return "algorithm built against another libcc algorithm ABI version";
    case LIBCC_ERR_BUSY: return "algorithm still in use (params or objects of it exist)";
    case LIBCC_ERR_PLUGIN: return "plugin cannot be loaded or has no entry point";
    default: return "unknown libcc error code";
    }
}
