#!/usr/bin/env bash
# Prints every figure of README's performance section, measured here and now: the demo mid-scroll
# (the raster cache on, its default; 1080p without it too) at 1280x800 and 1920x1080, on 1 and 2
# threads, warm, rendering only (`sheen bench --offscreen`)
# and in an X11 window presenting through XShm (`sheen bench --backend x11`, under its own Xvfb
# when there is no display); the first pass through the list, cold (`sheen bench --cold`) at
# several sizes, beside the warm way back; the SwiftUI twin against the UIKit list, and heap
# allocations per steady frame of both; a press in each section, in both lists (`sheen bench
# press`, each frame's least processor time over several interleaved runs); one
# frame as a scene file rendered by Sheen and by the Skia oracle (../shared/oracle), first frame
# against first frame and repeated frames against SkPicture playback, and their PSNR; the gallery
# against cairo; photo cards against flat ones; shadows against the exact Gaussian.
#
#   Scripts/perf-table.sh [SECONDS]      (default 5 seconds per measurement)
#   PRESS_RUNS=N Scripts/perf-table.sh   (runs of each section's press, default 7)
#   PRESS_INSTRUCTIONS=1 Scripts/perf-table.sh   (the presses in instructions too: needs valgrind)
#
# The oracle runs when $ORACLE_PYTHON (default /tmp/oracle-venv/bin/python) has skia-python; its
# README says how to make that venv. Run ./run.sh once first (it builds the release binary).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-5}"
bin="$(swift build -c release --show-bin-path)/sheen"
[ -x "$bin" ] || { echo "perf-table: no release build; run: swift build -c release --product sheen" >&2; exit 1; }
oracle_python="${ORACLE_PYTHON:-/tmp/oracle-venv/bin/python}"
# Without that venv, a python3 that has skia-python will do.
if ! "$oracle_python" -c 'import skia' 2>/dev/null && python3 -c 'import skia' 2>/dev/null; then
  oracle_python=python3
fi
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
    if [ "$size" = 1920x1080 ] && [ "$threads" = 1 ]; then
      uikit_render="$(awk '$1 == "render" { print $3 }' <<<"$offscreen")"
      uikit_frame="$(awk '$1 == "frame" { print $3 }' <<<"$window")"
    fi
  done
done
# The same without the raster cache (every layer drawn every frame, `--no-raster-cache`; the rows
# above have it on, the demo's default), 1080p: what the cache saves.
for threads in 1 2; do
  offscreen="$("$bin" bench --offscreen --no-raster-cache --threads "$threads" --size 1920x1080 --seconds "$seconds" --plot "$work/plot.png")"
  window="$("$bin" bench --backend x11 --no-raster-cache --threads "$threads" --size 1920x1080 --seconds "$seconds" --plot "$work/plot.png")"
  rss="$(grep -o 'resident memory [0-9.]* MB' <<<"$offscreen" | awk '{ print $3 }')"
  echo "| 1920x1080, \`--no-raster-cache\` | $threads | $(figures "$offscreen" render) | $(figures "$window" frame) | $rss MB |"
done
# The demo's SwiftUI twin (SheenUI), at 1080p on one thread.
offscreen="$("$bin" bench --offscreen --ui swiftui --threads 1 --size 1920x1080 --seconds "$seconds" --plot "$work/plot.png")"
window="$("$bin" bench --backend x11 --ui swiftui --threads 1 --size 1920x1080 --seconds "$seconds" --plot "$work/plot.png")"
rss="$(grep -o 'resident memory [0-9.]* MB' <<<"$offscreen" | awk '{ print $3 }')"
echo "| 1920x1080, \`--ui swiftui\` | 1 | $(figures "$offscreen" render) | $(figures "$window" frame) | $rss MB |"
twin_render="$(awk '$1 == "render" { print $3 }' <<<"$offscreen")"
twin_frame="$(awk '$1 == "frame" { print $3 }' <<<"$window")"
echo
printf 'SwiftUI twin / UIKit list, 1920x1080, one thread, p50 of the rows above (target <= 1.2): render only %.2f, in an X11 window %.2f\n' \
  "$(echo "$twin_render / $uikit_render" | bc -l)" "$(echo "$twin_frame / $uikit_frame" | bc -l)"

