/* SPDX-License-Identifier: MIT */
/* The role objects independent of any algorithm (driven with `none`):
 * construction in host or library memory, time and argument checks,
 * callbacks, the NP's flow table (ACK every m, concurrent-flow count,
 * eviction), the CP's transmitted-byte counter. */
#include <check.h>
#include <libcc/libcc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define G100 100000000000ull

static libcc_params *params_for(const char *algo, const char *settings)
{
    libcc_params *p = NULL;
    ck_assert_int_eq(libcc_params_new(&p, algo), LIBCC_OK);
    if (settings)
        ck_assert_msg(libcc_params_parse(p, settings) == LIBCC_OK, "%s", libcc_params_error(p));
    return p;
}

static const libcc_flow_info flow100 = {.flow_id = 7, .line_rate_bps = G100, .base_rtt_ns = 12000};

/* ---- Reaction Point ---------------------------------------------------------- */

START_TEST(rp_in_host_memory)
{
    libcc_params *p = params_for("none", NULL);
    size_t need = libcc_rp_size(p);
    ck_assert_uint_gt(need, 0);
    void *mem = aligned_alloc(64, (need + 64 + 63) / 64 * 64); /* C11: size a multiple of alignment */
    libcc_rp *rp = NULL;
    ck_assert_int_eq(libcc_rp_init(mem, need - 1, p, &flow100, NULL, NULL, 0, &rp), LIBCC_ERR_BUFFER_TOO_SMALL);
    ck_assert_ptr_null(rp);
    /* misaligned by one byte: refused rather than undefined behaviour */
    ck_assert_int_eq(libcc_rp_init((char *)mem + 1, need, p, &flow100, NULL, NULL, 0, &rp),
                     LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_rp_init(mem, need, p, &flow100, NULL, (void *)0x1234, 0, &rp), LIBCC_OK);
    ck_assert_ptr_eq(rp, mem);
    ck_assert_ptr_eq(libcc_rp_user_data(rp), (void *)0x1234);
    ck_assert_str_eq(libcc_rp_algorithm(rp), "none");
    libcc_rp_del(rp);
    /* after del the object refuses events instead of running on stale state */
    ck_assert_int_eq(libcc_rp_on_cnp(rp, 1), LIBCC_ERR_INVALID_ARG);
    free(mem);
    libcc_params_del(p);
}
END_TEST

/* Per-flow memory is what the flow's algorithm needs: libcc_rp_size(params)
 * for that algorithm, the largest of them for NULL, a multiple of 16 (so
 * RPs pack in arrays and aligned_alloc takes the size). `none` keeps no
 * module state and no config, so it is the smallest; the HPCC family keeps
 * a previous hop list, DCQCN a few counters, so hpcc's is larger than
 * dcqcn's. Every algorithm runs in host memory of exactly its size (the
 * sanitizer run would catch a write past it) and refuses one byte less. */
START_TEST(rp_size_follows_the_algorithm)
{
    size_t max = 0, none_size = 0, dcqcn_size = 0, hpcc_size = 0;
    for (const char *const *a = libcc_algorithms(); *a; a++) {
        libcc_params *p = params_for(*a, NULL);
        size_t need = libcc_rp_size(p);
        ck_assert_uint_eq(need % 16, 0);
        ck_assert_uint_le(need, libcc_rp_size(NULL));
        max = need > max ? need : max;
        if (strcmp(*a, "none") == 0)
            none_size = need;
        if (strcmp(*a, "dcqcn") == 0)
            dcqcn_size = need;
        if (strcmp(*a, "hpcc") == 0)
            hpcc_size = need;

        void *mem = aligned_alloc(16, need);
        libcc_rp *rp = NULL;
        ck_assert_int_eq(libcc_rp_init(mem, need - 1, p, &flow100, NULL, NULL, 0, &rp),
                         LIBCC_ERR_BUFFER_TOO_SMALL);
        ck_assert_int_eq(libcc_rp_init(mem, need, p, &flow100, NULL, NULL, 0, &rp), LIBCC_OK);
        libcc_int_list l;
        libcc_int_list_init(&l);
        libcc_int_hop h = {.bandwidth_bps = G100, .ts_ns = 1000, .tx_bytes = 1000};
        ck_assert_int_eq(libcc_int_list_push(&l, &h, 0), LIBCC_OK);
        libcc_ack ack = {.seq = 1000, .int_list = &l};
        ck_assert_int_eq(libcc_rp_on_tx(rp, 10, 0, 1000, NULL), LIBCC_OK);
        ck_assert_int_eq(libcc_rp_on_cnp(rp, 20), LIBCC_OK);
        ck_assert_int_eq(libcc_rp_on_ack(rp, 30, &ack), LIBCC_OK);
        ck_assert_int_eq(libcc_rp_on_timer(rp, 100000), LIBCC_OK);
        ck_assert_uint_ge(libcc_rp_rate_bps(rp), 1);
        libcc_rp_del(rp);
        free(mem);
        libcc_params_del(p);
    }
    ck_assert_uint_eq(libcc_rp_size(NULL), max);
    ck_assert_uint_lt(none_size, dcqcn_size);
    ck_assert_uint_lt(dcqcn_size, hpcc_size);
}
END_TEST

