# shellcheck shell=bash

# Airplane mode from its three sources: the kernel's rfkill (a FIFO speaking /dev/rfkill's
# events, Tests/Support/rfkill_fixture.py), NetworkManager (python3-dbusmock's template on a
# private system bus) and the desktop's switch (gsd-rfkill, Tests/Support/gsd_rfkill.py). Every
# radio blocked pauses background reading and refuses scans; one radio back resumes, and the
# object still near the reader is offered. NetworkManager's radios going off end a running
# session; the desktop's switch pauses too.
scenario_airplane() {
  begin airplane --system-bus
  mock nm --system networkmanager
  wait_for "NetworkManager's stand-in" 10 eval 'sysbus status org.freedesktop.NetworkManager >/dev/null' || true
  "$PY" "$SUPPORT/rfkill_fixture.py" "$DIR/rfkill" hold wlan bluetooth >"$DIR/rfkill.log" 2>&1 &
  pids+=($!)
  wait_for "the rfkill stand-in" 10 grep -q ready "$DIR/rfkill.log" || true
  sim --uri https://example.com/poster --after 9 --for 14
  daemon
  app Posters --filter uri-scheme=https,uri-host=example.com
  wait_for "airplane mode known" 10 eval 'test "$(condition airplane-mode)" = clear' || true
  check "radios on: airplane-mode clear, background reading on" test "$(condition airplane-mode) $(paused)" = "clear as 0"
  "$PY" "$SUPPORT/rfkill_fixture.py" "$DIR/rfkill" block 0 1
  expect_paused airplane-mode 5 "every radio blocked (rfkill): PausedReasons airplane-mode"
  check "PropertiesChanged carried airplane-mode" signalled airplane-mode
  check "nfcscan status says so" test "$("$BUILD/nfcscan" status | head -n1)" = "Background scanning is paused while airplane mode is on."
  local status=0
  "$BUILD/nfcscan" --object poster --timeout 5 >"$DIR/nfcscan.out" 2>"$DIR/nfcscan.err" || status=$?
  check "a scan is refused in airplane mode (exit 69)" test "$status" = 69
  check "with the catalog's reason" grep -q "Scanning is off while airplane mode is on." "$DIR/nfcscan.err"
  # Negative, bounded: the object has been near the reader (from 9 s) for 1.5 s, several reads'
  # time, and nothing may be offered.
  object_near_for 1.5
  check "nothing offered in airplane mode" test "$(offers)" = 0
  "$PY" "$SUPPORT/rfkill_fixture.py" "$DIR/rfkill" unblock 1
  wait_offer "the offer once a radio is back"
  check "one radio unblocked: the object still near the reader is offered" test "$(offers)" = 1
  check "airplane-mode clear again" test "$(condition airplane-mode) $(paused)" = "clear as 0"
  # --multiple: the session takes the object still near the reader at once (issue 23) and stays
  # active, so airplane mode is what ends it.
  session_client waiting --object poster --timeout 30 --multiple
  wait_for "the session" 10 grep -q started "$DIR/session-waiting.jsonl" || true
  sysbus set-property org.freedesktop.NetworkManager /org/freedesktop/NetworkManager org.freedesktop.NetworkManager WirelessEnabled b false
  wait_for "the session's end" 10 grep -q invalidated "$DIR/session-waiting.jsonl" || true
  check "NetworkManager's radios off: the running session ends (radio-disabled)" test "$(json "$DIR/session-waiting.jsonl" 'd["reason"]')" = radio-disabled
  check "and background reading pauses for airplane mode" test "$(paused)" = 'as 1 "airplane-mode"'
  sysbus set-property org.freedesktop.NetworkManager /org/freedesktop/NetworkManager org.freedesktop.NetworkManager WirelessEnabled b true
  wait_for "the resume" 5 eval 'test "$(paused)" = "as 0"' || true
  check "Wi-Fi back on: background reading resumes" test "$(paused)" = "as 0"
  # The desktop's own switch (GNOME's settings daemon on the session bus), set as its quick settings do.
  mock gsd --session "$SUPPORT/gsd_rfkill.py"
  wait_for "the desktop's switch" 10 name_owned "$DBUS_SESSION_BUS_ADDRESS" org.gnome.SettingsDaemon.Rfkill || true
  busctl --address="$DBUS_SESSION_BUS_ADDRESS" set-property org.gnome.SettingsDaemon.Rfkill /org/gnome/SettingsDaemon/Rfkill \
    org.gnome.SettingsDaemon.Rfkill AirplaneMode b true
  expect_paused airplane-mode 5 "the desktop's airplane-mode switch on (gsd-rfkill AirplaneMode): PausedReasons airplane-mode"
  busctl --address="$DBUS_SESSION_BUS_ADDRESS" set-property org.gnome.SettingsDaemon.Rfkill /org/gnome/SettingsDaemon/Rfkill \
    org.gnome.SettingsDaemon.Rfkill AirplaneMode b false
  wait_for "the resume" 5 eval 'test "$(paused)" = "as 0"' || true
  check "the switch off: background reading resumes" test "$(paused)" = "as 0"
  finish
}
