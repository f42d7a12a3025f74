/* SPDX-License-Identifier: MIT */
/* FNCC All_INT_Table: per-switch array of the latest INT record per port. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <libcc/libcc.h>

static libcc_int_hop mkhop(uint32_t port, uint64_t ts)
{
    libcc_int_hop h;
    memset(&h, 0, sizeof(h));
    h.bandwidth_bps = UINT64_C(100000000000);
    h.ts_ns = ts;
    h.tx_bytes = 1500u * ts;
    h.qlen_bytes = 3000u;
    h.switch_id = 7;
    h.port_id = port;
    return h;
}

static libcc_int_hop sentinel(void)
{
    libcc_int_hop h;
    memset(&h, 0x5A, sizeof(h));
    return h;
}

START_TEST(test_new_bad_port_counts)
{
    libcc_int_table *t = NULL; /* nothing may be stored on failure */
    ck_assert_int_eq(libcc_int_table_new(&t, 0), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_table_new(&t, 65537), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_table_new(&t, UINT32_MAX), LIBCC_ERR_INVALID_ARG);
    ck_assert_ptr_null(t);
    ck_assert_int_eq(libcc_int_table_new(NULL, 4), LIBCC_ERR_INVALID_ARG);
}
END_TEST

/* 65536 ports is the largest accepted table; its last port is 65535. */
START_TEST(test_new_max_ports)
{
    libcc_int_table *t = NULL;
    ck_assert_int_eq(libcc_int_table_new(&t, 65536), LIBCC_OK);
    ck_assert_ptr_nonnull(t);
    libcc_int_hop h = mkhop(65535, 10);
    libcc_int_hop got = sentinel();
    ck_assert_int_eq(libcc_int_table_get(t, 65535, &got), LIBCC_ERR_NOT_FOUND);
    ck_assert_int_eq(libcc_int_table_update(t, 65535, &h), LIBCC_OK);
    ck_assert_int_eq(libcc_int_table_get(t, 65535, &got), LIBCC_OK);
    ck_assert_uint_eq(got.port_id, 65535);
    ck_assert_int_eq(libcc_int_table_update(t, 65536, &h), LIBCC_ERR_INVALID_ARG);
    libcc_int_table_del(t);
}
END_TEST

START_TEST(test_update_get_roundtrip)
{
    libcc_int_table *t = NULL;
    ck_assert_int_eq(libcc_int_table_new(&t, 4), LIBCC_OK);
    libcc_int_hop h = mkhop(3, 1234);
    ck_assert_int_eq(libcc_int_table_update(t, 3, &h), LIBCC_OK);
    libcc_int_hop got = sentinel();
    ck_assert_int_eq(libcc_int_table_get(t, 3, &got), LIBCC_OK);
    /* Stored at full precision: every field comes back as given. */
    ck_assert_uint_eq(got.bandwidth_bps, UINT64_C(100000000000));
    ck_assert_uint_eq(got.ts_ns, 1234);
    ck_assert_uint_eq(got.tx_bytes, 1500u * 1234u);
    ck_assert_uint_eq(got.qlen_bytes, 3000);
    ck_assert_uint_eq(got.switch_id, 7);
    ck_assert_uint_eq(got.port_id, 3);
    /* A later update replaces the record (periodic refresh). */
    libcc_int_hop h2 = mkhop(3, 2000);
    h2.qlen_bytes = 0;
    ck_assert_int_eq(libcc_int_table_update(t, 3, &h2), LIBCC_OK);
    ck_assert_int_eq(libcc_int_table_get(t, 3, &got), LIBCC_OK);
    ck_assert_uint_eq(got.ts_ns, 2000);
    ck_assert_uint_eq(got.qlen_bytes, 0);
    libcc_int_table_del(t);
}
END_TEST

/* Ports never written read as not found, even beside a written one, and the
 * caller's hop is left alone. */
START_TEST(test_get_never_updated_not_found)
{
    libcc_int_table *t = NULL;
    ck_assert_int_eq(libcc_int_table_new(&t, 4), LIBCC_OK);
    libcc_int_hop h = mkhop(1, 10);
    ck_assert_int_eq(libcc_int_table_update(t, 1, &h), LIBCC_OK);
    libcc_int_hop got = sentinel();
    libcc_int_hop untouched = sentinel();
    ck_assert_int_eq(libcc_int_table_get(t, 0, &got), LIBCC_ERR_NOT_FOUND);
    ck_assert_int_eq(libcc_int_table_get(t, 2, &got), LIBCC_ERR_NOT_FOUND);
    ck_assert_int_eq(libcc_int_table_get(t, 3, &got), LIBCC_ERR_NOT_FOUND);
    ck_assert_int_eq(memcmp(&got, &untouched, sizeof(got)), 0);
    libcc_int_table_del(t);
}
END_TEST

