# shellcheck shell=bash

# No app for the object: a web link is offered for the browser, through the portal when one runs,
# else xdg-open ($BROWSER); other schemes are never offered.
scenario_web_link() {
  begin weblink
  sim --uri https://example.org/menu --after 4 --for 2
  daemon
  wait_offer "the offer"
  check "offered for the browser" test "$(shown --all | tail -n 1 | "$PY" -c 'import json,sys; d=json.load(sys.stdin); print(d["summary"])')" = "Open https://example.org/menu?"
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "xdg-open ran the browser" 10 test -s "$DIR/browser.log" || true
  check "the browser got exactly the link" test "$(cat "$DIR/browser.log" 2>/dev/null)" = "https://example.org/menu"
  finish

  begin portal
  "$PY" "$SUPPORT/fake_portal.py" --record "$DIR/portal.jsonl" >"$DIR/portal.log" 2>&1 &
  pids+=($!)
  wait_for "the portal" 10 grep -q ready "$DIR/portal.log"
  sim --uri https://example.org/menu --after 4 --for 2
  daemon
  wait_offer "the offer"
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "OpenURI" 10 test -s "$DIR/portal.jsonl" || true
  check "the portal's OpenURI got the link" test "$(json "$DIR/portal.jsonl" 'd["uri"]' 2>/dev/null)" = "https://example.org/menu"
  check "xdg-open was not used" test ! -e "$DIR/browser.log"
  finish

  begin no-browser
  sim --uri https://example.org/menu --after 4 --for 2
  daemon --link-opener nfcscan-e2e-no-such-program
  wait_offer "the offer"
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "the failure notification" 10 grep -q x-nfcscan.object.error "$DIR/notifications.jsonl" || true
  local summary; summary=$(grep 'x-nfcscan.object.error' "$DIR/notifications.jsonl" | head -n 1 | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["summary"])' || true)
  check "no browser could be started: the person is told ($summary)" bash -c "[ -n \"\$1\" ] && $(declare -f copy_ok); copy_ok \"\$1\"" _ "$summary"
  finish

  local uri
  for uri in 'javascript:alert(1)' 'file:///etc/passwd'; do
    begin hostile-scheme
    sim --uri "$uri" --after 3 --for 2
    daemon
    wait_for "the object read" 15 grep -q 'no app asked' "$DIR/nfcscand.log" || true
    object_gone_for 0.5   # the object has come and gone: no offer of it can come later
    check "$uri is never offered" test "$(shown_count)" = 0
    finish
  done
}
