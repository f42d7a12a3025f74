/* SPDX-License-Identifier: MIT */
/* A plugin that needs a function no libcc has: dlopen's RTLD_NOW must
 * refuse it at load time, naming the symbol, rather than crash later. */
#include <stddef.h>

int libcc_no_such_function(void);
int libcc_plugin_init(char *err, size_t err_len);

int libcc_plugin_init(char *err, size_t err_len)
{
    (void)err;
    (void)err_len;
    return libcc_no_such_function();
}
