# shellcheck shell=bash

# No notification server when the daemon starts: it keeps running, nfcscan status says nothing
# can be offered (and how to fix it); once one starts, objects are offered.
scenario_no_server() {
  begin noserver --no-dunst
  sim --uri https://example.com/poster --after 7 --for 2
  daemon
  check "nfcscan apps with no app says so" \
    test "$("$BUILD/nfcscan" apps | head -c 32)" = "No app receives objects yet: an "
  app Posters --filter uri-scheme=https,uri-host=example.com
  wait_for "the reader in use without a notification server" 10 grep -q "using reader" "$DIR/nfcscand.log" || true
  wait_for "the Notifications property says unavailable" 5 eval \
    '"$BUILD/nfcscan" status --json | grep -q "\"notifications\":\"unavailable\""' || true
  "$BUILD/nfcscan" status >"$DIR/status.out"
  check "nfcscan status: on, but nothing can be offered, and what to do" diff - <(head -n3 "$DIR/status.out") <<'EOF_STATUS'
Background scanning is on.
Scanned items can't be offered: notifications don't show.
Start a notification service, such as dunst.
EOF_STATUS
  check "all of it follows the copy rules" copy_ok "$(cat "$DIR/status.out")"
  bash "$RIG" start-dunst "$DIR" >/dev/null
  wait_offer "the offer once dunst runs"
  check "nfcscan status --json: notifications available again" \
    bash -c '"$0" status --json | grep -q "\"notifications\":\"available\""' "$BUILD/nfcscan"
  check "nfcscand kept running" kill -0 "$DAEMON_PID"
  finish
}
