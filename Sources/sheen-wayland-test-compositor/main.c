// A minimal Wayland compositor for Sheen's tests of what Debian 12's compositors lack:
// wp_fractional_scale_v1 (with wp_viewporter) and wp_cursor_shape_v1. It shows nothing: it
// offers wl_compositor 4, wl_shm, xdg_wm_base, wp_viewporter, wp_fractional_scale_manager_v1, a
// wl_seat with a pointer and, with --cursor-shape, wp_cursor_shape_manager_v1. It tells every
// surface its preferred scale (argv[2] in 120ths), configures each toplevel, answers frame
// callbacks, releases buffers at once, moves the pointer into the first toplevel that shows a
// buffer, and prints what the client did:
//   commit buffer=WxH scale=S destination=WxH   (a commit with a buffer; -1x-1: no destination)
//   enter serial=S                              (the pointer entered a toplevel)
//   cursor shape=N serial=S                     (wp_cursor_shape_device_v1.set_shape)
//   cursor surface serial=S hotspot=X,Y         (wl_pointer.set_cursor with a surface)
// Usage: sheen-wayland-test-compositor SOCKET SCALE120 [--cursor-shape]   (in $XDG_RUNTIME_DIR)
#include <stdio.h>
#include <stdlib.h>
#include <wayland-server.h>

#include <string.h>

#include "cursor-shape-v1-server-protocol.h"
#include "fractional-scale-v1-server-protocol.h"
#include "viewporter-server-protocol.h"
#include "xdg-shell-server-protocol.h"

static uint32_t preferred_scale = 120;
static struct wl_display *display;
/// The client's pointer (the last one made), and whether it entered a toplevel yet.
static struct wl_resource *pointer_resource;
static int pointer_entered;

struct surface {
  struct wl_resource *resource;
  struct wl_resource *pending_buffer;
  int has_pending_buffer;
  int32_t scale, pending_scale;
  int32_t destination_width, destination_height;
  int32_t pending_destination_width, pending_destination_height;
  struct wl_list frame_callbacks;  // wl_resource links
  struct wl_resource *xdg_surface;
  int configured;
  uint32_t serial;
};

static void destroy_resource(struct wl_client *client, struct wl_resource *resource) {
  wl_resource_destroy(resource);
}

// wl_region: nothing is kept.
static void region_rect(struct wl_client *c, struct wl_resource *r, int32_t x, int32_t y, int32_t w, int32_t h) {}
static const struct wl_region_interface region_impl = {destroy_resource, region_rect, region_rect};

// wl_surface
static void surface_attach(struct wl_client *c, struct wl_resource *r, struct wl_resource *buffer, int32_t x,
                           int32_t y) {
  struct surface *s = wl_resource_get_user_data(r);
  s->pending_buffer = buffer;
  s->has_pending_buffer = 1;
}
static void surface_damage(struct wl_client *c, struct wl_resource *r, int32_t x, int32_t y, int32_t w, int32_t h) {}
static void unlink_resource(struct wl_resource *r) { wl_list_remove(wl_resource_get_link(r)); }
static void surface_frame(struct wl_client *c, struct wl_resource *r, uint32_t id) {
  struct surface *s = wl_resource_get_user_data(r);
  struct wl_resource *callback = wl_resource_create(c, &wl_callback_interface, 1, id);
  if (callback == NULL) return;
  wl_resource_set_implementation(callback, NULL, NULL, unlink_resource);
  wl_list_insert(s->frame_callbacks.prev, wl_resource_get_link(callback));
}
static void surface_region(struct wl_client *c, struct wl_resource *r, struct wl_resource *region) {}
static void send_configure(struct surface *s);
static void surface_commit(struct wl_client *c, struct wl_resource *r) {
  struct surface *s = wl_resource_get_user_data(r);
  s->scale = s->pending_scale;
  s->destination_width = s->pending_destination_width;
  s->destination_height = s->pending_destination_height;
  if (s->has_pending_buffer && s->pending_buffer != NULL) {
    struct wl_shm_buffer *shm = wl_shm_buffer_get(s->pending_buffer);
    printf("commit buffer=%dx%d scale=%d destination=%dx%d\n", shm ? wl_shm_buffer_get_width(shm) : -1,
           shm ? wl_shm_buffer_get_height(shm) : -1, s->scale, s->destination_width, s->destination_height);
    fflush(stdout);
    wl_buffer_send_release(s->pending_buffer);
    if (s->xdg_surface != NULL && pointer_resource != NULL && !pointer_entered) {
      uint32_t serial = wl_display_next_serial(display);
      wl_pointer_send_enter(pointer_resource, serial, s->resource, wl_fixed_from_int(10), wl_fixed_from_int(10));
      if (wl_resource_get_version(pointer_resource) >= 5) wl_pointer_send_frame(pointer_resource);
      pointer_entered = 1;
      printf("enter serial=%u\n", serial);
      fflush(stdout);
    }
  }
  s->has_pending_buffer = 0;
  s->pending_buffer = NULL;
  struct wl_resource *callback, *next;
  wl_resource_for_each_safe(callback, next, &s->frame_callbacks) {
    wl_callback_send_done(callback, 0);
    wl_resource_destroy(callback);
  }
  if (s->xdg_surface != NULL && !s->configured) send_configure(s);
}
static void surface_transform(struct wl_client *c, struct wl_resource *r, int32_t t) {}
static void surface_scale(struct wl_client *c, struct wl_resource *r, int32_t scale) {
  ((struct surface *)wl_resource_get_user_data(r))->pending_scale = scale;
}
static const struct wl_surface_interface surface_impl = {
    destroy_resource, surface_attach,    surface_damage, surface_frame, surface_region, surface_region,
    surface_commit,   surface_transform, surface_scale,  surface_damage};

