# shellcheck shell=bash

# Issue 20, lost without a trace: a station whose spool's file system fills up. Four badges are
# read; while the disk is full two of them cannot be kept: they count in `dropped` (the Broker
# property, nfcscan status) and their sequence numbers stay unused, so the broker sees seq 1 and 4
# with a gap a subscriber can tell. nfcscand runs in a private mount namespace with a small tmpfs
# as its state directory (mounting needs root: as another user the scenario is skipped).
scenario_hostile_spool() {
  if [ "$(id -u)" != 0 ]; then say "hostile_spool skipped: a private tmpfs needs root"; return 0; fi
  begin hostile-spool
  mqtt_broker
  mkdir -p "$XDG_CONFIG_HOME/nfcscan" "$XDG_STATE_HOME"
  printf '[broker]\nurl = mqtt://127.0.0.1:%s\nstation = door\n' "$MQTT_PORT" >"$XDG_CONFIG_HOME/nfcscan/nfcscand.conf"
  mqtt_watch "$DIR/mqtt.log" 'nfcscan/door/scan'
  # shellcheck disable=SC2016
  NFCSCAND_WRAP=(unshare --mount --propagation private -- sh -c \
    'mount -t tmpfs -o size=256k,mode=0700 nfcscan-spool "$XDG_STATE_HOME" && exec "$@"' sh)
  pcsc_daemon "
    '$NFCSIM' vpcd --uri https://example.com/badge/1 --after 6 --for 1 &&
    '$NFCSIM' vpcd --uri https://example.com/badge/2 --after 5 --for 1 &&
    '$NFCSIM' vpcd --uri https://example.com/badge/3 --after 3 --for 1 &&
    sleep 6 && '$NFCSIM' vpcd --uri https://example.com/badge/4 --after 1 --for 1"
  wait_for "the first event" 30 grep -q "^nfcscan/door/scan " "$DIR/mqtt.log" || true
  # The disk fills up (dd stops at ENOSPC).
  nsenter --target "$DAEMON_PID" --mount -- dd if=/dev/zero of="$XDG_STATE_HOME/filler" bs=4k 2>/dev/null || true
  wait_for "two events that could not be kept" 30 eval 'test "$(lines_matching "could not be spooled, so it is dropped" "$DIR/nfcscand.log")" -ge 2' || true
  local broker; broker=$(get_property Broker)
  check "the Broker property counts them as dropped and says why ($broker)" \
    bash -c '[[ $1 == *"\"dropped\" t 2"* && $1 == *"could not be kept"* ]]' _ "$broker"
  nsenter --target "$DAEMON_PID" --mount -- rm -f "$XDG_STATE_HOME/filler"
  wait_for "the fourth badge's event" 30 eval 'test "$(lines_matching "^nfcscan/door/scan " "$DIR/mqtt.log")" -ge 2' || true
  local seqs; seqs=$(sed -n 's|^nfcscan/door/scan ||p' "$DIR/mqtt.log" | "$PY" -c 'import json,sys; print(" ".join(str(json.loads(l)["seq"]) for l in sys.stdin))')
  check "the broker saw seq 1 and 4: a gap where the two lost events were, no seq reused ($seqs)" test "$seqs" = "1 4"
  check "nfcscan status --json: 2 dropped" \
    test "$(status_json | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["broker"]["dropped"])')" = 2
  check "nfcscand still runs" kill -0 "$DAEMON_PID"
  finish
}
