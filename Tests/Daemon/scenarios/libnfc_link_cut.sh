# shellcheck shell=bash

# The libnfc reader's link is cut in the middle of a read: the emulated PN532 dies (SIGKILL) when
# the 4th data exchange with a large NTAG216 arrives, before answering it. nfcscand logs the
# failure, keeps running and answering, and offers nothing (no partial object).
scenario_libnfc_link_cut() {
  begin libnfc-link-cut
  local text; text=$("$PY" -c 'print("A long note for the link cut. " * 28)')
  sim --type ntag216 --text "$text" --after 4 --for 30 --die-at-exchange 4
  daemon
  app Notes --filter media-type=text/plain
  wait_for "the reader to die mid-read" 20 grep -q "dying (SIGKILL)" "$DIR/nfcsim.log" || true
  local died; died=$(now_ms)
  wait "$SIM_PID" 2>/dev/null || true   # reaped here: the shell says nothing of its SIGKILL
  wait_for "nfcscand to notice" 15 eval 'grep -qE "is gone|could not be read" "$DIR/nfcscand.log"' || true
  local noticed=$(( $(now_ms) - died ))
  local logged; logged=$(grep -m1 -E "is gone|could not be read" "$DIR/nfcscand.log" | cut -c1-200 || true)
  check "nfcscand logs the failed read: $logged" test -n "$logged"
  check "the reader died in the middle of the read (at its 4th data exchange)" grep -q "data exchange 4 arrived" "$DIR/nfcsim.log"
  check "nfcscand still runs" kill -0 "$DAEMON_PID"
  check "and answers (PausedReasons: $(paused))" test -n "$(paused)"
  # Negative, bounded: the failure is logged, so the read is over; 1 s more shows no offer follows.
  sleep 1
  check "no offer of a partial object" test "$(offers)" = 0
  check "the app received nothing" test "$(lines "$DIR/app-Notes.jsonl")" = 0
  figures libnfc_link_cut "failure_noticed_ms=$noticed" "offers=$(offers)" "deliveries=$(lines "$DIR/app-Notes.jsonl")" \
    "paused_reasons='$(paused)'"
  finish
}