START_TEST(none_runs_at_line_rate_without_window)
{
    libcc_params *p = params_for("none", NULL);
    libcc_rp *rp;
    ck_assert_int_eq(libcc_rp_new(&rp, p, &flow100, NULL, NULL, 0), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), G100);
    ck_assert_uint_eq(libcc_rp_window_bytes(rp), LIBCC_WINDOW_UNLIMITED);
    ck_assert_uint_eq(libcc_rp_deadline_ns(rp), LIBCC_NO_DEADLINE);
    libcc_ack ack;
    memset(&ack, 0, sizeof ack);
    ack.seq = 1000;
    ck_assert_int_eq(libcc_rp_on_tx(rp, 10, 0, 1000, NULL), LIBCC_OK);
    ck_assert_int_eq(libcc_rp_on_ack(rp, 20, &ack), LIBCC_OK);
    ck_assert_int_eq(libcc_rp_on_cnp(rp, 30), LIBCC_OK);
    ck_assert_int_eq(libcc_rp_on_timer(rp, 40), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), G100);
    libcc_rp_del(rp);
    libcc_params_del(p);
}
END_TEST

START_TEST(rp_refuses_time_going_backwards)
{
    libcc_params *p = params_for("none", NULL);
    libcc_rp *rp;
    libcc_rp_new(&rp, p, &flow100, NULL, NULL, 1000);
    ck_assert_int_eq(libcc_rp_on_cnp(rp, 999), LIBCC_ERR_TIME_BACKWARDS);
    ck_assert_int_eq(libcc_rp_on_cnp(rp, 1000), LIBCC_OK); /* equal time is fine */
    ck_assert_int_eq(libcc_rp_on_timer(rp, 500), LIBCC_ERR_TIME_BACKWARDS);
    libcc_rp_del(rp);
    libcc_params_del(p);
}
END_TEST

/* Since 0.5.0 the core refuses timestamps no algorithm could use, before
 * any module sees them, and leaves the RP unchanged (its clock too). */
