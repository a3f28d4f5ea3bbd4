# shellcheck shell=bash

# nfcscan write while nfcscand runs: it writes through the daemon's write session, prompts with
# the write catalog's words, prints the ending's sentence and exits as a direct write would (no
# object in time: 75 and --json's ending). The object then reads back with the new link.
scenario_nfcscan_write_client() {
  begin nfcscan-write-client
  sim --uri https://example.com/old --after 5 --for 3600
  daemon
  local status=0
  "$BUILD/nfcscan" write --uri https://example.com/cli --object poster --timeout 20 >"$DIR/write.out" 2>"$DIR/write.err" || status=$?
  check "nfcscan write exits 0" test "$status" = 0
  check "it asked for the poster to save the link" grep -q "Hold the poster near the reader to save the link." "$DIR/write.err"
  check "it said to keep the poster still" grep -q "Saving to the poster. Keep it still." "$DIR/write.err"
  check "and that it was saved" test "$(cat "$DIR/write.out")" = "Saved. You can take the poster away."
  status=0
  # The poster stays near the reader, already written: no new object comes.
  "$BUILD/nfcscan" write --json --text "Another" --object poster --timeout 2 >"$DIR/large.out" 2>"$DIR/large.err" || status=$?
  check "write --json follows ending.schema.json" valid_json ending "$DIR/large.out"
  check "no object in time through the daemon: exit 75" test "$status" = 75
  check "--json: ending timeout" test "$(json "$DIR/large.out" 'd["ending"]')" = timeout
  check "and the catalog's sentence" grep -q "No poster came near the reader in time. Try again." "$DIR/large.err"
  status=0
  # nfcscand lets go of the readers while nfcscan info opens them (an inhibitor; it used to say
  # "Another program is using the reader", exit 73).
  LIBNFC_DEVICE="pn532_uart:$DIR/pn532" LIBNFC_AUTO_SCAN=false "$BUILD/nfcscan" info --object poster --timeout 5 \
    >"$DIR/info.out" 2>"$DIR/info.err" || status=$?
  check "nfcscan info while nfcscand runs: exit 0, what the poster holds" \
    bash -c '[ "$1" = 0 ] && grep -q "^It holds [0-9]* of 142 bytes.$" "$2"' _ "$status" "$DIR/info.out"
  check "everything nfcscan said follows the copy rules" copy_ok "$(grep -v '^nfcscan:' "$DIR"/write.err "$DIR"/large.err "$DIR"/info.err)"
  kill "$DAEMON_PID"; wait "$DAEMON_PID" 2>/dev/null || true
  status=0
  LIBNFC_DEVICE="pn532_uart:$DIR/pn532" LIBNFC_AUTO_SCAN=false "$BUILD/nfcscan" --json --timeout 10 >"$DIR/read-back.json" 2>"$DIR/read-back.err" || status=$?
  check "its --json follows scan.schema.json" valid_json scan "$DIR/read-back.json"
  check "the object holds the link nfcscan wrote" test "$status $(json "$DIR/read-back.json" 'd["records"][0]["uri"]')" = "0 https://example.com/cli"
  finish
}
