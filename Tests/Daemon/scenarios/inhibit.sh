# shellcheck shell=bash

# Inhibit (issue 5, "reader in use"): while a wallet app holds its inhibitor the readers are
# released and an object held near shows nothing; when it lets go, reading resumes by itself and
# the object still there is offered.
scenario_inhibit() {
  begin inhibit
  sim --uri https://example.com/poster --after 6 --for 8
  daemon
  app Posters --filter uri-scheme=https,uri-host=example.com
  "$PY" "$SUPPORT/inhibit.py" --hold 8 >"$DIR/inhibit.log" 2>&1 &
  pids+=($!)
  wait_for "the inhibitor" 10 grep -q inhibited "$DIR/inhibit.log" || true
  wait_for "the readers released" 10 grep -q "background reading stops" "$DIR/nfcscand.log" || true
  check "PausedReasons: reader-in-use" test "$(get_property PausedReasons)" = 'as 1 "reader-in-use"'
  check "nfcscan status says so in plain words" test "$("$BUILD/nfcscan" status | head -n1)" = "Background scanning is paused while the reader is in use."
  check "nfcscan status --json gives the code" \
    test "$(status_json | cut -d'{' -f1-2)" = '{"running":true,"background_reading":false,"paused_reasons":["reader-in-use"],"conditions":'
  check "nfcscan status in Chinese" test "$(LANG=zh_CN.UTF-8 "$BUILD/nfcscan" status | head -n1)" = "读卡器正在使用中，后台扫描已暂停。"
  check "PropertiesChanged carried reader-in-use" signalled reader-in-use
  check "BackgroundReading false" test "$(get_property BackgroundReading)" = "b false"
  # Negative, bounded: the object has been near the reader (from 6 s) for 1.5 s, several reads'
  # time, and nothing may be offered.
  object_near_for 1.5
  check "nothing offered while inhibited" test "$(lines_matching '"event": "notify"' "$DIR/notifications.jsonl")" = 0
  wait_for "the release" 10 grep -q released "$DIR/inhibit.log" || true
  wait_offer "the offer once released"
  check "the object still near the reader is offered after the release" test "$(lines_matching '"event": "notify"' "$DIR/notifications.jsonl")" = 1
  check "PausedReasons clear again" test "$(get_property PausedReasons)" = "as 0"
  check "the reopened reader is back at the same object path (readers/1)" bash -c "busctl --address='$DBUS_SESSION_BUS_ADDRESS' --user \
    call org.nfcscan.Scanner1 /org/nfcscan/Scanner1 org.freedesktop.DBus.ObjectManager GetManagedObjects | grep -q '\"/org/nfcscan/Scanner1/readers/1\"'"
  check "nfcscan status: on" test "$("$BUILD/nfcscan" status | head -n1)" = "Background scanning is on."
  "$PY" "$SUPPORT/inhibit.py" --hold 0.5 --exit >"$DIR/inhibit2.log" 2>&1 || true
  wait_for "the release by exit" 10 eval 'test "$(lines_matching "inhibitor 2 of Test Wallet released" "$DIR/nfcscand.log")" = 1' || true
  check "an app that ends releases its inhibitor" grep -q "inhibitor 2 of Test Wallet released" "$DIR/nfcscand.log"
  finish
}