# Heap allocations per steady frame (the allocation counter preloaded), 1080p one thread, both lists.
if cc -shared -fPIC -O2 -o "$work/liballocation-counter.so" Tests/Support/allocation-counter.c 2>/dev/null; then
  for ui in uikit swiftui; do
    out="$(LD_PRELOAD="$work/liballocation-counter.so" "$bin" bench --offscreen --ui "$ui" --threads 1 \
      --size 1920x1080 --frames 240 --plot "$work/plot.png")"
    line="$(grep -o 'allocations per frame [0-9.]* ([0-9]* in [0-9]* frames)' <<<"$out" || true)"
    rows="$(grep -o 'rows coming into view: [0-9]* in [0-9]* frames' <<<"$out" || true)"
    per_row="$(grep -o 'allocations [0-9.]*$' <<<"$(grep '^rows coming into view' <<<"$out")" || true)"
    echo "heap allocations, \`--ui $ui\`, 1920x1080, one thread, steady frames (no new row): ${line:-not printed}; ${rows:-no row came into view}: ${per_row:-allocations not printed} per row"
  done
  # The first pass from launch (cold) and the way back, per row coming into view (the demo's work).
  for ui in uikit swiftui; do
    line="$(LD_PRELOAD="$work/liballocation-counter.so" "$bin" bench --offscreen --cold --ui "$ui" --threads 1 \
      --size 1920x1080 --plot "$work/plot.png" | grep -o 'allocations per row coming into view.*' || true)"
    echo "heap allocations, \`--ui $ui\`, 1920x1080, one thread, cold: ${line:-not printed}"
  done
else
  echo "(no C compiler: allocations per frame not measured)"
fi

# Cold beside warm: the first pass through the list from launch (nothing visited, caches empty,
# the rest of each 60 Hz frame given to idle work as the frame loop gives it), and the way back
# over the same rows, warm, in the same run.
echo
echo "| cold first pass | launch frame | first pass: p50 / p99 / max | way back (warm): p50 / p99 | frames over 16.7 ms | first-pass p99 / warm p50: wall, processor time | idle work: p99 / max |"
echo "|---|---|---|---|---|---|---|"
cold() {
  local label="$1"
  shift
  "$bin" bench --offscreen --cold "$@" --plot "$work/plot.png" | python3 -c '
import re, sys
t = sys.stdin.read()
def f(p):
    m = re.search(p, t)
    return m.groups() if m else ("?",) * p.count("(")
launch, = f(r"launch frame ([\d.]+) ms")
c50, c99, cmax = f(r"first pass +p50 ([\d.]+) ms, p95 [\d.]+ ms, p99 ([\d.]+) ms, max ([\d.]+) ms")
w50, w99 = f(r"way back +p50 ([\d.]+) ms, p95 [\d.]+ ms, p99 ([\d.]+) ms")
dropped, total = f(r"dropped frames: (\d+) of (\d+)")
ratio, = f(r"\nfirst-pass p99 / warm p50: ([\d.]+)")
cpu, = f(r"processor time:.*first-pass p99 / warm p50: ([\d.]+)")
i99, imax = f(r"idle work after each frame.*p99 ([\d.]+) ms, max ([\d.]+) ms")
print(f"| {sys.argv[1]} | {launch} ms | {c50} / {c99} / {cmax} ms | {w50} / {w99} ms | {dropped} of {total} | {ratio}, {cpu} | {i99} / {imax} ms |")
' "$label"
}
cold "1280x800, 1 thread" --threads 1 --size 1280x800
cold "1920x1080, 1 thread" --threads 1 --size 1920x1080
cold "1920x1080, 2 threads" --threads 2 --size 1920x1080
cold "3840x2160, 2 threads" --threads 2 --size 3840x2160
cold "1920x1080, 1 thread, a million cards (30,000 points of them)" --threads 1 --size 1920x1080 \
  --cards 1000000 --scroll-range 30000
cold "1920x1080, 1 thread, \`--ui swiftui\`" --threads 1 --size 1920x1080 --ui swiftui

# A press in each section of the demo (1080p, one thread): every frame of the press, the spring
# back and the rest against their median (`sheen bench press`: a new window per section and run,
# the 48 frames drawn back to back as a frame loop draws them, the sections interleaved). A frame
# is a few milliseconds and this machine is shared, so each frame counts its least processor
# time over $press_runs runs; the worst single run is shown beside it. Blurs, shape
# rasterizations, page faults and system time are counts over every run. Then the same for the
# SwiftUI twin's list.
press_runs="${PRESS_RUNS:-7}"
echo
echo "| press in section | card | blurs (all frames, all runs) | shape rasterizations: most in a frame after the launch frame | processor time, each frame's least of $press_runs runs: median / slowest | slowest / median of single runs: worst | page faults, system time (frames 1-48, all runs) |"
echo "|---|---|---|---|---|---|---|"
for ui in uikit swiftui; do
  "$bin" bench press --runs "$press_runs" --threads 1 --size 1920x1080 --ui "$ui" >"$work/press-$ui.txt"
done
python3 - "$work/press-uikit.txt" "$work/press-swiftui.txt" <<'PY'
import re, sys
line = re.compile(
    r"^section (\d+) \(card (\d+)\): median ([\d.]+) ms, slowest frame (\d+) ([\d.]+) ms \(([\d.]+)x\); "
    r"single runs' slowest / median at worst ([\d.]+)x; (\d+) blurs, at most (\d+) shape rasterizations a frame, "
    r"(\d+) page faults, ([\d.]+) ms of system time", re.M)
