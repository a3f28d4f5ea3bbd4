# shellcheck shell=bash
# e2e: alone (24 MiB calls and floods load the machine; Gets under 50 ms and resident memory are checks)

# Issue 20, a hostile local program (Tests/Support/hostile_client.py): oversized calls, a flood of
# the largest registrations then ListApps, one connection starting every session it can, a flood
# of inhibitors, and texts that would forge log lines. After each, nfcscand still owns its name
# and answers Get quickly; its resident memory comes back near where it started.
hostile() { "$PY" "$SUPPORT/hostile_client.py" "$@" 2>>"$DIR/hostile.log" | tee -a "$DIR/hostile.log"; }
field() { "$PY" -c 'import json,sys; print(eval(sys.argv[2], {}, json.loads(sys.argv[1])))' "$1" "$2"; }
answered_during() { worst_under "$1" 1000 && test "$(field "$1" 'p50_ms < 50')" = True; }
rss_mib() { awk '/^VmRSS:/ { printf "%d", $2 / 1024 }' "/proc/$DAEMON_PID/status"; }
still_serving() { # WHAT: the name is nfcscand's and 50 sequential Gets are each answered under 50 ms
  local probe; probe=$(latency --calls 50)
  check "$1: nfcscand still owns its name" test "$(owner_of org.nfcscan.Scanner1)" = "$PREVIOUS_OWNER"
  check "$1: every Get answered, the slowest under 50 ms ($probe)" worst_under "$probe" 50
}

scenario_hostile_calls() {
  begin hostile-calls
  sim --uri https://example.com/poster --after 600 --for 2
  daemon
  latency --calls 20 >/dev/null
  local baseline; baseline=$(rss_mib)
  say "resident memory at start: $baseline MiB"

  # Four oversized calls at once (the private bus takes messages up to 32 MiB), a Get probe beside them.
  local during=$DIR/during.json
  "$PY" "$SUPPORT/api_latency.py" --calls 200 >"$during" 2>>"$DIR/latency.log" &
  local probe_pid=$!
  local attacks=()
  for member in StartWriteSession StartWriteSession StartWriteSession Frobnicate; do
    hostile oversized --member "$member" --mib 24 >"$DIR/oversized-${#attacks[@]}.json" &
    attacks+=($!)
  done
  local pid; for pid in "${attacks[@]}"; do wait "$pid" || true; done
  wait "$probe_pid" || true
  local answers; answers=$(cat "$DIR"/oversized-*.json | "$PY" -c 'import json,sys; print(" ".join(sorted(json.loads(l)["answer"] for l in sys.stdin)))')
  check "24 MiB calls are refused before they are decoded: $answers" \
    test "$answers" = "org.freedesktop.DBus.Error.LimitsExceeded org.freedesktop.DBus.Error.LimitsExceeded org.freedesktop.DBus.Error.LimitsExceeded org.freedesktop.DBus.Error.LimitsExceeded"
  say "oversized calls: $(cat "$DIR"/oversized-*.json | tr '\n' ' ')"
  say "Get during them: $(cat "$during")"
  # Gets queued behind 96 MiB on nfcscand's own socket wait for the bus to deliver them.
  check "Get answered during them, half under 50 ms, the slowest under 1 s: $(cat "$during")" \
    answered_during "$(cat "$during")"
  still_serving "after oversized calls"
  local after; after=$(rss_mib)
  say "resident memory after the oversized calls: $after MiB"
  check "resident memory back near its start ($baseline MiB then $after MiB; at most 16 MiB more)" test "$after" -le $((baseline + 16))

  # The largest registrations from 24 connections, then ListApps: a few MiB, under the bus's limit.
  local flood; flood=$(hostile registrations --connections 24)
  say "registrations: $flood"
  check "the largest registrations are bounded per connection and overall" \
    test "$(field "$flood" 'accepted > 0 and list(refusals) == ["org.freedesktop.DBus.Error.LimitsExceeded"]')" = True
  check "ListApps answers, under 8 MiB" test "$(field "$flood" 'list_apps_json_bytes < 8 << 20')" = True
  still_serving "after the registration flood and ListApps"

  # One connection starting every session it can: the queue keeps a place for everyone else.
  local hog; hog=$(hostile sessions --sessions 17)
  say "sessions: $hog"
  check "one connection gets 2 sessions, the rest refused with LimitsExceeded" \
    test "$(field "$hog" 'accepted == 2 and refusals == {"org.freedesktop.DBus.Error.LimitsExceeded": 15}')" = True
  check "another app still gets its session queued" test "$(field "$hog" 'another_app')" = queued

  # Inhibitors from ten connections: 64 overall, every other call still answered.
  local held; held=$(hostile inhibitors --connections 10)
  say "inhibitors: $held"
  check "inhibitors: 8 per connection, 64 overall, the rest LimitsExceeded" \
    test "$(field "$held" 'granted == 64 and refusals == {"org.freedesktop.DBus.Error.LimitsExceeded": 10}')" = True
  check "while they are held, Get is answered under 50 ms" test "$(field "$held" 'get_ms_while_held < 50')" = True
  wait_for "background reading back once they are released" 10 eval 'test "$(paused)" = "as 0"' || true
  still_serving "after the inhibitor flood"

  # Texts that would forge log lines arrive escaped.
  hostile forge-log >/dev/null
  wait_for "the inhibitor in the log" 10 grep -q "taken by Wallet" "$DIR/nfcscand.log" || true
  check "no forged line in the log" bash -c '! grep -q "^nfcscand: error: FORGED\|^ FORGED" "$1" && ! grep -q $'"'"'\x1b'"'"' "$1"' _ "$DIR/nfcscand.log"
  check "the forged text is there, escaped" grep -q 'taken by Wallet\\u{a}nfcscand: error: FORGED LINE \\u{1b}\[31m' "$DIR/nfcscand.log"

  local final; final=$(rss_mib)
  say "resident memory at the end: $final MiB (start $baseline MiB)"
  check "resident memory at the end within 24 MiB of the start ($baseline then $final MiB)" test "$final" -le $((baseline + 24))
  check "nfcscand still runs" kill -0 "$DAEMON_PID"
  finish
}
