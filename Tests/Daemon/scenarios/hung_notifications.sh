# shellcheck shell=bash
# e2e: alone (100 Gets, the slowest under 50 ms, is a check)

# A notification server that takes Notify and never answers: every other call is answered
# meanwhile (100 Gets, the slowest under 50 ms), and the hung Notify ends at its deadline, logged.
scenario_hung_notifications() {
  begin hung-notifications --no-dunst
  hung org.freedesktop.Notifications --session
  sim --uri https://example.com/poster --after 4 --for 2
  daemon --peer-timeout 8
  app Posters --filter uri-scheme=https,uri-host=example.com
  wait_for "Notify taken and left unanswered" 15 eval 'grep -q "\"Notify\"" "$DIR/hung-org.freedesktop.Notifications.jsonl"' || true
  local probe; probe=$(latency --calls 100)
  check "100 Gets while Notify hangs, slowest under 50 ms: $probe" worst_under "$probe" 50
  wait_for "the hung Notify ends at its deadline" 15 grep -q "could not show a notification" "$DIR/nfcscand.log" || true
  check "the hung Notify is logged" grep -q "could not show a notification" "$DIR/nfcscand.log"
  check "nfcscand still runs" kill -0 "$DAEMON_PID"
  finish
}
