/* SPDX-License-Identifier: MIT */
/* Parameter text with units, descriptor tables, and every kind of bad
 * input: unknown name, bad unit, garbage, out of range. */
#include <check.h>
#include <libcc/libcc.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- values with units ---------------------------------------------------- */

START_TEST(rates_parse_to_bits_per_second)
{
    double v;
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_BPS, "40Mbps", &v), LIBCC_OK);
    ck_assert_double_eq(v, 40e6);
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_BPS, "100Gbps", &v), LIBCC_OK);
    ck_assert_double_eq(v, 100e9);
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_BPS, " 2.5 Gbps ", &v), LIBCC_OK);
    ck_assert_double_eq(v, 2.5e9);
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_BPS, "5kbps", &v), LIBCC_OK);
    ck_assert_double_eq(v, 5000.0);
}
END_TEST

START_TEST(times_parse_to_nanoseconds)
{
    double v;
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_NS, "55us", &v), LIBCC_OK);
    ck_assert_double_eq(v, 55000.0);
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_NS, "1ms", &v), LIBCC_OK);
    ck_assert_double_eq(v, 1e6);
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_NS, "300ns", &v), LIBCC_OK);
    ck_assert_double_eq(v, 300.0);
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_NS, "2s", &v), LIBCC_OK);
    ck_assert_double_eq(v, 2e9);
}
END_TEST

/* Decimal text is scaled as text: 2.002 s is 2,002,000,000 ns exactly, while
 * the double 2.002 times 1e9 is 2001999999.9999998 (and 1.001 x 1e6 is
 * 1000999.9999999999), which a whole-nanosecond option would refuse. */
START_TEST(decimal_text_scales_exactly)
{
    static const struct {
        libcc_unit unit;
        const char *text;
        double want;
    } cases[] = {
        {LIBCC_UNIT_NS, "2.002s", 2002000000.0},
        {LIBCC_UNIT_NS, "1.001ms", 1001000.0},
        {LIBCC_UNIT_NS, "2002e-3s", 2002000000.0},
        {LIBCC_UNIT_NS, "-1.001ms", -1001000.0},
        {LIBCC_UNIT_BPS, "1.001Gbps", 1001000000.0},
        {LIBCC_UNIT_BYTES, "1.001MB", 1001000.0},
        {LIBCC_UNIT_BYTES, "1.5KiB", 1536.0}, /* binary scales stay products */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double v;
        ck_assert_int_eq(libcc_parse_value(cases[i].unit, cases[i].text, &v), LIBCC_OK);
        ck_assert_msg(v == cases[i].want, "%s read as %.17g, not %.17g", cases[i].text, v,
                      cases[i].want);
    }
    double v;
    /* still out of range past a double */
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_BPS, "1e300Tbps", &v), LIBCC_ERR_OUT_OF_RANGE);
}
END_TEST

START_TEST(sizes_parse_decimal_and_binary)
{
    double v;
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_BYTES, "100KB", &v), LIBCC_OK);
    ck_assert_double_eq(v, 100000.0);
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_BYTES, "64KiB", &v), LIBCC_OK);
    ck_assert_double_eq(v, 65536.0);
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_BYTES, "1518B", &v), LIBCC_OK);
    ck_assert_double_eq(v, 1518.0);
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_BYTES, "2MiB", &v), LIBCC_OK);
    ck_assert_double_eq(v, 2097152.0);
    /* lower-case b is bits, not bytes: refused rather than guessed */
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_BYTES, "100Kb", &v), LIBCC_ERR_BAD_UNIT);
}
END_TEST

START_TEST(ratios_fraction_percent_plain)
{
    double v;
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_RATIO, "1/256", &v), LIBCC_OK);
    ck_assert_double_eq(v, 0.00390625);
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_RATIO, "95%", &v), LIBCC_OK);
    ck_assert_double_eq_tol(v, 0.95, 1e-15);
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_RATIO, "0.2", &v), LIBCC_OK);
    ck_assert_double_eq(v, 0.2);
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_RATIO, "1/0", &v), LIBCC_ERR_BAD_VALUE);
}
END_TEST

