# shellcheck shell=bash

# The daemon killed with SIGKILL and started again: apps register again and objects are offered.
scenario_restart() {
  begin restart
  sim --uri https://example.com/poster --after 8 --for 2
  daemon
  app Posters --reregister --filter uri-scheme=https,uri-host=example.com
  kill -KILL "$DAEMON_PID"
  wait "$DAEMON_PID" 2>/dev/null || true
  daemon
  wait_for "the app registered again" 10 eval 'test "$(lines_matching ^registered "$DIR/app-Posters.log")" -ge 2' || true
  wait_offer "the offer after the restart"
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "HandleScan" 10 eval 'test "$(lines "$DIR/app-Posters.jsonl")" -ge 1' || true
  check "the app received the object once after the restart" test "$(lines "$DIR/app-Posters.jsonl")" = 1
  finish
}
