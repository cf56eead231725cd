#ifndef SHEEN_CX11_SHIM_H
#define SHEEN_CX11_SHIM_H

// Xutil's XDestroyImage and friends are macros unless this is defined.
#define XUTIL_DEFINE_FUNCTIONS 1

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/keysym.h>
#include <X11/cursorfont.h>
#include <X11/extensions/XShm.h>
#include <X11/extensions/Xfixes.h>
#include <X11/extensions/XInput.h>
#include <X11/extensions/XInput2.h>
#include <X11/Xcursor/Xcursor.h>
#include <X11/Xresource.h>
#include <X11/Xlib-xcb.h>
#include <xcb/present.h>
#include <stdlib.h>
#include <sys/ipc.h>
#include <sys/shm.h>

// Helpers for what Swift cannot reach directly: fields named `class`, casts between event
// structs, and C's sentinel return values. Every symbol is prefixed `sheen_`.

_Static_assert(sizeof(XShmCompletionEvent) <= sizeof(XEvent), "XShmCompletionEvent fits in XEvent");

/// The visual's class (TrueColor, ...); the C field is named `class`.
static inline int sheen_visual_class(const Visual *visual) {
#if defined(__cplusplus) || defined(c_plusplus)
  return visual->c_class;
#else
  return visual->class;
#endif
}

/// The segment named by an MIT-SHM completion event.
static inline ShmSeg sheen_shm_completion_segment(const XEvent *event) {
  return ((const XShmCompletionEvent *)event)->shmseg;
}

/// `shmat` for reading and writing; NULL on failure instead of `(void *)-1`.
static inline void *sheen_shmat(int shmid) {
  void *address = shmat(shmid, NULL, 0);
  return address == (void *)-1 ? NULL : address;
}

/// The permission bits of a segment (for example 0600), or -1 if it does not exist.
static inline int sheen_shm_mode(int shmid) {
  struct shmid_ds info;
  if (shmctl(shmid, IPC_STAT, &info) != 0) return -1;
  return (int)(info.shm_perm.mode & 0777);
}

/// How many processes have a segment attached, or -1 if it does not exist.
static inline long sheen_shm_attach_count(int shmid) {
  struct shmid_ds info;
  if (shmctl(shmid, IPC_STAT, &info) != 0) return -1;
  return (long)info.shm_nattch;
}

/// Sets `event`'s bit in an XInput2 event mask of `length` bytes (XISetMask is a macro).
static inline void sheen_xi_set_mask(unsigned char *mask, int length, int event) {
  if (event >= 0 && (event >> 3) < length) mask[event >> 3] |= (unsigned char)(1 << (event & 7));
}

/// Whether bit `index` is set in an XInput2 bit mask of `length` bytes (XIMaskIsSet is a macro).
static inline int sheen_xi_mask_is_set(const unsigned char *mask, int length, int index) {
  return index >= 0 && (index >> 3) < length && (mask[index >> 3] & (1 << (index & 7))) != 0;
}

// MARK: - Present (frames in step with the display)
//
// Present's events are XGE events only XCB decodes: they go to a special event queue of their
// own (as Mesa does), which Xlib's event loop never sees.

/// Whether the server has the Present extension (1.0 or later).
static inline int sheen_present_available(Display *display) {
  xcb_connection_t *c = XGetXCBConnection(display);
  const xcb_query_extension_reply_t *ext = xcb_get_extension_data(c, &xcb_present_id);
  if (ext == NULL || !ext->present) return 0;
  xcb_present_query_version_reply_t *reply =
      xcb_present_query_version_reply(c, xcb_present_query_version(c, 1, 0), NULL);
  if (reply == NULL) return 0;
  free(reply);
  return 1;
}

/// Asks for `window`'s CompleteNotify and IdleNotify events on a queue of their own; NULL on
/// failure. `eid` receives the event context id.
static inline xcb_special_event_t *sheen_present_listen(Display *display, Window window, uint32_t *eid) {
  xcb_connection_t *c = XGetXCBConnection(display);
  *eid = xcb_generate_id(c);
  xcb_present_select_input(c, *eid, (xcb_window_t)window,
                           XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY | XCB_PRESENT_EVENT_MASK_IDLE_NOTIFY);
  return xcb_register_for_special_xge(c, &xcb_present_id, *eid, NULL);
}

/// Stops listening (before the window is destroyed).
static inline void sheen_present_unlisten(Display *display, xcb_special_event_t *queue, Window window,
                                          uint32_t eid) {
  xcb_connection_t *c = XGetXCBConnection(display);
  xcb_present_select_input(c, eid, (xcb_window_t)window, 0);
  xcb_unregister_for_special_event(c, queue);
}

/// Presents `pixmap` in `window` at the first vertical retrace at or after `target_msc` (0: the
/// next one), never tearing.
static inline void sheen_present_pixmap(Display *display, Window window, Pixmap pixmap, uint32_t serial,
                                        uint64_t target_msc) {
  xcb_connection_t *c = XGetXCBConnection(display);
  xcb_present_pixmap(c, (xcb_window_t)window, (xcb_pixmap_t)pixmap, serial, 0, 0, 0, 0, 0, 0, 0,
                     XCB_PRESENT_OPTION_NONE, target_msc, 0, 0, 0, NULL);
  xcb_flush(c);
}

/// One Present event: kind 1 for CompleteNotify (serial, msc, ust in microseconds), 2 for
/// IdleNotify (serial, pixmap), 0 for another.
typedef struct {
  int kind;
  uint32_t serial;
  uint32_t pixmap;
  uint64_t msc;
  uint64_t ust;
} sheen_present_event;

/// Takes the next Present event already read (reading what the socket has, without waiting);
/// 0 when there is none.
static inline int sheen_present_poll(Display *display, xcb_special_event_t *queue, sheen_present_event *out) {
  xcb_generic_event_t *e = xcb_poll_for_special_event(XGetXCBConnection(display), queue);
  if (e == NULL) return 0;
  out->kind = 0;
  switch (((xcb_present_generic_event_t *)e)->evtype) {
  case XCB_PRESENT_EVENT_COMPLETE_NOTIFY: {
    xcb_present_complete_notify_event_t *complete = (xcb_present_complete_notify_event_t *)e;
    out->kind = 1;
    out->serial = complete->serial;
    out->msc = complete->msc;
    out->ust = complete->ust;
    break;
  }
  case XCB_PRESENT_EVENT_IDLE_NOTIFY: {
    xcb_present_idle_notify_event_t *idle = (xcb_present_idle_notify_event_t *)e;
    out->kind = 2;
    out->serial = idle->serial;
    out->pixmap = idle->pixmap;
    break;
  }
  }
  free(e);
  return 1;
}

/// Whether MIT-SHM can make pixmaps over a segment in the Z format a `Surface` has.
static inline int sheen_shm_pixmaps_available(Display *display) {
  int major = 0, minor = 0;
  Bool pixmaps = False;
  return XShmQueryVersion(display, &major, &minor, &pixmaps) && pixmaps && XShmPixmapFormat(display) == ZPixmap;
}

#endif