static void surface_destroyed(struct wl_resource *r) {
  struct surface *s = wl_resource_get_user_data(r);
  struct wl_resource *callback, *next;
  wl_resource_for_each_safe(callback, next, &s->frame_callbacks) { wl_resource_destroy(callback); }
  free(s);
}

// wl_compositor
static void create_surface(struct wl_client *c, struct wl_resource *r, uint32_t id) {
  struct surface *s = calloc(1, sizeof *s);
  s->resource = wl_resource_create(c, &wl_surface_interface, wl_resource_get_version(r), id);
  s->scale = s->pending_scale = 1;
  s->destination_width = s->destination_height = -1;
  s->pending_destination_width = s->pending_destination_height = -1;
  wl_list_init(&s->frame_callbacks);
  wl_resource_set_implementation(s->resource, &surface_impl, s, surface_destroyed);
}
static void create_region(struct wl_client *c, struct wl_resource *r, uint32_t id) {
  struct wl_resource *region = wl_resource_create(c, &wl_region_interface, 1, id);
  wl_resource_set_implementation(region, &region_impl, NULL, NULL);
}
static const struct wl_compositor_interface compositor_impl = {create_surface, create_region};

// xdg_toplevel: every request but destroy is accepted and ignored.
static void toplevel_parent(struct wl_client *c, struct wl_resource *r, struct wl_resource *p) {}
static void toplevel_string(struct wl_client *c, struct wl_resource *r, const char *s) {}
static void toplevel_menu(struct wl_client *c, struct wl_resource *r, struct wl_resource *seat, uint32_t serial,
                          int32_t x, int32_t y) {}
static void toplevel_move(struct wl_client *c, struct wl_resource *r, struct wl_resource *seat, uint32_t serial) {}
static void toplevel_resize(struct wl_client *c, struct wl_resource *r, struct wl_resource *seat, uint32_t serial,
                            uint32_t edges) {}
static void toplevel_size(struct wl_client *c, struct wl_resource *r, int32_t w, int32_t h) {}
static void toplevel_none(struct wl_client *c, struct wl_resource *r) {}
static void toplevel_fullscreen(struct wl_client *c, struct wl_resource *r, struct wl_resource *output) {}
static const struct xdg_toplevel_interface toplevel_impl = {
    destroy_resource, toplevel_parent, toplevel_string, toplevel_string, toplevel_menu,
    toplevel_move,    toplevel_resize, toplevel_size,   toplevel_size,   toplevel_none,
    toplevel_none,    toplevel_fullscreen, toplevel_none, toplevel_none};

static void send_configure(struct surface *s) {
  struct wl_array states;
  wl_array_init(&states);
  struct wl_resource *toplevel = wl_resource_get_user_data(s->xdg_surface);
  if (toplevel != NULL) xdg_toplevel_send_configure(toplevel, 0, 0, &states);
  wl_array_release(&states);
  xdg_surface_send_configure(s->xdg_surface, ++s->serial);
  s->configured = 1;
}

