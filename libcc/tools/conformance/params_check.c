/* SPDX-License-Identifier: MIT */
/* Every parameter's range, from its own descriptor: min, max and a value
 * between are accepted and make the algorithm's objects (unless a relation
 * with another parameter refuses them, which libcc_params_validate names);
 * the nearest values outside are refused with LIBCC_ERR_OUT_OF_RANGE and
 * leave the value as it was. The flow attributes likewise, through the RP. */
#include "conformance.h"
#include "objects.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A value of the unit between lo and hi (whole for counts). */
static double between(conf_prng *g, const libcc_param_desc *d)
{
    double u = (double)(conf_next(g) >> 11) * 0x1p-53;
    double v = d->min + (d->max - d->min) * u;
    if (d->unit == LIBCC_UNIT_COUNT || d->unit == LIBCC_UNIT_BOOL)
        v = floor(v);
    return v < d->min ? d->min : v > d->max ? d->max : v;
}

/* The nearest value the unit can say beyond a bound (0: none, e.g. a
 * boolean, whose outside values are not numbers of its kind). */
static int outside(const libcc_param_desc *d, int side, double *v)
{
    if (d->unit == LIBCC_UNIT_BOOL)
        return 0;
    const double b = side < 0 ? d->min : d->max;
    *v = d->unit == LIBCC_UNIT_COUNT ? b + side : nextafter(b, side * INFINITY);
    return isfinite(*v);
}

static bool one_value(const char *algo, unsigned roles, const libcc_param_desc *d, double v,
                      conf_failure *f)
{
    libcc_params *p = NULL;
    if (libcc_params_new(&p, algo) != LIBCC_OK)
        return conf_fail(f, CONF_CHECK_PARAMS, "libcc_params_new(%s) failed", algo);
    int rc = libcc_params_set_value(p, d->name, v);
    bool ok = true;
    if (rc != LIBCC_OK) {
        ok = conf_fail(f, CONF_CHECK_PARAMS, "%s = %.17g (range [%.17g, %.17g]) refused: %s", d->name, v,
                       d->min, d->max, libcc_params_error(p));
    } else if (libcc_params_validate(p) == LIBCC_OK) {
        conf_objects o;
        rc = conf_make_objects(p, roles, &o);
        conf_free_objects(&o);
        if (rc != LIBCC_OK)
            ok = conf_fail(f, CONF_CHECK_PARAMS, "%s = %.17g: params valid but objects refused: %s",
                           d->name, v, libcc_strerror(rc));
    }
    libcc_params_del(p);
    return ok;
}

static bool refused(const char *algo, const libcc_param_desc *d, double v, conf_failure *f)
{
    libcc_params *p = NULL;
    if (libcc_params_new(&p, algo) != LIBCC_OK)
        return conf_fail(f, CONF_CHECK_PARAMS, "libcc_params_new(%s) failed", algo);
    double before = NAN, after = NAN;
    libcc_params_get(p, d->name, &before);
    const int rc = libcc_params_set_value(p, d->name, v);
    libcc_params_get(p, d->name, &after);
    libcc_params_del(p);
    if (rc != LIBCC_ERR_OUT_OF_RANGE)
        return conf_fail(f, CONF_CHECK_PARAMS, "%s = %.17g, outside [%.17g, %.17g]: %s (expected %s)",
                         d->name, v, d->min, d->max, libcc_strerror(rc),
                         libcc_strerror(LIBCC_ERR_OUT_OF_RANGE));
    if (!(before == after))
        return conf_fail(f, CONF_CHECK_PARAMS, "%s = %.17g was refused but changed the value %.17g to %.17g",
                         d->name, v, before, after);
    return true;
}

static bool table(const char *algo, unsigned roles, const libcc_param_desc *t, size_t n, conf_prng *g,
                  conf_failure *f)
{
    for (size_t i = 0; i < n; i++) {
        const libcc_param_desc *d = &t[i];
        const double inside[3] = {d->min, d->max, between(g, d)};
        for (int k = 0; k < 3; k++)
            if (!one_value(algo, roles, d, inside[k], f))
                return false;
        for (int side = -1; side <= 1; side += 2) {
            double v;
            if (outside(d, side, &v) && !refused(algo, d, v, f))
                return false;
        }
    }
    return true;
}

/* The flow's fields at their bounds make an RP, one unit beyond is refused. */
static bool flow_ranges(const char *algo, conf_failure *f)
{
    const libcc_param_desc *t;
    size_t n;
    libcc_flow_params(&t, &n);
    libcc_params *p = NULL;
    if (libcc_params_new(&p, algo) != LIBCC_OK)
        return conf_fail(f, CONF_CHECK_PARAMS, "libcc_params_new(%s) failed", algo);
    bool ok = true;
    for (size_t i = 0; ok && i < n; i++) {
        const double vals[4] = {t[i].min, t[i].max, t[i].min - 1, t[i].max + 1};
        for (int k = 0; ok && k < 4; k++) {
            if (vals[k] < 0)
                continue; /* no unsigned field can say it */
            libcc_flow_info fi = {.flow_id = 1, .line_rate_bps = 100000000000ull, .base_rtt_ns = 12000,
                                  .mtu_bytes = 1000};
            if (strcmp(t[i].name, "line_rate") == 0)
                fi.line_rate_bps = (uint64_t)vals[k];
            else if (strcmp(t[i].name, "base_rtt") == 0)
                fi.base_rtt_ns = (uint64_t)vals[k];
            else if (strcmp(t[i].name, "mtu") == 0)
                fi.mtu_bytes = (uint32_t)vals[k];
            else
                continue;
            libcc_rp *rp = NULL;
            const int rc = libcc_rp_new(&rp, p, &fi, NULL, NULL, 0);
            libcc_rp_del(rp);
            const int want = k < 2 ? LIBCC_OK : LIBCC_ERR_OUT_OF_RANGE;
            /* a line rate of 0 is a missing one, not one out of range */
            if (rc != want && !(want == LIBCC_ERR_OUT_OF_RANGE && vals[k] == 0))
                ok = conf_fail(f, CONF_CHECK_PARAMS, "flow %s = %.17g (range [%.17g, %.17g]): %s (expected %s)",
                               t[i].name, vals[k], t[i].min, t[i].max, libcc_strerror(rc),
                               libcc_strerror(want));
        }
    }
    libcc_params_del(p);
    return ok;
}

bool conf_params_check(const char *algo, conf_prng g, conf_failure *f)
{
    memset(f, 0, sizeof *f);
    snprintf(f->event, sizeof f->event, "params");
    libcc_algorithm_info info;
    const libcc_param_desc *t;
    size_t n;
    if (libcc_algorithm_info_get(algo, &info) != LIBCC_OK ||
        libcc_algorithm_params(algo, &t, &n) != LIBCC_OK)
        return conf_fail(f, CONF_CHECK_PARAMS, "unknown algorithm '%s'", algo);
    if (!table(algo, info.roles, t, n, &g, f))
        return false;
    libcc_common_params(&t, &n);
    return table(algo, info.roles, t, n, &g, f) && flow_ranges(algo, f);
}
