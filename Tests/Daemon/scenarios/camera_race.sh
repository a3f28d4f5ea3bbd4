# shellcheck shell=bash

# The race: the camera opens 100 ms before the object comes near; the condition is in force
# first and nothing slips through.
scenario_camera_race() {
  begin camera-race
  : >"$DIR/video0"
  local start; start=$(date +%s.%N)
  sim --uri https://example.com/poster --after 8 --for 6
  daemon
  app Posters --filter uri-scheme=https,uri-host=example.com
  "$PY" -c 'import sys,time; time.sleep(max(0, float(sys.argv[2]) + 7.9 - time.time())); f=open(sys.argv[1]); print("open", flush=True); time.sleep(8)' \
    "$DIR/video0" "$start" >"$DIR/camera.log" 2>&1 &
  pids+=($!)
  wait_for "the camera open" 15 grep -q open "$DIR/camera.log" || true
  # Negative, bounded: the object has been near the reader (from 8 s) for 2 s, several reads' time.
  object_near_for 2
  check "the camera opened" grep -q open "$DIR/camera.log"
  check "camera in use just before the object: nothing offered" test "$(offers)" = 0
  check "PausedReasons: camera" test "$(paused)" = 'as 1 "camera"'
  finish
}
