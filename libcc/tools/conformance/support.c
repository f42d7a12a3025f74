/* SPDX-License-Identifier: MIT */
/* The generator, failure records and the growable text the runs share. */
#include "conformance.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t conf_next(conf_prng *g)
{
    g->s ^= g->s >> 12;
    g->s ^= g->s << 25;
    g->s ^= g->s >> 27;
    return g->s * UINT64_C(2685821657736338717);
}

uint64_t conf_below(conf_prng *g, uint64_t n)
{
    return n ? conf_next(g) % n : 0;
}

/* splitmix64's finaliser: nearby inputs give unrelated states, and never
 * 0 (xorshift's fixed point) but for one input in 2^64. */
static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

conf_prng conf_run_prng(uint64_t seed, const char *algo, unsigned run, unsigned role)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325); /* FNV-1a of the name */
    for (const char *p = algo; *p; p++)
        h = (h ^ (unsigned char)*p) * UINT64_C(0x100000001b3);
    conf_prng g = {mix(seed ^ mix(h ^ mix(((uint64_t)role << 32) | run)))};
    if (g.s == 0)
        g.s = 1;
    return g;
}

void conf_failure_start(conf_failure *f, unsigned run)
{
    memset(f, 0, sizeof *f);
    f->run = run;
    snprintf(f->event, sizeof f->event, "create");
}

int conf_params_for(const char *algo, const char *set, libcc_params **p)
{
    *p = NULL;
    int rc = libcc_params_new(p, algo);
    if (rc == LIBCC_OK && set && *set)
        rc = libcc_params_parse(*p, set);
    if (rc) {
        libcc_params_del(*p);
        *p = NULL;
    }
    return rc;
}

uint64_t conf_start_time(conf_prng *g)
{
    return conf_below(g, 3) == 0 ? UINT64_MAX - conf_below(g, UINT64_C(1) << 24) : conf_below(g, 1000000);
}

bool conf_fail(conf_failure *f, const char *check, const char *fmt, ...)
{
    if (!f)
        return false;
    f->check = check;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->detail, sizeof f->detail, fmt, ap);
    va_end(ap);
    return false;
}

void conf_text_printf(conf_text *t, const char *fmt, ...)
{
    if (t->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->buf ? t->buf + t->len : NULL, t->buf ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            t->oom = true;
            return;
        }
        if (t->buf && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = t->cap ? t->cap * 2 : 4096;
        while (cap < t->len + (size_t)n + 1)
            cap *= 2;
        char *b = realloc(t->buf, cap);
        if (!b) {
            t->oom = true;
            return;
        }
        t->buf = b;
        t->cap = cap;
    }
}

void conf_text_free(conf_text *t)
{
    free(t->buf);
    memset(t, 0, sizeof *t);
}
