#!/usr/bin/env bash
# How long nfcscand takes to answer while its notification server hangs: the same probe against
# each nfcscand given, one after the other in one run, so an older build is the peer of a newer
# one (Docs/reliability.md).
#
# Usage: Benchmarks/hung-peer-latency.sh [--calls N] BUILD_DIR [BUILD_DIR...]
#   BUILD_DIR  holds nfcscand; nfcsim comes from the first one given
#   --calls N  Get(PausedReasons) calls made while Notify hangs (default 100)
#
# Each round, all private (Tests/Support/desktop-rig.sh, no dunst): a session bus where
# Tests/Support/hung_peer.py owns org.freedesktop.Notifications and answers nothing, an emulated
# PN532 (nfcsim) holding a poster with a web link, and nfcscand reading it. Once the hung peer has
# taken Notify (nfcscand offers the poster), Tests/Support/api_latency.py makes N sequential Gets.
# Prints one line per build:
#   hung-peer-latency: BUILD calls=N unanswered=U p50_ms=… p99_ms=… worst_ms=…
# Exit 0 when every round ran (slow answers are a figure, not a failure), 1 when one could not.
set -euo pipefail
shopt -s inherit_errexit

HERE=$(dirname "$(readlink -f "$0")")
ROOT=$(readlink -f "$HERE/..")
SUPPORT=$ROOT/Tests/Support
RIG=$SUPPORT/desktop-rig.sh
PY=/usr/bin/python3

calls=100
if [ "${1:-}" = --calls ]; then calls=$2; shift 2; fi
[ $# -ge 1 ] || { echo "usage: hung-peer-latency.sh [--calls N] BUILD_DIR [BUILD_DIR...]" >&2; exit 64; }
NFCSIM=$(readlink -f "$1")/nfcsim
[ -x "$NFCSIM" ] || { echo "hung-peer-latency: no nfcsim in $1" >&2; exit 66; }

# shellcheck source=Tests/Support/testlib.sh
. "$SUPPORT/testlib.sh"   # wait_for (it says what it waited for, on standard error)
TESTLIB_NAME="hung-peer-latency" TESTLIB_SAY_FD=2

status=0
for build in "$@"; do
  build=$(readlink -f "$build")
  dir=$(mktemp -d /tmp/nfcscan-hung-peer.XXXXXX)
  pids=()
  eval "$(bash "$RIG" start "$dir" --no-dunst --watch-pid $$)"
  export XDG_CONFIG_HOME=$dir/config DBUS_SYSTEM_BUS_ADDRESS=unix:path=$dir/no-system-bus
  "$PY" "$SUPPORT/hung_peer.py" --name org.freedesktop.Notifications --record "$dir/hung.jsonl" >"$dir/hung.log" 2>&1 &
  pids+=($!)
  "$NFCSIM" pn532 --link "$dir/pn532" --keep-reader --uri https://example.com/poster --after 3 --for 2 >"$dir/nfcsim.log" 2>&1 &
  pids+=($!)
  line="hung-peer-latency: $build"
  if wait_for "the hung notification server" 10 grep -q serving "$dir/hung.log" \
    && wait_for "the emulated reader" 10 test -e "$dir/pn532"; then
    LIBNFC_DEVICE="pn532_uart:$dir/pn532" LIBNFC_AUTO_SCAN=false PCSCLITE_CSOCK_NAME=/nonexistent/nfcscan-bench/pcscd.comm \
      "$build/nfcscand" --camera-devices "$dir/video*" --rfkill-device "$dir/rfkill" >"$dir/nfcscand.log" 2>&1 &
    pids+=($!)
    if wait_for "Notify at the hung server" 20 grep -q '"Notify"' "$dir/hung.jsonl"; then
      probe=$("$PY" "$SUPPORT/api_latency.py" --calls "$calls" 2>>"$dir/latency.log" || true)
      line+=" $("$PY" -c 'import json,sys; d=json.loads(sys.argv[1]); print(" ".join(f"{k}={d[k]}" for k in ("calls","unanswered","p50_ms","p99_ms","worst_ms")))' "$probe")"
    else
      line+=" no Notify reached the hung server (see $dir)"; status=1
    fi
  else
    line+=" the rig did not start (see $dir)"; status=1
  fi
  echo "$line"
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  bash "$RIG" stop "$dir" >/dev/null 2>&1 || true
  [ "$status" -ne 0 ] || rm -rf "$dir"
  unset DBUS_SESSION_BUS_ADDRESS DISPLAY NFCSCAN_RIG_DIR XDG_RUNTIME_DIR
done
exit "$status"
