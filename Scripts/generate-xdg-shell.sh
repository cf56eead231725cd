#!/usr/bin/env bash
# Regenerates the checked-in Wayland protocol glue in Sources/CXdgShell (xdg-shell, viewporter,
# fractional-scale-v1, xdg-decoration, cursor-shape-v1) and, for the tests,
# Sources/CWaylandTestProtocols (wlroots' virtual pointer) and the test compositor's server side,
# from the system's wayland-protocols and the two descriptions in Scripts/protocols (apt-get install wayland-protocols libwayland-bin). The build never runs this:
# the generated files are committed, so building needs no network and no scanner.
set -euo pipefail
cd "$(dirname "$0")/.."
protocols="${1:-/usr/share/wayland-protocols}"
generate() { # xml output-directory name
  wayland-scanner client-header "$1" "$2/include/$3-client-protocol.h"
  wayland-scanner private-code "$1" "$2/$3-protocol.c"
}
generate "$protocols/stable/xdg-shell/xdg-shell.xml" Sources/CXdgShell xdg-shell
generate "$protocols/stable/viewporter/viewporter.xml" Sources/CXdgShell viewporter
generate "$protocols/staging/fractional-scale/fractional-scale-v1.xml" Sources/CXdgShell fractional-scale-v1
generate "$protocols/unstable/xdg-decoration/xdg-decoration-unstable-v1.xml" Sources/CXdgShell \
  xdg-decoration-unstable-v1
generate Scripts/protocols/cursor-shape-v1.xml Sources/CXdgShell cursor-shape-v1
generate Scripts/protocols/wlr-virtual-pointer-unstable-v1.xml Sources/CWaylandTestProtocols \
  wlr-virtual-pointer-unstable-v1
# The server side of what the test compositor offers (Sources/sheen-wayland-test-compositor).
serve() { # xml name
  wayland-scanner server-header "$1" "Sources/sheen-wayland-test-compositor/$2-server-protocol.h"
  # The interface tables are the same on both sides: the compositor links the client's copy.
  ln -sf "../CXdgShell/$2-protocol.c" "Sources/sheen-wayland-test-compositor/$2-protocol.c"
}
serve "$protocols/stable/xdg-shell/xdg-shell.xml" xdg-shell
serve "$protocols/stable/viewporter/viewporter.xml" viewporter
serve "$protocols/staging/fractional-scale/fractional-scale-v1.xml" fractional-scale-v1
serve Scripts/protocols/cursor-shape-v1.xml cursor-shape-v1
echo "regenerated from $protocols and Scripts/protocols with $(wayland-scanner --version 2>&1)"
