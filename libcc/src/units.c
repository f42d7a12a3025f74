/* SPDX-License-Identifier: MIT */
/* Text <-> base-unit values: "40Mbps" -> 4e7 bits/s, "55us" -> 55000 ns,
 * "100KB" -> 100000 bytes, "1/256" -> 0.00390625. Decimal prefixes are
 * powers of 1000 (KB = 1000 B), binary ones spelled KiB/MiB/GiB.
 * A dimensioned value needs its unit (a bare "40" for a rate is ambiguous
 * and refused), except 0, which means the same in every unit. */
#include "units.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* dec_exp: the scale is 10^dec_exp (-1: a binary scale). A decimal scale is
 * applied to the text, not to the double: "2.002s" is 2002e6 ns read as one
 * number, exactly 2002000000, where 2.002 * 1e9 rounds to 2002000000.0000002
 * and would be refused as not a whole number of nanoseconds. A binary scale
 * is exact in a double anyway. */
typedef struct {
    const char *suffix;
    double scale;
    int dec_exp;
} unit_suffix;

static const unit_suffix bps_suffixes[] = {
    {"bps", 1.0, 0},   {"kbps", 1e3, 3},   {"mbps", 1e6, 6},
    {"gbps", 1e9, 9},  {"tbps", 1e12, 12}, {NULL, 0, 0},
};
static const unit_suffix ns_suffixes[] = {
    {"ns", 1.0, 0}, {"us", 1e3, 3}, {"ms", 1e6, 6}, {"s", 1e9, 9}, {NULL, 0, 0},
};
/* Case matters for bytes: "b" would be bits. */
static const unit_suffix byte_suffixes[] = {
    {"B", 1.0, 0},
    {"KB", 1e3, 3},
    {"kB", 1e3, 3},
    {"KiB", 1024.0, -1},
    {"MB", 1e6, 6},
    {"MiB", 1048576.0, -1},
    {"GB", 1e9, 9},
    {"GiB", 1073741824.0, -1},
    {NULL, 0, 0},
};

const char *libcc_unit_name(libcc_unit unit)
{
    switch (unit) {
    case LIBCC_UNIT_RATIO: return "";
    case LIBCC_UNIT_BPS: return "bps";
    case LIBCC_UNIT_NS: return "ns";
    case LIBCC_UNIT_BYTES: return "B";
    case LIBCC_UNIT_COUNT: return "count";
    case LIBCC_UNIT_BOOL: return "bool";
    }
    return "?";
}

const char *libcc_unit_hint(libcc_unit unit)
{
    switch (unit) {
    case LIBCC_UNIT_RATIO: return "a ratio such as 0.5, 1/256 or 50%";
    case LIBCC_UNIT_BPS: return "a rate with a unit: bps, Kbps, Mbps, Gbps, Tbps";
    case LIBCC_UNIT_NS: return "a time with a unit: ns, us, ms, s";
    case LIBCC_UNIT_BYTES: return "a size with a unit: B, KB, KiB, MB, MiB, GB, GiB";
    case LIBCC_UNIT_COUNT: return "a whole number";
    case LIBCC_UNIT_BOOL: return "a boolean: 0, 1, true, false, on, off";
    }
    return "?";
}

static int ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

/* A plain decimal number: refuses "nan", "inf", hex and empty input, which
 * strtod would accept. */
static int parse_number(const char *s, double *out, const char **end)
{
    const char *p = s;
    if (*p == '+' || *p == '-')
        p++;
    if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
        return LIBCC_ERR_BAD_VALUE;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        return LIBCC_ERR_BAD_VALUE;
    char *e;
    double v = strtod(s, &e);
    if (e == s || !isfinite(v))
        return LIBCC_ERR_BAD_VALUE;
    *out = v;
    *end = e;
    return LIBCC_OK;
}

/* A finite number times a finite scale can still overflow to +-inf (1e308
 * Tbps): no parameter range holds that, so it is a range error rather than
 * a value. */
static int finite_or_range(double v, double *value)
{
    if (!isfinite(v))
        return LIBCC_ERR_OUT_OF_RANGE;
    *value = v;
    return LIBCC_OK;
}

