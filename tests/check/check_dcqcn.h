/* SPDX-License-Identifier: MIT */
/* Helpers shared by the DCQCN Check suites: a host that records callbacks
 * and drives an RP's single timer the way a simulator would. */
#ifndef CHECK_DCQCN_H
#define CHECK_DCQCN_H

#include <check.h>
#include <libcc/libcc.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define US 1000ull          /* ns per microsecond */
#define GBPS 1000000000ull  /* bits/s per Gbit/s */
#define MBPS 1000000ull
#define LINE (100 * GBPS)   /* the line rate every RP test uses */
/* Firmware default: the weight kept is 1019/1024, so g = 5/1024. */
#define KEEP (1019.0 / 1024.0)
#define G_FW (5.0 / 1024.0)

typedef struct test_host {
    int rate_calls;
    uint64_t last_rate;
    int deadline_calls;
    uint64_t last_deadline;
} test_host;

static inline void th_rate(libcc_rp *rp, uint64_t now, uint64_t rate, void *ud)
{
    (void)rp;
    (void)now;
    test_host *h = ud;
    h->rate_calls++;
    h->last_rate = rate;
}

static inline void th_deadline(libcc_rp *rp, uint64_t deadline, void *ud)
{
    (void)rp;
    test_host *h = ud;
    h->deadline_calls++;
    h->last_deadline = deadline;
}

/* Parameters of "dcqcn" with "name=value, ..." applied (NULL: defaults). */
static inline libcc_params *dq_params(const char *assign)
{
    libcc_params *p = NULL;
    ck_assert_int_eq(libcc_params_new(&p, "dcqcn"), LIBCC_OK);
    if (assign)
        ck_assert_msg(libcc_params_parse(p, assign) == LIBCC_OK, "%s: %s", assign,
                      libcc_params_error(p));
    return p;
}

/* An RP at LINE created at time 0 with parameters `assign`. */
static inline libcc_rp *dq_rp(const char *assign, test_host *h)
{
    libcc_params *p = dq_params(assign);
    libcc_flow_info fi = {.flow_id = 1, .line_rate_bps = LINE, .mtu_bytes = 1000};
    libcc_rp_callbacks cbs = {.rate_changed = th_rate, .deadline_changed = th_deadline};
    libcc_rp *rp = NULL;
    memset(h, 0, sizeof *h);
    h->last_deadline = LIBCC_NO_DEADLINE;
    ck_assert_int_eq(libcc_rp_new(&rp, p, &fi, &cbs, h, 0), LIBCC_OK);
    libcc_params_del(p);
    return rp;
}

/* The value of the RP variable called `name`. */
static inline double dq_var(const libcc_rp *rp, const char *name)
{
    const libcc_param_desc *vars;
    size_t n;
    double v[32];
    ck_assert_int_eq(libcc_rp_vars(rp, &vars, &n), LIBCC_OK);
    ck_assert_uint_le(n, 32);
    ck_assert_int_eq(libcc_rp_read_vars(rp, v, 32), LIBCC_OK);
    for (size_t i = 0; i < n; i++)
        if (strcmp(vars[i].name, name) == 0)
            return v[i];
    ck_abort_msg("no RP variable %s", name);
    return NAN;
}

/* The host's timer: fire on_timer at every deadline up to `until`. */
static inline void dq_run_until(libcc_rp *rp, uint64_t until)
{
    uint64_t d;
    while ((d = libcc_rp_deadline_ns(rp)) <= until)
        ck_assert_int_eq(libcc_rp_on_timer(rp, d), LIBCC_OK);
}

#endif /* CHECK_DCQCN_H */
