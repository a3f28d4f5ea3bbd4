# shellcheck shell=bash

# PC/SC: a private pcscd (scripts/private-pcscd.sh) whose vpcd reader gets the same object twice,
# with a pause between: two arrivals, two offers (the second replacing the first), and an object
# left near the reader for 5 s offered once. Also: a registration ends with its app's connection.
scenario_pcsc_rearrival() {
  begin pcsc
  pcsc_daemon "
    '$NFCSIM' vpcd --uri https://example.com/badge --after 7 --for 5 &&
    '$NFCSIM' vpcd --uri https://example.com/badge --after 3 --for 2"
  check "Reader1 names the pcsc backend" bash -c "busctl --address='$DBUS_SESSION_BUS_ADDRESS' --user get-property org.nfcscan.Scanner1 /org/nfcscan/Scanner1/readers/1 org.nfcscan.Reader1 Backend | grep -qx 's \"pcsc\"'"
  app Badges --filter uri-scheme=https,uri-host=example.com
  wait_for "two arrivals" 25 eval 'test "$(lines_matching "\"event\": \"notify\"" "$DIR/notifications.jsonl")" -ge 2' || true
  wait_for "the second arrival gone" 15 eval 'test "$(lines_matching "the card left the reader" "$DIR/pcscd.log")" -ge 2' || true
  check "one offer per arrival: two in all (5 s on the reader gave one)" \
    test "$(lines_matching '"event": "notify"' "$DIR/notifications.jsonl")" = 2
  check "the second replaced the first (replaces_id)" \
    test "$(grep '"event": "notify"' "$DIR/notifications.jsonl" | "$PY" -c 'import json,sys; n=[json.loads(l) for l in sys.stdin]; print(n[1]["replaces_id"] == n[0]["id"] and n[1]["id"] == n[0]["id"])')" = True
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "HandleScan" 10 eval 'test "$(lines "$DIR/app-Badges.jsonl")" -ge 1' || true
  check "the app received it once, read over pcsc" test "$(json "$DIR/app-Badges.jsonl" 'd["call"], d["scan"]["object"]["backend"]')" = "(1, 'pcsc')"
  kill "$APP_PID"; wait "$APP_PID" 2>/dev/null || true
  wait_for "the registration ended with the app" 10 grep -q "ended with its connection" "$DIR/nfcscand.log" || true
  check "the registration ended with the app's connection" grep -q "handler 1 of Badges ended with its connection" "$DIR/nfcscand.log"
  finish
}
