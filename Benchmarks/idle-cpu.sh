#!/usr/bin/env bash
# Idle CPU of `nfcscan --continuous` with one reader and no object (issue 3's target: under 0.5 %
# of one core, no busy loop). A figure, not a test: see Docs/performance.md (issue 3).
#
# Usage: Benchmarks/idle-cpu.sh [SECONDS] [libnfc|pcsc|daemon ...]   (default 60 s, libnfc and pcsc; release build)
#   (a) libnfc: the PN532 emulator (`nfcsim pn532 --after 86400`: the field stays empty).
#   (b) PC/SC: a private pcscd (scripts/private-pcscd.sh) with a vpcd reader and no card;
#       `nfcscan --continuous` when nfcscan has the PC/SC backend, else pcsc-readers-probe (the
#       same PCSCReader waiting for a card).
#   (c) daemon: nfcscand (issue 4's target: under 0.5 %) on a private session bus with (a)'s reader.
# CPU is utime+stime from /proc/PID/stat over the window (after 3 s of start-up), beside the
# on-CPU time from /proc/PID/task/*/schedstat and the context switches per second; the simulator
# and pcscd are measured too, each on its own line.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true

for product in nfcscan nfcscand nfcsim pcsc-readers-probe; do
  if ! log=$(swift build -c release --product "$product" 2>&1); then echo "$log" >&2; exit 1; fi
done
exec python3 Benchmarks/idle_cpu.py .build/release "$seconds" "$@"
