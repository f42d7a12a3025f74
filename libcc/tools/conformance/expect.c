/* SPDX-License-Identifier: MIT */
/* What the checks know of libcc's own algorithms beyond the API: the
 * parameter sets that reach their branches and how tight their window is.
 * Any other algorithm (a plugin) is run with its defaults and presets
 * (conf_algorithm adds them) and the generic window bound. */
#include "conformance.h"

#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *const none_sets[] = {""};
static const char *const dcqcn_sets[] = {
    "",
    "rate_reduce_monitor_period=0ns",
    "cut_on_cnp=1",
    "rpg_byte_reset=1B rpg_threshold=1 rpg_hai_scale_by_stage=1",
    "rate_to_set_on_first_cnp=1Gbps clamp_tgt_rate=1 rpg_gd=0 initial_alpha=0",
    "increase_kind_by_timer=1 rpg_min_rate=1bps rpg_min_dec_fac=0 g=1",
};
static const char *const hpcc_sets[] = {"", "eta=0.5 max_stage=0", "w_ai=1B expected_flows=1",
                                        "base_rtt=1ns", "max_hops=1"};
static const char *const pp_sets[] = {
    "", "telemetry=1 int_interval=3", "telemetry=2", "rx_hpcc=1", "receiver_n=1",
    "telemetry=2 receiver_n=1 w_ai=0B expected_flows=1000000",
};
static const char *const fncc_sets[] = {"", "lhcs=0", "alpha=0 beta=0.01", "table_refresh=1us"};
static const char *const dctcp_sets[] = {
    "", "window=0", "g=1 initial_alpha=0", "g=0 min_rate=1bps rate_ai=1Tbps",
    "preset=paper base_rtt=1ns", "window=1 base_rtt=1s",
};
static const char *const timely_sets[] = {
    "", "t_low=0ns t_high=1ns min_rtt=1ns", "alpha=1 beta=1 min_rate=1bps",
    "hai_thresh=0 hai_delta=1Tbps delta=1Tbps", "t_low=1s t_high=1s",
};
static const char *const swift_sets[] = {
    "", "endpoint_target=0ns", "min_cwnd=0.000001 max_cwnd=0.5", "ai=1000000 max_cwnd=1000000000",
    "beta=1 max_mdf=1 fs_range=1s hop_scale=100ms", "base_target=1ns fs_range=0ns",
};
static const char *const ptcp_sets[] = {
    "", "gamma=1 eta=0.01", "gamma=0 beta_rate=1Tbps", "eta=2 min_current=1", "base_rtt=1ns",
    "max_hops=1",
};
static const char *const theta_sets[] = {
    "", "gamma=1 eta=0.01 track_min_rtt=1", "beta_rate=0bps min_current=0", "base_rtt=1ns",
};
static const char *const pint_sets[] = {
    "", "log_base=1.001 max_flows=65535", "log_base=2 max_flows=1 sample_prob=0",
    "eta=0.01 max_stage=1000", "base_rtt=1ns",
};
static const char *const rocc_sets[] = {"", "recovery=1ns", "recovery=1s f_min=1bps rate_unit=1bps",
                                         "apply_delay=15us max_flows=1"};

static const struct {
    const char *name;
    const char *const *sets;
    size_t n_sets;
    conf_window_kind window;
} known[] = {
    {"none", none_sets, COUNT(none_sets), CONF_WIN_UNLIMITED},
    {"dcqcn", dcqcn_sets, COUNT(dcqcn_sets), CONF_WIN_UNLIMITED},
    {"hpcc", hpcc_sets, COUNT(hpcc_sets), CONF_WIN_HPCC},
    {"hpcc++", pp_sets, COUNT(pp_sets), CONF_WIN_HPCC},
    {"fncc", fncc_sets, COUNT(fncc_sets), CONF_WIN_HPCC},
    {"dctcp", dctcp_sets, COUNT(dctcp_sets), CONF_WIN_ANY},
    {"timely", timely_sets, COUNT(timely_sets), CONF_WIN_UNLIMITED},
    {"swift", swift_sets, COUNT(swift_sets), CONF_WIN_ANY},
    {"powertcp", ptcp_sets, COUNT(ptcp_sets), CONF_WIN_HPCC},
    {"theta-powertcp", theta_sets, COUNT(theta_sets), CONF_WIN_HPCC},
    {"hpcc-pint", pint_sets, COUNT(pint_sets), CONF_WIN_HPCC},
    {"rocc", rocc_sets, COUNT(rocc_sets), CONF_WIN_UNLIMITED},
};

static const char *const defaults_only[] = {""};

void conf_expect_of(const char *algo, conf_expect *e)
{
    for (size_t i = 0; i < COUNT(known); i++)
        if (strcmp(known[i].name, algo) == 0) {
            e->sets = known[i].sets;
            e->n_sets = known[i].n_sets;
            e->window = known[i].window;
            return;
        }
    e->sets = defaults_only;
    e->n_sets = 1;
    e->window = CONF_WIN_ANY;
}
