/* SPDX-License-Identifier: MIT */
/* libcc-replay (docs/replay.md), run as a separate process on small traces
 * written to temporary files: the timeline it prints and its errors. */
#include "test_support.h"

#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libcc/libcc.h>

typedef struct tool_run {
    int status; /* exit status; -1 if killed by a signal */
    char *out;
    char *err;
    char trace[64];
} tool_run;

#define MAX_ROWS 4096

typedef struct row {
    unsigned long long t;
    char event[16];
    unsigned long long rate;
    char window[32];
} row;

static char *slurp_fd(int fd)
{
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    ssize_t n;
    ck_assert_ptr_nonnull(buf);
    lseek(fd, 0, SEEK_SET);
    while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
        len += (size_t)n;
        if (cap - len < 2) {
            cap *= 2;
            buf = realloc(buf, cap);
            ck_assert_ptr_nonnull(buf);
        }
    }
    buf[len] = '\0';
    return buf;
}

static int temp_fd(char *path, size_t len)
{
    int fd;
    snprintf(path, len, "/tmp/libcc-replay-test-XXXXXX");
    fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    return fd;
}

/* Run libcc-replay ARGS... TRACEFILE with `text` (length len) as the trace.
 * args is NULL-terminated. */
static void run_tool_bytes(tool_run *r, const char *text, size_t len, const char *const *args)
{
    const char *dir = getenv("LIBCC_TOOLS");
    char tool[1024], outp[64], errp[64];
    const char *argv[32];
    int tfd, ofd, efd, n = 0, wstatus;
    pid_t pid;

    snprintf(tool, sizeof tool, "%s/libcc-replay", dir && *dir ? dir : "build/bin");
    tfd = temp_fd(r->trace, sizeof r->trace);
    ck_assert_int_eq(write(tfd, text, len), (ssize_t)len);
    close(tfd);
    ofd = temp_fd(outp, sizeof outp);
    efd = temp_fd(errp, sizeof errp);

    argv[n++] = tool;
    for (; args && *args && n < 30; args++)
        argv[n++] = *args;
    argv[n++] = r->trace;
    argv[n] = NULL;

    fflush(NULL);
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(ofd, 1);
        dup2(efd, 2);
        execv(tool, (char *const *)argv);
        _exit(127);
    }
    ck_assert_int_eq(waitpid(pid, &wstatus, 0), pid);
    r->status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
    r->out = slurp_fd(ofd);
    r->err = slurp_fd(efd);
    close(ofd);
    close(efd);
    unlink(outp);
    unlink(errp);
    unlink(r->trace);
    ck_assert_msg(r->status != 127, "cannot run %s (set LIBCC_TOOLS)", tool);
}

static void run_tool(tool_run *r, const char *text, const char *const *args)
{
    run_tool_bytes(r, text, strlen(text), args);
}

static void free_run(tool_run *r)
{
    free(r->out);
    free(r->err);
}

/* Data rows of the CSV (the header is checked separately). */
static size_t parse_rows(const char *out, row *rows, size_t max)
{
    const char *p = strchr(out, '\n');
    size_t n = 0;
    while (p && p[1] && n < max) {
        row *w = &rows[n];
        p++;
        memset(w, 0, sizeof *w);
        ck_assert_int_eq(sscanf(p, "%llu,%15[^,],%llu,%31[^,\n]", &w->t, w->event, &w->rate, w->window),
                         4);
        n++;
        p = strchr(p, '\n');
    }
    return n;
}

/* A bad trace: exit status 2, and stderr says TRACE:LINE: and names the thing. */
static void expect_error(const char *text, const char *const *args, unsigned line, const char *names)
{
    tool_run r;
    char where[96];
    run_tool(&r, text, args);
    ck_assert_int_eq(r.status, 2);
    snprintf(where, sizeof where, "%s:%u: ", r.trace, line);
    ck_assert_msg(strstr(r.err, where) != NULL, "stderr lacks '%s': %s", where, r.err);
    ck_assert_msg(strstr(r.err, names) != NULL, "stderr does not name '%s': %s", names, r.err);
    free_run(&r);
}

/* An event line after a `none` header (lines 1-2) that must fail on line 3. */
static void expect_event_error(const char *event_line, const char *names)
{
    char t[256];
    snprintf(t, sizeof t, "@algo none\n@flow line_rate=1Gbps\n%s\n", event_line);
    expect_error(t, NULL, 3, names);
}

/* ---- none ---------------------------------------------------------------- */

/* `none` never changes anything: every row is at the line rate with no
 * window, whatever happens; exactly one row per event plus the start row
 * (none sets no deadline, so no timer rows). */
START_TEST(test_none_stays_at_line_rate)
{
    static const char trace[] = "# a comment line\n"
                                "@algo none\n"
                                "@flow line_rate=100Gbps base_rtt=12us mtu=1000B\n"
                                "\n"
                                "0us tx seq=0 bytes=1000\n"
                                "1us ack seq=1000 hop=100Gbps,1us,15000B,3000B   # trailing comment\n"
                                "2us cnp\n"
                                "3000ns nack seq=1000\n"
                                "4us timer\n"
                                "10us end\n";
    static const unsigned long long times[] = {0, 0, 1000, 2000, 3000, 4000, 10000};
    static const char *const events[] = {"start", "tx", "ack", "cnp", "nack", "timer", "end"};
    row rows[MAX_ROWS];
    tool_run r;
    size_t n;

    run_tool(&r, trace, NULL);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.err, "");
    ck_assert_msg(strncmp(r.out, "time_ns,event,rate_bps,window_bytes\n", 36) == 0, "%s", r.out);
    n = parse_rows(r.out, rows, MAX_ROWS);
    ck_assert_uint_eq(n, 7);
    for (size_t i = 0; i < n; i++) {
        ck_assert_uint_eq(rows[i].t, times[i]);
        ck_assert_str_eq(rows[i].event, events[i]);
        ck_assert_uint_eq(rows[i].rate, 100000000000ull);
        ck_assert_str_eq(rows[i].window, "inf");
    }
    free_run(&r);
}
END_TEST

