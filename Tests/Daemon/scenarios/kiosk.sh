# shellcheck shell=bash

# A kiosk's configuration file switches conditions off (and nfcscan status says so); a mistake in
# it stops nfcscand naming the file and line; sources this machine lacks are unknown, no crash.
scenario_kiosk() {
  begin kiosk --system-bus
  logind_session unlocked
  session_hint IdleHint true
  mkdir -p "$XDG_CONFIG_HOME/nfcscan"
  printf '[background]\nignore = bogus\n' >"$XDG_CONFIG_HOME/nfcscan/nfcscand.conf"
  local status=0
  timeout 10 "$NFCSCAND" >"$DIR/bad-config.log" 2>&1 || status=$?
  check "a mistake in the configuration: exit 78" test "$status" = 78
  check "naming the file, the line and what is allowed" \
    grep -q 'nfcscand.conf:2: "bogus" cannot be ignored; the conditions a kiosk may ignore are: camera, airplane-mode, locked-after-restart, screen-off' "$DIR/bad-config.log"
  printf '# a reception desk: reads whatever the screen does\n[background]\nignore = screen-off, locked-after-restart\n' \
    >"$XDG_CONFIG_HOME/nfcscan/nfcscand.conf"
  sim --uri https://example.com/poster --after 7 --for 4
  daemon --camera-devices ""
  app Posters --filter uri-scheme=https,uri-host=example.com
  wait_offer "the offer with the screen off (ignored)"
  check "screen off but ignored: the object is offered" test "$(offers)" = 1
  check "Conditions: screen-off and locked-after-restart ignored" test "$(condition screen-off) $(condition locked-after-restart)" = "ignored ignored"
  check "no source: camera and airplane mode unknown" test "$(condition camera) $(condition airplane-mode)" = "unknown unknown"
  "$BUILD/nfcscan" status >"$DIR/status.out"
  printf '%s\n' "Background scanning is on." "The camera can't be checked, so it won't pause scanning." \
    "Airplane mode can't be checked, so it won't pause scanning." "Set to keep scanning while locked after a restart." \
    "Set to keep scanning while the screen is off." >"$DIR/status.expected"
  check "nfcscan status: on, then what is ignored and what cannot be checked" diff "$DIR/status.expected" "$DIR/status.out"
  check "all of it follows the copy rules" copy_ok "$(cat "$DIR/status.out")"
  finish
}