for name, label in zip(sys.argv[1:], ("", ", `--ui swiftui`")):
    text = open(name).read()
    rows = line.findall(text)
    if not rows:
        print(f"| ?{label} | | | | (sheen bench press printed no section) | | |")
    for sec, card, med, frame, slow, ratio, single, blurs, shapes, faults, system in rows:
        print(f"| {sec}{label} | {card} | {blurs} | {shapes} | {med} / {slow} ms (frame {frame}, {ratio}x) | {single}x | {faults}, {system} ms |")
for name, label in zip(sys.argv[1:], ("UIKit list", "SwiftUI twin")):
    m = re.search(r"^slowest frame / median, worst section: ([\d.]+)x", open(name).read(), re.M)
    print(f"\n{label}: slowest press frame / median, worst section {m.group(1) if m else '?'}x (target at most 1.5x)", end="")
print()
PY

# A tap in the SwiftUI twin (its press and its release, which asks the card's body) against the
# UIKit list's press frames, in processor time (and in instructions with PRESS_INSTRUCTIONS=1).
echo
RUNS="$press_runs" INSTRUCTIONS="${PRESS_INSTRUCTIONS:-0}" Scripts/tap-cost.sh "$bin"

# The same presses counted in instructions (callgrind; a few minutes a section): the work of the
# press frames against the calm ones, whatever else the machine runs. Only when asked for.
if [ "${PRESS_INSTRUCTIONS:-0}" = 1 ]; then
  echo
  Scripts/press-instructions.sh "$bin"
fi

echo
echo "| one frame as a scene file | Sheen \`render\`, 1 thread: first / repeated | Skia oracle: first / repeated (SkPicture playback) | Skia / Sheen: first, repeated |"
echo "|---|---|---|---|"
for size in 1280x800 1920x1080; do
  "$bin" dump --size "$size" --frames 45, --script scroll --scene -o "$work/$size" >/dev/null
  scene="$work/$size/frame-0045.json"
  first="$("$bin" render "$scene" -o "$work/first.png" --repeat 1 | awk -F'[= ]' '/frame_ms/ { print $3 }')"
  ours="$("$bin" render "$scene" -o "$work/sheen.png" --repeat 50 | awk -F'[= ]' '/frame_ms/ { print $3 }')"
  if "$oracle_python" -c 'import skia' 2>/dev/null; then
    # Skia's first frame: the first playback of the picture, in a process of its own.
    skiafirst="$("$oracle_python" "$oracle" "$scene" "$work/skia.png" --repeat 1 | awk -F'[= ]' '/frame_ms/ { print $3 }')"
    skia="$("$oracle_python" "$oracle" "$scene" "$work/skia.png" --repeat 10 | awk -F'[= ]' '/frame_ms/ { print $3 }')"
    r1="$(printf '%.1fx' "$(echo "$skiafirst / $first" | bc -l)")"
    ratio="$(printf '%.0fx' "$(echo "$skia / $ours" | bc -l)")"
    echo "| $size | $first / $ours ms | $skiafirst / $skia ms | $r1, $ratio |"
  else
    echo "| $size | $first / $ours ms | (no oracle: set ORACLE_PYTHON, see ../shared/oracle/README.md) | |"
  fi
done

# Pictures of the same frame: Sheen's against Skia's, text left out (glyph anti-aliasing differs).
if "$oracle_python" -c 'import skia' 2>/dev/null; then
  echo
  echo "1920x1080 frame against the Skia oracle (compare.py --mask-text):"
  "$oracle_python" "$(dirname "$oracle")/compare.py" "$work/sheen.png" "$work/skia.png" --mask-text "$scene"
fi

# Scenes the demo does not have (Scenes/Gallery, made by Scripts/make-gallery.py): warm render
# time against cairo replaying the same scene without shadows (pycairo): 9 interleaved rounds, each
# side the least of its run medians (Scripts/cairo-vs-sheen.py says why).
echo
perf_python="${PERF_PYTHON:-python3}"
if "$perf_python" -c 'import cairo' 2>/dev/null; then
  "$perf_python" Scripts/cairo-vs-sheen.py "$bin" Scenes/Gallery/*.json --rounds 9 --repeat 30 || true
else
  echo "(no pycairo: ./run.sh perf installs it; or set PERF_PYTHON to a python that has it)"
fi

# Photo cards against the same cards with flat colours (issue 17's bound: at most 1.5x), one thread.
echo
"$bin" bench photos --runs 200 --threads 1 | head -1

# Shadows of rounded rectangles against the exact Gaussian (and, for reference, the oracle's).
if "$oracle_python" -c 'import skia' 2>/dev/null; then
  echo
  "$oracle_python" Scripts/shadow-accuracy.py "$bin" --oracle "$oracle_python" | tail -1
fi
