/* SPDX-License-Identifier: MIT */
/* Small conversions the window- and delay-based modules share: T, the
 * bandwidth-delay product, window <-> rate. Units: bits/s, ns, bytes. */
#ifndef LIBCC_ALGO_UTIL_H
#define LIBCC_ALGO_UTIL_H

#include "../cc_internal.h"

/* bits/s x ns -> bytes */
#define ALGO_BIT_NS_PER_BYTE_S 8e9
/* T when neither the parameter nor the flow gives one (as hpcc_core.h). */
#define ALGO_DEFAULT_T_NS 5000u

/* The base RTT a module uses: its own parameter, else the flow's, else 5 us. */
static inline uint64_t algo_base_rtt(uint64_t param_ns, const libcc_rp *rp)
{
    if (param_ns)
        return param_ns;
    return libcc_rp_flow(rp)->base_rtt_ns ? libcc_rp_flow(rp)->base_rtt_ns : ALGO_DEFAULT_T_NS;
}

/* rate x T in bytes, at least one byte (a window of 0 means nothing). */
static inline double algo_bdp_bytes(uint64_t rate_bps, uint64_t t_ns)
{
    const double w = (double)rate_bps * (double)t_ns / ALGO_BIT_NS_PER_BYTE_S;
    return w < 1.0 ? 1.0 : w;
}

/* window / T in bits/s, rounded, saturating (the core clamps to line rate). */
static inline uint64_t algo_window_to_rate(double w_bytes, uint64_t t_ns)
{
    return libcc_sat_u64(w_bytes * ALGO_BIT_NS_PER_BYTE_S / (double)t_ns + 0.5);
}

/* rate x T in bytes, rounded, saturating. */
static inline uint64_t algo_rate_to_window(double rate_bps, uint64_t t_ns)
{
    return libcc_sat_u64(rate_bps * (double)t_ns / ALGO_BIT_NS_PER_BYTE_S + 0.5);
}

static inline double algo_clamp(double v, double lo, double hi)
{
    if (!(v >= lo)) /* NaN too */
        return lo;
    return v > hi ? hi : v;
}

#endif
