/* SPDX-License-Identifier: MIT */
/* Parameter text: libcc_params_parse of a `k=v,k=v` string for each
 * algorithm. The first byte picks the algorithm, the rest is the text.
 * Whatever the text, a set holds only what a text could legally set:
 * every value within its range, counts whole, bools 0 or 1, nothing NaN;
 * a refused text leaves a one-line message naming what was wrong. */
#include <libcc/libcc.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(c)                                                                                \
    do {                                                                                        \
        if (!(c))                                                                               \
            abort();                                                                            \
    } while (0)

static void check_table(const libcc_params *p, const libcc_param_desc *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double v;
        CHECK(libcc_params_get(p, t[i].name, &v) == LIBCC_OK);
        CHECK(v >= t[i].min && v <= t[i].max); /* also false for NaN */
        if (t[i].unit == LIBCC_UNIT_COUNT)
            CHECK(v == floor(v));
        if (t[i].unit == LIBCC_UNIT_BOOL)
            CHECK(v == 0.0 || v == 1.0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *const *names = libcc_algorithms();
    size_t n_algos = 0;
    while (names[n_algos])
        n_algos++;
    if (size < 1)
        return 0;
    const char *algo = names[data[0] % n_algos];
    char *text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';

    libcc_params *p = NULL;
    CHECK(libcc_params_new(&p, algo) == LIBCC_OK);
    int rc = libcc_params_parse(p, text);
    const char *err = libcc_params_error(p);
    if (rc == LIBCC_OK) {
        CHECK(err[0] == '\0');
        rc = libcc_params_validate(p);
        /* a relation refused is named too */
        CHECK(rc == LIBCC_OK || libcc_params_error(p)[0] != '\0');
    } else {
        CHECK(err[0] != '\0' && strchr(err, '\n') == NULL);
    }
    const libcc_param_desc *t;
    size_t n;
    CHECK(libcc_algorithm_params(algo, &t, &n) == LIBCC_OK);
    check_table(p, t, n);
    libcc_common_params(&t, &n);
    check_table(p, t, n);
    libcc_params_del(p);
    free(text);
    return 0;
}
