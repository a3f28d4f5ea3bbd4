# The shared library of the end-to-end scenarios (Tests/Daemon/scenarios/*.sh), sourced by the
# runner Tests/Daemon/daemon-e2e.sh, which sets ROOT, SUPPORT, RIG, PY, BUILD, NFCSCAND and NFCSIM.
# Each scenario begins (a private desktop rig in a directory of its own), starts the parts it
# needs, checks, and finishes. The runner runs each scenario file in a subshell of its own (with
# --jobs, several side by side), so its counters and variables are its own. Waits are on
# conditions (wait_for); a scenario that must show that something does *not* happen waits a
# bounded time and says why in a comment.
# shellcheck shell=bash

# say, wait_for and name_owned are Tests/Support/testlib.sh's: say writes "daemon-e2e: ..." to
# standard output, and a wait_for that gives up is a failed check (bad).
# shellcheck source=Tests/Support/testlib.sh
. "$SUPPORT/testlib.sh"
TESTLIB_NAME="daemon-e2e"
TESTLIB_ON_TIMEOUT=bad

failures=0
checks=0
DIR=""
pids=()

ok() { checks=$((checks + 1)); echo "  ok   $*"; }
bad() { checks=$((checks + 1)); failures=$((failures + 1)); echo "  FAIL $*"; scenario_failed=1; }
check() { # DESCRIPTION COMMAND...
  local what=$1; shift
  if "$@"; then ok "$what"; else bad "$what"; fi
}

# ---- one scenario's parts ----

begin() { # NAME [RIG OPTIONS...]
  local name=$1; shift
  DIR=$(mktemp -d "/tmp/nfcscan-e2e-$name.XXXXXX")
  PREVIOUS_OWNER=""
  scenario_failed=0
  pids=()
  say "scenario $name ($DIR)"
  # The rig stops by itself once the shell running this scenario ends (the runner's subshell).
  local runner=$BASHPID
  eval "$(bash "$RIG" start "$DIR" --watch-pid "$runner" "$@")"
  # The scenario's own application directories, never the machine's (test apps' desktop entries go there).
  app_dirs
  export BROWSER="$SUPPORT/record_browser.sh" NFCSCAN_TEST_BROWSER_LOG="$DIR/browser.log"
  # Hermetic: the machine's own system bus (a real logind, NetworkManager) and the developer's
  # configuration never reach the daemons under test; scenarios that want them start stand-ins.
  export DBUS_SYSTEM_BUS_ADDRESS=${DBUS_SYSTEM_BUS_ADDRESS:-unix:path=$DIR/no-system-bus} XDG_CONFIG_HOME=$DIR/config \
    XDG_STATE_HOME=$DIR/state
  # Every PropertiesChanged of the Scanner1 object, as dbus-monitor prints it.
  dbus-monitor --address "$DBUS_SESSION_BUS_ADDRESS" \
    "type='signal',path='/org/nfcscan/Scanner1',interface='org.freedesktop.DBus.Properties'" >"$DIR/properties.log" 2>&1 &
  pids+=($!)
}

