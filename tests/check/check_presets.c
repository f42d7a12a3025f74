/* SPDX-License-Identifier: MIT */
/* Named parameter presets: what each sets (values written out from the
 * papers, not read back from the table), order against other items, bad
 * names, and the docs table kept in step with the code. */
#include "test_support.h"

#include <check.h>
#include <libcc/libcc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double get(const libcc_params *p, const char *name)
{
    double v = -1;
    ck_assert_msg(libcc_params_get(p, name, &v) == LIBCC_OK, "no parameter %s", name);
    return v;
}

static libcc_params *dcqcn_params(void)
{
    libcc_params *p = NULL;
    ck_assert_int_eq(libcc_params_new(&p, "dcqcn"), LIBCC_OK);
    return p;
}

START_TEST(paper_sets_the_dcqcn_paper_values)
{
    libcc_params *p = dcqcn_params();
    ck_assert_int_eq(libcc_params_apply_preset(p, "paper"), LIBCC_OK);
    /* Zhu et al. 2015: g = 1/256, alpha and increase timers 55 us, byte
     * counter 10 MB, F = 5, R_AI = 40 Mbps, hyper increase i * R_HAI, a
     * decrease per CNP, one CNP per 50 us, Kmin 5 KB, Kmax 200 KB, Pmax 1%. */
    ck_assert_double_eq_tol(get(p, "g"), 1.0 / 256, 1e-12);
    ck_assert_double_eq(get(p, "dce_tcp_rtt"), 55000);
    ck_assert_double_eq(get(p, "rpg_time_reset"), 55000);
    ck_assert_double_eq(get(p, "rpg_byte_reset"), 10e6);
    ck_assert_double_eq(get(p, "rpg_threshold"), 5);
    ck_assert_double_eq(get(p, "rpg_ai_rate"), 40e6);
    ck_assert_double_eq(get(p, "rpg_hai_scale_by_stage"), 1);
    ck_assert_double_eq(get(p, "rate_reduce_monitor_period"), 0);
    ck_assert_double_eq(get(p, "min_time_between_cnps"), 50000);
    ck_assert_double_eq(get(p, "kmin"), 5000);
    ck_assert_double_eq(get(p, "kmax"), 200000);
    ck_assert_double_eq_tol(get(p, "pmax"), 0.01, 1e-12);
    /* Not in the paper: the firmware's values stay (50 Mbps, 1 Mbps). */
    ck_assert_double_eq(get(p, "rpg_hai_rate"), 50e6);
    ck_assert_double_eq(get(p, "rpg_min_rate"), 1e6);
    ck_assert_int_eq(libcc_params_validate(p), LIBCC_OK);
    libcc_params_del(p);
}
END_TEST

START_TEST(hpcc_sim_turns_the_byte_counter_off)
{
    libcc_params *p = dcqcn_params();
    /* Through libcc_params_set, as an ns-3 string attribute would. */
    ck_assert_int_eq(libcc_params_set(p, "preset", "hpcc-sim"), LIBCC_OK);
    ck_assert_double_eq(get(p, "rpg_byte_reset"), 0);
    ck_assert_double_eq(get(p, "rpg_min_rate"), 1e9);
    /* Firmware timers kept: 300 us increase timer, 1 us alpha timer. */
    ck_assert_double_eq(get(p, "rpg_time_reset"), 300000);
    ck_assert_double_eq(get(p, "dce_tcp_rtt"), 1000);
    libcc_params_del(p);
}
END_TEST

START_TEST(items_apply_left_to_right)
{
    libcc_params *p = dcqcn_params();
    ck_assert_int_eq(libcc_params_parse(p, "preset=paper, kmax=400KB"), LIBCC_OK);
    ck_assert_double_eq(get(p, "kmax"), 400000);
    ck_assert_double_eq(get(p, "kmin"), 5000);
    /* A preset after an item overrides it. */
    ck_assert_int_eq(libcc_params_parse(p, "kmax=300KB preset=paper"), LIBCC_OK);
    ck_assert_double_eq(get(p, "kmax"), 200000);
    libcc_params_del(p);
}
END_TEST

