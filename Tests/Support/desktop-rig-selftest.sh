#!/usr/bin/env bash
# Self-test of the desktop test rig (Tests/Support/desktop-rig.sh) with its real parts:
#   1. start; a python3-dbus sender posts a notification with the action ["open", "Open"];
#      `shown` reads it back from dunst; `invoke` chooses "open" and the sender receives
#      ActionInvoked(id, "open"); `close` closes it and the sender receives NotificationClosed(id, 2)
#   2. notify-send (libnotify) with -A open=Open prints "open" after `invoke`
#   3. the sender's CloseNotification gives reason 3; expire_timeout 600 ms gives reason 1
#   4. stop-dunst: Notify fails with ServiceUnknown (nothing activates the machine's dunst);
#      start-dunst: notifications are shown again
#   5. stop: no process of the rig is left running
#   6. `run DIR -- COMMAND`: COMMAND sees the variables; afterwards not even a zombie is left
# Usage: Tests/Support/desktop-rig-selftest.sh [--keep]   (--keep: leave the directories for a look)
# Exit 0 when every check passes; otherwise 1 and the failed check, with the rig's logs.
set -euo pipefail

SUPPORT=$(dirname "$(readlink -f "$0")")
RIG="$SUPPORT/desktop-rig.sh"
PY=/usr/bin/python3
keep=0
[ "${1:-}" = --keep ] && keep=1

started=$(date +%s%N)
DIR=$(mktemp -d /tmp/nfcscan-rig-selftest.XXXXXX)
RUNDIR=$(mktemp -d /tmp/nfcscan-rig-selftest-run.XXXXXX)
sender_pid=""
failed=0

cleanup() {
  local status=$?
  [ -z "$sender_pid" ] || kill "$sender_pid" 2>/dev/null || true
  "$RIG" stop "$DIR" 2>/dev/null || true
  if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ]; then
    echo "selftest: FAILED; the rig's logs:" >&2
    for f in "$DIR"/logs/*.log "$DIR"/notifications.jsonl "$DIR"/sender.jsonl; do
      [ -s "$f" ] && { echo "== $f" >&2; tail -n 20 "$f" >&2; }
    done
  fi
  if [ "$keep" = 0 ]; then rm -rf "$DIR" "$RUNDIR"; else echo "selftest: kept $DIR $RUNDIR" >&2; fi
}
trap cleanup EXIT

ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; failed=1; exit 1; }
jq_py() { "$PY" -c "import json,sys; d=[json.loads(l) for l in sys.stdin if l.strip()]; $1"; }

# A notification sender as nfcscand will be one: Notify, then listen for the unicast signals.
cat >"$DIR/sender.py" <<'EOF'
import json, sys, dbus
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib
DBusGMainLoop(set_as_default=True)
log, mode = sys.argv[1], sys.argv[2]
bus = dbus.SessionBus()
def write(record):
    with open(log, "a") as f:
        f.write(json.dumps(record) + "\n")
loop = GLib.MainLoop()
def on_action(nid, key):
    write({"event": "ActionInvoked", "id": int(nid), "key": str(key)})
def on_closed(nid, reason):
    write({"event": "NotificationClosed", "id": int(nid), "reason": int(reason)})
    loop.quit()
bus.add_signal_receiver(on_action, "ActionInvoked", "org.freedesktop.Notifications")
bus.add_signal_receiver(on_closed, "NotificationClosed", "org.freedesktop.Notifications")
n = dbus.Interface(bus.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications"),
                   "org.freedesktop.Notifications")
expire = 600 if mode == "expire" else 0
nid = int(n.Notify("nfcscan-selftest", 0, "", "Poster scanned", "Open example.com in the browser?",
                   ["open", "Open"], {"urgency": dbus.Byte(1), "category": "device"}, expire))
write({"event": "notify", "id": nid})
if mode == "self-close":
    GLib.timeout_add(100, lambda: n.CloseNotification(nid) and False)
GLib.timeout_add(10000, loop.quit)
loop.run()
EOF

sender() { # MODE: runs the sender in the background, waits until it has posted
  : >"$DIR/sender.jsonl"
  "$PY" "$DIR/sender.py" "$DIR/sender.jsonl" "$1" &
  sender_pid=$!
  local i
  for i in $(seq 100); do grep -q '"notify"' "$DIR/sender.jsonl" 2>/dev/null && return 0; sleep 0.05; done
  bad "the sender posted no notification"
}
sender_done() { wait "$sender_pid" || true; sender_pid=""; }
sender_saw() { grep -q "$1" "$DIR/sender.jsonl"; }

# ---- 1 ----
t0=$(date +%s%N)
eval "$("$RIG" start "$DIR")"
ok "start ($(( ($(date +%s%N) - t0) / 1000000 )) ms): DISPLAY=$DISPLAY, bus ${DBUS_SESSION_BUS_ADDRESS%%,*}"
recorded=$(cut -d' ' -f1 "$DIR"/pids/* | tr '\n' ' ')

sender open
id=$(sed -n 's/.*"notify", "id": \([0-9]*\).*/\1/p' "$DIR/sender.jsonl")
shown=$("$RIG" shown "$DIR" --wait 1 --timeout 5) || bad "shown: nothing shown"
echo "$shown" | jq_py "
n = d[0]
assert len(d) == 1, d
assert n['id'] == $id and n['appname'] == 'nfcscan-selftest' and n['summary'] == 'Poster scanned', n
assert n['body'] == 'Open example.com in the browser?' and n['actions'] == [{'key': 'open', 'label': 'Open'}], n
assert n['displayed'] and n['dunst']['urgency'] == 'NORMAL' and n['dunst']['category'] == 'device', n
" || bad "shown: unexpected $shown"
ok "shown: notification $id with its summary, body, actions and hints"

