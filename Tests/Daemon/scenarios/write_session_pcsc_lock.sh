# shellcheck shell=bash

# Issue 21: a write session with lock through a PC/SC storage-card reader (nfcsim vpcd: an
# NTAG213, whose dynamic lock bits that reader cannot reach, GET_VERSION not passing) ends
# "unsupported" before its first command: nothing written or locked, the error naming a reader
# that could lock it. Once nfcscand has stopped, nfcscan reads the old link back through the same
# pcscd and nfcscan info says read-write.
scenario_write_session_pcsc_lock() {
  begin write-session-pcsc-lock
  private_pcscd "'$NFCSIM' vpcd --uri https://example.com/old --after 6 --for 3600"
  pcsc_nfcscand
  write_client one --object poster --uri https://example.com/new --lock
  wait_for "the session's end" 25 grep -q ended "$DIR/write-one.jsonl" || true
  check "ending unsupported, nothing written or locked" \
    test "$(json "$DIR/write-one.jsonl" '(d["ending"], d["details"]["written"], d["details"]["locked"])')" = "('unsupported', False, False)"
  check "the error says which reader would lock it" \
    test "$(json "$DIR/write-one.jsonl" '"storage-card" in d["details"]["error"] and "ACR122U" in d["details"]["error"]')" = True
  kill "$DAEMON_PID"; wait "$DAEMON_PID" 2>/dev/null || true
  local status=0
  LIBNFC_DEVICE='' LIBNFC_AUTO_SCAN=false PCSCLITE_CSOCK_NAME="$PCSC_SOCKET" "$BUILD/nfcscan" --json --timeout 10 \
    >"$DIR/read-back.json" 2>"$DIR/read-back.err" || status=$?
  check "its --json follows scan.schema.json" valid_json scan "$DIR/read-back.json"
  check "the poster still holds the old link" test "$status $(json "$DIR/read-back.json" 'd["records"][0]["uri"]')" = "0 https://example.com/old"
  status=0
  LIBNFC_DEVICE='' LIBNFC_AUTO_SCAN=false PCSCLITE_CSOCK_NAME="$PCSC_SOCKET" "$BUILD/nfcscan" info --json --timeout 10 \
    >"$DIR/info.json" 2>"$DIR/info.err" || status=$?
  check "its --json follows info.schema.json" valid_json info "$DIR/info.json"
  check "nfcscan info: still read-write" test "$status $(json "$DIR/info.json" 'd["access"]')" = "0 read-write"
  finish
}
