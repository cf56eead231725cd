#!/usr/bin/env bash
# Regenerates the checked-in xdg-shell glue in Sources/CXdgShell from the system's
# wayland-protocols (apt-get install wayland-protocols libwayland-bin). The build never runs
# this: the generated files are committed, so building needs no network and no scanner.
set -euo pipefail
cd "$(dirname "$0")/.."
xml="${1:-/usr/share/wayland-protocols/stable/xdg-shell/xdg-shell.xml}"
wayland-scanner client-header "$xml" Sources/CXdgShell/include/xdg-shell-client-protocol.h
wayland-scanner private-code "$xml" Sources/CXdgShell/xdg-shell-protocol.c
echo "regenerated from $xml with $(wayland-scanner --version 2>&1)"
