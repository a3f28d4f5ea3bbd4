# shellcheck shell=bash

# A write session through the other backend: nfcscand reading a private pcscd's vpcd reader
# (nfcsim vpcd: an NTAG213 as a PC/SC storage card), the link saved with UPDATE BINARY, ended
# "done", and the object read back by nfcscan through the same pcscd once nfcscand has stopped.
scenario_write_session_pcsc() {
  begin write-session-pcsc
  private_pcscd "'$NFCSIM' vpcd --uri https://example.com/old --after 6 --for 3600"
  pcsc_nfcscand
  write_client one --object poster --uri https://example.com/new
  wait_for "the session's end" 25 grep -q ended "$DIR/write-one.jsonl" || true
  check "ending done over PC/SC, with the person's sentence" \
    test "$(json "$DIR/write-one.jsonl" 'd["ending"] + ": " + d["message"]')" = "done: Saved. You can take the poster away."
  check "the written object is not offered in the background" test "$(offers)" = 0
  kill "$DAEMON_PID"; wait "$DAEMON_PID" 2>/dev/null || true
  local status=0
  LIBNFC_DEVICE= LIBNFC_AUTO_SCAN=false PCSCLITE_CSOCK_NAME="$PCSC_SOCKET" "$BUILD/nfcscan" --json --timeout 10 \
    >"$DIR/read-back.json" 2>"$DIR/read-back.err" || status=$?
  check "its --json follows scan.schema.json" valid_json scan "$DIR/read-back.json"
  check "nfcscan reads the new link back through pcscd" test "$status $(json "$DIR/read-back.json" 'd["records"][0]["uri"]')" = "0 https://example.com/new"
  finish
}
