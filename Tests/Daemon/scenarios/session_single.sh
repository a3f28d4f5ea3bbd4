# shellcheck shell=bash

# A single-object session gets the object (not the background offer), ends with first-read, and
# background reading pauses (scan-session) only while it runs.
scenario_session_single() {
  begin session-single
  sim --uri https://example.com/poster --after 6 --for 2
  daemon
  app Posters --filter uri-scheme=https,uri-host=example.com
  session_client one --object poster
  wait_for "the session" 10 grep -q started "$DIR/session-one.jsonl" || true
  local path; path=$(json "$DIR/session-one.jsonl" '[__import__("json").loads(l) for l in open("'"$DIR"'/session-one.jsonl")][0]["path"]')
  check "PausedReasons says scan-session while it runs" test "$(get_property PausedReasons)" = 'as 1 "scan-session"'
  wait_for "the session's end" 15 grep -q invalidated "$DIR/session-one.jsonl" || true
  check "detected, then invalidated (first-read)" test "$(events "$DIR/session-one.jsonl")" = "started properties reading detected invalidated"
  check "the session got the object" test "$(json "$DIR/session-one.jsonl" '[__import__("json").loads(l) for l in open("'"$DIR"'/session-one.jsonl") if "detected" in l][0]["uri"]')" = "https://example.com/poster"
  check "Detected's object follows scan.schema.json (as nfcscan --json)" \
    test "$(json "$DIR/session-one.jsonl" '[__import__("json").loads(l) for l in open("'"$DIR"'/session-one.jsonl") if "detected" in l][0]["schema_problems"]')" = "[]"
  check "reason first-read" test "$(json "$DIR/session-one.jsonl" 'd["reason"]')" = first-read
  wait_for "the resume" 5 eval 'test "$(get_property PausedReasons)" = "as 0"' || true
  object_gone_for 0.5   # the object has come and gone: no background offer of it can come later
  check "no background offer during the session" test "$(lines_matching '"event": "notify"' "$DIR/notifications.jsonl")" = 0
  check "the app's handler got nothing" test "$(lines "$DIR/app-Posters.jsonl")" = 0
  check "background reading resumes after it" test "$(get_property PausedReasons)" = "as 0"
  finish
}
