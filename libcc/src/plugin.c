/* SPDX-License-Identifier: MIT */
/* Plugins: a shared object whose one entry point (LIBCC_PLUGIN_ENTRY)
 * registers its algorithms. It is never unloaded: objects, params and the
 * registry keep pointers into it for the rest of the process. */
#define _POSIX_C_SOURCE 200809L
#include "cc_internal.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int libcc_plugin_load(const char *path, char *err, size_t err_len)
{
    if (err && err_len)
        err[0] = '\0';
    if (!path || !path[0]) {
        if (err && err_len)
            snprintf(err, err_len, "plugin path is %s", path ? "empty" : "NULL");
        return LIBCC_ERR_INVALID_ARG;
    }
    /* RTLD_NOW: a missing symbol is an error here, with the file named, not
     * a crash at the first call; RTLD_LOCAL: plugins cannot clash. */
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        /* dlerror's text often starts with the path itself: once is enough. */
        const char *why = dlerror();
        const size_t n = strlen(path);
        if (why && strncmp(why, path, n) == 0 && why[n] == ':')
            why += n + (why[n + 1] == ' ' ? 2 : 1);
        if (err && err_len)
            snprintf(err, err_len, "%s: %s", path, why ? why : "cannot load");
        return LIBCC_ERR_PLUGIN;
    }
    /* POSIX's way to turn the object pointer dlsym returns into a function
     * pointer (ISO C has no conversion between them). */
    libcc_plugin_init_fn init;
    void *sym = dlsym(h, LIBCC_PLUGIN_ENTRY);
    if (!sym) {
        if (err && err_len)
            snprintf(err, err_len, "%s: no %s symbol", path, LIBCC_PLUGIN_ENTRY);
        dlclose(h); /* nothing of it was used */
        return LIBCC_ERR_PLUGIN;
    }
    memcpy(&init, &sym, sizeof init);
    char why[256] = "";
    int rc = init(why, sizeof why);
    if (rc && err && err_len)
        snprintf(err, err_len, "%s: %s", path, why[0] ? why : libcc_strerror(rc));
    /* Stays loaded even on failure: it may have registered algorithms
     * before the one that failed. */
    return rc;
}
