# shellcheck shell=bash

# Reader in use, from pcscd: another client (a wallet or smart-card app) holds the card with
# SCARD_SHARE_EXCLUSIVE. Background reading pauses (reader-in-use) with the reader kept open;
# once that client lets go, the card still in the reader is read and offered.
scenario_pcsc_exclusive() {
  begin pcsc-exclusive
  private_pcscd "'$NFCSIM' vpcd --uri https://example.com/poster --for 25"
  PCSCLITE_CSOCK_NAME="$PCSC_SOCKET" "$PY" "$SUPPORT/pcsc_exclusive_holder.py" --hold 9 >"$DIR/holder.log" 2>&1 &
  pids+=($!)
  wait_for "the exclusive hold" 15 grep -q held "$DIR/holder.log" || true
  pcsc_nfcscand
  app Posters --filter uri-scheme=https,uri-host=example.com
  expect_paused reader-in-use 10 "held exclusively by another client: PausedReasons reader-in-use"
  check "PropertiesChanged carried reader-in-use" signalled reader-in-use
  check "nfcscan status says so" test "$("$BUILD/nfcscan" status | head -n1)" = "Background scanning is paused while the reader is in use."
  check "the reader stays open (it must notice the release)" test "$(busctl --address="$DBUS_SESSION_BUS_ADDRESS" --user call org.nfcscan.Scanner1 /org/nfcscan/Scanner1 org.freedesktop.DBus.ObjectManager GetManagedObjects | grep -c nfcsim)" = 1
  check "nothing offered while held" test "$(offers)" = 0
  wait_for "the release" 15 grep -q released "$DIR/holder.log" || true
  wait_offer "the offer after the release"
  check "released: the card still in the reader is offered" test "$(offers)" = 1
  check "PausedReasons clear again" test "$(paused)" = "as 0"
  PCSCLITE_CSOCK_NAME="$PCSC_SOCKET" "$PY" "$SUPPORT/pcsc_exclusive_holder.py" --hold 1 --wait 3 >"$DIR/holder2.log" 2>&1 || true
  check "once read, nfcscand lets go: another client gets the card still in the reader exclusively" grep -q held "$DIR/holder2.log"
  finish
}