/* Command-line options override directives: --line-rate 25Gbps beats
 * @flow line_rate=100Gbps, so none runs at 25e9 bit/s. */
START_TEST(test_command_line_overrides_directives)
{
    static const char *const args[] = {"--line-rate", "25Gbps", NULL};
    row rows[MAX_ROWS];
    tool_run r;
    run_tool(&r, "@algo none\n@flow line_rate=100Gbps\n1us cnp\n2us end\n", args);
    ck_assert_int_eq(r.status, 0);
    ck_assert_uint_eq(parse_rows(r.out, rows, MAX_ROWS), 3);
    ck_assert_uint_eq(rows[0].rate, 25000000000ull);
    ck_assert_uint_eq(rows[2].rate, 25000000000ull);
    free_run(&r);
}
END_TEST

/* --algo replaces @algo, and the trace's @param lines (for its own
 * algorithm) are then ignored with a warning rather than failing. */
START_TEST(test_algo_override_ignores_trace_params)
{
    static const char *const args[] = {"--algo", "none", NULL};
    row rows[MAX_ROWS];
    tool_run r;
    run_tool(&r, "@algo dcqcn\n@param rpg_ai_rate=40Mbps\n@flow line_rate=40Gbps\n1us cnp\n2us end\n",
             args);
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.err, "ignored"));
    ck_assert_uint_eq(parse_rows(r.out, rows, MAX_ROWS), 3);
    ck_assert_uint_eq(rows[1].rate, 40000000000ull); /* none keeps the line rate */
    free_run(&r);
}
END_TEST

/* --sample 2us from 0 to `end` at 5us: samples at 0, 2000, 4000 ns (three),
 * each before an event at the same time, then the end row. */
START_TEST(test_sample_rows)
{
    static const char *const args[] = {"--sample", "2us", NULL};
    row rows[MAX_ROWS];
    tool_run r;
    size_t n;
    run_tool(&r, "@algo none\n@flow line_rate=40Gbps\n4us cnp\n5us end\n", args);
    ck_assert_int_eq(r.status, 0);
    n = parse_rows(r.out, rows, MAX_ROWS);
    ck_assert_uint_eq(n, 6);
    ck_assert_str_eq(rows[0].event, "start");
    ck_assert_str_eq(rows[1].event, "sample");
    ck_assert_uint_eq(rows[1].t, 0);
    ck_assert_str_eq(rows[2].event, "sample");
    ck_assert_uint_eq(rows[2].t, 2000);
    ck_assert_str_eq(rows[3].event, "sample");
    ck_assert_uint_eq(rows[3].t, 4000);
    ck_assert_str_eq(rows[4].event, "cnp");
    ck_assert_str_eq(rows[5].event, "end");
    ck_assert_uint_eq(rows[5].t, 5000);
    free_run(&r);
}
END_TEST

/* --until 3us: the cnp at 5us is past it and never happens; the replay
 * ends with an `end` row at exactly 3000 ns. Without `end` and --until the
 * replay stops at the last event. */
START_TEST(test_until_and_no_end)
{
    static const char *const args[] = {"--until", "3us", NULL};
    static const char trace[] = "@algo none\n@flow line_rate=40Gbps\n1us cnp\n5us cnp\n";
    row rows[MAX_ROWS];
    tool_run r;
    size_t n;

    run_tool(&r, trace, args);
    ck_assert_int_eq(r.status, 0);
    n = parse_rows(r.out, rows, MAX_ROWS);
    ck_assert_uint_eq(n, 3);
    ck_assert_str_eq(rows[1].event, "cnp");
    ck_assert_uint_eq(rows[1].t, 1000);
    ck_assert_str_eq(rows[2].event, "end");
    ck_assert_uint_eq(rows[2].t, 3000);
    free_run(&r);

    run_tool(&r, trace, NULL);
    ck_assert_int_eq(r.status, 0);
    n = parse_rows(r.out, rows, MAX_ROWS);
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(rows[2].t, 5000);
    ck_assert_str_eq(rows[2].event, "cnp");
    free_run(&r);
}
END_TEST

/* ---- dcqcn ----------------------------------------------------------------
 * dcqcn-formulas.md with the defaults of its table (firmware column):
 * line rate 100e9 = Rc = Rt at start, initial alpha = 1,
 * rate_reduce_monitor_period = 4 us, rpg_gd = 11 (a cut by alpha/2),
 * rpg_min_dec_fac = 50 %, rpg_time_reset = 300 us, rate_to_set_on_first_cnp
 * = 0 (off), clamp_tgt_rate = 0, clamp_tgt_rate_after_time_inc = 1.
 * "Evaluated once per rate_reduce_monitor_period if a CNP arrived in that
 * period" is read as the firmware documents the parameter (and the dcqcn
 * module implements it): the minimum time between two decreases of a flow,
 * a period opened by each decrease; a CNP with no period open is acted on
 * at once, a CNP inside an open period at its end. That is cut_on_cnp = 1
 * (the trace sets it); the default cuts only at the end of the period the
 * CNP came in (tested in check_dcqcn_rp.c).
 * The alpha timer would decay alpha (g = 5/1024) every 1 us and the cuts
 * would no longer be exact halves, so dce_tcp_rtt = 1 ms keeps alpha = 1
 * for the whole 610 us; rpg_threshold = 5 makes the first stages fast
 * recovery whether a stage is counted before or after the T < F test.
 *   t = 0    CNP, no period open: first decrease, Rt = Rc = 100e9,
 *            Rc = 100e9 (1 - 1/2) = 50e9 (floor 100e9 * 50 % = 50e9 agrees);
 *            period [0, 4us) opens, the increase timer restarts: 300 us.
 *   t = 2us  CNP inside the period: nothing changes yet (50e9).
 *   t = 4us  period end, a CNP came in it: Rc = 50e9 / 2 = 25e9; not the
 *            first decrease and no timer increase since the last one, so
 *            Rt stays 100e9; the increase timer restarts: next at 304 us.
 *   t = 304us  T = 1 < 5, fast recovery: Rc = (100e9 + 25e9) / 2 = 62.5e9
 *   t = 604us  T = 2 < 5:                Rc = (100e9 + 62.5e9) / 2 = 81.25e9 */
