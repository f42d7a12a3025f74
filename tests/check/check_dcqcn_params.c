/* SPDX-License-Identifier: MIT */
/*
 * DCQCN parameters: firmware names and defaults (the firmware column of
 * dcqcn-formulas.md, typed in here from the spec, not from the code),
 * units, cross-parameter checks, and the docs table kept in step with the
 * descriptor table.
 */
#include "check_dcqcn.h"
#include "test_support.h"

#include <stdlib.h>

static double get(const libcc_params *p, const char *name)
{
    double v = NAN;
    ck_assert_msg(libcc_params_get(p, name, &v) == LIBCC_OK, "no parameter %s", name);
    return v;
}

START_TEST(defaults_are_the_firmware_values)
{
    libcc_params *p = dq_params(NULL);
    /* Switch side (no firmware value): the HPCC simulator preset. */
    ck_assert_double_eq(get(p, "kmin"), 100e3);
    ck_assert_double_eq(get(p, "kmax"), 400e3);
    ck_assert_double_eq(get(p, "pmax"), 0.2);
    ck_assert_double_eq(get(p, "ecn_mark_at_dequeue"), 1);
    /* dce_tcp_g = 1019 of 1024 kept: g = 5/1024. */
    ck_assert_double_eq(get(p, "g"), 5.0 / 1024.0);
    ck_assert_double_eq(get(p, "initial_alpha"), 1.0);
    ck_assert_double_eq(get(p, "dce_tcp_rtt"), 1e3);                /* 1 us */
    ck_assert_double_eq(get(p, "rate_reduce_monitor_period"), 4e3); /* 4 us */
    /* NVIDIA notes: the cut comes after the monitor period elapses. */
    ck_assert_double_eq(get(p, "cut_on_cnp"), 0);
    /* NVIDIA notes: hyper increase needs both counters past the threshold. */
    ck_assert_double_eq(get(p, "increase_kind_by_timer"), 0);
    ck_assert_double_eq(get(p, "rpg_time_reset"), 300e3);           /* 300 us */
    ck_assert_double_eq(get(p, "rpg_byte_reset"), 32767);
    ck_assert_double_eq(get(p, "rpg_threshold"), 1);
    ck_assert_double_eq(get(p, "rpg_ai_rate"), 5e6);
    ck_assert_double_eq(get(p, "rpg_hai_rate"), 50e6);
    ck_assert_double_eq(get(p, "rpg_min_rate"), 1e6);
    ck_assert_double_eq(get(p, "rpg_min_dec_fac"), 50);
    ck_assert_double_eq(get(p, "rpg_gd"), 11);
    ck_assert_double_eq(get(p, "rate_to_set_on_first_cnp"), 0);
    ck_assert_double_eq(get(p, "clamp_tgt_rate"), 0);
    ck_assert_double_eq(get(p, "clamp_tgt_rate_after_time_inc"), 1);
    ck_assert_double_eq(get(p, "min_time_between_cnps"), 4e3);      /* 4 us */
    ck_assert_int_eq(libcc_params_validate(p), LIBCC_OK);
    libcc_params_del(p);
}
END_TEST

