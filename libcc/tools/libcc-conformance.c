/* SPDX-License-Identifier: MIT */
/*
 * libcc-conformance: libcc's own property checks on any registered
 * algorithm, a plugin's too (docs/conformance.md). One line per algorithm,
 * PASS or FAIL; a failure says which check, where and with which values,
 * and writes the failing run as a libcc-replay script that makes the same
 * calls again.
 *
 * Exit status: 0 every algorithm passed, 3 one failed a check, 2 bad
 * usage (an unknown algorithm, a plugin that does not load), 1 a trace
 * could not be written.
 */
#include "conformance/conformance.h"

#include <libcc/libcc.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EXIT_FAIL 3
#define EXIT_USAGE 2
#define EXIT_IO 1
#define DEFAULT_EVENTS 100000u


typedef struct options {
    const char **algos;
    size_t n_algos;
    conf_config cfg;
    const char *trace_dir;
    int events_set, duration_set;
} options;

static void usage(FILE *f)
{
    fputs("usage: libcc-conformance [options]\n"
          "Run libcc's property checks on registered algorithms (docs/conformance.md).\n"
          "\n"
          "  --algo=NAME        an algorithm to check (repeatable; default: every registered one)\n"
          "  --plugin=PATH.so   load a plugin first (repeatable)\n"
          "  --events=N         RP events per algorithm (default 100000; NP and CP a quarter each)\n"
          "  --duration=TIME    instead: run each algorithm for TIME of wall-clock time, e.g. 10s\n"
          "  --seed=N           the generator's seed (default 1): the same seed, the same calls\n"
          "  --params=TEXT      also run this parameter set (libcc_params_parse syntax), first\n"
          "  --trace-dir=DIR    where failing runs are written as libcc-replay scripts (default .)\n"
          "  --help             this text\n"
          "\n"
          "Exit status: 0 all passed, 3 a check failed, 2 bad usage, 1 I/O error.\n",
          f);
}

static int bad(const char *fmt, const char *a, const char *b)
{
    fputs("libcc-conformance: ", stderr);
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return EXIT_USAGE;
}

static int load_plugin(const char *path)
{
    char err[256] = "";
    const int rc = libcc_plugin_load(path, err, sizeof err);
    if (rc != LIBCC_OK)
        return bad("--plugin '%s': %s", path, *err ? err : libcc_strerror(rc));
    return 0;
}

static int whole(const char *text, uint64_t *v)
{
    char *end;
    if (!text || *text < '0' || *text > '9')
        return 0;
    errno = 0;
    unsigned long long x = strtoull(text, &end, 10);
    if (errno || *end)
        return 0;
    *v = x;
    return 1;
}

/* Options first (plugins load in order), then the algorithms are checked. */
static int parse(int argc, char **argv, options *o)
{
    o->algos = calloc((size_t)argc, sizeof *o->algos);
    if (!o->algos)
        return EXIT_IO;
    o->cfg.seed = 1;
    o->cfg.events = DEFAULT_EVENTS;
    o->cfg.steps_per_run = 600;
    o->trace_dir = ".";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *eq = strchr(a, '=');
        const char *v = eq ? eq + 1 : NULL;
        const size_t len = eq ? (size_t)(eq - a) : strlen(a);
#define IS(name) (len == sizeof(name) - 1 && strncmp(a, name, len) == 0)
        if (IS("--help") || IS("-h")) {
            usage(stdout);
            return -1;
        }
        if (!v)
            return bad("'%s': expected --option=VALUE (%s)", a, "--help");
        uint64_t n;
        if (IS("--algo")) {
            o->algos[o->n_algos++] = v;
        } else if (IS("--plugin")) {
            int rc = load_plugin(v);
            if (rc)
                return rc;
        } else if (IS("--events")) {
            if (!whole(v, &n) || n == 0)
                return bad("--events '%s': expected a whole number of events from 1 to %s", v,
                           "18446744073709551615");
            o->cfg.events = n;
            o->events_set = 1;
        } else if (IS("--duration")) {
            double ns;
            if (libcc_parse_value(LIBCC_UNIT_NS, v, &ns) != LIBCC_OK || !(ns > 0) || ns > 86400e9)
                return bad("--duration '%s': expected a time from 1ns to %s, e.g. 10s", v, "24h (86400s)");
            o->cfg.duration_s = ns * 1e-9;
            o->duration_set = 1;
        } else if (IS("--seed")) {
            if (!whole(v, &n))
                return bad("--seed '%s': expected a whole number from 0 to %s", v, "18446744073709551615");
            o->cfg.seed = n;
        } else if (IS("--params")) {
            o->cfg.params = v;
        } else if (IS("--trace-dir")) {
            if (!*v)
                return bad("--trace-dir '%s': expected a directory%s", v, "");
            o->trace_dir = v;
        } else {
            return bad("unknown option '%s' (%s)", a, "--help");
        }
#undef IS
    }
    if (o->events_set && o->duration_set)
        return bad("--events and --duration: give one (%s%s)", "--help", "");
    for (size_t i = 0; i < o->n_algos; i++) {
        libcc_algorithm_info info;
        if (libcc_algorithm_info_get(o->algos[i], &info) != LIBCC_OK)
            return bad("--algo '%s': no such algorithm (registered: %s)", o->algos[i],
                       "libcc-replay --list");
    }
    if (o->cfg.params && o->n_algos == 0)
        return bad("--params '%s': give the algorithms it is for with --algo (%s)", o->cfg.params,
                   "parameter names differ between algorithms");
    if (o->cfg.params) {
        /* a set that does not parse for an algorithm is a usage error, not a failed check */
        for (size_t i = 0; i < o->n_algos; i++) {
            libcc_params *p = NULL;
            libcc_params_new(&p, o->algos[i]);
            int rc = libcc_params_parse(p, o->cfg.params);
            if (rc == LIBCC_OK)
                rc = libcc_params_validate(p);
            if (rc != LIBCC_OK) {
                fprintf(stderr, "libcc-conformance: --params '%s': %s\n", o->cfg.params,
                        libcc_params_error(p));
                libcc_params_del(p);
                return EXIT_USAGE;
            }
            libcc_params_del(p);
        }
    }
    return 0;
}

