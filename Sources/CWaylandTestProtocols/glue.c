#include "CWaylandTestProtocols.h"

const struct wl_interface *sheen_zwlr_virtual_pointer_manager_v1_interface(void) {
  return &zwlr_virtual_pointer_manager_v1_interface;
}
