#ifndef SHEEN_CUNIBREAK_SHIM_H
#define SHEEN_CUNIBREAK_SHIM_H

#include <linebreak.h>

#endif
