#!/usr/bin/env bash
# Soak test: runs `sheen demo` under a private Xvfb for MINUTES while xdotool scrolls (wheel
# turns both ways) and clicks all over the window, and samples the demo's resident memory
# (VmRSS from /proc/PID/status) every 10 s. After warm-up (the first third of the run, at least a
# minute: the demo's glyph and shadow caches fill for the first few minutes as new cards scroll
# into view), memory must not grow: the last sample may exceed the level at the end of warm-up by
# at most 5% (plus 4 MB of slack).
#
#   Scripts/soak.sh MINUTES [SHEEN_BINARY]   (default binary: swift build -c release --product sheen)
#
# Prints the samples and a summary line; exits 1 if memory grew, the demo died, or it did not
# exit 0 on SIGTERM at the end.
set -uo pipefail
cd "$(dirname "$0")/.."
minutes="${1:-}"
[[ "$minutes" =~ ^[0-9]+$ ]] && [ "$minutes" -ge 2 ] || { echo "usage: $0 MINUTES(>=2) [SHEEN_BINARY]" >&2; exit 64; }
for tool in Xvfb xdotool; do
  command -v "$tool" >/dev/null || { echo "soak: $tool is missing (apt-get install xvfb xdotool)" >&2; exit 1; }
done
bin="${2:-}"
if [ -z "$bin" ]; then
  swift build -c release --product sheen >&2 || exit 1
  bin="$(swift build -c release --show-bin-path)/sheen"
fi

work="$(mktemp -d /tmp/sheen-soak.XXXXXX)"
xvfb_pid="" demo_pid="" driver_pid=""
cleanup() {
  for p in $driver_pid $demo_pid $xvfb_pid; do kill -KILL "$p" 2>/dev/null; done
  wait 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

Xvfb -displayfd 3 -nolisten tcp -screen 0 1280x900x24 3>"$work/fd" 2>/dev/null &
xvfb_pid=$!
for _ in $(seq 100); do [ -s "$work/fd" ] && break; sleep 0.05; done
export DISPLAY=":$(head -n1 "$work/fd")"

"$bin" demo --print-events --size 800x600 >"$work/out" 2>"$work/err" &
demo_pid=$!
for _ in $(seq 300); do grep -q '^ready ' "$work/out" 2>/dev/null && break; sleep 0.05; done
wid="$(sed -n 's/^ready .*window=\(0x[0-9a-f]*\).*/\1/p' "$work/out" | head -n1)"
[ -n "$wid" ] || { echo "soak: the demo never said ready: $(head -c 400 "$work/err")" >&2; exit 1; }

# The driver: bursts of wheel turns down then up, and clicks at pseudo-random places.
(
  i=0
  while true; do
    i=$((i + 1))
    x=$((40 + (i * 97) % 720)); y=$((40 + (i * 61) % 520))
    xdotool mousemove --window "$wid" "$x" "$y" click --repeat 8 --delay 15 $((i % 2 == 0 ? 5 : 4)) \
      click 1 2>/dev/null
    sleep 0.1
  done
) &
driver_pid=$!

rss() { awk '/^VmRSS:/ {print $2}' "/proc/$demo_pid/status" 2>/dev/null; }
samples=()
end=$(($(date +%s) + minutes * 60))
echo "seconds  VmRSS(kB)"
t0=$(date +%s)
while [ "$(date +%s)" -lt "$end" ]; do
  sleep 10
  r="$(rss)"
  if [ -z "$r" ]; then echo "soak: the demo died: $(tail -c 400 "$work/err")"; exit 1; fi
  samples+=("$r")
  printf '%7d  %s\n' $(($(date +%s) - t0)) "$r"
done
kill "$driver_pid" 2>/dev/null; wait "$driver_pid" 2>/dev/null; driver_pid=""
frames_line="$(grep -c . "$work/out")"
kill -TERM "$demo_pid"
wait "$demo_pid"; status=$?
demo_pid=""

n=${#samples[@]}
warm=$((n / 3 > 6 ? n / 3 : 6))  # the sample at a third of the run, at least 60 s
[ "$n" -gt "$warm" ] || { echo "soak: too few samples"; exit 1; }
base=${samples[$((warm - 1))]}
last=${samples[$((n - 1))]}
max=0; for s in "${samples[@]:$((warm - 1))}"; do [ "$s" -gt "$max" ] && max=$s; done
limit=$((base + base / 20 + 4096))
echo "soak: ${minutes} min, ${n} samples; VmRSS first ${samples[0]} kB, after warm-up ($((warm * 10)) s) ${base} kB," \
  "max after warm-up ${max} kB, last ${last} kB (limit ${limit} kB); ${frames_line} lines of events;" \
  "exit status ${status} on SIGTERM"
[ "$last" -le "$limit" ] && [ "$status" -eq 0 ]
