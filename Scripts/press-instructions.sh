#!/usr/bin/env bash
# A press in each section of the demo counted in instructions rather than timed: each frame's
# instructions (valgrind's callgrind, counting only inside UIWindow.renderFrame and dumping after
# each call) for `show-card I, wait 2, press-button I, wait 12, release, wait 30` at 1920x1080 on
# one thread, I = 26 x section. Prints the calm frames before the press (1 and 2), the median
# frame after the launch frame and the frame with the most instructions, and the ratios of the
# most to the median and to the calm frames: the work of the press frames against a calm frame,
# whatever else the machine runs (timings on a shared machine are not). A few minutes a section.
#
#   Scripts/press-instructions.sh [SHEEN-BINARY] [SECTIONS...]   (default: the release build, 0-7)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-$(swift build -c release --show-bin-path)/sheen}"
shift || true
sections=("$@")
[ ${#sections[@]} -eq 0 ] && sections=(0 1 2 3 4 5 6 7)
command -v valgrind >/dev/null || { echo "press-instructions: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
[ -x "$bin" ] || { echo "press-instructions: no binary at $bin" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Debian's valgrind cannot read Swift's debug information: a copy without it (symbols kept).
cp "$bin" "$work/sheen" && strip -g "$work/sheen"
symbol="$(nm "$work/sheen" | awk '$2 == "T" && $3 ~ /UIWindowC11renderFrame4into4time/ { s = $3 } END { print s }')"
[ -n "$symbol" ] || { echo "press-instructions: UIWindow.renderFrame not found in $bin" >&2; exit 1; }
echo "| press in section | card | instructions per frame: calm (frames 1-2) / median / most (frame) | most / median | most / calm |"
echo "|---|---|---|---|---|"
for section in "${sections[@]}"; do
  card=$((section * 26))
  rm -f "$work"/cg.*
  valgrind --tool=callgrind --toggle-collect="$symbol" --dump-after="$symbol" \
    --callgrind-out-file="$work/cg.out" "$work/sheen" dump \
    --script "show-card $card, wait 2, press-button $card, wait 12, release, wait 30" \
    --size 1920x1080 --threads 1 --frames 48, -o "$work/out" >/dev/null 2>&1
  python3 - "$section" "$card" "$work" <<'PY'
import glob, re, statistics, sys
section, card, work = int(sys.argv[1]), sys.argv[2], sys.argv[3]
counts = {}
for name in glob.glob(work + "/cg.out.*"):
    part = int(name.rsplit(".", 1)[1])
    m = re.search(r"^summary: (\d+)", open(name).read(), re.M)
    if m:
        counts[part - 1] = int(m.group(1))  # dump 1 follows frame 0
later = {f: c for f, c in counts.items() if f > 0}
if len(later) < 40:
    print(f"| {section + 1} | {card} | ? ({len(later)} frames counted) | | |")
    sys.exit()
median = statistics.median_low(later.values())
most = max(later, key=later.get)
calm = statistics.mean(later[f] for f in (1, 2))
print(f"| {section + 1} | {card} | {calm / 1e6:.1f}M / {median / 1e6:.1f}M / {later[most] / 1e6:.1f}M (frame {most}) "
      f"| {later[most] / median:.3f}x | {later[most] / calm:.3f}x |")
PY
done
