# shellcheck shell=bash

# One session at a time: a second waits, a third app cannot look at another's session, a vanished
# app's session ends and the next becomes active, a waiting session times out once active.
scenario_session_queue() {
  begin session-queue
  sim --uri https://example.com/poster --after 3600 --for 1
  daemon
  session_client first --object badge
  local first_pid=$SESSION_PID
  wait_for "the first session" 10 grep -q started "$DIR/session-first.jsonl" || true
  session_client second --object badge --timeout 2 --alert "Tap the NFC tag"
  wait_for "the second session" 10 grep -q started "$DIR/session-second.jsonl" || true
  local first_path; first_path=$(json "$DIR/session-first.jsonl" '[__import__("json").loads(l) for l in open("'"$DIR"'/session-first.jsonl")][0]["path"]')
  "$PY" "$SUPPORT/scan_session_client.py" --record "$DIR/peek.jsonl" --peek "$first_path"
  check "another app may not read a session" test "$(json "$DIR/peek.jsonl" 'd["error"]')" = org.freedesktop.DBus.Error.AccessDenied
  # Negative, bounded: the second's own timeout is 2 s; 3 s without it firing shows its clock does
  # not run while it waits.
  sleep 3
  check "the second waits while the first is active (no timeout yet)" test "$(events "$DIR/session-second.jsonl")" = started
  kill "$first_pid"; wait "$first_pid" 2>/dev/null || true
  wait_for "the second's end" 10 grep -q invalidated "$DIR/session-second.jsonl" || true
  check "the first app vanished: the second became active, then timed out" \
    test "$(events "$DIR/session-second.jsonl")" = "started properties invalidated"
  check "reason timeout, with the person's sentence" test "$(json "$DIR/session-second.jsonl" 'd["reason"] + ": " + d["message"]')" = "timeout: No badge came near the reader in time. Try again."
  check "the first session ended with its app" grep -q "scan session 1 ended: user-canceled" "$DIR/nfcscand.log"
  check "an app's alert message that breaks the rules is used but logged with the rule" \
    grep -q 'alert message breaks the copy rules: it uses the word "tap", it uses the word "nfc", it uses the word "tag", it does not end with punctuation' "$DIR/nfcscand.log"
  finish
}
