/* SPDX-License-Identifier: MIT */
/*
 * The registry: which algorithms exist and what a host must build for each
 * (libcc_algorithm_info). The expected descriptions come from the specs:
 *   none   line rate, no feedback at all: only the sender has work.
 *   dcqcn  switches mark ECN (CP), receivers send CNPs (NP), senders cut
 *          rates (RP); no telemetry (DCQCN paper, section 3).
 *   hpcc   switches stamp INT on data at egress, the receiver copies the
 *          hops into the ACK (HPCC++ draft, section 3): HPCC headers on both.
 *   hpcc++ the same headers; probes and every-k data carry them too.
 *   fncc   data carries nothing; switches stamp ACKs from their
 *          All_INT_Table (FNCC paper, Algorithm 1): FNCC header on ACKs and
 *          one table per switch.
 *   dctcp  switches mark CE above K (CP), every ACK echoes the acked
 *          packet's mark (NP, ECN echo), the sender cuts by alpha/2 (RP).
 *   timely data carries its transmit time, the receiver echoes it (NP), the
 *          sender reacts to the RTT (RP); switches do nothing.
 *   swift  the same, plus the receiver NIC's timestamps (fabric / endpoint
 *          split) and the hop count (target scaling).
 *   powertcp        HPCC's INT on data, echoed in ACKs (queue, tx bytes).
 *   theta-powertcp  only the RTT: timestamps echoed, as timely.
 *   hpcc-pint  no INT header: one PINT field (16 bits) on sampled data,
 *          written by switches (CP), echoed (NP), read by the sender (RP).
 *   rocc   switches compute a fair rate and send it to sources (CP
 *          feedback); the sender follows it (RP); no receiver work.
 * Both wire formats put one hop in 64 bits: 8 bytes.
 * Work at enqueue (cp_on_enqueue): DCQCN marks there (RED, unless
 * ecn_mark_at_dequeue), DCTCP marks against K as the packet joins the
 * queue, RoCC counts each flow's queued bytes from its enqueue; the
 * others' switches act only as the packet leaves (INT stamps, PINT) or
 * never.
 * The HPCC simulator's CC_MODE of each (its run.py's cc_modes and
 * rdma-hw.cc): 1 dcqcn, 3 hpcc, 7 timely, 8 dctcp, 10 hpcc-pint; the
 * others have none there.
 */
#include <check.h>
#include <libcc/libcc.h>
#include <string.h>

#define ALL_ROLES (LIBCC_ROLE_RP | LIBCC_ROLE_NP | LIBCC_ROLE_CP)

typedef struct expect {
    const char *name;
    unsigned roles;
    libcc_int_format data_int, ack_int;
    unsigned table, hop_bytes;
    unsigned signals, pint_bits; /* since 0.5.0 */
    unsigned hpcc_sim_cc_mode;
    unsigned cp_on_enqueue; /* since 0.8.0 */
} expect;

