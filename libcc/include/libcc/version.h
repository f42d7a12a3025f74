/* SPDX-License-Identifier: MIT */
#ifndef LIBCC_VERSION_H
#define LIBCC_VERSION_H

#define LIBCC_VERSION_MAJOR 0
#define LIBCC_VERSION_MINOR 7
#define LIBCC_VERSION_PATCH 0
#define LIBCC_VERSION "0.7.0"
/* 0xMMmmpp: compare with >= in #if. */
#define LIBCC_VERSION_NUM ((LIBCC_VERSION_MAJOR << 16) | (LIBCC_VERSION_MINOR << 8) | LIBCC_VERSION_PATCH)

#ifdef __cplusplus
extern "C" {
#endif

typedef struct libcc_version_info {
    int major;
    int minor;
    int patch;
    int num;
    const char *str;
} libcc_version_info;

/* The version of the library actually linked (may differ from the header). */
#if defined(LIBCC_BUILDING) && defined(__GNUC__)
__attribute__((visibility("default")))
#endif
const libcc_version_info *libcc_version(void);

#ifdef __cplusplus
}
#endif

#endif /* LIBCC_VERSION_H */
