#!/usr/bin/env bash
# The live demo: a simulated poster held near a simulated reader, read by nfcscan through the real
# libnfc. Nothing touches the network or any system setting: the reader is a PN532 emulated on a
# pseudo-terminal in a temporary directory, removed at the end.
# Then the background service on a private desktop (scripts/demo-desktop.sh: screenshots in
# .build/demo).
# Usage: scripts/demo.sh [BIN_DIR]   (default .build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release}
work=$(mktemp -d)
sim_pid=
cleanup() {
  [ -n "$sim_pid" ] && kill "$sim_pid" 2>/dev/null && wait "$sim_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

"$bin/nfcsim" pn532 --type ntag215 \
  --uri https://example.com/summer-concert --text "Summer concert in the park, Saturday 8 pm" \
  --link "$work/reader" --for 60 >"$work/nfcsim.log" 2>&1 &
sim_pid=$!
for _ in $(seq 50); do [ -e "$work/reader" ] && break; sleep 0.1; done
[ -e "$work/reader" ] || { cat "$work/nfcsim.log"; echo "demo: the simulated reader did not start" >&2; exit 1; }

export LIBNFC_DEVICE="pn532_uart:$work/reader" LIBNFC_AUTO_SCAN=false
echo "\$ nfcscan --object poster        # a simulated poster lies on a simulated reader"
"$bin/nfcscan" --object poster --timeout 20
echo
echo "\$ nfcscan --json --timeout 20"
"$bin/nfcscan" --json --timeout 20
echo
echo "\$ nfcscan decode Docs/samples/poster.ndef   # message bytes you already have"
"$bin/nfcscan" decode Docs/samples/poster.ndef
echo
echo "\$ scripts/demo-desktop.sh     # the background service on a desktop of its own: notification, choice, the app, its sheet"
bash scripts/demo-desktop.sh "$bin"
