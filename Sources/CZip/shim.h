#ifndef LAMINA_CZIP_SHIM_H
#define LAMINA_CZIP_SHIM_H
#include <zip.h>
#endif
