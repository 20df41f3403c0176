#ifndef LAMINA_CJPEG_SHIM_H
#define LAMINA_CJPEG_SHIM_H
#include <stdio.h>
#include <stddef.h>
#include <jpeglib.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

// libjpeg reports fatal errors through longjmp from error_exit; Swift cannot
// host setjmp, so the whole decode lives in this one C function.
struct lamina_jpeg_error {
  struct jpeg_error_mgr base;
  jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

static void lamina_jpeg_error_exit(j_common_ptr cinfo) {
  struct lamina_jpeg_error *err = (struct lamina_jpeg_error *)cinfo->err;
  (*cinfo->err->format_message)(cinfo, err->message);
  longjmp(err->jump, 1);
}

static void lamina_jpeg_output_message(j_common_ptr cinfo) { (void)cinfo; }

/// Decodes a JPEG held in memory to 8-bit RGBA (alpha 255). Returns 0 on
/// success with *out malloc'ed (free with free()); otherwise non-zero with
/// the decoder's message in message (at least JMSG_LENGTH_MAX bytes).
/// max_pixels bounds width*height before any pixel memory is allocated.
static inline int lamina_jpeg_decode(const unsigned char *data, unsigned long size,
                                     unsigned long max_pixels,
                                     unsigned char **out, unsigned *width,
                                     unsigned *height, char *message) {
  struct jpeg_decompress_struct cinfo;
  struct lamina_jpeg_error err;
  unsigned char *volatile pixels = NULL;
  *out = NULL;
  message[0] = 0;
  cinfo.err = jpeg_std_error(&err.base);
  err.base.error_exit = lamina_jpeg_error_exit;
  err.base.output_message = lamina_jpeg_output_message;
  err.message[0] = 0;
  if (setjmp(err.jump)) {
    strncpy(message, err.message, JMSG_LENGTH_MAX - 1);
    message[JMSG_LENGTH_MAX - 1] = 0;
    jpeg_destroy_decompress(&cinfo);
    free(pixels);
    return 1;
  }
  jpeg_create_decompress(&cinfo);
  jpeg_mem_src(&cinfo, data, size);
  jpeg_read_header(&cinfo, TRUE);
  cinfo.out_color_space = JCS_EXT_RGBA;
  jpeg_start_decompress(&cinfo);
  *width = cinfo.output_width;
  *height = cinfo.output_height;
  if ((unsigned long)cinfo.output_width * cinfo.output_height > max_pixels) {
    snprintf(message, JMSG_LENGTH_MAX, "image of %ux%u pixels is larger than allowed",
             cinfo.output_width, cinfo.output_height);
    jpeg_destroy_decompress(&cinfo);
    return 2;
  }
  size_t stride = (size_t)cinfo.output_width * 4;
  pixels = (unsigned char *)malloc(stride * cinfo.output_height);
  if (!pixels) {
    strcpy(message, "out of memory");
    jpeg_destroy_decompress(&cinfo);
    return 3;
  }
  while (cinfo.output_scanline < cinfo.output_height) {
    unsigned char *row = pixels + stride * cinfo.output_scanline;
    jpeg_read_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_decompress(&cinfo);
  *width = cinfo.output_width;
  *height = cinfo.output_height;
  jpeg_destroy_decompress(&cinfo);
  *out = pixels;
  pixels = NULL;
  return 0;
}
#endif
