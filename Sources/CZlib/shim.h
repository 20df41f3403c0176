#ifndef LAMINA_CZLIB_SHIM_H
#define LAMINA_CZLIB_SHIM_H
#include <zlib.h>
// inflateInit2 is a macro: Swift cannot call it.
static inline int lamina_inflate_init_gzip(z_streamp stream) {
  return inflateInit2(stream, 16 + MAX_WBITS);
}
#endif
