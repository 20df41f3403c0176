#ifndef LAMINA_CDUKTAPE_SHIM_H
#define LAMINA_CDUKTAPE_SHIM_H
// Duktape, the embedded JavaScript engine that lamina-expr runs Lottie
// expressions in (Debian: duktape-dev).
#include <duktape.h>
#endif
