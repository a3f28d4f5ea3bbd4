# shellcheck shell=bash

# The camera (issue 5): a process opening a (fixture) video device pauses background reading at
# once, even with an object presented right after; closing it resumes, and the object still near
# the reader is offered.
scenario_camera() {
  begin camera
  : >"$DIR/video0"
  sim --uri https://example.com/poster --after 6 --for 8
  daemon
  app Posters --filter uri-scheme=https,uri-host=example.com
  check "no camera open: the camera condition is clear (known, not unknown)" test "$(condition camera)" = clear
  "$PY" -c 'import sys,time; f=open(sys.argv[1]); print("open", flush=True); time.sleep(float(sys.argv[2])); f.close(); print("closed", flush=True); time.sleep(0.5)' \
    "$DIR/video0" 9 >"$DIR/camera.log" 2>&1 &
  pids+=($!)
  wait_for "the camera open" 10 grep -q open "$DIR/camera.log" || true
  wait_for "the pause" 5 eval 'test "$(get_property PausedReasons)" = "as 1 \"camera\""' || true
  check "PausedReasons: camera" test "$(get_property PausedReasons)" = 'as 1 "camera"'
  check "nfcscan status says so" test "$("$BUILD/nfcscan" status | head -n1)" = "Background scanning is paused while the camera is in use."
  check "PropertiesChanged carried camera" signalled camera
  # Negative, bounded: the object has been near the reader (from 6 s) for 1.5 s, several reads'
  # time, and nothing may be offered.
  object_near_for 1.5
  check "nothing offered while the camera is in use" test "$(lines_matching '"event": "notify"' "$DIR/notifications.jsonl")" = 0
  wait_for "the camera closed" 10 grep -q closed "$DIR/camera.log" || true
  wait_offer "the offer once the camera is closed"
  check "the object is offered after the camera closed" test "$(lines_matching '"event": "notify"' "$DIR/notifications.jsonl")" = 1
  check "PausedReasons clear again" test "$(get_property PausedReasons)" = "as 0"
  finish
}
