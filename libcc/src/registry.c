/* SPDX-License-Identifier: MIT */
/*
 * The algorithms libcc knows, by name: a fixed table of LIBCC_ALGORITHM_MAX
 * slots filled by libcc_algorithm_register, the built-ins first (on first
 * use, through the same validation a plugin's description gets).
 *
 * This table is libcc's one piece of global mutable state (tests/static
 * allows it and nothing else): a name given on a command line, in an ns-3
 * attribute or a replay file must mean the same algorithm to every part of
 * a process, and a plugin registers once for all of them. Everything else
 * stays in the objects. A mutex guards the slots; each slot's reference
 * count (params and objects alive) is atomic, so making and deleting
 * objects takes no lock. Nothing here is on the per-packet path: objects
 * keep their algorithm's pointers.
 *
 * Adding a built-in: write algo/<name>.c defining a
 * `const libcc_algorithm libcc_algorithm_<id>`, add <id> to BUILTINS.
 */
#include "cc_internal.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* In the order libcc_algorithms() lists them. */
#define BUILTINS(X)                                                                            \
    X(none) X(dcqcn) X(hpcc) X(hpccpp) X(fncc) X(dctcp) X(timely) X(swift) X(powertcp)         \
        X(theta_powertcp) X(hpcc_pint) X(rocc)

#define DECLARE(id) extern const libcc_algorithm libcc_algorithm_##id;
BUILTINS(DECLARE)
#undef DECLARE

#define ENTRY(id) &libcc_algorithm_##id,
static const libcc_algorithm *const builtins[] = {BUILTINS(ENTRY)};
#undef ENTRY
#define N_BUILTINS (sizeof builtins / sizeof builtins[0])

/* The whole of the state, in one object so tests/static can name it. */
static struct registry {
    pthread_once_t once;
    pthread_mutex_t lock;
    libcc_algo_entry slot[LIBCC_ALGORITHM_MAX];
    /* The registered names in slot order, NULL-terminated: what
     * libcc_algorithms() returns, rebuilt on every change. */
    const char *names[LIBCC_ALGORITHM_MAX + 1];
} reg = {PTHREAD_ONCE_INIT, PTHREAD_MUTEX_INITIALIZER, {{0}}, {0}};

/* Message into err (may be NULL), then the code. */
static int fail(char *err, size_t err_len, int rc, const char *fmt, ...)
{
    if (err && err_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, err_len, fmt, ap);
        va_end(ap);
    }
    return rc;
}

/* ---- validating a description -------------------------------------------- */

static bool name_ok(const char *name)
{
    if (!(name[0] >= 'a' && name[0] <= 'z'))
        return false;
    for (const char *c = name; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-' || *c == '+' ||
              *c == '_'))
            return false;
    return true;
}

#define BAD(...) fail(err, err_len, LIBCC_ERR_BAD_DESCRIPTION, __VA_ARGS__)

/* A row of the parameter table, in the units the text path accepts. */
static int check_param_row(const libcc_algorithm *a, const libcc_param_desc *d, size_t i,
                           char *err, size_t err_len)
{
    if (!d->name || !d->name[0])
        return BAD("algorithm '%s': parameter %zu has no name", a->name, i);
    if (!d->doc)
        return BAD("algorithm '%s': parameter '%s' has no doc (NULL)", a->name, d->name);
    if ((unsigned)d->unit > LIBCC_UNIT_BOOL)
        return BAD("algorithm '%s': parameter '%s' has unit %d, not a libcc_unit (0..%d)", a->name,
                   d->name, (int)d->unit, (int)LIBCC_UNIT_BOOL);
    if (isnan(d->def) || isnan(d->min) || isnan(d->max))
        return BAD("algorithm '%s': parameter '%s' has a NaN default, min or max", a->name,
                   d->name);
    if (!(d->min <= d->def && d->def <= d->max))
        return BAD("algorithm '%s': parameter '%s' needs min <= default <= max, has %.17g <= %.17g "
                   "<= %.17g",
                   a->name, d->name, d->min, d->def, d->max);
    /* The default must be a value the text path could produce. */
    if (d->unit == LIBCC_UNIT_COUNT && d->def != floor(d->def))
        return BAD("algorithm '%s': parameter '%s' is a count with default %.17g, not a whole "
                   "number",
                   a->name, d->name, d->def);
    if (d->unit == LIBCC_UNIT_BOOL && d->def != 0.0 && d->def != 1.0)
        return BAD("algorithm '%s': parameter '%s' is a boolean with default %.17g (accepted: 0 or 1)",
                   a->name, d->name, d->def);
    return LIBCC_OK;
}