START_TEST(rp_refuses_impossible_timestamps)
{
    libcc_params *p = params_for("none", NULL);
    libcc_rp *rp;
    ck_assert_int_eq(libcc_rp_new(&rp, p, &flow100, NULL, NULL, 0), LIBCC_OK);
    libcc_ack a;
    memset(&a, 0, sizeof a);
    a.seq = 1000;
    a.has = LIBCC_ACK_HAS_TX_TS;
    a.tx_ts_ns = 5001; /* sent after the ACK arrived at 5000 */
    ck_assert_int_eq(libcc_rp_on_ack(rp, 5000, &a), LIBCC_ERR_BAD_TELEMETRY);
    ck_assert_int_eq(libcc_rp_on_nack(rp, 5000, &a), LIBCC_ERR_BAD_TELEMETRY);
    a.tx_ts_ns = 5000; /* an RTT of 0 is a sample */
    ck_assert_int_eq(libcc_rp_on_ack(rp, 5000, &a), LIBCC_OK);
    /* with the NIC's arrival stamp, that is the reference, not now */
    a.has |= LIBCC_ACK_HAS_RX_TS;
    a.rx_ts_ns = 4000;
    ck_assert_int_eq(libcc_rp_on_ack(rp, 6000, &a), LIBCC_ERR_BAD_TELEMETRY);
    a.rx_ts_ns = 6001; /* an arrival stamped after now */
    ck_assert_int_eq(libcc_rp_on_ack(rp, 6000, &a), LIBCC_ERR_BAD_TELEMETRY);
    a.rx_ts_ns = 5500;
    ck_assert_int_eq(libcc_rp_on_ack(rp, 6000, &a), LIBCC_OK);
    /* the receiver cannot send the ACK before the data arrived */
    a.has = LIBCC_ACK_HAS_REMOTE_TS;
    a.remote_rx_ts_ns = 900;
    a.remote_tx_ts_ns = 899;
    ck_assert_int_eq(libcc_rp_on_ack(rp, 7000, &a), LIBCC_ERR_BAD_TELEMETRY);
    /* refused: the clock did not move to 7000 */
    ck_assert_int_eq(libcc_rp_on_cnp(rp, 6500), LIBCC_OK);
    a.remote_tx_ts_ns = 900;
    ck_assert_int_eq(libcc_rp_on_ack(rp, 7000, &a), LIBCC_OK);
    libcc_rp_del(rp);
    libcc_params_del(p);
}
END_TEST

/* libcc_rp_on_feedback: argument and time checks as every event; an
 * algorithm without a use for it ignores it. */
START_TEST(rp_feedback_event)
{
    libcc_params *p = params_for("none", NULL);
    libcc_rp *rp;
    ck_assert_int_eq(libcc_rp_new(&rp, p, &flow100, NULL, NULL, 100), LIBCC_OK);
    libcc_feedback fb = {.rate_bps = 1000000000ull, .switch_id = 1, .port_id = 2};
    ck_assert_int_eq(libcc_rp_on_feedback(rp, 200, NULL), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_rp_on_feedback(NULL, 200, &fb), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_rp_on_feedback(rp, 99, &fb), LIBCC_ERR_TIME_BACKWARDS);
    ck_assert_int_eq(libcc_rp_on_feedback(rp, 200, &fb), LIBCC_OK);
    ck_assert_uint_eq(libcc_rp_rate_bps(rp), G100);
    libcc_rp_del(rp);
    libcc_params_del(p);
}
END_TEST

START_TEST(rp_bad_arguments)
{
    libcc_params *p = params_for("none", NULL);
    libcc_rp *rp = NULL;
    libcc_flow_info zero_rate = flow100;
    zero_rate.line_rate_bps = 0;
    ck_assert_int_eq(libcc_rp_new(&rp, p, &zero_rate, NULL, NULL, 0), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_rp_new(&rp, NULL, &flow100, NULL, NULL, 0), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_rp_new(&rp, p, NULL, NULL, NULL, 0), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_rp_new(NULL, p, &flow100, NULL, NULL, 0), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_rp_new(&rp, p, &flow100, NULL, NULL, 0), LIBCC_OK);
    ck_assert_int_eq(libcc_rp_on_ack(rp, 1, NULL), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_rp_on_nack(rp, 1, NULL), LIBCC_ERR_INVALID_ARG);
    libcc_ack ack;
    libcc_int_list bogus;
    memset(&ack, 0, sizeof ack);
    memset(&bogus, 0, sizeof bogus);
    bogus.n_hops = LIBCC_INT_MAX_HOPS + 1; /* a hop list that cannot exist */
    ack.int_list = &bogus;
    ck_assert_int_eq(libcc_rp_on_ack(rp, 1, &ack), LIBCC_ERR_BAD_TELEMETRY);
    ck_assert_int_eq(libcc_rp_on_nack(rp, 1, &ack), LIBCC_ERR_BAD_TELEMETRY);
    ck_assert_int_eq(libcc_rp_on_cnp(NULL, 1), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_rp_on_tx(NULL, 1, 0, 1, NULL), LIBCC_ERR_INVALID_ARG);
    ck_assert_uint_eq(libcc_rp_rate_bps(NULL), 0);
    double v;
    ck_assert_int_eq(libcc_rp_read_vars(rp, &v, 1), LIBCC_OK); /* none has no vars */
    const libcc_param_desc *vars;
    size_t n = 99;
    ck_assert_int_eq(libcc_rp_vars(rp, &vars, &n), LIBCC_OK);
    ck_assert_uint_eq(n, 0);
    libcc_rp_del(rp);
    libcc_rp_del(NULL);
    libcc_params_del(p);
}
END_TEST

