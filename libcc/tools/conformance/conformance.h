/* SPDX-License-Identifier: MIT */
/*
 * libcc's property checks as a library of the tools: random legal event
 * streams for the three roles and the checks that must hold after every
 * call, for any registered algorithm (plugins too). libcc-conformance runs
 * them from the command line, tests/check/check_properties.c inside the
 * Check suite; docs/conformance.md says what each check means.
 *
 * Everything is driven by a seeded generator (no libc randomness, no
 * clock), so the same seed gives the same calls: a failure is found again
 * by running the same run, and conf_rp_run can write the calls of a run as
 * a libcc-replay script that makes them once more.
 */
#ifndef LIBCC_CONFORMANCE_H
#define LIBCC_CONFORMANCE_H

#include <libcc/libcc.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- the generator ---------------------------------------------------- */

/* xorshift64*: the same numbers on every platform, no global state. */
typedef struct conf_prng {
    uint64_t s;
} conf_prng;

uint64_t conf_next(conf_prng *g);
/* Uniform in [0, n); 0 when n is 0. */
uint64_t conf_below(conf_prng *g, uint64_t n);
/* The generator of one run of an algorithm: a function of the seed, the
 * algorithm's name and the run's number only, so a run is found again
 * whatever else was selected. */
conf_prng conf_run_prng(uint64_t seed, const char *algo, unsigned run, unsigned role);

/* ---- what went wrong ---------------------------------------------------- */

/* Names of the checks (docs/conformance.md has one section each). */
#define CONF_CHECK_CALL "call-accepted"
#define CONF_CHECK_RATE "rate-bounds"
#define CONF_CHECK_WINDOW "window-bounds"
#define CONF_CHECK_FINITE "vars-finite"
#define CONF_CHECK_DEADLINE "deadline-not-past"
#define CONF_CHECK_TIMER "timer-advances"
#define CONF_CHECK_CALLBACK "deadline-callback"
#define CONF_CHECK_REPLAY "deterministic-replay"
#define CONF_CHECK_REENTRY "no-reentry"
#define CONF_CHECK_PARAMS "param-ranges"
#define CONF_CHECK_NP "np-stream"
#define CONF_CHECK_CP "cp-stream"
#define CONF_CHECK_MARK "mark-probability"
#define CONF_CHECK_CP_FEEDBACK "cp-feedback-count"

typedef struct conf_failure {
    const char *check; /* CONF_CHECK_* */
    unsigned run;      /* run number (its generator: conf_run_prng) */
    unsigned step;     /* event number in the run; 0: creation */
    char event[24];    /* the call after which it failed */
    char detail[400];  /* the values, in words */
} conf_failure;

/* A fresh record for a run: nothing failed yet, at its creation. */
void conf_failure_start(conf_failure *f, unsigned run);
/* The params of a run: algo's defaults with `set` (may be "" or NULL)
 * applied; LIBCC_OK or the error (*p is then freed and NULL). */
int conf_params_for(const char *algo, const char *set, libcc_params **p);
/* When a run starts: a third of them within 2^24 ns of the clock's end. */
uint64_t conf_start_time(conf_prng *g);

