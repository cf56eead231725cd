#ifndef SHEEN_CX11_SHIM_H
#define SHEEN_CX11_SHIM_H

// Xutil's XDestroyImage and friends are macros unless this is defined.
#define XUTIL_DEFINE_FUNCTIONS 1

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/keysym.h>
#include <X11/extensions/XShm.h>
#include <sys/ipc.h>
#include <sys/shm.h>

#endif
