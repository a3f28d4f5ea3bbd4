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
  # Negative, bounded: the object has been near the reader (from 7 s) for 1.5 s, several reads'
  # time, and nothing may be offered.
  object_near_for 1.5
  check "nothing offered while locked after the restart" test "$(offers)" = 0
  session_lock false
  wait_offer "the offer after the unlock"
  check "unlocked: the object still near the reader is offered" test "$(offers)" = 1
  check "the unlock is remembered for this boot" test "$(cat "$XDG_RUNTIME_DIR/nfcscan/unlocked-since-boot")" = "$(cat /proc/sys/kernel/random/boot_id)"
  session_lock true
  # A barrier instead of a sleep: IdleHint changes on the same session object after LockedHint, and
  # nfcscand takes that object's PropertiesChanged in order, so once the screen-off pause shows,
  # the lock has been seen too.
  session_hint IdleHint true
  expect_paused screen-off 5 "the barrier: IdleHint after LockedHint pauses for screen-off"
  check "locked again later: no pause for it (only after a restart)" test "$(paused) $(condition locked-after-restart)" = 'as 1 "screen-off" clear'
  finish
}