static const expect expected[] = {
    {"none", LIBCC_ROLE_RP, LIBCC_INT_FORMAT_NONE, LIBCC_INT_FORMAT_NONE, 0, 0, 0, 0, 0, 0},
    {"dcqcn", ALL_ROLES, LIBCC_INT_FORMAT_NONE, LIBCC_INT_FORMAT_NONE, 0, 0, 0, 0, 1, 1},
    {"hpcc", ALL_ROLES, LIBCC_INT_FORMAT_HPCC, LIBCC_INT_FORMAT_HPCC, 0, 8, 0, 0, 3, 0},
    {"hpcc++", ALL_ROLES, LIBCC_INT_FORMAT_HPCC, LIBCC_INT_FORMAT_HPCC, 0, 8, 0, 0, 0, 0},
    {"fncc", ALL_ROLES, LIBCC_INT_FORMAT_NONE, LIBCC_INT_FORMAT_FNCC, 1, 8, 0, 0, 0, 0},
    {"dctcp", ALL_ROLES, LIBCC_INT_FORMAT_NONE, LIBCC_INT_FORMAT_NONE, 0, 0,
     LIBCC_SIGNAL_ACK_ECN_ECHO, 0, 8, 1},
    {"timely", LIBCC_ROLE_RP | LIBCC_ROLE_NP, LIBCC_INT_FORMAT_NONE, LIBCC_INT_FORMAT_NONE, 0, 0,
     LIBCC_SIGNAL_ACK_TX_TS, 0, 7, 0},
    {"swift", LIBCC_ROLE_RP | LIBCC_ROLE_NP, LIBCC_INT_FORMAT_NONE, LIBCC_INT_FORMAT_NONE, 0, 0,
     LIBCC_SIGNAL_ACK_TX_TS | LIBCC_SIGNAL_ACK_NIC_TS | LIBCC_SIGNAL_ACK_HOPS, 0, 0, 0},
    {"powertcp", ALL_ROLES, LIBCC_INT_FORMAT_HPCC, LIBCC_INT_FORMAT_HPCC, 0, 8, 0, 0, 0, 0},
    {"theta-powertcp", LIBCC_ROLE_RP | LIBCC_ROLE_NP, LIBCC_INT_FORMAT_NONE, LIBCC_INT_FORMAT_NONE,
     0, 0, LIBCC_SIGNAL_ACK_TX_TS, 0, 0, 0},
    {"hpcc-pint", ALL_ROLES, LIBCC_INT_FORMAT_NONE, LIBCC_INT_FORMAT_NONE, 0, 0,
     LIBCC_SIGNAL_DATA_PINT, 16, 10, 0},
    {"rocc", LIBCC_ROLE_RP | LIBCC_ROLE_CP, LIBCC_INT_FORMAT_NONE, LIBCC_INT_FORMAT_NONE, 0, 0,
     LIBCC_SIGNAL_CP_FEEDBACK, 0, 0, 1},
};
#define N_EXPECTED (sizeof expected / sizeof expected[0])

START_TEST(names_in_documented_order)
{
    const char *const *names = libcc_algorithms();
    size_t n = 0;
    for (; names[n]; n++) {
        ck_assert_uint_lt(n, N_EXPECTED);
        ck_assert_str_eq(names[n], expected[n].name);
    }
    ck_assert_uint_eq(n, N_EXPECTED);
}
END_TEST

START_TEST(info_of_each_algorithm)
{
    for (size_t i = 0; i < N_EXPECTED; i++) {
        const expect *e = &expected[i];
        libcc_algorithm_info info;
        memset(&info, 0xa5, sizeof info);
        ck_assert_int_eq(libcc_algorithm_info_get(e->name, &info), LIBCC_OK);
        ck_assert_str_eq(info.name, e->name);
        ck_assert_msg(info.roles == e->roles, "%s roles %u", e->name, info.roles);
        ck_assert_msg(info.data_int == e->data_int, "%s data_int %d", e->name, info.data_int);
        ck_assert_msg(info.ack_int == e->ack_int, "%s ack_int %d", e->name, info.ack_int);
        ck_assert_uint_eq(info.cp_needs_int_table, e->table);
        ck_assert_uint_eq(info.int_hop_bytes, e->hop_bytes);
        ck_assert_msg(info.cp_on_enqueue == e->cp_on_enqueue, "%s cp_on_enqueue %u", e->name,
                      info.cp_on_enqueue);
        ck_assert_uint_eq(info.reserved[0] | info.reserved[1], 0);
        ck_assert_msg(info.signals == e->signals, "%s signals 0x%x", e->name, info.signals);
        ck_assert_uint_eq(info.pint_bits, e->pint_bits);
        ck_assert_msg(info.hpcc_sim_cc_mode == e->hpcc_sim_cc_mode, "%s hpcc_sim_cc_mode %u", e->name,
                      info.hpcc_sim_cc_mode);
        ck_assert_uint_eq(info.reserved2[0] | info.reserved2[1], 0);
    }
}
END_TEST

