# shellcheck shell=bash
# e2e: alone (100 clients load every core for 10 s, and p99 under 1 s is a check)

# 100 clients calling the API at once for 10 s: every call answered; p50/p99 printed.
scenario_api_load() {
  begin api-load
  sim --uri https://example.com/poster --after 60 --for 2
  daemon
  local probe; probe=$(latency --clients 100 --seconds 10)
  say "100 clients for 10 s: $probe"
  check "every call of 100 clients over 10 s answered (p99 under 1 s): $probe" worst_under "$probe" 5000
  check "p99 under 1 s" "$PY" -c 'import json,sys; d=json.loads(sys.argv[1]); sys.exit(0 if d["p99_ms"] < 1000 else 1)' "$probe"
  check "nfcscand still runs" kill -0 "$DAEMON_PID"
  finish
}
