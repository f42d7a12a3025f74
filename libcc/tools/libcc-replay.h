/* SPDX-License-Identifier: MIT */
/* libcc-replay as a function, for running it in-process (the fuzz harness
 * in fuzz/): compile libcc-replay.c with -DLIBCC_REPLAY_NO_MAIN. */
#ifndef LIBCC_REPLAY_H
#define LIBCC_REPLAY_H

#include <stdio.h>

#define LIBCC_REPLAY_EXIT_IO 1    /* cannot open, read or write; out of memory */
#define LIBCC_REPLAY_EXIT_INPUT 2 /* bad usage, trace line, parameters, algorithm error */

/* The whole tool: argv as main's (argv[0] ignored), the trace read from `in`
 * when argv names "-", CSV and help to `out`, messages to `err`. Returns the
 * exit status (0, LIBCC_REPLAY_EXIT_IO or LIBCC_REPLAY_EXIT_INPUT); never
 * exits, and frees everything it allocated before returning. Reentrant:
 * no state outlives the call. */
int libcc_replay_main(int argc, char **argv, FILE *in, FILE *out, FILE *err);

#endif
