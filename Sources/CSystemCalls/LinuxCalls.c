// GNU calls that Swift's Glibc module does not declare, called directly:
// looked up at run time (`dlsym`), they were never found in the static
// release build, which then silently did without them.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "CSystemCalls.h"

#include <errno.h>
#include <stdio.h>

#if defined(__linux__) && defined(__GLIBC__)
#include <fcntl.h>
#include <sys/xattr.h>

int tick_exchange_names(int folder, const char *first, const char *second) {
    return renameat2(folder, first, folder, second, RENAME_EXCHANGE);
}

long tick_list_attributes(int file, char *names, size_t size) { return flistxattr(file, names, size); }

long tick_get_attribute(int file, const char *name, void *value, size_t size) { return fgetxattr(file, name, value, size); }

int tick_set_attribute(int file, const char *name, const void *value, size_t size) {
    return fsetxattr(file, name, value, size, 0);
}

#else

int tick_exchange_names(int folder, const char *first, const char *second) {
    (void)folder, (void)first, (void)second;
    errno = ENOSYS;
    return -1;
}

long tick_list_attributes(int file, char *names, size_t size) {
    (void)file, (void)names, (void)size;
    errno = ENOSYS;
    return -1;
}

long tick_get_attribute(int file, const char *name, void *value, size_t size) {
    (void)file, (void)name, (void)value, (void)size;
    errno = ENOSYS;
    return -1;
}

int tick_set_attribute(int file, const char *name, const void *value, size_t size) {
    (void)file, (void)name, (void)value, (void)size;
    errno = ENOSYS;
    return -1;
}

#endif