static const char dcqcn_trace[] = "@algo dcqcn\n"
                                  "@param dce_tcp_rtt=1ms rpg_threshold=5 cut_on_cnp=1\n"
                                  "@flow line_rate=100Gbps\n"
                                  "0ns cnp\n"
                                  "2us cnp\n"
                                  "610us end\n";

static size_t first_change(const row *rows, size_t n, size_t from)
{
    for (size_t i = from + 1; i < n; i++)
        if (rows[i].rate != rows[from].rate)
            return i;
    return n;
}

/* The first CNP halves the rate at once; the second, inside the monitor
 * period, halves it again exactly at the period's end (4 us). */
START_TEST(test_dcqcn_cnp_halves_rate)
{
    static row rows[MAX_ROWS];
    tool_run r;
    size_t n, i;

    run_tool(&r, dcqcn_trace, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    n = parse_rows(r.out, rows, MAX_ROWS);
    ck_assert_uint_ge(n, 5);
    ck_assert_str_eq(rows[0].event, "start");
    ck_assert_uint_eq(rows[0].rate, 100000000000ull);
    ck_assert_str_eq(rows[1].event, "cnp");
    ck_assert_uint_eq(rows[1].t, 0);
    ck_assert_uint_eq(rows[1].rate, 50000000000ull);
    ck_assert_str_eq(rows[2].event, "cnp");
    ck_assert_uint_eq(rows[2].t, 2000);
    ck_assert_uint_eq(rows[2].rate, 50000000000ull);
    i = first_change(rows, n, 2);
    ck_assert_uint_lt(i, n);
    ck_assert_str_eq(rows[i].event, "timer");
    ck_assert_uint_eq(rows[i].t, 4000);
    ck_assert_uint_eq(rows[i].rate, 25000000000ull);
    free_run(&r);
}
END_TEST

/* Then quiet: fast recovery towards Rt = 100e9 every rpg_time_reset. */
START_TEST(test_dcqcn_fast_recovery_after_quiet)
{
    static row rows[MAX_ROWS];
    tool_run r;
    size_t n, i;

    run_tool(&r, dcqcn_trace, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    n = parse_rows(r.out, rows, MAX_ROWS);
    i = first_change(rows, n, 2); /* the deferred decrease at 4 us */
    ck_assert_uint_lt(i, n);
    i = first_change(rows, n, i);
    ck_assert_uint_lt(i, n);
    ck_assert_str_eq(rows[i].event, "timer");
    ck_assert_uint_eq(rows[i].t, 304000);
    ck_assert_uint_eq(rows[i].rate, 62500000000ull);
    i = first_change(rows, n, i);
    ck_assert_uint_lt(i, n);
    ck_assert_uint_eq(rows[i].t, 604000);
    ck_assert_uint_eq(rows[i].rate, 81250000000ull);
    ck_assert_uint_eq(first_change(rows, n, i), n);
    ck_assert_str_eq(rows[n - 1].event, "end");
    ck_assert_uint_eq(rows[n - 1].t, 610000);
    free_run(&r);
}
END_TEST

/* Timers are bounded: dcqcn keeps a timer running after a CNP; --until 1s
 * with --max-timers 3 must stop with an error naming the option, not run. */
START_TEST(test_timer_firings_bounded)
{
    static const char *const args[] = {"--until", "1s", "--max-timers", "3", NULL};
    tool_run r;
    run_tool(&r, "@algo dcqcn\n@flow line_rate=100Gbps\n0ns cnp\n", args);
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "--max-timers"));
    free_run(&r);
}
END_TEST

/* ---- shipped traces ----------------------------------------------------------- */

static char *read_source_file(const char *rel)
{
    const char *dir = getenv("LIBCC_SRCDIR");
    char path[1024];
    int fd;
    char *text;
    snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : ".", rel);
    fd = open(path, O_RDONLY);
    ck_assert_msg(fd >= 0, "cannot open %s (set LIBCC_SRCDIR)", path);
    text = slurp_fd(fd);
    close(fd);
    return text;
}

/* examples/traces/dcqcn.trace says in its header what to look for; these
 * are those numbers (clamp_tgt_rate = 1: every cut sets Rt = Rc first;
 * alpha = 1 throughout the episode since the alpha timer first ticks at
 * 55 us; monitor periods of 4 us on a grid from the first CNP, a cut at the
 * end of each period that holds a CNP):
 *   4 us  end of [0, 4us) holding the 0 us CNP: Rt = 100G, Rc = 50G
 *   8 us  end of [4, 8us) holding the 6 us CNP: Rt = 50G, Rc = 25G
 *   32 us end of [28, 32us) holding the 30 us CNP: Rt = 25G, Rc = 12.5G
 *   87 us first timer stage (32 + 55): fast recovery (25 + 12.5)/2 = 18.75G
 *   142 us                                         (25 + 18.75)/2 = 21.875G */
