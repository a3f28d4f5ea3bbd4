#!/usr/bin/env bash
# nfcscand end to end, with real parts only: a private session dbus-daemon, Xvfb and dunst (the
# desktop rig, Tests/Support/desktop-rig.sh), the real libnfc reading an emulated PN532 on a
# pseudo-terminal (nfcsim pn532), a private pcscd with the vpcd driver (nfcsim vpcd), test apps
# speaking org.nfcscan.Handler1 over D-Bus (Tests/Support/test_handler_app.py), and a stand-in for
# the desktop portal's OpenURI.
#
# Usage: Tests/Daemon/daemon-e2e.sh [--jobs N] BUILD_DIR [SCENARIO...]
# BUILD_DIR holds nfcscand and nfcsim.
# One scenario per file, Tests/Daemon/scenarios/SCENARIO.sh, defining scenario_SCENARIO; the
# helpers they share are Tests/Daemon/lib.sh. With no SCENARIO every file runs, in name order.
# Every scenario runs in a directory of its own (its own bus, X display, dunst, reader or pcscd);
# on failure its logs are printed. Exit 0 when every check passed, 1 otherwise, 64 usage.
#
#   --jobs N  up to N scenario files side by side (default: NFCSCAN_E2E_JOBS, else 2). Each runs in
#             a subshell of its own, with its own counters; its output is kept and printed whole
#             when it ends, so logs never interleave; the last line sums every file's checks.
#             A file with the line `# e2e: alone (WHY)` runs with nothing beside it, after the
#             others: its checks measure latency or it loads the machine itself. --jobs 1 runs
#             every file one after the other, its output as it comes (take figures that way).
set -euo pipefail
shopt -s inherit_errexit

HERE=$(dirname "$(readlink -f "$0")")
ROOT=$(readlink -f "$HERE/../..")
SUPPORT=$ROOT/Tests/Support
RIG=$SUPPORT/desktop-rig.sh
PY=/usr/bin/python3
usage() { echo "usage: daemon-e2e.sh [--jobs N] BUILD_DIR [SCENARIO...]" >&2; exit 64; }
jobs=${NFCSCAN_E2E_JOBS:-2}
while [ $# -gt 0 ]; do
  case "$1" in
    --jobs) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
    --jobs=*) jobs=${1#--jobs=}; shift ;;
    -h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    --) shift; break ;;
    -*) echo "daemon-e2e: unknown option $1" >&2; usage ;;
    *) break ;;
  esac
done
case "$jobs" in ''|*[!0-9]*|0) echo "daemon-e2e: --jobs takes a number, 1 or more (not '$jobs')" >&2; exit 64 ;; esac
[ $# -ge 1 ] || usage
BUILD=$(readlink -f "$1")
shift
NFCSCAND=$BUILD/nfcscand
NFCSIM=$BUILD/nfcsim
[ -x "$NFCSCAND" ] && [ -x "$NFCSIM" ] || { echo "daemon-e2e: build nfcscand and nfcsim first ($BUILD)" >&2; exit 66; }

# shellcheck source=Tests/Daemon/lib.sh
. "$HERE/lib.sh"

all=()
for file in "$HERE"/scenarios/*.sh; do
  all+=("$(basename "$file" .sh)")
done
for scenario in "${@:-${all[@]}}"; do
  [ -f "$HERE/scenarios/$scenario.sh" ] || { echo "daemon-e2e: no scenario $scenario (Tests/Daemon/scenarios/$scenario.sh)" >&2; exit 64; }
done

# One scenario file, in the subshell that runs it. Its totals go to $RUN/NAME.counts when the
# subshell ends, however it ends. A step that fails outside a check (set -e) ends the file: the
# scenario under way still stops every process it started and shows its logs.
run_scenario() { # NAME
  SCENARIO_NAME=$1
  trap 'status=$?; if [ -n "$DIR" ]; then say "scenario stopped by a failing step (status $status)"; bad "the scenario ran to its end"; finish; fi
    echo "$checks $failures" >"$RUN/$SCENARIO_NAME.counts"' EXIT
  # shellcheck source=/dev/null
  . "$HERE/scenarios/$SCENARIO_NAME.sh"
  "scenario_$SCENARIO_NAME"
}

RUN=$(mktemp -d /tmp/nfcscan-e2e-run.XXXXXX)
declare -A running=()   # PID -> scenario file
declare -A began=()     # scenario file -> EPOCHREALTIME at its start
stop_all() { # (interrupted) ends the scenario files under way; what they said so far is printed
  local pid
  for pid in "${!running[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${!running[@]}"; do
    wait "$pid" 2>/dev/null || true
    if [ -f "$RUN/${running[$pid]}.log" ]; then cat "$RUN/${running[$pid]}.log"; fi
    say "${running[$pid]}: interrupted"
  done
  rm -rf "$RUN"
}
trap stop_all EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

us() { echo "${EPOCHREALTIME//[!0-9]/}"; }
since() { # MICROSECONDS (a us reading) -> seconds since then, with tenths
  local tenths=$(( ($(us) - $1) / 100000 ))
  echo "$((tenths / 10)).$((tenths % 10))"
}
launch() { # NAME live|kept: a subshell runs it; live: its output as it comes, kept: into $RUN/NAME.log
  began[$1]=$(us)
  if [ "$2" = live ]; then
    ( run_scenario "$1" ) &
  else
    ( run_scenario "$1" ) >"$RUN/$1.log" 2>&1 &
  fi
  running[$!]=$1
}
total_checks=0
total_failures=0
failed=()
reap() { # waits for one running scenario file to end: its kept output whole, then its totals
  local pid="" status=0 name file_checks=1 file_failures=1
  wait -n -p pid "${!running[@]}" || status=$?
  name=${running[$pid]}
  unset "running[$pid]"
  if [ -f "$RUN/$name.log" ]; then cat "$RUN/$name.log"; fi
  if [ -f "$RUN/$name.counts" ]; then read -r file_checks file_failures <"$RUN/$name.counts"
  else echo "  FAIL $name ended (status $status) without its totals"; fi
  total_checks=$((total_checks + file_checks))
  total_failures=$((total_failures + file_failures))
  [ "$file_failures" -eq 0 ] || failed+=("$name")
  say "$name: $file_checks checks, $file_failures failed, $(since "${began[$name]}") s"
}

start=$(us)
shared=() alone=()
for scenario in "${@:-${all[@]}}"; do
  if [ "$jobs" -gt 1 ] && grep -q '^# e2e: alone' "$HERE/scenarios/$scenario.sh"; then alone+=("$scenario"); else shared+=("$scenario"); fi
done
if [ "$jobs" -eq 1 ]; then
  for scenario in "${shared[@]}"; do launch "$scenario" live; reap; done
else
  [ ${#shared[@]} -eq 0 ] || say "${#shared[@]} scenario files, $jobs side by side; then ${#alone[@]} alone"
  for scenario in "${shared[@]}"; do
    while [ ${#running[@]} -ge "$jobs" ]; do reap; done
    launch "$scenario" kept
  done
  while [ ${#running[@]} -gt 0 ]; do reap; done
  for scenario in "${alone[@]}"; do launch "$scenario" live; reap; done
fi
[ ${#failed[@]} -eq 0 ] || say "failed in: ${failed[*]}"
say "$(since "$start") s with --jobs $jobs"
say "$total_checks checks, $total_failures failed"
[ "$total_failures" -eq 0 ]