START_TEST(counts_and_bools)
{
    double v;
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_COUNT, "5", &v), LIBCC_OK);
    ck_assert_double_eq(v, 5.0);
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_COUNT, "2.5", &v), LIBCC_ERR_BAD_VALUE);
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_BOOL, "on", &v), LIBCC_OK);
    ck_assert_double_eq(v, 1.0);
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_BOOL, "FALSE", &v), LIBCC_OK);
    ck_assert_double_eq(v, 0.0);
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_BOOL, "maybe", &v), LIBCC_ERR_BAD_VALUE);
}
END_TEST

START_TEST(dimensioned_values_need_units_except_zero)
{
    double v = -1;
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_BPS, "40", &v), LIBCC_ERR_BAD_UNIT);
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_NS, "55", &v), LIBCC_ERR_BAD_UNIT);
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_BYTES, "100", &v), LIBCC_ERR_BAD_UNIT);
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_BPS, "0", &v), LIBCC_OK);
    ck_assert_double_eq(v, 0.0);
    /* a time unit on a rate is a wrong unit, not garbage */
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_BPS, "40us", &v), LIBCC_ERR_BAD_UNIT);
}
END_TEST

START_TEST(garbage_is_refused)
{
    double v;
    const char *bad[] = {"", "   ", "abc", "nan", "inf", "0x10Mbps", "Mbps", "--5Mbps", "1e999Gbps"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(libcc_parse_value(LIBCC_UNIT_BPS, bad[i], &v) != LIBCC_OK, "'%s' accepted", bad[i]);
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_BPS, NULL, &v), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_BPS, "1Gbps", NULL), LIBCC_ERR_INVALID_ARG);
}
END_TEST

START_TEST(format_picks_readable_unit)
{
    char buf[32];
    ck_assert_int_eq(libcc_format_value(LIBCC_UNIT_BPS, 40e6, buf, sizeof buf), LIBCC_OK);
    ck_assert_str_eq(buf, "40Mbps");
    libcc_format_value(LIBCC_UNIT_NS, 1500, buf, sizeof buf);
    ck_assert_str_eq(buf, "1.5us");
    libcc_format_value(LIBCC_UNIT_BYTES, 100000, buf, sizeof buf);
    ck_assert_str_eq(buf, "100KB");
    libcc_format_value(LIBCC_UNIT_RATIO, 0.00390625, buf, sizeof buf);
    ck_assert_str_eq(buf, "0.00390625");
    ck_assert_int_eq(libcc_format_value(LIBCC_UNIT_BPS, 40e6, buf, 3), LIBCC_ERR_BUFFER_TOO_SMALL);
}
END_TEST

/* Whatever format prints, parse reads back to the same value. */
START_TEST(format_then_parse_round_trips)
{
    const struct {
        libcc_unit unit;
        double v;
    } cases[] = {{LIBCC_UNIT_BPS, 25e9}, {LIBCC_UNIT_BPS, 5e6}, {LIBCC_UNIT_NS, 55000},
                 {LIBCC_UNIT_NS, 4000}, {LIBCC_UNIT_BYTES, 32767}, {LIBCC_UNIT_RATIO, 0.95}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[48];
        double back;
        ck_assert_int_eq(libcc_format_value(cases[i].unit, cases[i].v, buf, sizeof buf), LIBCC_OK);
        ck_assert_int_eq(libcc_parse_value(cases[i].unit, buf, &back), LIBCC_OK);
        ck_assert_double_eq_tol(back, cases[i].v, cases[i].v * 1e-12);
    }
}
END_TEST

/* ---- parameter sets ---------------------------------------------------------- */

/* Every registered algorithm (the list comes from the registry; its
 * documented order is check_registry.c's) makes a parameter set of itself. */
