# shellcheck shell=bash

# A handler that refuses twice (busy) gets it on the third try, once; one that crashes mid-call
# is not called again and the person is told.
scenario_busy_and_crash() {
  begin busy
  sim --uri https://example.com/poster --after 4 --for 2
  daemon
  app Busy --busy 2 --filter uri-scheme=https,uri-host=example.com
  wait_offer "the offer"
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "three calls, the last taken" 10 grep -q "sent an object to Busy" "$DIR/nfcscand.log" || true
  check "busy, busy, then taken: three calls, one accepted" \
    test "$(json "$DIR/app-Busy.jsonl" 'd["call"], d["reply"]')" = "(3, 'ok')"
  finish

  begin crash
  sim --uri https://example.com/poster --after 4 --for 2
  daemon
  app Crashy --crash-on-scan --filter uri-scheme=https,uri-host=example.com
  wait_offer "the offer"
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "the failure notification" 10 grep -q x-nfcscan.object.error "$DIR/notifications.jsonl" || true
  check "the crashing app was called once" test "$(lines "$DIR/app-Crashy.jsonl")" = 1
  local summary; summary=$(grep 'x-nfcscan.object.error' "$DIR/notifications.jsonl" | head -n 1 | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["summary"])' || true)
  check "the person is told in plain words: $summary" bash -c "[ -n \"\$1\" ] && $(declare -f copy_ok); copy_ok \"\$1\"" _ "$summary"
  check "nfcscand still runs" kill -0 "$DAEMON_PID"
  finish
}
