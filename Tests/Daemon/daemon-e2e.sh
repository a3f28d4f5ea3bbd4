#!/usr/bin/env bash
# nfcscand end to end, with real parts only: a private session dbus-daemon, Xvfb and dunst (the
# desktop rig, Tests/Support/desktop-rig.sh), the real libnfc reading an emulated PN532 on a
# pseudo-terminal (nfcsim pn532), test apps speaking org.nfcscan.Handler1 over D-Bus
# (Tests/Support/test_handler_app.py), and a stand-in for the desktop portal's OpenURI.
#
# Usage: Tests/Daemon/daemon-e2e.sh BUILD_DIR [SCENARIO...]   (BUILD_DIR holds nfcscand and nfcsim)
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

failures=0
checks=0
DIR=""
pids=()

say() { echo "daemon-e2e: $*"; }
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
  eval "$(bash "$RIG" start "$DIR" --watch-pid $$ "$@")"
  export BROWSER="$SUPPORT/record_browser.sh" NFCSCAN_TEST_BROWSER_LOG="$DIR/browser.log"
  # Hermetic: the machine's own system bus (a real logind, NetworkManager) and the developer's
  # configuration never reach the daemons under test; scenarios that want them start stand-ins.
  export DBUS_SYSTEM_BUS_ADDRESS=${DBUS_SYSTEM_BUS_ADDRESS:-unix:path=$DIR/no-system-bus} XDG_CONFIG_HOME=$DIR/config
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
  unset DBUS_SESSION_BUS_ADDRESS DBUS_SYSTEM_BUS_ADDRESS DISPLAY NFCSCAN_RIG_DIR XDG_RUNTIME_DIR XDG_CONFIG_HOME
}

# An emulated PN532 with one object: arrives after --after seconds (default 4), stays --for.
sim() { # ARGS...
  "$NFCSIM" pn532 --link "$DIR/pn532" --keep-reader "$@" >"$DIR/nfcsim.log" 2>&1 &
  pids+=($!)
  wait_for "the emulated reader" 10 test -e "$DIR/pn532"
}

daemon() { # ARGS...
  LIBNFC_DEVICE="pn532_uart:$DIR/pn532" LIBNFC_AUTO_SCAN=false LIBNFC_LOG_LEVEL=0 \
    PCSCLITE_CSOCK_NAME=/nonexistent/nfcscan-e2e/pcscd.comm \
    "$NFCSCAND" --verbose --camera-devices "$DIR/video*" --rfkill-device "$DIR/rfkill" "$@" >>"$DIR/nfcscand.log" 2>&1 &
  DAEMON_PID=$!
  pids+=($DAEMON_PID)
  wait_for "nfcscand on the bus" 15 'name_owned org.nfcscan.Scanner1 && [ "$(owner_of org.nfcscan.Scanner1)" != "${PREVIOUS_OWNER:-}" ]'
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
  pids+=($!)
  wait_for "the private pcscd" 15 'grep -q ^PCSC_READER= "$DIR/pcscd.log"'
  PCSC_SOCKET=$(sed -n 's/^PCSCLITE_CSOCK_NAME=//p' "$DIR/pcscd.log")
}
pcsc_nfcscand() {
  LIBNFC_DEVICE= LIBNFC_AUTO_SCAN=false PCSCLITE_CSOCK_NAME="$PCSC_SOCKET" "$NFCSCAND" --verbose --camera-devices "$DIR/video*" \
    --rfkill-device "$DIR/rfkill" >>"$DIR/nfcscand.log" 2>&1 &
  DAEMON_PID=$!
  pids+=($DAEMON_PID)
  wait_for "nfcscand on the bus" 15 'name_owned org.nfcscan.Scanner1'
  wait_for "the vpcd reader in use" 15 'grep -q "using reader" "$DIR/nfcscand.log"'
}

# Two badges held near the vpcd reader one after the other (a link, then a text), for pcsc_daemon.
TWO_BADGES="'$NFCSIM' vpcd --uri https://example.com/badge --after 6 --for 2 && sleep 2 &&
  '$NFCSIM' vpcd --text 'Second badge' --for 2"

app() { # NAME ARGS... : a test app; waits until it registered
  local name=$1; shift
  "$PY" "$SUPPORT/test_handler_app.py" --app-name "$name" --record "$DIR/app-$name.jsonl" "$@" \
    >"$DIR/app-$name.log" 2>&1 &
  pids+=($!)
  APP_PID=$!
  wait_for "$name registered" 15 grep -q '^registered' "$DIR/app-$name.log"
}

wait_for() { # WHAT SECONDS 'COMMAND' (evaluated anew each time: single-quote what must be)
  local what=$1 seconds=$2; shift 2
  local deadline=$(( $(date +%s%N) + seconds * 1000000000 ))
  until eval "$*" 2>/dev/null; do
    if [ "$(date +%s%N)" -ge "$deadline" ]; then bad "waited ${seconds}s for $what"; return 1; fi
    sleep 0.1
  done
}