START_TEST(units_are_the_physical_ones)
{
    const libcc_param_desc *t;
    size_t n;
    ck_assert_int_eq(libcc_algorithm_params("dcqcn", &t, &n), LIBCC_OK);
    const struct {
        const char *name;
        libcc_unit unit;
    } want[] = {
        {"kmin", LIBCC_UNIT_BYTES},          {"kmax", LIBCC_UNIT_BYTES},
        {"pmax", LIBCC_UNIT_RATIO},          {"ecn_mark_at_dequeue", LIBCC_UNIT_BOOL},
        {"g", LIBCC_UNIT_RATIO},             {"initial_alpha", LIBCC_UNIT_RATIO},
        {"dce_tcp_rtt", LIBCC_UNIT_NS},      {"rate_reduce_monitor_period", LIBCC_UNIT_NS},
        {"rpg_time_reset", LIBCC_UNIT_NS},   {"rpg_byte_reset", LIBCC_UNIT_BYTES},
        {"rpg_threshold", LIBCC_UNIT_COUNT}, {"rpg_ai_rate", LIBCC_UNIT_BPS},
        {"rpg_hai_rate", LIBCC_UNIT_BPS},    {"rpg_min_rate", LIBCC_UNIT_BPS},
        {"rpg_min_dec_fac", LIBCC_UNIT_COUNT}, {"rpg_gd", LIBCC_UNIT_COUNT},
        {"rate_to_set_on_first_cnp", LIBCC_UNIT_BPS}, {"clamp_tgt_rate", LIBCC_UNIT_BOOL},
        {"clamp_tgt_rate_after_time_inc", LIBCC_UNIT_BOOL},
        {"cut_on_cnp", LIBCC_UNIT_BOOL},     {"increase_kind_by_timer", LIBCC_UNIT_BOOL},
        {"min_time_between_cnps", LIBCC_UNIT_NS},
    };
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        size_t i = 0;
        while (i < n && strcmp(t[i].name, want[w].name) != 0)
            i++;
        ck_assert_msg(i < n, "no parameter %s", want[w].name);
        ck_assert_int_eq(t[i].unit, want[w].unit);
        ck_assert_msg(t[i].doc && t[i].doc[0], "%s has no doc", t[i].name);
        ck_assert_msg(t[i].min <= t[i].def && t[i].def <= t[i].max, "%s default out of range",
                      t[i].name);
    }
    const char *const *algos = libcc_algorithms();
    int found = 0;
    for (size_t i = 0; algos[i]; i++)
        found |= strcmp(algos[i], "dcqcn") == 0;
    ck_assert(found);
}
END_TEST

START_TEST(values_with_units_and_fractions)
{
    libcc_params *p = dq_params(NULL);
    ck_assert_int_eq(libcc_params_set(p, "g", "1/256"), LIBCC_OK);
    ck_assert_double_eq(get(p, "g"), 0.00390625);
    ck_assert_int_eq(libcc_params_set(p, "rpg_ai_rate", "40Mbps"), LIBCC_OK);
    ck_assert_double_eq(get(p, "rpg_ai_rate"), 40e6);
    ck_assert_int_eq(libcc_params_set(p, "dce_tcp_rtt", "55us"), LIBCC_OK);
    ck_assert_double_eq(get(p, "dce_tcp_rtt"), 55e3);
    ck_assert_int_eq(libcc_params_set(p, "rpg_byte_reset", "10MB"), LIBCC_OK);
    ck_assert_double_eq(get(p, "rpg_byte_reset"), 10e6);
    ck_assert_int_eq(libcc_params_parse(p, "kmin=5KB, kmax=200KB, pmax=1%"), LIBCC_OK);
    ck_assert_double_eq(get(p, "kmax"), 200e3);
    ck_assert_double_eq_tol(get(p, "pmax"), 0.01, 1e-15);
    libcc_params_del(p);
}
END_TEST

START_TEST(bad_values_are_refused_by_name)
{
    libcc_params *p = dq_params(NULL);
    ck_assert_int_eq(libcc_params_set(p, "g", "2"), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "'g'"));
    ck_assert_double_eq(get(p, "g"), 5.0 / 1024.0); /* unchanged */
    ck_assert_int_eq(libcc_params_set(p, "rpg_time_reset", "500ns"), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "rpg_time_reset"));
    ck_assert_int_eq(libcc_params_set(p, "rpg_min_dec_fac", "101"), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_int_eq(libcc_params_set(p, "pmax", "1.5"), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_int_eq(libcc_params_set(p, "rpg_ai_rate", "5MB"), LIBCC_ERR_BAD_UNIT);
    /* The firmware spelling of g is not a second name for it. */
    ck_assert_int_eq(libcc_params_set(p, "dce_tcp_g", "1019"), LIBCC_ERR_UNKNOWN_PARAM);
    libcc_params_del(p);
}
END_TEST

START_TEST(cross_parameter_checks_name_both_parameters)
{
    libcc_params *p = dq_params("kmin=500KB");
    ck_assert_int_eq(libcc_params_validate(p), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "kmin"));
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "kmax"));
    /* Order of setting does not matter: only the final set is checked. */
    ck_assert_int_eq(libcc_params_set(p, "kmax", "1MB"), LIBCC_OK);
    ck_assert_int_eq(libcc_params_validate(p), LIBCC_OK);
    libcc_params_del(p);

    p = dq_params("rpg_ai_rate=100Mbps");
    ck_assert_int_eq(libcc_params_validate(p), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "rpg_hai_rate"));
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "rpg_ai_rate"));
    libcc_params_del(p);

    p = dq_params("rpg_min_rate=1Gbps, rate_to_set_on_first_cnp=500Mbps");
    ck_assert_int_eq(libcc_params_validate(p), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "rate_to_set_on_first_cnp"));
    ck_assert_ptr_nonnull(strstr(libcc_params_error(p), "rpg_min_rate"));
    /* 0 means off and is always fine. */
    ck_assert_int_eq(libcc_params_set(p, "rate_to_set_on_first_cnp", "0bps"), LIBCC_OK);
    ck_assert_int_eq(libcc_params_validate(p), LIBCC_OK);
    libcc_params_del(p);
}
END_TEST

