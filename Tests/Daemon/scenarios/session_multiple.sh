# shellcheck shell=bash

# Multiple objects (PC/SC, the same badge twice): the prompt switches to "Now hold another badge
# near the reader." after the first read; the app ends the session with Invalidate.
scenario_session_multiple() {
  begin session-multiple
  pcsc_daemon "$TWO_BADGES"
  session_client many --object badge --multiple --invalidate-after 2 --invalidate-message "Thanks, both badges are in."
  wait_for "the session's end" 25 grep -q invalidated "$DIR/session-many.jsonl" || true
  check "detected, prompt changed, detected, ended" \
    test "$(events "$DIR/session-many.jsonl")" = "started properties reading detected properties reading detected properties invalidated"
  check "the later prompt asks for another badge" \
    grep -q '"AlertMessage": "Now hold another badge near the reader."' "$DIR/session-many.jsonl"
  check "the second object is the second badge" grep -q '"uri": "Second badge"' "$DIR/session-many.jsonl"
  check "ended by the app: user-canceled, with its message" \
    test "$(json "$DIR/session-many.jsonl" 'd["reason"] + ": " + d["message"]')" = "user-canceled: Thanks, both badges are in."
  finish
}
