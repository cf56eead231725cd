#ifndef SHEEN_CWAYLAND_SHIM_H
#define SHEEN_CWAYLAND_SHIM_H

// libwayland-client and xkbcommon, as Swift sees them. The generated `static inline` request
// wrappers (wl_compositor_create_surface, ...) import as they are; what Swift cannot reach
// (interface addresses, memfd_create) is in the CXdgShell target's C code.

#include <wayland-client.h>
#include <wayland-cursor.h>
#include <xkbcommon/xkbcommon.h>
#include <xkbcommon/xkbcommon-keysyms.h>
#include <sys/mman.h>

#endif
