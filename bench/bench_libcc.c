/* SPDX-License-Identifier: MIT */
/* Per-event cost of libcc's hot paths, per algorithm: what a host pays per
 * packet (CP enqueue/dequeue, NP on_data, RP on_tx/on_ack) and per
 * congestion signal. Prints a Markdown table. Timing lives here only;
 * tests never assert on speed. */
#define _POSIX_C_SOURCE 200809L
#include <libcc/libcc.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define G100 100000000000ull
#define HOPS 3

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what, int rc)
{
    fprintf(stderr, "bench_libcc: %s: %s\n", what, libcc_strerror(rc));
    exit(1);
}

static libcc_params *params(const char *algo)
{
    libcc_params *p;
    int rc = libcc_params_new(&p, algo);
    if (rc)
        die(algo, rc);
    return p;
}

/* A plausible 3-hop INT list that changes a little every ACK, so the RP's
 * arithmetic runs its general path rather than a degenerate one. */
static void fill_ack(libcc_ack *ack, libcc_int_list *ints, uint64_t i, uint64_t t_ns)
{
    memset(ack, 0, sizeof *ack);
    ack->seq = (i + 1) * 1000;
    ack->n_flows = 2;
    ack->int_list = ints;
    ints->n_hops = HOPS;
    ints->ts_bits = 64;
    ints->tx_bits = 64;
    for (int h = 0; h < HOPS; h++) {
        libcc_int_hop *hop = &ints->hop[h];
        hop->bandwidth_bps = G100;
        hop->ts_ns = t_ns;
        hop->tx_bytes = t_ns * 12 + (uint64_t)h * 7; /* ~96 Gbps */
        hop->qlen_bytes = (i % 50) * 1000;
        hop->switch_id = (uint32_t)h;
        hop->port_id = 1;
    }
}

typedef struct result {
    const char *algo;
    const char *event;
    double ns_per_event;
} result;

static result results[64];
static size_t n_results;

static void record(const char *algo, const char *event, double seconds, uint64_t n)
{
    results[n_results++] = (result){algo, event, seconds * 1e9 / (double)n};
}

static void bench_rp(const char *algo, uint64_t n)
{
    libcc_params *p = params(algo);
    libcc_flow_info flow = {.line_rate_bps = G100, .base_rtt_ns = 12000, .mtu_bytes = 1000};
    libcc_rp *rp;
    int rc = libcc_rp_new(&rp, p, &flow, NULL, NULL, 0);
    if (rc)
        die(algo, rc);
    libcc_ack ack;
    libcc_int_list ack_ints;
    uint64_t t = 0;
    double t0 = now_s();
    for (uint64_t i = 0; i < n; i++) {
        t += 80; /* one 1000 B packet at 100 Gbps */
        libcc_rp_on_tx(rp, t, i * 1000, 1000, NULL);
    }
    record(algo, "rp_on_tx", now_s() - t0, n);
    t0 = now_s();
    for (uint64_t i = 0; i < n; i++) {
        t += 80;
        fill_ack(&ack, &ack_ints, i, t);
        libcc_rp_on_ack(rp, t, &ack);
    }
    record(algo, "rp_on_ack (3 INT hops)", now_s() - t0, n);
    t0 = now_s();
    for (uint64_t i = 0; i < n; i++) {
        t += 5000;
        libcc_rp_on_cnp(rp, t);
        uint64_t d = libcc_rp_deadline_ns(rp);
        if (d != LIBCC_NO_DEADLINE && d <= t + 2500)
            libcc_rp_on_timer(rp, d > t ? d : t);
    }
    record(algo, "rp_on_cnp (+ due timer)", now_s() - t0, n);
    libcc_rp_del(rp);
    libcc_params_del(p);
}

static void bench_np(const char *algo, uint64_t n)
{
    libcc_params *p = params(algo);
    libcc_np_info info = {.max_flows = 1024, .line_rate_bps = G100, .base_rtt_ns = 12000};
    libcc_np *np;
    int rc = libcc_np_new(&np, p, &info, NULL, NULL);
    if (rc)
        die(algo, rc);
    libcc_int_list ints;
    libcc_ack tmp;
    fill_ack(&tmp, &ints, 0, 0);
    libcc_np_verdict v;
    uint64_t t = 0;
    double t0 = now_s();
    for (uint64_t i = 0; i < n; i++) {
        t += 80;
        libcc_data_pkt d = {.flow_id = i % 64, .seq = i * 1000, .bytes = 1000, .ecn_ce = (i % 16) == 0,
                            .int_list = &ints};
        libcc_np_on_data(np, t, &d, &v);
    }
    record(algo, "np_on_data (64 flows)", now_s() - t0, n);
    libcc_np_del(np);
    libcc_params_del(p);
}

static void bench_cp(const char *algo, uint64_t n)
{
    libcc_params *p = params(algo);
    libcc_int_table *table;
    libcc_int_table_new(&table, 8);
    libcc_cp_info info = {.port_id = 1, .link_rate_bps = G100, .seed = 1, .int_table = table};
    libcc_cp *cp;
    int rc = libcc_cp_new(&cp, p, &info);
    if (rc)
        die(algo, rc);
    libcc_int_list ints;
    uint64_t t = 0;
    double t0 = now_s();
    for (uint64_t i = 0; i < n; i++) {
        t += 80;
        libcc_int_list_init(&ints);
        uint64_t q = (i % 400) * 1000;
        libcc_cp_pkt pkt = {.kind = (i % 8 == 0) ? LIBCC_PKT_ACK : LIBCC_PKT_DATA, .bytes = 1048,
                            .ingress_port = 2, .queue_bytes = q, .port_queue_bytes = q,
                            .ecn_capable = 1, .int_list = &ints};
        libcc_cp_on_enqueue(cp, t, &pkt);
        libcc_cp_on_dequeue(cp, t, &pkt);
    }
    record(algo, "cp_on_enqueue + cp_on_dequeue", now_s() - t0, n);
    libcc_cp_del(cp);
    libcc_int_table_del(table);
    libcc_params_del(p);
}

int main(int argc, char **argv)
{
    uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 2000000;
    if (n == 0) {
        fprintf(stderr, "usage: bench_libcc [EVENTS_PER_CASE]\n");
        return 2;
    }
    for (const char *const *a = libcc_algorithms(); *a; a++) {
        bench_rp(*a, n);
        bench_np(*a, n);
        bench_cp(*a, n);
    }
    printf("| algorithm | event | ns per event |\n|---|---|---:|\n");
    for (size_t i = 0; i < n_results; i++)
        printf("| %s | %s | %.1f |\n", results[i].algo, results[i].event, results[i].ns_per_event);
    printf("\n| algorithm | libcc_rp_size: bytes per flow (core fields, module state, config) |\n"
           "|---|---:|\n");
    for (const char *const *a = libcc_algorithms(); *a; a++) {
        libcc_params *p = params(*a);
        printf("| %s | %zu |\n", *a, libcc_rp_size(p));
        libcc_params_del(p);
    }
    return 0;
}
