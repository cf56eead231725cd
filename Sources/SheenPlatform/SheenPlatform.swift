// SheenPlatform: the one interface between the UI and a windowing system.
//
// Design note. The UI layer imports this module and never X11 (or Wayland). A backend supplies a
// `PlatformWindow`: a window whose pixels are a `Surface` the UI draws into directly, presented
// with `present()`, and a queue of `PlatformEvent`s in window pixels. `FrameLoop` drives a
// `FrameLoopClient`: it waits on the window (the backend waits on its connection's file
// descriptor) until input arrives or the next frame is due, compresses pointer motion to the
// latest position per frame, idles when nothing animates, and stops cleanly on SIGINT/SIGTERM.
//
// The protocol is deliberately small (title, size, framebuffer, present, poll, wait, close) so
// that a Wayland backend (wl_shm buffers, wl_display_get_fd) can implement it unchanged.
