/* SPDX-License-Identifier: MIT */
/* A consumer of the INSTALLED libcc, built only with the flags pkg-config
 * gives (tests/install/run.sh). It checks the installed headers and the
 * library agree and that the basic calls work; any failure prints the line
 * and exits 1 (assert() could be compiled out with NDEBUG). */
#include <libcc/libcc.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond)                                                               \
    do {                                                                          \
        if (!(cond)) {                                                            \
            fprintf(stderr, "tiny.c:%d: check failed: %s\n", __LINE__, #cond);  \
            exit(1);                                                              \
        }                                                                         \
    } while (0)

static uint64_t last_deadline = LIBCC_NO_DEADLINE;

static void on_deadline(libcc_rp *rp, uint64_t deadline_ns, void *user_data)
{
    (void)rp;
    CHECK(user_data == &last_deadline);
    last_deadline = deadline_ns;
}

static int has_name(const char *name)
{
    for (const char *const *n = libcc_algorithms(); *n; n++)
        if (strcmp(*n, name) == 0)
            return 1;
    return 0;
}

int main(void)
{
    const libcc_version_info *v = libcc_version();
    libcc_params *none = NULL, *dcqcn = NULL, *bad = NULL;
    libcc_flow_info flow;
    libcc_rp_callbacks cbs;
    libcc_rp *rp = NULL, *hosted = NULL;
    void *mem;
    double x;

    /* The header this was compiled with is the library it runs with. */
    CHECK(v != NULL);
    CHECK(v->major == LIBCC_VERSION_MAJOR);
    CHECK(v->minor == LIBCC_VERSION_MINOR);
    CHECK(v->patch == LIBCC_VERSION_PATCH);
    CHECK(v->num == LIBCC_VERSION_NUM);
    CHECK(strcmp(v->str, LIBCC_VERSION) == 0);

    /* Error names are distinct, static and non-empty. */
    CHECK(strlen(libcc_strerror(LIBCC_ERR_UNKNOWN_ALGORITHM)) > 0);
    CHECK(strcmp(libcc_strerror(LIBCC_OK), libcc_strerror(LIBCC_ERR_UNKNOWN_ALGORITHM)) != 0);
    CHECK(libcc_strerror(-9999) != NULL);

    CHECK(has_name("none") && has_name("dcqcn") && has_name("hpcc") && has_name("fncc"));
    CHECK(libcc_params_new(&bad, "no_such_algorithm") == LIBCC_ERR_UNKNOWN_ALGORITHM);

    /* 40 Mbit/s is 40e6 bit/s; 55 us is 55000 ns; 64 KiB is 65536 B. */
    CHECK(libcc_parse_value(LIBCC_UNIT_BPS, "40Mbps", &x) == LIBCC_OK && x == 40e6);
    CHECK(libcc_parse_value(LIBCC_UNIT_NS, "55us", &x) == LIBCC_OK && x == 55000.0);
    CHECK(libcc_parse_value(LIBCC_UNIT_BYTES, "64KiB", &x) == LIBCC_OK && x == 65536.0);

    CHECK(libcc_params_new(&none, "none") == LIBCC_OK);
    CHECK(libcc_params_new(&dcqcn, "dcqcn") == LIBCC_OK);
    CHECK(libcc_params_set(dcqcn, "no_such_param", "1") == LIBCC_ERR_UNKNOWN_PARAM);
    CHECK(strstr(libcc_params_error(dcqcn), "no_such_param") != NULL);

    memset(&flow, 0, sizeof flow);
    flow.flow_id = 7;
    flow.line_rate_bps = UINT64_C(100000000000);
    flow.base_rtt_ns = 12000;
    memset(&cbs, 0, sizeof cbs);
    cbs.deadline_changed = on_deadline;

    /* Both start at the line rate: none stays there, DCQCN starts there. */
    CHECK(libcc_rp_new(&rp, none, &flow, &cbs, &last_deadline, 0) == LIBCC_OK);
    CHECK(libcc_rp_rate_bps(rp) == UINT64_C(100000000000));
    CHECK(libcc_rp_window_bytes(rp) == LIBCC_WINDOW_UNLIMITED);
    CHECK(strcmp(libcc_rp_algorithm(rp), "none") == 0);
    libcc_rp_del(rp);

    /* The same RP in host memory: no allocation by the library. */
    mem = malloc(libcc_rp_size(dcqcn));
    CHECK(mem != NULL);
    CHECK(libcc_rp_init(mem, libcc_rp_size(dcqcn), dcqcn, &flow, &cbs, &last_deadline, 0, &hosted) ==
          LIBCC_OK);
    CHECK(hosted == mem);
    CHECK(libcc_rp_rate_bps(hosted) == UINT64_C(100000000000));
    CHECK(libcc_rp_user_data(hosted) == &last_deadline);
    /* A CNP makes DCQCN ask for a timer, through the callback. */
    CHECK(libcc_rp_on_cnp(hosted, 1000) == LIBCC_OK);
    CHECK(last_deadline != LIBCC_NO_DEADLINE);
    CHECK(last_deadline == libcc_rp_deadline_ns(hosted));
    CHECK(libcc_rp_on_cnp(hosted, 500) == LIBCC_ERR_TIME_BACKWARDS);
    libcc_rp_del(hosted);
    free(mem);

    /* Too little caller memory is refused, not overrun. */
    {
        unsigned char small[8];
        CHECK(libcc_rp_init(small, sizeof small, none, &flow, &cbs, NULL, 0, &hosted) ==
              LIBCC_ERR_BUFFER_TOO_SMALL);
    }

    libcc_params_del(none);
    libcc_params_del(dcqcn);
    printf("tiny.c: libcc %s ok\n", v->str);
    return 0;
}
