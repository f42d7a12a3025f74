/* SPDX-License-Identifier: MIT */
/* The conformance checks themselves (libcc/tools/conformance/): each check
 * function judged on values worked out by hand, at and around its bounds;
 * the generator's runs found again from their numbers; a run written as a
 * libcc-replay script replays to the same rates and windows; and the tool's
 * command line (exit statuses, the tally line make test counts). */
#include "conformance.h"
#include "test_support.h"

#include <check.h>
#include <float.h>
#include <libcc/algorithm.h>
#include <libcc/libcc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void failed_with(bool ok, const conf_failure *f, const char *check, const char *text)
{
    ck_assert(!ok);
    ck_assert_str_eq(f->check, check);
    ck_assert_msg(strstr(f->detail, text) != NULL, "'%s' lacks '%s'", f->detail, text);
}

START_TEST(test_rate)
{
    conf_failure f;
    ck_assert(conf_check_rate(1, 1, 100, &f));
    ck_assert(conf_check_rate(100, 1, 100, &f));
    failed_with(conf_check_rate(0, 1, 100, &f), &f, CONF_CHECK_RATE, "rate 0 bit/s outside [1, 100]");
    failed_with(conf_check_rate(101, 1, 100, &f), &f, CONF_CHECK_RATE, "rate 101 bit/s");
}
END_TEST

START_TEST(test_window)
{
    conf_failure f;
    /* any algorithm: 1 B or more, or none */
    ck_assert(conf_check_window(1, CONF_WIN_ANY, 1000, 0, &f));
    ck_assert(conf_check_window(LIBCC_WINDOW_UNLIMITED, CONF_WIN_ANY, 1000, 0, &f));
    failed_with(conf_check_window(0, CONF_WIN_ANY, 1000, 0, &f), &f, CONF_CHECK_WINDOW, "window 0 B");
    /* rate-only: never a window */
    ck_assert(conf_check_window(LIBCC_WINDOW_UNLIMITED, CONF_WIN_UNLIMITED, 1000, 0, &f));
    failed_with(conf_check_window(150000, CONF_WIN_UNLIMITED, 1000, 0, &f), &f, CONF_CHECK_WINDOW,
                "window 150000 B on a rate-only algorithm");
    /* HPCC at 100 Gbit/s, T = 12 us: W_init = 150000 B, at least one MTU */
    ck_assert(conf_check_window(1000, CONF_WIN_HPCC, 1000, 150000, &f));
    ck_assert(conf_check_window(150000, CONF_WIN_HPCC, 1000, 150000, &f));
    failed_with(conf_check_window(999, CONF_WIN_HPCC, 1000, 150000, &f), &f, CONF_CHECK_WINDOW, "window 999 B");
    failed_with(conf_check_window(150001, CONF_WIN_HPCC, 1000, 150000, &f), &f, CONF_CHECK_WINDOW,
                "outside [1000, 150000]");
    /* W_init below an MTU (1 Mbit/s, T = 1 us: 0.125 B, raised to 1 B): the floor is W_init */
    ck_assert(conf_check_window(1, CONF_WIN_HPCC, 1000, 1, &f));
    failed_with(conf_check_window(2, CONF_WIN_HPCC, 1000, 1, &f), &f, CONF_CHECK_WINDOW, "window 2 B");
}
END_TEST

START_TEST(test_finite)
{
    static const libcc_param_desc vars[3] = {{"a", LIBCC_UNIT_RATIO, 0, 0, 0, ""},
                                             {"b", LIBCC_UNIT_RATIO, 0, 0, 0, ""},
                                             {"c", LIBCC_UNIT_RATIO, 0, 0, 0, ""}};
    conf_failure f;
    double v[3] = {0, -0.0, DBL_MAX};
    ck_assert(conf_check_finite(v, vars, 3, &f));
    v[1] = NAN;
    failed_with(conf_check_finite(v, vars, 3, &f), &f, CONF_CHECK_FINITE, "variable b is");
    v[1] = 0;
    v[2] = -INFINITY;
    failed_with(conf_check_finite(v, vars, 3, &f), &f, CONF_CHECK_FINITE, "variable c is -inf");
}
END_TEST

