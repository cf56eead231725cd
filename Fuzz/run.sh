#!/usr/bin/env bash
# Builds and runs one of Sheen's libFuzzer targets under AddressSanitizer.
#
#   Fuzz/run.sh TARGET SECONDS [libFuzzer options...]
#   Fuzz/run.sh build TARGET            build only; prints the binary's path
#   Fuzz/run.sh TARGET --replay FILE... run the target once on each FILE (a crash reproducer)
#
# TARGET is scene (Scene.decode + Compositor.render at <= 64x64), scenegen (valid scenes with
# extreme but legal numbers, generated from the input bytes, decoded and rendered at <= 48x48), args
# (argument vectors for every `sheen` subcommand through Sources/sheen/Commands.swift), svg
# (Path(svgData:) + fill and stroke), font (Font(bytes:) and Font(contentsOfFile:), HarfBuzz's two
# ways in, + shaping in several scripts + drawText) or image (RasterImage(decoding:) of PNG and JPEG
# bytes + drawImage with every filter). The modules' sources are compiled straight
# with swiftc -sanitize=fuzzer,address (SwiftPM cannot link a libFuzzer main), in
# $SHEEN_FUZZ_BUILD (default /tmp/sheen-fuzz-build; SHEEN_FUZZ_OPT=-Onone for exact line numbers in a
# crash, in another build directory). $SHEEN_SOURCES picks another checkout (a clean
# snapshot of HEAD, say). The seed corpus Fuzz/Corpus/TARGET is copied into a working corpus
# under the build directory, so what the fuzzer finds never lands in git; crashes are written to
# $SHEEN_FUZZ_BUILD/crashes/. Exits non-zero when the fuzzer finds a crash, leak or timeout.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="${SHEEN_SOURCES:-$(dirname "$here")}/Sources"
build="${SHEEN_FUZZ_BUILD:-/tmp/sheen-fuzz-build}"

usage() {
  echo "usage: Fuzz/run.sh scene|scenegen|args|svg|font|image SECONDS [libFuzzer options] | build TARGET | TARGET --replay FILE..." >&2
  exit 64
}

only_build=0
extra=()
if [ "${1:-}" = build ]; then only_build=1; shift; fi
target="${1:-}"
case "$target" in
  scene) modules=(SheenRaster SheenText SheenLayers); entry=SceneFuzz; max_len=16384 ;;
  scenegen) modules=(SheenRaster SheenText SheenLayers); entry=SceneGenFuzz; max_len=512 ;;
  args)
    modules=(SheenRaster SheenText SheenLayers SheenPlatform SheenKit SheenUI SheenDemo SheenCommandLine)
    entry=ArgsFuzz; max_len=2048; extra=("$src/sheen/Commands.swift") ;;
  svg) modules=(SheenRaster); entry=SVGPathFuzz; max_len=4096 ;;
  font) modules=(SheenRaster SheenText); entry=FontFuzz; max_len=65536 ;;
  image) modules=(SheenRaster); entry=ImageFuzz; max_len=65536 ;;
  *) usage ;;
esac
shift

flags=("${SHEEN_FUZZ_OPT:--O}" -sanitize=fuzzer,address -gline-tables-only -I "$build/modules" -I "$src/CPNG" -I "$src/CJPEG"
  -I "$src/CFontconfig" -I "$src/CHarfBuzz" -I "$src/CFriBidi" -I "$src/CUnibreak" -I "$src/CThai")
# The C libraries' headers (HarfBuzz, FriBidi and fontconfig keep theirs in subdirectories).
for f in $(pkg-config --cflags-only-I harfbuzz fribidi fontconfig libunibreak libthai); do flags+=(-Xcc "$f"); done

# Compiles module $1 from $src/$1 into one object and a .swiftmodule, when its sources changed.
build_module() {
  local name="$1" out="$build/modules"
  mkdir -p "$out"
  local files
  mapfile -t files < <(find "$src/$name" -name '*.swift' | sort)
  local stamp="$out/$name.stamp" sum
  sum="$(cat "${files[@]}" | cksum) ${flags[*]}"
  if [ -f "$out/$name.o" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$sum" ] && [ "$rebuilt" = 0 ]; then return; fi
  echo "fuzz: compiling $name (${#files[@]} files)" >&2
  swiftc "${flags[@]}" -parse-as-library -wmo -module-name "$name" -c "${files[@]}" -o "$out/$name.o" \
    -emit-module -emit-module-path "$out/$name.swiftmodule"
  echo "$sum" >"$stamp"
  rebuilt=1  # modules after this one import it: rebuild them too
}

rebuilt=0
for m in "${modules[@]}"; do build_module "$m"; done
bin="$build/bin/$entry"
mkdir -p "$build/bin"
if [ "$rebuilt" = 1 ] || [ ! -x "$bin" ] || [ "$here/Targets/$entry.swift" -nt "$bin" ] \
  || { [ ${#extra[@]} -gt 0 ] && [ "${extra[0]}" -nt "$bin" ]; }; then
  objects=()
  for m in "${modules[@]}"; do objects+=("$build/modules/$m.o"); done
  swiftc "${flags[@]}" -parse-as-library -module-name "$entry" "$here/Targets/$entry.swift" "${extra[@]}" "${objects[@]}" \
    -lpng16 -lturbojpeg -lharfbuzz -lfontconfig -lfribidi -lunibreak -lthai -o "$bin" 2> >(grep -v "Cannot export local symbol" >&2)
fi
if [ "$only_build" = 1 ]; then echo "$bin"; exit 0; fi

# Swift's own crash backtracer fights ASan's handler; ASan's report is the one to read.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:handle_abort=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$here/lsan.supp}"
if [ "${1:-}" = --replay ]; then
  shift
  [ $# -gt 0 ] || usage
  exec "$bin" -runs=1 "$@"
fi
seconds="${1:-}"
[[ "$seconds" =~ ^[0-9]+$ ]] || usage
shift
corpus="$build/corpus/$target"
mkdir -p "$corpus" "$build/crashes"
cp -n "$here/Corpus/$target"/* "$corpus"/ 2>/dev/null || true
# -timeout: a single input taking over 10 s is a hang; -rss_limit_mb bounds memory per input.
exec "$bin" "$corpus" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix="$build/crashes/$target-" "$@"
