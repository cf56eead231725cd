#ifndef SHEEN_CTHAI_SHIM_H
#define SHEEN_CTHAI_SHIM_H

// libthai: Thai word segmentation by dictionary, for line breaking (as Pango does).
#include <thai/thbrk.h>
#include <thai/thwbrk.h>

#endif
