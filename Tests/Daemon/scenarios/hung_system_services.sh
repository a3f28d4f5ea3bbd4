# shellcheck shell=bash
# e2e: alone (100 Gets, the slowest under 50 ms, is a check)

# logind and NetworkManager that take calls and never answer: the API stays answered and their
# conditions stay unknown (never a pause).
scenario_hung_system_services() {
  begin hung-system --system-bus
  hung org.freedesktop.login1 --system
  hung org.freedesktop.NetworkManager --system
  sim --uri https://example.com/poster --after 30 --for 2
  daemon
  wait_for "GetAll or GetUser taken by the hung services" 10 eval 'test -s "$DIR/hung-org.freedesktop.NetworkManager.jsonl" && test -s "$DIR/hung-org.freedesktop.login1.jsonl"' || true
  local probe; probe=$(latency --calls 100)
  check "100 Gets while logind and NetworkManager hang, slowest under 50 ms: $probe" worst_under "$probe" 50
  check "airplane mode stays unknown" test "$(condition airplane-mode)" = unknown
  check "locked-after-restart stays unknown" test "$(condition locked-after-restart)" = unknown
  finish
}
