#ifndef SHEEN_CFONTCONFIG_SHIM_H
#define SHEEN_CFONTCONFIG_SHIM_H

#include <fontconfig/fontconfig.h>

#endif
