#ifndef LAMINA_CWAYLAND_SHIM_H
#define LAMINA_CWAYLAND_SHIM_H
#include <wayland-client.h>
#include <wayland-egl.h>
#include <poll.h>
#endif