static void get_toplevel(struct wl_client *c, struct wl_resource *r, uint32_t id) {
  struct wl_resource *toplevel = wl_resource_create(c, &xdg_toplevel_interface, wl_resource_get_version(r), id);
  wl_resource_set_implementation(toplevel, &toplevel_impl, NULL, NULL);
  wl_resource_set_user_data(r, toplevel);
}
static void get_popup(struct wl_client *c, struct wl_resource *r, uint32_t id, struct wl_resource *parent,
                      struct wl_resource *positioner) {}
static void set_window_geometry(struct wl_client *c, struct wl_resource *r, int32_t x, int32_t y, int32_t w,
                                int32_t h) {}
static void ack_configure(struct wl_client *c, struct wl_resource *r, uint32_t serial) {}
static const struct xdg_surface_interface xdg_surface_impl = {destroy_resource, get_toplevel, get_popup,
                                                             set_window_geometry, ack_configure};

// xdg_wm_base
static void create_positioner(struct wl_client *c, struct wl_resource *r, uint32_t id) {
  wl_client_post_implementation_error(c, "the test compositor has no positioners");
}
static void get_xdg_surface(struct wl_client *c, struct wl_resource *r, uint32_t id, struct wl_resource *surface) {
  struct surface *s = wl_resource_get_user_data(surface);
  s->xdg_surface = wl_resource_create(c, &xdg_surface_interface, wl_resource_get_version(r), id);
  wl_resource_set_implementation(s->xdg_surface, &xdg_surface_impl, NULL, NULL);
}
static void pong(struct wl_client *c, struct wl_resource *r, uint32_t serial) {}
static const struct xdg_wm_base_interface wm_base_impl = {destroy_resource, create_positioner, get_xdg_surface,
                                                         pong};

// wp_viewporter
static void viewport_source(struct wl_client *c, struct wl_resource *r, wl_fixed_t x, wl_fixed_t y, wl_fixed_t w,
                            wl_fixed_t h) {}
static void viewport_destination(struct wl_client *c, struct wl_resource *r, int32_t w, int32_t h) {
  struct surface *s = wl_resource_get_user_data(r);
  s->pending_destination_width = w;
  s->pending_destination_height = h;
}
static const struct wp_viewport_interface viewport_impl = {destroy_resource, viewport_source, viewport_destination};
static void get_viewport(struct wl_client *c, struct wl_resource *r, uint32_t id, struct wl_resource *surface) {
  struct wl_resource *viewport = wl_resource_create(c, &wp_viewport_interface, 1, id);
  wl_resource_set_implementation(viewport, &viewport_impl, wl_resource_get_user_data(surface), NULL);
}
static const struct wp_viewporter_interface viewporter_impl = {destroy_resource, get_viewport};

// wp_fractional_scale_manager_v1
static const struct wp_fractional_scale_v1_interface fractional_impl = {destroy_resource};
static void get_fractional_scale(struct wl_client *c, struct wl_resource *r, uint32_t id,
                                 struct wl_resource *surface) {
  struct wl_resource *fractional = wl_resource_create(c, &wp_fractional_scale_v1_interface, 1, id);
  wl_resource_set_implementation(fractional, &fractional_impl, NULL, NULL);
  wp_fractional_scale_v1_send_preferred_scale(fractional, preferred_scale);
}
static const struct wp_fractional_scale_manager_v1_interface fractional_manager_impl = {destroy_resource,
                                                                                       get_fractional_scale};

