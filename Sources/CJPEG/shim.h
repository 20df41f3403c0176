#ifndef LAMINA_CJPEG_SHIM_H
#define LAMINA_CJPEG_SHIM_H
#include <stdio.h>
#include <stddef.h>
#include <jpeglib.h>
#include <jerror.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

// libjpeg reports fatal errors through longjmp from error_exit; Swift cannot
// host setjmp, so each libjpeg call sequence lives in one C function here.
// A decode is two calls: the header (dimensions as they will be output,
// from jpeg_calc_output_dimensions) so that the caller checks its limits
// before any pixel memory exists, then the pixels into the caller's buffer.
struct lamina_jpeg_error {
  struct jpeg_error_mgr base;
  struct jpeg_progress_mgr progress;
  jmp_buf jump;
  int max_scans;
  int too_many_scans;
  char message[JMSG_LENGTH_MAX];
};

static void lamina_jpeg_error_exit(j_common_ptr cinfo) {
  struct lamina_jpeg_error *err = (struct lamina_jpeg_error *)cinfo->err;
  (*cinfo->err->format_message)(cinfo, err->message);
  longjmp(err->jump, 1);
}

// Warnings that mean the data is cut short or corrupt end the decode: a
// truncated file is an error, not a gray image. Warnings about harmless
// oddities (unknown JFIF revisions, extraneous bytes) are ignored, and
// nothing is ever printed.
static void lamina_jpeg_emit_message(j_common_ptr cinfo, int level) {
  if (level != -1) return;
  switch (cinfo->err->msg_code) {
  case JWRN_JPEG_EOF:
  case JWRN_HIT_MARKER:
  case JWRN_MUST_RESYNC:
  case JWRN_HUFF_BAD_CODE:
  case JWRN_ARITH_BAD_CODE:
  case JWRN_NOT_SEQUENTIAL:
  case JWRN_BOGUS_PROGRESSION:
    (*cinfo->err->error_exit)(cinfo);
    break;
  default:
    break;
  }
}

static void lamina_jpeg_output_message(j_common_ptr cinfo) { (void)cinfo; }

// Each scan of a progressive JPEG is a pass over the whole image; a file
// can hold thousands. The progress monitor runs while the scans are read
// and stops the decode past the limit.
static void lamina_jpeg_progress(j_common_ptr cinfo) {
  struct lamina_jpeg_error *err = (struct lamina_jpeg_error *)cinfo->err;
  if (!cinfo->is_decompressor) return;
  if (((j_decompress_ptr)cinfo)->input_scan_number > err->max_scans) {
    err->too_many_scans = 1;
    snprintf(err->message, JMSG_LENGTH_MAX, "more than %d progressive scans", err->max_scans);
    longjmp(err->jump, 1);
  }
}

static inline void lamina_jpeg_setup(struct jpeg_decompress_struct *cinfo,
                                     struct lamina_jpeg_error *err, int max_scans) {
  cinfo->err = jpeg_std_error(&err->base);
  err->base.error_exit = lamina_jpeg_error_exit;
  err->base.emit_message = lamina_jpeg_emit_message;
  err->base.output_message = lamina_jpeg_output_message;
  err->message[0] = 0;
  err->max_scans = max_scans;
  err->too_many_scans = 0;
  err->progress.progress_monitor = lamina_jpeg_progress;
}

/// Reads the header of a JPEG held in memory: the width and height of the
/// image as it will be decoded to RGBA. Returns 0 on success; otherwise
/// non-zero with the decoder's message in message (JMSG_LENGTH_MAX bytes).
static inline int lamina_jpeg_header(const unsigned char *data, unsigned long size,
                                     unsigned *width, unsigned *height,
                                     int *progressive, char *message) {
  struct jpeg_decompress_struct cinfo;
  struct lamina_jpeg_error err;
  memset(&cinfo, 0, sizeof cinfo);
  message[0] = 0;
  lamina_jpeg_setup(&cinfo, &err, 1 << 30);
  if (setjmp(err.jump)) {
    strncpy(message, err.message, JMSG_LENGTH_MAX - 1);
    message[JMSG_LENGTH_MAX - 1] = 0;
    jpeg_destroy_decompress(&cinfo);
    return 1;
  }
  jpeg_create_decompress(&cinfo);
  jpeg_mem_src(&cinfo, data, size);
  jpeg_read_header(&cinfo, TRUE);
  cinfo.out_color_space = JCS_EXT_RGBA;
  jpeg_calc_output_dimensions(&cinfo);
  *width = cinfo.output_width;
  *height = cinfo.output_height;
  *progressive = jpeg_has_multiple_scans(&cinfo) ? 1 : 0;
  jpeg_destroy_decompress(&cinfo);
  return 0;
}

/// Decodes a JPEG held in memory to 8-bit RGBA (alpha 255) into `pixels`,
/// `width * height * 4` bytes that the caller allocated after checking the
/// header. Returns 0 on success, 2 when the file has more than `max_scans`
/// scans, 3 when its dimensions differ from `width` and `height`, 1 for any
/// other failure, with the decoder's message in message. `max_memory`
/// bounds libjpeg's own working memory (a progressive file's coefficients).
static inline int lamina_jpeg_decode(const unsigned char *data, unsigned long size,
                                     unsigned char *pixels, unsigned width, unsigned height,
                                     int max_scans, long max_memory, char *message) {
  struct jpeg_decompress_struct cinfo;
  struct lamina_jpeg_error err;
  memset(&cinfo, 0, sizeof cinfo);
  message[0] = 0;
  lamina_jpeg_setup(&cinfo, &err, max_scans);
  if (setjmp(err.jump)) {
    strncpy(message, err.message, JMSG_LENGTH_MAX - 1);
    message[JMSG_LENGTH_MAX - 1] = 0;
    jpeg_destroy_decompress(&cinfo);
    return err.too_many_scans ? 2 : 1;
  }
  jpeg_create_decompress(&cinfo);
  cinfo.progress = &err.progress;
  cinfo.mem->max_memory_to_use = max_memory;
  jpeg_mem_src(&cinfo, data, size);
  jpeg_read_header(&cinfo, TRUE);
  cinfo.out_color_space = JCS_EXT_RGBA;
  jpeg_calc_output_dimensions(&cinfo);
  if (cinfo.output_width != width || cinfo.output_height != height) {
    snprintf(message, JMSG_LENGTH_MAX, "dimensions changed between reads");
    jpeg_destroy_decompress(&cinfo);
    return 3;
  }
  jpeg_start_decompress(&cinfo);
  size_t stride = (size_t)width * 4;
  while (cinfo.output_scanline < cinfo.output_height) {
    unsigned char *row = pixels + stride * cinfo.output_scanline;
    if (jpeg_read_scanlines(&cinfo, &row, 1) != 1) {
      snprintf(message, JMSG_LENGTH_MAX, "Premature end of JPEG file");
      jpeg_destroy_decompress(&cinfo);
      return 1;
    }
  }
  jpeg_finish_decompress(&cinfo);
  jpeg_destroy_decompress(&cinfo);
  return 0;
}
#endif
