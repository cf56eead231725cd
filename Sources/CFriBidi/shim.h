#ifndef SHEEN_CFRIBIDI_SHIM_H
#define SHEEN_CFRIBIDI_SHIM_H

#include <fribidi.h>

#endif
