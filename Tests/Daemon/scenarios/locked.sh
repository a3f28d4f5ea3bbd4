# shellcheck shell=bash

# Locked since boot pauses background reading until the first unlock; a later lock does not (the
# marker in $XDG_RUNTIME_DIR remembers the unlock for this boot).
scenario_locked() {
  begin locked --system-bus
  logind_session locked
  sim --uri https://example.com/poster --after 7 --for 12
  daemon
  app Posters --filter uri-scheme=https,uri-host=example.com
  expect_paused locked-after-restart 10 "locked since boot: PausedReasons locked-after-restart"
  check "nfcscan status says so" test "$("$BUILD/nfcscan" status | head -n1)" = "Background scanning is paused until you unlock the computer."
  check "PropertiesChanged carried locked-after-restart" signalled locked-after-restart
  sleep 5   # the object arrives (at 7 s) while locked
  check "nothing offered while locked after the restart" test "$(offers)" = 0
  session_lock false
  wait_offer "the offer after the unlock"
  check "unlocked: the object still near the reader is offered" test "$(offers)" = 1
  check "the unlock is remembered for this boot" test "$(cat "$XDG_RUNTIME_DIR/nfcscan/unlocked-since-boot")" = "$(cat /proc/sys/kernel/random/boot_id)"
  session_lock true
  sleep 1
  check "locked again later: no pause (only after a restart)" test "$(paused) $(condition locked-after-restart)" = "as 0 clear"
  finish
}
