#ifndef LAMINA_CGLES3_SHIM_H
#define LAMINA_CGLES3_SHIM_H
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>
#endif
