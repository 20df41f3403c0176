#ifndef LAMINA_CFILEACCESS_SHIM_H
#define LAMINA_CFILEACCESS_SHIM_H
// openat2(2) with RESOLVE_BENEATH: the kernel resolves a path beneath a
// directory and refuses, in the same step as the open, anything that would
// leave it ("..", absolute links, links leading out). glibc has no wrapper
// (and Swift cannot call the variadic syscall(2)), hence this shim.
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#define LAMINA_HAS_OPENAT2 1
#endif

// O_PATH is hidden behind _GNU_SOURCE; glibc always has __O_PATH.
#ifdef O_PATH
static const int LAMINA_O_PATH = O_PATH;
#else
static const int LAMINA_O_PATH = __O_PATH;
#endif

/// Opens `path` (relative) beneath the directory `dirfd` with `flags`;
/// -1 with errno set on failure (ENOSYS where the kernel or the headers
/// lack openat2, EXDEV or ELOOP for a path that would leave `dirfd`).
static inline int lamina_open_beneath(int dirfd, const char *path, int flags) {
#if defined(LAMINA_HAS_OPENAT2) && defined(SYS_openat2)
  struct open_how how;
  memset(&how, 0, sizeof how);
  how.flags = (unsigned long long)flags;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof how);
#else
  (void)dirfd;
  (void)path;
  (void)flags;
  errno = ENOSYS;
  return -1;
#endif
}
#endif
