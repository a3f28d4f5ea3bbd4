# shellcheck shell=bash

# nfcscand is killed (SIGKILL) while an app's HandleScan is in flight, and started again: the app
# got the object once; after the restart nothing reaches it that was not offered again (the card
# has left), and the next card is offered and delivered once.
scenario_daemon_sigkill_delivery() {
  begin sigkill-delivery
  private_pcscd "$(gate first); '$NFCSIM' vpcd --uri https://example.com/first --for 600 & card=\$!; $(gate first-away); kill \$card; wait \$card;
    $(gate second); '$NFCSIM' vpcd --uri https://example.com/second --for 600"
  pcsc_nfcscand
  app Badges --delay 3 --reregister --filter uri-scheme=https,uri-host=example.com
  open_gate first
  wait_offer "the first offer"
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "HandleScan in flight (the app answers after 3 s)" 10 eval 'test "$(lines "$DIR/app-Badges.jsonl")" -ge 1' || true
  kill -KILL "$DAEMON_PID"
  wait "$DAEMON_PID" 2>/dev/null || true
  check "killed mid-delivery: the call arrived, its answer never counted" \
    bash -c '! grep -q "sent an object to Badges" "$1"' _ "$DIR/nfcscand.log"
  open_gate first-away
  wait_for "the first card gone" 10 grep -q "nfcsim: stopped" "$DIR/pcscd.log" || true
  local notified; notified=$(offers)
  local started; started=$(now_ms)
  pcsc_nfcscand
  wait_for "the app registered again" 10 eval 'test "$(lines_matching ^registered "$DIR/app-Badges.log")" -ge 2' || true
  local back=$(( $(now_ms) - started ))
  # Negative, bounded: a restarted nfcscand that resent what it had in flight would do so at once;
  # 2 s (several reader polls) shows nothing comes.
  sleep 2
  check "after the restart nothing arrives that was not offered again" test "$(lines "$DIR/app-Badges.jsonl")" = 1
  check "and nothing is offered: the card has left" test "$(offers)" = "$notified"
  open_gate second
  wait_for "the second offer" 20 eval 'shown | grep -q example.com/second' || true
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "the delivery done" 10 grep -q "sent an object to Badges" "$DIR/nfcscand.log" || true
  check "each card reached the app once: the first (in flight when killed), then the second" \
    test "$("$PY" -c 'import json,sys; print(" ".join(json.loads(l)["scan"]["records"][0]["uri"] for l in open(sys.argv[1]) if l.strip()))' "$DIR/app-Badges.jsonl")" \
    = "https://example.com/first https://example.com/second"
  check "nfcscand still runs" kill -0 "$DAEMON_PID"
  figures daemon_sigkill_delivery "restart_to_registered_ms=$back" "calls_before_kill=1" \
    "calls_after_restart=$(( $(lines "$DIR/app-Badges.jsonl") - 1 ))" "offers_in_all=$(offers)"
  finish
}
