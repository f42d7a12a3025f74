/* SPDX-License-Identifier: MIT */
#include "test_support.h"

#include <check.h>
#include <libcc/libcc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *env_or(const char *name, const char *fallback)
{
    const char *v = getenv(name);
    return v && *v ? v : fallback;
}

char *ts_run_replay(const char *trace)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s/libcc-replay %s/%s 2>&1", env_or("LIBCC_TOOLS", "build/bin"),
             env_or("LIBCC_SRCDIR", "."), trace);
    FILE *f = popen(cmd, "r");
    ck_assert_ptr_nonnull(f);
    size_t cap = 1 << 16, len = 0, n;
    char *buf = malloc(cap);
    ck_assert_ptr_nonnull(buf);
    while ((n = fread(buf + len, 1, cap - 1 - len, f)) > 0) {
        len += n;
        if (len == cap - 1) {
            cap *= 2;
            buf = realloc(buf, cap);
            ck_assert_ptr_nonnull(buf);
        }
    }
    buf[len] = '\0';
    int st = pclose(f);
    ck_assert_msg(st == 0, "%s failed (%d): %s", cmd, st, buf);
    return buf;
}

double ts_csv_at(const char *csv, unsigned long long t, const char *event, const char *col)
{
    char head[1024], key[64];
    size_t hl = strcspn(csv, "\n");
    ck_assert_uint_lt(hl, sizeof head);
    memcpy(head, csv, hl);
    head[hl] = '\0';
    int idx = -1, i = 0;
    for (char *save = NULL, *c = strtok_r(head, ",", &save); c; c = strtok_r(NULL, ",", &save), i++)
        if (strcmp(c, col) == 0)
            idx = i;
    ck_assert_msg(idx >= 0, "no column %s", col);
    snprintf(key, sizeof key, "\n%llu,%s,", t, event);
    const char *p = strstr(csv, key);
    ck_assert_msg(p != NULL, "no row %s", key + 1);
    p++;
    for (i = 0; i < idx; i++) {
        p = strchr(p, ',');
        ck_assert_ptr_nonnull(p);
        p++;
    }
    return strtod(p, NULL);
}

char *ts_read_source_file(const char *relpath)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", env_or("LIBCC_SRCDIR", "."), relpath);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    ck_assert_int_ge(size, 0);
    char *buf = malloc((size_t)size + 1);
    ck_assert_ptr_nonnull(buf);
    size_t n = fread(buf, 1, (size_t)size, f);
    fclose(f);
    ck_assert_uint_eq(n, (size_t)size);
    buf[n] = '\0';
    return buf;
}

void ts_doc_has_params(const char *doc, const char *doc_name, const char *algo)
{
    const libcc_param_desc *t;
    size_t n;
    ck_assert_int_eq(libcc_algorithm_params(algo, &t, &n), LIBCC_OK);
    for (size_t i = 0; i < n; i++) {
        char d[48], lo[48], hi[48], want[600];
        libcc_format_value(t[i].unit, t[i].def, d, sizeof d);
        libcc_format_value(t[i].unit, t[i].min, lo, sizeof lo);
        libcc_format_value(t[i].unit, t[i].max, hi, sizeof hi);
        snprintf(want, sizeof want, "\n| `%s` | %s | %s | %s | %s | %s |\n", t[i].name,
                 libcc_unit_name(t[i].unit), d, lo, hi, t[i].doc);
        ck_assert_msg(strstr(doc, want) != NULL, "%s lacks the row%s", doc_name, want);
    }
}

libcc_params *ts_make_params(const char *algo, const char *assign)
{
    libcc_params *p = NULL;
    ck_assert_int_eq(libcc_params_new(&p, algo), LIBCC_OK);
    if (assign)
        ck_assert_msg(libcc_params_parse(p, assign) == LIBCC_OK, "%s", libcc_params_error(p));
    return p;
}

libcc_rp *ts_make_rp(const char *algo, const char *assign, uint64_t line_bps, uint64_t base_rtt_ns,
                     const libcc_rp_callbacks *cbs, void *user_data)
{
    libcc_params *p = ts_make_params(algo, assign);
    libcc_flow_info fi;
    memset(&fi, 0, sizeof fi);
    fi.line_rate_bps = line_bps;
    fi.base_rtt_ns = base_rtt_ns;
    fi.mtu_bytes = 1000;
    libcc_rp *rp = NULL;
    ck_assert_int_eq(libcc_rp_new(&rp, p, &fi, cbs, user_data, 0), LIBCC_OK);
    libcc_params_del(p);
    return rp;
}

double ts_rp_var(const libcc_rp *rp, const char *name)
{
    const libcc_param_desc *d;
    size_t n;
    double v[64];
    ck_assert_int_eq(libcc_rp_vars(rp, &d, &n), LIBCC_OK);
    ck_assert_uint_le(n, 64);
    ck_assert_int_eq(libcc_rp_read_vars(rp, v, n), LIBCC_OK);
    for (size_t i = 0; i < n; i++)
        if (strcmp(d[i].name, name) == 0)
            return v[i];
    ck_abort_msg("no variable %s", name);
    return 0.0;
}

libcc_ack ts_rtt_ack(uint64_t now, uint64_t seq, uint64_t rtt, unsigned hops)
{
    libcc_ack a;
    memset(&a, 0, sizeof a);
    a.seq = seq;
    a.has = LIBCC_ACK_HAS_TX_TS;
    a.tx_ts_ns = now - rtt;
    a.n_hops = (uint8_t)hops;
    return a;
}

int ts_on_rtt_ack(libcc_rp *rp, uint64_t now, uint64_t seq, uint64_t rtt)
{
    libcc_ack a = ts_rtt_ack(now, seq, rtt, 0);
    return libcc_rp_on_ack(rp, now, &a);
}

libcc_int_list ts_one_hop(uint64_t bandwidth_bps, uint64_t ts, uint64_t tx, uint64_t q)
{
    libcc_int_list l;
    libcc_int_list_init(&l);
    libcc_int_hop h;
    memset(&h, 0, sizeof h);
    h.bandwidth_bps = bandwidth_bps;
    h.ts_ns = ts;
    h.tx_bytes = tx;
    h.qlen_bytes = q;
    ck_assert_int_eq(libcc_int_list_push(&l, &h, 8), LIBCC_OK);
    return l;
}

libcc_cp *ts_make_cp(const char *algo, const char *assign, uint64_t link_bps, libcc_rand_fn rand)
{
    libcc_params *p = ts_make_params(algo, assign);
    libcc_cp_info info;
    memset(&info, 0, sizeof info);
    info.link_rate_bps = link_bps;
    info.rand = rand;
    libcc_cp *cp = NULL;
    ck_assert_int_eq(libcc_cp_new(&cp, p, &info), LIBCC_OK);
    libcc_params_del(p);
    return cp;
}