finish() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  bash "$RIG" stop "$DIR" >/dev/null 2>&1 || true
  if [ "$scenario_failed" -ne 0 ]; then
    for log in "$DIR"/*.log "$DIR"/*.jsonl; do
      [ -f "$log" ] || continue
      echo "---- $log"; tail -n 40 "$log"
    done
  else
    rm -rf "$DIR"
  fi
  DIR=""
  NFCSCAND_WRAP=()
  CLIENT_WRAP=()
  unset DBUS_SESSION_BUS_ADDRESS DBUS_SYSTEM_BUS_ADDRESS DISPLAY NFCSCAN_RIG_DIR XDG_RUNTIME_DIR XDG_CONFIG_HOME XDG_STATE_HOME
  if [ -n "${APP_DIRS:-}" ]; then unset XDG_DATA_HOME XDG_DATA_DIRS APP_DIRS; fi
}

# Application directories of the scenario's own (after begin, before daemon): desktop entries go
# in $XDG_DATA_HOME/applications and $XDG_DATA_DIRS/applications; D-Bus service files in the
# rig's $NFCSCAN_RIG_DIR/session-services (its bus reads no other service directory).
app_dirs() {
  APP_DIRS=$DIR/data
  export XDG_DATA_HOME=$APP_DIRS/home XDG_DATA_DIRS=$APP_DIRS/system
  mkdir -p "$XDG_DATA_HOME/applications" "$XDG_DATA_DIRS/applications"
}

# An emulated PN532 with one object: arrives after --after seconds (default 4), stays --for.
sim() { # ARGS...
  SIM_START=$(date +%s%N) SIM_AFTER=0 SIM_FOR=0
  local args=("$@") i
  for ((i = 0; i < ${#args[@]} - 1; i++)); do
    case ${args[$i]} in --after) SIM_AFTER=${args[$((i + 1))]} ;; --for) SIM_FOR=${args[$((i + 1))]} ;; esac
  done
  "$NFCSIM" pn532 --link "$DIR/pn532" --keep-reader "$@" >"$DIR/nfcsim.log" 2>&1 &
  SIM_PID=$!
  pids+=($SIM_PID)
  wait_for "the emulated reader" 10 test -e "$DIR/pn532"
}

# A PN532's object comes and goes on the schedule sim was given (--after, --for, counted from
# sim's start) and nothing announces it, so waits on it follow that schedule.
until_ns() { # NANOSECONDS-SINCE-THE-EPOCH
  while [ "$(date +%s%N)" -lt "$1" ]; do sleep 0.05; done
}
object_near_for() { # SECONDS: until sim's object has been near the reader for SECONDS
  until_ns "$(awk -v s="$SIM_START" -v a="$SIM_AFTER" -v d="$1" 'BEGIN { printf "%.0f", s + (a + d) * 1e9 }')"
}
object_gone_for() { # SECONDS: until sim's object has been gone from the reader for SECONDS
  until_ns "$(awk -v s="$SIM_START" -v a="$SIM_AFTER" -v f="$SIM_FOR" -v d="$1" 'BEGIN { printf "%.0f", s + (a + f + d) * 1e9 }')"
}

# A command nfcscand is started under (daemon, pcsc_daemon), e.g. a private mount namespace; it
# must exec nfcscand, so that DAEMON_PID is nfcscand's. Empty: nfcscand itself.
NFCSCAND_WRAP=()
CLIENT_WRAP=()
daemon() { # ARGS...
  LIBNFC_DEVICE="pn532_uart:$DIR/pn532" LIBNFC_AUTO_SCAN=false LIBNFC_LOG_LEVEL=0 \
    PCSCLITE_CSOCK_NAME=/nonexistent/nfcscan-e2e/pcscd.comm \
    "${NFCSCAND_WRAP[@]}" "$NFCSCAND" --verbose --sheet "${SHEET:-never}" --camera-devices "$DIR/video*" --rfkill-device "$DIR/rfkill" "$@" >>"$DIR/nfcscand.log" 2>&1 &
  DAEMON_PID=$!
  pids+=($DAEMON_PID)
  wait_for "nfcscand on the bus" 15 eval 'name_owned "$DBUS_SESSION_BUS_ADDRESS" org.nfcscan.Scanner1 && [ "$(owner_of org.nfcscan.Scanner1)" != "${PREVIOUS_OWNER:-}" ]'
  PREVIOUS_OWNER=$(owner_of org.nfcscan.Scanner1)
}

# A private pcscd (scripts/private-pcscd.sh) running SHELL-COMMAND (nfcsim vpcd ...) in its
# namespaces, and nfcscand reading its vpcd reader (no libnfc device); PCSC_SOCKET is its socket.
pcsc_daemon() { # SHELL-COMMAND
  private_pcscd "$1"
  pcsc_nfcscand
}
private_pcscd() { # SHELL-COMMAND
  bash "$ROOT/scripts/private-pcscd.sh" --keep -- bash -c "$1" >"$DIR/pcscd.log" 2>&1 &
  PCSCD_SCRIPT_PID=$!
  pids+=($!)
  wait_for "the private pcscd" 15 grep -q ^PCSC_READER= "$DIR/pcscd.log"
  PCSC_SOCKET=$(sed -n 's/^PCSCLITE_CSOCK_NAME=//p' "$DIR/pcscd.log")
}
pcsc_nfcscand() {
  LIBNFC_DEVICE= LIBNFC_AUTO_SCAN=false PCSCLITE_CSOCK_NAME="$PCSC_SOCKET" "${NFCSCAND_WRAP[@]}" "$NFCSCAND" --verbose --sheet "${SHEET:-never}" \
    --camera-devices "$DIR/video*" --rfkill-device "$DIR/rfkill" >>"$DIR/nfcscand.log" 2>&1 &
  DAEMON_PID=$!
  pids+=($DAEMON_PID)
  local readers; readers=$(lines_matching "using reader" "$DIR/nfcscand.log")
  wait_for "nfcscand on the bus" 15 eval 'name_owned "$DBUS_SESSION_BUS_ADDRESS" org.nfcscan.Scanner1 && [ "$(owner_of org.nfcscan.Scanner1)" != "${PREVIOUS_OWNER:-}" ]'
  PREVIOUS_OWNER=$(owner_of org.nfcscan.Scanner1)
  wait_for "the vpcd reader in use" 15 eval 'test "$(lines_matching "using reader" "$DIR/nfcscand.log")" -gt "$readers"'
}

# Two badges held near the vpcd reader one after the other (a link, then a text, 2 s apart), for
# pcsc_daemon.
TWO_BADGES="'$NFCSIM' vpcd --uri https://example.com/badge --after 6 --for 2 &&
  '$NFCSIM' vpcd --text 'Second badge' --after 2 --for 2"

# Debian's mosquitto with a configuration of the scenario's own, on a free port of 127.0.0.1 only
# (MQTT_PORT), as the scenario's user; its log is mosquitto.log. mqtt_broker_stop and
# mqtt_broker_start_again (same port) are an outage. mqtt_watch collects what it routes, one
# "TOPIC PAYLOAD" line each, into FILE.
mqtt_broker() {
  MQTT_PORT=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  printf 'listener %s 127.0.0.1\nuser %s\npersistence false\nallow_anonymous true\nlog_dest stderr\nlog_timestamp false\n%s\n' \
    "$MQTT_PORT" "$(id -un)" 'log_type error
log_type warning
log_type notice
log_type information
log_type subscribe' >"$DIR/mosquitto.conf"
  mqtt_broker_start_again
}
mqtt_broker_start_again() {
  : >"$DIR/mosquitto.log"
  mosquitto -c "$DIR/mosquitto.conf" >>"$DIR/mosquitto.log" 2>&1 &
  MQTT_PID=$!
  pids+=($!)
  wait_for "mosquitto on 127.0.0.1:$MQTT_PORT" 10 grep -q "^mosquitto version .* running" "$DIR/mosquitto.log"
}
mqtt_broker_stop() {
  kill "$MQTT_PID" 2>/dev/null || true
  wait "$MQTT_PID" 2>/dev/null || true
}
mqtt_watch() { # FILE TOPIC-FILTER...: returns once the broker has the subscription
  local file=$1 filter args=() id; shift
  id=watch-$RANDOM
  for filter in "$@"; do args+=(-t "$filter"); done
  mosquitto_sub -h 127.0.0.1 -p "$MQTT_PORT" -i "$id" -q 1 -v "${args[@]}" >"$file" 2>&1 &
  pids+=($!)
  wait_for "mosquitto_sub subscribed" 10 grep -q "^$id 1 " "$DIR/mosquitto.log"
}

# nfcscand names an app by who the bus says it is (issue 21), never by the app-name it sends: each
# test app runs sandboxed as Flatpak lays it out (Tests/Support/flatpak_sandbox.sh), with an app ID
# of its own whose desktop entry (in the scenario's application directory) is named NAME.
app_identity() { # NAME [APP_ID [ICON]]: sets APP_WRAP, the command a test app named NAME runs under
  APP_SERIAL=$((${APP_SERIAL:-0} + 1))
  local id=${2:-org.nfcscan.test.App$APP_SERIAL}
  printf '[Desktop Entry]\nType=Application\nName=%s\nExec=false\n%s' "$1" "${3:+Icon=$3
}" >"$XDG_DATA_HOME/applications/$id.desktop"
  # The scenario's directory stays writable inside: the app records what it receives there.
  APP_WRAP=("$SUPPORT/flatpak_sandbox.sh" --writable "$DIR" "$id" --)
}

app() { # NAME ARGS... : a test app; waits until it registered
  local name=$1; shift
  # An app that names its desktop entry and icon has them: its app ID is that entry's.
  local arg id="" icon="" previous=""
  for arg in "$@"; do
    case "$previous" in --desktop-entry) id=$arg ;; --icon) icon=$arg ;; esac
    previous=$arg
  done
  app_identity "$name" "$id" "$icon"
  "${APP_WRAP[@]}" "$PY" "$SUPPORT/test_handler_app.py" --app-name "$name" --record "$DIR/app-$name.jsonl" "$@" \
    >"$DIR/app-$name.log" 2>&1 &
  pids+=($!)
  APP_PID=$!
  wait_for "$name registered" 15 grep -q '^registered' "$DIR/app-$name.log"
}

owner_of() { busctl --address="$DBUS_SESSION_BUS_ADDRESS" --user status "$1" 2>/dev/null | sed -n 's/^UniqueName=//p'; }
shown() { bash "$RIG" shown "$DIR" "$@"; }
shown_count() { shown --all | grep -c . || true; }
wait_offer() { # WHAT: until dunst shows a notification (at most 20 s)
  # Shown on screen, not only sent: `invoke` right after a Notify dunst has not yet displayed
  # finds nothing to choose ("no notification is shown").
  shown --wait 1 --timeout 20 >/dev/null 2>&1 || bad "waited 20s for $1"
}
lines() { if [ -f "$1" ]; then grep -c . "$1" || true; else echo 0; fi; }
lines_matching() { if [ -f "$2" ]; then grep -c "$1" "$2" || true; else echo 0; fi; }
json() { # FILE-or-- PYTHON-EXPRESSION over `d` (the last JSON line)
  "$PY" -c 'import json,sys; d=[json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]; print(eval(sys.argv[2]))' "$@"
}
# Whether FILE (JSON Lines, or - for standard input) follows Docs/schemas/SCHEMA.schema.json: every
# nfcscan --json output a scenario reads is checked with it (Tests/Support/json_schema.py, the one
# validator of every test); the problems go to the scenario's output.
valid_json() { # SCHEMA FILE-or--
  "$PY" "$SUPPORT/json_schema.py" "$1" "$2"
}
# `nfcscan status --json`, checked against its schema: nothing (so the caller's check fails) and the
# problems on standard error when it does not follow it.
status_json() {
  local out
  out=$("$BUILD/nfcscan" status --json)
  valid_json status - <<<"$out" || return 1
  printf '%s\n' "$out"
}
get_property() { # NAME -> busctl's rendering ("b true", "as 1 \"no-reader\"")
  busctl --address="$DBUS_SESSION_BUS_ADDRESS" --user get-property org.nfcscan.Scanner1 /org/nfcscan/Scanner1 org.nfcscan.Scanner1 "$1"
}
condition() { # NAME -> its state in the Conditions property (clear, holds, unknown, ignored)
  status_json | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["conditions"].get(sys.argv[1], "absent"))' "$1"
}
paused() { get_property PausedReasons; }
expect_paused() { # CODE SECONDS DESCRIPTION: within SECONDS, PausedReasons is CODE alone
  wait_for "the pause ($1)" "$2" eval 'test "$(paused)" = "as 1 \"'"$1"'\""' || true
  check "$3" test "$(paused)" = "as 1 \"$1\""
}
# Whether a PropertiesChanged of Scanner1 carried CODE (in PausedReasons or Conditions) so far.
signalled() { grep -q "string \"$1\"" "$DIR/properties.log"; }
offers() { lines_matching '"event": "notify"' "$DIR/notifications.jsonl"; }
sysbus() { busctl --address="$DBUS_SYSTEM_BUS_ADDRESS" "$@"; }
# python3-dbusmock serving TEMPLATE (a name or a file) on the scenario's system or session bus.
mock() { # NAME --system|--session TEMPLATE [PARAMETERS-JSON]
  local name=$1 bus=$2 template=$3 params=${4:-}
  "$PY" -m dbusmock "$bus" --template "$template" ${params:+--parameters "$params"} >"$DIR/mock-$name.log" 2>&1 &
  pids+=($!)
}

# The copy rules (../shared/guidance/nfc.md) for what a person reads in a notification.
copy_ok() { # TEXT...
  local text="$*"
  if echo "$text" | grep -qiwE 'nfc|near-field|tag|tags|ndef|rfid|uid|tap|touch|apdu|libnfc|pc/sc'; then return 1; fi
  if echo "$text" | grep -qE '近场通信|标签|轻触|轻点|触碰'; then return 1; fi
  return 0
}
sentence() { [[ "$1" =~ [.?!]$ ]]; }

# ---- in-app scan sessions (issue 6) ----

session_client() { # NAME ARGS... : a scan-session client in the background (Tests/Support/scan_session_client.py)
  local name=$1; shift
  # CLIENT_WRAP: what the client runs under (flatpak_sandbox.sh APP_ID --: a sandboxed app).
  "${CLIENT_WRAP[@]}" "$PY" "$SUPPORT/scan_session_client.py" --record "$DIR/session-$name.jsonl" "$@" >"$DIR/session-$name.log" 2>&1 &
  pids+=($!)
  SESSION_PID=$!
}
# ---- in-app write sessions (issue 14) ----

write_client() { # NAME ARGS... : a write-session client in the background (Tests/Support/write_session_client.py)
  local name=$1; shift
  "$PY" "$SUPPORT/write_session_client.py" --record "$DIR/write-$name.jsonl" "$@" >"$DIR/write-$name.log" 2>&1 &
  pids+=($!)
  WRITE_PID=$!
}
events() { [ -f "$1" ] && "$PY" -c 'import json,sys; print(" ".join(json.loads(l)["event"] for l in open(sys.argv[1]) if l.strip()))' "$1"; }

# ---- the disable conditions' system sources (issue 5) ----

# logind (python3-dbusmock's template on a private system bus) with this user's session c1.
# As on a desktop, the user has two sessions, a text login c0 listed first and the graphical c1,
# which the user's Display property names: nfcscand must follow c1. (The template's own GetUser
# fails on its uid argument, so it is replaced by one that answers as logind does.)
logind_session() { # locked|unlocked
  mock logind --system logind
  wait_for "logind's stand-in" 10 eval 'sysbus status org.freedesktop.login1 >/dev/null' || true
  local uid user; uid=$(id -u); user=$(id -un)
  sysbus call org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.DBus.Mock AddMethod sssss \
    org.freedesktop.login1.Manager GetUser u o 'ret = "/org/freedesktop/login1/user/%d" % args[0]'
  sysbus call org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.DBus.Mock AddSession ssusb \
    c0 seat0 "$uid" "$user" true >/dev/null
  sysbus call org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.DBus.Mock AddSession ssusb \
    c1 seat0 "$uid" "$user" true >/dev/null
  sysbus set-property org.freedesktop.login1 "/org/freedesktop/login1/user/$uid" org.freedesktop.login1.User \
    Display '(so)' c1 /org/freedesktop/login1/session/c1
  if [ "$1" = locked ]; then session_lock true; fi
}
session_lock() { # true|false: SetLockedHint, as a screen locker does
  sysbus call org.freedesktop.login1 /org/freedesktop/login1/session/c1 org.freedesktop.login1.Session SetLockedHint b "$1"
}
session_hint() { # PROPERTY true|false
  sysbus set-property org.freedesktop.login1 /org/freedesktop/login1/session/c1 org.freedesktop.login1.Session "$1" b "$2"
}
screensaver() { # true|false: the stand-in's SetActive (it emits ActiveChanged)
  busctl --address="$DBUS_SESSION_BUS_ADDRESS" call org.freedesktop.ScreenSaver /org/freedesktop/ScreenSaver \
    org.freedesktop.ScreenSaver SetActive b "$1" >/dev/null
}

# ---- faults and load (issue 11): the daemon's loop never waits for a peer ----

hung() { # NAME --session|--system: a peer owning NAME that takes every call and answers none
  local bus=$2
  "$PY" "$SUPPORT/hung_peer.py" --name "$1" ${bus/--session/} --record "$DIR/hung-$1.jsonl" >"$DIR/hung-$1.log" 2>&1 &
  pids+=($!)
  wait_for "the hung $1" 10 grep -q serving "$DIR/hung-$1.log"
}
latency() { # ARGS... -> the probe's JSON line (Tests/Support/api_latency.py)
  "$PY" "$SUPPORT/api_latency.py" "$@" 2>>"$DIR/latency.log" | tee -a "$DIR/latency.log"
}
worst_under() { # JSON MS: every call answered, the slowest under MS
  "$PY" -c 'import json,sys; d=json.loads(sys.argv[1]); sys.exit(0 if d["unanswered"] == 0 and d["worst_ms"] is not None and d["worst_ms"] < float(sys.argv[2]) else 1)' "$1" "$2"
}

# ---- faults (issue 11): parts killed and started again ----

figures() { # SCENARIO KEY=VALUE...: one line of figures for the reliability report, in the test log
  echo "  figures $*"
}
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# A gate a fixture's command waits on (a private_pcscd command), so an object comes or goes when
# the scenario says, not on a schedule. `gate NAME` is the shell snippet; open_gate NAME opens it.
gate() { printf "until [ -e '%s' ]; do sleep 0.05; done" "$DIR/gate-$1"; }
open_gate() { : >"$DIR/gate-$1"; }

# Every InterfacesAdded/InterfacesRemoved on the session bus, as dbus-monitor prints them.
watch_objects() {
  dbus-monitor --address "$DBUS_SESSION_BUS_ADDRESS" "type='signal',interface='org.freedesktop.DBus.ObjectManager'" \
    >"$DIR/objects.log" 2>&1 &
  pids+=($!)
  wait_for "the object monitor" 10 test -s "$DIR/objects.log"
}

# The private pcscd crashes (SIGKILL), and is started again in the same namespaces, on the same
# socket, with the same vpcd reader (scripts/private-pcscd.sh runs it; unshare execs the bash
# that runs pcscd).
pcscd_kill() {
  local namespace pid
  namespace=$(pgrep -P "$PCSCD_SCRIPT_PID" -x bash)
  pid=$(pgrep -P "$namespace" -x pcscd)
  kill -KILL "$pid"
}
pcscd_start_again() {
  local namespace state=${PCSC_SOCKET%/run/pcscd/pcscd.comm}
  namespace=$(pgrep -P "$PCSCD_SCRIPT_PID" -x bash)
  nsenter --target "$namespace" --user --mount --net -- pcscd -f -c "$state/conf" >>"$DIR/pcscd-again.log" 2>&1 &
  pids+=($!)
}

# dunst crashes (SIGKILL); the rig then forgets it and waits until its name is gone.
dunst_crash() {
  local pid _
  read -r pid _ <"$DIR/pids/dunst"
  kill -KILL "$pid"
  bash "$RIG" stop-dunst "$DIR" >/dev/null
}

# ---- nfcscand's sheet, read and pressed through AT-SPI (the sheet and webnfc scenarios) ----

ATSPI=("$PY" "$SUPPORT/sheet_atspi.py")

sheet_begin() { # NAME [RIG OPTIONS...]
  begin "$@" --a11y
  # The sheet is GTK's: its settings without dconf, its own words (the close button's) in English.
  export SHEET=auto GSETTINGS_BACKEND=memory LC_ALL=C.UTF-8
  # GTK's schemas and icon themes, as on a desktop (the scenario's own applications come first).
  export XDG_DATA_DIRS=$XDG_DATA_DIRS:/usr/share
  SHOTS=()
}
sheet_finish() {
  local shot
  for shot in "${SHOTS[@]}"; do
    # shellcheck disable=SC2154 # lib.sh's
    if [ "$scenario_failed" -ne 0 ]; then say "screenshot $shot (kept)"; else say "screenshot $shot (removed with the scenario's directory on a pass)"; fi
  done
  unset SHEET GSETTINGS_BACKEND LC_ALL
  finish
}

# The daemon's sheet processes (its children, so no other scenario's or engineer's).
sheet_pids() { pgrep -P "$DAEMON_PID" -x "${SHEET_COMM:-nfcscan-sheet}" || true; }
no_sheet() { [ -z "$(sheet_pids)" ]; }
ended_process() { ! kill -0 "$1" 2>/dev/null || [ "$(ps -o stat= -p "$1")" = Z ]; }   # gone, or a zombie not yet reaped
has() { "${ATSPI[@]}" has "$@" 2>/dev/null; }
has_part() { "${ATSPI[@]}" has-part "$@" 2>/dev/null; }
press() { "${ATSPI[@]}" press "$1" 2>>"$DIR/atspi.log"; }
screenshot() { # NAME: a PNG of the screen, not empty, its path printed
  local file=$DIR/$1.png
  bash "$RIG" screenshot "$DIR" "$file" && [ -s "$file" ] &&
    [ "$(head -c 8 "$file" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || return 1
  SHOTS+=("$file")
  if [ -n "${NFCSCAN_E2E_SCREENSHOTS:-}" ]; then
    mkdir -p "$NFCSCAN_E2E_SCREENSHOTS" && cp "$file" "$NFCSCAN_E2E_SCREENSHOTS/" && say "screenshot copied to $NFCSCAN_E2E_SCREENSHOTS/$1.png"
  fi
}
