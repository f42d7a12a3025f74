/* SPDX-License-Identifier: MIT */
/* A shared object that is no plugin: it lacks LIBCC_PLUGIN_ENTRY. */
int libcc_plugin_inti(void);

int libcc_plugin_inti(void)
{
    return 0;
}