static const char *skip_space(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

/* Copy s without trailing blanks into buf. */
static int trimmed(const char *s, char *buf, size_t len)
{
    s = skip_space(s);
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        n--;
    if (n == 0 || n >= len)
        return LIBCC_ERR_BAD_VALUE;
    memcpy(buf, s, n);
    buf[n] = '\0';
    return LIBCC_OK;
}

static int parse_bool(const char *t, double *value)
{
    static const char *const yes[] = {"1", "true", "on", "yes"};
    static const char *const no[] = {"0", "false", "off", "no"};
    for (size_t i = 0; i < 4; i++) {
        if (ieq(t, yes[i])) {
            *value = 1.0;
            return LIBCC_OK;
        }
        if (ieq(t, no[i])) {
            *value = 0.0;
            return LIBCC_OK;
        }
    }
    return LIBCC_ERR_BAD_VALUE;
}

static int parse_ratio(const char *t, double *value)
{
    double a;
    const char *e;
    int rc = parse_number(t, &a, &e);
    if (rc)
        return rc;
    e = skip_space(e);
    if (*e == '\0') {
        *value = a;
        return LIBCC_OK;
    }
    if (*e == '%' && *skip_space(e + 1) == '\0') {
        *value = a / 100.0;
        return LIBCC_OK;
    }
    if (*e == '/') {
        double b;
        const char *e2;
        rc = parse_number(skip_space(e + 1), &b, &e2);
        if (rc || *skip_space(e2) != '\0')
            return LIBCC_ERR_BAD_VALUE;
        if (b == 0.0)
            return LIBCC_ERR_BAD_VALUE;
        return finite_or_range(a / b, value);
    }
    return LIBCC_ERR_BAD_UNIT;
}

/* The number text t..end (parse_number accepted it) times 10^dec_exp, read
 * by strtod as one decimal number so that it is rounded once: the mantissa
 * as written, its exponent (if any) plus dec_exp. */
static double scale_decimal_text(const char *t, const char *end, int dec_exp)
{
    const char *x = t;
    while (x < end && *x != 'e' && *x != 'E')
        x++;
    long exp10 = x < end ? strtol(x + 1, NULL, 10) : 0;
    /* parse_number accepted the text as a finite double, so its exponent
     * fits a long; far outside a double's range the sum still reads as 0
     * or infinity, as the product would. */
    if (exp10 > 100000)
        exp10 = 100000;
    if (exp10 < -100000)
        exp10 = -100000;
    char buf[160];
    snprintf(buf, sizeof buf, "%.*se%ld", (int)(x - t), t, exp10 + dec_exp);
    return strtod(buf, NULL);
}

static int parse_with_suffix(const char *t, const unit_suffix *table, int case_fold, double *value)
{
    double a;
    const char *e;
    int rc = parse_number(t, &a, &e);
    if (rc)
        return rc;
    const char *num_end = e;
    e = skip_space(e);
    if (*e == '\0')
        return a == 0.0 ? (*value = 0.0, LIBCC_OK) : LIBCC_ERR_BAD_UNIT;
    for (const unit_suffix *u = table; u->suffix; u++) {
        if (case_fold ? ieq(e, u->suffix) : strcmp(e, u->suffix) == 0) {
            if (u->dec_exp > 0)
                return finite_or_range(scale_decimal_text(t, num_end, u->dec_exp), value);
            return finite_or_range(a * u->scale, value);
        }
    }
    return LIBCC_ERR_BAD_UNIT;
}

int libcc_parse_value(libcc_unit unit, const char *text, double *value)
{
    char t[128];
    if (!text || !value)
        return LIBCC_ERR_INVALID_ARG;
    if (trimmed(text, t, sizeof t))
        return LIBCC_ERR_BAD_VALUE;
    switch (unit) {
    case LIBCC_UNIT_RATIO: return parse_ratio(t, value);
    case LIBCC_UNIT_BPS: return parse_with_suffix(t, bps_suffixes, 1, value);
    case LIBCC_UNIT_NS: return parse_with_suffix(t, ns_suffixes, 0, value);
    case LIBCC_UNIT_BYTES: return parse_with_suffix(t, byte_suffixes, 0, value);
    case LIBCC_UNIT_BOOL: return parse_bool(t, value);
    case LIBCC_UNIT_COUNT: {
        double a;
        const char *e;
        int rc = parse_number(t, &a, &e);
        if (rc)
            return rc;
        if (*skip_space(e) != '\0')
            return LIBCC_ERR_BAD_UNIT;
        if (a != floor(a))
            return LIBCC_ERR_BAD_VALUE;
        *value = a;
        return LIBCC_OK;
    }
    }
    return LIBCC_ERR_INVALID_ARG;
}

/* The largest suffix that keeps the number >= 1, so 4e7 bits/s reads
 * "40Mbps" and 1500 ns reads "1.5us". */
static int format_scaled(double v, const unit_suffix *table, const char *const *shown, char *buf,
                         size_t len)
{
    size_t best = 0;
    for (size_t i = 0; table[i].suffix; i++)
        if (fabs(v) >= table[i].scale)
            best = i;
    int n = snprintf(buf, len, "%.10g%s", v / table[best].scale, shown[best]);
    /* Ten digits of a value near DBL_MAX round up past it: the text would
     * parse to infinity. The base unit with 17 digits parses back exactly. */
    if (n >= 0 && (size_t)n < len && !isfinite(strtod(buf, NULL) * table[best].scale))
        n = snprintf(buf, len, "%.17g%s", v, shown[0]);
    return (n < 0 || (size_t)n >= len) ? LIBCC_ERR_BUFFER_TOO_SMALL : LIBCC_OK;
}

int libcc_format_value(libcc_unit unit, double value, char *buf, size_t len)
{
    static const char *const bps_shown[] = {"bps", "Kbps", "Mbps", "Gbps", "Tbps"};
    static const char *const ns_shown[] = {"ns", "us", "ms", "s"};
    static const unit_suffix dec_bytes[] = {
        {"B", 1.0, 0}, {"KB", 1e3, 3}, {"MB", 1e6, 6}, {"GB", 1e9, 9}, {NULL, 0, 0}};
    static const char *const bytes_shown[] = {"B", "KB", "MB", "GB"};
    int n;
    if (!buf || len == 0)
        return LIBCC_ERR_INVALID_ARG;
    switch (unit) {
    case LIBCC_UNIT_BPS: return format_scaled(value, bps_suffixes, bps_shown, buf, len);
    case LIBCC_UNIT_NS: return format_scaled(value, ns_suffixes, ns_shown, buf, len);
    case LIBCC_UNIT_BYTES: return format_scaled(value, dec_bytes, bytes_shown, buf, len);
    case LIBCC_UNIT_BOOL: n = snprintf(buf, len, "%s", value != 0.0 ? "true" : "false"); break;
    case LIBCC_UNIT_COUNT: n = snprintf(buf, len, "%.0f", value); break;
    case LIBCC_UNIT_RATIO:
    default:
        n = snprintf(buf, len, "%.10g", value);
        if (n >= 0 && (size_t)n < len && !isfinite(strtod(buf, NULL))) /* as format_scaled */
            n = snprintf(buf, len, "%.17g", value);
        break;
    }
    return (n < 0 || (size_t)n >= len) ? LIBCC_ERR_BUFFER_TOO_SMALL : LIBCC_OK;
}