/* ---- Notification Point --------------------------------------------------------- */

static libcc_data_pkt data(uint64_t flow, uint64_t seq)
{
    libcc_data_pkt d;
    memset(&d, 0, sizeof d);
    d.flow_id = flow;
    d.seq = seq;
    d.bytes = 1000;
    return d;
}

static libcc_np *np_for(const char *settings, uint32_t max_flows)
{
    libcc_params *p = params_for("none", settings);
    libcc_np_info info = {.max_flows = max_flows, .line_rate_bps = G100, .base_rtt_ns = 12000};
    libcc_np *np = NULL;
    ck_assert_int_eq(libcc_np_new(&np, p, &info, NULL, NULL), LIBCC_OK);
    libcc_params_del(p); /* the NP keeps its own copy of what it needs */
    return np;
}

START_TEST(np_acks_every_m_packets)
{
    libcc_np *np = np_for("ack_interval=3", 4);
    libcc_np_verdict v;
    int acks[7];
    for (int i = 0; i < 7; i++) {
        libcc_data_pkt d = data(1, (uint64_t)i * 1000);
        ck_assert_int_eq(libcc_np_on_data(np, (uint64_t)i * 100, &d, &v), LIBCC_OK);
        acks[i] = v.send_ack;
    }
    /* m = 3: the 3rd and 6th packet (indices 2, 5) are acknowledged */
    const int want[7] = {0, 0, 1, 0, 0, 1, 0};
    for (int i = 0; i < 7; i++)
        ck_assert_int_eq(acks[i], want[i]);
    /* Modules start from an ACK with no hops to echo; `none` adds none. */
    ck_assert_ptr_null(v.ack.int_list);
    /* the last packet of a message is acknowledged at once, and restarts the count */
    libcc_data_pkt last = data(1, 7000);
    last.last_of_flow = 1;
    libcc_np_on_data(np, 800, &last, &v);
    ck_assert_int_eq(v.send_ack, 1);
    libcc_data_pkt next = data(1, 8000);
    libcc_np_on_data(np, 900, &next, &v);
    ck_assert_int_eq(v.send_ack, 0);
    libcc_np_del(np);
}
END_TEST

/* The NP echoes what the data carried, for every algorithm: its transmit
 * timestamp, the receiver NIC's arrival stamp (as both remote stamps until
 * the host writes the ACK's departure), the hop count and the PINT value;
 * absent fields stay absent. */
START_TEST(np_echoes_timestamps_hops_and_pint)
{
    libcc_np *np = np_for(NULL, 4);
    libcc_np_verdict v;
    libcc_data_pkt d = data(1, 0);
    d.has = LIBCC_PKT_HAS_TX_TS | LIBCC_PKT_HAS_RX_TS | LIBCC_PKT_HAS_PINT;
    d.tx_ts_ns = 1234;
    d.rx_ts_ns = 99999;
    d.n_hops = 3;
    d.pint = 0xbeef;
    d.ecn_ce = 1;
    ck_assert_int_eq(libcc_np_on_data(np, 100, &d, &v), LIBCC_OK);
    ck_assert_uint_eq(v.ack.has, LIBCC_ACK_HAS_TX_TS | LIBCC_ACK_HAS_REMOTE_TS | LIBCC_ACK_HAS_PINT);
    ck_assert_uint_eq(v.ack.tx_ts_ns, 1234);
    ck_assert_uint_eq(v.ack.remote_rx_ts_ns, 99999);
    ck_assert_uint_eq(v.ack.remote_tx_ts_ns, 99999);
    ck_assert_uint_eq(v.ack.rx_ts_ns, 0);
    ck_assert_uint_eq(v.ack.n_hops, 3);
    ck_assert_uint_eq(v.ack.pint, 0xbeef);
    ck_assert_uint_eq(v.ack.ecn_echo, 1);
    libcc_data_pkt plain = data(1, 1000);
    ck_assert_int_eq(libcc_np_on_data(np, 200, &plain, &v), LIBCC_OK);
    ck_assert_uint_eq(v.ack.has, 0);
    ck_assert_uint_eq(v.ack.tx_ts_ns | v.ack.remote_rx_ts_ns | v.ack.pint | v.ack.n_hops, 0);
    libcc_np_del(np);
}
END_TEST