invoked=$("$RIG" invoke "$DIR" open) || bad "invoke failed"
echo "$invoked" | jq_py "assert d[0]['id'] == $id and d[0]['action_key'] == 'open', d" || bad "invoke printed $invoked"
for i in $(seq 60); do sender_saw '"ActionInvoked"' && break; sleep 0.05; done
sender_saw "\"ActionInvoked\", \"id\": $id, \"key\": \"open\"" || bad "the sender did not receive ActionInvoked($id, open)"
ok "invoke: the sender received ActionInvoked($id, \"open\")"
[ "$("$RIG" shown "$DIR" | wc -l)" = 1 ] || bad "dunst closed the notification on invoke"
ok "the notification stays shown after the action"

closed=$("$RIG" close "$DIR") || bad "close failed"
echo "$closed" | jq_py "assert d[0]['id'] == $id and d[0]['reason'] == 2, d" || bad "close printed $closed"
sender_done
sender_saw "\"NotificationClosed\", \"id\": $id, \"reason\": 2" || bad "the sender did not receive NotificationClosed($id, 2)"
[ -z "$("$RIG" shown "$DIR")" ] || bad "still shown after close"
ok "close: the sender received NotificationClosed($id, 2); nothing shown"

# ---- 2 ----
: >"$DIR/notify-send.out"
notify-send -a nfcscan-selftest -A open=Open "Badge scanned" "Open it?" >"$DIR/notify-send.out" 2>&1 &
ns_pid=$!
"$RIG" shown "$DIR" --wait 1 --timeout 5 >/dev/null || bad "notify-send's notification not shown"
"$RIG" invoke "$DIR" >/dev/null || bad "invoke (no key) on notify-send's notification failed"
# notify-send (libnotify 0.8.1) calls CloseNotification itself right after the action
for i in $(seq 60); do [ -z "$("$RIG" shown "$DIR")" ] && break; sleep 0.05; done
[ -z "$("$RIG" shown "$DIR")" ] || bad "notify-send did not close its notification after the action"
wait "$ns_pid" || true
[ "$(cat "$DIR/notify-send.out")" = open ] || bad "notify-send printed '$(cat "$DIR/notify-send.out")', not open"
ok "notify-send -A open=Open printed \"open\" after invoke without a key"

