# shellcheck shell=bash

# No notification server when the daemon starts: it keeps running; once one starts, objects are
# offered.
scenario_no_server() {
  begin noserver --no-dunst
  sim --uri https://example.com/poster --after 7 --for 2
  daemon
  app Posters --filter uri-scheme=https,uri-host=example.com
  wait_for "the reader in use without a notification server" 10 grep -q "using reader" "$DIR/nfcscand.log" || true
  bash "$RIG" start-dunst "$DIR" >/dev/null
  wait_offer "the offer once dunst runs"
  check "nfcscand kept running" kill -0 "$DAEMON_PID"
  finish
}