owner_of() { busctl --address="$DBUS_SESSION_BUS_ADDRESS" --user status "$1" 2>/dev/null | sed -n 's/^UniqueName=//p'; }
name_owned() { busctl --address="$DBUS_SESSION_BUS_ADDRESS" --user status "$1" >/dev/null 2>&1; }
shown() { bash "$RIG" shown "$DIR" "$@"; }
shown_count() { shown --all | grep -c . || true; }
wait_offer() { # WHAT: until dunst shows a notification (at most 20 s)
  shown --all --wait 1 --timeout 20 >/dev/null 2>&1 || bad "waited 20s for $1"
}
lines() { if [ -f "$1" ]; then grep -c . "$1" || true; else echo 0; fi; }
lines_matching() { if [ -f "$2" ]; then grep -c "$1" "$2" || true; else echo 0; fi; }
json() { # FILE-or-- PYTHON-EXPRESSION over `d` (the last JSON line)
  "$PY" -c 'import json,sys; d=[json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]; print(eval(sys.argv[2]))' "$@"
}
get_property() { # NAME -> busctl's rendering ("b true", "as 1 \"no-reader\"")
  busctl --address="$DBUS_SESSION_BUS_ADDRESS" --user get-property org.nfcscan.Scanner1 /org/nfcscan/Scanner1 org.nfcscan.Scanner1 "$1"
}
condition() { # NAME -> its state in the Conditions property (clear, holds, unknown, ignored)
  "$BUILD/nfcscan" status --json | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["conditions"].get(sys.argv[1], "absent"))' "$1"
}
paused() { get_property PausedReasons; }
expect_paused() { # CODE SECONDS DESCRIPTION: within SECONDS, PausedReasons is CODE alone
  wait_for "the pause ($1)" "$2" 'test "$(paused)" = "as 1 \"'"$1"'\""' || true
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

# ---- scenarios ----

# The whole path: an object matched to an app, one notification that follows the copy rules, the
# person chooses it, the app receives the decoded object exactly once; the object left on the
# reader does not notify again; the API's introspection is the documented one.
scenario_handler() {
  begin handler
  sim --uri https://example.com/poster/summer --text "Summer concert" --after 4 --for 4
  daemon
  check "BackgroundReading is true with a reader" test "$(get_property BackgroundReading)" = "b true"
  check "PausedReasons is empty" test "$(get_property PausedReasons)" = "as 0"
  app Posters --filter uri-scheme=https,uri-host=example.com --desktop-entry org.example.Posters --icon org.example.Posters
  wait_offer "the offer on screen"
  local n; n=$(shown --all | tail -n 1)
  echo "$n" >"$DIR/offer.json"
  check "summary names the app and what it offers: $(json "$DIR/offer.json" 'd["summary"]')" \
    test "$(json "$DIR/offer.json" 'd["summary"]')" = "Open the link in Posters?"
  check "body names the link" test "$(json "$DIR/offer.json" 'd["body"]')" = "The item links to example.com/poster/summer."
  check "summary and body follow the copy rules" copy_ok "$(json "$DIR/offer.json" 'd["summary"] + " " + d["body"]')"
  check "summary and body are sentences" sentence "$(json "$DIR/offer.json" 'd["body"]')"
  check "button is one word: Open" test "$(json "$DIR/offer.json" '[a["label"] for a in d["actions"] if a["key"]=="open"][0]')" = "Open"
  check "hints: category and desktop-entry" test "$(json "$DIR/offer.json" 'd["hints"]["category"] + " " + d["hints"]["desktop-entry"]')" = "x-nfcscan.object org.example.Posters"
  check "app name and icon from the registration" test "$(json "$DIR/offer.json" 'd["appname"] + " " + d["app_icon"]')" = "Posters org.example.Posters"
  check "it expires" test "$(json "$DIR/offer.json" 'd["expire_timeout"]')" -gt 0
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "HandleScan" 10 'test "$(lines "$DIR/app-Posters.jsonl")" -ge 1' || true
  sleep 4   # the object stays, then leaves: no second notification, no second delivery
  check "the app received the object exactly once" test "$(lines "$DIR/app-Posters.jsonl")" = 1
  local rec=$DIR/app-Posters.jsonl
  check "it is the decoded message: the link" test "$(json "$rec" 'd["scan"]["records"][0]["uri"]')" = "https://example.com/poster/summer"
  check "and the text" test "$(json "$rec" 'd["scan"]["records"][1]["text"]')" = "Summer concert"
  check "with the object's identity (reader, backend)" test "$(json "$rec" 'd["scan"]["object"]["backend"]')" = "libnfc"
  check "wire types: registration u, object a{sv}, records av, round_trips x" \
    test "$(json "$rec" 'd["types"]["/registration"]+d["types"]["/object"]+d["types"]["/records"]+d["types"]["/object/round_trips"]')" = "ua{sv}avx"
  check "registration is the one RegisterHandler returned" test "$(json "$rec" 'd["scan"]["registration"] == d["registration"]')" = True
  check "one notification for an object left on the reader" test "$(grep -c '"event": "notify"' "$DIR/notifications.jsonl" || true)" = 1
  busctl --address="$DBUS_SESSION_BUS_ADDRESS" --user call org.nfcscan.Scanner1 /org/nfcscan/Scanner1 \
    org.freedesktop.DBus.Introspectable Introspect --json=short | "$PY" -c 'import json,sys; sys.stdout.write(json.load(sys.stdin)["data"][0])' >"$DIR/introspect.xml"
  check "live introspection is Docs/dbus/org.nfcscan.Scanner1.xml" cmp -s "$DIR/introspect.xml" "$ROOT/Docs/dbus/org.nfcscan.Scanner1.xml"
  busctl --address="$DBUS_SESSION_BUS_ADDRESS" --user call org.nfcscan.Scanner1 /org/nfcscan/Scanner1/readers/1 \
    org.freedesktop.DBus.Introspectable Introspect --json=short | "$PY" -c 'import json,sys; sys.stdout.write(json.load(sys.stdin)["data"][0])' >"$DIR/introspect-reader.xml"
  check "a reader's introspection is Docs/dbus/org.nfcscan.Reader1.xml" cmp -s "$DIR/introspect-reader.xml" "$ROOT/Docs/dbus/org.nfcscan.Reader1.xml"
  check "GetManagedObjects lists the reader" bash -c "busctl --address='$DBUS_SESSION_BUS_ADDRESS' --user call org.nfcscan.Scanner1 /org/nfcscan/Scanner1 org.freedesktop.DBus.ObjectManager GetManagedObjects | grep -q pn532_uart"
  kill -TERM "$DAEMON_PID"
  local status=0; wait "$DAEMON_PID" || status=$?
  check "SIGTERM stops it cleanly (exit 0)" test "$status" = 0
  check "nfcscan status: the service is not running" test "$("$BUILD/nfcscan" status)" = "Background scanning is off: its service isn't running."
  finish
}

# The person dismisses the offer: the object is dropped and the app gets nothing.
scenario_dismissed() {
  begin dismissed
  sim --uri https://example.com/poster --after 4 --for 2
  daemon
  app Posters --filter uri-scheme=https,uri-host=example.com
  wait_offer "the offer"
  bash "$RIG" close "$DIR" >/dev/null
  wait_for "the offer dropped" 10 'grep -q "its object is dropped" "$DIR/nfcscand.log"' || true
  sleep 1
  check "dismissed: the daemon dropped the object" grep -q "closed (reason 2); its object is dropped" "$DIR/nfcscand.log"
  check "dismissed: the app received nothing" test "$(lines "$DIR/app-Posters.jsonl")" = 0
  finish
}

# Two apps for the same object: the more specific filter wins (host beats scheme alone).
scenario_competing() {
  begin competing
  sim --uri https://example.com/poster --after 4 --for 2
  daemon
  app Browserish --filter uri-scheme=https
  app Posters --filter uri-scheme=https,uri-host=example.com
  app Newest --filter uri-scheme=https
  wait_offer "the offer"
  check "the offer names the most specific app" test "$(shown --all | tail -n 1 | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["appname"])')" = Posters
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "HandleScan" 10 'test "$(lines "$DIR/app-Posters.jsonl")" -ge 1' || true
  sleep 1
  check "only the matched app received it" test "$(lines "$DIR/app-Posters.jsonl")$(lines "$DIR/app-Browserish.jsonl")$(lines "$DIR/app-Newest.jsonl")" = 100
  finish
}

# A handler that refuses twice (busy) gets it on the third try, once; one that crashes mid-call
# is not called again and the person is told.
scenario_busy_and_crash() {
  begin busy
  sim --uri https://example.com/poster --after 4 --for 2
  daemon
  app Busy --busy 2 --filter uri-scheme=https,uri-host=example.com
  wait_offer "the offer"
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "three calls" 10 'test "$(lines "$DIR/app-Busy.jsonl")" -ge 3' || true
  sleep 1
  check "busy, busy, then taken: three calls, one accepted" \
    test "$(json "$DIR/app-Busy.jsonl" 'd["call"], d["reply"]')" = "(3, 'ok')"
  finish

  begin crash
  sim --uri https://example.com/poster --after 4 --for 2
  daemon
  app Crashy --crash-on-scan --filter uri-scheme=https,uri-host=example.com
  wait_offer "the offer"
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "the failure notification" 10 'grep -q x-nfcscan.object.error "$DIR/notifications.jsonl"' || true
  check "the crashing app was called once" test "$(lines "$DIR/app-Crashy.jsonl")" = 1
  local summary; summary=$(grep 'x-nfcscan.object.error' "$DIR/notifications.jsonl" | head -n 1 | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["summary"])' || true)
  check "the person is told in plain words: $summary" bash -c "[ -n \"\$1\" ] && $(declare -f copy_ok); copy_ok \"\$1\"" _ "$summary"
  check "nfcscand still runs" kill -0 "$DAEMON_PID"
  finish
}

# No notification server when the daemon starts: it keeps running; once one starts, objects are
# offered.
scenario_no_server() {
  begin noserver --no-dunst
  sim --uri https://example.com/poster --after 7 --for 2
  daemon
  app Posters --filter uri-scheme=https,uri-host=example.com
  sleep 1
  bash "$RIG" start-dunst "$DIR" >/dev/null
  wait_offer "the offer once dunst runs"
  check "nfcscand kept running" kill -0 "$DAEMON_PID"
  finish
}

# No app for the object: a web link is offered for the browser, through the portal when one runs,
# else xdg-open ($BROWSER); other schemes are never offered.
scenario_web_link() {
  begin weblink
  sim --uri https://example.org/menu --after 4 --for 2
  daemon
  wait_offer "the offer"
  check "offered for the browser" test "$(shown --all | tail -n 1 | "$PY" -c 'import json,sys; d=json.load(sys.stdin); print(d["summary"])')" = "Open example.org/menu?"
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "xdg-open ran the browser" 10 test -s "$DIR/browser.log" || true
  check "the browser got exactly the link" test "$(cat "$DIR/browser.log" 2>/dev/null)" = "https://example.org/menu"
  finish

  begin portal
  "$PY" "$SUPPORT/fake_portal.py" --record "$DIR/portal.jsonl" >"$DIR/portal.log" 2>&1 &
  pids+=($!)
  wait_for "the portal" 10 grep -q ready "$DIR/portal.log"
  sim --uri https://example.org/menu --after 4 --for 2
  daemon
  wait_offer "the offer"
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "OpenURI" 10 test -s "$DIR/portal.jsonl" || true
  check "the portal's OpenURI got the link" test "$(json "$DIR/portal.jsonl" 'd["uri"]' 2>/dev/null)" = "https://example.org/menu"
  check "xdg-open was not used" test ! -e "$DIR/browser.log"
  finish

  begin no-browser
  sim --uri https://example.org/menu --after 4 --for 2
  daemon --link-opener nfcscan-e2e-no-such-program
  wait_offer "the offer"
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "the failure notification" 10 'grep -q x-nfcscan.object.error "$DIR/notifications.jsonl"' || true
  local summary; summary=$(grep 'x-nfcscan.object.error' "$DIR/notifications.jsonl" | head -n 1 | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["summary"])' || true)
  check "no browser could be started: the person is told ($summary)" bash -c "[ -n \"\$1\" ] && $(declare -f copy_ok); copy_ok \"\$1\"" _ "$summary"
  finish

  local uri
  for uri in 'javascript:alert(1)' 'file:///etc/passwd'; do
    begin hostile-scheme
    sim --uri "$uri" --after 3 --for 2
    daemon
    wait_for "the object read" 15 grep -q 'no app asked' "$DIR/nfcscand.log" || true
    sleep 1
    check "$uri is never offered" test "$(shown_count)" = 0
    finish
  done
}

# Hostile text: markup is escaped in the body, bidirectional overrides and controls neutralised.
scenario_hostile_text() {
  begin hostile-text
  sim --text $'<b>Win</b> <a href="http://evil.example">prize</a> \u202Eevil\u202C\x1b[31m' --after 4 --for 2
  daemon
  app Notes --filter media-type=text/plain
  wait_offer "the offer"
  local body; body=$(grep '"event": "notify"' "$DIR/notifications.jsonl" | tail -n 1 | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["body"])' || true)
  echo "    body sent: $body"
  check "no raw markup reaches the server" bash -c '! grep -q "<[ab]" <<<"$1"' _ "$body"
  check "markup is escaped" bash -c 'grep -q "&lt;b&gt;" <<<"$1"' _ "$body"
  check "no bidirectional override or escape character" bash -c '! grep -qP "[\x{202A}-\x{202E}\x{2066}-\x{2069}\x1b]" <<<"$1"' _ "$body"
  finish
}

# The daemon killed with SIGKILL and started again: apps register again and objects are offered.
scenario_restart() {
  begin restart
  sim --uri https://example.com/poster --after 8 --for 2
  daemon
  app Posters --reregister --filter uri-scheme=https,uri-host=example.com
  kill -KILL "$DAEMON_PID"
  wait "$DAEMON_PID" 2>/dev/null || true
  daemon
  wait_for "the app registered again" 10 'test "$(lines_matching ^registered "$DIR/app-Posters.log")" -ge 2' || true
  wait_offer "the offer after the restart"
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "HandleScan" 10 'test "$(lines "$DIR/app-Posters.jsonl")" -ge 1' || true
  check "the app received the object once after the restart" test "$(lines "$DIR/app-Posters.jsonl")" = 1
  finish
}

# PC/SC: a private pcscd (scripts/private-pcscd.sh) whose vpcd reader gets the same object twice,
# with a pause between: two arrivals, two offers (the second replacing the first), and an object
# left near the reader for 5 s offered once. Also: a registration ends with its app's connection.
scenario_pcsc_rearrival() {
  begin pcsc
  pcsc_daemon "
    '$NFCSIM' vpcd --uri https://example.com/badge --after 7 --for 5 && sleep 3 &&
    '$NFCSIM' vpcd --uri https://example.com/badge --for 2"
  check "Reader1 names the pcsc backend" bash -c "busctl --address='$DBUS_SESSION_BUS_ADDRESS' --user get-property org.nfcscan.Scanner1 /org/nfcscan/Scanner1/readers/1 org.nfcscan.Reader1 Backend | grep -qx 's \"pcsc\"'"
  app Badges --filter uri-scheme=https,uri-host=example.com
  wait_for "two arrivals" 25 'test "$(lines_matching "\"event\": \"notify\"" "$DIR/notifications.jsonl")" -ge 2' || true
  sleep 2
  check "one offer per arrival: two in all (5 s on the reader gave one)" \
    test "$(lines_matching '"event": "notify"' "$DIR/notifications.jsonl")" = 2
  check "the second replaced the first (replaces_id)" \
    test "$(grep '"event": "notify"' "$DIR/notifications.jsonl" | "$PY" -c 'import json,sys; n=[json.loads(l) for l in sys.stdin]; print(n[1]["replaces_id"] == n[0]["id"] and n[1]["id"] == n[0]["id"])')" = True
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "HandleScan" 10 'test "$(lines "$DIR/app-Badges.jsonl")" -ge 1' || true
  check "the app received it once, read over pcsc" test "$(json "$DIR/app-Badges.jsonl" 'd["call"], d["scan"]["object"]["backend"]')" = "(1, 'pcsc')"
  kill "$APP_PID"; wait "$APP_PID" 2>/dev/null || true
  wait_for "the registration ended with the app" 10 'grep -q "ended with its connection" "$DIR/nfcscand.log"' || true
  check "the registration ended with the app's connection" grep -q "handler 1 of Badges ended with its connection" "$DIR/nfcscand.log"
  finish
}

# ---- in-app scan sessions (issue 6) ----

session_client() { # NAME ARGS... : a scan-session client in the background (Tests/Support/scan_session_client.py)
  local name=$1; shift
  "$PY" "$SUPPORT/scan_session_client.py" --record "$DIR/session-$name.jsonl" "$@" >"$DIR/session-$name.log" 2>&1 &
  pids+=($!)
  SESSION_PID=$!
}
events() { [ -f "$1" ] && "$PY" -c 'import json,sys; print(" ".join(json.loads(l)["event"] for l in open(sys.argv[1]) if l.strip()))' "$1"; }

# A single-object session gets the object (not the background offer), ends with first-read, and
# background reading pauses (scan-session) only while it runs.
scenario_session_single() {
  begin session-single
  sim --uri https://example.com/poster --after 6 --for 2
  daemon
  app Posters --filter uri-scheme=https,uri-host=example.com
  session_client one --object poster
  wait_for "the session" 10 'grep -q started "$DIR/session-one.jsonl"' || true
  local path; path=$(json "$DIR/session-one.jsonl" '[__import__("json").loads(l) for l in open("'"$DIR"'/session-one.jsonl")][0]["path"]')
  check "PausedReasons says scan-session while it runs" test "$(get_property PausedReasons)" = 'as 1 "scan-session"'
  wait_for "the session's end" 15 'grep -q invalidated "$DIR/session-one.jsonl"' || true
  check "detected, then invalidated (first-read)" test "$(events "$DIR/session-one.jsonl")" = "started properties reading detected invalidated"
  check "the session got the object" test "$(json "$DIR/session-one.jsonl" '[__import__("json").loads(l) for l in open("'"$DIR"'/session-one.jsonl") if "detected" in l][0]["uri"]')" = "https://example.com/poster"
  check "reason first-read" test "$(json "$DIR/session-one.jsonl" 'd["reason"]')" = first-read
  sleep 1
  check "no background offer during the session" test "$(lines_matching '"event": "notify"' "$DIR/notifications.jsonl")" = 0
  check "the app's handler got nothing" test "$(lines "$DIR/app-Posters.jsonl")" = 0
  check "background reading resumes after it" test "$(get_property PausedReasons)" = "as 0"
  finish
}

# One session at a time: a second waits, a third app cannot look at another's session, a vanished
# app's session ends and the next becomes active, a waiting session times out once active.
scenario_session_queue() {
  begin session-queue
  sim --uri https://example.com/poster --after 3600 --for 1
  daemon
  session_client first --object badge
  local first_pid=$SESSION_PID
  wait_for "the first session" 10 'grep -q started "$DIR/session-first.jsonl"' || true
  session_client second --object badge --timeout 2 --alert "Tap the NFC tag"
  wait_for "the second session" 10 'grep -q started "$DIR/session-second.jsonl"' || true
  local first_path; first_path=$(json "$DIR/session-first.jsonl" '[__import__("json").loads(l) for l in open("'"$DIR"'/session-first.jsonl")][0]["path"]')
  "$PY" "$SUPPORT/scan_session_client.py" --record "$DIR/peek.jsonl" --peek "$first_path"
  check "another app may not read a session" test "$(json "$DIR/peek.jsonl" 'd["error"]')" = org.freedesktop.DBus.Error.AccessDenied
  sleep 3
  check "the second waits while the first is active (no timeout yet)" test "$(events "$DIR/session-second.jsonl")" = started
  kill "$first_pid"; wait "$first_pid" 2>/dev/null || true
  wait_for "the second's end" 10 'grep -q invalidated "$DIR/session-second.jsonl"' || true
  check "the first app vanished: the second became active, then timed out" \
    test "$(events "$DIR/session-second.jsonl")" = "started properties invalidated"
  check "reason timeout, with the person's sentence" test "$(json "$DIR/session-second.jsonl" 'd["reason"] + ": " + d["message"]')" = "timeout: No badge came near the reader in time. Try again."
  check "the first session ended with its app" grep -q "scan session 1 ended: user-canceled" "$DIR/nfcscand.log"
  check "an app's alert message that breaks the rules is used but logged with the rule" \
    grep -q 'alert message breaks the copy rules: it uses the word "tap", it uses the word "nfc", it uses the word "tag", it does not end with punctuation' "$DIR/nfcscand.log"
  finish
}

# Multiple objects (PC/SC, the same badge twice): the prompt switches to "Now hold another badge
# near the reader." after the first read; the app ends the session with Invalidate.
scenario_session_multiple() {
  begin session-multiple
  pcsc_daemon "$TWO_BADGES"
  session_client many --object badge --multiple --invalidate-after 2 --invalidate-message "Thanks, both badges are in."
  wait_for "the session's end" 25 'grep -q invalidated "$DIR/session-many.jsonl"' || true
  check "detected, prompt changed, detected, ended" \
    test "$(events "$DIR/session-many.jsonl")" = "started properties reading detected properties reading detected properties invalidated"
  check "the later prompt asks for another badge" \
    grep -q '"AlertMessage": "Now hold another badge near the reader."' "$DIR/session-many.jsonl"
  check "the second object is the second badge" grep -q '"uri": "Second badge"' "$DIR/session-many.jsonl"
  check "ended by the app: user-canceled, with its message" \
    test "$(json "$DIR/session-many.jsonl" 'd["reason"] + ": " + d["message"]')" = "user-canceled: Thanks, both badges are in."
  finish
}

# nfcscan while nfcscand runs: it scans through the daemon (a scan session), prints the same JSON,
# prompts with the catalog's words, and exits as a direct scan would.
scenario_nfcscan_client() {
  begin nfcscan-client
  sim --uri https://example.com/poster --text "Summer concert" --after 5 --for 2
  daemon
  app Posters --filter uri-scheme=https,uri-host=example.com
  local status=0
  "$BUILD/nfcscan" --object poster --json --timeout 20 >"$DIR/nfcscan.out" 2>"$DIR/nfcscan.err" || status=$?
  check "nfcscan exits 0" test "$status" = 0
  check "it asked for the poster" grep -q "Hold the poster near the reader to learn more." "$DIR/nfcscan.err"
  check "and said it was reading the poster (State reading)" grep -q "Reading the poster. Keep it still." "$DIR/nfcscan.err"
  check "--json: the records and the object's identity" \
    test "$(json "$DIR/nfcscan.out" 'd["records"][0]["uri"] + " " + d["records"][1]["text"] + " " + d["object"]["backend"]')" = "https://example.com/poster Summer concert libnfc"
  check "the JSON has no registration (it is nfcscan's own)" test "$(json "$DIR/nfcscan.out" '"registration" in d')" = False
  check "no background offer meanwhile" test "$(lines_matching '"event": "notify"' "$DIR/notifications.jsonl")" = 0
  status=0
  "$BUILD/nfcscan" --object poster --timeout 2 >"$DIR/nfcscan2.out" 2>"$DIR/nfcscan2.err" || status=$?
  check "no object in time: exit 75" test "$status" = 75
  check "and the catalog's sentence" grep -q "No poster came near the reader in time. Try again." "$DIR/nfcscan2.err"
  status=0
  LANG=zh_CN.UTF-8 "$BUILD/nfcscan" --object poster --timeout 2 >"$DIR/nfcscan3.out" 2>"$DIR/nfcscan3.err" || status=$?
  check "in Chinese (LANG=zh_CN.UTF-8): the guidelines' prompt" grep -q "将海报靠近读卡器以了解更多信息。" "$DIR/nfcscan3.err"
  check "in Chinese: the time-out sentence, exit 75" bash -c 'grep -q "没有海报及时靠近读卡器。请重试。" "$1" && [ "$2" = 75 ]' _ "$DIR/nfcscan3.err" "$status"
  check "everything nfcscan said follows the copy rules" copy_ok "$(cat "$DIR"/nfcscan*.err)"
  finish
}

# RestartPolling: an object left near the reader is not read again by a later session, until that
# session asks to look again.
scenario_session_restart() {
  begin session-restart
  pcsc_daemon "'$NFCSIM' vpcd --uri https://example.com/badge --after 6 --for 40"
  session_client one --object badge
  wait_for "the first read" 20 'grep -q invalidated "$DIR/session-one.jsonl"' || true
  check "the first session read the badge" test "$(events "$DIR/session-one.jsonl")" = "started properties reading detected invalidated"
  session_client stays --object badge --timeout 3
  wait_for "the second session's end" 10 'grep -q invalidated "$DIR/session-stays.jsonl"' || true
  check "the badge left on the reader is not read again by itself" test "$(json "$DIR/session-stays.jsonl" 'd["reason"]')" = timeout
  session_client again --object badge --timeout 10 --restart-after 1
  wait_for "the third session's end" 15 'grep -q invalidated "$DIR/session-again.jsonl"' || true
  check "after RestartPolling it is read again" test "$(events "$DIR/session-again.jsonl")" = "started properties restarted reading detected invalidated"
  finish
}

# nfcscan --count 2 through the daemon (multiple mode): the prompt changes to "Now hold another
# badge near the reader." and both objects are printed; nfcscan interrupted ends its session.
scenario_nfcscan_count() {
  begin nfcscan-count
  pcsc_daemon "$TWO_BADGES"
  local status=0
  PCSCLITE_CSOCK_NAME="$PCSC_SOCKET" "$BUILD/nfcscan" --object badge --count 2 --timeout 30 >"$DIR/nfcscan.out" 2>"$DIR/nfcscan.err" || status=$?
  check "nfcscan --count 2 exits 0" test "$status" = 0
  check "both objects printed" test "$(tr -d '\r' <"$DIR/nfcscan.out" | grep -cE '^(Link: example.com/badge|Text: Second badge)$')" = 2
  check "the prompt changed to ask for another badge" grep -q "Now hold another badge near the reader." "$DIR/nfcscan.err"
  check "one multiple-object session, ended by nfcscan" grep -q "scan session 1 ended: user-canceled" "$DIR/nfcscand.log"
  "$BUILD/nfcscan" --object badge --timeout 30 >"$DIR/nfcscan-int.out" 2>&1 &
  local scan=$!
  wait_for "the second session" 10 'grep -q "scan session 2 started" "$DIR/nfcscand.log"' || true
  kill -TERM "$scan"; wait "$scan" 2>/dev/null || true   # (a background job of a script ignores SIGINT)
  wait_for "the session to end" 10 'grep -q "scan session 2 ended" "$DIR/nfcscand.log"' || true
  check "nfcscan stopped (SIGTERM): its session ended with it" grep -q "scan session 2 ended: user-canceled" "$DIR/nfcscand.log"
  check "background reading resumed" test "$(get_property PausedReasons)" = "as 0"
  finish
}

# Inhibit (issue 5, "reader in use"): while a wallet app holds its inhibitor the readers are
# released and an object held near shows nothing; when it lets go, reading resumes by itself and
# the object still there is offered.
scenario_inhibit() {
  begin inhibit
  sim --uri https://example.com/poster --after 6 --for 8
  daemon
  app Posters --filter uri-scheme=https,uri-host=example.com
  "$PY" "$SUPPORT/inhibit.py" --hold 8 >"$DIR/inhibit.log" 2>&1 &
  pids+=($!)
  wait_for "the inhibitor" 10 'grep -q inhibited "$DIR/inhibit.log"' || true
  wait_for "the readers released" 10 'grep -q "background reading stops" "$DIR/nfcscand.log"' || true
  check "PausedReasons: reader-in-use" test "$(get_property PausedReasons)" = 'as 1 "reader-in-use"'
  check "nfcscan status says so in plain words" test "$("$BUILD/nfcscan" status | head -n1)" = "Background scanning is paused while the reader is in use."
  check "nfcscan status --json gives the code" \
    test "$("$BUILD/nfcscan" status --json | cut -d'{' -f1-2)" = '{"running":true,"background_reading":false,"paused_reasons":["reader-in-use"],"conditions":'
  check "nfcscan status in Chinese" test "$(LANG=zh_CN.UTF-8 "$BUILD/nfcscan" status | head -n1)" = "读卡器正在使用中，后台扫描已暂停。"
  check "PropertiesChanged carried reader-in-use" signalled reader-in-use
  check "BackgroundReading false" test "$(get_property BackgroundReading)" = "b false"
  sleep 3   # the object arrives (at 6 s) while inhibited
  check "nothing offered while inhibited" test "$(lines_matching '"event": "notify"' "$DIR/notifications.jsonl")" = 0
  wait_for "the release" 10 'grep -q released "$DIR/inhibit.log"' || true
  wait_offer "the offer once released"
  check "the object still near the reader is offered after the release" test "$(lines_matching '"event": "notify"' "$DIR/notifications.jsonl")" = 1
  check "PausedReasons clear again" test "$(get_property PausedReasons)" = "as 0"
  check "the reopened reader is back at the same object path (readers/1)" bash -c "busctl --address='$DBUS_SESSION_BUS_ADDRESS' --user \
    call org.nfcscan.Scanner1 /org/nfcscan/Scanner1 org.freedesktop.DBus.ObjectManager GetManagedObjects | grep -q '\"/org/nfcscan/Scanner1/readers/1\"'"
  check "nfcscan status: on" test "$("$BUILD/nfcscan" status | head -n1)" = "Background scanning is on."
  "$PY" "$SUPPORT/inhibit.py" --hold 0.5 --exit >"$DIR/inhibit2.log" 2>&1 || true
  wait_for "the release by exit" 10 'test "$(lines_matching "inhibitor 2 of Test Wallet released" "$DIR/nfcscand.log")" = 1' || true
  check "an app that ends releases its inhibitor" grep -q "inhibitor 2 of Test Wallet released" "$DIR/nfcscand.log"
  finish
}

# The camera (issue 5): a process opening a (fixture) video device pauses background reading at
# once, even with an object presented right after; closing it resumes, and the object still near
# the reader is offered.
scenario_camera() {
  begin camera
  : >"$DIR/video0"
  sim --uri https://example.com/poster --after 6 --for 8
  daemon
  app Posters --filter uri-scheme=https,uri-host=example.com
  check "no camera open: the camera condition is clear (known, not unknown)" test "$(condition camera)" = clear
  "$PY" -c 'import sys,time; f=open(sys.argv[1]); print("open", flush=True); time.sleep(float(sys.argv[2])); f.close(); print("closed", flush=True); time.sleep(0.5)' \
    "$DIR/video0" 9 >"$DIR/camera.log" 2>&1 &
  pids+=($!)
  wait_for "the camera open" 10 'grep -q open "$DIR/camera.log"' || true
  wait_for "the pause" 5 'test "$(get_property PausedReasons)" = "as 1 \"camera\""' || true
  check "PausedReasons: camera" test "$(get_property PausedReasons)" = 'as 1 "camera"'
  check "nfcscan status says so" test "$("$BUILD/nfcscan" status | head -n1)" = "Background scanning is paused while the camera is in use."
  check "PropertiesChanged carried camera" signalled camera
  sleep 4   # the object arrives (at 6 s) while the camera is open
  check "nothing offered while the camera is in use" test "$(lines_matching '"event": "notify"' "$DIR/notifications.jsonl")" = 0
  wait_for "the camera closed" 10 'grep -q closed "$DIR/camera.log"' || true
  wait_offer "the offer once the camera is closed"
  check "the object is offered after the camera closed" test "$(lines_matching '"event": "notify"' "$DIR/notifications.jsonl")" = 1
  check "PausedReasons clear again" test "$(get_property PausedReasons)" = "as 0"
  finish
}

# Reader in use, from pcscd: another client (a wallet or smart-card app) holds the card with
# SCARD_SHARE_EXCLUSIVE. Background reading pauses (reader-in-use) with the reader kept open;
# once that client lets go, the card still in the reader is read and offered.
scenario_pcsc_exclusive() {
  begin pcsc-exclusive
  private_pcscd "'$NFCSIM' vpcd --uri https://example.com/poster --for 25"
  PCSCLITE_CSOCK_NAME="$PCSC_SOCKET" "$PY" "$SUPPORT/pcsc_exclusive_holder.py" --hold 9 >"$DIR/holder.log" 2>&1 &
  pids+=($!)
  wait_for "the exclusive hold" 15 'grep -q held "$DIR/holder.log"' || true
  pcsc_nfcscand
  app Posters --filter uri-scheme=https,uri-host=example.com
  expect_paused reader-in-use 10 "held exclusively by another client: PausedReasons reader-in-use"
  check "PropertiesChanged carried reader-in-use" signalled reader-in-use
  check "nfcscan status says so" test "$("$BUILD/nfcscan" status | head -n1)" = "Background scanning is paused while the reader is in use."
  check "the reader stays open (it must notice the release)" test "$(busctl --address="$DBUS_SESSION_BUS_ADDRESS" --user call org.nfcscan.Scanner1 /org/nfcscan/Scanner1 org.freedesktop.DBus.ObjectManager GetManagedObjects | grep -c nfcsim)" = 1
  check "nothing offered while held" test "$(offers)" = 0
  wait_for "the release" 15 'grep -q released "$DIR/holder.log"' || true
  wait_offer "the offer after the release"
  check "released: the card still in the reader is offered" test "$(offers)" = 1
  check "PausedReasons clear again" test "$(paused)" = "as 0"
  PCSCLITE_CSOCK_NAME="$PCSC_SOCKET" "$PY" "$SUPPORT/pcsc_exclusive_holder.py" --hold 1 --wait 3 >"$DIR/holder2.log" 2>&1 || true
  check "once read, nfcscand lets go: another client gets the card still in the reader exclusively" grep -q held "$DIR/holder2.log"
  finish
}

# ---- the disable conditions' system sources (issue 5) ----

# Airplane mode from its three sources: the kernel's rfkill (a FIFO speaking /dev/rfkill's
# events, Tests/Support/rfkill_fixture.py), NetworkManager (python3-dbusmock's template on a
# private system bus) and the desktop's switch (gsd-rfkill, Tests/Support/gsd_rfkill.py). Every
# radio blocked pauses background reading and refuses scans; one radio back resumes, and the
# object still near the reader is offered. NetworkManager's radios going off end a running
# session; the desktop's switch pauses too.
scenario_airplane() {
  begin airplane --system-bus
  mock nm --system networkmanager
  wait_for "NetworkManager's stand-in" 10 'sysbus status org.freedesktop.NetworkManager >/dev/null' || true
  "$PY" "$SUPPORT/rfkill_fixture.py" "$DIR/rfkill" hold wlan bluetooth >"$DIR/rfkill.log" 2>&1 &
  pids+=($!)
  wait_for "the rfkill stand-in" 10 'grep -q ready "$DIR/rfkill.log"' || true
  sim --uri https://example.com/poster --after 9 --for 14
  daemon
  app Posters --filter uri-scheme=https,uri-host=example.com
  wait_for "airplane mode known" 10 'test "$(condition airplane-mode)" = clear' || true
  check "radios on: airplane-mode clear, background reading on" test "$(condition airplane-mode) $(paused)" = "clear as 0"
  "$PY" "$SUPPORT/rfkill_fixture.py" "$DIR/rfkill" block 0 1
  expect_paused airplane-mode 5 "every radio blocked (rfkill): PausedReasons airplane-mode"
  check "PropertiesChanged carried airplane-mode" signalled airplane-mode
  check "nfcscan status says so" test "$("$BUILD/nfcscan" status | head -n1)" = "Background scanning is paused while airplane mode is on."
  local status=0
  "$BUILD/nfcscan" --object poster --timeout 5 >"$DIR/nfcscan.out" 2>"$DIR/nfcscan.err" || status=$?
  check "a scan is refused in airplane mode (exit 69)" test "$status" = 69
  check "with the catalog's reason" grep -q "Scanning is off while airplane mode is on." "$DIR/nfcscan.err"
  sleep 5   # the object arrives (at 9 s) in airplane mode
  check "nothing offered in airplane mode" test "$(offers)" = 0
  "$PY" "$SUPPORT/rfkill_fixture.py" "$DIR/rfkill" unblock 1
  wait_offer "the offer once a radio is back"
  check "one radio unblocked: the object still near the reader is offered" test "$(offers)" = 1
  check "airplane-mode clear again" test "$(condition airplane-mode) $(paused)" = "clear as 0"
  session_client waiting --object poster --timeout 30
  wait_for "the session" 10 'grep -q started "$DIR/session-waiting.jsonl"' || true
  sysbus set-property org.freedesktop.NetworkManager /org/freedesktop/NetworkManager org.freedesktop.NetworkManager WirelessEnabled b false
  wait_for "the session's end" 10 'grep -q invalidated "$DIR/session-waiting.jsonl"' || true
  check "NetworkManager's radios off: the running session ends (radio-disabled)" test "$(json "$DIR/session-waiting.jsonl" 'd["reason"]')" = radio-disabled
  check "and background reading pauses for airplane mode" test "$(paused)" = 'as 1 "airplane-mode"'
  sysbus set-property org.freedesktop.NetworkManager /org/freedesktop/NetworkManager org.freedesktop.NetworkManager WirelessEnabled b true
  wait_for "the resume" 5 'test "$(paused)" = "as 0"' || true
  check "Wi-Fi back on: background reading resumes" test "$(paused)" = "as 0"
  # The desktop's own switch (GNOME's settings daemon on the session bus), set as its quick settings do.
  mock gsd --session "$SUPPORT/gsd_rfkill.py"
  wait_for "the desktop's switch" 10 'name_owned org.gnome.SettingsDaemon.Rfkill' || true
  busctl --address="$DBUS_SESSION_BUS_ADDRESS" set-property org.gnome.SettingsDaemon.Rfkill /org/gnome/SettingsDaemon/Rfkill \
    org.gnome.SettingsDaemon.Rfkill AirplaneMode b true
  expect_paused airplane-mode 5 "the desktop's airplane-mode switch on (gsd-rfkill AirplaneMode): PausedReasons airplane-mode"
  busctl --address="$DBUS_SESSION_BUS_ADDRESS" set-property org.gnome.SettingsDaemon.Rfkill /org/gnome/SettingsDaemon/Rfkill \
    org.gnome.SettingsDaemon.Rfkill AirplaneMode b false
  wait_for "the resume" 5 'test "$(paused)" = "as 0"' || true
  check "the switch off: background reading resumes" test "$(paused)" = "as 0"
  finish
}

# logind (python3-dbusmock's template on a private system bus) with this user's session c1.
# As on a desktop, the user has two sessions, a text login c0 listed first and the graphical c1,
# which the user's Display property names: nfcscand must follow c1. (The template's own GetUser
# fails on its uid argument, so it is replaced by one that answers as logind does.)
logind_session() { # locked|unlocked
  mock logind --system logind
  wait_for "logind's stand-in" 10 'sysbus status org.freedesktop.login1 >/dev/null' || true
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

# Locked since boot pauses background reading until the first unlock; a later lock does not (the
# marker in $XDG_RUNTIME_DIR remembers the unlock for this boot).
scenario_locked() {
  begin locked --system-bus
  logind_session locked
  sim --uri https://example.com/poster --after 7 --for 12
  daemon
  app Posters --filter uri-scheme=https,uri-host=example.com
  expect_paused locked-after-restart 10 "locked since boot: PausedReasons locked-after-restart"
  check "nfcscan status says so" test "$("$BUILD/nfcscan" status | head -n1)" = "Background scanning is paused until you unlock the computer."
  check "PropertiesChanged carried locked-after-restart" signalled locked-after-restart
  sleep 5   # the object arrives (at 7 s) while locked
  check "nothing offered while locked after the restart" test "$(offers)" = 0
  session_lock false
  wait_offer "the offer after the unlock"
  check "unlocked: the object still near the reader is offered" test "$(offers)" = 1
  check "the unlock is remembered for this boot" test "$(cat "$XDG_RUNTIME_DIR/nfcscan/unlocked-since-boot")" = "$(cat /proc/sys/kernel/random/boot_id)"
  session_lock true
  sleep 1
  check "locked again later: no pause (only after a restart)" test "$(paused) $(condition locked-after-restart)" = "as 0 clear"
  finish
}

# Screen off: logind's IdleHint, and the session's org.freedesktop.ScreenSaver (a dbusmock
# template, Tests/Support/freedesktop_screensaver.py).
scenario_screen_off() {
  begin screen-off --system-bus
  logind_session unlocked
  mock screensaver --session "$SUPPORT/freedesktop_screensaver.py"
  wait_for "the screensaver's stand-in" 10 'name_owned org.freedesktop.ScreenSaver' || true
  sim --uri https://example.com/poster --after 8 --for 14
  daemon
  app Posters --filter uri-scheme=https,uri-host=example.com
  wait_for "the conditions known" 10 'test "$(condition screen-off)" = clear' || true
  check "screen on: screen-off clear" test "$(condition screen-off) $(paused)" = "clear as 0"
  session_hint IdleHint true
  expect_paused screen-off 5 "session idle (logind IdleHint): PausedReasons screen-off"
  check "PropertiesChanged carried screen-off" signalled screen-off
  check "nfcscan status says so" test "$("$BUILD/nfcscan" status | head -n1)" = "Background scanning is paused while the screen is off."
  session_hint IdleHint false
  wait_for "the resume" 5 'test "$(paused)" = "as 0"' || true
  check "idle no more: resumed" test "$(paused)" = "as 0"
  screensaver true
  expect_paused screen-off 5 "screensaver active (ActiveChanged): PausedReasons screen-off"
  sleep 4   # the object arrives (at 8 s) with the screen off
  check "nothing offered with the screen off" test "$(offers)" = 0
  screensaver false
  wait_offer "the offer once the screen is on"
  check "screen on again: the object is offered" test "$(offers)" = 1
  finish
}

# A kiosk's configuration file switches conditions off (and nfcscan status says so); a mistake in
# it stops nfcscand naming the file and line; sources this machine lacks are unknown, no crash.
scenario_kiosk() {
  begin kiosk --system-bus
  logind_session unlocked
  session_hint IdleHint true
  mkdir -p "$XDG_CONFIG_HOME/nfcscan"
  printf '[background]\nignore = bogus\n' >"$XDG_CONFIG_HOME/nfcscan/nfcscand.conf"
  local status=0
  timeout 10 "$NFCSCAND" >"$DIR/bad-config.log" 2>&1 || status=$?
  check "a mistake in the configuration: exit 78" test "$status" = 78
  check "naming the file, the line and what is allowed" \
    grep -q 'nfcscand.conf:2: "bogus" cannot be ignored; the conditions a kiosk may ignore are: camera, airplane-mode, locked-after-restart, screen-off' "$DIR/bad-config.log"
  printf '# a reception desk: reads whatever the screen does\n[background]\nignore = screen-off, locked-after-restart\n' \
    >"$XDG_CONFIG_HOME/nfcscan/nfcscand.conf"
  sim --uri https://example.com/poster --after 7 --for 4
  daemon --camera-devices ""
  app Posters --filter uri-scheme=https,uri-host=example.com
  wait_offer "the offer with the screen off (ignored)"
  check "screen off but ignored: the object is offered" test "$(offers)" = 1
  check "Conditions: screen-off and locked-after-restart ignored" test "$(condition screen-off) $(condition locked-after-restart)" = "ignored ignored"
  check "no source: camera and airplane mode unknown" test "$(condition camera) $(condition airplane-mode)" = "unknown unknown"
  "$BUILD/nfcscan" status >"$DIR/status.out"
  printf '%s\n' "Background scanning is on." "The camera can't be checked, so it won't pause scanning." \
    "Airplane mode can't be checked, so it won't pause scanning." "Set to keep scanning while locked after a restart." \
    "Set to keep scanning while the screen is off." >"$DIR/status.expected"
  check "nfcscan status: on, then what is ignored and what cannot be checked" diff "$DIR/status.expected" "$DIR/status.out"
  check "all of it follows the copy rules" copy_ok "$(cat "$DIR/status.out")"
  finish
}

# A scan session is not blocked by the conditions that protect it: started while the camera has
# closed the readers (and one started the moment nfcscand appears, before its readers are open),
# it waits for the readers to open instead of ending "unavailable", and gets the object.
scenario_session_while_paused() {
  begin session-while-paused
  : >"$DIR/video0"
  "$PY" -c 'import sys,time; f=open(sys.argv[1]); print("open", flush=True); time.sleep(30)' "$DIR/video0" >"$DIR/camera.log" 2>&1 &
  pids+=($!)
  wait_for "the camera open" 10 'grep -q open "$DIR/camera.log"' || true
  sim --uri https://example.com/poster --after 9 --for 3
  daemon
  session_client early --object poster --timeout 20
  wait_for "the session" 10 'grep -q started "$DIR/session-early.jsonl"' || true
  wait_for "the session's end" 20 'grep -q invalidated "$DIR/session-early.jsonl"' || true
  check "the session got the object (not unavailable)" test "$(events "$DIR/session-early.jsonl")" = "started properties reading detected invalidated"
  check "reason first-read" test "$(json "$DIR/session-early.jsonl" 'd["reason"]')" = first-read
  check "background reading still paused for the camera afterwards" test "$(paused)" = 'as 1 "camera"'
  check "nothing offered" test "$(offers)" = 0
  finish
}

# The race: the camera opens 100 ms before the object comes near; the condition is in force
# first and nothing slips through.
scenario_camera_race() {
  begin camera-race
  : >"$DIR/video0"
  local start; start=$(date +%s.%N)
  sim --uri https://example.com/poster --after 8 --for 6
  daemon
  app Posters --filter uri-scheme=https,uri-host=example.com
  "$PY" -c 'import sys,time; time.sleep(max(0, float(sys.argv[2]) + 7.9 - time.time())); f=open(sys.argv[1]); print("open", flush=True); time.sleep(8)' \
    "$DIR/video0" "$start" >"$DIR/camera.log" 2>&1 &
  pids+=($!)
  sleep 11
  check "the camera opened" grep -q open "$DIR/camera.log"
  check "camera in use just before the object: nothing offered" test "$(offers)" = 0
  check "PausedReasons: camera" test "$(paused)" = 'as 1 "camera"'
  finish
}

# Introspection as an app's D-Bus library does it (dbus-python: Introspect, then an XML parser) on
# every kind of object nfcscand exports, and on the parents sd-bus answers for on its behalf: each
# parses; the manager, a reader and a scan session answer with Docs/dbus/*.xml byte for byte.
scenario_introspection() {
  begin introspection
  sim --after 60 --for 1 # a reader, with nothing near it while the scenario runs
  daemon
  wait_for "the reader object" 15 'busctl --address="$DBUS_SESSION_BUS_ADDRESS" --user call org.nfcscan.Scanner1 /org/nfcscan/Scanner1 org.freedesktop.DBus.ObjectManager GetManagedObjects | grep -q pn532_uart' || true
  # One line per object: PATH, then "ok", its interfaces and child nodes, or "error" and why.
  "$PY" - "$DIR" >"$DIR/introspection.log" 2>&1 <<'EOF' || true
import sys, dbus, xml.etree.ElementTree as ET
out = sys.argv[1]
bus = dbus.SessionBus()
def proxy(path, interface):
    return dbus.Interface(bus.get_object("org.nfcscan.Scanner1", path, introspect=False), interface)
session = proxy("/org/nfcscan/Scanner1", "org.nfcscan.Scanner1").StartScanSession(dbus.Dictionary({}, signature="sv"))
readers = sorted(proxy("/org/nfcscan/Scanner1", "org.freedesktop.DBus.ObjectManager").GetManagedObjects())
for kind, path in [("root", "/"), ("org", "/org"), ("nfcscan", "/org/nfcscan"), ("manager", "/org/nfcscan/Scanner1"),
                   *[("reader", r) for r in readers], ("session", session)]:
    try:
        text = str(proxy(path, "org.freedesktop.DBus.Introspectable").Introspect())
        open(f"{out}/introspect-{kind}.xml", "w", encoding="utf-8").write(text)
        node = ET.fromstring(text)
        print(kind, path, "ok", ",".join(i.get("name") for i in node.findall("interface")),
              ",".join(n.get("name") for n in node.findall("node")))
    except Exception as e:
        print(kind, path, "error", type(e).__name__, str(e).replace("\n", " "))
EOF
  introspected() { sed -n "s/^$1 [^ ]* //p" "$DIR/introspection.log" | head -n 1; }
  check "a reader to introspect" grep -q '^reader ' "$DIR/introspection.log"
  check "a scan session to introspect" grep -q '^session ' "$DIR/introspection.log"
  local kind file
  for kind in manager reader session; do
    case $kind in manager) file=org.nfcscan.Scanner1.xml;; reader) file=org.nfcscan.Reader1.xml;; session) file=org.nfcscan.ScanSession1.xml;; esac
    check "the $kind's introspection parses: $(introspected $kind)" grep -q '^ok ' <(introspected $kind)
    check "the $kind's introspection is Docs/dbus/$file" cmp -s "$DIR/introspect-$kind.xml" "$ROOT/Docs/dbus/$file"
  done
  check "/ parses and leads to org: $(introspected root)" grep -qE '^ok [^ ]* (.*,)?org(,|$)' <(introspected root)
  check "/org parses and leads to nfcscan: $(introspected org)" grep -qE '^ok [^ ]* (.*,)?nfcscan(,|$)' <(introspected org)
  check "/org/nfcscan parses and leads to Scanner1: $(introspected nfcscan)" grep -qE '^ok [^ ]* (.*,)?Scanner1(,|$)' <(introspected nfcscan)
  finish
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