START_TEST(test_deadlines)
{
    conf_failure f;
    ck_assert(conf_check_deadline(6, 6, &f));
    ck_assert(conf_check_deadline(LIBCC_NO_DEADLINE, UINT64_MAX, &f));
    failed_with(conf_check_deadline(5, 6, &f), &f, CONF_CHECK_DEADLINE, "deadline 5 ns before now 6 ns");
    /* a timer fired at 10 must leave the deadline after 10, or none */
    ck_assert(conf_check_timer_advanced(11, 10, &f));
    ck_assert(conf_check_timer_advanced(LIBCC_NO_DEADLINE, 10, &f));
    failed_with(conf_check_timer_advanced(10, 10, &f), &f, CONF_CHECK_TIMER, "timer at 10 ns left the deadline at 10 ns");
    ck_assert(conf_check_callback(7, 7, &f));
    failed_with(conf_check_callback(7, 8, &f), &f, CONF_CHECK_CALLBACK, "announced 7 ns, the getter says 8 ns");
}
END_TEST

START_TEST(test_calls_and_cp)
{
    conf_failure f;
    ck_assert(conf_check_reentry(LIBCC_ERR_INVALID_ARG, "rate_changed", &f));
    failed_with(conf_check_reentry(LIBCC_OK, "rate_changed", &f), &f, CONF_CHECK_REENTRY, "inside rate_changed");
    ck_assert(conf_check_call(LIBCC_OK, "x", &f));
    ck_assert(conf_check_call(LIBCC_ERR_UNSUPPORTED, "x", &f));
    failed_with(conf_check_call(LIBCC_ERR_BAD_TELEMETRY, "libcc_rp_on_ack", &f), &f, CONF_CHECK_CALL,
                "libcc_rp_on_ack returned");
    ck_assert(conf_check_probability(0, 0, &f));
    ck_assert(conf_check_probability(1, 0, &f));
    failed_with(conf_check_probability(-0.25, 7, &f), &f, CONF_CHECK_MARK, "-0.25 at a queue of 7 B");
    failed_with(conf_check_probability(NAN, 7, &f), &f, CONF_CHECK_MARK, "probability");
    failed_with(conf_check_probability(nextafter(1, 2), 7, &f), &f, CONF_CHECK_MARK, "probability");
    ck_assert(conf_check_feedback_count(2, 2, &f));
    failed_with(conf_check_feedback_count(3, 2, &f), &f, CONF_CHECK_CP_FEEDBACK, "3 feedback entries");
}
END_TEST

/* A run is a function of (seed, algorithm, run, role): the same numbers
 * whatever else ran, different for another run. */
START_TEST(test_runs_are_found_again)
{
    conf_prng a = conf_run_prng(1, "dcqcn", 3, LIBCC_ROLE_RP);
    conf_prng b = conf_run_prng(1, "dcqcn", 3, LIBCC_ROLE_RP);
    conf_prng c = conf_run_prng(1, "dcqcn", 4, LIBCC_ROLE_RP);
    conf_prng d = conf_run_prng(1, "hpcc", 3, LIBCC_ROLE_RP);
    const uint64_t x = conf_next(&a);
    ck_assert_uint_eq(x, conf_next(&b));
    ck_assert_uint_ne(x, conf_next(&c));
    ck_assert_uint_ne(x, conf_next(&d));
    conf_rp_result r1, r2;
    conf_failure f;
    ck_assert(conf_rp_run("hpcc", "", conf_run_prng(7, "hpcc", 2, 1), 2, 200, false, NULL, &r1, &f));
    ck_assert(conf_rp_run("hpcc", "", conf_run_prng(7, "hpcc", 2, 1), 2, 200, true, NULL, &r2, &f));
    ck_assert_uint_eq(r1.digest, r2.digest);
    ck_assert_uint_gt(r1.calls, 0);
}
END_TEST

/* Rows of libcc-replay's CSV hashed as conf_rp_run hashes (rate, window). */
static uint64_t replay_digest(const char *path, unsigned *rows)
{
    char cmd[2048], line[8192];
    snprintf(cmd, sizeof cmd, "%s/libcc-replay %s 2>&1", getenv("LIBCC_TOOLS") ? getenv("LIBCC_TOOLS") : "build/bin",
             path);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    uint64_t h = CONF_DIGEST_START;
    *rows = 0;
    ck_assert_ptr_nonnull(fgets(line, sizeof line, p)); /* header */
    while (fgets(line, sizeof line, p)) {
        unsigned long long rate;
        char win[32];
        ck_assert_msg(sscanf(line, "%*[^,],%*[^,],%llu,%31[^,\n]", &rate, win) == 2, "row: %s", line);
        const uint64_t w = strcmp(win, "inf") == 0 ? LIBCC_WINDOW_UNLIMITED : strtoull(win, NULL, 10);
        h = conf_hash_step(conf_hash_step(h, rate), w);
        ++*rows;
    }
    ck_assert_int_eq(pclose(p), 0);
    return h;
}

