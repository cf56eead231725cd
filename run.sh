#!/usr/bin/env bash
# Sheen's two commands:
#   ./run.sh          build in release mode and open the demo (Wayland when $WAYLAND_DISPLAY is
#                     reachable, else X11; under its own Xvfb when there is
#                     no display)
#   ./run.sh test     run every test and the format lint
#   ./run.sh fuzz [S] run each fuzz target for S seconds (default 15); ./run.sh asan (tsan, ubsan):
#                     the tests under Address- (Thread-, UndefinedBehavior-) Sanitizer. See README,
#                     "Reliability".
#   ./run.sh perf [S] measure README's performance table (S seconds per figure, default 5)
# Anything after the command is passed on (./run.sh demo --fps 30, ./run.sh render scene.json -o x.png).
set -euo pipefail
cd "$(dirname "$0")"

build_packages=(libx11-dev libxext-dev libxi-dev libxcursor-dev libxfixes-dev libx11-xcb-dev libxcb-present-dev libpng-dev libturbojpeg0-dev libwayland-dev libxkbcommon-dev pkg-config
  libfontconfig-dev libharfbuzz-dev libfribidi-dev libunibreak-dev libthai-dev)
# The text tests draw with these fonts (their own fontconfig configuration, Tests/Fonts) and
# compare with pango-view.
test_packages=(xvfb xdotool x11-apps x11-utils imagemagick weston sway fonts-dejavu-core fonts-noto-core fonts-noto-cjk
  fonts-noto-color-emoji pango1.0-tools)

# Installs the Debian packages given that are missing, or says exactly how to.
ensure_packages() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "run.sh: installing missing system packages: ${missing[*]}" >&2
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      sudo=(sudo -n)
    else
      echo "run.sh: cannot install them without root. Run:" >&2
      echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
      exit 1
    fi
  fi
  if ! { "${sudo[@]}" apt-get update -qq && \
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}"; } >&2; then
    echo "run.sh: apt-get failed. Install these by hand and run again:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
}

if ! command -v swift >/dev/null 2>&1; then
  echo "run.sh: the Swift toolchain (6.0 or later) is not on PATH; see https://swift.org/install" >&2
  exit 1
fi

cmd="${1:-demo}"
[ $# -gt 0 ] && shift

case "$cmd" in
  test)
    ensure_packages "${build_packages[@]}" "${test_packages[@]}"
    # The release binary too: the allocation test measures optimized frames.
    swift build -c release --product sheen
    swift build --build-tests
    swift test --skip-build --parallel
    # Tests/SheenSeedTests/Seeds holds the seed articles' code verbatim (third-party style): not linted.
    find Package.swift Sources Tests -name '*.swift' -not -path 'Tests/SheenSeedTests/Seeds/*' -print0 \
      | xargs -0 swift format lint --strict
    echo "run.sh: all tests passed and the format lint is clean"
    ;;
  fuzz)
    # Each libFuzzer target (scene, scenegen, svg, font, image, args) under AddressSanitizer for ${1:-15} seconds (CI).
    ensure_packages "${build_packages[@]}"
    log="$(mktemp)"
    for target in scene scenegen svg font image args; do
      if ! Fuzz/run.sh "$target" "${1:-15}" >"$log" 2>&1; then
        tail -n 60 "$log" >&2
        echo "run.sh: the $target fuzzer failed or found a problem (input under /tmp/sheen-fuzz-build/crashes)" >&2
        exit 1
      fi
      echo "run.sh: fuzz $target: $(grep -E '^Done' "$log")"
    done
    rm -f "$log"
    ;;
  perf)
    # README's performance table, measured now (Scripts/perf-table.sh [SECONDS]).
    ensure_packages "${build_packages[@]}" xvfb x11-utils bc
    # PRESS_INSTRUCTIONS=1 ./run.sh perf counts the presses' instructions with callgrind too.
    if [ "${PRESS_INSTRUCTIONS:-0}" = 1 ]; then ensure_packages valgrind; fi
    # The gallery is timed against cairo (pycairo): installed from PyPI into a venv of its own
    # (.build/perf-venv) unless the python3 on PATH has it already. pycairo builds against cairo.
    if python3 -c 'import cairo' 2>/dev/null; then
      export PERF_PYTHON=python3
    else
      ensure_packages libcairo2-dev python3-venv python3-dev pkg-config
      if ! .build/perf-venv/bin/python -c 'import cairo' 2>/dev/null; then
        python3 -m venv .build/perf-venv
        .build/perf-venv/bin/pip install --quiet pycairo \
          || { echo "run.sh: pip could not install pycairo into .build/perf-venv" >&2; exit 1; }
      fi
      export PERF_PYTHON=.build/perf-venv/bin/python
    fi
    swift build -c release --product sheen
    exec ./Scripts/perf-table.sh "$@"
    ;;
  asan | tsan | ubsan)
    # Every test under AddressSanitizer (ThreadSanitizer, UndefinedBehaviorSanitizer), in a build
    # directory of its own.
    ensure_packages "${build_packages[@]}" "${test_packages[@]}"
    # Swift checks its own undefined behaviour (overflow, bounds, unwrapping) in every build and
    # swiftc has no -sanitize=undefined on Linux: UBSan instruments the C that is compiled here
    # (CXdgShell, the shims' inline functions), built with clang's -fsanitize=undefined and linked
    # with its runtime, any report ending the process.
    case "$cmd" in
      asan) flags=(--sanitize=address) ;;
      tsan) flags=(--sanitize=thread) ;;
      *)
        flags=(-Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined
          -Xswiftc -Xclang-linker -Xswiftc -fsanitize=undefined)
        export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
        ;;
    esac
    # LeakSanitizer reports the process-lifetime caches (bundled fonts) and XCTest's own objects
    # at exit, and turns the status of every `sheen` the tests start into 1: leaks are watched by
    # Scripts/soak.sh and by the fuzzers instead.
    export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
    swift build --product sheen "${flags[@]}" --scratch-path ".build/$cmd"
    # The allocation test counts mallocs through a preloaded library, which a sanitizer's own
    # allocator bypasses.
    swift test "${flags[@]}" --scratch-path ".build/$cmd" --skip AllocationTests "$@"
    ;;
  *)
    ensure_packages "${build_packages[@]}"
    swift build -c release --product sheen
    bin="$(swift build -c release --show-bin-path)/sheen"
    if [ "$cmd" = demo ] && ! "$bin" demo --help >/dev/null 2>&1; then
      # Until the demo window exists, the main job renders a sample picture.
      mkdir -p out
      "$bin" sample -o out/sample.png
      exit 0
    fi
    if [ "$cmd" = demo ] && [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
      ensure_packages xvfb x11-apps imagemagick xdotool
      exec ./Scripts/demo-under-xvfb.sh "$bin" "$@"
    fi
    exec "$bin" "$cmd" "$@"
    ;;
esac