START_TEST(algorithms_are_listed_and_known)
{
    const char *const *names = libcc_algorithms();
    size_t n = 0;
    for (; names[n]; n++) {
        libcc_params *p = NULL;
        ck_assert_int_eq(libcc_params_new(&p, names[n]), LIBCC_OK);
        ck_assert_str_eq(libcc_params_algorithm(p), names[n]);
        libcc_params_del(p);
    }
    ck_assert_uint_ge(n, 12); /* the built-ins at least */
    libcc_params *p = (libcc_params *)1;
    ck_assert_int_eq(libcc_params_new(&p, "cubic"), LIBCC_ERR_UNKNOWN_ALGORITHM);
    ck_assert_ptr_null(p);
}
END_TEST

/* Every table row is self-consistent: the default lies in [min, max] and
 * the row documents itself. A row violating it would be unusable. */
START_TEST(every_table_row_is_consistent)
{
    for (const char *const *a = libcc_algorithms(); *a; a++) {
        const libcc_param_desc *t;
        size_t n;
        ck_assert_int_eq(libcc_algorithm_params(*a, &t, &n), LIBCC_OK);
        for (size_t i = 0; i < n; i++) {
            ck_assert_msg(t[i].min <= t[i].def && t[i].def <= t[i].max, "%s.%s default out of range", *a,
                          t[i].name);
            ck_assert_msg(t[i].doc && strlen(t[i].doc) > 10, "%s.%s undocumented", *a, t[i].name);
            for (size_t j = 0; j < i; j++)
                ck_assert_msg(strcmp(t[i].name, t[j].name) != 0, "%s.%s twice", *a, t[i].name);
        }
        libcc_params *p;
        ck_assert_int_eq(libcc_params_new(&p, *a), LIBCC_OK);
        ck_assert_msg(libcc_params_validate(p) == LIBCC_OK, "%s defaults invalid: %s", *a,
                      libcc_params_error(p));
        libcc_params_del(p);
    }
}
END_TEST

START_TEST(common_parameters_have_defaults)
{
    libcc_params *p;
    double v;
    ck_assert_int_eq(libcc_params_new(&p, "none"), LIBCC_OK);
    ck_assert_int_eq(libcc_params_get(p, "ack_interval", &v), LIBCC_OK);
    ck_assert_double_eq(v, 1.0);
    ck_assert_int_eq(libcc_params_get(p, "max_hops", &v), LIBCC_OK);
    ck_assert_double_eq(v, 5.0);
    ck_assert_int_eq(libcc_params_set(p, "activity_window", "50us"), LIBCC_OK);
    ck_assert_int_eq(libcc_params_get(p, "activity_window", &v), LIBCC_OK);
    ck_assert_double_eq(v, 50000.0);
    libcc_params_del(p);
}
END_TEST

START_TEST(set_by_text_and_parse_lists)
{
    libcc_params *p;
    double v;
    ck_assert_int_eq(libcc_params_new(&p, "none"), LIBCC_OK);
    ck_assert_int_eq(libcc_params_parse(p, "ack_interval=4, max_hops=3;activity_window=1ms\n"), LIBCC_OK);
    libcc_params_get(p, "ack_interval", &v);
    ck_assert_double_eq(v, 4.0);
    libcc_params_get(p, "max_hops", &v);
    ck_assert_double_eq(v, 3.0);
    libcc_params_get(p, "activity_window", &v);
    ck_assert_double_eq(v, 1e6);
    ck_assert_str_eq(libcc_params_error(p), "");
    libcc_params_del(p);
}
END_TEST

START_TEST(unknown_parameter_is_named)
{
    libcc_params *p;
    libcc_params_new(&p, "none");
    ck_assert_int_eq(libcc_params_set(p, "kmin_typo", "100KB"), LIBCC_ERR_UNKNOWN_PARAM);
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "kmin_typo"));
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "none"));
    libcc_params_del(p);
}
END_TEST

START_TEST(bad_unit_is_named_with_expected_units)
{
    libcc_params *p;
    libcc_params_new(&p, "none");
    ck_assert_int_eq(libcc_params_set(p, "activity_window", "20KB"), LIBCC_ERR_BAD_UNIT);
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "activity_window"));
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "us"));
    libcc_params_del(p);
}
END_TEST

