/* SPDX-License-Identifier: MIT */
/* The flow's ranges (libcc_flow_params, libcc/src/flow.c): the table says
 * what docs/libcc-api.md#flow-attributes says, and an RP is made exactly
 * inside it: line rate 1 Mbit/s .. 10 Tbit/s, base RTT 0 .. 1 s, MTU 64 ..
 * 9216 B or 0 for the default 1000 B. */
#include <check.h>
#include <libcc/libcc.h>
#include <string.h>

static const libcc_param_desc *row(const char *name)
{
    const libcc_param_desc *t;
    size_t n;
    libcc_flow_params(&t, &n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(t[i].name, name) == 0)
            return &t[i];
    ck_abort_msg("no flow attribute %s", name);
    return NULL;
}

START_TEST(test_table)
{
    size_t n = 0;
    libcc_flow_params(NULL, &n);
    ck_assert_uint_eq(n, 3);
    const libcc_param_desc *r = row("line_rate");
    ck_assert_int_eq(r->unit, LIBCC_UNIT_BPS);
    ck_assert_double_eq(r->min, 1e6);
    ck_assert_double_eq(r->max, 1e13);
    r = row("base_rtt");
    ck_assert_int_eq(r->unit, LIBCC_UNIT_NS);
    ck_assert_double_eq(r->min, 0);
    ck_assert_double_eq(r->max, 1e9);
    r = row("mtu");
    ck_assert_int_eq(r->unit, LIBCC_UNIT_BYTES);
    ck_assert_double_eq(r->min, 64);
    ck_assert_double_eq(r->max, 9216);
    ck_assert_double_eq(r->def, 1000);
}
END_TEST

static int make(uint64_t line, uint64_t rtt, uint32_t mtu)
{
    libcc_params *p = NULL;
    ck_assert_int_eq(libcc_params_new(&p, "hpcc"), LIBCC_OK);
    libcc_flow_info fi = {.flow_id = 1, .line_rate_bps = line, .base_rtt_ns = rtt, .mtu_bytes = mtu};
    libcc_rp *rp = NULL;
    const int rc = libcc_rp_new(&rp, p, &fi, NULL, NULL, 0);
    ck_assert(rc == LIBCC_OK ? rp != NULL : rp == NULL);
    libcc_rp_del(rp);
    libcc_params_del(p);
    return rc;
}

START_TEST(test_rp_edges)
{
    const uint64_t G = 1000000000ull;
    ck_assert_int_eq(make(1000000, 0, 64), LIBCC_OK);
    ck_assert_int_eq(make(10000 * G, G, 9216), LIBCC_OK);
    ck_assert_int_eq(make(100 * G, 12000, 0), LIBCC_OK); /* 0: the default MTU */
    ck_assert_int_eq(make(999999, 12000, 1000), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_int_eq(make(10000 * G + 1, 12000, 1000), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_int_eq(make(100 * G, G + 1, 1000), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_int_eq(make(100 * G, 10000000000ull * G, 1000), LIBCC_ERR_OUT_OF_RANGE); /* 1e10 s */
    ck_assert_int_eq(make(100 * G, 12000, 63), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_int_eq(make(100 * G, 12000, 9217), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_int_eq(make(0, 12000, 1000), LIBCC_ERR_INVALID_ARG); /* no line rate at all */
}
END_TEST

/* In host memory too: the same check before anything is written. */
START_TEST(test_rp_init_in_place)
{
    libcc_params *p = NULL;
    ck_assert_int_eq(libcc_params_new(&p, "dcqcn"), LIBCC_OK);
    static _Alignas(16) unsigned char mem[4096];
    ck_assert_uint_le(libcc_rp_size(p), sizeof mem);
    libcc_flow_info fi = {.flow_id = 1, .line_rate_bps = 100000000000ull, .base_rtt_ns = 2000000000ull};
    libcc_rp *rp = (libcc_rp *)1;
    ck_assert_int_eq(libcc_rp_init(mem, sizeof mem, p, &fi, NULL, NULL, 0, &rp), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_ptr_null(rp);
    libcc_params_del(p);
}
END_TEST

static int check(uint64_t line, uint64_t rtt, uint32_t mtu, char *why, size_t len)
{
    libcc_flow_info fi = {.flow_id = 7, .line_rate_bps = line, .base_rtt_ns = rtt, .mtu_bytes = mtu};
    return libcc_flow_check(&fi, why, len);
}

/* libcc_flow_check: the verdict libcc_rp_init gives, and the reason with the
 * attribute, its value and its range in libcc_format_value's words (the
 * largest unit not above the value: 9216 B is 9.216KB, 999,999 bit/s is
 * 999.999Kbps). */
START_TEST(test_check_names_the_attribute)
{
    const uint64_t G = 1000000000ull;
    char why[128];
    ck_assert_int_eq(check(100 * G, 12000, 1000, why, sizeof why), LIBCC_OK);
    ck_assert_str_eq(why, "");
    ck_assert_int_eq(check(100 * G, 2 * G, 1000, why, sizeof why), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_str_eq(why, "base_rtt 2s is outside [0ns, 1s]");
    ck_assert_int_eq(check(100 * G, 12000, 63, why, sizeof why), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_str_eq(why, "mtu 63B is outside [64B, 9.216KB]");
    ck_assert_int_eq(check(999999, 12000, 1000, why, sizeof why), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_str_eq(why, "line_rate 999.999Kbps is outside [1Mbps, 10Tbps]");
    /* Two at fault: the first in libcc_flow_params' order is named. */
    ck_assert_int_eq(check(20000 * G, 2 * G, 1, why, sizeof why), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_str_eq(why, "line_rate 20Tbps is outside [1Mbps, 10Tbps]");
    ck_assert_int_eq(check(0, 12000, 1000, why, sizeof why), LIBCC_ERR_INVALID_ARG);
    ck_assert_str_eq(why, "line_rate is missing (0); accepted [1Mbps, 10Tbps]");
    /* A missing line rate is reported only when nothing present is out of
     * range: a caller that cannot know the rate yet (the ns-3 NIC before its
     * device) still learns of the bad base RTT. */
    ck_assert_int_eq(check(0, 2 * G, 1000, why, sizeof why), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_str_eq(why, "base_rtt 2s is outside [0ns, 1s]");
    ck_assert_int_eq(check(0, 12000, 10000, why, sizeof why), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_str_eq(why, "mtu 10KB is outside [64B, 9.216KB]");
    /* 0 MTU is the default, not out of range; no buffer is fine; a short
     * one is cut, not overrun. */
    ck_assert_int_eq(check(100 * G, 12000, 0, NULL, 0), LIBCC_OK);
    char tiny[9] = "xxxxxxxx";
    ck_assert_int_eq(check(100 * G, 2 * G, 1000, tiny, 5), LIBCC_ERR_OUT_OF_RANGE);
    ck_assert_str_eq(tiny, "base");
    ck_assert_int_eq(tiny[5], 'x');
    ck_assert_int_eq(libcc_flow_check(NULL, why, sizeof why), LIBCC_ERR_INVALID_ARG);
}
END_TEST

Suite *flow_suite(void)
{
    Suite *s = suite_create("flow");
    TCase *tc = tcase_create("ranges");
    tcase_add_test(tc, test_table);
    tcase_add_test(tc, test_rp_edges);
    tcase_add_test(tc, test_rp_init_in_place);
    tcase_add_test(tc, test_check_names_the_attribute);
    suite_add_tcase(s, tc);
    return s;
}
