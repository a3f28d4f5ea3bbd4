# shellcheck shell=bash
# e2e: alone (100 Gets, the slowest under 50 ms, is a check)

# An app whose HandleScan never answers, and a portal whose OpenURI never answers: the API stays
# answered; the app is not called again and the person is told; the link goes to xdg-open.
scenario_hung_app_and_portal() {
  begin hung-app
  sim --uri https://example.com/poster --after 4 --for 2
  daemon --peer-timeout 4
  app Hung --delay 3600 --filter uri-scheme=https,uri-host=example.com
  wait_offer "the offer"
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "HandleScan taken" 10 eval 'test "$(lines "$DIR/app-Hung.jsonl")" -ge 1' || true
  local probe; probe=$(latency --calls 100)
  check "100 Gets while HandleScan hangs, slowest under 50 ms: $probe" worst_under "$probe" 50
  wait_for "the failure notification" 15 grep -q x-nfcscan.object.error "$DIR/notifications.jsonl" || true
  check "the person is told the app did not take it" grep -q x-nfcscan.object.error "$DIR/notifications.jsonl"
  check "the hung app was called once, never again" test "$(lines "$DIR/app-Hung.jsonl")" = 1
  finish

  begin hung-portal
  hung org.freedesktop.portal.Desktop --session
  sim --uri https://example.org/menu --after 4 --for 2
  daemon --peer-timeout 3
  wait_offer "the offer"
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "OpenURI taken" 10 grep -q OpenURI "$DIR/hung-org.freedesktop.portal.Desktop.jsonl" || true
  local probe; probe=$(latency --calls 100)
  check "100 Gets while OpenURI hangs, slowest under 50 ms: $probe" worst_under "$probe" 50
  wait_for "xdg-open after the portal's deadline" 15 test -s "$DIR/browser.log" || true
  check "the browser got the link once the portal's deadline passed" test "$(cat "$DIR/browser.log" 2>/dev/null)" = "https://example.org/menu"
  finish
}
