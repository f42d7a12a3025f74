/* SPDX-License-Identifier: MIT */
/* Parameter sets: one descriptor table per algorithm (plus the common
 * table) is the single source of truth for names, units, defaults and
 * ranges; this file turns text into validated values against it. */
#include "cc_internal.h"
#include "units.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const libcc_param_desc common_params[LIBCC_COMMON_COUNT] = {
    [LIBCC_COMMON_ACK_INTERVAL] = {"ack_interval", LIBCC_UNIT_COUNT, 1, 1, 65535,
                                   "m: the receiver sends one cumulative ACK every m data packets"},
    [LIBCC_COMMON_MAX_HOPS] = {"max_hops", LIBCC_UNIT_COUNT, 5, 1, LIBCC_INT_MAX_HOPS,
                               "most INT hop records a packet carries; more are not appended"},
    [LIBCC_COMMON_ACTIVITY_WINDOW] = {"activity_window", LIBCC_UNIT_NS, 20000, 1, 1e12,
                                      "receiver counts a flow as concurrent (FNCC N) if it "
                                      "delivered data within this window"},
};

void libcc_common_params(const libcc_param_desc **table, size_t *count)
{
    if (table)
        *table = common_params;
    if (count)
        *count = LIBCC_COMMON_COUNT;
}

/* The algorithm behind a table query, after the argument checks every such
 * query makes. */
static int table_query(const char *algorithm, const void *table, const size_t *count,
                       const libcc_algorithm **a)
{
    if (!table || !count)
        return LIBCC_ERR_INVALID_ARG;
    *a = libcc_algo_find(algorithm);
    return *a ? LIBCC_OK : LIBCC_ERR_UNKNOWN_ALGORITHM;
}

int libcc_algorithm_params(const char *algorithm, const libcc_param_desc **table, size_t *count)
{
    const libcc_algorithm *a;
    int rc = table_query(algorithm, table, count, &a);
    if (rc)
        return rc;
    *table = a->params;
    *count = a->n_params;
    return LIBCC_OK;
}

int libcc_algorithm_presets(const char *algorithm, const libcc_preset_desc **table,
                            size_t *count)
{
    const libcc_algorithm *a;
    int rc = table_query(algorithm, table, count, &a);
    if (rc)
        return rc;
    *table = a->presets;
    *count = a->n_presets;
    return LIBCC_OK;
}

/* Descriptor i of the combined (common, then algorithm) list. */
static const libcc_param_desc *desc_at(const libcc_params *p, size_t i)
{
    return i < LIBCC_COMMON_COUNT ? &common_params[i] : &p->algo->params[i - LIBCC_COMMON_COUNT];
}

static int find_param(const libcc_params *p, const char *name, size_t *index)
{
    for (size_t i = 0; i < p->n_values; i++) {
        if (strcmp(desc_at(p, i)->name, name) == 0) {
            *index = i;
            return LIBCC_OK;
        }
    }
    return LIBCC_ERR_UNKNOWN_PARAM;
}

static int fail(libcc_params *p, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err, sizeof p->err, fmt, ap);
    va_end(ap);
    return rc;
}

void libcc_params_init_defaults(libcc_params *p, const libcc_algorithm *algo)
{
    memset(p, 0, sizeof *p);
    p->algo = algo;
    /* libcc_algorithm_register bounds n_params by LIBCC_MAX_ALGORITHM_PARAMS. */
    p->n_values = LIBCC_COMMON_COUNT + algo->n_params;
    for (size_t i = 0; i < p->n_values; i++)
        p->values[i] = desc_at(p, i)->def;
}

int libcc_params_new(libcc_params **out, const char *algorithm)
{
    if (!out || !algorithm)
        return LIBCC_ERR_INVALID_ARG;
    *out = NULL;
    libcc_params *p = malloc(sizeof *p);
    if (!p)
        return LIBCC_ERR_NOMEM;
    /* The reference keeps the algorithm registered while this params (or
     * an object made from it) may still call into its tables. */
    libcc_algo_entry *e = libcc_algo_acquire(algorithm);
    if (!e) {
        free(p);
        return LIBCC_ERR_UNKNOWN_ALGORITHM;
    }
    libcc_params_init_defaults(p, e->algorithm);
    p->entry = e;
    *out = p;
    return LIBCC_OK;
}