static int check_params_table(const libcc_algorithm *a, char *err, size_t err_len)
{
    if (a->n_params > LIBCC_MAX_ALGORITHM_PARAMS)
        return BAD("algorithm '%s': %zu parameters, at most %u", a->name, a->n_params,
                   LIBCC_MAX_ALGORITHM_PARAMS);
    if (a->n_params && !a->params)
        return BAD("algorithm '%s': n_params is %zu but params is NULL", a->name, a->n_params);
    const libcc_param_desc *common;
    size_t n_common;
    libcc_common_params(&common, &n_common);
    for (size_t i = 0; i < a->n_params; i++) {
        const libcc_param_desc *d = &a->params[i];
        int rc = check_param_row(a, d, i, err, err_len);
        if (rc)
            return rc;
        /* "preset" is how a text selects a preset (libcc_params_set). */
        if (strcmp(d->name, "preset") == 0)
            return BAD("algorithm '%s': parameter name 'preset' is reserved", a->name);
        for (size_t j = 0; j < n_common; j++)
            if (strcmp(d->name, common[j].name) == 0)
                return BAD("algorithm '%s': parameter '%s' clashes with the common parameter of "
                           "that name",
                           a->name, d->name);
        for (size_t j = 0; j < i; j++)
            if (strcmp(d->name, a->params[j].name) == 0)
                return BAD("algorithm '%s': parameter '%s' appears twice", a->name, d->name);
    }
    return LIBCC_OK;
}

/* Whether an assignment list (libcc_params_parse syntax) has a
 * "preset=..." item. */
static bool selects_preset(const char *s)
{
    static const char seps[] = ",; \t\r\n";
    for (;;) {
        s += strspn(s, seps);
        if (!*s)
            return false;
        const size_t n = strcspn(s, seps);
        if (n >= 7 && strncmp(s, "preset=", 7) == 0)
            return true;
        s += n;
    }
}

/* The typed config the defaults and each preset give must build. */
static int check_presets(const libcc_algorithm *a, char *err, size_t err_len)
{
    if (a->n_presets && !a->presets)
        return BAD("algorithm '%s': n_presets is %zu but presets is NULL", a->name, a->n_presets);
    libcc_params p;
    libcc_params_init_defaults(&p, a);
    int rc = libcc_params_validate(&p);
    if (rc)
        return BAD("algorithm '%s': its defaults do not make a configuration: %s", a->name, p.err);
    for (size_t i = 0; i < a->n_presets; i++) {
        const libcc_preset_desc *ps = &a->presets[i];
        if (!ps->name || !ps->name[0] || !ps->assignments || !ps->doc)
            return BAD("algorithm '%s': preset %zu needs a name, assignments and a doc", a->name, i);
        for (size_t j = 0; j < i; j++)
            if (strcmp(ps->name, a->presets[j].name) == 0)
                return BAD("algorithm '%s': preset '%s' appears twice", a->name, ps->name);
        /* A preset naming a preset could name itself: no recursion. */
        if (selects_preset(ps->assignments))
            return BAD("algorithm '%s': preset '%s' may not select a preset", a->name, ps->name);
        libcc_params_init_defaults(&p, a);
        rc = libcc_params_parse(&p, ps->assignments);
        if (!rc)
            rc = libcc_params_validate(&p);
        if (rc)
            return BAD("algorithm '%s': preset '%s' does not apply over the defaults: %s", a->name,
                       ps->name, p.err);
    }
    return LIBCC_OK;
}

