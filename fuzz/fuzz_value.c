/* SPDX-License-Identifier: MIT */
/* Value text: libcc_parse_value for each unit, and the round trip through
 * libcc_format_value. The first byte picks the unit; the rest is parsed as
 * text, and its first 8 bytes are also taken as a double to format.
 *   - a parsed value is finite; a count is whole, a bool 0 or 1;
 *   - a formatted finite value parses back, to the 10 significant digits
 *     libcc_format_value writes (libcc-api.md), and a count exactly. */
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

static const libcc_unit units[] = {LIBCC_UNIT_RATIO, LIBCC_UNIT_BPS,   LIBCC_UNIT_NS,
                                   LIBCC_UNIT_BYTES, LIBCC_UNIT_COUNT, LIBCC_UNIT_BOOL};

static void round_trip(libcc_unit unit, double v)
{
    char buf[64];
    double back;
    if (!isfinite(v) || libcc_format_value(unit, v, buf, sizeof buf) != LIBCC_OK)
        return; /* a count of 1e300 does not fit 64 characters: refused, not cut */
    if (unit == LIBCC_UNIT_BOOL) {
        CHECK(libcc_parse_value(unit, buf, &back) == LIBCC_OK);
        CHECK(back == (v != 0.0 ? 1.0 : 0.0));
        return;
    }
    if (unit == LIBCC_UNIT_COUNT && v != floor(v))
        return; /* formatting a fraction as a count rounds it: not a count */
    CHECK(libcc_parse_value(unit, buf, &back) == LIBCC_OK);
    if (unit == LIBCC_UNIT_COUNT)
        CHECK(back == v);
    else
        CHECK(fabs(back - v) <= 1e-9 * fabs(v) || fabs(back - v) <= 1e-300);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const libcc_unit unit = units[data[0] % (sizeof units / sizeof units[0])];
    char *text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    double v = 12345.0;
    int rc = libcc_parse_value(unit, text, &v);
    if (rc == LIBCC_OK) {
        CHECK(isfinite(v));
        if (unit == LIBCC_UNIT_COUNT)
            CHECK(v == floor(v));
        if (unit == LIBCC_UNIT_BOOL)
            CHECK(v == 0.0 || v == 1.0);
        round_trip(unit, v);
    } else {
        CHECK(v == 12345.0); /* untouched on failure */
    }
    if (size >= 9) {
        double d;
        memcpy(&d, data + 1, sizeof d);
        round_trip(unit, d);
    }
    free(text);
    return 0;
}
