# shellcheck shell=bash

# Hostile text: markup is escaped in the body, bidirectional overrides and controls neutralised;
# an app whose name is markup reaches the summary and the app name inert (dunst reads markup in
# the summary too).
scenario_hostile_text() {
  begin hostile-text
  sim --text $'<b>Win</b> <a href="http://evil.example">prize</a> \u202Eevil\u202C\x1b[31m' --after 4 --for 2
  daemon
  # Started here rather than with app: its name is no file name.
  # Named by its desktop entry (nfcscand shows who the bus says an app is): markup there too.
  app_identity '<b>Notes & <i>Co'
  "${APP_WRAP[@]}" "$PY" "$SUPPORT/test_handler_app.py" --app-name '<b>Notes & <i>Co' --record "$DIR/app-markup.jsonl" \
    --filter media-type=text/plain >"$DIR/app-markup.log" 2>&1 &
  pids+=($!)
  wait_for "the app registered" 15 grep -q "^registered" "$DIR/app-markup.log"
  wait_offer "the offer"
  local body; body=$(grep '"event": "notify"' "$DIR/notifications.jsonl" | tail -n 1 | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["body"])' || true)
  echo "    body sent: $body"
  check "no raw markup reaches the server" bash -c '! grep -q "<[ab]" <<<"$1"' _ "$body"
  check "markup is escaped" bash -c 'grep -q "&lt;b&gt;" <<<"$1"' _ "$body"
  check "no bidirectional override or escape character" bash -c '! grep -qP "[\x{202A}-\x{202E}\x{2066}-\x{2069}\x1b]" <<<"$1"' _ "$body"
  local summary appname
  summary=$(grep '"event": "notify"' "$DIR/notifications.jsonl" | tail -n 1 | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["summary"])' || true)
  appname=$(grep '"event": "notify"' "$DIR/notifications.jsonl" | tail -n 1 | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["appname"])' || true)
  echo "    summary sent: $summary; app name sent: $appname"
  check "no markup character in the summary or the app name" bash -c '! grep -q "[<>&]" <<<"$1$2"' _ "$summary" "$appname"
  check "the app's name is shown as it reads" test "$appname" = "＜b＞Notes ＆ ＜i＞Co"
  finish
}
