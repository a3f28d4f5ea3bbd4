# shellcheck shell=bash

# RestartPolling: an object left near the reader is not read again by a later session, until that
# session asks to look again.
scenario_session_restart() {
  begin session-restart
  pcsc_daemon "'$NFCSIM' vpcd --uri https://example.com/badge --after 6 --for 40"
  session_client one --object badge
  wait_for "the first read" 20 grep -q invalidated "$DIR/session-one.jsonl" || true
  check "the first session read the badge" test "$(events "$DIR/session-one.jsonl")" = "started properties reading detected invalidated"
  session_client stays --object badge --timeout 3
  wait_for "the second session's end" 10 grep -q invalidated "$DIR/session-stays.jsonl" || true
  check "the badge left on the reader is not read again by itself" test "$(json "$DIR/session-stays.jsonl" 'd["reason"]')" = timeout
  session_client again --object badge --timeout 10 --restart-after 1
  wait_for "the third session's end" 15 grep -q invalidated "$DIR/session-again.jsonl" || true
  check "after RestartPolling it is read again" test "$(events "$DIR/session-again.jsonl")" = "started properties restarted reading detected invalidated"
  finish
}