/* ---- docs/algorithms/dcqcn.md in step with the tables ----------------- */

/* The one line of the doc starting with "| `name` |", or NULL. */
static int doc_row(const char *doc, const char *name, char *row, size_t len)
{
    char key[128];
    snprintf(key, sizeof key, "| `%s` |", name);
    int found = 0;
    for (const char *s = doc; (s = strstr(s, key)) != NULL; s++) {
        if (s != doc && s[-1] != '\n')
            continue;
        size_t n = strcspn(s, "\n");
        ck_assert_uint_lt(n, len);
        memcpy(row, s, n);
        row[n] = '\0';
        found++;
    }
    return found;
}

START_TEST(docs_table_matches_descriptors)
{
    char *doc = ts_read_source_file("docs/algorithms/dcqcn.md");
    const libcc_param_desc *t;
    size_t n;
    ck_assert_int_eq(libcc_algorithm_params("dcqcn", &t, &n), LIBCC_OK);
    for (size_t i = 0; i < n; i++) {
        char d[48], lo[48], hi[48], want[512], got[512];
        libcc_format_value(t[i].unit, t[i].def, d, sizeof d);
        libcc_format_value(t[i].unit, t[i].min, lo, sizeof lo);
        libcc_format_value(t[i].unit, t[i].max, hi, sizeof hi);
        snprintf(want, sizeof want, "| `%s` | %s | %s | %s | %s | %s |", t[i].name,
                 libcc_unit_name(t[i].unit), d, lo, hi, t[i].doc);
        ck_assert_msg(doc_row(doc, t[i].name, got, sizeof got) == 1,
                      "docs/algorithms/dcqcn.md: want exactly one row for %s: %s", t[i].name, want);
        ck_assert_str_eq(got, want);
    }
    /* The RP variables table too. */
    test_host h;
    libcc_rp *rp = dq_rp(NULL, &h);
    const libcc_param_desc *v;
    ck_assert_int_eq(libcc_rp_vars(rp, &v, &n), LIBCC_OK);
    for (size_t i = 0; i < n; i++) {
        char want[512], got[512];
        snprintf(want, sizeof want, "| `%s` | %s | %s |", v[i].name, libcc_unit_name(v[i].unit),
                 v[i].doc);
        ck_assert_msg(doc_row(doc, v[i].name, got, sizeof got) == 1,
                      "docs/algorithms/dcqcn.md: want exactly one row for %s: %s", v[i].name, want);
        ck_assert_str_eq(got, want);
    }
    libcc_rp_del(rp);
    free(doc);
}
END_TEST

Suite *dcqcn_params_suite(void)
{
    Suite *s = suite_create("dcqcn_params");
    TCase *t = tcase_create("params");
    tcase_add_test(t, defaults_are_the_firmware_values);
    tcase_add_test(t, units_are_the_physical_ones);
    tcase_add_test(t, values_with_units_and_fractions);
    tcase_add_test(t, bad_values_are_refused_by_name);
    tcase_add_test(t, cross_parameter_checks_name_both_parameters);
    tcase_add_test(t, docs_table_matches_descriptors);
    suite_add_tcase(s, t);
    return s;
}
