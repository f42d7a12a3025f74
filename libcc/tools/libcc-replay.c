/* SPDX-License-Identifier: MIT */
/*
 * libcc-replay: play the host for one Reaction Point. It reads an event
 * trace (docs/replay.md), feeds it to any algorithm through the public API
 * only, fires the RP's timer exactly when a host would (at each deadline not
 * later than the next event), and prints the rate/window timeline as CSV.
 *
 * It exists so an algorithm's reaction to a hand-written scenario can be
 * seen and tested without a network simulator. Everything the trace says is
 * checked: a bad line is reported as TRACE:LINE and the exit status is 2;
 * the number of timer firings is bounded so nothing can hang.
 *
 * Errors unwind with longjmp to libcc_replay_main, which frees everything:
 * the fuzzer (fuzz/) runs the whole tool in-process, with leak checks, and
 * must get the exit status back instead of the process ending.
 */
#include "libcc-replay.h"

#include <libcc/libcc.h>

#include <errno.h>
#include <inttypes.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXIT_TRACE LIBCC_REPLAY_EXIT_INPUT
#define EXIT_IO LIBCC_REPLAY_EXIT_IO
#define DEFAULT_MAX_STEPS 1000000u
#define SPACES " \t\r\n\v\f"

typedef struct hdr_param {
    unsigned long line;
    char *text;
} hdr_param;

/* A flow setting with where it came from, so the command line can win and
 * a second value for it can name the first. */
typedef struct setting {
    bool set;
    uint64_t value;
    unsigned long line; /* trace line that set it */
} setting;

typedef struct options {
    const char *algo;
    const char **params; /* --param texts, in order */
    size_t n_params;
    const char **plugins; /* --plugin paths, loaded in order before the trace is read */
    size_t n_plugins;
    setting line_rate, base_rtt, mtu, sample, until, max_steps;
    const char *trace;
    bool help, list, json;
} options;

typedef struct replay {
    jmp_buf jump;  /* fail_at and die_io unwind to libcc_replay_main */
    int exit_code; /* what they unwind with */
    options o;
    const options *opt;
    const char *name; /* trace name in messages; NULL: the command line */
    unsigned long line;
    FILE *out, *err;
    FILE *opened; /* the trace, when the tool opened it */
    char *linebuf;
    size_t linecap;

    /* Header: directives seen before the first event. */
    char *algo_dir;
    unsigned long algo_line;
    hdr_param *hparams;
    size_t n_hparams;
    setting line_rate, base_rtt, mtu, flow_id;
    setting start_at;   /* @start: the RP's creation time (default 0) */
    bool manual_timers; /* @timers manual: the trace lists every timer call */
    unsigned ts_bits, tx_bits; /* @int: wrap widths of the hop lists (default 64) */
    unsigned long timers_line, int_line;

    /* Running. */
    libcc_params *params;
    libcc_rp *rp;
    bool started;
    unsigned max_hops;
    uint64_t deadline;    /* as last told by deadline_changed */
    uint64_t now;         /* last time given to the RP */
    uint64_t last_event;  /* time of the previous trace event */
    uint64_t next_sample; /* UINT64_MAX: no sampling */
    uint64_t steps;       /* timer firings + sample rows so far */
    bool warned_deadline, warned_unsupported;
    const libcc_param_desc *vars;
    size_t n_vars;
    double *values;
} replay;

/* ------------------------------------------------------------------ */
/* Messages                                                            */
/* ------------------------------------------------------------------ */

/* Traces may hold anything: show non-printable bytes of a message as '?'
 * so garbage input cannot garble the terminal. */
/* name NULL: a command-line problem, "libcc-replay: message". */
static void vmsg(const replay *r, const char *name, unsigned long line, const char *fmt, va_list ap)
{
    char text[512];
    vsnprintf(text, sizeof text, fmt, ap);
    for (char *p = text; *p; p++)
        if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
            *p = '?';
    if (name && line)
        fprintf(r->err, "%s:%lu: ", name, line);
    else if (name)
        fprintf(r->err, "%s: ", name);
    else
        fputs("libcc-replay: ", r->err);
    fprintf(r->err, "%s\n", text);
}

static _Noreturn void unwind(replay *r, int code)
{
    r->exit_code = code;
    longjmp(r->jump, 1);
}

/* The CSV already printed stays as a record of what happened before the
 * error. */
static _Noreturn void fail_at(const replay *r, unsigned long line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg(r, r->name, line, fmt, ap);
    va_end(ap);
    fflush(r->out);
    /* Parsers take the replay const: they only read it, until they fail. */
    unwind((replay *)r, EXIT_TRACE);
}

static _Noreturn void fail_cli(const replay *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg(r, NULL, 0, fmt, ap);
    va_end(ap);
    fflush(r->out);
    unwind((replay *)r, EXIT_TRACE);
}

#define fail(r, ...) fail_at((r), (r)->line, __VA_ARGS__)

static void warn_at(const replay *r, unsigned long line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("warning: ", r->err);
    vmsg(r, r->name, line, fmt, ap);
    va_end(ap);
}

static _Noreturn void die_io(replay *r, const char *what)
{
    fprintf(r->err, "libcc-replay: %s\n", what);
    unwind(r, EXIT_IO);
}

static void *xcalloc(replay *r, size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        die_io(r, "out of memory");
    return p;
}

static char *xstrdup(replay *r, const char *s)
{
    char *p = xcalloc(r, strlen(s) + 1, 1);
    memcpy(p, s, strlen(s) + 1);
    return p;
}

/* ------------------------------------------------------------------ */
/* Values                                                              */
/* ------------------------------------------------------------------ */

static const char *unit_hint(libcc_unit unit)
{
    switch (unit) {
    case LIBCC_UNIT_BPS:
        return "a rate such as 100Gbps (bps, Kbps, Mbps, Gbps, Tbps)";
    case LIBCC_UNIT_NS:
        return "a time such as 12us (ns, us, ms, s)";
    case LIBCC_UNIT_BYTES:
        return "a size such as 1000B or 64KB (B, KB, KiB, MB, MiB, GB)";
    default:
        return "a number";
    }
}

static const char *not_whole(libcc_unit unit)
{
    switch (unit) {
    case LIBCC_UNIT_BPS: return "not a whole number of bit/s";
    case LIBCC_UNIT_NS: return "not a whole number of ns";
    default: return "not a whole number of bytes";
    }
}

/* scale = 2^*a * 5^*b, as every unit prefix is (1000^k, 1024^k). */
static bool factor_2_5(uint64_t scale, unsigned *a, unsigned *b)
{
    *a = *b = 0;
    if (scale == 0)
        return false;
    for (; scale % 2 == 0; scale /= 2)
        ++*a;
    for (; scale % 5 == 0; scale /= 5)
        ++*b;
    return scale == 1;
}

