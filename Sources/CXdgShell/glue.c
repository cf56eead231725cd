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
const struct wl_interface *sheen_wl_subcompositor_interface(void) { return &wl_subcompositor_interface; }
const struct wl_interface *sheen_wp_viewporter_interface(void) { return &wp_viewporter_interface; }
const struct wl_interface *sheen_wp_fractional_scale_manager_v1_interface(void) {
  return &wp_fractional_scale_manager_v1_interface;
}
const struct wl_interface *sheen_zxdg_decoration_manager_v1_interface(void) {
  return &zxdg_decoration_manager_v1_interface;
}
const struct wl_interface *sheen_wp_cursor_shape_manager_v1_interface(void) {
  return &wp_cursor_shape_manager_v1_interface;
}

int sheen_memfd_create(const char *name) { return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING); }

int sheen_seal_shrink(int fd) { return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_SEAL); }
