#!/usr/bin/env bash
# Rounds of inhibit / release / start a scan session / invalidate it against the real nfcscand
# (issue 11: 1,000 rounds, no crash, PausedReasons right after every step, the readers back after
# every release without passing through no-reader).
#
# Usage: Tests/Reliability/inhibit-session-rounds.sh [--rounds N] [--crashes K] [--tolerate-no-reader]
#                                                   [--keep] [BUILD_DIR]
#   --rounds N    rounds to run (default 1000)
#   --crashes K   after a crash, start nfcscand again and go on, until K crashes (default 1: stop
#                 at the first)
#   --tolerate-no-reader  count releases that pass through no-reader instead of failing on the
#                 first (to measure crashes on a daemon that still has that fault)
#   --keep        keep the scenario's directory (logs) even when all went well
#   BUILD_DIR     holds nfcscand (default .build/debug)
#
# The parts, all private: a session dbus-daemon (Tests/Support/desktop-rig.sh, no notification
# server), a pcscd of its own with two vpcd readers (scripts/private-pcscd.sh: one vpcd entry
# serves two slots, "nfcsim 00 00" and "nfcsim 00 01", as Debian's /etc/reader.conf.d/vpcd does
# for the system pcscd), and nfcscand reading them, with a camera directory and an rfkill FIFO of
# its own (so those watches run as on a desktop). The client is inhibit_session_rounds.py.
#
# Prints, as its last line:
#   inhibit-session-rounds: rounds=R seconds=S crashes=C no-reader=B [failure=...]
# A crash leaves nfcscand's log (with the Swift runtime's backtrace) in DIR/nfcscand-N.log.
# NFCSCAND_WRAPPER, when set, is put before nfcscand's command line (e.g. "strace -f -o FILE").
# Exit 0 when every round passed with no crash, 1 otherwise, 64 usage, 66 no nfcscand.
set -euo pipefail
shopt -s inherit_errexit

HERE=$(dirname "$(readlink -f "$0")")
ROOT=$(readlink -f "$HERE/../..")
RIG=$ROOT/Tests/Support/desktop-rig.sh
PY=/usr/bin/python3

rounds=1000
max_crashes=1
keep=0
tolerate=()
build=$ROOT/.build/debug
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=${2:?--rounds needs a number}; shift 2 ;;
    --crashes) max_crashes=${2:?--crashes needs a number}; shift 2 ;;
    --keep) keep=1; shift ;;
    --tolerate-no-reader) tolerate=(--tolerate-no-reader); shift ;;
    -h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    -*) echo "inhibit-session-rounds: unknown option $1" >&2; exit 64 ;;
    *) build=$1; shift ;;
  esac
done
case "$rounds$max_crashes" in ''|*[!0-9]*) echo "inhibit-session-rounds: --rounds and --crashes take numbers" >&2; exit 64 ;; esac
NFCSCAND=$(readlink -f "$build")/nfcscand
[ -x "$NFCSCAND" ] || { echo "inhibit-session-rounds: no nfcscand in $build (swift build --product nfcscand)" >&2; exit 66; }

TESTLIB_NAME="inhibit-session-rounds" TESTLIB_SAY_FD=2 TESTLIB_POLL=0.05   # say, wait_for, name_owned
# shellcheck source=Tests/Support/testlib.sh
. "$ROOT/Tests/Support/testlib.sh"