/* Fill *f (NULL: nothing) and return false; for `return conf_fail(...)`. */
bool conf_fail(conf_failure *f, const char *check, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ---- the checks, one value at a time (unit-tested alone) ------------- */

/* Rate in [lo, hi] (lo at least 1 bit/s, hi the line rate). */
bool conf_check_rate(uint64_t rate, uint64_t lo, uint64_t hi, conf_failure *f);

/* What the window may be, per algorithm. */
typedef enum conf_window_kind {
    CONF_WIN_ANY = 0,   /* at least 1 byte, or unlimited (any algorithm) */
    CONF_WIN_UNLIMITED, /* rate-only algorithms: always LIBCC_WINDOW_UNLIMITED */
    CONF_WIN_HPCC,      /* HPCC family: in [min(mtu, W_init), W_init], rounded */
} conf_window_kind;

/* w_init: HPCC's W_init in bytes (CONF_WIN_HPCC only). */
bool conf_check_window(uint64_t window, conf_window_kind kind, double mtu, double w_init,
                       conf_failure *f);
/* Every value finite (names from the descriptor table, for the message). */
bool conf_check_finite(const double *values, const libcc_param_desc *vars, size_t n,
                       conf_failure *f);
/* A deadline is LIBCC_NO_DEADLINE or not before now. */
bool conf_check_deadline(uint64_t deadline, uint64_t now, conf_failure *f);
/* After a timer fired at `at`, the deadline is later than `at` or none. */
bool conf_check_timer_advanced(uint64_t deadline, uint64_t at, conf_failure *f);
/* The deadline the callback announced is the getter's. */
bool conf_check_callback(uint64_t announced, uint64_t getter, conf_failure *f);
/* A re-entrant call from a callback was refused (LIBCC_ERR_INVALID_ARG). */
bool conf_check_reentry(int rc, const char *callback, conf_failure *f);
/* A mark probability is in [0, 1]. */
bool conf_check_probability(double p, uint64_t queue_bytes, conf_failure *f);
/* A CP timer wrote at most max entries. */
bool conf_check_feedback_count(size_t n, size_t max, conf_failure *f);
/* An op's return: LIBCC_OK, or LIBCC_ERR_UNSUPPORTED (the event has no
 * meaning for the algorithm). */
bool conf_check_call(int rc, const char *call, conf_failure *f);

/* ---- what libcc knows of its built-ins ------------------------------- */

/* Parameter sets worth running (defaults, presets, options that change
 * which code runs) and window kind; an unknown algorithm (a plugin) gets
 * the defaults, its presets and CONF_WIN_ANY. */
typedef struct conf_expect {
    const char *const *sets;
    size_t n_sets;
    conf_window_kind window;
} conf_expect;

void conf_expect_of(const char *algo, conf_expect *e);

/* ---- a growable text (the replay script) ------------------------------ */

typedef struct conf_text {
    char *buf;
    size_t len, cap;
    bool oom;
} conf_text;

void conf_text_printf(conf_text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void conf_text_free(conf_text *t);

/* ---- runs --------------------------------------------------------------- */

/* One RP run: a fresh RP of algo with parameter set `set` (libcc_params_parse
 * text, may be "" or NULL) on a random flow, `steps` random legal events,
 * every check after every call. Returns true when all held; else *f says
 * which failed, where, with which values. *digest: the (rate, window,
 * deadline) sequence hashed, for the determinism check. With script
 * non-NULL, the run's calls are appended to it as a libcc-replay script up
 * to the failing call. in_place: build the RP with libcc_rp_init in
 * memory filled with garbage, 1 KiB into its block (another address than
 * libcc_rp_new's), rather than with libcc_rp_new: a second run that must
 * give the same digest. */
typedef struct conf_rp_result {
    uint64_t digest;      /* (rate, window, deadline) after creation and every call */
    uint64_t rw_digest;   /* (rate, window) alone: what a replay's CSV rows show */
    unsigned steps_done;  /* events completed */
    unsigned calls;       /* calls made, timers included (a replay's rows after `start`) */
} conf_rp_result;

/* The hash the digests are made of, one value at a time from
 * CONF_DIGEST_START: a replay's rows can be hashed the same way. */
#define CONF_DIGEST_START UINT64_C(0xcbf29ce484222325)
uint64_t conf_hash_step(uint64_t h, uint64_t v);

bool conf_rp_run(const char *algo, const char *set, conf_prng g, unsigned run, unsigned steps,
                 bool in_place, conf_text *script, conf_rp_result *res, conf_failure *f);

/* Every parameter of algo (its own and the common ones) at min, max and a
 * random value in between makes params that make its objects; just
 * outside the range is refused with LIBCC_ERR_OUT_OF_RANGE. The flow
 * attributes (libcc_flow_params) the same through libcc_rp_new. */
bool conf_params_check(const char *algo, conf_prng g, conf_failure *f);

/* A random stream of data packets, flow ends and timers through a NP of
 * algo (set as conf_rp_run's); checks the calls, the verdicts and the
 * deadline. */
bool conf_np_run(const char *algo, const char *set, conf_prng g, unsigned run, unsigned steps,
                 conf_failure *f);
/* A random stream of enqueues, dequeues and timers through a CP; checks
 * the mark probability, INT stamps, the timer's feedback count and
 * deadline. */
bool conf_cp_run(const char *algo, const char *set, conf_prng g, unsigned run, unsigned steps,
                 conf_failure *f);

/* ---- a whole algorithm ------------------------------------------------- */

typedef struct conf_config {
    uint64_t seed;
    uint64_t events;       /* RP events per algorithm (NP and CP get a quarter each) */
    double duration_s;     /* > 0: run for this wall-clock time instead of `events` */
    unsigned steps_per_run; /* events per RP before a fresh one (600) */
    const char *params;    /* --params: one more parameter set, run first; NULL: none */
} conf_config;

typedef struct conf_report {
    uint64_t rp_events, np_events, cp_events;
    unsigned runs;
    bool failed;
    unsigned role;     /* of the failing run: LIBCC_ROLE_*; 0: the parameter check */
    conf_failure failure;
    char set[256];     /* the failing run's parameter set */
} conf_report;

/* Runs every check on algo; stops at the first failure. */
bool conf_algorithm(const char *algo, const conf_config *cfg, conf_report *rep);

/* The replay script of the failing RP run of a report (false if the
 * failure is not of an RP run), into *script. */
bool conf_failure_script(const char *algo, const conf_config *cfg, const conf_report *rep,
                         conf_text *script);

#endif