# ---- 3 ----
sender self-close
sender_done
sender_saw '"NotificationClosed", "id": [0-9]*, "reason": 3' || bad "CloseNotification did not give reason 3"
ok "the sender's CloseNotification: NotificationClosed reason 3"
sender expire
sender_done
sender_saw '"NotificationClosed", "id": [0-9]*, "reason": 1' || bad "expire_timeout 600 did not give reason 1"
ok "expire_timeout 600 ms: NotificationClosed reason 1"

# ---- 4 ----
"$RIG" stop-dunst "$DIR" || bad "stop-dunst failed"
if err=$(dbus-send --print-reply --dest=org.freedesktop.Notifications /org/freedesktop/Notifications \
           org.freedesktop.Notifications.GetServerInformation 2>&1); then
  bad "a notification server answered after stop-dunst: $err"
fi
case "$err" in *ServiceUnknown*) ;; *) bad "after stop-dunst: $err" ;; esac
ok "stop-dunst: org.freedesktop.Notifications is gone (ServiceUnknown, nothing activated)"
"$RIG" start-dunst "$DIR" || bad "start-dunst failed"
sender open
"$RIG" shown "$DIR" --wait 1 --timeout 5 >/dev/null || bad "nothing shown after start-dunst"
"$RIG" close "$DIR" >/dev/null || bad "close after start-dunst failed"
sender_done
ok "start-dunst: shown and closed again"
recorded+=" $(cut -d' ' -f1 "$DIR"/pids/* | tr '\n' ' ')"

# ---- 5 ----
# Every process of the rig: the recorded ones and the members of their sessions.
all=$(ps -eo pid=,sid= | awk -v r=" $recorded " 'index(r, " " $2 " ") || index(r, " " $1 " ") {print $1}' | sort -u | tr '\n' ' ')
t0=$(date +%s%N)
"$RIG" stop "$DIR" 2>/dev/null || bad "stop failed"
stop_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
left=""; zombies=0
for p in $all; do
  state=$(ps -o stat= -p "$p" 2>/dev/null || true)
  case "$state" in "") ;; Z*) zombies=$((zombies + 1)) ;; *) left+=" $p($(ps -o comm= -p "$p"))" ;; esac
done
[ -z "$left" ] || bad "still running after stop:$left"
note=""
[ "$zombies" = 0 ] || note=" ($zombies exited, waiting for PID 1 to reap them: $(ps -o comm= -p 1) reaps no orphans here)"
ok "stop ($stop_ms ms): none of the rig's $(echo $all | wc -w) processes runs$note"

# ---- 6 ----
out=$("$RIG" run "$RUNDIR" --system-bus -- bash -c \
  'echo "$DBUS_SESSION_BUS_ADDRESS|$DBUS_SYSTEM_BUS_ADDRESS|$DISPLAY"; ps -o pid= --ppid "$PPID"' 2>/dev/null) ||
  bad "run failed"
children=$(echo "$out" | tail -n +2 | tr -s ' \n' ' ')
case "$(echo "$out" | head -n1)" in unix:path=$RUNDIR/bus/session*"|unix:path=$RUNDIR/bus/system"*"|:"*) ;;
  *) bad "run: the command saw $(echo "$out" | head -n1)" ;; esac
for p in $children; do
  state=$(ps -o stat= -p "$p" 2>/dev/null || true)
  [ -z "$state" ] || bad "run: process $p ($(ps -o comm= -p "$p")) is left ($state)"
done
ok "run: the command saw both buses and the display; all $(echo $children | wc -w) processes gone, no zombie"

echo "selftest: all checks passed in $(( ($(date +%s%N) - started) / 1000000 )) ms"
