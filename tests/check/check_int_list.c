/* SPDX-License-Identifier: MIT */
/* INT hop lists and wraparound-safe differences (docs/int-telemetry.md). */
#include <check.h>
#include <string.h>

#include <libcc/libcc.h>

static libcc_int_hop mkhop(uint32_t id)
{
    libcc_int_hop h;
    memset(&h, 0, sizeof(h));
    h.bandwidth_bps = UINT64_C(100000000000);
    h.ts_ns = 1000u + id;
    h.tx_bytes = 5000u * id;
    h.qlen_bytes = 80u * id;
    h.switch_id = id;
    h.port_id = 100u + id;
    return h;
}

START_TEST(test_init_sets_empty_full_width)
{
    libcc_int_list l;
    memset(&l, 0xA5, sizeof(l)); /* garbage the init must replace */
    libcc_int_list_init(&l);
    ck_assert_uint_eq(l.n_hops, 0);
    ck_assert_uint_eq(l.ts_bits, 64);
    ck_assert_uint_eq(l.tx_bits, 64);
    ck_assert_uint_eq(l.hop[LIBCC_INT_MAX_HOPS - 1].ts_ns, 0);
    libcc_int_list_init(NULL); /* must not crash */
}
END_TEST

START_TEST(test_push_keeps_order_and_values)
{
    libcc_int_list l;
    libcc_int_list_init(&l);
    for (uint32_t i = 0; i < 3; i++) {
        libcc_int_hop h = mkhop(i);
        ck_assert_int_eq(libcc_int_list_push(&l, &h, 0), LIBCC_OK);
    }
    ck_assert_uint_eq(l.n_hops, 3);
    for (uint32_t i = 0; i < 3; i++) {
        ck_assert_uint_eq(l.hop[i].switch_id, i);
        ck_assert_uint_eq(l.hop[i].port_id, 100u + i);
        ck_assert_uint_eq(l.hop[i].tx_bytes, 5000u * i);
    }
}
END_TEST

/* max_hops 0: the compile-time bound LIBCC_INT_MAX_HOPS (8) applies; the
 * ninth push is refused and leaves every byte of the list as it was. */
START_TEST(test_push_past_compile_time_bound_refused)
{
    libcc_int_list l;
    libcc_int_list_init(&l);
    for (uint32_t i = 0; i < 8; i++) {
        libcc_int_hop h = mkhop(i);
        ck_assert_int_eq(libcc_int_list_push(&l, &h, 0), LIBCC_OK);
    }
    libcc_int_list before = l;
    libcc_int_hop extra = mkhop(99);
    ck_assert_int_eq(libcc_int_list_push(&l, &extra, 0), LIBCC_ERR_FULL);
    ck_assert_int_eq(memcmp(&l, &before, sizeof(l)), 0);
    ck_assert_uint_eq(l.n_hops, 8);
}
END_TEST

/* A runtime bound of 5 (the HPCC simulator's maximum) refuses the sixth. */
START_TEST(test_push_past_runtime_bound_refused)
{
    libcc_int_list l;
    libcc_int_list_init(&l);
    for (uint32_t i = 0; i < 5; i++) {
        libcc_int_hop h = mkhop(i);
        ck_assert_int_eq(libcc_int_list_push(&l, &h, 5), LIBCC_OK);
    }
    libcc_int_list before = l;
    libcc_int_hop extra = mkhop(99);
    ck_assert_int_eq(libcc_int_list_push(&l, &extra, 5), LIBCC_ERR_FULL);
    ck_assert_int_eq(memcmp(&l, &before, sizeof(l)), 0);
    /* The same list still accepts up to the compile-time bound under a
     * larger runtime bound: the bound is per call, not stored. */
    ck_assert_int_eq(libcc_int_list_push(&l, &extra, 6), LIBCC_OK);
    ck_assert_uint_eq(l.n_hops, 6);
}
END_TEST

