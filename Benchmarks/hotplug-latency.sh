#!/usr/bin/env bash
# How fast readers that come and go are picked up and dropped (issue 23): a figure, not a test;
# see Docs/performance.md ("Readers that come and go").
#
# Usage: Benchmarks/hotplug-latency.sh [BUILD_DIR] [ROUNDS]   (default .build/debug, 5 rounds)
#   (a) nfcscan, libnfc: `nfcscan --continuous --verbose` runs with LIBNFC_DEVICE naming a path
#       where nothing is; an emulated PN532 (nfcsim pn532) runs elsewhere, and at T0 its node
#       appears at that path (a symbolic link, as a udev rule or a USB serial adapter makes one).
#       Figure: T0 to nfcscan's "(it appeared)" line (the reader opened: nfc_list_devices, nfc_open
#       and the PN532's initialisation included).
#   (b) nfcscand: the end-to-end scenarios libnfc_hotplug (the PN532 appears, leaves by SIGKILL,
#       comes back: PausedReasons leaves and regains "no-reader") and pcscd_restart (pcscd killed
#       and started again: its readers back), and for nfcscan pcscd_late (pcscd starts after
#       nfcscan: its vpcd reader in use), their `figures` lines, once per round. Their waits poll
#       every 20 ms (libnfc_hotplug, pcscd_late) or 100 ms (pcscd_restart): an upper bound.
#   (c) idle: `nfcscan --continuous` with no reader anywhere for 30 s (its libnfc node and pcscd's
#       missing socket followed): utime+stime from /proc/PID/stat and the context switches of all
#       its threads (the watches' threads only wake on an event).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-.build/debug}
rounds=${2:-5}
nfcscan=$build/nfcscan nfcsim=$build/nfcsim
dir=$(mktemp -d /tmp/nfcscan-hotplug-bench.XXXXXX)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$dir"; }
trap cleanup EXIT
now_ns() { date +%s%N; }

echo "(a) nfcscan, libnfc reader appearing: node to reader in use"
"$nfcsim" pn532 --link "$dir/elsewhere" --after 86400 --for 1 --keep-reader >"$dir/nfcsim.log" 2>&1 &
pids+=("$!")
until [ -e "$dir/elsewhere" ]; do sleep 0.05; done
pty=$(readlink "$dir/elsewhere")
for ((round = 1; round <= rounds; round++)); do
  rm -f "$dir/pn532" "$dir/nfcscan.log"
  LIBNFC_DEVICE="pn532_uart:$dir/pn532" LIBNFC_AUTO_SCAN=false LIBNFC_LOG_LEVEL=0 PCSCLITE_CSOCK_NAME=/nonexistent/bench/pcscd.comm \
    DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent/bench/bus \
    bash -c 'echo $$ >"$1"; shift; exec "$@" 2>&1' _ "$dir/nfcscan.pid" "$nfcscan" --continuous --verbose \
    | while IFS= read -r line; do echo "$(now_ns) $line"; done >"$dir/nfcscan.log" &
  scan=$!
  until grep -q "waiting for a reader" "$dir/nfcscan.log" 2>/dev/null; do sleep 0.05; done
  sleep 0.5   # the session's watches are set up
  t0=$(now_ns)
  ln -s "$pty" "$dir/pn532"
  until grep -q "(it appeared)" "$dir/nfcscan.log" 2>/dev/null; do sleep 0.02; done
  t1=$(grep -m1 "(it appeared)" "$dir/nfcscan.log" | cut -d' ' -f1)
  echo "  round $round: $(( (t1 - t0) / 1000000 )) ms"
  kill "$(cat "$dir/nfcscan.pid")" 2>/dev/null || true
  wait "$scan" 2>/dev/null || true
done

echo "(b) nfcscand: libnfc_hotplug and pcscd_restart; nfcscan: pcscd_late"
for ((round = 1; round <= rounds; round++)); do
  bash Tests/Daemon/daemon-e2e.sh --jobs 1 "$build" libnfc_hotplug pcscd_restart pcscd_late 2>&1 | grep -E "^  figures|checks, [1-9]" || true
done

echo "(c) idle, waiting for a reader for 30 s"
LIBNFC_DEVICE="pn532_uart:$dir/absent" LIBNFC_AUTO_SCAN=false LIBNFC_LOG_LEVEL=0 PCSCLITE_CSOCK_NAME=$dir/run/pcscd/pcscd.comm \
  DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent/bench/bus "$nfcscan" --continuous 2>/dev/null &
idle=$!
pids+=("$idle")
sleep 2
ticks() { awk '{print $14 + $15}' "/proc/$idle/stat"; }
switches() { cat "/proc/$idle"/task/*/status | awk '/^voluntary_ctxt_switches|^nonvoluntary_ctxt_switches/ {s += $2} END {print s}'; }
t0=$(ticks) s0=$(switches)
sleep 30
t1=$(ticks) s1=$(switches)
echo "  $(( (t1 - t0) * 10 )) ms of CPU in 30 s; $(( s1 - s0 )) context switches of its $(find "/proc/$idle/task" -mindepth 1 -maxdepth 1 | wc -l) threads"
