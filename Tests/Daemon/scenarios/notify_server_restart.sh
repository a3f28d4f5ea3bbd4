# shellcheck shell=bash

# The notification server crashes (SIGKILL) while an object is offered, and starts again: nfcscand
# keeps running and answering; the next object is offered through the new server and delivered
# once, to the app it was offered for. An ActionInvoked from any other connection (here busctl),
# naming the old offer or the current one, delivers nothing: only the server chooses. (That the
# old server's ids are void after a restart, whoever sends them, is DaemonCoreTests'
# aRestartedNotificationServerVoidsTheOldOffers.)
scenario_notify_server_restart() {
  begin notify-server-restart
  pcsc_daemon "$(gate first); '$NFCSIM' vpcd --uri https://example.com/first --for 2;
    $(gate second); '$NFCSIM' vpcd --uri https://example.com/second --for 600"
  app Posters --filter uri-scheme=https,uri-host=example.com
  app Menus --filter uri-scheme=https,uri-host=example.org
  open_gate first
  wait_offer "the first offer"
  local old; old=$(shown | tail -n 1 | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  dunst_crash
  wait_for "nfcscand to see the server leave" 10 grep -q "the notification server left the bus" "$DIR/nfcscand.log" || true
  check "nfcscand still runs without a notification server" kill -0 "$DAEMON_PID"
  check "and answers (PausedReasons)" test "$(paused)" = "as 0"
  local started; started=$(now_ms)
  bash "$RIG" start-dunst "$DIR" >/dev/null
  wait_for "nfcscand to see the new server" 10 grep -q "a notification server appeared" "$DIR/nfcscand.log" || true
  local noticed=$(( $(now_ms) - started ))
  # The old notification's action after the restart, from a connection that is not the server.
  busctl --address="$DBUS_SESSION_BUS_ADDRESS" emit /org/freedesktop/Notifications org.freedesktop.Notifications \
    ActionInvoked us "$old" open
  # Negative, bounded: a delivery would reach the app within milliseconds; 1 s shows none comes.
  sleep 1
  check "the old offer's action after the restart delivers nothing" test "$(lines "$DIR/app-Posters.jsonl")" = 0
  local asked; asked=$(now_ms)
  open_gate second
  wait_for "the second offer on the new server" 20 eval 'test "$(lines_matching "\"id\"" "$DIR/dunst-displayed.jsonl")" -ge 1' || true
  local offered=$(( $(now_ms) - asked ))
  check "the next object is offered through the new server" \
    test "$(shown | tail -n 1 | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["body"])')" = "The item links to https://example.com/second."
  local current; current=$(shown | tail -n 1 | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  busctl --address="$DBUS_SESSION_BUS_ADDRESS" emit /org/freedesktop/Notifications org.freedesktop.Notifications \
    ActionInvoked us "$current" open
  sleep 1 # negative, bounded, as above
  check "an action forged by another connection for the shown offer delivers nothing" test "$(lines "$DIR/app-Posters.jsonl")" = 0
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "the delivery done" 10 grep -q "sent an object to Posters" "$DIR/nfcscand.log" || true
  check "the app received one object in all: the second" \
    test "$(lines "$DIR/app-Posters.jsonl") $(json "$DIR/app-Posters.jsonl" 'd["scan"]["records"][0]["uri"]' 2>/dev/null)" = "1 https://example.com/second"
  check "nothing to the app it was not offered for" test "$(lines "$DIR/app-Menus.jsonl")" = 0
  check "nfcscand still runs" kill -0 "$DAEMON_PID"
  figures notify_server_restart "new_server_noticed_ms=$noticed" "next_offer_ms=$offered" \
    "deliveries=$(lines "$DIR/app-Posters.jsonl")" "old_action_deliveries=0" "other_app_deliveries=$(lines "$DIR/app-Menus.jsonl")"
  finish
}