START_TEST(test_dcqcn_example_trace_matches_its_header)
{
    static row rows[MAX_ROWS];
    static const struct {
        unsigned long long t, rate;
    } want[] = {{4000, 50000000000ull}, {8000, 25000000000ull}, {32000, 12500000000ull},
                {87000, 18750000000ull}, {142000, 21875000000ull}};
    char *text = read_source_file("examples/traces/dcqcn.trace");
    tool_run r;
    size_t n, i = 1;

    run_tool(&r, text, NULL);
    free(text);
    ck_assert_msg(r.status == 0, "%s", r.err);
    n = parse_rows(r.out, rows, MAX_ROWS);
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        i = first_change(rows, n, i - 1);
        ck_assert_uint_lt(i, n);
        ck_assert_uint_eq(rows[i].t, want[k].t);
        ck_assert_uint_eq(rows[i].rate, want[k].rate);
        i++;
    }
    free_run(&r);
}
END_TEST

/* Every trace shipped in examples/traces replays without an error, so the
 * examples keep up with parameter names and the format. */
START_TEST(test_every_example_trace_replays)
{
    const char *src = getenv("LIBCC_SRCDIR");
    char dirpath[1024];
    DIR *d;
    struct dirent *e;
    int seen = 0;

    snprintf(dirpath, sizeof dirpath, "%s/examples/traces", src && *src ? src : ".");
    d = opendir(dirpath);
    ck_assert_msg(d != NULL, "cannot open %s (set LIBCC_SRCDIR)", dirpath);
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        char rel[512];
        char *text;
        tool_run r;
        if (len < 7 || strcmp(e->d_name + len - 6, ".trace") != 0)
            continue;
        snprintf(rel, sizeof rel, "examples/traces/%s", e->d_name);
        text = read_source_file(rel);
        run_tool(&r, text, NULL);
        free(text);
        ck_assert_msg(r.status == 0, "%s: %s", rel, r.err);
        ck_assert_ptr_nonnull(strstr(r.out, "\n0,start,"));
        free_run(&r);
        seen++;
    }
    closedir(d);
    ck_assert_int_ge(seen, 1);
}
END_TEST

/* ---- errors ---------------------------------------------------------------- */

START_TEST(test_error_unknown_event)
{
    expect_error("@algo none\n@flow line_rate=1Gbps\n1us frobnicate\n", NULL, 3, "frobnicate");
}
END_TEST

START_TEST(test_error_time_backwards)
{
    expect_error("@algo none\n@flow line_rate=1Gbps\n5us cnp\n3us cnp\n", NULL, 4, "earlier");
}
END_TEST

START_TEST(test_error_bad_unit)
{
    expect_error("@algo none\n@flow line_rate=1Gbps\n12xs cnp\n", NULL, 3, "12xs");
    expect_error("@algo none\n@flow line_rate=100Gbbs\n1us cnp\n", NULL, 2, "line_rate");
    expect_error("@algo none\n@flow line_rate=1Gbps\n1us ack seq=0 hop=100Gbps,1us,15000B,3xB\n",
                 NULL, 3, "qlen");
}
END_TEST

START_TEST(test_error_bad_number)
{
    expect_error("@algo none\n@flow line_rate=1Gbps\n1us tx seq=abc bytes=1000\n", NULL, 3, "seq");
    expect_error("@algo none\n@flow line_rate=1Gbps\n1us tx seq=0\n", NULL, 3, "bytes");
    expect_error("@algo none\n@flow line_rate=1Gbps\n1us ack n=2\n", NULL, 3, "seq");
}
END_TEST

/* libcc_params_error() text names the parameter (and, out of range, the
 * range: max_hops is at most LIBCC_INT_MAX_HOPS = 8). */
START_TEST(test_error_unknown_param)
{
    expect_error("@algo none\n@param no_such_param=1\n@flow line_rate=1Gbps\n1us cnp\n", NULL, 2,
                 "no_such_param");
    expect_error("@algo none\n@flow line_rate=1Gbps\n@param max_hops=100\n1us cnp\n", NULL, 3,
                 "max_hops");
}
END_TEST

/* kmin <= kmax is a relation no single @param can break alone: reported
 * before the replay starts, naming both parameters. */
START_TEST(test_error_parameter_relation)
{
    tool_run r;
    run_tool(&r, "@algo dcqcn\n@param kmin=500KB kmax=400KB\n@flow line_rate=100Gbps\n0us cnp\n",
             NULL);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "kmin") && strstr(r.err, "kmax"), "%s", r.err);
    ck_assert_str_eq(r.out, "");
    free_run(&r);
}
END_TEST

/* max_hops=2: the third hop= of one ACK is refused. */
START_TEST(test_error_too_many_hops)
{
    expect_error("@algo none\n@param max_hops=2\n@flow line_rate=1Gbps\n"
                 "1us ack seq=0 hop=1Gbps,1us,1B,0B hop=1Gbps,1us,1B,0B hop=1Gbps,1us,1B,0B\n",
                 NULL, 4, "hop #3");
    expect_error("@algo none\n@flow line_rate=1Gbps\n1us ack seq=0 hop=1Gbps,1us\n", NULL, 3,
                 "hop #1");
}
END_TEST

START_TEST(test_error_directives)
{
    expect_error("@algo no_such_algo\n@flow line_rate=1Gbps\n1us cnp\n", NULL, 1, "no_such_algo");
    expect_error("@algo none\n@flow line_rate=1Gbps\n1us cnp\n@algo none\n", NULL, 4, "@algo");
    expect_error("@algo none\n@flow line_rate=1Gbps colour=red\n", NULL, 2, "colour");
    expect_error("@algo none\n@frob\n", NULL, 2, "@frob");
    expect_error("@algo none\n@flow line_rate=1Gbps\n1us cnp extra=1\n", NULL, 3, "extra");
}
END_TEST

