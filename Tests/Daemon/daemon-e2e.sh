#!/usr/bin/env bash
# nfcscand end to end, with real parts only: a private session dbus-daemon, Xvfb and dunst (the
# desktop rig, Tests/Support/desktop-rig.sh), the real libnfc reading an emulated PN532 on a
# pseudo-terminal (nfcsim pn532), a private pcscd with the vpcd driver (nfcsim vpcd), test apps
# speaking org.nfcscan.Handler1 over D-Bus (Tests/Support/test_handler_app.py), and a stand-in for
# the desktop portal's OpenURI.
#
# Usage: Tests/Daemon/daemon-e2e.sh BUILD_DIR [SCENARIO...]   (BUILD_DIR holds nfcscand and nfcsim)
# One scenario per file, Tests/Daemon/scenarios/SCENARIO.sh, defining scenario_SCENARIO; the
# helpers they share are Tests/Daemon/lib.sh. With no SCENARIO every file runs, in name order.
# Every scenario runs in a directory of its own; on failure its logs are printed. Exit 0 when
# every check passed, 1 otherwise.
set -euo pipefail
shopt -s inherit_errexit

HERE=$(dirname "$(readlink -f "$0")")
ROOT=$(readlink -f "$HERE/../..")
SUPPORT=$ROOT/Tests/Support
RIG=$SUPPORT/desktop-rig.sh
PY=/usr/bin/python3
BUILD=$(readlink -f "${1:?usage: daemon-e2e.sh BUILD_DIR [SCENARIO...]}")
shift
NFCSCAND=$BUILD/nfcscand
NFCSIM=$BUILD/nfcsim
[ -x "$NFCSCAND" ] && [ -x "$NFCSIM" ] || { echo "daemon-e2e: build nfcscand and nfcsim first ($BUILD)" >&2; exit 66; }

. "$HERE/lib.sh"

# A step that fails outside a check (set -e) ends the run: the scenario under way still stops
# every process it started and shows its logs.
trap 'status=$?; if [ -n "$DIR" ]; then say "scenario stopped by a failing step (status $status)"; bad "the scenario ran to its end"; finish; fi' EXIT

all=()
for file in "$HERE"/scenarios/*.sh; do
  all+=("$(basename "$file" .sh)")
done
for scenario in "${@:-${all[@]}}"; do
  [ -f "$HERE/scenarios/$scenario.sh" ] || { echo "daemon-e2e: no scenario $scenario (Tests/Daemon/scenarios/$scenario.sh)" >&2; exit 64; }
done
for scenario in "${@:-${all[@]}}"; do
  . "$HERE/scenarios/$scenario.sh"
  "scenario_$scenario"
done
say "$checks checks, $failures failed"
[ "$failures" -eq 0 ]
