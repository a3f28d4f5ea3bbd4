# shellcheck shell=bash

# The person dismisses the offer: the object is dropped and the app gets nothing.
scenario_dismissed() {
  begin dismissed
  sim --uri https://example.com/poster --after 4 --for 2
  daemon
  app Posters --filter uri-scheme=https,uri-host=example.com
  wait_offer "the offer"
  bash "$RIG" close "$DIR" >/dev/null
  wait_for "the offer dropped" 10 grep -q "its object is dropped" "$DIR/nfcscand.log" || true
  object_gone_for 0.5   # the object has come and gone: nothing of it can reach the app later
  check "dismissed: the daemon dropped the object" grep -q "closed (reason 2); its object is dropped" "$DIR/nfcscand.log"
  check "dismissed: the app received nothing" test "$(lines "$DIR/app-Posters.jsonl")" = 0
  finish
}
