# shellcheck shell=bash

# Screen off: logind's IdleHint, and the session's org.freedesktop.ScreenSaver (a dbusmock
# template, Tests/Support/freedesktop_screensaver.py).
scenario_screen_off() {
  begin screen-off --system-bus
  logind_session unlocked
  mock screensaver --session "$SUPPORT/freedesktop_screensaver.py"
  wait_for "the screensaver's stand-in" 10 name_owned "$DBUS_SESSION_BUS_ADDRESS" org.freedesktop.ScreenSaver || true
  sim --uri https://example.com/poster --after 8 --for 14
  daemon
  app Posters --filter uri-scheme=https,uri-host=example.com
  wait_for "the conditions known" 10 eval 'test "$(condition screen-off)" = clear' || true
  check "screen on: screen-off clear" test "$(condition screen-off) $(paused)" = "clear as 0"
  session_hint IdleHint true
  expect_paused screen-off 5 "session idle (logind IdleHint): PausedReasons screen-off"
  check "PropertiesChanged carried screen-off" signalled screen-off
  check "nfcscan status says so" test "$("$BUILD/nfcscan" status | head -n1)" = "Background scanning is paused while the screen is off."
  session_hint IdleHint false
  wait_for "the resume" 5 eval 'test "$(paused)" = "as 0"' || true
  check "idle no more: resumed" test "$(paused)" = "as 0"
  screensaver true
  expect_paused screen-off 5 "screensaver active (ActiveChanged): PausedReasons screen-off"
  # Negative, bounded: the object has been near the reader (from 8 s) for 1.5 s, several reads'
  # time, and nothing may be offered.
  object_near_for 1.5
  check "nothing offered with the screen off" test "$(offers)" = 0
  screensaver false
  wait_offer "the offer once the screen is on"
  check "screen on again: the object is offered" test "$(offers)" = 1
  finish
}