START_TEST(unknown_preset_is_named_with_the_choices)
{
    libcc_params *p = dcqcn_params();
    ck_assert_int_eq(libcc_params_parse(p, "kmin=50KB,preset=nope,kmax=300KB"), LIBCC_ERR_NOT_FOUND);
    const char *e = libcc_params_error(p);
    ck_assert_msg(strstr(e, "'nope'") && strstr(e, "'dcqcn'") && strstr(e, "paper, hpcc-sim"),
                  "message: %s", e);
    /* Parse stops at the bad item: kmin applied, kmax not (firmware 400 KB). */
    ck_assert_double_eq(get(p, "kmin"), 50000);
    ck_assert_double_eq(get(p, "kmax"), 400000);
    libcc_params_del(p);

    ck_assert_int_eq(libcc_params_new(&p, "hpcc"), LIBCC_OK);
    ck_assert_int_eq(libcc_params_apply_preset(p, "paper"), LIBCC_ERR_NOT_FOUND);
    ck_assert_msg(strstr(libcc_params_error(p), "presets: none"), "message: %s",
                  libcc_params_error(p));
    ck_assert_int_eq(libcc_params_apply_preset(NULL, "paper"), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_params_apply_preset(p, NULL), LIBCC_ERR_INVALID_ARG);
    libcc_params_del(p);
}
END_TEST

START_TEST(presets_are_listed_per_algorithm)
{
    const libcc_preset_desc *t = NULL;
    size_t n = 99;
    ck_assert_int_eq(libcc_algorithm_presets("dcqcn", &t, &n), LIBCC_OK);
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(t[0].name, "paper");
    ck_assert_str_eq(t[1].name, "hpcc-sim");
    ck_assert_int_eq(libcc_algorithm_presets("fncc", &t, &n), LIBCC_OK);
    ck_assert_uint_eq(n, 0);
    ck_assert_int_eq(libcc_algorithm_presets("tcp", &t, &n), LIBCC_ERR_UNKNOWN_ALGORITHM);
    ck_assert_int_eq(libcc_algorithm_presets("dcqcn", NULL, &n), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_algorithm_presets("dcqcn", &t, NULL), LIBCC_ERR_INVALID_ARG);
}
END_TEST

/* Every preset of every algorithm applies, validates, and does not name a
 * preset itself (no recursion). */
START_TEST(every_preset_applies_and_validates)
{
    for (const char *const *a = libcc_algorithms(); *a; a++) {
        const libcc_preset_desc *t;
        size_t n;
        ck_assert_int_eq(libcc_algorithm_presets(*a, &t, &n), LIBCC_OK);
        for (size_t i = 0; i < n; i++) {
            ck_assert_msg(strstr(t[i].assignments, "preset") == NULL, "%s/%s names a preset", *a,
                          t[i].name);
            ck_assert_msg(t[i].doc && t[i].doc[0], "%s/%s has no doc", *a, t[i].name);
            libcc_params *p = NULL;
            ck_assert_int_eq(libcc_params_new(&p, *a), LIBCC_OK);
            ck_assert_msg(libcc_params_apply_preset(p, t[i].name) == LIBCC_OK, "%s/%s: %s", *a,
                          t[i].name, libcc_params_error(p));
            ck_assert_msg(libcc_params_validate(p) == LIBCC_OK, "%s/%s: %s", *a, t[i].name,
                          libcc_params_error(p));
            libcc_params_del(p);
        }
    }
}
END_TEST

START_TEST(test_docs_presets)
{
    char *doc = ts_read_source_file("docs/algorithms/dcqcn.md");
    const libcc_preset_desc *t;
    size_t n;
    ck_assert_int_eq(libcc_algorithm_presets("dcqcn", &t, &n), LIBCC_OK);
    for (size_t i = 0; i < n; i++) {
        char want[600];
        snprintf(want, sizeof want, "\n| `%s` | `%s` | %s |\n", t[i].name, t[i].assignments,
                 t[i].doc);
        ck_assert_msg(strstr(doc, want) != NULL, "docs/algorithms/dcqcn.md lacks the row%s", want);
    }
    free(doc);
}
END_TEST

Suite *presets_suite(void)
{
    Suite *s = suite_create("presets");
    TCase *t = tcase_create("presets");
    tcase_add_test(t, paper_sets_the_dcqcn_paper_values);
    tcase_add_test(t, hpcc_sim_turns_the_byte_counter_off);
    tcase_add_test(t, items_apply_left_to_right);
    tcase_add_test(t, unknown_preset_is_named_with_the_choices);
    tcase_add_test(t, presets_are_listed_per_algorithm);
    tcase_add_test(t, every_preset_applies_and_validates);
    tcase_add_test(t, test_docs_presets);
    suite_add_tcase(s, t);
    return s;
}
