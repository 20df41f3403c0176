#ifndef LAMINA_CWEBP_SHIM_H
#define LAMINA_CWEBP_SHIM_H
#include <webp/decode.h>
// WebPGetFeatures and WebPInitDecoderConfig are inline functions over
// versioned internals that import into Swift; these wrappers keep the ABI
// version where libwebp's header puts it.
static inline VP8StatusCode lamina_webp_features(
    const uint8_t* data, size_t size, WebPBitstreamFeatures* features) {
  return WebPGetFeatures(data, size, features);
}
#endif