DIR=$(mktemp -d /tmp/nfcscan-rounds.XXXXXX)
pcscd_pid=
daemon_pid=
failed=0
cleanup() {
  trap - EXIT INT TERM
  [ -n "$daemon_pid" ] && kill -TERM "$daemon_pid" 2>/dev/null && wait "$daemon_pid" 2>/dev/null || true
  [ -n "$pcscd_pid" ] && kill -TERM "$pcscd_pid" 2>/dev/null && wait "$pcscd_pid" 2>/dev/null || true
  bash "$RIG" stop "$DIR" >/dev/null 2>&1 || true
  if [ "$failed" -eq 0 ] && [ "$keep" -eq 0 ]; then rm -rf "$DIR"; else say "logs in $DIR"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

eval "$(bash "$RIG" start "$DIR" --no-dunst --watch-pid $$)"
export DBUS_SYSTEM_BUS_ADDRESS=unix:path=$DIR/no-system-bus XDG_CONFIG_HOME=$DIR/config

bash "$ROOT/scripts/private-pcscd.sh" >"$DIR/pcscd.log" 2>&1 &
pcscd_pid=$!
wait_for "private pcscd" 15 grep -q '^PCSC_READER=' "$DIR/pcscd.log"
socket=$(sed -n 's/^PCSCLITE_CSOCK_NAME=//p' "$DIR/pcscd.log")
mkfifo "$DIR/rfkill"   # an rfkill stand-in reporting no radio: airplane mode off, the watch running

field() { echo "$result" | "$PY" -c "import json,sys; print(json.load(sys.stdin)['$1'])"; }
crashes=0
blips=0
done_rounds=0
seconds=0
failure=
generation=0
while :; do
  generation=$((generation + 1))
  log=$DIR/nfcscand-$generation.log
  LIBNFC_DEVICE= LIBNFC_AUTO_SCAN=false PCSCLITE_CSOCK_NAME=$socket \
    SWIFT_BACKTRACE=enable=yes,interactive=no,output-to=stderr \
    ${NFCSCAND_WRAPPER:-} "$NFCSCAND" --verbose --sheet never --camera-devices "$DIR/video*" --rfkill-device "$DIR/rfkill" >"$log" 2>&1 &
  daemon_pid=$!   # (NFCSCAND_WRAPPER is split into words on purpose)
  wait_for "nfcscand on the bus" 20 name_owned "$DBUS_SESSION_BUS_ADDRESS" org.nfcscan.Scanner1
  status=0
  "$PY" "$HERE/inhibit_session_rounds.py" "${tolerate[@]}" --first-round $((done_rounds + 1)) --rounds $((rounds - done_rounds)) >"$DIR/client-$generation.out" \
    2> >(tee -a "$DIR/client-$generation.err" >&2) || status=$?
  result=$(tail -n 1 "$DIR/client-$generation.out")
  if ! field rounds >/dev/null 2>&1; then   # the client itself failed (its traceback is in client-N.err)
    result='{"rounds": 0, "seconds": 0, "failure": "the client failed (client-'$generation'.err)", "no_reader_blips": 0}'
    status=1
  fi
  done_rounds=$((done_rounds + $(field rounds)))
  blips=$((blips + $(field no_reader_blips)))
  seconds=$(echo "$result" | "$PY" -c "import json,sys; print(round($seconds + json.load(sys.stdin)['seconds'], 2))")
  if [ "$status" -eq 0 ]; then break; fi
  failure=$(field failure)
  if [ "$status" -eq 2 ]; then
    # nfcscand left the bus: how did it end?
    daemon_status=0
    wait "$daemon_pid" || daemon_status=$?
    daemon_pid=
    if [ "$daemon_status" -gt 128 ]; then   # killed by a signal: a crash
      crashes=$((crashes + 1))
      say "crash $crashes after $done_rounds rounds: nfcscand ended with status $daemon_status; its log: $log"
      grep -m1 -E '^\*\*\* Program crashed' "$log" >&2 || true
      if [ "$crashes" -lt "$max_crashes" ] && [ "$done_rounds" -lt "$rounds" ]; then continue; fi
    else
      failure="$failure (nfcscand exited with status $daemon_status)"
      say "$failure; its log: $log"
    fi
  else
    say "$failure"
  fi
  failed=1
  break
done
echo "inhibit-session-rounds: rounds=$done_rounds seconds=$seconds crashes=$crashes no-reader=$blips${failure:+ failure=$failure}"
exit $failed
