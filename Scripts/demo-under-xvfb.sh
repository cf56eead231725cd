#!/usr/bin/env bash
# Runs the demo where there is no display: starts a private Xvfb (a free display number chosen
# by the server through -displayfd), opens `sheen demo` in it, drives it with xdotool for a few
# seconds (a click on a card's button, then wheel turns), captures the window with xwd and
# converts the capture to out/demo.png; then runs `sheen bench` in a window on the same server
# (frame times, and a plot in out/bench-frame-times.png) and writes a few frames with
# `sheen dump` to out/frames. Everything it started is stopped on exit, even on Ctrl-C or a
# failure.
#
# usage: Scripts/demo-under-xvfb.sh BIN [demo options]
#   BIN is the built `sheen` executable; demo options (such as --fps 30) go to `sheen demo`.
# exit status: 0 when the screenshot was written; 1 when something failed (the message says what).
set -euo pipefail

if [ $# -lt 1 ] || [ ! -x "$1" ]; then
  echo "usage: $0 SHEEN_BINARY [demo options]" >&2
  exit 64
fi
bin="$1"
shift
size="1280x800"
out_dir="out"
shot="$out_dir/demo.png"

for tool in Xvfb xwd convert; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "demo-under-xvfb: $tool is missing (apt-get install xvfb x11-apps imagemagick)" >&2
    exit 1
  fi
done
have_xdotool=1
command -v xdotool >/dev/null 2>&1 || have_xdotool=0

work="$(mktemp -d "${TMPDIR:-/tmp}/sheen-xvfb.XXXXXX")"
xvfb_pid=""
demo_pid=""
cleanup() {
  local status=$?
  if [ -n "$demo_pid" ] && kill -0 "$demo_pid" 2>/dev/null; then
    kill -TERM "$demo_pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$demo_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$demo_pid" 2>/dev/null || true
  fi
  if [ -n "$xvfb_pid" ] && kill -0 "$xvfb_pid" 2>/dev/null; then
    kill -TERM "$xvfb_pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$xvfb_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$xvfb_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() {
  echo "demo-under-xvfb: $*" >&2
  if [ -s "$work/demo.err" ]; then
    echo "--- sheen demo's standard error:" >&2
    tail -n 20 "$work/demo.err" >&2
  fi
  exit 1
}

# 1. A private X server. -displayfd writes the display number it picked to fd 3.
Xvfb -displayfd 3 -nolisten tcp -screen 0 1920x1080x24 3>"$work/display" 2>"$work/xvfb.err" &
xvfb_pid=$!
for _ in $(seq 1 100); do
  [ -s "$work/display" ] && break
  kill -0 "$xvfb_pid" 2>/dev/null || fail "Xvfb exited: $(tail -n 3 "$work/xvfb.err")"
  sleep 0.1
done
[ -s "$work/display" ] || fail "Xvfb did not report a display within 10 s"
export DISPLAY=":$(tr -d '[:space:]' <"$work/display")"
unset WAYLAND_DISPLAY
echo "demo-under-xvfb: started Xvfb on display $DISPLAY (no display was set)"

# 2. The demo, with a line on stdout once its first frame is on screen.
"$bin" demo --backend x11 --size "$size" --print-events "$@" >"$work/demo.out" 2>"$work/demo.err" &
demo_pid=$!
wid=""
for _ in $(seq 1 200); do
  wid="$(sed -n 's/^ready window=\(0x[0-9a-f]*\).*/\1/p' "$work/demo.out" | head -n 1)"
  [ -n "$wid" ] && break
  kill -0 "$demo_pid" 2>/dev/null || fail "sheen demo exited before showing its window"
  sleep 0.1
done
[ -n "$wid" ] || fail "sheen demo did not show its window within 20 s"
echo "demo-under-xvfb: sheen demo is showing window $wid ($size)"

# 3. Drive it: click the first card's button, then turn the wheel three notches over the list.
x() { timeout 10 xdotool "$@" >/dev/null 2>&1; }
if [ "$have_xdotool" = 1 ]; then
  sleep 0.5
  x mousemove --window "$wid" 366 416 || fail "xdotool could not move the pointer"
  x mousedown 1 && sleep 0.3 && x mouseup 1 || fail "xdotool could not click"
  echo "demo-under-xvfb: clicked the first card's button at (366, 416)"
  sleep 0.6
  x mousemove --window "$wid" 640 500
  for _ in 1 2 3; do x click 5; sleep 0.12; done
  echo "demo-under-xvfb: turned the wheel 3 notches (144 points) over the list"
  sleep 1.2
else
  echo "demo-under-xvfb: xdotool is not installed, so the demo runs without input (apt-get install xdotool)"
  sleep 2
fi
kill -0 "$demo_pid" 2>/dev/null || fail "sheen demo exited while it was being driven"

# 4. Capture the window and convert it to PNG.
mkdir -p "$out_dir"
timeout 20 xwd -silent -id "$wid" -out "$work/demo.xwd" || fail "xwd could not capture window $wid"
timeout 60 convert "xwd:$work/demo.xwd" "png:$shot" || fail "convert could not turn the capture into $shot"

# 5. Quit as a user would (Escape), then make sure it has gone.
if [ "$have_xdotool" = 1 ]; then x key --window "$wid" Escape || true; else kill -TERM "$demo_pid" || true; fi
for _ in $(seq 1 50); do kill -0 "$demo_pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$demo_pid" 2>/dev/null; then
  echo "demo-under-xvfb: the demo did not quit on Escape within 5 s; stopping it" >&2
  kill -TERM "$demo_pid" 2>/dev/null || true
fi
wait "$demo_pid" 2>/dev/null || true
demo_pid=""
stopped="$(grep '^stopped' "$work/demo.out" | tail -n 1 || true)"
echo "demo-under-xvfb: the demo ended (${stopped:-no stop line})"

# 6. The benchmark in a real window on the same Xvfb: a steady scroll, uncapped, for 3 seconds.
plot="$out_dir/bench-frame-times.png"
if timeout 120 "$bin" bench --backend x11 --size "$size" --seconds 3 --plot "$plot" >"$work/bench.out" 2>&1; then
  sed 's/^/demo-under-xvfb: bench: /' "$work/bench.out"
else
  echo "demo-under-xvfb: the benchmark failed: $(tail -n 3 "$work/bench.out")" >&2
fi
# A few frames of the demo on a virtual clock, written without any X server.
if timeout 120 "$bin" dump -o "$out_dir/frames" --size "$size" --frames 0,60,120 --script tour >/dev/null 2>&1; then
  echo "demo-under-xvfb: frames 0, 60 and 120 of the scripted tour: $(cd "$out_dir" && pwd)/frames"
fi
echo "demo-under-xvfb: screenshot of the demo window: $(cd "$out_dir" && pwd)/demo.png"
echo "demo-under-xvfb: Xvfb stopped when this script ends"
