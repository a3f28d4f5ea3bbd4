# shellcheck shell=bash

# nfcscan (a direct scan, no nfcscand) starts while pcscd is not running; pcscd starts and its
# vpcd reader is used within a second (PCSCReaderWatch follows pcscd's socket with inotify; it
# tried every 2 s before issue 23), then the badge held near it is read.
scenario_pcscd_late() {
  begin pcscd-late
  private_pcscd "$(gate badge); '$NFCSIM' vpcd --uri https://example.com/late --for 600"
  pcscd_kill
  # shellcheck disable=SC2034 # wait_for reads it: polls every 20 ms here, for the figures
  local TESTLIB_POLL=0.02 status=0 scan
  DBUS_SESSION_BUS_ADDRESS=unix:path=$DIR/no-session-bus LIBNFC_DEVICE="pn532_uart:$DIR/no-pn532" LIBNFC_AUTO_SCAN=false PCSCLITE_CSOCK_NAME="$PCSC_SOCKET" \
    "$BUILD/nfcscan" --object badge --timeout 20 --verbose >"$DIR/nfcscan-out.log" 2>"$DIR/nfcscan-err.log" &
  scan=$!
  pids+=("$scan")
  wait_for "nfcscan waiting for a reader" 10 grep -q "waiting for a reader to appear" "$DIR/nfcscan-err.log" || true
  local started; started=$(now_ms)
  pcscd_start_again
  wait_for "nfcscan using the vpcd reader" 10 grep -q "using pcsc reader .*(it appeared)" "$DIR/nfcscan-err.log" || true
  local picked=$(( $(now_ms) - started ))
  check "pcscd's reader is used within a second of pcscd starting (${picked} ms, pcscd's start included)" test "$picked" -lt 1000
  open_gate badge
  wait "$scan" || status=$?
  check "nfcscan read the badge (exit $status)" test "$status" = 0
  check "and said what it holds: $(head -n1 "$DIR/nfcscan-out.log")" grep -q "example.com/late" "$DIR/nfcscan-out.log"
  figures pcscd_late "reader_in_use_after_pcscd_start_ms=$picked"
  finish
}
