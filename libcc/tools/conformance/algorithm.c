/* SPDX-License-Identifier: MIT */
/* Every check on one algorithm: its parameter ranges, then RP runs (each
 * twice, the second in other memory, for the determinism check), NP and CP
 * runs for the roles it has, over its parameter sets in turn, until the
 * event budget or the time is spent or a check fails. */
#include "conformance.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SETS 64u

typedef struct sets {
    const char *v[MAX_SETS];
    char presets[MAX_SETS][96];
    size_t n;
} sets;

/* --params first, then what conf_expect knows, then each preset. */
static void gather_sets(const char *algo, const conf_config *cfg, sets *s)
{
    conf_expect e;
    conf_expect_of(algo, &e);
    s->n = 0;
    if (cfg->params && *cfg->params)
        s->v[s->n++] = cfg->params;
    for (size_t i = 0; i < e.n_sets && s->n < MAX_SETS; i++)
        s->v[s->n++] = e.sets[i];
    const libcc_preset_desc *p;
    size_t np = 0;
    if (libcc_algorithm_presets(algo, &p, &np) != LIBCC_OK)
        np = 0;
    for (size_t i = 0; i < np && s->n < MAX_SETS; i++) {
        snprintf(s->presets[s->n], sizeof s->presets[s->n], "preset=%s", p[i].name);
        s->v[s->n] = s->presets[s->n];
        s->n++;
    }
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool failed(conf_report *rep, unsigned role, const char *set, const conf_failure *f)
{
    rep->failed = true;
    rep->role = role;
    rep->failure = *f;
    snprintf(rep->set, sizeof rep->set, "%s", set ? set : "");
    return false;
}

/* An RP run and its twin: same seed, same calls, same sequence. */
static bool rp_twice(const char *algo, const char *set, const conf_config *cfg, unsigned run,
                     conf_report *rep)
{
    conf_failure f;
    conf_rp_result a, b;
    const conf_prng g = conf_run_prng(cfg->seed, algo, run, LIBCC_ROLE_RP);
    if (!conf_rp_run(algo, set, g, run, cfg->steps_per_run, false, NULL, &a, &f))
        return failed(rep, LIBCC_ROLE_RP, set, &f);
    if (!conf_rp_run(algo, set, g, run, cfg->steps_per_run, true, NULL, &b, &f))
        return failed(rep, LIBCC_ROLE_RP, set, &f);
    rep->rp_events += a.steps_done;
    if (a.digest != b.digest || a.steps_done != b.steps_done) {
        memset(&f, 0, sizeof f);
        f.run = run;
        f.step = a.steps_done;
        snprintf(f.event, sizeof f.event, "second run");
        conf_fail(&f, CONF_CHECK_REPLAY,
                  "the same %u events gave another rate/window/deadline sequence "
                  "(digest %016" PRIx64 " then %016" PRIx64 ")",
                  a.steps_done, a.digest, b.digest);
        return failed(rep, LIBCC_ROLE_RP, set, &f);
    }
    return true;
}

bool conf_algorithm(const char *algo, const conf_config *cfg, conf_report *rep)
{
    memset(rep, 0, sizeof *rep);
    libcc_algorithm_info info;
    conf_failure f;
    if (libcc_algorithm_info_get(algo, &info) != LIBCC_OK) {
        memset(&f, 0, sizeof f);
        conf_fail(&f, CONF_CHECK_CALL, "no algorithm '%s' is registered", algo);
        return failed(rep, 0, "", &f);
    }
    if (!conf_params_check(algo, conf_run_prng(cfg->seed, algo, 0, 0), &f))
        return failed(rep, 0, "", &f);
    sets s;
    gather_sets(algo, cfg, &s);
    const unsigned steps = cfg->steps_per_run ? cfg->steps_per_run : 600;
    conf_config c = *cfg;
    c.steps_per_run = steps;
    const double t0 = seconds();
    const uint64_t side = cfg->events / 4; /* NP and CP events */
    for (unsigned run = 0;; run++) {
        const bool more_time = cfg->duration_s > 0 ? seconds() - t0 < cfg->duration_s : false;
        const bool rp_more = cfg->duration_s > 0 ? more_time : rep->rp_events < cfg->events;
        const bool np_more = (info.roles & LIBCC_ROLE_NP) &&
                             (cfg->duration_s > 0 ? more_time : rep->np_events < side);
        const bool cp_more = (info.roles & LIBCC_ROLE_CP) &&
                             (cfg->duration_s > 0 ? more_time : rep->cp_events < side);
        if (!rp_more && !np_more && !cp_more)
            break;
        const char *set = s.v[run % s.n];
        rep->runs = run + 1;
        if (rp_more && !rp_twice(algo, set, &c, run, rep))
            return false;
        if (np_more) {
            if (!conf_np_run(algo, set, conf_run_prng(cfg->seed, algo, run, LIBCC_ROLE_NP), run,
                             steps, &f))
                return failed(rep, LIBCC_ROLE_NP, set, &f);
            rep->np_events += steps;
        }
        if (cp_more) {
            if (!conf_cp_run(algo, set, conf_run_prng(cfg->seed, algo, run, LIBCC_ROLE_CP), run,
                             steps, &f))
                return failed(rep, LIBCC_ROLE_CP, set, &f);
            rep->cp_events += steps;
        }
    }
    return true;
}

bool conf_failure_script(const char *algo, const conf_config *cfg, const conf_report *rep,
                         conf_text *script)
{
    if (!rep->failed || rep->role != LIBCC_ROLE_RP)
        return false;
    const conf_failure *f = &rep->failure;
    conf_text_printf(script,
                     "# libcc-conformance --algo=%s --seed=%" PRIu64 ": %s failed in run %u at step %u"
                     " (%s): %s\n# replay: libcc-replay THIS_FILE (add --plugin=PATH.so for a plugin's"
                     " algorithm); the last row is the failing call\n",
                     algo, cfg->seed, f->check, f->run, f->step, f->event, f->detail);
    conf_failure again;
    conf_rp_result res;
    const unsigned steps = cfg->steps_per_run ? cfg->steps_per_run : 600;
    conf_rp_run(algo, rep->set, conf_run_prng(cfg->seed, algo, f->run, LIBCC_ROLE_RP), f->run, steps,
                false, script, &res, &again);
    return !script->oom;
}
