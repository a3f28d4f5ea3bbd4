# shellcheck shell=bash

# nfcscan --count 2 through the daemon (multiple mode): the prompt changes to "Now hold another
# badge near the reader." and both objects are printed; nfcscan interrupted ends its session.
scenario_nfcscan_count() {
  begin nfcscan-count
  pcsc_daemon "$TWO_BADGES"
  local status=0
  PCSCLITE_CSOCK_NAME="$PCSC_SOCKET" "$BUILD/nfcscan" --object badge --count 2 --timeout 30 >"$DIR/nfcscan.out" 2>"$DIR/nfcscan.err" || status=$?
  check "nfcscan --count 2 exits 0" test "$status" = 0
  check "both objects printed" test "$(tr -d '\r' <"$DIR/nfcscan.out" | grep -cE '^(Link: https://example.com/badge|Text: Second badge)$')" = 2
  check "the prompt changed to ask for another badge" grep -q "Now hold another badge near the reader." "$DIR/nfcscan.err"
  check "one multiple-object session, ended by nfcscan" grep -q "scan session 1 ended: user-canceled" "$DIR/nfcscand.log"
  "$BUILD/nfcscan" --object badge --timeout 30 >"$DIR/nfcscan-int.out" 2>&1 &
  local scan=$!
  wait_for "the second session" 10 grep -q "scan session 2 started" "$DIR/nfcscand.log" || true
  kill -TERM "$scan"; wait "$scan" 2>/dev/null || true   # (a background job of a script ignores SIGINT)
  wait_for "the session to end" 10 grep -q "scan session 2 ended" "$DIR/nfcscand.log" || true
  check "nfcscan stopped (SIGTERM): its session ended with it" grep -q "scan session 2 ended: user-canceled" "$DIR/nfcscand.log"
  check "background reading resumed" test "$(get_property PausedReasons)" = "as 0"
  finish
}
