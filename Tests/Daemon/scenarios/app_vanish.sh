# shellcheck shell=bash

# An app vanishes (SIGKILL) while its HandleScan is in flight: nfcscand notices at once (not at the
# call's deadline), never tries another app that matches less well, tells the person, and keeps
# answering.
scenario_app_vanish() {
  begin app-vanish
  sim --uri https://example.com/poster --after 4 --for 2
  daemon --peer-timeout 30
  app Slow --delay 3600 --filter uri-scheme=https,uri-host=example.com
  local slow=$APP_PID
  app Browserish --filter uri-scheme=https
  wait_offer "the offer"
  check "offered for the most specific app" test "$(shown | tail -n 1 | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["appname"])')" = Slow
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "HandleScan taken" 10 eval 'test "$(lines "$DIR/app-Slow.jsonl")" -ge 1' || true
  local killed; killed=$(now_ms)
  kill -KILL "$slow"
  # At once: the bus answers the call NoReply when the app's connection ends (the deadline is 30 s).
  wait_for "the person told" 5 grep -q x-nfcscan.object.error "$DIR/notifications.jsonl" || true
  local told=$(( $(now_ms) - killed ))
  check "the person is told the app did not take it" grep -q x-nfcscan.object.error "$DIR/notifications.jsonl"
  check "the vanished app was called once" test "$(lines "$DIR/app-Slow.jsonl")" = 1
  check "no other app was tried" test "$(lines "$DIR/app-Browserish.jsonl")" = 0
  check "nfcscand logged it: $(grep -m1 "did not take its object" "$DIR/nfcscand.log" | cut -c1-160)" grep -q "Slow did not take its object" "$DIR/nfcscand.log"
  check "nfcscand still runs" kill -0 "$DAEMON_PID"
  check "and answers (PausedReasons)" test "$(paused)" = "as 0"
  figures app_vanish "person_told_after_kill_ms=$told" "calls=$(lines "$DIR/app-Slow.jsonl")" \
    "other_app_calls=$(lines "$DIR/app-Browserish.jsonl")"
  finish
}