/* Every algorithm, a few runs each (wrapping INT, clock-top starts, late
 * timers among them): the script conf_rp_run writes makes libcc-replay
 * show the same rate and window after every call. */
START_TEST(test_script_replays_the_run)
{
    const char *algo = libcc_algorithms()[_i];
    for (unsigned run = 0; run < 4; run++) {
        conf_text t;
        memset(&t, 0, sizeof t);
        conf_rp_result res;
        conf_failure f;
        ck_assert_msg(conf_rp_run(algo, "", conf_run_prng(11, algo, run, LIBCC_ROLE_RP), run, 300, false, &t,
                                  &res, &f),
                      "%s: %s", algo, f.detail);
        ck_assert(!t.oom);
        char path[] = "/tmp/libcc-conformance-test-XXXXXX";
        int fd = mkstemp(path);
        ck_assert_int_ge(fd, 0);
        ck_assert_int_eq(write(fd, t.buf, t.len), (ssize_t)t.len);
        close(fd);
        unsigned rows;
        const uint64_t h = replay_digest(path, &rows);
        unlink(path);
        conf_text_free(&t);
        ck_assert_uint_eq(rows, res.calls + 1); /* start, then one row a call */
        ck_assert_msg(h == res.rw_digest, "%s run %u: the replay shows other rates or windows", algo, run);
    }
}
END_TEST

/* The tool: PASS lines and the tally, exit statuses of the error policy. */
static int tool(const char *args, char *out, size_t len)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s/libcc-conformance --trace-dir=/tmp %s 2>&1",
             getenv("LIBCC_TOOLS") ? getenv("LIBCC_TOOLS") : "build/bin", args);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t n = fread(out, 1, len - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

START_TEST(test_tool)
{
    char out[8192];
    ck_assert_int_eq(tool("--algo=dcqcn --algo=none --events=2000", out, sizeof out), 0);
    ck_assert_msg(strncmp(out, "PASS dcqcn: ", 12) == 0, "%s", out);
    ck_assert_msg(strstr(out, "\nPASS none: ") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "\nconformance: 2 passed, 0 failed\n") != NULL, "%s", out);
    ck_assert_int_eq(tool("--algo=no-such-algo", out, sizeof out), 2);
    ck_assert_msg(strstr(out, "--algo 'no-such-algo'") != NULL, "%s", out);
    ck_assert_int_eq(tool("--events=0", out, sizeof out), 2);
    ck_assert_msg(strstr(out, "--events '0'") != NULL, "%s", out);
    ck_assert_int_eq(tool("--duration=fast", out, sizeof out), 2);
    ck_assert_int_eq(tool("--events=5 --duration=1s", out, sizeof out), 2);
    ck_assert_int_eq(tool("--algo=dcqcn --params=kmin=9PB", out, sizeof out), 2);
    ck_assert_msg(strstr(out, "--params 'kmin=9PB'") != NULL, "%s", out);
    ck_assert_int_eq(tool("--plugin=/nonexistent.so", out, sizeof out), 2);
    ck_assert_msg(strstr(out, "--plugin '/nonexistent.so'") != NULL, "%s", out);
    ck_assert_int_eq(tool("--frobnicate=1", out, sizeof out), 2);
}
END_TEST

/* ---- deliberately broken algorithms, each failing one check ---------- */
/* A deadline 1 ns in the past at every CNP. */
static int past_on_cnp(libcc_rp *rp, uint64_t now)
{
    libcc_rp_set_deadline_ns(rp, now - 1);
    return LIBCC_OK;
}

/* A timer at 1000 ns after creation that, fired, leaves its deadline where it was. */
static void stuck_init(libcc_rp *rp, uint64_t now)
{
    libcc_rp_set_deadline_ns(rp, now + 1000 < now ? LIBCC_NO_DEADLINE : now + 1000);
}

static int stuck_on_timer(libcc_rp *rp, uint64_t now)
{
    (void)rp, (void)now;
    return LIBCC_OK;
}

