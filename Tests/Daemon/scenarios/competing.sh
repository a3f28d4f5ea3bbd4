# shellcheck shell=bash

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
  wait_for "HandleScan" 10 eval 'test "$(lines "$DIR/app-Posters.jsonl")" -ge 1' || true
  wait_for "the delivery done" 10 grep -q "sent an object to Posters" "$DIR/nfcscand.log" || true
  check "only the matched app received it" test "$(lines "$DIR/app-Posters.jsonl")$(lines "$DIR/app-Browserish.jsonl")$(lines "$DIR/app-Newest.jsonl")" = 100
  finish
}
