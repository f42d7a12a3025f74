/* SPDX-License-Identifier: MIT */
/* Properties every registered algorithm keeps whatever legal events it
 * gets: the checks of libcc-conformance (libcc/tools/conformance/, one
 * implementation for the tool and this suite; docs/conformance.md says
 * what each one means), run here over every algorithm of the registry with
 * a fixed seed: rate and window bounds, finite variables, deadlines never
 * in the past and moved by their timers, deterministic replay, no callback
 * re-entry, every parameter's range, NP and CP streams. A failure names
 * the algorithm, check, run, step and values; `libcc-conformance
 * --algo=NAME --seed=1 --events=90000` writes its replay script. */
#include "conformance.h"

#include <check.h>
#include <libcc/libcc.h>
#include <stdio.h>

static size_t n_algorithms(void)
{
    size_t n = 0;
    while (libcc_algorithms()[n])
        n++;
    return n;
}

/* 150 RP runs of 600 events (each twice), a quarter of that through NP and
 * CP: the suite's whole budget is a few seconds, more under ASan. */
START_TEST(test_conformance)
{
    const char *algo = libcc_algorithms()[_i];
    conf_config cfg = {.seed = 1, .events = 90000, .steps_per_run = 600};
    conf_report rep;
    if (!conf_algorithm(algo, &cfg, &rep))
        ck_abort_msg("%s: %s in run %u step %u (%s) with parameters '%s': %s", algo, rep.failure.check,
                     rep.failure.run, rep.failure.step, rep.failure.event, rep.set, rep.failure.detail);
    ck_assert_uint_ge(rep.rp_events, 90000);
}
END_TEST

Suite *properties_suite(void)
{
    Suite *s = suite_create("properties");
    TCase *tc = tcase_create("conformance");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_conformance, 0, (int)n_algorithms());
    suite_add_tcase(s, tc);
    return s;
}