/* Random bytes: an error (2), never a crash (status -1) or a hang. */
START_TEST(test_garbage_is_an_error_not_a_crash)
{
    unsigned char junk[4096];
    uint64_t x = 0x9E3779B97F4A7C15ull;
    tool_run r;
    for (size_t i = 0; i < sizeof junk; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        junk[i] = (unsigned char)x;
    }
    run_tool_bytes(&r, (const char *)junk, sizeof junk, NULL);
    ck_assert_int_eq(r.status, 2);
    free_run(&r);
}
END_TEST

/* A NUL byte ends a C string: the `2us cnp` after it on line 3 would be
 * dropped without a word. It is an error naming the line. */
START_TEST(test_error_nul_byte)
{
    static const char text[] = "@algo none\n@flow line_rate=1Gbps\n1us cnp\0 2us cnp\n3us end\n";
    tool_run r;
    char where[96];
    run_tool_bytes(&r, text, sizeof text - 1, NULL);
    ck_assert_int_eq(r.status, 2);
    snprintf(where, sizeof where, "%s:3: ", r.trace);
    ck_assert_msg(strstr(r.err, where) != NULL, "%s", r.err);
    ck_assert_msg(strstr(r.err, "NUL") != NULL, "%s", r.err);
    free_run(&r);
}
END_TEST

/* Bytes, ns and bit/s are whole in the API: 1.5 B is refused, not rounded
 * to 2; 1.5KB = 1500 B is whole and fine. */
