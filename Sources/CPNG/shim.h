#ifndef LAMINA_CPNG_SHIM_H
#define LAMINA_CPNG_SHIM_H
#include <png.h>
// Function-like format macros do not import into Swift.
static const png_uint_32 LAMINA_PNG_FORMAT_RGBA = PNG_FORMAT_RGBA;
static const png_uint_32 LAMINA_PNG_IMAGE_VERSION = PNG_IMAGE_VERSION;
static inline int lamina_png_failed(png_imagep image) { return PNG_IMAGE_FAILED(*image); }
#endif