/* A variable that is never a number. */
static const libcc_param_desc nan_vars[1] = {{"x", LIBCC_UNIT_RATIO, 0, 0, 0, "always NaN"}};
static void nan_read(const libcc_rp *rp, double *v)
{
    (void)rp;
    v[0] = NAN;
}

/* A rate that depends on where the RP lives: within bounds, not repeatable. */
static int addr_on_tx(libcc_rp *rp, uint64_t now, uint64_t seq, uint32_t bytes, unsigned *flags)
{
    (void)now, (void)seq, (void)bytes, (void)flags;
    const uint64_t line = libcc_rp_flow(rp)->line_rate_bps;
    libcc_rp_set_rate_bps(rp, line / 2 + ((uintptr_t)rp >> 4) % 1000);
    return LIBCC_OK;
}

/* A mark probability above 1. */
static double over_mark(const libcc_cp *cp, uint64_t q)
{
    (void)cp, (void)q;
    return 1.5;
}

static const libcc_rp_ops past_ops = {.on_cnp = past_on_cnp};
static const libcc_rp_ops stuck_ops = {.init = stuck_init, .on_timer = stuck_on_timer};
static const libcc_rp_ops nan_ops = {.vars = nan_vars, .n_vars = 1, .read_vars = nan_read};
static const libcc_rp_ops addr_ops = {.on_tx = addr_on_tx};
static const libcc_cp_ops mark_ops = {.mark_probability = over_mark};

#define BROKEN(nm, rp_ops, cp_ops, role)                                                          \
    {.abi_version = LIBCC_ALGORITHM_ABI_VERSION, .name = nm, .summary = "broken on purpose",     \
     .roles = role, .rp = rp_ops, .cp = cp_ops}

static const struct {
    libcc_algorithm a;
    const char *check;
} broken[] = {
    {BROKEN("broken-past-deadline", &past_ops, NULL, LIBCC_ROLE_RP), CONF_CHECK_DEADLINE},
    {BROKEN("broken-stuck-timer", &stuck_ops, NULL, LIBCC_ROLE_RP), CONF_CHECK_TIMER},
    {BROKEN("broken-nan-var", &nan_ops, NULL, LIBCC_ROLE_RP), CONF_CHECK_FINITE},
    {BROKEN("broken-by-address", &addr_ops, NULL, LIBCC_ROLE_RP), CONF_CHECK_REPLAY},
    {BROKEN("broken-mark", NULL, &mark_ops, LIBCC_ROLE_CP), CONF_CHECK_MARK},
};

/* Each broken algorithm, registered like a plugin's, fails the check its
 * fault breaks (and an RP failure comes with a replay script). */
/* A plugin built outside libcc (tests/check/plugins/timer_plugin.c:
 * "plugin-timer", RP and NP) checked through the tool's --plugin, as its
 * author would: it passes, and is listed among every registered algorithm. */
START_TEST(test_tool_with_plugin)
{
    const char *dir = getenv("LIBCC_TEST_PLUGINS");
    char args[1024], out[8192];
    snprintf(args, sizeof args, "--plugin=%s/timer_plugin.so --algo=plugin-timer --events=2000",
             dir ? dir : "build/tests/plugins");
    ck_assert_int_eq(tool(args, out, sizeof out), 0);
    ck_assert_msg(strncmp(out, "PASS plugin-timer: ", 19) == 0, "%s", out);
    ck_assert_msg(strstr(out, "\nconformance: 1 passed, 0 failed\n") != NULL, "%s", out);
    snprintf(args, sizeof args, "--plugin=%s/noentry_plugin.so", dir ? dir : "build/tests/plugins");
    ck_assert_int_eq(tool(args, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "noentry_plugin.so") != NULL, "%s", out);
}
END_TEST

/* A plugin's bug end to end (tests/check/plugins/broken_plugin.c: a NaN
 * variable from the first CNP on): the tool reports vars-finite at a CNP,
 * exit 3, and writes a script that libcc-replay, loading the same plugin,
 * replays to the NaN in its last row; a trace directory that cannot be
 * written makes it exit 1. */