static bool mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    if (b && a > UINT64_MAX / b)
        return false;
    *out = a * b;
    return true;
}

/* "DIGITS[.DIGITS] UNIT" in integer arithmetic: a double cannot hold every
 * uint64_t (18446744073709551615ns would become 2^64). Returns 0 when the
 * text is not of that form (an exponent, a sign: the caller uses the double
 * then), 1 with *out set, -1 with *why set. The text already parsed with
 * libcc_parse_value, so its syntax and unit are valid. */
static int exact_u64(libcc_unit unit, const char *text, uint64_t *out, const char **why)
{
    const char *p = text + strspn(text, SPACES);
    uint64_t whole = 0, frac = 0;
    unsigned frac_digits = 0;
    bool big = false;
    char one[64];
    double scale_d;

    if (*p < '0' || *p > '9')
        return 0;
    for (; *p >= '0' && *p <= '9'; p++)
        if (!mul_u64(whole, 10, &whole) || whole > UINT64_MAX - (uint64_t)(*p - '0'))
            big = true;
        else
            whole += (uint64_t)(*p - '0');
    if (*p == '.') {
        const char *f = ++p;
        while (*p >= '0' && *p <= '9')
            p++;
        const char *e = p;
        while (e > f && e[-1] == '0') /* 1.50 is 1.5 */
            e--;
        for (; f < e; f++) {
            if (frac_digits == 19) /* more decimals than a uint64_t holds: not whole */
                goto not_whole;
            frac = frac * 10 + (uint64_t)(*f - '0');
            frac_digits++;
        }
    }
    if (*p == 'e' || *p == 'E')
        return 0;
    p += strspn(p, SPACES);
    if (!*p) /* a bare number: libcc_parse_value accepted it, so it is 0 */
        return 0;
    /* The unit's scale, exactly: every prefix is an integer below 2^53. */
    if (snprintf(one, sizeof one, "1%s", p) >= (int)sizeof one ||
        libcc_parse_value(unit, one, &scale_d) != LIBCC_OK)
        return 0;
    uint64_t scale = (uint64_t)scale_d, q = frac, v;
    unsigned a, b;
    if (!factor_2_5(scale, &a, &b))
        return 0;
    /* frac * 2^a * 5^b / 10^frac_digits, whole or refused */
    for (unsigned i = 0; i < frac_digits; i++) {
        if (b)
            b--;
        else if (q % 5)
            goto not_whole;
        else
            q /= 5;
        if (a)
            a--;
        else if (q % 2)
            goto not_whole;
        else
            q /= 2;
    }
    for (; a; a--)
        if (!mul_u64(q, 2, &q))
            big = true;
    for (; b; b--)
        if (!mul_u64(q, 5, &q))
            big = true;
    if (big || !mul_u64(whole, scale, &v) || v > UINT64_MAX - q) {
        *why = "out of range (at most 18446744073709551615 base units)";
        return -1;
    }
    *out = v + q;
    return 1;
not_whole:
    *why = not_whole(unit);
    return -1;
}

/* Text with a unit -> whole base units, exactly: a fraction of a byte,
 * ns or bit/s is refused, never rounded. Returns false with *why set. */
static bool value_u64(libcc_unit unit, const char *text, uint64_t *out, const char **why)
{
    double v;
    int rv;

    if (!text || !*text) {
        *why = "missing value";
        return false;
    }
    rv = libcc_parse_value(unit, text, &v);
    if (rv != LIBCC_OK) {
        *why = libcc_strerror(rv);
        return false;
    }
    rv = exact_u64(unit, text, out, why);
    if (rv)
        return rv > 0;
    /* An exponent or a sign: the double is the value (exact below 2^53). */
    if (!(v >= 0.0) || v >= 18446744073709551616.0) {
        *why = "out of range (at most 18446744073709551615 base units)";
        return false;
    }
    if (v != (double)(uint64_t)v) {
        *why = not_whole(unit);
        return false;
    }
    *out = (uint64_t)v;
    return true;
}

static uint64_t need_value(const replay *r, libcc_unit unit, const char *field, const char *text)
{
    uint64_t v;
    const char *why;
    if (!value_u64(unit, text, &v, &why))
        fail(r, "%s '%s': %s: expected %s", field, text ? text : "", why, unit_hint(unit));
    return v;
}

