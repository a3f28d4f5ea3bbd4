# shellcheck shell=bash

# Locking only when asked, and only after the verified write: a write session with lock saves the
# link to the emulated NTAG213, makes it read-only and ends done with locked; afterwards nfcscan
# reads the new link, nfcscan info says read-only, and libnfc's nfc-mfultralight dump shows the
# capability container's write access 0x0F.
scenario_write_session_lock() {
  begin write-session-lock
  sim --uri https://example.com/old --after 6 --for 3600
  daemon
  write_client one --object poster --uri https://example.com/final --lock
  wait_for "the session's end" 20 grep -q ended "$DIR/write-one.jsonl" || true
  check "ending done, written and locked" \
    test "$(json "$DIR/write-one.jsonl" '(d["ending"], d["details"]["written"], d["details"]["locked"])')" = "('done', True, True)"
  kill "$DAEMON_PID"; wait "$DAEMON_PID" 2>/dev/null || true
  local status=0
  LIBNFC_DEVICE="pn532_uart:$DIR/pn532" LIBNFC_AUTO_SCAN=false "$BUILD/nfcscan" info --json --timeout 10 >"$DIR/info.json" 2>"$DIR/info.err" || status=$?
  check "its --json follows info.schema.json" valid_json info "$DIR/info.json"
  check "nfcscan info: read-only" test "$status $(json "$DIR/info.json" 'd["access"]')" = "0 read-only"
  status=0
  LIBNFC_DEVICE="pn532_uart:$DIR/pn532" LIBNFC_AUTO_SCAN=false "$BUILD/nfcscan" --json --timeout 10 >"$DIR/read-back.json" 2>"$DIR/read-back.err" || status=$?
  check "its --json follows scan.schema.json" valid_json scan "$DIR/read-back.json"
  check "the locked object still reads the new link" test "$status $(json "$DIR/read-back.json" 'd["records"][0]["uri"]')" = "0 https://example.com/final"
  LIBNFC_DEVICE="pn532_uart:$DIR/pn532" LIBNFC_AUTO_SCAN=false LIBNFC_LOG_LEVEL=0 nfc-mfultralight r "$DIR/dump.bin" >"$DIR/mfultralight.log" 2>&1 </dev/null || true
  check "nfc-mfultralight: CC write access 0x0F (page 3, byte 3)" test "$(od -An -tx1 -j15 -N1 "$DIR/dump.bin" | tr -d ' ')" = 0f
  finish
}
