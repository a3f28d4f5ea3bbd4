# shellcheck shell=bash

# A scan session is not blocked by the conditions that protect it: started while the camera has
# closed the readers (and one started the moment nfcscand appears, before its readers are open),
# it waits for the readers to open instead of ending "unavailable", and gets the object.
scenario_session_while_paused() {
  begin session-while-paused
  : >"$DIR/video0"
  "$PY" -c 'import sys,time; f=open(sys.argv[1]); print("open", flush=True); time.sleep(30)' "$DIR/video0" >"$DIR/camera.log" 2>&1 &
  pids+=($!)
  wait_for "the camera open" 10 grep -q open "$DIR/camera.log" || true
  sim --uri https://example.com/poster --after 9 --for 3
  daemon
  session_client early --object poster --timeout 20
  wait_for "the session" 10 grep -q started "$DIR/session-early.jsonl" || true
  wait_for "the session's end" 20 grep -q invalidated "$DIR/session-early.jsonl" || true
  check "the session got the object (not unavailable)" test "$(events "$DIR/session-early.jsonl")" = "started properties reading detected invalidated"
  check "reason first-read" test "$(json "$DIR/session-early.jsonl" 'd["reason"]')" = first-read
  check "background reading still paused for the camera afterwards" test "$(paused)" = 'as 1 "camera"'
  check "nothing offered" test "$(offers)" = 0
  finish
}