/* The failing run as a replay script: DIR/conformance-ALGO-seedS-runR.trace. */
static int write_trace(const options *o, const char *algo, const conf_report *rep, char *path,
                       size_t len)
{
    conf_text t;
    memset(&t, 0, sizeof t);
    if (!conf_failure_script(algo, &o->cfg, rep, &t)) {
        conf_text_free(&t);
        return 0;
    }
    snprintf(path, len, "%s/conformance-%s-seed%" PRIu64 "-run%u.trace", o->trace_dir, algo,
             o->cfg.seed, rep->failure.run);
    FILE *f = fopen(path, "w");
    int rc = 1;
    if (!f || fwrite(t.buf, 1, t.len, f) != t.len)
        rc = -1;
    if (f && fclose(f) != 0)
        rc = -1;
    if (rc < 0)
        fprintf(stderr, "libcc-conformance: cannot write %s: %s\n", path, strerror(errno));
    conf_text_free(&t);
    return rc;
}

static const char *role_name(unsigned role)
{
    return role == LIBCC_ROLE_RP ? "RP" : role == LIBCC_ROLE_NP ? "NP" : role == LIBCC_ROLE_CP ? "CP" : "params";
}

int main(int argc, char **argv)
{
    options o;
    memset(&o, 0, sizeof o);
    int rc = parse(argc, argv, &o);
    if (rc) {
        free(o.algos);
        return rc < 0 ? 0 : rc;
    }
    if (o.n_algos == 0) {
        /* every registered algorithm, plugins' included (loaded by now) */
        size_t n = 0;
        while (libcc_algorithms()[n])
            n++;
        free(o.algos);
        o.algos = calloc(n + 1, sizeof *o.algos);
        if (!o.algos)
            return EXIT_IO;
        for (; o.n_algos < n; o.n_algos++)
            o.algos[o.n_algos] = libcc_algorithms()[o.n_algos];
    }
    unsigned passed = 0, failed = 0;
    int status = 0;
    for (size_t i = 0; i < o.n_algos; i++) {
        const char *algo = o.algos[i];
        conf_report rep;
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        const bool ok = conf_algorithm(algo, &o.cfg, &rep);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        const double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
        if (ok) {
            printf("PASS %s: %" PRIu64 " RP, %" PRIu64 " NP, %" PRIu64 " CP events in %u runs (%.2f s)\n",
                   algo, rep.rp_events, rep.np_events, rep.cp_events, rep.runs, s);
            passed++;
            continue;
        }
        failed++;
        if (status == 0)
            status = EXIT_FAIL;
        const conf_failure *f = &rep.failure;
        printf("FAIL %s: %s: %s run %u, step %u (%s): %s\n", algo, f->check, role_name(rep.role), f->run,
               f->step, f->event, f->detail);
        printf("  parameters: %s; seed %" PRIu64 "\n", *rep.set ? rep.set : "(defaults)", o.cfg.seed);
        char path[4096];
        const int w = write_trace(&o, algo, &rep, path, sizeof path);
        if (w > 0)
            printf("  replay: libcc-replay %s\n", path);
        else if (w < 0)
            status = EXIT_IO;
    }
    printf("conformance: %u passed, %u failed\n", passed, failed);
    free(o.algos);
    if (fflush(stdout) != 0)
        return EXIT_IO;
    return status;
}
