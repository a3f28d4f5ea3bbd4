# shellcheck shell=bash

# An app's write session (org.nfcscan.WriteSession1) saves a link to the emulated NTAG213 that is
# brought in: the prompts are the write catalog's, background reading pauses while it runs, the
# session ends "done", the written object is not offered in the background, and the object then
# reads back with the new link — by nfcscan and by libnfc's own nfc-mfultralight.
scenario_write_session() {
  begin write-session
  sim --uri https://example.com/old --after 6 --for 3600
  daemon
  write_client one --object poster --uri https://example.com/new
  wait_for "the write session" 10 grep -q started "$DIR/write-one.jsonl" || true
  check "PausedReasons says scan-session while it runs" test "$(get_property PausedReasons)" = 'as 1 "scan-session"'
  wait_for "its properties" 5 grep -q initial "$DIR/write-one.jsonl" || true
  check "its prompt is the catalog's, its action save-link" \
    test "$(json "$DIR/write-one.jsonl" '[e["properties"]["AlertMessage"] + " " + e["properties"]["Action"] for e in [__import__("json").loads(l) for l in open("'"$DIR"'/write-one.jsonl")] if e["event"] == "initial"][0]')" = "Hold the poster near the reader to save the link. save-link"
  wait_for "the session's end" 20 grep -q ended "$DIR/write-one.jsonl" || true
  check "active, writing (keep it still), ended" \
    test "$(json "$DIR/write-one.jsonl" '" ".join(e["changed"].get("State", "") for e in [__import__("json").loads(l) for l in open("'"$DIR"'/write-one.jsonl")] if e["event"] == "properties")')" = "active writing"
  check "it said to keep the poster still" grep -q "Saving to the poster. Keep it still." "$DIR/write-one.jsonl"
  check "ending done, with the person's sentence" \
    test "$(json "$DIR/write-one.jsonl" 'd["ending"] + ": " + d["message"]')" = "done: Saved. You can take the poster away."
  check "details: written and verified, not locked" test "$(json "$DIR/write-one.jsonl" '(d["details"]["written"], d["details"]["locked"], d["details"]["changed"])')" = "(True, False, True)"
  wait_for "the resume" 5 eval 'test "$(get_property PausedReasons)" = "as 0"' || true
  check "background reading resumes after it" test "$(get_property PausedReasons)" = "as 0"
  # Negative, bounded: the object stays near the reader; 2 s after the resume a background read of
  # it would have been offered already (the reader polls every 250 ms).
  sleep 2
  check "the written object is not offered in the background" test "$(offers)" = 0
  kill "$DAEMON_PID"; wait "$DAEMON_PID" 2>/dev/null || true
  local status=0
  LIBNFC_DEVICE="pn532_uart:$DIR/pn532" LIBNFC_AUTO_SCAN=false "$BUILD/nfcscan" --json --timeout 10 >"$DIR/read-back.json" 2>"$DIR/read-back.err" || status=$?
  check "its --json follows scan.schema.json" valid_json scan "$DIR/read-back.json"
  check "nfcscan reads the new link back" test "$status $(json "$DIR/read-back.json" 'd["records"][0]["uri"]')" = "0 https://example.com/new"
  LIBNFC_DEVICE="pn532_uart:$DIR/pn532" LIBNFC_AUTO_SCAN=false LIBNFC_LOG_LEVEL=0 nfc-mfultralight r "$DIR/dump.bin" >"$DIR/mfultralight.log" 2>&1 </dev/null || true
  check "so does libnfc's nfc-mfultralight (the dump holds it)" grep -aq "example.com/new" "$DIR/dump.bin"
  check "and not the old one" bash -c '! grep -aq "example.com/old" "$1"' _ "$DIR/dump.bin"
  finish
}
