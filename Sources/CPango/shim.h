#ifndef LAMINA_CPANGO_SHIM_H
#define LAMINA_CPANGO_SHIM_H
#include <pango/pangocairo.h>
// Macros that do not import into Swift.
static const int LAMINA_PANGO_SCALE = PANGO_SCALE;
#endif