// wl_seat with a pointer
static void pointer_set_cursor(struct wl_client *c, struct wl_resource *r, uint32_t serial,
                               struct wl_resource *surface, int32_t x, int32_t y) {
  if (surface == NULL) return;
  printf("cursor surface serial=%u hotspot=%d,%d\n", serial, x, y);
  fflush(stdout);
}
static const struct wl_pointer_interface pointer_impl = {pointer_set_cursor, destroy_resource};
static const struct wl_keyboard_interface keyboard_impl = {destroy_resource};
static const struct wl_touch_interface touch_impl = {destroy_resource};
static void pointer_destroyed(struct wl_resource *r) {
  if (pointer_resource == r) pointer_resource = NULL;
}
static void get_pointer(struct wl_client *c, struct wl_resource *r, uint32_t id) {
  struct wl_resource *pointer = wl_resource_create(c, &wl_pointer_interface, wl_resource_get_version(r), id);
  wl_resource_set_implementation(pointer, &pointer_impl, NULL, pointer_destroyed);
  pointer_resource = pointer;
}
static void get_keyboard(struct wl_client *c, struct wl_resource *r, uint32_t id) {
  struct wl_resource *keyboard = wl_resource_create(c, &wl_keyboard_interface, wl_resource_get_version(r), id);
  wl_resource_set_implementation(keyboard, &keyboard_impl, NULL, NULL);
}
static void get_touch(struct wl_client *c, struct wl_resource *r, uint32_t id) {
  struct wl_resource *touch = wl_resource_create(c, &wl_touch_interface, wl_resource_get_version(r), id);
  wl_resource_set_implementation(touch, &touch_impl, NULL, NULL);
}
static const struct wl_seat_interface seat_impl = {get_pointer, get_keyboard, get_touch, destroy_resource};
static void bind_seat(struct wl_client *c, void *data, uint32_t version, uint32_t id) {
  struct wl_resource *r = wl_resource_create(c, &wl_seat_interface, (int)version, id);
  wl_resource_set_implementation(r, &seat_impl, NULL, NULL);
  wl_seat_send_capabilities(r, WL_SEAT_CAPABILITY_POINTER);
}

// wp_cursor_shape_manager_v1
static void set_shape(struct wl_client *c, struct wl_resource *r, uint32_t serial, uint32_t shape) {
  printf("cursor shape=%u serial=%u\n", shape, serial);
  fflush(stdout);
}
static const struct wp_cursor_shape_device_v1_interface shape_device_impl = {destroy_resource, set_shape};
static void get_shape_device(struct wl_client *c, struct wl_resource *r, uint32_t id, struct wl_resource *pointer) {
  struct wl_resource *device = wl_resource_create(c, &wp_cursor_shape_device_v1_interface, 1, id);
  wl_resource_set_implementation(device, &shape_device_impl, NULL, NULL);
}
static const struct wp_cursor_shape_manager_v1_interface shape_manager_impl = {destroy_resource, get_shape_device};

#define BINDER(name, interface, impl)                                                                \
  static void name(struct wl_client *c, void *data, uint32_t version, uint32_t id) {                   \
    struct wl_resource *r = wl_resource_create(c, &interface, (int)version, id);                       \
    wl_resource_set_implementation(r, &impl, NULL, NULL);                                              \
  }
BINDER(bind_compositor, wl_compositor_interface, compositor_impl)
BINDER(bind_wm_base, xdg_wm_base_interface, wm_base_impl)
BINDER(bind_viewporter, wp_viewporter_interface, viewporter_impl)
BINDER(bind_fractional, wp_fractional_scale_manager_v1_interface, fractional_manager_impl)
BINDER(bind_shape_manager, wp_cursor_shape_manager_v1_interface, shape_manager_impl)

int main(int argc, char **argv) {
  int cursor_shape = argc == 4 && strcmp(argv[3], "--cursor-shape") == 0;
  if (argc != 3 && !cursor_shape) {
    fprintf(stderr, "usage: %s SOCKET SCALE120 [--cursor-shape]\n", argv[0]);
    return 64;
  }
  preferred_scale = (uint32_t)strtoul(argv[2], NULL, 10);
  display = wl_display_create();
  if (display == NULL || wl_display_add_socket(display, argv[1]) != 0) {
    fprintf(stderr, "cannot listen on %s (is XDG_RUNTIME_DIR set?)\n", argv[1]);
    return 1;
  }
  wl_display_init_shm(display);
  wl_global_create(display, &wl_compositor_interface, 4, NULL, bind_compositor);
  wl_global_create(display, &xdg_wm_base_interface, 2, NULL, bind_wm_base);
  wl_global_create(display, &wp_viewporter_interface, 1, NULL, bind_viewporter);
  wl_global_create(display, &wp_fractional_scale_manager_v1_interface, 1, NULL, bind_fractional);
  wl_global_create(display, &wl_seat_interface, 5, NULL, bind_seat);
  if (cursor_shape) wl_global_create(display, &wp_cursor_shape_manager_v1_interface, 1, NULL, bind_shape_manager);
  printf("ready\n");
  fflush(stdout);
  wl_display_run(display);
  wl_display_destroy(display);
  return 0;
}
