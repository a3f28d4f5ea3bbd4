# shellcheck shell=bash

# nfcscan while nfcscand runs and the badge is already near the reader: the daemon read it in the
# background, and a reader reports an object once per arrival, so the scan session is handed it at
# once (it used to time out, 75); `nfcscan info` works
# (nfcscand lets go of the reader while it runs: an inhibitor) and background reading resumes after.
scenario_nfcscan_near() {
  begin nfcscan-near
  sim --uri https://example.com/badge --after 1 --for 120
  daemon
  wait_offer "the badge read in the background"
  local status=0
  "$BUILD/nfcscan" --object badge --json --timeout 10 >"$DIR/scan.out" 2>"$DIR/scan.err" || status=$?
  check "--json follows scan.schema.json" valid_json scan "$DIR/scan.out"
  check "the badge already near is read: exit 0" test "$status" = 0
  check "its link" test "$(json "$DIR/scan.out" 'd["records"][0]["uri"]')" = https://example.com/badge
  status=0
  # (as nfcscand does, it finds the reader through libnfc's configuration)
  LIBNFC_DEVICE="pn532_uart:$DIR/pn532" LIBNFC_AUTO_SCAN=false "$BUILD/nfcscan" info --object badge --json --timeout 10 >"$DIR/info.out" 2>"$DIR/info.err" || status=$?
  check "info --json follows info.schema.json" valid_json info "$DIR/info.out"
  check "nfcscan info while nfcscand runs: exit 0" test "$status" = 0
  check "and not \"Another program is using the reader\"" test "$(grep -c "Another program" "$DIR/info.err")" = 0
  check "info: an NTAG213, read-write" test "$(json "$DIR/info.out" 'd["product"] + " " + d["access"]')" = "NTAG213 read-write"
  check "nfcscand let go of the reader for it (an inhibitor)" grep -q "inhibitor 1 taken by nfcscan info" "$DIR/nfcscand.log"
  wait_for "background reading again" 10 eval 'test "$(paused)" = "as 0"' || true
  check "background reading resumed after nfcscan info" test "$(paused)" = "as 0"
  finish
}