/* 4 ports: valid indices 0..3; 4 is the first out of range. */
START_TEST(test_port_out_of_range)
{
    libcc_int_table *t = NULL;
    ck_assert_int_eq(libcc_int_table_new(&t, 4), LIBCC_OK);
    libcc_int_hop h = mkhop(4, 10);
    libcc_int_hop got = sentinel();
    ck_assert_int_eq(libcc_int_table_update(t, 4, &h), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_table_update(t, UINT32_MAX, &h), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_table_get(t, 4, &got), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_table_get(t, UINT32_MAX, &got), LIBCC_ERR_INVALID_ARG);
    libcc_int_table_del(t);
}
END_TEST

/* A record without a link rate would make U infinite at the sender. */
START_TEST(test_update_zero_bandwidth_rejected)
{
    libcc_int_table *t = NULL;
    ck_assert_int_eq(libcc_int_table_new(&t, 2), LIBCC_OK);
    libcc_int_hop good = mkhop(0, 10);
    ck_assert_int_eq(libcc_int_table_update(t, 0, &good), LIBCC_OK);
    libcc_int_hop bad = mkhop(0, 20);
    bad.bandwidth_bps = 0;
    ck_assert_int_eq(libcc_int_table_update(t, 0, &bad), LIBCC_ERR_BAD_TELEMETRY);
    ck_assert_int_eq(libcc_int_table_update(t, 1, &bad), LIBCC_ERR_BAD_TELEMETRY);
    libcc_int_hop got = sentinel();
    ck_assert_int_eq(libcc_int_table_get(t, 0, &got), LIBCC_OK);
    ck_assert_uint_eq(got.ts_ns, 10); /* the good record survived */
    ck_assert_int_eq(libcc_int_table_get(t, 1, &got), LIBCC_ERR_NOT_FOUND);
    libcc_int_table_del(t);
}
END_TEST

START_TEST(test_null_args)
{
    libcc_int_table *t = NULL;
    ck_assert_int_eq(libcc_int_table_new(&t, 2), LIBCC_OK);
    libcc_int_hop h = mkhop(0, 1);
    ck_assert_int_eq(libcc_int_table_update(NULL, 0, &h), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_table_update(t, 0, NULL), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_table_get(NULL, 0, &h), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_table_get(t, 0, NULL), LIBCC_ERR_INVALID_ARG);
    libcc_int_table_del(t);
    libcc_int_table_del(NULL); /* fine, like free(NULL) */
}
END_TEST

/* No global state: two switches' tables do not see each other's updates. */
START_TEST(test_tables_independent)
{
    libcc_int_table *a = NULL, *b = NULL;
    ck_assert_int_eq(libcc_int_table_new(&a, 2), LIBCC_OK);
    ck_assert_int_eq(libcc_int_table_new(&b, 2), LIBCC_OK);
    libcc_int_hop h = mkhop(0, 42);
    ck_assert_int_eq(libcc_int_table_update(a, 0, &h), LIBCC_OK);
    libcc_int_hop got = sentinel();
    ck_assert_int_eq(libcc_int_table_get(b, 0, &got), LIBCC_ERR_NOT_FOUND);
    ck_assert_int_eq(libcc_int_table_get(a, 0, &got), LIBCC_OK);
    ck_assert_uint_eq(got.ts_ns, 42);
    libcc_int_table_del(a);
    libcc_int_table_del(b);
}
END_TEST

Suite *int_table_suite(void)
{
    Suite *s = suite_create("int_table");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_new_bad_port_counts);
    tcase_add_test(tc, test_new_max_ports);
    tcase_add_test(tc, test_update_get_roundtrip);
    tcase_add_test(tc, test_get_never_updated_not_found);
    tcase_add_test(tc, test_port_out_of_range);
    tcase_add_test(tc, test_update_zero_bandwidth_rejected);
    tcase_add_test(tc, test_null_args);
    tcase_add_test(tc, test_tables_independent);
    suite_add_tcase(s, tc);
    return s;
}
