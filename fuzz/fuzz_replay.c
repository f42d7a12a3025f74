/* SPDX-License-Identifier: MIT */
/* The libcc-replay trace parser and runner, in-process (libcc-replay.c
 * built with -DLIBCC_REPLAY_NO_MAIN): any bytes as a trace end in exit
 * status 0 or 2 (1 is I/O, which a memory stream cannot fail), never a
 * crash, a leak or a hang; the timer bound keeps each run short. */
#include "libcc-replay.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *null_out; /* the harness's, not libcc's: opened once */
    char arg0[] = "libcc-replay", arg1[] = "--max-timers", arg2[] = "2000", arg3[] = "-";
    char *argv[] = {arg0, arg1, arg2, arg3, NULL};
    if (!null_out && !(null_out = fopen("/dev/null", "w")))
        abort();
    if (size == 0)
        return 0; /* fmemopen refuses an empty buffer */
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in)
        abort();
    int status = libcc_replay_main(4, argv, in, null_out, null_out);
    fclose(in);
    if (status != 0 && status != 2)
        abort();
    return 0;
}
