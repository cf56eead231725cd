#include <stdlib.h>
#include <string.h>

#include "CWaylandTestProtocols.h"

struct sheen_test_globals {
  struct zwlr_virtual_pointer_manager_v1 *manager;
};

static void registry_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
                            uint32_t version) {
  struct sheen_test_globals *globals = data;
  if (strcmp(interface, zwlr_virtual_pointer_manager_v1_interface.name) == 0 && globals->manager == NULL) {
    globals->manager = wl_registry_bind(registry, name, &zwlr_virtual_pointer_manager_v1_interface, 1);
  }
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name) {}

static const struct wl_registry_listener registry_listener = {registry_global, registry_global_remove};

struct zwlr_virtual_pointer_v1 *sheen_test_create_virtual_pointer(struct wl_display *display) {
  struct sheen_test_globals globals = {NULL};
  struct wl_registry *registry = wl_display_get_registry(display);
  wl_registry_add_listener(registry, &registry_listener, &globals);
  if (wl_display_roundtrip(display) < 0 || globals.manager == NULL) {
    wl_registry_destroy(registry);
    return NULL;
  }
  struct zwlr_virtual_pointer_v1 *pointer =
      zwlr_virtual_pointer_manager_v1_create_virtual_pointer(globals.manager, NULL);
  zwlr_virtual_pointer_manager_v1_destroy(globals.manager);
  wl_registry_destroy(registry);
  if (wl_display_roundtrip(display) < 0) return NULL;
  return pointer;
}