START_TEST(garbage_value_is_named)
{
    libcc_params *p;
    libcc_params_new(&p, "none");
    ck_assert_int_eq(libcc_params_set(p, "ack_interval", "lots"), LIBCC_ERR_BAD_VALUE);
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "ack_interval"));
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "lots"));
    libcc_params_del(p);
}
END_TEST

START_TEST(out_of_range_names_the_range)
{
    libcc_params *p;
    double v;
    libcc_params_new(&p, "none");
    /* max_hops accepts 1..LIBCC_INT_MAX_HOPS (8) */
    ck_assert_int_eq(libcc_params_set(p, "max_hops", "9"), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "max_hops"));
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "[1, 8]"));
    /* the rejected value left the old one in place */
    libcc_params_get(p, "max_hops", &v);
    ck_assert_double_eq(v, 5.0);
    ck_assert_int_eq(libcc_params_set_value(p, "ack_interval", 0), LIBCC_ERR_OUT_OF_RANGE);
    libcc_params_del(p);
}
END_TEST

/* 1e308 is a finite double; times 1e12 (Tbps), 1e9 (s) or 2^30 (GiB) it is
 * not: the product overflows to +-inf, which no range can hold. */
/* Found by fuzz/fuzz_value.c (corpus file double-max): DBL_MAX formatted
 * with ten digits reads 1.797693135e+296Tbps, above DBL_MAX, which parses
 * to infinity and is refused. The largest value must survive the trip
 * exactly; 17 significant digits in the base unit hold any double. */
START_TEST(format_of_largest_value_parses_back)
{
    static const libcc_unit units[] = {LIBCC_UNIT_BPS, LIBCC_UNIT_NS, LIBCC_UNIT_BYTES,
                                       LIBCC_UNIT_RATIO};
    const double big[] = {DBL_MAX, -DBL_MAX, nextafter(DBL_MAX, 0)};
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
        for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
            char buf[64];
            double back = 0;
            ck_assert_int_eq(libcc_format_value(units[u], big[i], buf, sizeof buf), LIBCC_OK);
            ck_assert_msg(libcc_parse_value(units[u], buf, &back) == LIBCC_OK, "'%s' refused", buf);
            ck_assert_double_eq(back, big[i]);
        }
    }
    /* ordinary values keep their short form */
    char buf[64];
    libcc_format_value(LIBCC_UNIT_BPS, 1e308, buf, sizeof buf);
    ck_assert_str_eq(buf, "1e+296Tbps");
}
END_TEST