/* The name in the info is the same static string libcc_algorithms() lists:
 * a host may keep either. */
START_TEST(info_name_is_the_listed_string)
{
    for (const char *const *n = libcc_algorithms(); *n; n++) {
        libcc_algorithm_info info;
        ck_assert_int_eq(libcc_algorithm_info_get(*n, &info), LIBCC_OK);
        ck_assert_ptr_eq(info.name, *n);
    }
}
END_TEST

/* cp_on_enqueue 0 is a promise a host builds on (it skips the call): the
 * call changes neither the packet nor what the CP stamps next. */
START_TEST(enqueue_without_work_changes_nothing)
{
    for (size_t i = 0; i < N_EXPECTED; i++) {
        const expect *e = &expected[i];
        if (!(e->roles & LIBCC_ROLE_CP) || e->cp_on_enqueue)
            continue;
        libcc_params *p;
        ck_assert_int_eq(libcc_params_new(&p, e->name), LIBCC_OK);
        libcc_int_table *table = NULL;
        if (e->table)
            ck_assert_int_eq(libcc_int_table_new(&table, 4), LIBCC_OK);
        libcc_cp_info ci = {.switch_id = 1, .port_id = 2, .link_rate_bps = 100000000000ull,
                            .int_table = table};
        libcc_cp *cp;
        ck_assert_int_eq(libcc_cp_new(&cp, p, &ci), LIBCC_OK);
        libcc_int_list list;
        libcc_int_list_init(&list);
        libcc_cp_pkt pkt;
        memset(&pkt, 0, sizeof pkt);
        pkt.kind = LIBCC_PKT_DATA;
        pkt.bytes = 1048;
        pkt.queue_bytes = pkt.port_queue_bytes = 10000000; /* far above any threshold */
        pkt.ecn_capable = 1;
        pkt.int_list = &list;
        pkt.has = LIBCC_PKT_HAS_PINT;
        pkt.pint = 0x1234;
        libcc_cp_pkt before = pkt;
        libcc_int_list list_before = list;
        ck_assert_int_eq(libcc_cp_on_enqueue(cp, 1000, &pkt), LIBCC_OK);
        ck_assert_msg(memcmp(&pkt, &before, sizeof pkt) == 0, "%s: enqueue changed the packet",
                      e->name);
        ck_assert_msg(memcmp(&list, &list_before, sizeof list) == 0,
                      "%s: enqueue changed the hops", e->name);
        libcc_int_hop hop;
        ck_assert_int_eq(libcc_cp_int_record(cp, 2000, 0, &hop), LIBCC_OK);
        ck_assert_uint_eq(hop.tx_bytes, 0); /* only dequeues count bytes */
        libcc_cp_del(cp);
        libcc_int_table_del(table);
        libcc_params_del(p);
    }
}
END_TEST

START_TEST(info_errors)
{
    libcc_algorithm_info info;
    ck_assert_int_eq(libcc_algorithm_info_get("hpcc", NULL), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_algorithm_info_get(NULL, &info), LIBCC_ERR_UNKNOWN_ALGORITHM);
    ck_assert_int_eq(libcc_algorithm_info_get("HPCC", &info), LIBCC_ERR_UNKNOWN_ALGORITHM);
    ck_assert_int_eq(libcc_algorithm_info_get("cubic", &info), LIBCC_ERR_UNKNOWN_ALGORITHM);
}
END_TEST

Suite *registry_suite(void)
{
    Suite *s = suite_create("registry");
    TCase *t = tcase_create("info");
    tcase_add_test(t, names_in_documented_order);
    tcase_add_test(t, info_of_each_algorithm);
    tcase_add_test(t, info_name_is_the_listed_string);
    tcase_add_test(t, info_errors);
    tcase_add_test(t, enqueue_without_work_changes_nothing);
    suite_add_tcase(s, t);
    return s;
}
