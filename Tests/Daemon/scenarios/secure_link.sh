# shellcheck shell=bash

# NTAG 424 DNA secure links (issue 24) through nfcscand: with the keys file of the user it runs
# as, the daemon checks the link of every object it reads and its report carries secure_link
# (nfcscan --json scanning through it). A second simulated chip with the same UID and key starts
# its read counter afresh, as a copy of the first read would: reported replayed. The keys are
# never logged.
scenario_secure_link() {
  begin secure-link
  local key=8f1e2d3c4b5a69788796a5b4c3d2e1f0
  mkdir -p "$XDG_CONFIG_HOME/nfcscan"
  printf '[poster]\nurl = https://example.com/p\nmeta-read-key = %s\nfile-read-key = %s\n' "$key" "$key" \
    >"$XDG_CONFIG_HOME/nfcscan/secure-links"
  chmod 600 "$XDG_CONFIG_HOME/nfcscan/secure-links"
  local chip="'$NFCSIM' vpcd --type type4 --secure-link https://example.com/p --sun-key $key --uid 04a1b2c3d4e5f6"
  pcsc_daemon "$chip --after 6 --for 2 && $chip --after 2 --for 2"
  local run
  for run in 1 2; do
    "$BUILD/nfcscan" --json --timeout 20 >"$DIR/nfcscan$run.out" 2>"$DIR/nfcscan$run.err" || true
    check "read $run: --json follows scan.schema.json" valid_json scan "$DIR/nfcscan$run.out"
  done
  check "the first read: verified, the chip's UID, counter 1, not replayed" \
    test "$(json "$DIR/nfcscan1.out" 'd["records"][0]["secure_link"]')" = "{'verified': True, 'uid': '04a1b2c3d4e5f6', 'counter': 1, 'replayed': False}"
  check "the copy: verified, counter 1 again, replayed" \
    test "$(json "$DIR/nfcscan2.out" 'd["records"][0]["secure_link"]')" = "{'verified': True, 'uid': '04a1b2c3d4e5f6', 'counter': 1, 'replayed': True}"
  check "the daemon keeps the counter in its own state directory" grep -qx "04a1b2c3d4e5f6 1" "$XDG_STATE_HOME/nfcscan/secure-link-counters"
  check "no key in the daemon's log" bash -c '! grep -qi "$1" "$2"' _ "$key" "$DIR/nfcscand.log"
  finish
}