START_TEST(overflow_to_infinity_is_out_of_range)
{
    static const struct {
        libcc_unit unit;
        const char *text;
    } cases[] = {
        {LIBCC_UNIT_BPS, "1e308Tbps"},  {LIBCC_UNIT_BPS, "-1e308Tbps"}, {LIBCC_UNIT_NS, "1e300s"},
        {LIBCC_UNIT_BYTES, "1e308GiB"}, {LIBCC_UNIT_RATIO, "1e308/1e-10"}, {LIBCC_UNIT_RATIO, "-1e308/1e-10"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double v = 42.0;
        int rc = libcc_parse_value(cases[i].unit, cases[i].text, &v);
        ck_assert_msg(rc == LIBCC_ERR_OUT_OF_RANGE, "'%s' gave %d, value %g", cases[i].text, rc, v);
        ck_assert_double_eq(v, 42.0); /* *value untouched on failure */
    }
    /* the largest finite product is still a value */
    double v;
    ck_assert_int_eq(libcc_parse_value(LIBCC_UNIT_BPS, "1e296Tbps", &v), LIBCC_OK);
    ck_assert_double_eq(v, 1e308);
}
END_TEST

START_TEST(overflowing_text_names_parameter_and_range)
{
    libcc_params *p;
    libcc_params_new(&p, "dcqcn");
    ck_assert_int_eq(libcc_params_set(p, "rpg_ai_rate", "1e308Tbps"), LIBCC_ERR_OUT_OF_RANGE);
    const char *e = libcc_params_error(p);
    ck_assert_ptr_nonnull(strstr(e, "rpg_ai_rate"));
    ck_assert_ptr_nonnull(strstr(e, "1e308Tbps"));
    ck_assert_msg(strstr(e, "[0bps, 10Tbps]") != NULL, "%s", e); /* MAX_RATE 1e13 in dcqcn.c */
    libcc_params_del(p);
}
END_TEST

/* The text path refuses "2.5" for a count (libcc_parse_value) and only ever
 * yields 0 or 1 for a bool; the numeric path must refuse the same values, or
 * a host using it gets a configuration no text could express. */
START_TEST(numeric_set_refuses_what_text_refuses)
{
    static const struct {
        const char *algo, *name;
        double value;
    } bad[] = {
        {"dcqcn", "rpg_threshold", 2.5}, {"none", "max_hops", 3.7},
        {"dcqcn", "rpg_gd", 1.6e-284},   {"dcqcn", "rpg_min_dec_fac", 49.999999},
        {"dcqcn", "cut_on_cnp", 0.5},    {"hpcc++", "rx_hpcc", 1e-300},
        {"none", "ack_interval", NAN},   {"dcqcn", "kmax", INFINITY},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        libcc_params *p;
        double before, after;
        char text[64];
        ck_assert_int_eq(libcc_params_new(&p, bad[i].algo), LIBCC_OK);
        libcc_params_get(p, bad[i].name, &before);
        int rc = libcc_params_set_value(p, bad[i].name, bad[i].value);
        ck_assert_msg(rc != LIBCC_OK, "%s=%.17g accepted", bad[i].name, bad[i].value);
        const char *e = libcc_params_error(p);
        ck_assert_msg(strstr(e, bad[i].name) != NULL, "%s", e);
        ck_assert_msg(strchr(e, '[') != NULL || strstr(e, "0 or 1") != NULL, "no range in '%s'", e);
        libcc_params_get(p, bad[i].name, &after);
        ck_assert_double_eq(after, before);
        /* and the text path agrees */
        snprintf(text, sizeof text, "%.17g", bad[i].value);
        ck_assert_msg(libcc_params_set(p, bad[i].name, text) != LIBCC_OK, "text '%s' accepted", text);
        libcc_params_del(p);
    }
    libcc_params *p;
    libcc_params_new(&p, "dcqcn");
    ck_assert_int_eq(libcc_params_set_value(p, "rpg_threshold", 2.5), LIBCC_ERR_BAD_VALUE);
    ck_assert_str_eq(libcc_params_error(p),
                     "parameter 'rpg_threshold' of 'dcqcn': 2.5 is not a whole number "
                     "(accepted: whole numbers in [1, 1000000])");
    ck_assert_int_eq(libcc_params_set_value(p, "cut_on_cnp", 0.5), LIBCC_ERR_BAD_VALUE);
    ck_assert_str_eq(libcc_params_error(p),
                     "parameter 'cut_on_cnp' of 'dcqcn': 0.5 is not a boolean (accepted: 0 or 1)");
    /* whole values still go in */
    ck_assert_int_eq(libcc_params_set_value(p, "rpg_threshold", 3.0), LIBCC_OK);
    ck_assert_int_eq(libcc_params_set_value(p, "cut_on_cnp", 1.0), LIBCC_OK);
    libcc_params_del(p);
}
END_TEST

START_TEST(parse_stops_at_first_bad_item)
{
    libcc_params *p;
    double v;
    libcc_params_new(&p, "none");
    ck_assert_int_eq(libcc_params_parse(p, "ack_interval=2 max_hops"), LIBCC_ERR_BAD_VALUE);
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "max_hops"));
    libcc_params_get(p, "ack_interval", &v);
    ck_assert_double_eq(v, 2.0);
    ck_assert_int_eq(libcc_params_parse(p, "=3"), LIBCC_ERR_BAD_VALUE);
    libcc_params_del(p);
}
END_TEST