void libcc_params_del(libcc_params *params)
{
    if (!params)
        return;
    libcc_algo_release(params->entry);
    free(params);
}

int libcc_params_copy(libcc_params **out, const libcc_params *src)
{
    if (!out || !src)
        return LIBCC_ERR_INVALID_ARG;
    libcc_params *p = malloc(sizeof *p);
    if (!p)
        return LIBCC_ERR_NOMEM;
    memcpy(p, src, sizeof *p);
    libcc_algo_ref(p->entry);
    *out = p;
    return LIBCC_OK;
}

const char *libcc_params_algorithm(const libcc_params *params)
{
    return params ? params->algo->name : NULL;
}

const char *libcc_params_error(const libcc_params *params)
{
    return params ? params->err : "";
}

/* The accepted range in the parameter's unit, for messages. */
static void range_text(const libcc_param_desc *d, char *buf, size_t len)
{
    char lo[48], hi[48];
    libcc_format_value(d->unit, d->min, lo, sizeof lo);
    libcc_format_value(d->unit, d->max, hi, sizeof hi);
    snprintf(buf, len, "[%s, %s]", lo, hi);
}

static int out_of_range(libcc_params *p, const libcc_param_desc *d, const char *shown)
{
    char range[100];
    range_text(d, range, sizeof range);
    return fail(p, LIBCC_ERR_OUT_OF_RANGE, "parameter '%s' of '%s': %s is out of range %s", d->name,
                p->algo->name, shown, range);
}

static int check_range(libcc_params *p, const libcc_param_desc *d, double v)
{
    if (v >= d->min && v <= d->max)
        return LIBCC_OK;
    char val[48];
    /* A count's format rounds; the message must show the value refused. */
    if (d->unit == LIBCC_UNIT_COUNT || !isfinite(v))
        snprintf(val, sizeof val, "%.17g", v);
    else
        libcc_format_value(d->unit, v, val, sizeof val);
    return out_of_range(p, d, val);
}

/* What the text path can produce for the unit: libcc_parse_value gives a
 * count only whole and a bool only 0 or 1, so a number the host passes
 * must be the same, or the numeric path configures what no text could. */
static int check_kind(libcc_params *p, const libcc_param_desc *d, double v)
{
    if (d->unit == LIBCC_UNIT_COUNT && isfinite(v) && v != floor(v)) {
        char range[100];
        range_text(d, range, sizeof range);
        return fail(p, LIBCC_ERR_BAD_VALUE,
                    "parameter '%s' of '%s': %.17g is not a whole number (accepted: whole numbers in %s)",
                    d->name, p->algo->name, v, range);
    }
    if (d->unit == LIBCC_UNIT_BOOL && isfinite(v) && v != 0.0 && v != 1.0)
        return fail(p, LIBCC_ERR_BAD_VALUE,
                    "parameter '%s' of '%s': %.17g is not a boolean (accepted: 0 or 1)", d->name,
                    p->algo->name, v);
    return check_range(p, d, v);
}

int libcc_params_set_value(libcc_params *params, const char *name, double value)
{
    size_t i;
    if (!params || !name)
        return LIBCC_ERR_INVALID_ARG;
    params->err[0] = '\0';
    if (find_param(params, name, &i))
        return fail(params, LIBCC_ERR_UNKNOWN_PARAM, "unknown parameter '%s' for algorithm '%s'",
                    name, params->algo->name);
    const libcc_param_desc *d = desc_at(params, i);
    int rc = check_kind(params, d, value);
    if (rc)
        return rc;
    params->values[i] = value;
    return LIBCC_OK;
}

