#ifndef LAMINA_CEGL_SHIM_H
#define LAMINA_CEGL_SHIM_H
// Keep X11 out: EGL/eglplatform.h pulls in Xlib unless told otherwise.
#define EGL_NO_X11 1
#define MESA_EGL_NO_X11_HEADERS 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#endif
