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

#endif
