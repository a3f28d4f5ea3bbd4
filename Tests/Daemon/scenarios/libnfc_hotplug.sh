# shellcheck shell=bash

# A libnfc reader comes and goes while nfcscand runs (issue 23): nfcscand starts with no reader
# (PausedReasons "no-reader"); the emulated PN532 appears and background reading resumes within
# a second (its device node followed with inotify); it is unplugged (SIGKILL: its link stays,
# dangling) and the pause comes back; it returns and is used again.
scenario_libnfc_hotplug() {
  begin libnfc-hotplug
  daemon
  expect_paused no-reader 10 "with no reader, background reading is paused (no-reader)"
  # shellcheck disable=SC2034 # wait_for reads it: polls every 20 ms here, for the figures
  local TESTLIB_POLL=0.02 plugged resumed unplugged paused_again
  plugged=$(now_ms)
  sim --text "Late reader" --after 60 --for 1
  wait_for "background reading to resume" 5 eval 'test "$(paused)" = "as 0"' || true
  resumed=$(( $(now_ms) - plugged ))
  check "the reader appearing ends the pause within a second (${resumed} ms, nfcsim's start included)" test "$resumed" -lt 1000
  # Once: a later change (the link's times touched: IN_ATTRIB on its name) does not open the
  # reader in use a second time. Negative, bounded: 0.3 s is 3 times the pick-up.
  touch -h "$DIR/pn532"
  sleep 0.3
  check "it is opened once" test "$(lines_matching "using reader" "$DIR/nfcscand.log")" = 1
  unplugged=$(now_ms)
  kill -KILL "$SIM_PID"
  wait "$SIM_PID" 2>/dev/null || true
  wait_for "the pause to come back" 5 eval 'test "$(paused)" = "as 1 \"no-reader\""' || true
  paused_again=$(( $(now_ms) - unplugged ))
  check "the reader leaving pauses background reading again within a second (${paused_again} ms)" test "$paused_again" -lt 1000
  local replugged; replugged=$(now_ms)
  sim --text "Back again" --after 60 --for 1
  wait_for "the reader back" 5 eval 'test "$(paused)" = "as 0"' || true
  local back=$(( $(now_ms) - replugged ))
  check "the reader coming back is used again, once (${back} ms)" test "$(lines_matching "using reader" "$DIR/nfcscand.log")" = 2
  check "nfcscand still runs" kill -0 "$DAEMON_PID"
  figures libnfc_hotplug "reader_in_use_after_plug_ms=$resumed" "paused_after_unplug_ms=$paused_again" "reader_back_ms=$back"
  finish
}
