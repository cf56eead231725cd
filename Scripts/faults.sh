#!/usr/bin/env bash
# Fault tests for `sheen demo` under a private Xvfb: each case must end the documented way
# (exit 0 on close, SIGINT or SIGTERM; 3 when the X server dies), leave no shared-memory segment
# behind (ipcs -m) and dump no core.
#
#   Scripts/faults.sh [SHEEN_BINARY]    (default: swift build -c release --product sheen)
#
# Cases: 200 window resizes in 10 s; 10,000 clicks as fast as xdotool sends them; the X server
# killed mid-frame; SIGTERM and SIGINT mid-frame; a server without MIT-SHM (XPutImage fallback).
# Prints one line per case and exits 1 if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
for tool in Xvfb xdotool ipcs; do
  command -v "$tool" >/dev/null || { echo "faults: $tool is missing (apt-get install xvfb xdotool util-linux)" >&2; exit 1; }
done
bin="${1:-}"
if [ -z "$bin" ]; then
  swift build -c release --product sheen >&2 || exit 1
  bin="$(swift build -c release --show-bin-path)/sheen"
fi

work="$(mktemp -d /tmp/sheen-faults.XXXXXX)"
cd "$work" || exit 1
ulimit -c unlimited 2>/dev/null || true  # so that a crash would leave a core file to find
xvfb_pid="" demo_pid="" failures=0
cleanup() {
  [ -n "$demo_pid" ] && kill -KILL "$demo_pid" 2>/dev/null
  [ -n "$xvfb_pid" ] && kill -KILL "$xvfb_pid" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# Starts a private Xvfb (extra arguments passed on); sets DISPLAY and xvfb_pid.
start_xvfb() {
  rm -f xvfb.fd
  Xvfb -displayfd 3 -nolisten tcp -screen 0 1024x768x24 "$@" 3>xvfb.fd 2>/dev/null &
  xvfb_pid=$!
  for _ in $(seq 100); do [ -s xvfb.fd ] && break; sleep 0.05; done
  export DISPLAY=":$(head -n1 xvfb.fd)"
}

stop_xvfb() { kill "$xvfb_pid" 2>/dev/null; wait "$xvfb_pid" 2>/dev/null; xvfb_pid=""; }

# Starts the demo (extra options passed on) and waits for its "ready" line; sets demo_pid, wid, shm.
start_demo() {
  "$bin" demo --print-events --size 320x240 "$@" >demo.out 2>demo.err &
  demo_pid=$!
  wid="" shm=""
  for _ in $(seq 600); do
    if grep -q '^ready ' demo.out 2>/dev/null; then break; fi
    sleep 0.05
  done
  local ready
  ready="$(grep -m1 '^ready ' demo.out)"
  wid="$(sed -n 's/.*window=\(0x[0-9a-f]*\).*/\1/p' <<<"$ready")"
  shm="$(sed -n 's/.*shm=\([0-9]*\).*/\1/p' <<<"$ready")"
  [ -n "$wid" ] || echo "  (no ready line within 30 s; stderr: $(head -c 300 demo.err))"
  # The segment is the owner's alone (mode 600).
  if [ -n "$shm" ]; then
    local perms
    perms="$(ipcs -m | awk -v id="$shm" '$2 == id {print $4}')"
    [ -z "$perms" ] || [ "$perms" = 600 ] || { echo "FAIL  segment $shm has mode $perms"; failures=$((failures + 1)); }
  fi
}

# Waits up to 10 s for the demo to exit and checks status, segments and core files.
expect_exit() {
  local name="$1" want="$2" status="" extra="${3:-}"
  for _ in $(seq 200); do kill -0 "$demo_pid" 2>/dev/null || break; sleep 0.05; done
  if kill -0 "$demo_pid" 2>/dev/null; then
    kill -KILL "$demo_pid"; status="hung"
  fi
  wait "$demo_pid"; local rc=$?
  [ -z "$status" ] && status=$rc
  sleep 0.2
  local leaked
  leaked="$(ipcs -m -p | awk -v p="$demo_pid" '$3 == p {print $1}' | tr '\n' ' ')"
  if [ -n "$shm" ] && ipcs -m | awk -v id="$shm" '$2 == id {found = 1} END {exit !found}'; then
    leaked+="$shm"
  fi
  local cores
  cores="$(ls core* 2>/dev/null | tr '\n' ' ')"
  if [ "$status" = "$want" ] && [ -z "$leaked" ] && [ -z "$cores" ]; then
    echo "ok    $name: exit $status, no segment left, no core $extra"
  else
    echo "FAIL  $name: exit $status (want $want), leaked segments [$leaked], cores [$cores] $extra"
    echo "      stderr: $(tail -c 400 demo.err)"
    failures=$((failures + 1))
  fi
  demo_pid=""
}

alive() { kill -0 "$demo_pid" 2>/dev/null && echo alive || echo "not alive"; }

# 1. 200 resizes in 10 seconds, then SIGTERM.
start_xvfb
start_demo --fps 60
start=$(date +%s.%N)
for i in $(seq 200); do
  xdotool windowsize "$wid" $((200 + (i * 37) % 600)) $((150 + (i * 53) % 500)) 2>/dev/null
  sleep 0.01  # xdotool itself takes a few tens of milliseconds
done
took=$(echo "$(date +%s.%N) - $start" | bc)
after="$(alive)"
kill -TERM "$demo_pid"
expect_exit "200 resizes (${took}s)" 0 "($(grep -ci resize demo.out) resize events; $after after them)"
stop_xvfb

# 2. 10,000 clicks as fast as possible, then SIGINT.
start_xvfb
start_demo --fps 60
start=$(date +%s.%N)
xdotool mousemove --window "$wid" 160 120 click --repeat 10000 --delay 0 1 2>/dev/null
took=$(echo "$(date +%s.%N) - $start" | bc)
sleep 1
after="$(alive)"
kill -INT "$demo_pid"
expect_exit "10,000 clicks (${took}s)" 0 "($(grep -ci 'down\|press' demo.out) press events; $after after them)"
stop_xvfb

# 3. The X server killed mid-frame (frames drawn back to back).
start_xvfb
start_demo --fps 0
sleep 1
kill -KILL "$xvfb_pid"; wait "$xvfb_pid" 2>/dev/null; xvfb_pid=""
expect_exit "X server killed mid-frame" 3

# 4, 5. SIGTERM and SIGINT mid-frame.
for sig in TERM INT; do
  start_xvfb
  start_demo --fps 0
  sleep 1
  kill -"$sig" "$demo_pid"
  expect_exit "SIG$sig mid-frame" 0
  stop_xvfb
done

# 6. A server without MIT-SHM: the XPutImage fallback draws frames, then SIGTERM.
start_xvfb -extension MIT-SHM
start_demo --fps 0
sleep 1
after="$(alive)"
kill -TERM "$demo_pid"
expect_exit "no MIT-SHM" 0 "(shm in ready line: '${shm:-none}', $after after 1 s)"
stop_xvfb

[ "$failures" -eq 0 ] && echo "faults: all cases passed" || echo "faults: $failures case(s) failed"
[ "$failures" -eq 0 ]