START_TEST(test_tool_finds_a_plugin_bug)
{
    const char *dir = getenv("LIBCC_TEST_PLUGINS") ? getenv("LIBCC_TEST_PLUGINS") : "build/tests/plugins";
    char tmp[] = "/tmp/libcc-conformance-bug-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(tmp));
    char args[2048], out[8192], path[1024], cmd[4096], line[4096], last[4096] = "";
    snprintf(args, sizeof args, "--plugin=%s/broken_plugin.so --algo=broken-nan --events=2000 --trace-dir=%s",
             dir, tmp);
    ck_assert_int_eq(tool(args, out, sizeof out), 3);
    ck_assert_msg(strncmp(out, "FAIL broken-nan: vars-finite: RP run ", 37) == 0, "%s", out);
    ck_assert_msg(strstr(out, " (cnp): variable cnps_seen is ") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "\nconformance: 0 passed, 1 failed\n") != NULL, "%s", out);
    const char *rp = strstr(out, "  replay: libcc-replay ");
    ck_assert_msg(rp != NULL, "%s", out);
    ck_assert_int_eq(sscanf(rp, "  replay: libcc-replay %1023s", path), 1);
    ck_assert_msg(strncmp(path, tmp, strlen(tmp)) == 0, "%s", path);
    snprintf(cmd, sizeof cmd, "%s/libcc-replay --plugin=%s/broken_plugin.so %s 2>&1",
             getenv("LIBCC_TOOLS") ? getenv("LIBCC_TOOLS") : "build/bin", dir, path);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    while (fgets(line, sizeof line, p))
        snprintf(last, sizeof last, "%s", line);
    ck_assert_int_eq(pclose(p), 0);
    ck_assert_msg(strstr(last, ",cnp,") != NULL && strstr(last, "nan\n") != NULL, "last row: %s", last);
    unlink(path);
    ck_assert_int_eq(rmdir(tmp), 0);
    snprintf(args, sizeof args,
             "--plugin=%s/broken_plugin.so --algo=broken-nan --events=2000 --trace-dir=/nonexistent/dir", dir);
    ck_assert_int_eq(tool(args, out, sizeof out), 1);
    ck_assert_msg(strstr(out, "cannot write /nonexistent/dir/") != NULL, "%s", out);
}
END_TEST

START_TEST(test_broken_algorithm_fails_its_check)
{
    char err[256] = "";
    ck_assert_msg(libcc_algorithm_register(&broken[_i].a, err, sizeof err) == LIBCC_OK, "%s", err);
    conf_config cfg = {.seed = 1, .events = 5000, .steps_per_run = 600};
    conf_report rep;
    const bool ok = conf_algorithm(broken[_i].a.name, &cfg, &rep);
    conf_text t;
    memset(&t, 0, sizeof t);
    const bool script = conf_failure_script(broken[_i].a.name, &cfg, &rep, &t);
    conf_text_free(&t);
    ck_assert_int_eq(libcc_algorithm_unregister(broken[_i].a.name), LIBCC_OK);
    ck_assert_msg(!ok, "%s passed", broken[_i].a.name);
    ck_assert_msg(strcmp(rep.failure.check, broken[_i].check) == 0, "%s failed %s (%s), not %s",
                  broken[_i].a.name, rep.failure.check, rep.failure.detail, broken[_i].check);
    ck_assert(script == (rep.role == LIBCC_ROLE_RP));
}
END_TEST

static int n_algorithms(void)
{
    int n = 0;
    while (libcc_algorithms()[n])
        n++;
    return n;
}

Suite *conformance_suite(void)
{
    Suite *s = suite_create("conformance");
    TCase *tc = tcase_create("checks");
    tcase_add_test(tc, test_rate);
    tcase_add_test(tc, test_window);
    tcase_add_test(tc, test_finite);
    tcase_add_test(tc, test_deadlines);
    tcase_add_test(tc, test_calls_and_cp);
    tcase_add_test(tc, test_runs_are_found_again);
    suite_add_tcase(s, tc);
    tc = tcase_create("replay");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_script_replays_the_run, 0, n_algorithms());
    tcase_add_test(tc, test_tool);
    suite_add_tcase(s, tc);
    tc = tcase_create("broken");
    tcase_add_test(tc, test_tool_with_plugin);
    tcase_add_test(tc, test_tool_finds_a_plugin_bug);
    tcase_add_loop_test(tc, test_broken_algorithm_fails_its_check, 0,
                        (int)(sizeof broken / sizeof broken[0]));
    suite_add_tcase(s, tc);
    return s;
}