/* Bound on each module-owned area, so no size sum can wrap. */
#define STATE_MAX ((size_t)1 << 24)

static int check_ops(const libcc_algorithm *a, char *err, size_t err_len)
{
    static const struct {
        unsigned role;
        const char *name, *flag;
    } roles[] = {{LIBCC_ROLE_RP, "rp", "LIBCC_ROLE_RP"},
                 {LIBCC_ROLE_NP, "np", "LIBCC_ROLE_NP"},
                 {LIBCC_ROLE_CP, "cp", "LIBCC_ROLE_CP"}};
    const void *ops[] = {a->rp, a->np, a->cp};
    const size_t sizes[] = {a->rp ? a->rp->state_size : 0, a->np ? a->np->flow_state_size : 0,
                            a->cp ? a->cp->state_size : 0};
    if (a->roles & ~(LIBCC_ROLE_RP | LIBCC_ROLE_NP | LIBCC_ROLE_CP))
        return BAD("algorithm '%s': roles 0x%x has bits beyond LIBCC_ROLE_RP|NP|CP", a->name,
                   a->roles);
    for (size_t i = 0; i < 3; i++) {
        if (ops[i] && !(a->roles & roles[i].role))
            return BAD("algorithm '%s': %s ops given but roles lack %s", a->name, roles[i].name,
                       roles[i].flag);
        if (sizes[i] > STATE_MAX)
            return BAD("algorithm '%s': %s state size %zu exceeds %zu bytes", a->name,
                       roles[i].name, sizes[i], STATE_MAX);
    }
    if (a->rp) {
        const libcc_rp_ops *r = a->rp;
        if ((r->n_vars != 0) != (r->read_vars != NULL) || (r->n_vars && !r->vars))
            return BAD("algorithm '%s': rp vars need all of vars, n_vars > 0 and read_vars, or none",
                       a->name);
        if (r->n_vars > LIBCC_MAX_PARAMS)
            return BAD("algorithm '%s': %zu rp vars, at most %u", a->name, r->n_vars,
                       (unsigned)LIBCC_MAX_PARAMS);
        for (size_t i = 0; i < r->n_vars; i++) {
            if (!r->vars[i].name || !r->vars[i].name[0] || !r->vars[i].doc)
                return BAD("algorithm '%s': rp var %zu needs a name and a doc", a->name, i);
            for (size_t j = 0; j < i; j++)
                if (strcmp(r->vars[i].name, r->vars[j].name) == 0)
                    return BAD("algorithm '%s': rp var '%s' appears twice", a->name,
                               r->vars[i].name);
        }
    }
    return LIBCC_OK;
}

