# shellcheck shell=bash

# Write sessions that cannot write: a message larger than the NTAG213 holds ends "too-large"
# before anything is written (the old link stays), in the language the app asked for; options that
# contradict each other are refused with InvalidArgs naming them; a session canceled while it
# waits ends "user-canceled", and so does one whose app leaves; another app may not look at a
# write session.
scenario_write_session_refused() {
  begin write-session-refused
  sim --uri https://example.com/old --after 6 --for 3600
  daemon
  write_client gone --object poster --uri https://example.com/never --timeout 30
  wait_for "the first write session" 10 grep -q initial "$DIR/write-gone.jsonl" || true
  kill "$WRITE_PID"; wait "$WRITE_PID" 2>/dev/null || true
  wait_for "its end with its app" 10 grep -q "write session 1 ended: user-canceled" "$DIR/nfcscand.log" || true
  check "the app left: its write session ended (user-canceled), the object untouched by it" grep -q "write session 1 ended: user-canceled" "$DIR/nfcscand.log"
  write_client big --object poster --message-size 200
  wait_for "the write session" 10 grep -q started "$DIR/write-big.jsonl" || true
  local path; path=$(json "$DIR/write-big.jsonl" '[__import__("json").loads(l) for l in open("'"$DIR"'/write-big.jsonl")][0]["path"]')
  "$PY" "$SUPPORT/write_session_client.py" --record "$DIR/peek.jsonl" --peek "$path"
  check "another app may not read a write session" test "$(json "$DIR/peek.jsonl" 'd["error"]')" = org.freedesktop.DBus.Error.AccessDenied
  check "uri and erase together are refused, naming them" \
    bash -c 'busctl --address="$DBUS_SESSION_BUS_ADDRESS" call org.nfcscan.Scanner1 /org/nfcscan/Scanner1 org.nfcscan.Scanner1 StartWriteSession "a{sv}" 2 uri s https://example.com erase b true 2>&1 | grep -q "option \"uri\" cannot go with erase"'
  check "a password of 3 bytes is refused" \
    bash -c 'busctl --address="$DBUS_SESSION_BUS_ADDRESS" call org.nfcscan.Scanner1 /org/nfcscan/Scanner1 org.nfcscan.Scanner1 StartWriteSession "a{sv}" 2 erase b true password ay 3 1 2 3 2>&1 | grep -q "option \"password\" must be 4 bytes"'
  wait_for "the session's end" 20 grep -q ended "$DIR/write-big.jsonl" || true
  check "ending too-large, with the person's sentence" \
    test "$(json "$DIR/write-big.jsonl" 'd["ending"] + ": " + d["message"]')" = "too-large: That's too much for the poster to hold."
  check "nothing was written" test "$(json "$DIR/write-big.jsonl" 'd["details"]["written"]')" = False
  write_client zh --object poster --erase --language zh-Hans --cancel-after 1 --timeout 30
  wait_for "the canceled session's end" 10 grep -q ended "$DIR/write-zh.jsonl" || true
  check "canceled while looking: user-canceled, in Chinese" \
    test "$(json "$DIR/write-zh.jsonl" 'd["ending"] + ": " + d["message"]')" = "user-canceled: 已取消。海报没有更改。"
  check "what the sessions said follows the copy rules" copy_ok "$(cat "$DIR"/write-*.jsonl)"
  kill "$DAEMON_PID"; wait "$DAEMON_PID" 2>/dev/null || true
  local status=0
  LIBNFC_DEVICE="pn532_uart:$DIR/pn532" LIBNFC_AUTO_SCAN=false "$BUILD/nfcscan" --json --timeout 10 >"$DIR/read-back.json" 2>"$DIR/read-back.err" || status=$?
  check "its --json follows scan.schema.json" valid_json scan "$DIR/read-back.json"
  check "the object still holds its old link" test "$status $(json "$DIR/read-back.json" 'd["records"][0]["uri"]')" = "0 https://example.com/old"
  finish
}