START_TEST(null_arguments_are_errors)
{
    libcc_params *p;
    double v;
    const libcc_param_desc *t;
    size_t n;
    ck_assert_int_eq(libcc_params_new(NULL, "none"), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_params_new(&p, NULL), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_params_set(NULL, "a", "1"), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_params_get(NULL, "a", &v), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_params_parse(NULL, "a=1"), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_algorithm_params("nope", &t, &n), LIBCC_ERR_UNKNOWN_ALGORITHM);
    ck_assert_int_eq(libcc_algorithm_params("none", NULL, &n), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_params_validate(NULL), LIBCC_ERR_INVALID_ARG);
    libcc_params_del(NULL);
}
END_TEST

START_TEST(copies_are_independent)
{
    libcc_params *a, *b;
    double v;
    libcc_params_new(&a, "none");
    ck_assert_int_eq(libcc_params_copy(&b, a), LIBCC_OK);
    libcc_params_set(b, "ack_interval", "7");
    libcc_params_get(a, "ack_interval", &v);
    ck_assert_double_eq(v, 1.0);
    libcc_params_del(a);
    libcc_params_del(b);
}
END_TEST

START_TEST(strerror_names_every_code)
{
    for (int e = LIBCC_OK; e >= LIBCC_ERR_TIME_BACKWARDS; e--)
        ck_assert_str_ne(libcc_strerror(e), libcc_strerror(-999));
    ck_assert_str_eq(libcc_strerror(-999), "unknown libcc error code");
}
END_TEST

START_TEST(version_matches_header)
{
    const libcc_version_info *v = libcc_version();
    ck_assert_int_eq(v->major, LIBCC_VERSION_MAJOR);
    ck_assert_int_eq(v->minor, LIBCC_VERSION_MINOR);
    ck_assert_int_eq(v->num, LIBCC_VERSION_NUM);
    ck_assert_str_eq(v->str, LIBCC_VERSION);
}
END_TEST

Suite *params_suite(void)
{
    Suite *s = suite_create("params");
    TCase *u = tcase_create("units");
    tcase_add_test(u, rates_parse_to_bits_per_second);
    tcase_add_test(u, times_parse_to_nanoseconds);
    tcase_add_test(u, decimal_text_scales_exactly);
    tcase_add_test(u, sizes_parse_decimal_and_binary);
    tcase_add_test(u, ratios_fraction_percent_plain);
    tcase_add_test(u, counts_and_bools);
    tcase_add_test(u, dimensioned_values_need_units_except_zero);
    tcase_add_test(u, garbage_is_refused);
    tcase_add_test(u, overflow_to_infinity_is_out_of_range);
    tcase_add_test(u, format_picks_readable_unit);
    tcase_add_test(u, format_then_parse_round_trips);
    tcase_add_test(u, format_of_largest_value_parses_back);
    suite_add_tcase(s, u);
    TCase *t = tcase_create("sets");
    tcase_add_test(t, algorithms_are_listed_and_known);
    tcase_add_test(t, every_table_row_is_consistent);
    tcase_add_test(t, common_parameters_have_defaults);
    tcase_add_test(t, set_by_text_and_parse_lists);
    tcase_add_test(t, unknown_parameter_is_named);
    tcase_add_test(t, bad_unit_is_named_with_expected_units);
    tcase_add_test(t, garbage_value_is_named);
    tcase_add_test(t, out_of_range_names_the_range);
    tcase_add_test(t, overflowing_text_names_parameter_and_range);
    tcase_add_test(t, numeric_set_refuses_what_text_refuses);
    tcase_add_test(t, parse_stops_at_first_bad_item);
    tcase_add_test(t, null_arguments_are_errors);
    tcase_add_test(t, copies_are_independent);
    tcase_add_test(t, strerror_names_every_code);
    tcase_add_test(t, version_matches_header);
    suite_add_tcase(s, t);
    return s;
}
