# shellcheck shell=bash

# Hostile text: markup is escaped in the body, bidirectional overrides and controls neutralised.
scenario_hostile_text() {
  begin hostile-text
  sim --text $'<b>Win</b> <a href="http://evil.example">prize</a> \u202Eevil\u202C\x1b[31m' --after 4 --for 2
  daemon
  app Notes --filter media-type=text/plain
  wait_offer "the offer"
  local body; body=$(grep '"event": "notify"' "$DIR/notifications.jsonl" | tail -n 1 | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["body"])' || true)
  echo "    body sent: $body"
  check "no raw markup reaches the server" bash -c '! grep -q "<[ab]" <<<"$1"' _ "$body"
  check "markup is escaped" bash -c 'grep -q "&lt;b&gt;" <<<"$1"' _ "$body"
  check "no bidirectional override or escape character" bash -c '! grep -qP "[\x{202A}-\x{202E}\x{2066}-\x{2069}\x1b]" <<<"$1"' _ "$body"
  finish
}