START_TEST(np_ack_counts_are_per_flow)
{
    libcc_np *np = np_for("ack_interval=2", 4);
    libcc_np_verdict v;
    libcc_data_pkt a = data(1, 0), b = data(2, 0);
    libcc_np_on_data(np, 1, &a, &v);
    ck_assert_int_eq(v.send_ack, 0);
    libcc_np_on_data(np, 2, &b, &v);
    ck_assert_int_eq(v.send_ack, 0); /* flow 2's first packet, not flow 1's second */
    libcc_np_on_data(np, 3, &a, &v);
    ck_assert_int_eq(v.send_ack, 1);
    libcc_np_del(np);
}
END_TEST

START_TEST(np_counts_concurrent_flows_in_window)
{
    /* window 10us: a flow counts while now - last_data < 10us */
    libcc_np *np = np_for("activity_window=10us", 8);
    libcc_np_verdict v;
    libcc_data_pkt a = data(1, 0), b = data(2, 0);
    libcc_np_on_data(np, 0, &a, &v);
    ck_assert_uint_eq(libcc_np_active_flows(np, 0), 1);
    libcc_np_on_data(np, 5000, &b, &v);
    ck_assert_uint_eq(libcc_np_active_flows(np, 5000), 2);
    ck_assert_uint_eq(libcc_np_active_flows(np, 9999), 2);
    /* at 10us flow 1's last data (t=0) is a full window old */
    ck_assert_uint_eq(libcc_np_active_flows(np, 10000), 1);
    ck_assert_uint_eq(libcc_np_active_flows(np, 15000), 0);
    /* data refreshes a flow: flow 1 again at 12us counts until 22us */
    libcc_np_on_data(np, 12000, &a, &v);
    ck_assert_uint_eq(libcc_np_active_flows(np, 12000), 2 - 0); /* 1 (fresh) + 2 (age 7us) */
    ck_assert_uint_eq(libcc_np_active_flows(np, 15000), 1);
    ck_assert_uint_eq(libcc_np_active_flows(np, 21999), 1);
    ck_assert_uint_eq(libcc_np_active_flows(np, 22000), 0);
    libcc_np_del(np);
}
END_TEST

START_TEST(np_flow_end_forgets_at_once)
{
    libcc_np *np = np_for("activity_window=1ms", 8);
    libcc_np_verdict v;
    libcc_data_pkt a = data(1, 0), b = data(2, 0);
    libcc_np_on_data(np, 0, &a, &v);
    libcc_np_on_data(np, 0, &b, &v);
    ck_assert_uint_eq(libcc_np_active_flows(np, 1), 2);
    ck_assert_int_eq(libcc_np_flow_end(np, 1, 1), LIBCC_OK);
    ck_assert_uint_eq(libcc_np_active_flows(np, 1), 1);
    ck_assert_int_eq(libcc_np_flow_end(np, 1, 1), LIBCC_ERR_NOT_FOUND);
    ck_assert_int_eq(libcc_np_flow_end(np, 1, 99), LIBCC_ERR_NOT_FOUND);
    libcc_np_del(np);
}
END_TEST

START_TEST(np_full_table_evicts_only_idle_flows)
{
    libcc_np *np = np_for("activity_window=10us", 2);
    libcc_np_verdict v;
    libcc_data_pkt a = data(1, 0), b = data(2, 0), c = data(3, 0);
    libcc_np_on_data(np, 0, &a, &v);
    libcc_np_on_data(np, 1000, &b, &v);
    /* both flows active: no room for a third */
    ck_assert_int_eq(libcc_np_on_data(np, 2000, &c, &v), LIBCC_ERR_FULL);
    /* at 10us flow 1 is idle and gives its slot */
    ck_assert_int_eq(libcc_np_on_data(np, 10000, &c, &v), LIBCC_OK);
    ck_assert_uint_eq(libcc_np_active_flows(np, 10000), 2);
    libcc_np_del(np);
}
END_TEST

