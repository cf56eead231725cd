#ifndef SHEEN_CPNG_SHIM_H
#define SHEEN_CPNG_SHIM_H

#include <png.h>

#endif
