# shellcheck shell=bash

# An object only its password reads (nfcsim --password --protect read), through nfcscand: nfcscan
# scanning through the daemon without the password says so and how to give it (exit 83); a scan
# session with a wrong password stays looking, its AlertMessage saying the object refused it; one
# with the right password gets the object. The password never reaches the daemon's log.
scenario_session_password() {
  begin session-password
  sim --uri https://example.com/badge --password 1a2b3c4d --protect read --after 5 --for 3600
  daemon
  local status=0
  "$BUILD/nfcscan" --object badge --timeout 20 >"$DIR/nfcscan.out" 2>"$DIR/nfcscan.err" || status=$?
  check "nfcscan without the password: exit 83" test "$status" = 83
  check "it says the badge is protected and how to give the password" \
    grep -qzF $'The badge is protected by a password.\nRun again with --password and the badge\'s password.' "$DIR/nfcscan.err"
  session_client wrong --object badge --password 00000000 --timeout 20 --restart-after 0.5 --invalidate-when "$DIR/wrong-seen"
  wait_for "the refused password" 15 grep -q "didn't accept" "$DIR/session-wrong.jsonl" || true
  touch "$DIR/wrong-seen"
  wait_for "the wrong session's end" 10 grep -q invalidated "$DIR/session-wrong.jsonl" || true
  check "a wrong password: AlertMessage says the badge refused it, nothing detected" \
    bash -c 'grep -q "The badge didn'"'"'t accept the password." "$1" && ! grep -q detected "$1"' _ "$DIR/session-wrong.jsonl"
  session_client right --object badge --password 1a2b3c4d --timeout 15 --restart-after 0.5
  wait_for "the right session's end" 15 grep -q invalidated "$DIR/session-right.jsonl" || true
  check "the right password: the session gets the badge" \
    test "$(json "$DIR/session-right.jsonl" '[__import__("json").loads(l) for l in open("'"$DIR"'/session-right.jsonl") if "detected" in l][0]["uri"]')" = "https://example.com/badge"
  check "the password is not in the daemon's log" bash -c '! grep -qiE "1a2b3c4d|26, 43, 60, 77|1a 2b 3c 4d" "$1"' _ "$DIR/nfcscand.log"
  check "what nfcscan said follows the copy rules" copy_ok "$(cat "$DIR"/nfcscan.err)"
  finish
}
