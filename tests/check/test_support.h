/* SPDX-License-Identifier: MIT */
/* Helpers shared by several Check suites: running the replay tool on a
 * shipped trace, reading a cell of its CSV, and checking that a doc's
 * parameter table matches the descriptor table row for row. */
#ifndef LIBCC_TEST_SUPPORT_H
#define LIBCC_TEST_SUPPORT_H

/* Run build/bin/libcc-replay (dir from $LIBCC_TOOLS) on a trace given
 * relative to the source tree ($LIBCC_SRCDIR); fails the test unless it
 * exits 0. Returns its stdout+stderr; free() it. */
char *ts_run_replay(const char *trace);

/* Column `col` (named in the CSV header) of the first row "t,event,...". */
double ts_csv_at(const char *csv, unsigned long long t, const char *event, const char *col);

/* A whole file of the source tree, NUL-terminated; free() it. */
char *ts_read_source_file(const char *relpath);

/* Every descriptor row of `algo` appears verbatim in the doc as
 * "| `name` | unit | default | min | max | doc |". */
void ts_doc_has_params(const char *doc, const char *doc_name, const char *algo);



#include <libcc/libcc.h>

/* Parameters of `algo` with `assign` (name=value list, may be NULL)
 * applied; fails the test if anything is refused. Free with libcc_params_del. */
libcc_params *ts_make_params(const char *algo, const char *assign);

/* An RP of `algo` with `assign` (name=value list, may be NULL) applied, on a
 * flow of line_bps and base_rtt_ns with a 1000 B MTU, created at t=0;
 * fails the test if anything is refused. */
libcc_rp *ts_make_rp(const char *algo, const char *assign, uint64_t line_bps, uint64_t base_rtt_ns,
                     const libcc_rp_callbacks *cbs, void *user_data);

/* The RP's internal variable `name` (libcc_rp_vars); fails the test if absent. */
double ts_rp_var(const libcc_rp *rp, const char *name);

/* An ACK of cumulative seq arriving at now that carries an RTT sample: the
 * data's transmit timestamp now - rtt (LIBCC_ACK_HAS_TX_TS), and n_hops. */
libcc_ack ts_rtt_ack(uint64_t now, uint64_t seq, uint64_t rtt, unsigned hops);
/* A CP of algo on a port of link_bps with parameters assign (NULL: the
 * defaults) and the host randomness rand (NULL: the CP's generator). */
libcc_cp *ts_make_cp(const char *algo, const char *assign, uint64_t link_bps, libcc_rand_fn rand);
/* A one-hop INT list at full width: link rate B, ts, txBytes, qlen. */
libcc_int_list ts_one_hop(uint64_t bandwidth_bps, uint64_t ts, uint64_t tx, uint64_t q);
/* libcc_rp_on_ack with ts_rtt_ack (no hops). */
int ts_on_rtt_ack(libcc_rp *rp, uint64_t now, uint64_t seq, uint64_t rtt);
#endif