# A notification server that takes Notify and never answers: every other call is answered
# meanwhile (100 Gets, the slowest under 50 ms), and the hung Notify ends at its deadline, logged.
scenario_hung_notifications() {
  begin hung-notifications --no-dunst
  hung org.freedesktop.Notifications --session
  sim --uri https://example.com/poster --after 4 --for 2
  daemon --peer-timeout 8
  app Posters --filter uri-scheme=https,uri-host=example.com
  wait_for "Notify taken and left unanswered" 15 'grep -q "\"Notify\"" "$DIR/hung-org.freedesktop.Notifications.jsonl"' || true
  local probe; probe=$(latency --calls 100)
  check "100 Gets while Notify hangs, slowest under 50 ms: $probe" worst_under "$probe" 50
  wait_for "the hung Notify ends at its deadline" 15 'grep -q "could not show a notification" "$DIR/nfcscand.log"' || true
  check "the hung Notify is logged" grep -q "could not show a notification" "$DIR/nfcscand.log"
  check "nfcscand still runs" kill -0 "$DAEMON_PID"
  finish
}

# An app whose HandleScan never answers, and a portal whose OpenURI never answers: the API stays
# answered; the app is not called again and the person is told; the link goes to xdg-open.
scenario_hung_app_and_portal() {
  begin hung-app
  sim --uri https://example.com/poster --after 4 --for 2
  daemon --peer-timeout 4
  app Hung --delay 3600 --filter uri-scheme=https,uri-host=example.com
  wait_offer "the offer"
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "HandleScan taken" 10 'test "$(lines "$DIR/app-Hung.jsonl")" -ge 1' || true
  local probe; probe=$(latency --calls 100)
  check "100 Gets while HandleScan hangs, slowest under 50 ms: $probe" worst_under "$probe" 50
  wait_for "the failure notification" 15 'grep -q x-nfcscan.object.error "$DIR/notifications.jsonl"' || true
  check "the person is told the app did not take it" grep -q x-nfcscan.object.error "$DIR/notifications.jsonl"
  check "the hung app was called once, never again" test "$(lines "$DIR/app-Hung.jsonl")" = 1
  finish

  begin hung-portal
  hung org.freedesktop.portal.Desktop --session
  sim --uri https://example.org/menu --after 4 --for 2
  daemon --peer-timeout 3
  wait_offer "the offer"
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "OpenURI taken" 10 'grep -q OpenURI "$DIR/hung-org.freedesktop.portal.Desktop.jsonl"' || true
  local probe; probe=$(latency --calls 100)
  check "100 Gets while OpenURI hangs, slowest under 50 ms: $probe" worst_under "$probe" 50
  wait_for "xdg-open after the portal's deadline" 15 test -s "$DIR/browser.log" || true
  check "the browser got the link once the portal's deadline passed" test "$(cat "$DIR/browser.log" 2>/dev/null)" = "https://example.org/menu"
  finish
}

