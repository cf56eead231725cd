#!/usr/bin/env bash
# Prints README's performance table, measured here and now: the demo mid-scroll at 1280x800 and
# 1920x1080, on 1 and 2 threads, rendering only (`sheen bench --offscreen`) and in an X11 window
# presenting through XShm (`sheen bench --backend x11`, under its own Xvfb when there is no
# display); and one frame of it, written as a scene file, rendered by Sheen and by the Skia oracle
# (../shared/oracle) in the same run.
#
#   Scripts/perf-table.sh [SECONDS]      (default 5 seconds per measurement)
#
# The oracle runs when $ORACLE_PYTHON (default /tmp/oracle-venv/bin/python) has skia-python; its
# README says how to make that venv. Run ./run.sh once first (it builds the release binary).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-5}"
bin="$(swift build -c release --show-bin-path)/sheen"
[ -x "$bin" ] || { echo "perf-table: no release build; run: swift build -c release --product sheen" >&2; exit 1; }
oracle_python="${ORACLE_PYTHON:-/tmp/oracle-venv/bin/python}"
oracle="../shared/oracle/skia_scene.py"
work="$(mktemp -d)"
xvfb_pid=""
cleanup() {
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

if [ -z "${DISPLAY:-}" ]; then
  display=":$((80 + RANDOM % 100))"
  Xvfb "$display" -screen 0 1920x1080x24 -nolisten tcp >/dev/null 2>&1 &
  xvfb_pid=$!
  export DISPLAY="$display"
  for _ in $(seq 50); do xdpyinfo >/dev/null 2>&1 && break; sleep 0.1; done
fi

# "p50 / p99 ms (fps)" from a bench's line for `what` (render or frame).
figures() {
  local out="$1" what="$2"
  local p50 p99
  p50="$(awk -v w="$what" '$1 == w { print $3 }' <<<"$out")"
  p99="$(awk -v w="$what" '$1 == w { print $9 }' <<<"$out")"
  printf '%s / %s ms (%.0f fps)' "$p50" "$p99" "$(echo "1000 / $p50" | bc -l)"
}

echo "| frame | threads | render only: p50 / p99 | in an X11 window, with XShm present: p50 / p99 | resident memory |"
echo "|---|---|---|---|---|"
for size in 1280x800 1920x1080; do
  for threads in 1 2; do
    offscreen="$("$bin" bench --offscreen --threads "$threads" --size "$size" --seconds "$seconds" --plot "$work/plot.png")"
    window="$("$bin" bench --backend x11 --threads "$threads" --size "$size" --seconds "$seconds" --plot "$work/plot.png")"
    rss="$(grep -o 'resident memory [0-9.]* MB' <<<"$offscreen" | awk '{ print $3 }')"
    echo "| $size | $threads | $(figures "$offscreen" render) | $(figures "$window" frame) | $rss MB |"
  done
done
# The demo's SwiftUI twin (SheenUI), at 1080p on one thread.
offscreen="$("$bin" bench --offscreen --ui swiftui --threads 1 --size 1920x1080 --seconds "$seconds" --plot "$work/plot.png")"
window="$("$bin" bench --backend x11 --ui swiftui --threads 1 --size 1920x1080 --seconds "$seconds" --plot "$work/plot.png")"
rss="$(grep -o 'resident memory [0-9.]* MB' <<<"$offscreen" | awk '{ print $3 }')"
echo "| 1920x1080, \`--ui swiftui\` | 1 | $(figures "$offscreen" render) | $(figures "$window" frame) | $rss MB |"

echo
echo "| one frame as a scene file | Sheen \`render\`, 1 thread, first / repeated | Skia oracle (SkPicture playback) | Skia / Sheen |"
echo "|---|---|---|---|"
for size in 1280x800 1920x1080; do
  "$bin" dump --size "$size" --frames 45, --script scroll --scene -o "$work/$size" >/dev/null
  scene="$work/$size/frame-0045.json"
  first="$("$bin" render "$scene" -o "$work/first.png" --repeat 1 | awk -F'[= ]' '/frame_ms/ { print $3 }')"
  ours="$("$bin" render "$scene" -o "$work/sheen.png" --repeat 50 | awk -F'[= ]' '/frame_ms/ { print $3 }')"
  if "$oracle_python" -c 'import skia' 2>/dev/null; then
    skia="$("$oracle_python" "$oracle" "$scene" "$work/skia.png" --repeat 10 | awk -F'[= ]' '/frame_ms/ { print $3 }')"
    ratio="$(printf '%.0fx' "$(echo "$skia / $ours" | bc -l)")"
    echo "| $size | $first / $ours ms | $skia ms | $ratio |"
  else
    echo "| $size | $first / $ours ms | (no oracle: set ORACLE_PYTHON, see ../shared/oracle/README.md) | |"
  fi
done

# The first pass through the list, cold, at 1080p on one thread.
echo
"$bin" bench --offscreen --cold --threads 1 --size 1920x1080 --plot "$work/plot.png"

# Pictures of the same frame: Sheen's against Skia's, text left out (glyph anti-aliasing differs).
if "$oracle_python" -c 'import skia' 2>/dev/null; then
  echo
  echo "1920x1080 frame against the Skia oracle (compare.py --mask-text):"
  "$oracle_python" "$(dirname "$oracle")/compare.py" "$work/sheen.png" "$work/skia.png" --mask-text "$scene"
fi

# Scenes the demo does not have (Scenes/Gallery, made by Scripts/make-gallery.py): warm render
# time against cairo replaying the same scene without shadows (pycairo), best of interleaved runs.
echo
perf_python="${PERF_PYTHON:-python3}"
if "$perf_python" -c 'import cairo' 2>/dev/null; then
  "$perf_python" Scripts/cairo-vs-sheen.py "$bin" Scenes/Gallery/*.json --runs 5 --repeat 30 || true
else
  echo "(no pycairo: ./run.sh perf installs it; or set PERF_PYTHON to a python that has it)"
fi

# Shadows of rounded rectangles against the exact Gaussian (and, for reference, the oracle's).
if "$oracle_python" -c 'import skia' 2>/dev/null; then
  echo
  "$oracle_python" Scripts/shadow-accuracy.py "$bin" --oracle "$oracle_python" | tail -1
fi
