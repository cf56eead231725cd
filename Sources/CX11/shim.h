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

#endif