static int check_description(const libcc_algorithm *a, char *err, size_t err_len)
{
    /* abi_version first: nothing else of a description from another
     * version of this header can be trusted, not even where its name is. */
    if (a->abi_version != LIBCC_ALGORITHM_ABI_VERSION)
        return fail(err, err_len, LIBCC_ERR_ABI_MISMATCH,
                    "built against algorithm ABI %u, this libcc speaks %u", a->abi_version,
                    LIBCC_ALGORITHM_ABI_VERSION);
    if (!a->name || !a->name[0])
        return BAD("algorithm name is %s", a->name ? "empty" : "NULL");
    if (strlen(a->name) > LIBCC_ALGORITHM_NAME_MAX)
        return BAD("algorithm name '%.40s%s' is %zu bytes, at most %u", a->name,
                   strlen(a->name) > 40 ? "..." : "", strlen(a->name), LIBCC_ALGORITHM_NAME_MAX);
    if (!name_ok(a->name))
        return BAD("algorithm name '%s': use lower-case letters, digits, '-', '+' and '_', "
                   "starting with a letter",
                   a->name);
    if (a->reserved)
        return BAD("algorithm '%s': reserved is %u, must be 0", a->name, a->reserved);
    if ((unsigned)a->data_int > LIBCC_INT_FORMAT_FNCC || (unsigned)a->ack_int > LIBCC_INT_FORMAT_FNCC)
        return BAD("algorithm '%s': data_int %d / ack_int %d: a libcc_int_format is 0..%d", a->name,
                   (int)a->data_int, (int)a->ack_int, (int)LIBCC_INT_FORMAT_FNCC);
    const unsigned all_signals = LIBCC_SIGNAL_ACK_ECN_ECHO | LIBCC_SIGNAL_ACK_TX_TS |
                                 LIBCC_SIGNAL_ACK_NIC_TS | LIBCC_SIGNAL_ACK_HOPS |
                                 LIBCC_SIGNAL_DATA_PINT | LIBCC_SIGNAL_CP_FEEDBACK;
    if (a->signals & ~all_signals)
        return BAD("algorithm '%s': signals 0x%x has bits beyond the LIBCC_SIGNAL_* (0x%x)",
                   a->name, a->signals, all_signals);
    if (a->signals & LIBCC_SIGNAL_DATA_PINT) {
        if (a->pint_bits < 1 || a->pint_bits > 16)
            return BAD("algorithm '%s': pint_bits %u, with LIBCC_SIGNAL_DATA_PINT 1..16", a->name,
                       a->pint_bits);
    } else if (a->pint_bits) {
        return BAD("algorithm '%s': pint_bits %u without LIBCC_SIGNAL_DATA_PINT (must be 0)",
                   a->name, a->pint_bits);
    }
    if (a->cfg_size > LIBCC_ALGORITHM_CFG_MAX)
        return BAD("algorithm '%s': cfg_size %zu exceeds LIBCC_ALGORITHM_CFG_MAX (%u)", a->name,
                   a->cfg_size, LIBCC_ALGORITHM_CFG_MAX);
    if (a->cfg_size && !a->cfg_init)
        return BAD("algorithm '%s': cfg_size %zu without a cfg_init to fill it", a->name,
                   a->cfg_size);
    int rc = check_ops(a, err, err_len);
    if (!rc)
        rc = check_params_table(a, err, err_len);
    if (!rc)
        rc = check_presets(a, err, err_len);
    return rc;
}

/* ---- the table -------------------------------------------------------------- */

static void rebuild_names(void)
{
    size_t n = 0;
    for (size_t i = 0; i < LIBCC_ALGORITHM_MAX; i++)
        if (reg.slot[i].algorithm)
            reg.names[n++] = reg.slot[i].algorithm->name;
    reg.names[n] = NULL;
}

static libcc_algo_entry *find_locked(const char *name)
{
    for (size_t i = 0; i < LIBCC_ALGORITHM_MAX; i++)
        if (reg.slot[i].algorithm && strcmp(reg.slot[i].algorithm->name, name) == 0)
            return &reg.slot[i];
    return NULL;
}

static int register_locked(const libcc_algorithm *a, bool builtin, char *err, size_t err_len)
{
    if (!a)
        return fail(err, err_len, LIBCC_ERR_INVALID_ARG, "algorithm description is NULL");
    int rc = check_description(a, err, err_len);
    if (rc)
        return rc;
    if (find_locked(a->name))
        return fail(err, err_len, LIBCC_ERR_EXISTS, "algorithm name '%s' is already registered",
                    a->name);
    for (size_t i = 0; i < LIBCC_ALGORITHM_MAX; i++) {
        libcc_algo_entry *e = &reg.slot[i];
        if (!e->algorithm) {
            atomic_store(&e->refs, 0);
            e->builtin = builtin;
            e->algorithm = a;
            rebuild_names();
            return LIBCC_OK;
        }
    }
    return fail(err, err_len, LIBCC_ERR_FULL,
                "cannot register '%s': %u algorithms are registered, the most libcc holds", a->name,
                LIBCC_ALGORITHM_MAX);
}

/* A built-in that fails its own validation is a libcc bug: it is left out,
 * and the Check suites (which expect all of them) fail. */
