// libjpeg-turbo's TurboJPEG API (Debian: libturbojpeg0-dev): errors come back as return values
// and messages, so nothing jumps over Swift frames.
#include <stddef.h>
#include <turbojpeg.h>