/* Plain decimal integer, every character checked. */
static bool integer_u64(const char *text, uint64_t *out)
{
    uint64_t v = 0;
    if (!text || !*text)
        return false;
    for (const char *p = text; *p; p++) {
        unsigned d;
        if (*p < '0' || *p > '9')
            return false;
        d = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

static uint64_t need_integer(const replay *r, const char *field, const char *text, uint64_t max)
{
    uint64_t v;
    if (!integer_u64(text, &v) || v > max)
        fail(r, "%s '%s': expected an integer from 0 to %" PRIu64, field, text ? text : "", max);
    return v;
}

/* Sizes may be written bare ("1000") or with a unit ("1KB"). */
static uint64_t need_bytes(const replay *r, const char *field, const char *text, uint64_t max)
{
    uint64_t v;
    if (!integer_u64(text, &v))
        v = need_value(r, LIBCC_UNIT_BYTES, field, text);
    if (v > max)
        fail(r, "%s '%s': more than %" PRIu64 " bytes", field, text, max);
    return v;
}

/* A flow attribute's row of libcc_flow_params: its unit and range. */
static const libcc_param_desc *flow_row(const char *name)
{
    const libcc_param_desc *t;
    size_t n;
    libcc_flow_params(&t, &n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(t[i].name, name) == 0)
            return &t[i];
    return NULL;
}

/* A flow attribute from text: whole base units of its row's unit (a bare
 * number of bytes for the MTU), within the row's range; an MTU of 0 is the
 * library's default. On failure *why says what is wrong, with the range. */
static bool flow_value(const libcc_param_desc *d, const char *text, uint64_t *v, char *why,
                       size_t len)
{
    const bool mtu = strcmp(d->name, "mtu") == 0;
    const char *w;
    if (!(mtu && integer_u64(text, v)) && !value_u64(d->unit, text, v, &w)) {
        snprintf(why, len, "%s: expected %s", w, unit_hint(d->unit));
        return false;
    }
    if ((mtu && *v == 0) || ((double)*v >= d->min && (double)*v <= d->max))
        return true;
    char lo[48], hi[48];
    libcc_format_value(d->unit, d->min, lo, sizeof lo);
    libcc_format_value(d->unit, d->max, hi, sizeof hi);
    snprintf(why, len, "out of range [%s, %s]%s", lo, hi, mtu ? " (0: the default)" : "");
    return false;
}

/* ------------------------------------------------------------------ */
/* CSV                                                                 */
/* ------------------------------------------------------------------ */

static void csv_header(replay *r)
{
    fputs("time_ns,event,rate_bps,window_bytes", r->out);
    for (size_t i = 0; i < r->n_vars; i++)
        fprintf(r->out, ",%s", r->vars[i].name);
    fputc('\n', r->out);
}

static void csv_row(replay *r, uint64_t t, const char *event)
{
    uint64_t w = libcc_rp_window_bytes(r->rp);
    fprintf(r->out, "%" PRIu64 ",%s,%" PRIu64 ",", t, event, libcc_rp_rate_bps(r->rp));
    if (w == LIBCC_WINDOW_UNLIMITED)
        fputs("inf", r->out);
    else
        fprintf(r->out, "%" PRIu64, w);
    if (r->n_vars && libcc_rp_read_vars(r->rp, r->values, r->n_vars) != LIBCC_OK)
        fail(r, "libcc_rp_read_vars failed");
    for (size_t i = 0; i < r->n_vars; i++)
        fprintf(r->out, ",%.15g", r->values[i]);
    fputc('\n', r->out);
}

/* ------------------------------------------------------------------ */
/* The host's side of the RP                                           */
/* ------------------------------------------------------------------ */

static void cb_deadline(libcc_rp *rp, uint64_t deadline_ns, void *user_data)
{
    replay *r = user_data;
    (void)rp;
    r->deadline = deadline_ns;
}

/* There is no network to send a probe into; the ACK that would answer it
 * is whatever the trace says next. */
static void cb_probe(libcc_rp *rp, uint64_t now_ns, void *user_data)
{
    (void)rp, (void)now_ns, (void)user_data;
}

/* After every call into the RP: the callback and the getter must agree,
 * or a real host following the callback would fire timers at wrong times. */
static void check_call(replay *r, int rv, const char *event)
{
    uint64_t d = libcc_rp_deadline_ns(r->rp);
    if (d != r->deadline && !r->warned_deadline) {
        warn_at(r, r->line, "%s: deadline_changed said %" PRIu64 " but libcc_rp_deadline_ns says %" PRIu64
                ": following the callback", event, r->deadline, d);
        r->warned_deadline = true;
    }
    if (rv == LIBCC_ERR_UNSUPPORTED) {
        if (!r->warned_unsupported)
            warn_at(r, r->line, "%s: not supported by %s, ignored", event, libcc_rp_algorithm(r->rp));
        r->warned_unsupported = true;
        return;
    }
    if (rv != LIBCC_OK)
        fail(r, "%s: %s", event, libcc_strerror(rv));
}

static void count_step(replay *r)
{
    if (++r->steps > r->opt->max_steps.value)
        fail(r, "more than %" PRIu64 " timer firings and samples: the trace needs an `end` line "
                "or --until, or raise --max-timers", r->opt->max_steps.value);
}

/* Fire every timer and sample due at or before `to`, in time order; a timer
 * and a sample at the same instant: the timer first, so the sample shows
 * the state a host would see then. */
static void advance(replay *r, uint64_t to)
{
    for (;;) {
        /* With @timers manual the trace's own `timer` lines are the calls. */
        uint64_t d = r->manual_timers ? LIBCC_NO_DEADLINE : r->deadline, s = r->next_sample;
        if ((d == LIBCC_NO_DEADLINE || d > to) && (s == UINT64_MAX || s > to))
            return;
        count_step(r);
        if (d <= s) {
            /* A deadline already in the past fires now: time never goes back. */
            uint64_t at = d < r->now ? r->now : d;
            check_call(r, libcc_rp_on_timer(r->rp, at), "timer");
            r->now = at;
            csv_row(r, at, "timer");
            if (r->deadline != LIBCC_NO_DEADLINE && r->deadline <= at)
                fail(r, "timer at %" PRIu64 " ns: the %s deadline did not advance (now %" PRIu64
                        " ns): stopping rather than looping", at, libcc_rp_algorithm(r->rp), r->deadline);
        } else {
            csv_row(r, s, "sample");
            r->next_sample = s > UINT64_MAX - r->opt->sample.value ? UINT64_MAX
                                                                    : s + r->opt->sample.value;
        }
    }
}

/* ------------------------------------------------------------------ */
/* Header: directives, then creation of the RP                         */
/* ------------------------------------------------------------------ */

/* A second value for a flow key, on one @flow line or another, would
 * silently replace the first: which one the author meant is unknowable. */
static void flow_key(replay *r, setting *s, const char *key)
{
    if (s->set)
        fail(r, "@flow %s: given twice (first on line %lu)", key, s->line);
    s->set = true;
    s->line = r->line;
}

/* The same for a field of an event line. */
static void once(const replay *r, bool *seen, const char *event, const char *field)
{
    if (*seen)
        fail(r, "%s: field %s= given twice", event, field);
    *seen = true;
}

static void directive(replay *r, char *line)
{
    char *save = NULL;
    char *word = line;
    char *rest = line + strcspn(line, SPACES);
    size_t len;

    if (*rest)
        *rest++ = '\0';
    rest += strspn(rest, SPACES);
    len = strlen(rest);
    while (len && strchr(SPACES, rest[len - 1]))
        rest[--len] = '\0';
    if (r->started)
        fail(r, "directive %s after the first event: directives come first", word);
    if (strcmp(word, "@algo") == 0) {
        char *name = strtok_r(rest, SPACES, &save);
        if (!name || strtok_r(NULL, SPACES, &save))
            fail(r, "@algo: expected one algorithm name (libcc-replay --list)");
        if (r->algo_dir)
            fail(r, "@algo: given twice (first on line %lu)", r->algo_line);
        r->algo_dir = xstrdup(r, name);
        r->algo_line = r->line;
    } else if (strcmp(word, "@param") == 0) {
        if (!*rest)
            fail(r, "@param: expected name=value");
        hdr_param *grown = realloc(r->hparams, (r->n_hparams + 1) * sizeof *r->hparams);
        if (!grown)
            die_io(r, "out of memory");
        r->hparams = grown;
        r->hparams[r->n_hparams].line = r->line;
        r->hparams[r->n_hparams].text = NULL; /* counted before xstrdup can unwind */
        r->n_hparams++;
        r->hparams[r->n_hparams - 1].text = xstrdup(r, rest);
    } else if (strcmp(word, "@flow") == 0) {
        char *kv;
        bool any = false;
        for (kv = strtok_r(rest, SPACES, &save); kv; kv = strtok_r(NULL, SPACES, &save)) {
            char *val = strchr(kv, '=');
            any = true;
            if (!val)
                fail(r, "@flow: '%s': expected key=value", kv);
            *val++ = '\0';
            const libcc_param_desc *row = flow_row(kv);
            if (row) {
                /* line_rate, base_rtt, mtu: parsed and checked by libcc's own table */
                setting *st = strcmp(kv, "line_rate") == 0 ? &r->line_rate
                              : strcmp(kv, "base_rtt") == 0 ? &r->base_rtt
                                                            : &r->mtu;
                char why[160];
                flow_key(r, st, kv);
                if (!flow_value(row, val, &st->value, why, sizeof why))
                    fail(r, "@flow %s '%s': %s", kv, val, why);
            } else if (strcmp(kv, "flow_id") == 0) {
                flow_key(r, &r->flow_id, kv);
                r->flow_id.value = need_integer(r, "@flow flow_id", val, UINT64_MAX);
            } else {
                fail(r, "@flow: unknown key '%s' (expected line_rate, base_rtt, mtu, flow_id)", kv);
            }
        }
        if (!any)
            fail(r, "@flow: expected key=value (line_rate, base_rtt, mtu, flow_id)");
    } else if (strcmp(word, "@start") == 0) {
        char *t = strtok_r(rest, SPACES, &save);
        if (!t || strtok_r(NULL, SPACES, &save))
            fail(r, "@start: expected one time, e.g. @start 1ms");
        flow_key(r, &r->start_at, "@start");
        r->start_at.value = need_value(r, LIBCC_UNIT_NS, "@start", t);
    } else if (strcmp(word, "@timers") == 0) {
        char *m = strtok_r(rest, SPACES, &save);
        if (!m || strtok_r(NULL, SPACES, &save) || (strcmp(m, "manual") != 0 && strcmp(m, "auto") != 0))
            fail(r, "@timers: expected auto (fire the RP's timer at its deadlines) or manual "
                    "(the trace's timer lines are the only timer calls)");
        if (r->timers_line)
            fail(r, "@timers: given twice (first on line %lu)", r->timers_line);
        r->timers_line = r->line;
        r->manual_timers = strcmp(m, "manual") == 0;
    } else if (strcmp(word, "@int") == 0) {
        char *kv;
        bool any = false;
        if (r->int_line)
            fail(r, "@int: given twice (first on line %lu)", r->int_line);
        r->int_line = r->line;
        for (kv = strtok_r(rest, SPACES, &save); kv; kv = strtok_r(NULL, SPACES, &save)) {
            char *val = strchr(kv, '=');
            any = true;
            if (!val)
                fail(r, "@int: '%s': expected key=value", kv);
            *val++ = '\0';
            unsigned *bits = strcmp(kv, "ts_bits") == 0 ? &r->ts_bits
                             : strcmp(kv, "tx_bits") == 0 ? &r->tx_bits
                                                          : NULL;
            if (!bits)
                fail(r, "@int: unknown key '%s' (expected ts_bits, tx_bits)", kv);
            uint64_t b = need_integer(r, kv, val, 64);
            if (b == 0)
                fail(r, "@int %s '%s': expected an integer from 1 to 64", kv, val);
            *bits = (unsigned)b;
        }
        if (!any)
            fail(r, "@int: expected ts_bits=N and/or tx_bits=N");
    } else {
        fail(r, "unknown directive '%s' (expected @algo, @param, @flow, @start, @timers, @int)", word);
    }
}

static uint64_t pick(setting cli, setting dir, uint64_t def)
{
    return cli.set ? cli.value : dir.set ? dir.value : def;
}

/* The RP is created at time 0 with everything the header and the command
 * line said; the command line wins. */
static void start(replay *r)
{
    const options *o = r->opt;
    const char *algo = o->algo ? o->algo : r->algo_dir;
    bool dir_params = true;
    libcc_flow_info flow;
    /* Rows read rate and window with the getters after every call; only the
     * deadline has to be followed as it changes, as a host's timer would. */
    libcc_rp_callbacks cbs = {NULL, NULL, cb_deadline, cb_probe};
    double hops;
    int rv;

    r->started = true;
    if (!algo)
        fail_at(r, 0, "no algorithm: give @algo NAME in the trace or --algo NAME");
    rv = libcc_params_new(&r->params, algo);
    if (rv != LIBCC_OK)
        fail_at(r, o->algo ? 0 : r->algo_line, "%s '%s': %s (libcc-replay --list)",
                o->algo ? "--algo" : "@algo", algo, libcc_strerror(rv));

    /* A trace's @param lines belong to its @algo: replaying it with another
     * algorithm (to compare) must not fail on names that one lacks. */
    if (o->algo && r->algo_dir && strcmp(o->algo, r->algo_dir) != 0) {
        dir_params = false;
        if (r->n_hparams)
            warn_at(r, 0, "@param lines are for %s, ignored with --algo %s", r->algo_dir, o->algo);
    }
    for (size_t i = 0; dir_params && i < r->n_hparams; i++) {
        rv = libcc_params_parse(r->params, r->hparams[i].text);
        if (rv != LIBCC_OK) {
            const char *e = libcc_params_error(r->params);
            fail_at(r, r->hparams[i].line, "@param %s: %s", r->hparams[i].text,
                    *e ? e : libcc_strerror(rv));
        }
    }
    for (size_t i = 0; i < o->n_params; i++) {
        rv = libcc_params_parse(r->params, o->params[i]);
        if (rv != LIBCC_OK) {
            const char *e = libcc_params_error(r->params);
            fail_cli(r, "--param %s: %s", o->params[i], *e ? e : libcc_strerror(rv));
        }
    }

    /* Relations between parameters (kmin <= kmax ...) are checked here so
     * the message names them; libcc_rp_new would only return the code. */
    rv = libcc_params_validate(r->params);
    if (rv != LIBCC_OK) {
        const char *e = libcc_params_error(r->params);
        fail_at(r, 0, "parameters of %s: %s", algo, *e ? e : libcc_strerror(rv));
    }

    r->max_hops = LIBCC_INT_MAX_HOPS;
    if (libcc_params_get(r->params, "max_hops", &hops) == LIBCC_OK && hops >= 1 &&
        hops < LIBCC_INT_MAX_HOPS)
        r->max_hops = (unsigned)hops;

    if (!o->line_rate.set && !r->line_rate.set)
        fail_at(r, 0, "no line rate: give @flow line_rate=100Gbps in the trace or --line-rate");
    memset(&flow, 0, sizeof flow);
    flow.flow_id = pick((setting){false, 0, 0}, r->flow_id, 1);
    flow.line_rate_bps = pick(o->line_rate, r->line_rate, 0);
    flow.base_rtt_ns = pick(o->base_rtt, r->base_rtt, 0);
    flow.mtu_bytes = (uint32_t)pick(o->mtu, r->mtu, 0);

    r->deadline = LIBCC_NO_DEADLINE;
    r->now = r->start_at.value;
    rv = libcc_rp_new(&r->rp, r->params, &flow, &cbs, r, r->now);
    if (rv != LIBCC_OK)
        fail_at(r, 0, "cannot create the %s reaction point (line_rate %" PRIu64 " bps, base_rtt %" PRIu64
                      " ns, mtu %" PRIu32 " B): %s", algo, flow.line_rate_bps, flow.base_rtt_ns,
                flow.mtu_bytes, libcc_strerror(rv));
    /* Creation need not announce the first deadline through the callback. */
    r->deadline = libcc_rp_deadline_ns(r->rp);

    if (libcc_rp_vars(r->rp, &r->vars, &r->n_vars) != LIBCC_OK) {
        r->vars = NULL;
        r->n_vars = 0;
    }
    r->values = xcalloc(r, r->n_vars, sizeof *r->values);
    r->next_sample = o->sample.set ? r->now : UINT64_MAX;
    csv_header(r);
    csv_row(r, r->now, "start");
}

/* ------------------------------------------------------------------ */
/* Events                                                              */
/* ------------------------------------------------------------------ */

static void parse_hop(replay *r, libcc_int_list *ints, char *text)
{
    static const char *const names[4] = {"B", "ts", "txBytes", "qlen"};
    unsigned k = ints->n_hops + 1u;
    char *field[4];
    char *p = text;
    char what[160];
    libcc_int_hop hop;
    int rv;

    if (strlen(text) >= sizeof what)
        fail(r, "hop #%u: too long", k);
    strcpy(what, text); /* for messages: the fields below are cut in place */
    for (int i = 0; i < 4; i++) {
        field[i] = p;
        p = strchr(p, ',');
        if (i < 3) {
            if (!p)
                fail(r, "hop #%u '%s': expected 4 fields B,ts,txBytes,qlen", k, what);
            *p++ = '\0';
        } else if (p) {
            fail(r, "hop #%u: more than 4 fields (expected B,ts,txBytes,qlen)", k);
        }
    }
    memset(&hop, 0, sizeof hop);
    snprintf(what, sizeof what, "hop #%u %s", k, names[0]);
    hop.bandwidth_bps = need_value(r, LIBCC_UNIT_BPS, what, field[0]);
    snprintf(what, sizeof what, "hop #%u %s", k, names[1]);
    hop.ts_ns = need_value(r, LIBCC_UNIT_NS, what, field[1]);
    snprintf(what, sizeof what, "hop #%u %s", k, names[2]);
    hop.tx_bytes = need_bytes(r, what, field[2], UINT64_MAX);
    snprintf(what, sizeof what, "hop #%u %s", k, names[3]);
    hop.qlen_bytes = need_bytes(r, what, field[3], UINT64_MAX);
    /* Hops are identified by their position on the path. */
    hop.switch_id = k - 1;
    rv = libcc_int_list_push(ints, &hop, r->max_hops);
    if (rv == LIBCC_ERR_FULL)
        fail(r, "hop #%u: too many hops (max_hops is %u)", k, r->max_hops);
    if (rv != LIBCC_OK)
        fail(r, "hop #%u: %s", k, libcc_strerror(rv));
}

/* The ACK's hops go to *ints, which the ACK then points at. */
static void parse_ack(replay *r, const char *event, uint64_t t, char **save, libcc_ack *ack,
                      libcc_int_list *ints)
{
    char *kv;
    bool have_seq = false, have_n = false, have_rxwin = false, have_ecn = false, have_probe = false;
    bool have_txts = false, have_rtt = false, have_rxts = false, have_rrx = false, have_rtx = false,
         have_hops = false, have_pint = false;
    uint64_t rtt = 0;

    memset(ack, 0, sizeof *ack);
    libcc_int_list_init(ints);
    ints->ts_bits = (uint8_t)r->ts_bits;
    ints->tx_bits = (uint8_t)r->tx_bits;
    ack->int_list = ints;
    while ((kv = strtok_r(NULL, SPACES, save))) {
        char *val = strchr(kv, '=');
        if (!val)
            fail(r, "%s: '%s': expected key=value", event, kv);
        *val++ = '\0';
        if (strcmp(kv, "seq") == 0) {
            once(r, &have_seq, event, kv);
            ack->seq = need_integer(r, "seq", val, UINT64_MAX);
        } else if (strcmp(kv, "n") == 0) {
            once(r, &have_n, event, kv);
            ack->n_flows = (uint32_t)need_integer(r, "n", val, UINT32_MAX);
        } else if (strcmp(kv, "rxwin") == 0) {
            once(r, &have_rxwin, event, kv);
            ack->rx_window_bytes = need_bytes(r, "rxwin", val, UINT64_MAX);
        } else if (strcmp(kv, "ecn") == 0) {
            once(r, &have_ecn, event, kv);
            ack->ecn_echo = (uint8_t)need_integer(r, "ecn", val, 1);
        } else if (strcmp(kv, "probe") == 0) {
            once(r, &have_probe, event, kv);
            ack->is_probe = (uint8_t)need_integer(r, "probe", val, 1);
        } else if (strcmp(kv, "hop") == 0) {
            parse_hop(r, ints, val);
        } else if (strcmp(kv, "txts") == 0) {
            once(r, &have_txts, event, kv);
            ack->tx_ts_ns = need_value(r, LIBCC_UNIT_NS, "txts", val);
            ack->has |= LIBCC_ACK_HAS_TX_TS;
        } else if (strcmp(kv, "rtt") == 0) {
            once(r, &have_rtt, event, kv);
            rtt = need_value(r, LIBCC_UNIT_NS, "rtt", val);
        } else if (strcmp(kv, "rxts") == 0) {
            once(r, &have_rxts, event, kv);
            ack->rx_ts_ns = need_value(r, LIBCC_UNIT_NS, "rxts", val);
            ack->has |= LIBCC_ACK_HAS_RX_TS;
        } else if (strcmp(kv, "rrx") == 0) {
            once(r, &have_rrx, event, kv);
            ack->remote_rx_ts_ns = need_value(r, LIBCC_UNIT_NS, "rrx", val);
        } else if (strcmp(kv, "rtx") == 0) {
            once(r, &have_rtx, event, kv);
            ack->remote_tx_ts_ns = need_value(r, LIBCC_UNIT_NS, "rtx", val);
        } else if (strcmp(kv, "hops") == 0) {
            once(r, &have_hops, event, kv);
            ack->n_hops = (uint8_t)need_integer(r, "hops", val, UINT8_MAX);
        } else if (strcmp(kv, "pint") == 0) {
            once(r, &have_pint, event, kv);
            ack->pint = (uint16_t)need_integer(r, "pint", val, UINT16_MAX);
            ack->has |= LIBCC_ACK_HAS_PINT;
        } else {
            fail(r,
                 "%s: unknown field '%s' (expected seq, n, rxwin, hop, ecn, probe, rtt, txts, rxts, "
                 "rrx, rtx, hops, pint)",
                 event, kv);
        }
    }
    if (!have_seq)
        fail(r, "%s: seq= is required", event);
    if (have_rtt && have_txts)
        fail(r, "%s: rtt= and txts= both give the transmit time: use one", event);
    if (have_rrx != have_rtx)
        fail(r, "%s: rrx= and rtx= go together (the receiver's two timestamps)", event);
    if (have_rrx)
        ack->has |= LIBCC_ACK_HAS_REMOTE_TS;
    if (have_rtt) {
        /* rtt= is the sample itself: the data left rtt before the ACK arrived */
        const uint64_t arrival = have_rxts ? ack->rx_ts_ns : t;
        if (rtt > arrival)
            fail(r, "%s: rtt= %" PRIu64 " ns is longer than the time since 0 (%" PRIu64 " ns)", event,
                 rtt, arrival);
        ack->tx_ts_ns = arrival - rtt;
        ack->has |= LIBCC_ACK_HAS_TX_TS;
    }
}

static void no_fields(replay *r, const char *event, char **save)
{
    char *extra = strtok_r(NULL, SPACES, save);
    if (extra)
        fail(r, "%s: unexpected field '%s' (%s takes none)", event, extra, event);
}

/* Returns false when the replay is over (`end`, or past --until). */
static bool event(replay *r, char *line)
{
    char *save = NULL;
    char *ttext = strtok_r(line, SPACES, &save);
    char *name = strtok_r(NULL, SPACES, &save);
    uint64_t t = need_value(r, LIBCC_UNIT_NS, "time", ttext);
    const options *o = r->opt;
    libcc_ack ack;
    libcc_int_list ack_ints;
    int rv;

    if (!name)
        fail(r, "time %s: missing event (tx, ack, nack, cnp, feedback, timer, timeout, end)", ttext);
    if (r->started && t < r->last_event)
        fail(r, "time %s (%" PRIu64 " ns) is earlier than the previous event (%" PRIu64 " ns)",
             ttext, t, r->last_event);
    if (!r->started)
        start(r);
    if (t < r->start_at.value)
        fail(r, "time %s (%" PRIu64 " ns) is before @start (%" PRIu64 " ns)", ttext, t,
             r->start_at.value);
    r->last_event = t;
    if (o->until.set && t > o->until.value) {
        advance(r, o->until.value);
        csv_row(r, o->until.value, "end");
        return false;
    }

    /* Parse the whole line before anything happens at this time, so a bad
     * line changes nothing. */
    if (strcmp(name, "tx") == 0) {
        char *kv;
        uint64_t seq = 0, bytes = 0;
        bool have_seq = false, have_bytes = false;
        unsigned flags = 0;
        while ((kv = strtok_r(NULL, SPACES, &save))) {
            char *val = strchr(kv, '=');
            if (!val)
                fail(r, "tx: '%s': expected key=value", kv);
            *val++ = '\0';
            if (strcmp(kv, "seq") == 0) {
                once(r, &have_seq, "tx", kv);
                seq = need_integer(r, "seq", val, UINT64_MAX);
            } else if (strcmp(kv, "bytes") == 0) {
                once(r, &have_bytes, "tx", kv);
                bytes = need_bytes(r, "bytes", val, UINT32_MAX);
            } else {
                fail(r, "tx: unknown field '%s' (expected seq, bytes)", kv);
            }
        }
        if (!have_seq || !have_bytes)
            fail(r, "tx: seq= and bytes= are required");
        advance(r, t);
        r->now = t;
        check_call(r, libcc_rp_on_tx(r->rp, t, seq, (uint32_t)bytes, &flags), "tx");
        csv_row(r, t, "tx");
    } else if (strcmp(name, "ack") == 0 || strcmp(name, "nack") == 0) {
        parse_ack(r, name, t, &save, &ack, &ack_ints);
        advance(r, t);
        r->now = t;
        rv = name[0] == 'a' ? libcc_rp_on_ack(r->rp, t, &ack) : libcc_rp_on_nack(r->rp, t, &ack);
        check_call(r, rv, name);
        csv_row(r, t, name);
    } else if (strcmp(name, "cnp") == 0) {
        no_fields(r, name, &save);
        advance(r, t);
        r->now = t;
        check_call(r, libcc_rp_on_cnp(r->rp, t), "cnp");
        csv_row(r, t, "cnp");
    } else if (strcmp(name, "feedback") == 0) {
        char *kv;
        libcc_feedback fb;
        bool have_rate = false, have_switch = false, have_port = false;
        memset(&fb, 0, sizeof fb);
        while ((kv = strtok_r(NULL, SPACES, &save))) {
            char *val = strchr(kv, '=');
            if (!val)
                fail(r, "feedback: '%s': expected key=value", kv);
            *val++ = '\0';
            if (strcmp(kv, "rate") == 0) {
                once(r, &have_rate, "feedback", kv);
                fb.rate_bps = need_value(r, LIBCC_UNIT_BPS, "rate", val);
            } else if (strcmp(kv, "switch") == 0) {
                once(r, &have_switch, "feedback", kv);
                fb.switch_id = (uint32_t)need_integer(r, "switch", val, UINT32_MAX);
            } else if (strcmp(kv, "port") == 0) {
                once(r, &have_port, "feedback", kv);
                fb.port_id = (uint32_t)need_integer(r, "port", val, UINT32_MAX);
            } else {
                fail(r, "feedback: unknown field '%s' (expected rate, switch, port)", kv);
            }
        }
        if (!have_rate)
            fail(r, "feedback: rate= is required");
        advance(r, t);
        r->now = t;
        check_call(r, libcc_rp_on_feedback(r->rp, t, &fb), "feedback");
        csv_row(r, t, "feedback");
    } else if (strcmp(name, "timer") == 0) {
        no_fields(r, name, &save);
        advance(r, t);
        r->now = t;
        check_call(r, libcc_rp_on_timer(r->rp, t), "timer");
        csv_row(r, t, "timer");
    } else if (strcmp(name, "timeout") == 0) {
        no_fields(r, name, &save);
        advance(r, t);
        r->now = t;
        check_call(r, libcc_rp_on_timeout(r->rp, t), "timeout");
        csv_row(r, t, "timeout");
    } else if (strcmp(name, "end") == 0) {
        no_fields(r, name, &save);
        advance(r, t);
        csv_row(r, t, "end");
        return false;
    } else {
        fail(r, "unknown event '%s' (expected tx, ack, nack, cnp, feedback, timer, end)", name);
    }
    return true;
}

static void run(replay *r, FILE *in)
{
    bool going = true;
    ssize_t n;

    while (going && (n = getline(&r->linebuf, &r->linecap, in)) >= 0) {
        char *buf = r->linebuf, *p, *hash;
        r->line++;
        /* C strings end at a NUL: whatever follows it on the line would be
         * dropped without a word. */
        if (strlen(buf) != (size_t)n)
            fail(r, "NUL byte at column %zu: a trace is text", strlen(buf) + 1);
        if ((hash = strchr(buf, '#')))
            *hash = '\0';
        p = buf + strspn(buf, SPACES);
        if (!*p)
            continue;
        if (*p == '@')
            directive(r, p);
        else
            going = event(r, p);
    }
    if (ferror(in))
        die_io(r, "read error on the trace");
    if (!going)
        return;
    r->line = 0;
    if (!r->started)
        start(r);
    /* Without `end`, --until says how far the timers run; without either,
     * the replay stops at the last event rather than guess. */
    if (r->opt->until.set) {
        advance(r, r->opt->until.value);
        csv_row(r, r->opt->until.value, "end");
    }
}

/* ------------------------------------------------------------------ */
/* Command line                                                        */
/* ------------------------------------------------------------------ */

static void usage(FILE *f)
{
    fputs("usage: libcc-replay [options] TRACE|-\n"
          "Replay an event trace through one libcc Reaction Point; print the\n"
          "rate/window timeline as CSV (docs/replay.md).\n"
          "\n"
          "  --algo NAME          algorithm (overrides @algo); --list shows them\n"
          "  --param NAME=VALUE   set a parameter (repeatable; overrides @param)\n"
          "  --line-rate RATE     NIC line rate, e.g. 100Gbps (overrides @flow)\n"
          "  --base-rtt TIME      base RTT, e.g. 12us (overrides @flow)\n"
          "  --mtu SIZE           bytes per full packet, e.g. 1000B (overrides @flow)\n"
          "  --sample INTERVAL    also print a row every INTERVAL, e.g. 1us\n"
          "  --until TIME         stop at TIME; without `end`, run timers up to it\n"
          "  --max-timers N       at most N timer firings + samples (default 1000000)\n"
          "  --plugin PATH.so     load a plugin's algorithms first (repeatable)\n"
          "  --list               list the algorithms, one a line\n"
          "  --list --json        every algorithm's roles, parameters and presets as JSON\n"
          "  --help               this text; with --algo NAME, its parameters too\n"
          "\n"
          "Exit status: 0 ok, 2 bad usage, trace line or algorithm error, 1 I/O.\n",
          f);
}

static void help_table(FILE *out, const libcc_param_desc *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char def[64], lo[64], hi[64];
        const char *unit = libcc_unit_name(t[i].unit);
        libcc_format_value(t[i].unit, t[i].def, def, sizeof def);
        libcc_format_value(t[i].unit, t[i].min, lo, sizeof lo);
        libcc_format_value(t[i].unit, t[i].max, hi, sizeof hi);
        fprintf(out, "  %-30s [%s] default %s, range %s .. %s\n      %s\n", t[i].name,
               *unit ? unit : "ratio", def, lo, hi, t[i].doc ? t[i].doc : "");
    }
}

static void help_algo(replay *r, const char *algo)
{
    const libcc_param_desc *t;
    size_t n;
    int rv = libcc_algorithm_params(algo, &t, &n);
    if (rv != LIBCC_OK)
        fail_cli(r, "--algo '%s': %s (libcc-replay --list)", algo, libcc_strerror(rv));
    fprintf(r->out, "\nParameters of %s (--param NAME=VALUE or @param NAME=VALUE):\n", algo);
    help_table(r->out, t, n);
    libcc_common_params(&t, &n);
    fprintf(r->out, "\nCommon parameters (every algorithm):\n");
    help_table(r->out, t, n);
}

/* ------------------------------------------------------------------ */
/* --list --json                                                       */
/* ------------------------------------------------------------------ */

/* The registry as JSON, for scripts that would otherwise scrape --help
 * (docs/replay.md gives the schema). Numbers are base units (bits/s, ns,
 * bytes) printed with 17 significant digits, so they read back as the same
 * double; the *_text twins are libcc_format_value's. */
static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

static void json_number(FILE *out, double v)
{
    if (v != v || v - v != 0) /* NaN or infinite: JSON has neither */
        fputs("null", out);
    else
        fprintf(out, "%.17g", v);
}

static void json_params(FILE *out, const libcc_param_desc *t, size_t n)
{
    fputc('[', out);
    for (size_t i = 0; i < n; i++) {
        static const char *const keys[3] = {"default", "min", "max"};
        const double vals[3] = {t[i].def, t[i].min, t[i].max};
        const char *unit = libcc_unit_name(t[i].unit);
        fprintf(out, "%s\n    {\"name\": ", i ? "," : "");
        json_string(out, t[i].name);
        fputs(", \"unit\": ", out);
        json_string(out, *unit ? unit : "ratio");
        for (int k = 0; k < 3; k++) {
            char text[64];
            libcc_format_value(t[i].unit, vals[k], text, sizeof text);
            fprintf(out, ", \"%s\": ", keys[k]);
            json_number(out, vals[k]);
            fprintf(out, ", \"%s_text\": ", keys[k]);
            json_string(out, text);
        }
        fputs(", \"doc\": ", out);
        json_string(out, t[i].doc);
        fputc('}', out);
    }
    fputs(n ? "\n  ]" : "]", out);
}

static void list_json(FILE *out)
{
    static const struct {
        unsigned bit;
        const char *name;
    } roles[] = {{LIBCC_ROLE_RP, "rp"}, {LIBCC_ROLE_NP, "np"}, {LIBCC_ROLE_CP, "cp"}};
    const libcc_param_desc *t;
    size_t n;

    fputs("{\"algorithms\": [", out);
    for (const char *const *a = libcc_algorithms(); *a; a++) {
        libcc_algorithm_info info;
        const libcc_preset_desc *p;
        size_t np = 0;
        const char *sep = "";
        if (libcc_algorithm_info_get(*a, &info) != LIBCC_OK ||
            libcc_algorithm_params(*a, &t, &n) != LIBCC_OK)
            continue; /* a registered name always has both */
        if (libcc_algorithm_presets(*a, &p, &np) != LIBCC_OK)
            np = 0;
        fprintf(out, "%s\n {\"name\": ", a == libcc_algorithms() ? "" : ",");
        json_string(out, *a);
        fputs(", \"roles\": [", out);
        for (size_t k = 0; k < sizeof roles / sizeof roles[0]; k++)
            if (info.roles & roles[k].bit) {
                fprintf(out, "%s\"%s\"", sep, roles[k].name);
                sep = ", ";
            }
        fputs("],\n  \"params\": ", out);
        json_params(out, t, n);
        fputs(",\n  \"presets\": [", out);
        for (size_t k = 0; k < np; k++) {
            fprintf(out, "%s{\"name\": ", k ? ", " : "");
            json_string(out, p[k].name);
            fputs(", \"assignments\": ", out);
            json_string(out, p[k].assignments);
            fputs(", \"doc\": ", out);
            json_string(out, p[k].doc);
            fputc('}', out);
        }
        fputs("]}", out);
    }
    libcc_common_params(&t, &n);
    fputs("\n],\n \"common_params\": ", out);
    json_params(out, t, n);
    fputs("}\n", out);
}

static void opt_value(replay *r, setting *s, libcc_unit unit, const char *opt, const char *text)
{
    const char *why;
    if (!value_u64(unit, text, &s->value, &why))
        fail_cli(r, "%s '%s': %s: expected %s", opt, text, why, unit_hint(unit));
    s->set = true;
}

/* --line-rate, --base-rtt, --mtu: the same table and ranges as @flow. */
static void opt_flow(replay *r, setting *s, const char *row, const char *opt, const char *text)
{
    char why[160];
    if (!flow_value(flow_row(row), text, &s->value, why, sizeof why))
        fail_cli(r, "%s '%s': %s", opt, text, why);
    s->set = true;
}

static void parse_args(replay *r, int argc, char **argv)
{
    options *o = &r->o;
    o->params = xcalloc(r, (size_t)argc, sizeof *o->params);
    o->plugins = xcalloc(r, (size_t)argc, sizeof *o->plugins);
    o->max_steps.value = DEFAULT_MAX_STEPS;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL, *eq;
        char opt[32];
        size_t len;

        if (a[0] != '-' || strcmp(a, "-") == 0) {
            if (o->trace)
                fail_cli(r, "more than one trace: '%s' and '%s'", o->trace, a);
            o->trace = a;
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            o->help = true;
            continue;
        }
        if (strcmp(a, "--list") == 0) {
            o->list = true;
            continue;
        }
        if (strcmp(a, "--json") == 0) {
            o->json = true;
            continue;
        }
        /* --opt VALUE or --opt=VALUE */
        eq = strchr(a, '=');
        len = eq ? (size_t)(eq - a) : strlen(a);
        if (len >= sizeof opt)
            fail_cli(r, "unknown option '%s' (--help)", a);
        memcpy(opt, a, len);
        opt[len] = '\0';
        if (eq) {
            v = eq + 1;
        } else {
            if (i + 1 >= argc)
                fail_cli(r, "%s needs a value (--help)", opt);
            v = argv[++i];
        }
        if (strcmp(opt, "--algo") == 0) {
            o->algo = v;
        } else if (strcmp(opt, "--param") == 0) {
            o->params[o->n_params++] = v;
        } else if (strcmp(opt, "--plugin") == 0) {
            o->plugins[o->n_plugins++] = v;
        } else if (strcmp(opt, "--line-rate") == 0) {
            opt_flow(r, &o->line_rate, "line_rate", opt, v);
        } else if (strcmp(opt, "--base-rtt") == 0) {
            opt_flow(r, &o->base_rtt, "base_rtt", opt, v);
        } else if (strcmp(opt, "--mtu") == 0) {
            opt_flow(r, &o->mtu, "mtu", opt, v);
        } else if (strcmp(opt, "--sample") == 0) {
            opt_value(r, &o->sample, LIBCC_UNIT_NS, opt, v);
            if (o->sample.value == 0)
                fail_cli(r, "--sample '%s': the interval must be more than 0 ns", v);
        } else if (strcmp(opt, "--until") == 0) {
            opt_value(r, &o->until, LIBCC_UNIT_NS, opt, v);
        } else if (strcmp(opt, "--max-timers") == 0) {
            if (!integer_u64(v, &o->max_steps.value))
                fail_cli(r, "--max-timers '%s': expected an integer", v);
        } else {
            fail_cli(r, "unknown option '%s' (--help)", opt);
        }
    }
    if (o->json && !o->list)
        fail_cli(r, "--json: accepted only with --list (--help)");
}

