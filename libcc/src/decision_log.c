/* SPDX-License-Identifier: MIT */
/* The decision log of a Reaction Point: what a module says about an event
 * (libcc_rp_explain) is kept here until the event ends, then handed to the
 * host's logger with the rate and window before and after it.
 *
 * Everything lives behind one pointer of the RP, allocated when a logger
 * is installed: an RP without one carries 8 bytes for it and pays one
 * test per event (rp.c), and a module asks libcc_rp_logging before it
 * computes what it would explain. */
#include "cc_internal.h"

#include <stdlib.h>
#include <string.h>

struct libcc_rp_log {
    libcc_decision_fn fn;
    void *user_data;
    const char *action; /* NULL: the module has not explained the current event */
    size_t n_inputs;
    libcc_decision_input inputs[LIBCC_DECISION_MAX_INPUTS];
};

static const char *const event_names[] = {
    [LIBCC_RP_EVENT_INIT] = "init",         [LIBCC_RP_EVENT_ACK] = "ack",
    [LIBCC_RP_EVENT_NACK] = "nack",         [LIBCC_RP_EVENT_CNP] = "cnp",
    [LIBCC_RP_EVENT_TX] = "tx",             [LIBCC_RP_EVENT_TIMER] = "timer",
    [LIBCC_RP_EVENT_FEEDBACK] = "feedback", [LIBCC_RP_EVENT_TIMEOUT] = "timeout",
};

const char *libcc_rp_event_name(libcc_rp_event event)
{
    /* through unsigned: a negative value cast to the enum is out of range too */
    const unsigned i = (unsigned)event;
    return i < sizeof event_names / sizeof event_names[0] ? event_names[i] : "?";
}

bool libcc_rp_logging(const libcc_rp *rp)
{
    return rp && rp->log;
}

void libcc_rp_explain(libcc_rp *rp, const char *action, const libcc_decision_input *inputs,
                      size_t n_inputs)
{
    struct libcc_rp_log *log = rp ? rp->log : NULL;
    if (!log)
        return;
    if (!inputs)
        n_inputs = 0;
    if (n_inputs > LIBCC_DECISION_MAX_INPUTS)
        n_inputs = LIBCC_DECISION_MAX_INPUTS;
    if (n_inputs)
        memcpy(log->inputs, inputs, n_inputs * sizeof *inputs);
    log->n_inputs = n_inputs;
    log->action = action ? action : "";
}

void libcc_rp_log_deliver(struct libcc_rp *rp, libcc_rp_event event, uint64_t now_ns,
                          uint64_t old_rate_bps, uint64_t old_window_bytes)
{
    struct libcc_rp_log *log = rp->log;
    const char *action = log->action;
    if (!action && rp->rate_bps == old_rate_bps && rp->window_bytes == old_window_bytes)
        return;
    log->action = NULL; /* the next event starts unexplained */
    const libcc_decision d = {
        .now_ns = now_ns,
        .flow_id = rp->flow.flow_id,
        .event = event,
        .action = action ? action : "",
        .old_rate_bps = old_rate_bps,
        .new_rate_bps = rp->rate_bps,
        .old_window_bytes = old_window_bytes,
        .new_window_bytes = rp->window_bytes,
        .n_inputs = action ? log->n_inputs : 0,
        .inputs = log->inputs,
    };
    log->fn(rp, &d, log->user_data);
}

void libcc_rp_log_free(struct libcc_rp *rp)
{
    free(rp->log);
    rp->log = NULL;
}

int libcc_rp_set_decision_log(libcc_rp *rp, libcc_decision_fn fn, void *user_data)
{
    if (!libcc_rp_algorithm(rp)) /* NULL for anything but a live RP */
        return LIBCC_ERR_INVALID_ARG;
    if (!fn) {
        libcc_rp_log_free(rp);
        return LIBCC_OK;
    }
    if (rp->log) { /* a new logger for the same log: nothing to repeat */
        rp->log->fn = fn;
        rp->log->user_data = user_data;
        return LIBCC_OK;
    }
    struct libcc_rp_log *log = calloc(1, sizeof *log);
    if (!log)
        return LIBCC_ERR_NOMEM;
    log->fn = fn;
    log->user_data = user_data;
    rp->log = log;
    /* The module's init ran before any logger could be there: its start
     * values, against the core's (line rate, no window), are the INIT
     * record, given now. */
    libcc_rp_log_deliver(rp, LIBCC_RP_EVENT_INIT, rp->last_now_ns, rp->flow.line_rate_bps,
                         LIBCC_WINDOW_UNLIMITED);
    return LIBCC_OK;
}
