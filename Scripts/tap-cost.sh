#!/usr/bin/env bash
# A tap in the SwiftUI twin against a press in the UIKit list (issue 20: "tapping a button costs
# no more than a frame of the press animation in the UIKit demo"), at 1920x1080 on one thread:
#   - processor time: `sheen bench tap --runs RUNS` (default 7): both lists play a press of card
#     0's button (show-card 0, wait 2, press-button 0, wait 30, release, wait 26) on a new window
#     each run, the two lists' runs interleaved, the 61 frames drawn back to back as a frame loop
#     draws them (nothing written between frames); each frame, its input and its drawing, counts
#     its least processor time over the runs. The twin's tap frame (34: the card's body, the
#     update, placement) is set against the median of the UIKit list's press-animation frames
#     (3-10 and 34-56: the button going down and springing back).
#   - with INSTRUCTIONS=1, instructions too (valgrind's callgrind, counting only inside
#     UIWindow.renderFrame and dumping after each call, of `sheen dump --script press`, where the
#     press is frame 2 and the release frame 33): the same work whatever else the machine runs.
#     A few minutes a list.
#
#   Scripts/tap-cost.sh [SHEEN-BINARY]   (default: the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-$(swift build -c release --show-bin-path)/sheen}"
[ -x "$bin" ] || { echo "tap-cost: no binary at $bin" >&2; exit 1; }
runs="${RUNS:-7}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

report() {
  # $1: what is measured; then files "uikit:FILE" and "swiftui:FILE" with lines "frame N: VALUE".
  python3 - "$@" <<'PY'
import statistics, sys
what, files = sys.argv[1], sys.argv[2:]
values = {"uikit": {}, "swiftui": {}}
for spec in files:
    ui, name = spec.split(":", 1)
    for line in open(name):
        n, v = line.split()
        n, v = int(n), float(v)
        values[ui][n] = min(v, values[ui].get(n, v))
u, t = values["uikit"], values["swiftui"]
if len(u) < 57 or len(t) < 57:
    print(f"| {what} | ? ({len(u)} and {len(t)} frames measured) | | | | |")
    sys.exit()
press = statistics.median([u[f] for f in list(range(3, 11)) + list(range(34, 57))])
calm_u = statistics.median([u[f] for f in range(12, 33)])
calm_t = statistics.median([t[f] for f in range(12, 33)])
most = max((f for f in t if f > 0), key=t.get)
def v(x):
    return f"{x / 1e6:.1f}M" if what == "instructions" else f"{x:.2f} ms"
print(f"| {what} | {v(calm_u)} / {v(press)} | {v(calm_t)} | {v(t[2])} ({t[2] / press:.2f}x) | {v(t[33])} ({t[33] / press:.2f}x) "
      f"| {v(t[most])}, frame {most} ({t[most] / press:.2f}x) |")
PY
}

"$bin" bench tap --runs "$runs" --size 1920x1080 --threads 1
if [ "${INSTRUCTIONS:-0}" = 1 ]; then
  command -v valgrind >/dev/null || { echo "tap-cost: INSTRUCTIONS=1 needs valgrind" >&2; exit 1; }
  # Debian's valgrind cannot read Swift's debug information: a copy without it (symbols kept).
  cp "$bin" "$work/sheen" && strip -g "$work/sheen"
  symbol="$(nm "$work/sheen" | awk '$2 == "T" && $3 ~ /UIWindowC11renderFrame4into4time/ { s = $3 } END { print s }')"
  for ui in uikit swiftui; do
    mkdir -p "$work/cg-$ui"
    valgrind --tool=callgrind --toggle-collect="$symbol" --dump-after="$symbol" \
      --callgrind-out-file="$work/cg-$ui/cg.out" "$work/sheen" dump --ui "$ui" --script press \
      --size 1920x1080 --threads 1 --frames 60, -o "$work/out" >/dev/null 2>&1
    # Dump N follows frame N - 1.
    for f in "$work/cg-$ui"/cg.out.*; do
      echo "$((${f##*.} - 1)) $(sed -n 's/^summary: //p' "$f")"
    done >"$work/ins-$ui.txt"
  done
  echo "| measured | UIKit list: calm / press frames (median) | twin: calm | twin's press frame (2) / UIKit press | twin's tap frame (33: body, update, placement) / UIKit press | twin's most after launch / UIKit press |"
  echo "|---|---|---|---|---|---|"
  report instructions "uikit:$work/ins-uikit.txt" "swiftui:$work/ins-swiftui.txt"
fi