int libcc_params_set(libcc_params *params, const char *name, const char *value)
{
    size_t i;
    double v;
    if (!params || !name || !value)
        return LIBCC_ERR_INVALID_ARG;
    params->err[0] = '\0';
    if (strcmp(name, "preset") == 0)
        return libcc_params_apply_preset(params, value);
    if (find_param(params, name, &i))
        return fail(params, LIBCC_ERR_UNKNOWN_PARAM, "unknown parameter '%s' for algorithm '%s'",
                    name, params->algo->name);
    const libcc_param_desc *d = desc_at(params, i);
    int rc = libcc_parse_value(d->unit, value, &v);
    if (rc == LIBCC_ERR_BAD_UNIT)
        return fail(params, rc, "parameter '%s' of '%s': '%s' has a missing or wrong unit (expected %s)",
                    name, params->algo->name, value, libcc_unit_hint(d->unit));
    if (rc == LIBCC_ERR_OUT_OF_RANGE) {
        char shown[48];
        snprintf(shown, sizeof shown, "'%s'", value);
        return out_of_range(params, d, shown);
    }
    if (rc)
        return fail(params, LIBCC_ERR_BAD_VALUE, "parameter '%s' of '%s': cannot parse '%s' (expected %s)",
                    name, params->algo->name, value, libcc_unit_hint(d->unit));
    rc = check_range(params, d, v);
    if (rc)
        return rc;
    params->values[i] = v;
    return LIBCC_OK;
}

int libcc_params_apply_preset(libcc_params *params, const char *preset)
{
    if (!params || !preset)
        return LIBCC_ERR_INVALID_ARG;
    params->err[0] = '\0';
    const libcc_algorithm *a = params->algo;
    for (size_t i = 0; i < a->n_presets; i++)
        if (strcmp(a->presets[i].name, preset) == 0)
            return libcc_params_parse(params, a->presets[i].assignments);
    /* Not found: name the choices. */
    char names[160] = "";
    size_t used = 0;
    for (size_t i = 0; i < a->n_presets; i++) {
        int n = snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                         a->presets[i].name);
        if (n > 0 && (size_t)n < sizeof names - used)
            used += (size_t)n;
    }
    return fail(params, LIBCC_ERR_NOT_FOUND, "unknown preset '%s' for algorithm '%s' (presets: %s)",
                preset, a->name, a->n_presets ? names : "none");
}

int libcc_params_parse(libcc_params *params, const char *assignments)
{
    if (!params || !assignments)
        return LIBCC_ERR_INVALID_ARG;
    params->err[0] = '\0';
    const char *s = assignments;
    for (;;) {
        while (*s == ',' || *s == ';' || *s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
            s++;
        if (*s == '\0')
            return LIBCC_OK;
        size_t n = strcspn(s, ",; \t\r\n");
        char item[160];
        if (n >= sizeof item)
            return fail(params, LIBCC_ERR_BAD_VALUE, "item too long (%zu characters): '%.40s...'", n, s);
        memcpy(item, s, n);
        item[n] = '\0';
        s += n;
        char *eq = strchr(item, '=');
        if (!eq || eq == item)
            return fail(params, LIBCC_ERR_BAD_VALUE, "expected name=value, got '%s'", item);
        *eq = '\0';
        int rc = libcc_params_set(params, item, eq + 1);
        if (rc)
            return rc;
    }
}

int libcc_params_get(const libcc_params *params, const char *name, double *value)
{
    size_t i;
    if (!params || !name || !value)
        return LIBCC_ERR_INVALID_ARG;
    if (find_param(params, name, &i))
        return LIBCC_ERR_UNKNOWN_PARAM;
    *value = params->values[i];
    return LIBCC_OK;
}

int libcc_params_build(const libcc_params *params, libcc_common_config *common, void *cfg,
                       char *err, size_t err_len)
{
    char scratch[8];
    if (!err) {
        err = scratch;
        err_len = sizeof scratch;
    }
    err[0] = '\0';
    const double *v = params->values;
    common->ack_interval_pkts = (uint32_t)v[LIBCC_COMMON_ACK_INTERVAL];
    common->max_hops = (uint32_t)v[LIBCC_COMMON_MAX_HOPS];
    common->activity_window_ns = (uint64_t)v[LIBCC_COMMON_ACTIVITY_WINDOW];
    memset(cfg, 0, params->algo->cfg_size);
    if (params->algo->cfg_init)
        return params->algo->cfg_init(cfg, v + LIBCC_COMMON_COUNT, err, err_len);
    return LIBCC_OK;
}

int libcc_params_validate(libcc_params *params)
{
    if (!params)
        return LIBCC_ERR_INVALID_ARG;
    libcc_common_config common;
    _Alignas(LIBCC_PRIV_ALIGN) unsigned char cfg[LIBCC_CFG_MAX_BYTES];
    return libcc_params_build(params, &common, cfg, params->err, sizeof params->err);
}
