# shellcheck shell=bash

# nfcscan while nfcscand runs: it scans through the daemon (a scan session), prints the same JSON,
# prompts with the catalog's words, and exits as a direct scan would.
scenario_nfcscan_client() {
  begin nfcscan-client
  sim --uri https://example.com/poster --text "Summer concert" --after 5 --for 2
  daemon
  app Posters --filter uri-scheme=https,uri-host=example.com
  local status=0
  "$BUILD/nfcscan" --object poster --json --timeout 20 >"$DIR/nfcscan.out" 2>"$DIR/nfcscan.err" || status=$?
  check "--json follows scan.schema.json" valid_json scan "$DIR/nfcscan.out"
  check "nfcscan exits 0" test "$status" = 0
  check "it asked for the poster, once (a plain line: standard error is a file)" \
    test "$(grep -c "Hold the poster near the reader to learn more." "$DIR/nfcscan.err")" = 1
  check "and said it was reading the poster (State reading)" grep -q "Reading the poster. Keep it still." "$DIR/nfcscan.err"
  check "--json: the records and the object's identity" \
    test "$(json "$DIR/nfcscan.out" 'd["records"][0]["uri"] + " " + d["records"][1]["text"] + " " + d["object"]["backend"]')" = "https://example.com/poster Summer concert libnfc"
  check "the JSON has no registration (it is nfcscan's own)" test "$(json "$DIR/nfcscan.out" '"registration" in d')" = False
  check "no background offer meanwhile" test "$(lines_matching '"event": "notify"' "$DIR/notifications.jsonl")" = 0
  status=0
  "$BUILD/nfcscan" --object poster --timeout 2 >"$DIR/nfcscan2.out" 2>"$DIR/nfcscan2.err" || status=$?
  check "no object in time: exit 75" test "$status" = 75
  check "and the catalog's sentence" grep -q "No poster came near the reader in time. Try again." "$DIR/nfcscan2.err"
  status=0
  LANG=zh_CN.UTF-8 "$BUILD/nfcscan" --object poster --timeout 2 >"$DIR/nfcscan3.out" 2>"$DIR/nfcscan3.err" || status=$?
  check "in Chinese (LANG=zh_CN.UTF-8): the guidelines' prompt" grep -q "将海报靠近读卡器以了解更多信息。" "$DIR/nfcscan3.err"
  check "in Chinese: the time-out sentence, exit 75" bash -c 'grep -q "没有海报及时靠近读卡器。请重试。" "$1" && [ "$2" = 75 ]' _ "$DIR/nfcscan3.err" "$status"
  check "everything nfcscan said follows the copy rules" copy_ok "$(cat "$DIR"/nfcscan*.err)"
  finish
}