START_TEST(test_error_fractional_base_units)
{
    expect_event_error("1us tx seq=0 bytes=1.5B", "bytes '1.5B': not a whole number of bytes");
    expect_event_error("0.5ns cnp", "whole number of ns");
    expect_event_error("1us ack seq=0 hop=1Gbps,1us,2.25B,0B", "txBytes");
    expect_error("@algo none\n@flow line_rate=1.5bps\n1us cnp\n", NULL, 2, "line_rate");
    expect_error("@algo none\n@flow line_rate=1Gbps mtu=1000.5B\n1us cnp\n", NULL, 2, "mtu");

    tool_run r;
    row rows[4];
    run_tool(&r, "@algo none\n@flow line_rate=1Gbps\n1us tx seq=0 bytes=1.5KB\n1.5us end\n", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_uint_eq(parse_rows(r.out, rows, 4), 3);
    ck_assert_uint_eq(rows[2].t, 1500);
    free_run(&r);
}
END_TEST

/* A field or @flow key given twice would silently take the last value. */
START_TEST(test_error_repeated_field)
{
    expect_event_error("1us tx seq=0 seq=5 bytes=1000", "tx: field seq= given twice");
    expect_event_error("1us tx seq=0 bytes=1000 bytes=2000", "bytes= given twice");
    expect_event_error("1us ack seq=0 n=2 n=3", "ack: field n= given twice");
    expect_event_error("1us nack seq=0 seq=1", "nack: field seq= given twice");
    expect_error("@algo none\n@flow line_rate=1Gbps line_rate=10Gbps\n1us cnp\n", NULL, 2,
                 "line_rate: given twice (first on line 2)");
    expect_error("@algo none\n@flow line_rate=1Gbps mtu=1000\n@flow mtu=9000\n1us cnp\n", NULL, 3,
                 "mtu: given twice (first on line 2)");
    /* hop= is a list: repeating it is how hops are given */
    tool_run r;
    run_tool(&r, "@algo none\n@flow line_rate=1Gbps\n1us ack seq=0 hop=1Gbps,1us,1B,0B hop=1Gbps,1us,1B,0B\n",
             NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    free_run(&r);
}
END_TEST

/* The clock's last nanosecond is a valid time: through a double it would
 * become 2^64 and be refused. One more is out of range. */
START_TEST(test_max_time_is_exact)
{
    tool_run r;
    row rows[4];
    run_tool(&r, "@algo none\n@flow line_rate=1Gbps\n18446744073709551615ns end\n", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_uint_eq(parse_rows(r.out, rows, 4), 2);
    ck_assert_uint_eq(rows[1].t, 18446744073709551615ull);
    ck_assert_str_eq(rows[1].event, "end");
    free_run(&r);
    /* 2^64 - 1 bytes of txBytes, exactly; 2^53 + 1 ns, which a double rounds */
    run_tool(&r, "@algo none\n@flow line_rate=1Gbps\n"
                 "9007199254740993ns ack seq=0 hop=1Gbps,1us,18446744073709551615B,0B\n"
                 "9007199254740993ns end\n", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_uint_eq(parse_rows(r.out, rows, 4), 3);
    ck_assert_uint_eq(rows[1].t, 9007199254740993ull);
    free_run(&r);
    expect_error("@algo none\n@flow line_rate=1Gbps\n18446744073709551616ns end\n", NULL, 3,
                 "out of range");
    expect_error("@algo none\n@flow line_rate=1Gbps\n18446744073709.551616s end\n", NULL, 3,
                 "out of range");
}
END_TEST

/* The flow's attributes are parsed and checked through libcc_flow_params
 * (base_rtt 0..1 s, line_rate 1 Mbit/s..10 Tbit/s, mtu 64..9216 B or 0):
 * one line naming the attribute and its range, exit 2 (issue #21: a base
 * RTT of 1e10 s ran with an infinite window). */
START_TEST(test_error_flow_ranges)
{
    expect_error("@algo none\n@flow line_rate=1Gbps base_rtt=1e10s\n1us cnp\n", NULL, 2,
                 "@flow base_rtt '1e10s': out of range [0ns, 1s]");
    expect_error("@algo none\n@flow line_rate=20Tbps\n1us cnp\n", NULL, 2,
                 "@flow line_rate '20Tbps': out of range");
    expect_error("@algo none\n@flow line_rate=1Gbps mtu=63\n1us cnp\n", NULL, 2,
                 "@flow mtu '63': out of range");
    expect_error("@algo none\n@flow line_rate=1Gbps mtu=9217B\n1us cnp\n", NULL, 2,
                 "@flow mtu '9217B': out of range");
    static const char *const cli[] = {"--base-rtt=2s", NULL};
    tool_run r;
    run_tool(&r, "@algo none\n@flow line_rate=1Gbps\n1us cnp\n", cli);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err, "libcc-replay: --base-rtt '2s': out of range [0ns, 1s]\n");
    free_run(&r);
    /* the edges themselves, and mtu 0 (the default) */
    run_tool(&r, "@algo none\n@flow line_rate=10Tbps base_rtt=1s mtu=0\n1us cnp\n", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    free_run(&r);
    run_tool(&r, "@algo none\n@flow line_rate=1Mbps base_rtt=0ns mtu=64B\n1us cnp\n", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    free_run(&r);
}
END_TEST

/* @start: the RP is made at that time (the CSV's first row), an event
 * before it is an error. */
START_TEST(test_start_directive)
{
    tool_run r;
    row rows[4];
    run_tool(&r, "@algo none\n@flow line_rate=1Gbps\n@start 5us\n6us cnp\n7us end\n", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_uint_eq(parse_rows(r.out, rows, 4), 3);
    ck_assert_uint_eq(rows[0].t, 5000);
    ck_assert_str_eq(rows[0].event, "start");
    ck_assert_uint_eq(rows[1].t, 6000);
    free_run(&r);
    expect_error("@algo none\n@flow line_rate=1Gbps\n@start 5us\n4us cnp\n", NULL, 4, "before @start");
    expect_error("@algo none\n@start 1us 2us\n", NULL, 2, "@start");
    expect_error("@algo none\n@start 1us\n@start 2us\n", NULL, 3, "given twice");
}
END_TEST

/* @timers manual: the trace's timer lines are the only timer calls (how
 * libcc-conformance writes a run). DCQCN arms its alpha timer (55 us) at a
 * CNP, so with automatic timers rows appear between the CNP at 1 us and the
 * end at 200 us; manual, only the lines given. */
START_TEST(test_manual_timers)
{
    tool_run r;
    row rows[64];
    run_tool(&r, "@algo dcqcn\n@flow line_rate=100Gbps\n1us cnp\n200us end\n", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_uint_gt(parse_rows(r.out, rows, 64), 3);
    ck_assert_str_eq(rows[2].event, "timer");
    free_run(&r);
    run_tool(&r, "@algo dcqcn\n@flow line_rate=100Gbps\n@timers manual\n1us cnp\n100us timer\n200us end\n",
             NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_uint_eq(parse_rows(r.out, rows, 64), 4);
    ck_assert_str_eq(rows[1].event, "cnp");
    ck_assert_str_eq(rows[2].event, "timer");
    ck_assert_uint_eq(rows[2].t, 100000);
    ck_assert_str_eq(rows[3].event, "end");
    free_run(&r);
    expect_error("@algo none\n@timers sometimes\n", NULL, 2, "@timers: expected auto");
    expect_error("@algo none\n@timers manual\n@timers auto\n", NULL, 3, "given twice");
}
END_TEST

/* @int: the wrap widths of every ACK's hop list, 1..64 bits. With 24-bit
 * ts and 27-bit txBytes, a hop going from ts 16777000 ns, txBytes
 * 134217000 to ts 500, txBytes 500 advanced 500 + 2^24 - 16777000 = 716 ns
 * and 500 + 2^27 - 134217000 = 1228 B: HPCC's U after it is the U of the
 * same hop written unwrapped at full width (16777716 ns, 134218228 B). */
START_TEST(test_int_directive)
{
    tool_run r;
    run_tool(&r, "@algo hpcc\n@flow line_rate=100Gbps base_rtt=12us\n@int ts_bits=24 tx_bits=27\n"
                 "1us ack seq=0 hop=100Gbps,16777000ns,134217000,0\n"
                 "2us ack seq=0 hop=100Gbps,500ns,500,0\n",
             NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    const double wrapped = ts_csv_at(r.out, 2000, "ack", "U");
    free_run(&r);
    run_tool(&r, "@algo hpcc\n@flow line_rate=100Gbps base_rtt=12us\n"
                 "1us ack seq=0 hop=100Gbps,16777000ns,134217000,0\n"
                 "2us ack seq=0 hop=100Gbps,16777716ns,134218228,0\n",
             NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    const double unwrapped = ts_csv_at(r.out, 2000, "ack", "U");
    free_run(&r);
    ck_assert_double_eq(wrapped, unwrapped);
    /* u = 1228 B * 8 / 716 ns / 100 Gbit/s; U = 1 * (T - 716)/T + u * 716/T
     * = (11284 + 98.24) / 12000 = 0.94852 (64-bit counters would read the
     * wrapped hop as time going backwards and leave U at 1) */
    ck_assert_double_eq_tol(wrapped, 0.94852, 1e-12);
    expect_error("@algo none\n@int ts_bits=0\n", NULL, 2, "ts_bits '0'");
    expect_error("@algo none\n@int tx_bits=65\n", NULL, 2, "tx_bits '65'");
    expect_error("@algo none\n@int colour=1\n", NULL, 2, "unknown key 'colour'");
}
END_TEST

/* --plugin: a file that does not load is one line naming it, exit 2
 * (before the trace is read: the trace here would be fine). */
START_TEST(test_error_plugin)
{
    static const char *const args[] = {"--plugin=/nonexistent/libcc-plugin.so", NULL};
    tool_run r;
    run_tool(&r, "@algo none\n@flow line_rate=1Gbps\n1us cnp\n", args);
    ck_assert_int_eq(r.status, 2);
    static const char want[] = "libcc-replay: --plugin '/nonexistent/libcc-plugin.so': ";
    ck_assert_msg(strncmp(r.err, want, strlen(want)) == 0, "%s", r.err);
    ck_assert_ptr_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1);
    ck_assert_str_eq(r.out, "");
    free_run(&r);
}
END_TEST

/* --plugin loads before the trace is read: @algo names the plugin's
 * algorithm ("plugin-timer" of tests/check/plugins/timer_plugin.c, whose RP
 * halves its rate on a CNP: 100 -> 50 Gbit/s), and --list shows it last. */
START_TEST(test_plugin_algorithm)
{
    const char *dir = getenv("LIBCC_TEST_PLUGINS");
    char opt[1024];
    snprintf(opt, sizeof opt, "--plugin=%s/timer_plugin.so", dir ? dir : "build/tests/plugins");
    const char *const args[] = {opt, NULL};
    tool_run r;
    row rows[4];
    run_tool(&r, "@algo plugin-timer\n@flow line_rate=100Gbps\n1us cnp\n", args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_uint_eq(parse_rows(r.out, rows, 4), 2);
    ck_assert_uint_eq(rows[0].rate, 100000000000ull);
    ck_assert_uint_eq(rows[1].rate, 50000000000ull);
    free_run(&r);
}
END_TEST

START_TEST(test_usage_errors)
{
    static const char *const bad_opt[] = {"--frobnicate", "1", NULL};
    static const char *const bad_rate[] = {"--line-rate", "fast", NULL};
    tool_run r;
    run_tool(&r, "@algo none\n", bad_opt);
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "--frobnicate"));
    free_run(&r);
    run_tool(&r, "@algo none\n", bad_rate);
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "--line-rate"));
    free_run(&r);
}
END_TEST

/* --list prints the five registered names, one a line (libcc.h). */
START_TEST(test_list)
{
    static const char *const args[] = {"--list", NULL};
    tool_run r;
    run_tool(&r, "", args);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.out, "none\ndcqcn\nhpcc\nhpcc++\nfncc\ndctcp\ntimely\nswift\npowertcp\ntheta-powertcp\nhpcc-pint\nrocc\n");
    free_run(&r);
}
END_TEST

/* The part of a JSON listing from the object of algorithm `name` to the
 * next algorithm's (or the end): the tests look for fields inside it. */
static char *algo_object(const char *json, const char *name)
{
    char key[64];
    const char *start, *end;
    char *part;
    snprintf(key, sizeof key, "{\"name\": \"%s\", \"roles\"", name);
    start = strstr(json, key);
    ck_assert_msg(start != NULL, "no object for %s", name);
    end = strstr(start + strlen(key), "\n {\"name\": ");
    if (!end)
        end = start + strlen(start);
    part = strndup(start, (size_t)(end - start));
    ck_assert_ptr_nonnull(part);
    return part;
}

/* --list --json: one object per registered algorithm with its roles,
 * parameters in base units and presets. Expected values from dcqcn's
 * table as docs/algorithms/dcqcn.md gives it: g = 5/1024 = 0.0048828125
 * (the firmware keeps 1019/1024 of alpha), in [0, 1]; kmin 100 KB =
 * 100000 bytes; the roles of DCQCN are all three (the CP marks, the NP
 * sends CNPs, the RP cuts), those of `none` only the RP's. */
START_TEST(test_list_json)
{
    static const char *const args[] = {"--list", "--json", NULL};
    tool_run r;
    char *dcqcn, *none;
    size_t algos = 0;

    run_tool(&r, "", args);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.err, "");
    for (const char *p = r.out; (p = strstr(p, "\n {\"name\": ")) != NULL; p++)
        algos++;
    ck_assert_uint_eq(algos, 12);
    dcqcn = algo_object(r.out, "dcqcn");
    ck_assert_ptr_nonnull(strstr(dcqcn, "\"roles\": [\"rp\", \"np\", \"cp\"]"));
    ck_assert_ptr_nonnull(strstr(dcqcn, "{\"name\": \"g\", \"unit\": \"ratio\", "
                                        "\"default\": 0.0048828125, \"default_text\": "
                                        "\"0.0048828125\", \"min\": 0, \"min_text\": \"0\", "
                                        "\"max\": 1, \"max_text\": \"1\", \"doc\": "));
    ck_assert_ptr_nonnull(strstr(dcqcn, "{\"name\": \"kmin\", \"unit\": \"B\", "
                                        "\"default\": 100000, \"default_text\": \"100KB\""));
    ck_assert_ptr_nonnull(strstr(dcqcn, "\"presets\": [{\"name\": \"paper\", \"assignments\": "
                                        "\"kmin=5KB kmax=200KB "));
    none = algo_object(r.out, "none");
    ck_assert_ptr_nonnull(strstr(none, "\"roles\": [\"rp\"],\n  \"params\": [],\n  \"presets\": []"));
    /* the common parameters, once, after the algorithms: ack_interval
     * counts packets, 1 (an ACK per packet) in [1, 65535] */
    ck_assert_ptr_nonnull(strstr(r.out, "\"common_params\": [\n    {\"name\": \"ack_interval\", "
                                        "\"unit\": \"count\", \"default\": 1, \"default_text\": "
                                        "\"1\", \"min\": 1, \"min_text\": \"1\", \"max\": 65535,"));
    free(dcqcn);
    free(none);
    free_run(&r);
}
END_TEST

/* --json alone is refused (exit 2) in a message naming it and --list. */
START_TEST(test_json_needs_list)
{
    static const char *const args[] = {"--json", NULL};
    tool_run r;
    run_tool(&r, "", args);
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "--json"));
    ck_assert_ptr_nonnull(strstr(r.err, "--list"));
    ck_assert_str_eq(r.out, "");
    free_run(&r);
}
END_TEST

/* --algo dcqcn --help lists every parameter of the table with its default
 * formatted by libcc_format_value on the same line, then the three common
 * parameters (ack_interval, max_hops, activity_window). */
START_TEST(test_help_lists_parameters)
{
    static const char *const args[] = {"--algo", "dcqcn", "--help", NULL};
    const libcc_param_desc *t;
    size_t n;
    tool_run r;

    ck_assert_int_eq(libcc_algorithm_params("dcqcn", &t, &n), LIBCC_OK);
    ck_assert_uint_gt(n, 3);
    run_tool(&r, "", args);
    ck_assert_int_eq(r.status, 0);
    for (size_t i = 0; i < n; i++) {
        char def[64], key[160];
        const char *line, *eol;
        ck_assert_int_eq(libcc_format_value(t[i].unit, t[i].def, def, sizeof def), LIBCC_OK);
        snprintf(key, sizeof key, "  %s ", t[i].name);
        line = strstr(r.out, key);
        ck_assert_msg(line != NULL, "--help lacks %s", t[i].name);
        eol = strchr(line, '\n');
        snprintf(key, sizeof key, "default %s,", def);
        ck_assert_msg(strstr(line, key) && strstr(line, key) < eol, "%s: no '%s'", t[i].name, key);
    }
    /* and the common ones every algorithm accepts */
    libcc_common_params(&t, &n);
    ck_assert_uint_eq(n, 3);
    for (size_t i = 0; i < n; i++) {
        char key[160];
        snprintf(key, sizeof key, "  %s ", t[i].name);
        ck_assert_msg(strstr(r.out, key) != NULL, "--help lacks %s", t[i].name);
    }
    free_run(&r);
}
END_TEST

/* The 0.5.0 fields: rtt= and txts= are one field, rrx= needs rtx=, a
 * sample from before time 0 or from the future is refused (the latter by
 * the library: BAD_TELEMETRY), feedback needs its rate. */
START_TEST(test_error_timestamp_fields)
{
    expect_event_error("5us ack seq=0 rtt=6us", "rtt=");
    expect_event_error("5us ack seq=0 rtt=1us txts=1us", "txts=");
    expect_event_error("5us ack seq=0 rrx=1us", "rtx=");
    expect_event_error("5us ack seq=0 txts=6us", "telemetry");
    expect_event_error("5us ack seq=0 rrx=2us rtx=1us", "telemetry");
    expect_event_error("5us ack seq=0 hops=256", "hops");
    expect_event_error("5us ack seq=0 pint=65536", "pint");
    expect_event_error("5us ack seq=0 frob=1", "rtt, txts");
    expect_event_error("5us feedback", "rate=");
    expect_event_error("5us feedback rate=1Gbps rate=2Gbps", "rate");
    expect_event_error("5us feedback rate=1Gbps x=1", "expected rate, switch, port");
}
END_TEST

/* The same fields accepted: `none` ignores them, one row each. */
START_TEST(test_timestamp_fields_and_feedback_accepted)
{
    tool_run r;
    run_tool(&r,
             "@algo none\n@flow line_rate=1Gbps\n"
             "5us ack seq=0 rtt=5us rrx=1us rtx=2us hops=3 pint=7\n"
             "6us ack seq=0 txts=1us rxts=5500ns\n"
             "7us feedback rate=500Mbps switch=1 port=2\n",
             NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "\n7000,feedback,1000000000,inf"));
    free_run(&r);
}
END_TEST

Suite *replay_suite(void)
{
    Suite *s = suite_create("replay");
    TCase *ok = tcase_create("timeline");
    TCase *dc = tcase_create("dcqcn");
    TCase *bad = tcase_create("errors");

    tcase_add_test(ok, test_none_stays_at_line_rate);
    tcase_add_test(ok, test_command_line_overrides_directives);
    tcase_add_test(ok, test_algo_override_ignores_trace_params);
    tcase_add_test(ok, test_sample_rows);
    tcase_add_test(ok, test_until_and_no_end);
    tcase_add_test(ok, test_list);
    tcase_add_test(ok, test_list_json);
    tcase_add_test(bad, test_json_needs_list);
    tcase_add_test(ok, test_help_lists_parameters);
    tcase_add_test(dc, test_dcqcn_cnp_halves_rate);
    tcase_add_test(dc, test_dcqcn_fast_recovery_after_quiet);
    tcase_add_test(dc, test_timer_firings_bounded);
    tcase_add_test(dc, test_dcqcn_example_trace_matches_its_header);
    tcase_add_test(ok, test_every_example_trace_replays);
    tcase_add_test(bad, test_error_unknown_event);
    tcase_add_test(bad, test_error_time_backwards);
    tcase_add_test(bad, test_error_bad_unit);
    tcase_add_test(bad, test_error_bad_number);
    tcase_add_test(bad, test_error_unknown_param);
    tcase_add_test(bad, test_error_parameter_relation);
    tcase_add_test(bad, test_error_too_many_hops);
    tcase_add_test(bad, test_error_directives);
    tcase_add_test(bad, test_garbage_is_an_error_not_a_crash);
    tcase_add_test(bad, test_usage_errors);
    tcase_add_test(bad, test_error_nul_byte);
    tcase_add_test(bad, test_error_fractional_base_units);
    tcase_add_test(bad, test_error_repeated_field);
    tcase_add_test(bad, test_error_flow_ranges);
    tcase_add_test(ok, test_start_directive);
    tcase_add_test(ok, test_manual_timers);
    tcase_add_test(ok, test_int_directive);
    tcase_add_test(bad, test_error_plugin);
    tcase_add_test(ok, test_plugin_algorithm);
    tcase_add_test(ok, test_max_time_is_exact);
    tcase_add_test(bad, test_error_timestamp_fields);
    tcase_add_test(ok, test_timestamp_fields_and_feedback_accepted);
    suite_add_tcase(s, ok);
    suite_add_tcase(s, dc);
    suite_add_tcase(s, bad);
    return s;
}
