#define _GNU_SOURCE 1
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "CXdgShell.h"

const struct wl_interface *sheen_wl_compositor_interface(void) { return &wl_compositor_interface; }
const struct wl_interface *sheen_wl_shm_interface(void) { return &wl_shm_interface; }
const struct wl_interface *sheen_wl_seat_interface(void) { return &wl_seat_interface; }
const struct wl_interface *sheen_wl_output_interface(void) { return &wl_output_interface; }
const struct wl_interface *sheen_xdg_wm_base_interface(void) { return &xdg_wm_base_interface; }

int sheen_memfd_create(const char *name) { return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING); }

int sheen_seal_shrink(int fd) { return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_SEAL); }