static void register_builtins(void)
{
    pthread_mutex_lock(&reg.lock);
    for (size_t i = 0; i < N_BUILTINS; i++)
        (void)register_locked(builtins[i], true, NULL, 0);
    pthread_mutex_unlock(&reg.lock);
}

static void ready(void)
{
    pthread_once(&reg.once, register_builtins);
}

int libcc_algorithm_register(const libcc_algorithm *algorithm, char *err, size_t err_len)
{
    if (err && err_len)
        err[0] = '\0';
    ready();
    pthread_mutex_lock(&reg.lock);
    int rc = register_locked(algorithm, false, err, err_len);
    pthread_mutex_unlock(&reg.lock);
    return rc;
}

int libcc_algorithm_unregister(const char *name)
{
    if (!name)
        return LIBCC_ERR_INVALID_ARG;
    ready();
    pthread_mutex_lock(&reg.lock);
    libcc_algo_entry *e = find_locked(name);
    int rc = LIBCC_OK;
    if (!e)
        rc = LIBCC_ERR_UNKNOWN_ALGORITHM;
    else if (e->builtin)
        rc = LIBCC_ERR_INVALID_ARG; /* every program relies on the built-ins being there */
    else if (atomic_load(&e->refs) != 0)
        rc = LIBCC_ERR_BUSY;
    else {
        e->algorithm = NULL;
        rebuild_names();
    }
    pthread_mutex_unlock(&reg.lock);
    return rc;
}

const char *const *libcc_algorithms(void)
{
    ready();
    return reg.names;
}

libcc_algo_entry *libcc_algo_acquire(const char *name)
{
    if (!name)
        return NULL;
    ready();
    pthread_mutex_lock(&reg.lock);
    libcc_algo_entry *e = find_locked(name);
    if (e)
        atomic_fetch_add(&e->refs, 1);
    pthread_mutex_unlock(&reg.lock);
    return e;
}

void libcc_algo_ref(libcc_algo_entry *entry)
{
    if (entry)
        atomic_fetch_add(&entry->refs, 1);
}

void libcc_algo_release(libcc_algo_entry *entry)
{
    if (entry)
        atomic_fetch_sub(&entry->refs, 1);
}

const libcc_algorithm *libcc_algo_find(const char *name)
{
    if (!name)
        return NULL;
    ready();
    pthread_mutex_lock(&reg.lock);
    libcc_algo_entry *e = find_locked(name);
    const libcc_algorithm *a = e ? e->algorithm : NULL;
    pthread_mutex_unlock(&reg.lock);
    return a;
}

size_t libcc_algo_max_rp_bytes(void)
{
    size_t max = 0;
    ready();
    pthread_mutex_lock(&reg.lock);
    for (size_t i = 0; i < LIBCC_ALGORITHM_MAX; i++) {
        const libcc_algorithm *a = reg.slot[i].algorithm;
        if (a && libcc_rp_bytes(a) > max)
            max = libcc_rp_bytes(a);
    }
    pthread_mutex_unlock(&reg.lock);
    return max;
}

int libcc_algorithm_info_get(const char *algorithm, libcc_algorithm_info *info)
{
    if (!info)
        return LIBCC_ERR_INVALID_ARG;
    const libcc_algorithm *a = libcc_algo_find(algorithm);
    if (!a)
        return LIBCC_ERR_UNKNOWN_ALGORITHM;
    memset(info, 0, sizeof *info);
    info->name = a->name;
    info->roles = a->roles;
    info->data_int = a->data_int;
    info->ack_int = a->ack_int;
    info->cp_needs_int_table = a->cp ? a->cp->needs_int_table : false;
    info->cp_on_enqueue = a->cp && a->cp->on_enqueue;
    info->int_hop_bytes = libcc_algo_int_hop_bytes(a);
    info->signals = a->signals;
    info->pint_bits = (a->signals & LIBCC_SIGNAL_DATA_PINT) ? a->pint_bits : 0;
    info->hpcc_sim_cc_mode = a->hpcc_sim_cc_mode;
    return LIBCC_OK;
}