/* Everything the tool holds, whether it finished or unwound. */
static void release(replay *r)
{
    if (r->opened)
        fclose(r->opened);
    libcc_rp_del(r->rp);
    libcc_params_del(r->params);
    for (size_t i = 0; i < r->n_hparams; i++)
        free(r->hparams[i].text);
    free(r->hparams);
    free(r->algo_dir);
    free(r->values);
    free(r->o.params);
    free(r->o.plugins);
    free(r->linebuf);
}

/* Plugins register their algorithms before anything names one: --list,
 * --help and @algo see them as built-ins. */
static void load_plugins(replay *r)
{
    for (size_t i = 0; i < r->o.n_plugins; i++) {
        char err[256] = "";
        const int rv = libcc_plugin_load(r->o.plugins[i], err, sizeof err);
        if (rv != LIBCC_OK)
            fail_cli(r, "--plugin '%s': %s", r->o.plugins[i], *err ? err : libcc_strerror(rv));
    }
}

static int tool(replay *r, int argc, char **argv, FILE *in)
{
    const options *o = &r->o;
    parse_args(r, argc, argv);
    load_plugins(r);
    if (o->help) {
        usage(r->out);
        if (o->algo)
            help_algo(r, o->algo);
        return fflush(r->out) == 0 ? 0 : EXIT_IO;
    }
    if (o->list) {
        if (o->json)
            list_json(r->out);
        else
            for (const char *const *n = libcc_algorithms(); *n; n++)
                fprintf(r->out, "%s\n", *n);
        return fflush(r->out) == 0 && !ferror(r->out) ? 0 : EXIT_IO;
    }
    if (!o->trace) {
        usage(r->err);
        return EXIT_TRACE;
    }
    if (strcmp(o->trace, "-") == 0) {
        r->name = "<stdin>";
    } else {
        r->name = o->trace;
        in = r->opened = fopen(o->trace, "r");
        if (!in) {
            fprintf(r->err, "libcc-replay: cannot open %s: %s\n", o->trace, strerror(errno));
            return EXIT_IO;
        }
    }
    run(r, in);
    if (fflush(r->out) != 0 || ferror(r->out))
        die_io(r, "write error on stdout");
    return 0;
}

int libcc_replay_main(int argc, char **argv, FILE *in, FILE *out, FILE *err)
{
    int status;
    replay *r = calloc(1, sizeof *r);
    if (!r) {
        fputs("libcc-replay: out of memory\n", err);
        return EXIT_IO;
    }
    r->opt = &r->o;
    r->out = out;
    r->err = err;
    r->next_sample = UINT64_MAX;
    r->ts_bits = r->tx_bits = 64;
    if (setjmp(r->jump) == 0)
        status = tool(r, argc, argv, in);
    else
        status = r->exit_code;
    release(r);
    free(r);
    return status;
}

#ifndef LIBCC_REPLAY_NO_MAIN
int main(int argc, char **argv)
{
    return libcc_replay_main(argc, argv, stdin, stdout, stderr);
}
#endif