# logind and NetworkManager that take calls and never answer: the API stays answered and their
# conditions stay unknown (never a pause).
scenario_hung_system_services() {
  begin hung-system --system-bus
  hung org.freedesktop.login1 --system
  hung org.freedesktop.NetworkManager --system
  sim --uri https://example.com/poster --after 30 --for 2
  daemon
  wait_for "GetAll or GetUser taken by the hung services" 10 'test -s "$DIR/hung-org.freedesktop.NetworkManager.jsonl" && test -s "$DIR/hung-org.freedesktop.login1.jsonl"' || true
  local probe; probe=$(latency --calls 100)
  check "100 Gets while logind and NetworkManager hang, slowest under 50 ms: $probe" worst_under "$probe" 50
  check "airplane mode stays unknown" test "$(condition airplane-mode)" = unknown
  check "locked-after-restart stays unknown" test "$(condition locked-after-restart)" = unknown
  finish
}

# 100 clients calling the API at once for 10 s: every call answered; p50/p99 printed.
scenario_api_load() {
  begin api-load
  sim --uri https://example.com/poster --after 60 --for 2
  daemon
  local probe; probe=$(latency --clients 100 --seconds 10)
  say "100 clients for 10 s: $probe"
  check "every call of 100 clients over 10 s answered (p99 under 1 s): $probe" worst_under "$probe" 5000
  check "p99 under 1 s" "$PY" -c 'import json,sys; d=json.loads(sys.argv[1]); sys.exit(0 if d["p99_ms"] < 1000 else 1)' "$probe"
  check "nfcscand still runs" kill -0 "$DAEMON_PID"
  finish
}

all=(handler dismissed competing busy_and_crash no_server web_link hostile_text restart pcsc_rearrival session_single session_queue session_multiple session_restart nfcscan_client nfcscan_count inhibit pcsc_exclusive camera camera_race session_while_paused airplane locked screen_off kiosk introspection hung_notifications hung_app_and_portal hung_system_services api_load)
for scenario in "${@:-${all[@]}}"; do
  "scenario_$scenario"
done
say "$checks checks, $failures failed"
[ "$failures" -eq 0 ]
