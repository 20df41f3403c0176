#ifndef LAMINA_CMALLOC_SHIM_H
#define LAMINA_CMALLOC_SHIM_H
#include <malloc.h>

// Fixes glibc's threshold above which a block is mapped on its own (and
// unmapped when freed) at `bytes`. Set explicitly, the threshold no longer
// rises each time such a block is freed (up to 32 MiB by default, after
// which blocks of that size come from the heap). Returns 1 on success.
static inline int lamina_fix_mmap_threshold(int bytes) {
  return mallopt(M_MMAP_THRESHOLD, bytes);
}
#endif
