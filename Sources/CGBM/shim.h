#ifndef LAMINA_CGBM_SHIM_H
#define LAMINA_CGBM_SHIM_H
#include <gbm.h>
#include <fcntl.h>
#include <unistd.h>
#endif