/* Many flows with deletions in between exercise the index's collision
 * runs and backward-shift deletion: every flow stays findable. */
START_TEST(np_index_survives_churn)
{
    libcc_np *np = np_for("activity_window=1s", 64);
    libcc_np_verdict v;
    for (uint64_t f = 0; f < 64; f++) {
        libcc_data_pkt d = data(f * 1000003u, 0);
        ck_assert_int_eq(libcc_np_on_data(np, f, &d, &v), LIBCC_OK);
    }
    ck_assert_uint_eq(libcc_np_active_flows(np, 64), 64);
    for (uint64_t f = 0; f < 64; f += 2)
        ck_assert_int_eq(libcc_np_flow_end(np, 64, f * 1000003u), LIBCC_OK);
    ck_assert_uint_eq(libcc_np_active_flows(np, 64), 32);
    for (uint64_t f = 1; f < 64; f += 2)
        ck_assert_int_eq(libcc_np_flow_end(np, 64, f * 1000003u), LIBCC_OK);
    ck_assert_uint_eq(libcc_np_active_flows(np, 64), 0);
    /* and the table is reusable to capacity */
    for (uint64_t f = 100; f < 164; f++) {
        libcc_data_pkt d = data(f, 0);
        ck_assert_int_eq(libcc_np_on_data(np, 65, &d, &v), LIBCC_OK);
    }
    ck_assert_uint_eq(libcc_np_active_flows(np, 65), 64);
    libcc_np_del(np);
}
END_TEST

START_TEST(np_bad_arguments)
{
    libcc_params *p = params_for("none", NULL);
    libcc_np_info info = {.max_flows = 0, .line_rate_bps = G100};
    libcc_np *np = NULL;
    ck_assert_int_eq(libcc_np_new(&np, p, &info, NULL, NULL), LIBCC_ERR_INVALID_ARG);
    info.max_flows = 4;
    ck_assert_int_eq(libcc_np_new(&np, NULL, &info, NULL, NULL), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_np_new(&np, p, &info, NULL, NULL), LIBCC_OK);
    libcc_np_verdict v;
    libcc_data_pkt d = data(1, 0);
    ck_assert_int_eq(libcc_np_on_data(np, 5, NULL, &v), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_np_on_data(np, 5, &d, NULL), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_np_on_data(np, 5, &d, &v), LIBCC_OK);
    ck_assert_int_eq(libcc_np_on_data(np, 4, &d, &v), LIBCC_ERR_TIME_BACKWARDS);
    libcc_int_list bogus;
    memset(&bogus, 0, sizeof bogus);
    bogus.n_hops = 200;
    d.int_list = &bogus;
    ck_assert_int_eq(libcc_np_on_data(np, 6, &d, &v), LIBCC_ERR_BAD_TELEMETRY);
    ck_assert_int_eq(libcc_np_on_data(NULL, 6, &d, &v), LIBCC_ERR_INVALID_ARG);
    libcc_np_del(np);
    libcc_np_del(NULL);
    libcc_params_del(p);
}
END_TEST

/* ---- Congestion Point ------------------------------------------------------------ */

START_TEST(cp_counts_transmitted_bytes_for_int)
{
    libcc_params *p = params_for("none", NULL);
    libcc_cp_info info = {.switch_id = 3, .port_id = 2, .link_rate_bps = G100};
    libcc_cp *cp;
    ck_assert_int_eq(libcc_cp_new(&cp, p, &info), LIBCC_OK);
    libcc_cp_pkt pkt;
    memset(&pkt, 0, sizeof pkt);
    pkt.bytes = 1048;
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(libcc_cp_on_dequeue(cp, 100 + (uint64_t)i, &pkt), LIBCC_OK);
    libcc_int_hop hop;
    ck_assert_int_eq(libcc_cp_int_record(cp, 500, 2096, &hop), LIBCC_OK);
    ck_assert_uint_eq(hop.tx_bytes, 3 * 1048);
    ck_assert_uint_eq(hop.bandwidth_bps, G100);
    ck_assert_uint_eq(hop.ts_ns, 500);
    ck_assert_uint_eq(hop.qlen_bytes, 2096);
    ck_assert_uint_eq(hop.switch_id, 3);
    ck_assert_uint_eq(hop.port_id, 2);
    /* none never marks */
    ck_assert_double_eq(libcc_cp_mark_probability(cp, 10000000), 0.0);
    pkt.queue_bytes = pkt.port_queue_bytes = 10000000;
    ck_assert_int_eq(libcc_cp_on_enqueue(cp, 600, &pkt), LIBCC_OK);
    ck_assert_int_eq(pkt.mark_ce, 0);
    libcc_cp_del(cp);
    libcc_params_del(p);
}
END_TEST