/* A runtime bound above the array (100 > 8) cannot be honoured: 8 still. */
START_TEST(test_push_runtime_bound_clamped_to_array)
{
    libcc_int_list l;
    libcc_int_list_init(&l);
    libcc_int_hop h = mkhop(1);
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(libcc_int_list_push(&l, &h, 100), LIBCC_OK);
    ck_assert_int_eq(libcc_int_list_push(&l, &h, 100), LIBCC_ERR_FULL);
    ck_assert_uint_eq(l.n_hops, 8);
}
END_TEST

/* A corrupted count (200 > 8) must not be used as an index. */
START_TEST(test_push_corrupt_count_refused)
{
    libcc_int_list l;
    libcc_int_list_init(&l);
    l.n_hops = 200;
    libcc_int_list before = l;
    libcc_int_hop h = mkhop(1);
    ck_assert_int_eq(libcc_int_list_push(&l, &h, 0), LIBCC_ERR_FULL);
    ck_assert_int_eq(memcmp(&l, &before, sizeof(l)), 0);
}
END_TEST

START_TEST(test_push_null_args)
{
    libcc_int_list l;
    libcc_int_list_init(&l);
    libcc_int_hop h = mkhop(1);
    ck_assert_int_eq(libcc_int_list_push(NULL, &h, 0), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_int_list_push(&l, NULL, 0), LIBCC_ERR_INVALID_ARG);
    ck_assert_uint_eq(l.n_hops, 0);
}
END_TEST

START_TEST(test_wrap_diff)
{
    /* No wrap: 100 - 40 = 60 in any width that holds both. */
    ck_assert_uint_eq(libcc_wrap_diff(100, 40, 24), 60);
    /* 24-bit counter: prev = 2^24 - 10 = 16777206, cur read 5 after the
     * wrap; true distance 10 + 5 = 15. */
    ck_assert_uint_eq(libcc_wrap_diff(5, 16777206, 24), 15);
    /* Same counter, one tick apart across the wrap: 0 - (2^24 - 1) = 1. */
    ck_assert_uint_eq(libcc_wrap_diff(0, 16777215, 24), 1);
    /* 20-bit txBytes ticks: prev 2^20 - 2 = 1048574, cur 3 -> 2 + 3 = 5. */
    ck_assert_uint_eq(libcc_wrap_diff(3, 1048574, 20), 5);
    /* High bits above the width are ignored: cur 2^24 + 5 and prev 0 with
     * 24 bits differ by 5. */
    ck_assert_uint_eq(libcc_wrap_diff(16777216u + 5u, 0, 24), 5);
    /* 64 bits: plain unsigned subtraction, 3 - 5 = 2^64 - 2. */
    ck_assert_uint_eq(libcc_wrap_diff(3, 5, 64), UINT64_MAX - 1);
    /* 0 and > 64 mean 64 (documented): same as above. */
    ck_assert_uint_eq(libcc_wrap_diff(3, 5, 0), UINT64_MAX - 1);
    ck_assert_uint_eq(libcc_wrap_diff(3, 5, 65), UINT64_MAX - 1);
    ck_assert_uint_eq(libcc_wrap_diff(3, 5, 1000), UINT64_MAX - 1);
    /* Edge widths: 1 bit, 0 - 1 = 1 mod 2; 63 bits, 0 - 1 = 2^63 - 1. */
    ck_assert_uint_eq(libcc_wrap_diff(0, 1, 1), 1);
    ck_assert_uint_eq(libcc_wrap_diff(0, 1, 63), INT64_MAX);
}
END_TEST

Suite *int_list_suite(void)
{
    Suite *s = suite_create("int_list");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_init_sets_empty_full_width);
    tcase_add_test(tc, test_push_keeps_order_and_values);
    tcase_add_test(tc, test_push_past_compile_time_bound_refused);
    tcase_add_test(tc, test_push_past_runtime_bound_refused);
    tcase_add_test(tc, test_push_runtime_bound_clamped_to_array);
    tcase_add_test(tc, test_push_corrupt_count_refused);
    tcase_add_test(tc, test_push_null_args);
    tcase_add_test(tc, test_wrap_diff);
    suite_add_tcase(s, tc);
    return s;
}
