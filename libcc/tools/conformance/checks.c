/* SPDX-License-Identifier: MIT */
/* The properties, each a function of the values it judges, so each can be
 * tested with values derived by hand (tests/check/check_conformance.c)
 * and a broken algorithm is caught by the same code that passes a good one. */
#include "conformance.h"

#include <inttypes.h>
#include <math.h>

bool conf_check_rate(uint64_t rate, uint64_t lo, uint64_t hi, conf_failure *f)
{
    if (rate >= lo && rate <= hi)
        return true;
    return conf_fail(f, CONF_CHECK_RATE, "rate %" PRIu64 " bit/s outside [%" PRIu64 ", %" PRIu64 "]",
                     rate, lo, hi);
}

bool conf_check_window(uint64_t win, conf_window_kind kind, double mtu, double w_init,
                       conf_failure *f)
{
    switch (kind) {
    case CONF_WIN_UNLIMITED:
        if (win == LIBCC_WINDOW_UNLIMITED)
            return true;
        return conf_fail(f, CONF_CHECK_WINDOW,
                         "window %" PRIu64 " B on a rate-only algorithm (expected unlimited)", win);
    case CONF_WIN_HPCC: {
        /* W in [min(mtu, W_init), W_init], rounded; above 2^64 B it saturates */
        const double lo = fmin(mtu, w_init);
        const bool ok = w_init >= 0x1p64
                            ? (win == UINT64_MAX || (double)win >= floor(lo))
                            : ((double)win >= floor(lo) && (double)win <= ceil(w_init));
        if (ok)
            return true;
        return conf_fail(f, CONF_CHECK_WINDOW, "window %" PRIu64 " B outside [%.17g, %.17g]", win, lo,
                         w_init);
    }
    default:
        if (win >= 1)
            return true;
        return conf_fail(f, CONF_CHECK_WINDOW, "window 0 B (expected 1 B or more, or unlimited)");
    }
}

bool conf_check_finite(const double *values, const libcc_param_desc *vars, size_t n,
                       conf_failure *f)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(values[i]))
            return conf_fail(f, CONF_CHECK_FINITE, "variable %s is %g",
                             vars && vars[i].name ? vars[i].name : "?", values[i]);
    return true;
}

bool conf_check_deadline(uint64_t deadline, uint64_t now, conf_failure *f)
{
    if (deadline == LIBCC_NO_DEADLINE || deadline >= now)
        return true;
    return conf_fail(f, CONF_CHECK_DEADLINE, "deadline %" PRIu64 " ns before now %" PRIu64 " ns",
                     deadline, now);
}

bool conf_check_timer_advanced(uint64_t deadline, uint64_t at, conf_failure *f)
{
    if (deadline == LIBCC_NO_DEADLINE || deadline > at)
        return true;
    return conf_fail(f, CONF_CHECK_TIMER,
                     "timer at %" PRIu64 " ns left the deadline at %" PRIu64
                     " ns: a host would fire it forever",
                     at, deadline);
}

bool conf_check_callback(uint64_t announced, uint64_t getter, conf_failure *f)
{
    if (announced == getter)
        return true;
    return conf_fail(f, CONF_CHECK_CALLBACK,
                     "deadline_changed announced %" PRIu64 " ns, the getter says %" PRIu64 " ns",
                     announced, getter);
}

bool conf_check_reentry(int rc, const char *callback, conf_failure *f)
{
    if (rc == LIBCC_ERR_INVALID_ARG)
        return true;
    return conf_fail(f, CONF_CHECK_REENTRY,
                     "libcc_rp_on_cnp on the same RP from inside %s returned %s (expected: refused, %s)",
                     callback, libcc_strerror(rc), libcc_strerror(LIBCC_ERR_INVALID_ARG));
}

bool conf_check_probability(double p, uint64_t queue_bytes, conf_failure *f)
{
    if (p >= 0.0 && p <= 1.0)
        return true;
    return conf_fail(f, CONF_CHECK_MARK, "mark probability %g at a queue of %" PRIu64 " B (expected in [0, 1])",
                     p, queue_bytes);
}

bool conf_check_feedback_count(size_t n, size_t max, conf_failure *f)
{
    if (n <= max)
        return true;
    return conf_fail(f, CONF_CHECK_CP_FEEDBACK,
                     "timer wrote %zu feedback entries, libcc_cp_max_feedback says at most %zu", n, max);
}

bool conf_check_call(int rc, const char *call, conf_failure *f)
{
    if (rc == LIBCC_OK || rc == LIBCC_ERR_UNSUPPORTED)
        return true;
    return conf_fail(f, CONF_CHECK_CALL, "%s returned %s on a legal event", call, libcc_strerror(rc));
}
