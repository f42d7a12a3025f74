/* SPDX-License-Identifier: MIT */
/*
 * FNCC All_INT_Table: per switch, an array indexed by port number holding
 * the latest INT record of each egress port, so a CP can stamp an ACK with
 * the record of the port its data went out of (FNCC Algorithm 1, line 8).
 * Entries are kept at full precision; quantising to the paper's 64-bit entry
 * is the wire encoder's job (libcc_int_fncc_encode), done when the record
 * leaves the switch.
 */
#include <libcc/libcc.h>

#include <stdlib.h>

/* A paper-sized switch has at most a few hundred ports; 65536 keeps a typo'd
 * count from allocating gigabytes and matches a 16-bit port number. */
#define INT_TABLE_MAX_PORTS 65536u

typedef struct int_table_entry {
    libcc_int_hop hop;
    /* A never-written port must read as "not found", not as a zero-rate
     * port: a zero B would make every U infinite at the sender. */
    uint8_t valid;
} int_table_entry;

struct libcc_int_table {
    uint32_t n_ports;
    int_table_entry entry[];
};

int libcc_int_table_new(libcc_int_table **out, uint32_t n_ports)
{
    if (out == NULL || n_ports == 0 || n_ports > INT_TABLE_MAX_PORTS)
        return LIBCC_ERR_INVALID_ARG;
    libcc_int_table *t = calloc(1, sizeof(*t) + (size_t)n_ports * sizeof(t->entry[0]));
    if (t == NULL)
        return LIBCC_ERR_NOMEM;
    t->n_ports = n_ports;
    *out = t;
    return LIBCC_OK;
}

void libcc_int_table_del(libcc_int_table *table)
{
    free(table);
}

int libcc_int_table_update(libcc_int_table *table, uint32_t port, const libcc_int_hop *hop)
{
    if (table == NULL || hop == NULL || port >= table->n_ports)
        return LIBCC_ERR_INVALID_ARG;
    /* Same reason as `valid`: a record with no link rate is unusable. */
    if (hop->bandwidth_bps == 0)
        return LIBCC_ERR_BAD_TELEMETRY;
    table->entry[port].hop = *hop;
    table->entry[port].valid = 1;
    return LIBCC_OK;
}

int libcc_int_table_get(const libcc_int_table *table, uint32_t port, libcc_int_hop *hop)
{
    if (table == NULL || hop == NULL || port >= table->n_ports)
        return LIBCC_ERR_INVALID_ARG;
    if (!table->entry[port].valid)
        return LIBCC_ERR_NOT_FOUND;
    *hop = table->entry[port].hop;
    return LIBCC_OK;
}