START_TEST(cp_bad_arguments)
{
    libcc_params *p = params_for("none", NULL);
    libcc_cp_info info = {.link_rate_bps = 0};
    libcc_cp *cp = NULL;
    ck_assert_int_eq(libcc_cp_new(&cp, p, &info), LIBCC_ERR_INVALID_ARG);
    info.link_rate_bps = G100;
    ck_assert_int_eq(libcc_cp_new(&cp, p, &info), LIBCC_OK);
    ck_assert_int_eq(libcc_cp_on_enqueue(cp, 0, NULL), LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(libcc_cp_on_dequeue(NULL, 0, NULL), LIBCC_ERR_INVALID_ARG);
    libcc_int_list bogus;
    memset(&bogus, 0, sizeof bogus);
    bogus.n_hops = LIBCC_INT_MAX_HOPS + 1;
    libcc_cp_pkt pkt = {.kind = LIBCC_PKT_DATA, .bytes = 1000, .int_list = &bogus};
    ck_assert_int_eq(libcc_cp_on_dequeue(cp, 0, &pkt), LIBCC_ERR_BAD_TELEMETRY);
    ck_assert_int_eq(libcc_cp_int_record(cp, 0, 0, NULL), LIBCC_ERR_INVALID_ARG);
    libcc_cp_del(cp);
    libcc_cp_del(NULL);
    libcc_params_del(p);
}
END_TEST

/* A port whose rate the algorithm's INT header cannot name would lose every
 * hop: 150 Gbps has a code in neither table (HPCC: 25/50/100/200/400 and
 * 10/40/800; FNCC: 10/25/40/50/100/200/400/800/1600 Gbps), so hpcc, hpcc++
 * (HPCC headers) and fncc (FNCC header on ACKs) refuse it at creation;
 * dcqcn and none carry no INT and take any rate. 40 and 10 Gbps are in
 * the HPCC extension codes 6 and 5. */
START_TEST(cp_refuses_port_rate_int_cannot_carry)
{
    static const char *const int_algos[3] = {"hpcc", "hpcc++", "fncc"};
    static const char *const plain[2] = {"dcqcn", "none"};
    libcc_int_table *t = NULL;
    ck_assert_int_eq(libcc_int_table_new(&t, 4), LIBCC_OK);
    libcc_cp_info info = {.port_id = 1, .link_rate_bps = 150 * G100 / 100, .int_table = t};
    for (int i = 0; i < 3; i++) {
        libcc_params *p = params_for(int_algos[i], NULL);
        libcc_cp *cp = (libcc_cp *)1;
        ck_assert_int_eq(libcc_cp_new(&cp, p, &info), LIBCC_ERR_OUT_OF_RANGE);
        ck_assert_ptr_null(cp);
        libcc_params_del(p);
    }
    for (int i = 0; i < 2; i++) {
        libcc_params *p = params_for(plain[i], NULL);
        libcc_cp *cp = NULL;
        ck_assert_int_eq(libcc_cp_new(&cp, p, &info), LIBCC_OK);
        libcc_cp_del(cp);
        libcc_params_del(p);
    }
    static const uint64_t ext[2] = {40 * G100 / 100, 10 * G100 / 100};
    for (int i = 0; i < 2; i++) {
        libcc_params *p = params_for("hpcc", NULL);
        libcc_cp *cp = NULL;
        info.link_rate_bps = ext[i];
        ck_assert_int_eq(libcc_cp_new(&cp, p, &info), LIBCC_OK);
        libcc_cp_del(cp);
        libcc_params_del(p);
    }
    libcc_int_table_del(t);
}
END_TEST

/* Re-entry (since 0.7.0): a call into an RP from inside one of its own
 * callbacks is refused with LIBCC_ERR_INVALID_ARG and changes nothing;
 * another RP may be called; once the callback returned the RP takes calls
 * again. DCQCN cutting on every CNP: the CNP at 10 ns cuts once (decreases
 * 1), the nested CNP from rate_changed does not make it 2. */
typedef struct reenter {
    libcc_rp *other;
    int rc_same, rc_other, calls;
} reenter;

static void reenter_rate(libcc_rp *rp, uint64_t now, uint64_t rate, void *ud)
{
    (void)rate;
    reenter *r = ud;
    if (r->calls++)
        return;
    r->rc_same = libcc_rp_on_cnp(rp, now);
    r->rc_other = libcc_rp_on_cnp(r->other, now);
}

START_TEST(rp_refuses_reentry_from_callbacks)
{
    libcc_params *p = params_for("dcqcn", "rate_reduce_monitor_period=0ns");
    reenter r = {NULL, 99, 99, 0};
    libcc_rp_callbacks cbs = {.rate_changed = reenter_rate};
    libcc_rp *rp = NULL;
    ck_assert_int_eq(libcc_rp_new(&r.other, p, &flow100, NULL, NULL, 0), LIBCC_OK);
    ck_assert_int_eq(libcc_rp_new(&rp, p, &flow100, &cbs, &r, 0), LIBCC_OK);
    libcc_params_del(p);
    ck_assert_int_eq(libcc_rp_on_cnp(rp, 10), LIBCC_OK);
    ck_assert_int_eq(r.calls, 1);
    ck_assert_int_eq(r.rc_same, LIBCC_ERR_INVALID_ARG);
    ck_assert_int_eq(r.rc_other, LIBCC_OK);
    const libcc_param_desc *vars;
    size_t n;
    double v[64];
    ck_assert_int_eq(libcc_rp_vars(rp, &vars, &n), LIBCC_OK);
    ck_assert_uint_le(n, 64);
    ck_assert_int_eq(libcc_rp_read_vars(rp, v, n), LIBCC_OK);
    size_t i = 0;
    while (i < n && strcmp(vars[i].name, "decreases") != 0)
        i++;
    ck_assert_uint_lt(i, n);
    ck_assert_double_eq(v[i], 1);
    /* outside the callback the RP takes calls again */
    ck_assert_int_eq(libcc_rp_on_cnp(rp, 20), LIBCC_OK);
    ck_assert_int_eq(libcc_rp_read_vars(rp, v, n), LIBCC_OK);
    ck_assert_double_eq(v[i], 2);
    libcc_rp_del(rp);
    libcc_rp_del(r.other);
}
END_TEST

Suite *core_suite(void)
{
    Suite *s = suite_create("core");
    TCase *rp = tcase_create("reaction_point");
    tcase_add_test(rp, rp_in_host_memory);
    tcase_add_test(rp, rp_size_follows_the_algorithm);
    tcase_add_test(rp, none_runs_at_line_rate_without_window);
    tcase_add_test(rp, rp_refuses_time_going_backwards);
    tcase_add_test(rp, rp_bad_arguments);
    tcase_add_test(rp, rp_refuses_impossible_timestamps);
    tcase_add_test(rp, rp_feedback_event);
    tcase_add_test(rp, rp_refuses_reentry_from_callbacks);
    suite_add_tcase(s, rp);
    TCase *np = tcase_create("notification_point");
    tcase_add_test(np, np_acks_every_m_packets);
    tcase_add_test(np, np_ack_counts_are_per_flow);
    tcase_add_test(np, np_echoes_timestamps_hops_and_pint);
    tcase_add_test(np, np_counts_concurrent_flows_in_window);
    tcase_add_test(np, np_flow_end_forgets_at_once);
    tcase_add_test(np, np_full_table_evicts_only_idle_flows);
    tcase_add_test(np, np_index_survives_churn);
    tcase_add_test(np, np_bad_arguments);
    suite_add_tcase(s, np);
    TCase *cp = tcase_create("congestion_point");
    tcase_add_test(cp, cp_counts_transmitted_bytes_for_int);
    tcase_add_test(cp, cp_bad_arguments);
    tcase_add_test(cp, cp_refuses_port_rate_int_cannot_carry);
    suite_add_tcase(s, cp);
    return s;
}
